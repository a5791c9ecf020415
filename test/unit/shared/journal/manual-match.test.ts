/**
 * When a manual opening duplicates imported rows (manual-match.ts; docs/journal.md, "Manual entries"): the imported
 * rows hold its position at the close of its day, the closes after it do not need it whole, and it is dated inside the
 * imported history. Each case written out by hand.
 */
import { describe, expect, it } from 'vitest';
import { duplicatesImported, importedCover, type ManualOpening } from '../../../../src-shared/journal/manual-match';
import { tx } from '../../../journal-helpers';

const PUT = { expiration: '2024-06-21', strike: 45, right: 'P' as const };
const sto = (quantity: number, at: string) => tx({ type: 'SELL_TO_OPEN', option: PUT, quantity, price: 1, at });
const btc = (quantity: number, at: string) => tx({ type: 'BUY_TO_CLOSE', option: PUT, quantity, price: 0.2, at });
/** A manual sale to open of `quantity` on 14 March. */
const manual = (quantity: number): ManualOpening => ({ side: -1, quantity, tradeDay: '2024-03-14' });

describe('a manual opening against the imported rows of its instrument', () => {
  it('the older file holds the same sale, the newer one closes it: a duplicate, naming the sale', () => {
    const sale = sto(1, '2024-03-01T10:00');
    const cover = importedCover(manual(1), [sale, btc(1, '2024-03-20T10:00')]);
    expect(cover).toEqual({ held: 1, gap: 0, opening: sale });
    expect(duplicatesImported(manual(1), cover, '2024-03-20')).toBe(true);
  });

  it('a manual 2 against two imported fills of 1: one position, a duplicate', () => {
    const cover = importedCover(manual(2), [sto(1, '2024-03-01T10:00'), sto(1, '2024-03-05T10:00'), btc(2, '2024-03-20T10:00')]);
    expect([cover.held, cover.gap]).toEqual([2, 0]);
    expect(duplicatesImported(manual(2), cover, '2024-03-20')).toBe(true);
  });

  it('a manual 2 against an imported 1 that a close of 2 takes: still a duplicate; the missing 1 is the gap', () => {
    // The files hold 1 on 14 March; the close of 2 on 20 March finds 1: a gap of 1, fewer than the 2 entered.
    const cover = importedCover(manual(2), [sto(1, '2024-03-01T10:00'), btc(2, '2024-03-20T10:00')]);
    expect([cover.held, cover.gap]).toEqual([1, 1]);
    expect(duplicatesImported(manual(2), cover, '2024-03-20')).toBe(true);
  });

  it('the closes need it whole (they take 2 where the files hold 1): a 1 entered fills their gap, no duplicate', () => {
    const cover = importedCover(manual(1), [sto(1, '2024-03-01T10:00'), btc(2, '2024-03-20T10:00')]);
    expect([cover.held, cover.gap]).toEqual([1, 1]);
    expect(duplicatesImported(manual(1), cover, '2024-03-20')).toBe(false);
  });

  it('the imported sale was bought back before its day: nothing held, no duplicate', () => {
    const cover = importedCover(manual(1), [sto(1, '2024-03-01T10:00'), btc(1, '2024-03-08T10:00')]);
    expect(cover.held).toBe(0);
    expect(duplicatesImported(manual(1), cover, '2024-03-08')).toBe(false);
  });

  it('dated after the imported history: new activity, never a duplicate', () => {
    const shares = { side: 1 as const, quantity: 100, tradeDay: '2025-06-02' };
    const cover = importedCover(shares, [tx({ type: 'BUY', ticker: 'AAPL', quantity: 100, price: 150, at: '2019-05-01T10:00' })]);
    expect(cover.held).toBe(100);
    expect(duplicatesImported(shares, cover, '2019-12-31')).toBe(false);
    expect(duplicatesImported(shares, cover, null), 'no imported row at all').toBe(false);
  });

  it('an imported sale after its day is another opening: nothing held on its day', () => {
    const cover = importedCover(manual(1), [sto(1, '2024-03-15T10:00'), btc(1, '2024-03-20T10:00')]);
    expect(cover).toEqual({ held: 0, gap: 0, opening: null });
  });

  it('the other side: an imported long of the contract is no duplicate of a manual short', () => {
    const cover = importedCover(manual(1), [tx({ type: 'BUY_TO_OPEN', option: PUT, quantity: 1, price: 1, at: '2024-03-01T10:00' })]);
    expect(cover.held).toBe(0);
  });

  it('an assignment after its day that finds nothing is a gap on the short side', () => {
    const cover = importedCover(manual(1), [tx({ type: 'ASSIGNMENT', option: PUT, quantity: 1, at: '2024-06-21T17:00' })]);
    expect(cover).toEqual({ held: 0, gap: 1, opening: null });
  });
});
