/**
 * What an open trade still holds (docs/journal.md §Trades and strategies, "The service"): its own open lots per
 * instrument, so that two trades of one contract are each marked with their own entry; FIFO across them as the ledger
 * closes; together they are the ledger's open position to the minor unit. Hand computations in dollars.
 */
import { describe, expect, it } from 'vitest';
import { asAccountId, storedTicker } from '../../../../src-shared/ids';
import { NO_NODE, TaggedLotBook } from '../../../../src-shared/journal/trade-lots';
import { ledgerOf, tx } from '../../../journal-helpers';
import { minor, tradesOf } from '../../../trade-helpers';

const ACCT = asAccountId('acct');

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

describe('the trade grouping\'s lot book by hand (TaggedLotBook): cases for the mutation run (issue 31 item 5)', () => {
  const SHARES = { symbol: 'ABC', underlying: storedTicker('ABC'), isOption: false, expiration: null, strike: null, right: null, multiplier: 1 };
  const CALL = { symbol: 'ABC   240621C00050000', underlying: storedTicker('ABC'), isOption: true, expiration: '2024-06-21', strike: 50, right: 'C' as const, multiplier: 100 };
  const PUT = { ...CALL, symbol: 'ABC   240621P00045000', strike: 45, right: 'P' as const };

  it('the slot\'s holdings: long shares and their cost, and the shares a short call promises (not a long call, not a put)', () => {
    const book = new TaggedLotBook();
    const shares = book.ofInstrument(ACCT, 'USD', SHARES);
    const call = book.ofInstrument(ACCT, 'USD', CALL);
    const put = book.ofInstrument(ACCT, 'USD', PUT);
    expect(shares.slot, 'one slot for the underlying').toBe(call.slot);
    book.open(shares, '2024-05-01', 1, 100, 5_000_000, 10_000, 1);
    book.open(shares, '2024-05-02', 1, 50, 2_600_000, 5_000, 2);
    book.open(call, '2024-05-03', -1, 1, 15_000, 100, 1);
    book.open(put, '2024-05-03', -1, 2, 30_000, 200, 3);
    expect(shares.slot, '150 shares at 5,010,000 + 2,605,000; 1 short call × 100').toEqual({ sharesLong: 150, shareCostMinor: 7_615_000, shortCallShares: 100 });
    // Selling 120 shares: all of the first lot, 20 of the 50 of the second (cost 2/5 of 2,605,000 = 1,042,000).
    const sold = book.close(shares, 120, 6_000_000, 12_000);
    expect(sold.slices.map((s) => [s.node, s.qty, s.entryGrossMinor, s.entryCostsMinor, s.exitGrossMinor, s.exitCostsMinor, s.pnlMinor]), 'one slice a trade, exit prorated 100/120 then the rest').toEqual([
      [1, 100, 5_000_000, 10_000, 5_000_000, 10_000, -20_000],
      [2, 20, 1_040_000, 2_000, 1_000_000, 2_000, -44_000],
    ]);
    expect(shares.slot, '30 shares at 1,563,000 left').toEqual({ sharesLong: 30, shareCostMinor: 1_563_000, shortCallShares: 100 });
    expect([book.openLots.get(1), book.openLots.get(2), book.openLots.get(3)], 'trade 1 keeps its call; 2 its 30 shares; 3 its puts').toEqual([1, 1, 1]);
    book.close(call, 1, 5_000, 0);
    expect([shares.slot.shortCallShares, book.openLots.get(1), call.side, call.lots], 'the call bought back: trade 1 holds nothing').toEqual([0, 0, 0, []]);
    const rest = book.close(shares, 40, 2_000_000, 0);
    expect([rest.closedQty, rest.restQty, rest.restGrossMinor], '30 closed; 10 with no lot, at a quarter of the exit').toEqual([30, 10, 500_000]);
    expect([shares.slot.sharesLong, shares.slot.shareCostMinor, shares.qty, shares.side], 'flat').toEqual([0, 0, 0, 0]);
  });

  it('claim: the front of a lot given to another trade, split by the remainder method; nothing for a gone lot or its own trade', () => {
    const book = new TaggedLotBook();
    const shares = book.ofInstrument(ACCT, 'USD', SHARES);
    book.open(shares, '2024-05-01', 1, 3, 1_000_000, 10_000, NO_NODE);
    const lot = book.lastLot(shares);
    if (lot === undefined) throw new Error('a lot was opened');
    // 1 of 3: 1/3 of 1,000,000 rounds to 333,333, of 10,000 to 3,333; the rest keeps 666,667 and 6,667.
    expect(book.claim(shares, lot, 1, 7)).toEqual({ qty: 1, grossMinor: 333_333, costsMinor: 3_333 });
    expect(shares.lots.map((l) => [l.qty, l.grossMinor, l.costsMinor, l.node]), 'the claimed front first, then the rest').toEqual([[1, 333_333, 3_333, 7], [2, 666_667, 6_667, NO_NODE]]);
    expect([book.openLots.get(7), book.openLots.has(NO_NODE)], 'trade 7 holds a lot; shares outside trades are not counted').toEqual([1, false]);
    expect(book.claim(shares, lot, 1, 7), 'its own trade already').toBeNull();
    const back = shares.lots[1];
    if (back === undefined) throw new Error('the rest is a lot');
    expect(book.claim(shares, back, 5, 8), 'more than the lot: the lot whole').toEqual({ qty: 2, grossMinor: 666_667, costsMinor: 6_667 });
    expect(shares.lots.length, 'no split').toBe(2);
    book.close(shares, 3, 0, 0);
    expect(book.claim(shares, back, 1, 9), 'a closed lot').toBeNull();
    expect([book.openLots.get(7), book.openLots.get(8)], 'both trades closed').toEqual([0, 0]);
  });

  it('sharesByNode: long shares per trade in FIFO order of their first lot; none for options, short shares or no position', () => {
    const book = new TaggedLotBook();
    const shares = book.ofInstrument(ACCT, 'USD', SHARES);
    book.open(shares, '2024-05-01', 1, 10, 100_000, 1_000, 4);
    book.open(shares, '2024-05-02', 1, 5, 60_000, 500, NO_NODE);
    book.open(shares, '2024-05-03', 1, 2, 30_000, 0, 4);
    book.close(shares, 4, 0, 0);
    expect([...book.sharesByNode(shares)], 'trade 4: 6 + 2 shares at 60,600 + 30,000; outside trades 5').toEqual([
      [4, { shares: 8, costMinor: 90_600 }],
      [NO_NODE, { shares: 5, costMinor: 60_500 }],
    ]);
    const short = book.ofInstrument(ACCT, 'USD', { ...SHARES, symbol: 'XYZ', underlying: storedTicker('XYZ') });
    book.open(short, '2024-05-01', -1, 10, 100_000, 0, 5);
    expect(book.sharesByNode(short).size, 'short shares').toBe(0);
    expect(book.sharesByNode(book.ofInstrument(ACCT, 'USD', PUT)).size, 'an option').toBe(0);
    expect(book.sharesByNode(undefined).size, 'no position').toBe(0);
  });

  it('a split scales the held shares and keeps their cost; a lot added by a corporate action is in the holdings; a move carries them', () => {
    const book = new TaggedLotBook();
    const shares = book.ofInstrument(ACCT, 'USD', SHARES);
    book.open(shares, '2024-05-03', 1, 10, 500_000, 0, 1);
    book.scale(shares, 3);
    expect(shares.slot, '30 shares, cost kept').toEqual({ sharesLong: 30, shareCostMinor: 500_000, shortCallShares: 0 });
    book.addLot(shares, '2024-05-01', 5, 40_000, 0, 2);
    expect(shares.lots.map((l) => [l.openDay, l.node]), 'the older lot first').toEqual([['2024-05-01', 2], ['2024-05-03', 1]]);
    expect(shares.slot, '35 shares at 540,000').toEqual({ sharesLong: 35, shareCostMinor: 540_000, shortCallShares: 0 });
    const renamed = book.ofInstrument(ACCT, 'USD', { ...SHARES, symbol: 'ABD', underlying: storedTicker('ABD') });
    expect(book.move(shares, renamed), 'moved').toBe(true);
    expect([shares.slot.sharesLong, shares.slot.shareCostMinor, renamed.slot.sharesLong, renamed.slot.shareCostMinor, renamed.qty], 'all of it in the new slot').toEqual([0, 0, 35, 540_000, 35]);
    const shortOther = book.ofInstrument(ACCT, 'USD', { ...SHARES, symbol: 'ABE', underlying: storedTicker('ABE') });
    book.open(shortOther, '2024-05-04', -1, 1, 1_000, 0, 3);
    expect(book.move(renamed, shortOther), 'onto a position open on the other side: refused').toBe(false);
    expect(renamed.qty, 'nothing moved').toBe(35);
    book.scale(renamed, 0);
    expect([renamed.qty, renamed.slot.sharesLong, renamed.slot.shareCostMinor, book.openLots.get(1), book.openLots.get(2)], 'a factor of 0: gone').toEqual([0, 0, 0, 0, 0]);
  });
});

