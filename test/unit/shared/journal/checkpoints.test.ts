/**
 * The book at a past instant from a checkpoint (docs/journal.md §Checkpoints) is the ledger built from the rows up to
 * that instant: positions with their lots' values, every chain's figures and legs, the rolls and the unmatched closes,
 * at instants on day boundaries, inside days, on a row's own instant, before the first checkpoint and after the last.
 */
import { describe, expect, it } from 'vitest';
import { syntheticTransactions } from '../../../../src-shared/demo/journal';
import { firstWhere, rowsEndBy, type BookLedger } from '../../../../src-shared/journal/checkpoints';
import { buildLedger, resumeLedger, type Ledger } from '../../../../src-shared/journal/index';
import type { Transaction } from '../../../../src-shared/journal/model';
import { instantMs, rowOrder } from '../../../../src-shared/journal/order';
import { stored, tx } from '../../../journal-helpers';

/** The book of the rows up to `asOfMs`, replayed from the nearest checkpoint of `complete` before it. */
function bookAt(complete: Ledger, byId: ReadonlyMap<string, Transaction>, asOfMs: number): BookLedger {
  const cps = complete.checkpoints;
  if (cps === undefined) throw new Error('no checkpoints');
  const list = cps.checkpoints;
  const checkpoint = list[firstWhere(list.length, (i) => (list[i]?.lastInstantMs ?? 0) > asOfMs) - 1] ?? null;
  // The rows after the checkpoint up to asOf, and a few past it: the walk stops at asOf.
  const rows = cps.ids.slice(checkpoint?.position ?? 0, rowsEndBy(cps, asOfMs)).map((id) => byId.get(id));
  return resumeLedger(complete, checkpoint, rows.filter((row): row is Transaction => row !== undefined), asOfMs);
}

/** What the positions and campaigns read of a book, comparable with toEqual (positions in a fixed order: the reads sort them). */
function figures(book: BookLedger) {
  const chains = book.campaigns.map(({ steps: _steps, ...chain }) => chain);
  const key = (p: { accountId: string; currency: string; symbol: string }) => `${p.accountId} ${p.currency} ${p.symbol}`;
  const positions = [...book.positions].sort((a, b) => key(a).localeCompare(key(b)));
  return { positions, chains, rolls: book.rolls, unmatched: book.unmatched };
}

