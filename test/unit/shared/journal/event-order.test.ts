/**
 * Rows of one instant keep the broker's event order (docs/journal.md, "Event order"): among rows of one instant
 * from one import that carry a `sequence`, the sequence decides; otherwise the phase order (opens, trades, closes,
 * settlements) stays.
 */
import { describe, expect, it } from 'vitest';
import type { Transaction } from '../../../../src-shared/journal/model';
import { allTime, ledgerOf, tx } from '../../../journal-helpers';

const DAY = '2025-10-20T16:00';
const CALL = { expiration: '2025-11-21', strike: 9, right: 'C' as const };

/** One day of a newest-first file, in event order: bought a call, sold it, then sold one to open. */
function robinhoodDay(withSequence: boolean): Transaction[] {
  const rows = [
    tx({ type: 'BUY_TO_OPEN', ticker: 'OPEN', option: CALL, quantity: 1, price: 2.0, at: DAY, id: 'c' }),
    tx({ type: 'SELL_TO_CLOSE', ticker: 'OPEN', option: CALL, quantity: 1, price: 3.0, at: DAY, id: 'b' }),
    tx({ type: 'SELL_TO_OPEN', ticker: 'OPEN', option: CALL, quantity: 1, price: 5.75, at: DAY, id: 'a' }),
  ];
  return rows.map((row, sequence) => (withSequence ? { ...row, sequence } : row));
}

function optionsPL(transactions: Transaction[]): number {
  return allTime(ledgerOf(transactions)).summary.optionsPL;
}

describe('event order among rows of one instant', () => {
  it('replays one import in its sequence: the long is closed (+100.00) and the later sale opens a short for 575.00', () => {
    const ledger = ledgerOf(robinhoodDay(true));
    // Bought at 2.00 and sold at 3.00, one contract of 100: (3.00 − 2.00) × 100 = 100.00.
    expect(allTime(ledger).summary.optionsPL).toBe(100);
    const open = ledger.positions.filter((p) => p.symbol.startsWith('OPEN'));
    expect(open.map((p) => [p.quantity, p.entryGrossMinor]), 'the sale to open is still open: 5.75 × 100 = 575.00 of premium').toEqual([[-1, 5_750_000]]);
  });

  it('without a sequence the phase order nets the opening sale against the long (what the fix prevents)', () => {
    const ledger = ledgerOf(robinhoodDay(false));
    expect(ledger.positions.filter((p) => p.symbol.startsWith('OPEN')).map((p) => p.quantity), 'no short left open').not.toEqual([-1]);
    expect(optionsPL(robinhoodDay(false))).not.toBe(100);
  });

  it('gives the same ledger whatever order the rows are handed over in', () => {
    const rows = robinhoodDay(true);
    expect(optionsPL([...rows].reverse())).toBe(100);
    expect(optionsPL([rows[1], rows[2], rows[0]].filter((row): row is Transaction => row !== undefined))).toBe(100);
  });

  it('keeps the phase order for rows of other imports and rows without a sequence, in the places they held', () => {
    // A manual opening row (no sequence, another import) at the same instant as an imported close: the open comes
    // first by phase, and the imported rows keep their own order around it.
    const manualOpen = { ...tx({ type: 'BUY_TO_OPEN', ticker: 'OPEN', option: CALL, quantity: 1, price: 1.0, at: DAY, id: 'z' }), importId: 2 };
    const imported = robinhoodDay(true).slice(1);
    const ledger = ledgerOf([...imported, manualOpen]);
    // Sold at 3.00 what the manual row bought at 1.00: 200.00; the later sale to open stays open.
    expect(allTime(ledger).summary.optionsPL).toBe(200);
    expect(ledger.positions.filter((p) => p.symbol.startsWith('OPEN')).map((p) => p.quantity)).toEqual([-1]);
  });

  it('does not reorder rows of different instants', () => {
    const rows = [
      { ...tx({ type: 'BUY_TO_OPEN', ticker: 'OPEN', option: CALL, quantity: 1, price: 2.0, at: '2025-10-20T10:00', id: 'x' }), sequence: 1 },
      { ...tx({ type: 'SELL_TO_CLOSE', ticker: 'OPEN', option: CALL, quantity: 1, price: 3.0, at: '2025-10-20T11:00', id: 'y' }), sequence: 0 },
    ];
    // Times say open then close, whatever the sequence says: 100.00.
    expect(optionsPL(rows)).toBe(100);
  });
});
