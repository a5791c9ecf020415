/**
 * What an open trade still holds (docs/journal.md §Trades and strategies, "The service"): its own open lots per
 * instrument, so that two trades of one contract are each marked with their own entry; FIFO across them as the ledger
 * closes; together they are the ledger's open position to the minor unit. Hand computations in dollars.
 */
import { describe, expect, it } from 'vitest';
import { ledgerOf, tx } from '../../../journal-helpers';
import { minor, tradesOf } from '../../../trade-helpers';

const put = { expiration: '2024-03-15', strike: 95, right: 'P' as const };

describe('an open trade’s own lots', () => {
  // Two trades sell the same put: 1 at 2.00 (cost 1.00) on Mar 1, 2 at 1.50 (cost 2.00) on Mar 4.
  const first = tx({ type: 'SELL_TO_OPEN', option: put, quantity: 1, price: 2, commission: 1, at: '2024-03-01T10:00', orderId: 'a' });
  const second = tx({ type: 'SELL_TO_OPEN', option: put, quantity: 2, price: 1.5, commission: 2, at: '2024-03-04T10:00', orderId: 'b' });

  it('each trade holds its own contracts at its own entry', () => {
    const book = tradesOf([first, second]);
    expect(book.openParts.get(first.id)).toEqual([{ accountId: 'acct', currency: 'USD', symbol: first.symbol, quantity: -1, entryGrossMinor: minor(200), entryCostsMinor: minor(1) }]);
    expect(book.openParts.get(second.id)).toEqual([{ accountId: 'acct', currency: 'USD', symbol: first.symbol, quantity: -2, entryGrossMinor: minor(300), entryCostsMinor: minor(2) }]);
  });

  it('a buy-back of 2 takes FIFO: the first trade closes, the second keeps 1 of its 2 at half its entry; the parts add up to the ledger’s position', () => {
    const back = tx({ type: 'BUY_TO_CLOSE', option: put, quantity: 2, price: 0.5, at: '2024-03-06T10:00', orderId: 'c' });
    const rows = [first, second, back];
    const book = tradesOf(rows);
    expect(book.openParts.has(first.id), 'closed: nothing open').toBe(false);
    expect(book.byId.get(first.id)?.status).toBe('closed');
    expect(book.openParts.get(second.id)).toEqual([{ accountId: 'acct', currency: 'USD', symbol: first.symbol, quantity: -1, entryGrossMinor: minor(150), entryCostsMinor: minor(1) }]);
    const [position] = ledgerOf(rows).positions;
    expect([position?.quantity, position?.entryGrossMinor, position?.entryCostsMinor]).toEqual([-1, minor(150), minor(1)]);
  });
});
