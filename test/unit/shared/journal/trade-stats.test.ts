/**
 * The trades list and the stats (docs/journal.md §Trades and strategies): filters and pages; rows per strategy, dte
 * and |delta| bucket, zone, strike against the levels, underlying, month and tag, over the closed trades whose P&L is
 * known, in one currency. Every figure by hand from the trades' P&L written in the comments (dollars).
 */
import { describe, expect, it } from 'vitest';
import type { DealerLevels } from '../../../../src-shared/journal/book';
import type { EntryLookup } from '../../../../src-shared/journal/trade-metrics';
import { deltaBucket, dteBucket, queryTrades, tradeStats, type StatsRow } from '../../../../src-shared/journal/trade-stats';
import { tx } from '../../../journal-helpers';
import { minor, tradesOf } from '../../../trade-helpers';
import { asAccountId, asTicker } from '../../../../src-shared/ids';

const LEVELS: DealerLevels = { putWall: 90, gammaFlip: 100, callWall: 110, gammaZone: 'positive' };
const opt = (strike: number, right: 'C' | 'P', expiration: string) => ({ expiration, strike, right });

/** XYZ: positive gamma, deltas −0.15 (the 50 put) and −0.35 (the 95 put); ABC: negative gamma, no delta; XSP: none. */
const lookup: EntryLookup = ({ underlying, atMs, leg }) => {
  if (underlying === 'XYZ') return { quoteTime: new Date(atMs - 60_000).toISOString(), spot: 100, delta: leg?.strike === 50 ? -0.15 : -0.35, levels: LEVELS };
  if (underlying === 'ABC') return { quoteTime: new Date(atMs - 60_000).toISOString(), spot: 100, delta: null, levels: { ...LEVELS, gammaZone: 'negative' } };
  return null;
};

const rows = [
  // A: XYZ short put, 14 dte, expired: +298 (collateral 10,000, max profit 298).
  tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: opt(50, 'P', '2024-03-15'), quantity: 2, price: 1.5, commission: 2, at: '2024-03-01T10:00', orderId: 'a' }),
  tx({ type: 'EXPIRATION', ticker: 'XYZ', option: opt(50, 'P', '2024-03-15'), quantity: 2, at: '2024-03-15T16:00' }),
  // B: XYZ short put, 4 dte, bought back at a loss two days later: 100 − 300 − 1 = −201 (collateral 9,500, max profit 99).
  tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: opt(95, 'P', '2024-03-08'), quantity: 1, price: 1, commission: 1, at: '2024-03-04T10:00', orderId: 'b' }),
  tx({ type: 'BUY_TO_CLOSE', ticker: 'XYZ', option: opt(95, 'P', '2024-03-08'), quantity: 1, price: 3, at: '2024-03-06T10:00', orderId: 'b2' }),
  // C: ABC put credit spread 95/90, 49 dte, closed 04-02: 180 − 60 − 2 − 40 + 10 = 88 (collateral 382, max profit 118).
  tx({ type: 'SELL_TO_OPEN', ticker: 'ABC', option: opt(95, 'P', '2024-04-19'), quantity: 1, price: 1.8, commission: 1, at: '2024-03-01T11:00', orderId: 'c' }),
  tx({ type: 'BUY_TO_OPEN', ticker: 'ABC', option: opt(90, 'P', '2024-04-19'), quantity: 1, price: 0.6, commission: 1, at: '2024-03-01T11:00', orderId: 'c' }),
  tx({ type: 'BUY_TO_CLOSE', ticker: 'ABC', option: opt(95, 'P', '2024-04-19'), quantity: 1, price: 0.4, at: '2024-04-02T10:00', orderId: 'c2' }),
  tx({ type: 'SELL_TO_CLOSE', ticker: 'ABC', option: opt(90, 'P', '2024-04-19'), quantity: 1, price: 0.1, at: '2024-04-02T10:00', orderId: 'c2' }),
  // D: XSP 0DTE long call, expired: −10 (collateral 10, no max profit).
  tx({ type: 'BUY_TO_OPEN', ticker: 'XSP', option: opt(500, 'C', '2024-03-15'), quantity: 1, price: 0.1, at: '2024-03-15T10:00', orderId: 'd' }),
  tx({ type: 'EXPIRATION', ticker: 'XSP', option: opt(500, 'C', '2024-03-15'), quantity: 1, at: '2024-03-15T16:00' }),
  // Left out of the stats: an open trade, a trade opened before history, a trade in another currency.
  tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: opt(45, 'P', '2024-05-17'), quantity: 1, price: 1, at: '2024-04-10T10:00', orderId: 'e' }),
  tx({ type: 'BUY_TO_CLOSE', ticker: 'XYZ', option: opt(40, 'P', '2024-05-17'), quantity: 1, price: 0.2, at: '2024-04-11T10:00', orderId: 'f' }),
  tx({ type: 'SELL_TO_OPEN', ticker: 'SAP', option: opt(150, 'P', '2024-03-15'), quantity: 1, price: 2, at: '2024-03-01T10:00', orderId: 'g', currency: 'EUR' }),
  tx({ type: 'EXPIRATION', ticker: 'SAP', option: opt(150, 'P', '2024-03-15'), quantity: 1, at: '2024-03-15T16:00', currency: 'EUR' }),
];
const book = tradesOf(rows, lookup);
const idOf = (underlying: string, openDay: string): string => book.trades.find((t) => t.underlying === underlying && t.openDay === openDay)?.id ?? '';