describe('checkpoints', () => {
  // Three thousand rows of the synthetic journal without their first 400 (closes of positions opened before the cut:
  // unmatched closes), with manual openings for two of them dated on the day of their first unmatched close.
  const all = stored(syntheticTransactions(3_000, 5), { fastDay: true });
  const cut = all.slice(400);
  const uncut = buildLedger(cut, { reportingCurrency: 'USD' });
  const manual = uncut.unmatched.slice(0, 2).map((u, index) =>
    tx({
      type: u.quantity > 0 ? (u.isOption ? 'BUY_TO_OPEN' : 'BUY') : u.isOption ? 'SELL_TO_OPEN' : 'SELL_SHORT',
      ticker: u.underlying,
      ...(u.isOption && u.expiration !== null && u.strike !== null && u.right !== null ? { option: { expiration: u.expiration, strike: u.strike, right: u.right } } : {}),
      quantity: Math.abs(u.quantity),
      price: 1,
      at: `${u.firstDay}T19:59:00Z`,
      account: u.accountId,
      currency: u.currency,
      source: 'manual',
      id: `manual-${index}`,
    }),
  );
  const rows = [...cut, ...manual];
  const byId = new Map(rows.map((row) => [row.id, row]));
  const complete = buildLedger(rows, { reportingCurrency: 'USD', checkpointEvery: 150 });

  it('the cut journal has unmatched closes, manual openings and checkpoints to test against', () => {
    expect(uncut.unmatched.length, 'closes of positions opened before the cut').toBeGreaterThan(5);
    expect(complete.unmatched.length, 'two of them are matched by the manual openings').toBe(uncut.unmatched.length - 2);
    expect(complete.checkpoints?.checkpoints.length).toBeGreaterThan(10);
    expect(complete.campaigns.length).toBeGreaterThan(50);
  });

  it('replays to the same book as a build of the rows up to the instant', { timeout: 120_000 }, () => {
    const instants = [...new Set(rows.map((row) => instantMs(row.tradeDate, row.tradeDay)))].sort((a, b) => a - b);
    const first = instants[0] ?? 0;
    const last = instants[instants.length - 1] ?? 0;
    const samples = [first - 1, first, last, last + 86_400_000];
    for (let i = 0; i < 30; i += 1) {
      const at = instants[Math.floor(((i + 0.5) / 30) * instants.length)] ?? first;
      // On a row's instant, just before it, and at the day's end New York time (23:59 EST is 04:59 UTC next day).
      samples.push(at, at - 1, Date.UTC(new Date(at).getUTCFullYear(), new Date(at).getUTCMonth(), new Date(at).getUTCDate() + 1, 4, 59));
    }
    // The instant each row counts at (a manual opening's is its day's first).
    const { effectiveMs } = rowOrder(rows);
    const counted = new Map(rows.map((row, i) => [row.id, effectiveMs[i] ?? Number.NaN]));
    const effective = (row: Transaction) => counted.get(row.id) ?? Number.NaN;
    let replayed = 0;
    for (const asOfMs of samples) {
      const expected = buildLedger(rows.filter((row) => effective(row) <= asOfMs), { reportingCurrency: 'USD' });
      const actual = bookAt(complete, byId, asOfMs);
      if ((complete.checkpoints?.checkpoints[0]?.lastInstantMs ?? Infinity) < asOfMs) replayed += 1;
      expect(figures(actual), new Date(asOfMs).toISOString()).toEqual(figures(expected));
    }
    expect(replayed, 'most instants start from a checkpoint, not from the first row').toBeGreaterThan(75);
  });

  it('leaves the complete ledger as it was (a replay copies what it changes)', () => {
    const before = JSON.stringify(figures(complete));
    const middle = complete.checkpoints?.checkpoints[5]?.lastInstantMs ?? 0;
    bookAt(complete, byId, middle);
    bookAt(complete, byId, middle + 3 * 86_400_000);
    expect(JSON.stringify(figures(complete))).toBe(before);
  });
});