const row = (rowsOut: readonly StatsRow[], key: string | null) => rowsOut.find((r) => r.key === key);
const stats = (groupBy: Parameters<typeof tradeStats>[1]['groupBy'], extra: Partial<Parameters<typeof tradeStats>[1]> = {}) =>
  tradeStats(book, { groupBy, currency: 'USD', ...extra }).rows;

describe('buckets', () => {
  it.each([
    [0, '0'],
    [1, '1-7'],
    [7, '1-7'],
    [8, '8-21'],
    [21, '8-21'],
    [22, '22-45'],
    [45, '22-45'],
    [46, '46+'],
    [null, 'unknown'],
  ] as const)('dte %s → %s', (dte, bucket) => expect(dteBucket(dte)).toBe(bucket));

  it.each([
    [-0.05, '<0.10'],
    [0.1, '0.10-0.20'],
    [-0.1999, '0.10-0.20'],
    [0.2, '0.20-0.30'],
    [-0.3, '0.30-0.40'],
    [0.4, '>=0.40'],
    [-0.95, '>=0.40'],
    [null, 'unknown'],
  ] as const)('delta %s → %s (by size)', (delta, bucket) => expect(deltaBucket(delta)).toBe(bucket));
});

describe('stats over the closed trades', () => {
  it('by strategy: counts, win rate, averages, profit factor, largest loss', () => {
    const out = stats('strategy');
    expect(out.map((r) => [r.key, r.trades]), 'alphabetical; the open, before-history and EUR trades left out').toEqual([
      ['credit_spread', 1],
      ['long_call', 1],
      ['short_put', 2],
    ]);
    const puts = row(out, 'short_put');
    expect([puts?.wins, puts?.losses, puts?.winRate], 'A wins, B loses').toEqual([1, 1, 0.5]);
    expect([puts?.pnlMinor, puts?.avgPnlMinor, puts?.avgWinMinor, puts?.avgLossMinor, puts?.largestLossMinor], '298 − 201 = 97, /2 = 48.50').toEqual([
      minor(97),
      minor(48.5),
      minor(298),
      minor(-201),
      minor(-201),
    ]);
    expect(puts?.profitFactor, '298 / 201').toBeCloseTo(298 / 201, 12);
    expect(puts?.avgDaysHeld, '(14 + 2) / 2').toBe(8);
    expect(puts?.avgReturnOnCollateral, '(298 / 10,000 − 201 / 9,500) / 2').toBeCloseTo((298 / 10_000 - 201 / 9_500) / 2, 12);
    expect(puts?.avgPctOfMaxProfit, '(298 / 298 − 201 / 99) / 2').toBeCloseTo((1 - 201 / 99) / 2, 12);
    const call = row(out, 'long_call');
    expect([call?.wins, call?.avgWinMinor, call?.profitFactor, call?.avgPctOfMaxProfit, call?.avgDaysHeld], 'a 0DTE loss: no wins, no max profit').toEqual([0, null, 0, null, 0]);
    const spread = row(out, 'credit_spread');
    expect([spread?.losses, spread?.avgLossMinor, spread?.profitFactor, spread?.largestLossMinor], 'no loss: no profit factor').toEqual([0, null, null, null]);
  });

  it('by dte, |delta|, zone and strike against the levels at entry: the DESIGN\'s buckets, in their order', () => {
    expect(stats('dteAtEntry').map((r) => [r.key, r.pnlMinor])).toEqual([
      ['0', minor(-10)],
      ['1-7', minor(-201)],
      ['8-21', minor(298)],
      ['46+', minor(88)],
    ]);
    expect(stats('deltaAtEntry').map((r) => [r.key, r.trades]), 'A −0.15, B −0.35, C and D without one').toEqual([
      ['0.10-0.20', 1],
      ['0.30-0.40', 1],
      ['unknown', 2],
    ]);
    expect(stats('zoneAtEntry').map((r) => [r.key, r.trades])).toEqual([
      ['positive', 2],
      ['negative', 1],
      ['unknown', 1],
    ]);
    // Put wall 90, flip 100, call wall 110: A's 50 put below the put wall, B's 95 and C's 95 between the wall and the flip.
    expect(stats('strikeVsLevels').map((r) => [r.key, r.trades])).toEqual([
      ['below_put_wall', 1],
      ['put_wall_to_flip', 2],
      ['unknown', 1],
    ]);
  });

  it('by underlying and by closing month; from/to and account filter on the closing day', () => {
    expect(stats('underlying').map((r) => [r.key, r.pnlMinor])).toEqual([
      ['ABC', minor(88)],
      ['XSP', minor(-10)],
      ['XYZ', minor(97)],
    ]);
    expect(stats('month').map((r) => [r.key, r.trades])).toEqual([
      ['2024-03', 3],
      ['2024-04', 1],
    ]);
    expect(stats('strategy', { from: '2024-04-01', to: '2024-04-30' }).map((r) => r.key), 'only C closed in April').toEqual(['credit_spread']);
    expect(stats('strategy', { accountId: asAccountId('elsewhere') })).toEqual([]);
    expect(tradeStats(book, { groupBy: 'underlying', currency: 'EUR' }).rows.map((r) => [r.key, r.pnlMinor]), 'the EUR trade, on its own: 200').toEqual([['SAP', minor(200)]]);
  });

  it('by tag: a trade counts under each of its tags; untagged trades under null, last', () => {
    const tags = new Map([
      [idOf('XYZ', '2024-03-01'), ['wheel', 'earnings']],
      [idOf('XYZ', '2024-03-04'), ['wheel']],
    ]);
    const out = stats('tag', { tagsOf: (id) => tags.get(id) ?? [] });
    expect(out.map((r) => [r.key, r.trades, r.pnlMinor])).toEqual([
      ['earnings', 1, minor(298)],
      ['wheel', 2, minor(97)],
      [null, 2, minor(78)],
    ]);
  });
});