describe('checkpoints across a campaign whose expiry is unknown and dividends paid after the shares left', () => {
  // Hand-written: a 2022 put no row settles (its campaign takes no later trade), rolled puts of a later campaign beside
  // it, a late expiration booked the next trading day, and a wheel whose dividend is paid after the shares were called
  // away while a put-only campaign is open. A checkpoint every two rows falls between every pair of these.
  const put = (expiration: string, strike: number) => ({ expiration, strike, right: 'P' as const });
  const call = (expiration: string, strike: number) => ({ expiration, strike, right: 'C' as const });
  const rows = [
    tx({ type: 'SELL_TO_OPEN', ticker: 'SPX', option: put('2022-01-21', 4300), quantity: 1, price: 10, at: '2022-01-03T10:00' }),
    tx({ type: 'SELL_TO_OPEN', ticker: 'SPX', option: put('2022-03-18', 4000), quantity: 1, price: 12, at: '2022-02-01T10:00' }),
    tx({ type: 'BUY_TO_CLOSE', ticker: 'SPX', option: put('2022-03-18', 4000), quantity: 1, price: 5, at: '2022-02-15T10:00', orderId: 'r1' }),
    tx({ type: 'SELL_TO_OPEN', ticker: 'SPX', option: put('2022-04-14', 3900), quantity: 1, price: 9, at: '2022-02-15T10:00', orderId: 'r1' }),
    tx({ type: 'BUY_TO_CLOSE', ticker: 'SPX', option: put('2022-04-14', 3900), quantity: 1, price: 2, at: '2022-03-01T10:00' }),
    tx({ type: 'SELL_TO_OPEN', ticker: 'AAA', option: put('2022-05-20', 10), quantity: 1, price: 0.5, at: '2022-05-02T16:00' }),
    tx({ type: 'SELL_TO_OPEN', ticker: 'AAA', option: put('2022-06-17', 9), quantity: 1, price: 0.3, at: '2022-05-23T16:00' }),
    tx({ type: 'EXPIRATION', ticker: 'AAA', option: put('2022-05-20', 10), quantity: 1, at: '2022-05-23T16:00' }),
    tx({ type: 'EXPIRATION', ticker: 'AAA', option: put('2022-06-17', 9), quantity: 1, at: '2022-06-17T16:00' }),
    tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: put('2022-07-15', 50), quantity: 1, price: 2, at: '2022-07-01T10:00' }),
    tx({ type: 'ASSIGNMENT', ticker: 'XYZ', option: put('2022-07-15', 50), quantity: 1, at: '2022-07-15T17:00' }),
    tx({ type: 'BUY', ticker: 'XYZ', quantity: 100, price: 50, at: '2022-07-15T17:00' }),
    tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: call('2022-08-19', 52), quantity: 1, price: 1.5, at: '2022-07-18T10:00' }),
    tx({ type: 'ASSIGNMENT', ticker: 'XYZ', option: call('2022-08-19', 52), quantity: 1, at: '2022-08-19T17:00' }),
    tx({ type: 'SELL', ticker: 'XYZ', quantity: 100, price: 52, at: '2022-08-19T17:00' }),
    tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: put('2022-09-16', 48), quantity: 1, price: 1, at: '2022-08-22T10:00' }),
    tx({ type: 'DIVIDEND', ticker: 'XYZ', amount: 25, at: '2022-09-01T09:00' }),
    tx({ type: 'DIVIDEND', ticker: 'XYZ', amount: 30, at: '2022-12-01T09:00' }),
  ];
  const byId = new Map(rows.map((row) => [row.id, row]));
  const complete = buildLedger(rows, { reportingCurrency: 'USD', checkpointEvery: 2 });

  it('the journal holds what the test is about', () => {
    expect(complete.campaigns.map((c) => [c.underlying, c.openDay, c.closeDay, c.rolls, c.dividendsMinor])).toEqual([
      ['SPX', '2022-01-03', null, 0, 0],
      ['SPX', '2022-02-01', '2022-03-01', 1, 0],
      ['AAA', '2022-05-02', '2022-05-23', 0, 0],
      ['AAA', '2022-05-23', '2022-06-17', 0, 0],
      // The wheel earns the first dividend (its shares left 13 days before); the second comes 104 days after: the account's.
      ['XYZ', '2022-07-01', '2022-08-19', 0, 250_000],
      ['XYZ', '2022-08-22', null, 0, 0],
    ]);
    expect(complete.accountDividends).toEqual([{ accountId: 'acct', currency: 'USD', dividendsMinor: 300_000 }]);
    expect(complete.checkpoints?.checkpoints.length).toBeGreaterThan(5);
  });

  it('replays to the same book as a build of the rows up to each instant', () => {
    const { effectiveMs } = rowOrder(rows);
    const counted = rows.map((row, i) => ({ row, ms: effectiveMs[i] ?? Number.NaN }));
    const instants = [...new Set(counted.map((c) => c.ms))].sort((a, b) => a - b);
    for (const at of instants) {
      for (const asOfMs of [at - 1, at, at + 86_400_000]) {
        const expected = buildLedger(counted.filter((c) => c.ms <= asOfMs).map((c) => c.row), { reportingCurrency: 'USD' });
        expect(figures(bookAt(complete, byId, asOfMs)), new Date(asOfMs).toISOString()).toEqual(figures(expected));
      }
    }
  });
});