describe('the list', () => {
  it('newest opened first; filters by status, strategy, symbol (any case), account, tag and opening day', () => {
    const all = queryTrades(book, { limit: 100 });
    expect(all.pagination, 'seven trades: A–D, the open one, the one before history, the EUR one').toEqual({ page: 1, limit: 100, total: 7, pages: 1 });
    expect(all.trades.map((t) => t.openDay ?? `(${t.legs[0]?.day})`)).toEqual(['(2024-04-11)', '2024-04-10', '2024-03-15', '2024-03-04', '2024-03-01', '2024-03-01', '2024-03-01']);
    expect(queryTrades(book, { status: 'open' }).trades.map((t) => t.openDay)).toEqual(['2024-04-10']);
    expect(queryTrades(book, { strategy: 'short_put', symbol: asTicker('xyz') }).pagination.total, 'A, B, the open one and the one before history (a put bought back)').toBe(4);
    expect(queryTrades(book, { from: '2024-03-02', to: '2024-03-31' }).trades.map((t) => t.underlying)).toEqual(['XSP', 'XYZ']);
    expect(queryTrades(book, { taggedIds: new Set([idOf('ABC', '2024-03-01')]) }).trades.map((t) => t.underlying)).toEqual(['ABC']);
    expect(queryTrades(book, { accountId: asAccountId('acct') }).pagination.total).toBe(7);
  });

  it('pages: limit clamped to 1..100, the page\'s slice, pages counted', () => {
    const second = queryTrades(book, { page: 2, limit: 3 });
    expect([second.trades.length, second.pagination]).toEqual([3, { page: 2, limit: 3, total: 7, pages: 3 }]);
    expect(queryTrades(book, { page: 3, limit: 3 }).trades.length).toBe(1);
    expect(queryTrades(book, { limit: 1_000 }).pagination.limit).toBe(100);
    expect(queryTrades(book, { page: 9 }).trades).toEqual([]);
  });
});
