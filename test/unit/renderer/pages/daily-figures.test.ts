/**
 * Issue 18's arithmetic on the renderer side, without a DOM: a short strike against its expected move (worked out by
 * hand), the Positions table's groups and sort, DTE that never reads negative, campaigns too short to annualize, and
 * the adjusted-basis axis labels (distinct ticks where the compact money repeated "$232").
 */
import { describe, expect, it } from 'vitest';
import type { PositionJson } from '../../../../src-shared/api/schemas';
import { fmtDte, fmtMoneyCompact } from '../../../../src-renderer/format';
import { annualizedShown, basisAxisLabel } from '../../../../src-renderer/pages/campaigns/figures';
import { groupAndSort, instrumentLabel, moveDistance, moveKey, type ExpectedMove } from '../../../../src-renderer/pages/positions/book';

function position(over: Partial<PositionJson>): PositionJson {
  return {
    accountId: 'a',
    accountName: 'IRA',
    chainId: null,
    currency: 'USD',
    symbol: 'X',
    underlying: 'X',
    isOption: false,
    expiration: null,
    strike: null,
    right: null,
    quantity: 100,
    multiplier: 1,
    averagePrice: 1,
    costBasis: 100,
    openedAt: '2026-01-02',
    dte: null,
    mark: null,
    marketValue: null,
    unrealizedPL: null,
    greeks: null,
    levels: null,
    strikeVs: null,
    ...over,
  } as PositionJson;
}

const option = (underlying: string, expiration: string, strike: number, right: 'C' | 'P', quantity: number, dte: number) =>
  position({ underlying, symbol: `${underlying}${expiration}${right}${strike}`, isOption: true, expiration, strike, right, quantity, multiplier: 100, dte });

describe('a short strike against its expected move', () => {
  // Spot 589.85, expected move (the ATM straddle) 12.30: the band is 577.55–602.15.
  const move: ExpectedMove = { expiration: '2026-12-18', expectedMove: 12.3, spot: 589.85 };

  it('a put below the band is outside it by (low edge − strike) / spot', () => {
    const d = moveDistance(option('SPY', '2026-12-18', 560, 'P', -1, 22), move);
    // (577.55 − 560) / 589.85 = 17.55 / 589.85 = 2.9753 %
    expect(d?.band.low).toBeCloseTo(577.55, 10);
    expect(d?.pct).toBeCloseTo(2.9753, 3);
  });

  it('a call inside the band reads negative: (strike − high edge) / spot', () => {
    const d = moveDistance(option('SPY', '2026-12-18', 600, 'C', -1, 22), move);
    // (600 − 602.15) / 589.85 = −2.15 / 589.85 = −0.3645 %
    expect(d?.edge).toBeCloseTo(602.15, 10);
    expect(d?.pct).toBeCloseTo(-0.3645, 3);
  });

  it('nothing for longs, shares, or an expiration without a move', () => {
    expect(moveDistance(option('SPY', '2026-12-18', 560, 'P', 1, 22), move)).toBeNull();
    expect(moveDistance(position({ underlying: 'SPY', quantity: -100 }), move)).toBeNull();
    expect(moveDistance(option('SPY', '2026-12-18', 560, 'P', -1, 22), undefined)).toBeNull();
  });
});

describe('the Positions table: groups and sort', () => {
  const rows = [
    option('TSLA', '2026-12-11', 290, 'P', -1, 15),
    position({ underlying: 'AAPL', symbol: 'AAPL', quantity: 100 }),
    option('AAPL', '2026-12-18', 240, 'C', -1, 22),
    option('SPY', '2026-12-18', 602, 'C', -1, 22),
    option('SPY', '2026-12-18', 560, 'P', -1, 22),
  ];
  const moves = new Map<string, ExpectedMove>([[moveKey({ underlying: 'SPY', expiration: '2026-12-18' }), { expiration: '2026-12-18', expectedMove: 12.3, spot: 589.85 }]]);

  it('by instrument: groups by name, shares first, then expiration, strike, right', () => {
    const groups = groupAndSort(rows, { key: 'instrument', dir: 1 }, moves, false);
    expect(groups.map((g) => g.underlying)).toEqual(['AAPL', 'SPY', 'TSLA']);
    expect(groups[0]?.rows.map((r) => r.isOption)).toEqual([false, true]);
    expect(groups[1]?.rows.map((r) => r.strike)).toEqual([560, 602]);
  });

  it('by DTE: the underlying that expires first comes first', () => {
    expect(groupAndSort(rows, { key: 'dte', dir: 1 }, moves, false).map((g) => g.underlying)).toEqual(['TSLA', 'AAPL', 'SPY']);
  });

  it('by expected move: the strike deepest inside first; what has none last', () => {
    const spy = groupAndSort(rows, { key: 'expectedMove', dir: 1 }, moves, false).find((g) => g.underlying === 'SPY');
    expect(spy?.rows.map((r) => r.strike)).toEqual([602, 560]);
  });

  it('options only leaves the shares out', () => {
    const aapl = groupAndSort(rows, { key: 'instrument', dir: 1 }, moves, true).find((g) => g.underlying === 'AAPL');
    expect(aapl?.rows.map((r) => r.isOption)).toEqual([true]);
  });

  it('an instrument without its underlying', () => {
    expect(instrumentLabel(option('SPX', '2023-12-15', 4300, 'P', -1, 30))).toBe('15 Dec 23 4,300 P');
    expect(instrumentLabel(position({}))).toBe('shares');
  });
});

describe('days to expiry, annualized returns, the basis axis', () => {
  it('DTE is never negative: past expirations read "expired"', () => {
    expect(fmtDte(-6)).toBe('expired');
    expect(fmtDte(0)).toBe('0');
    expect(fmtDte(22)).toBe('22');
    expect(fmtDte(null)).toBe('');
  });

  it('campaigns under 7 days are not annualized', () => {
    expect(annualizedShown({ days: 2, annualizedReturn: 0.55 })).toBe(false);
    expect(annualizedShown({ days: 6, annualizedReturn: 0.2 })).toBe(false);
    expect(annualizedShown({ days: 7, annualizedReturn: 0.2 })).toBe(true);
    expect(annualizedShown({ days: 30, annualizedReturn: null })).toBe(false);
  });

  it('basis axis ticks a quarter apart get distinct labels (the compact money repeated them)', () => {
    const ticks = [231.5, 231.75, 232, 232.25];
    expect(new Set(ticks.map((t) => basisAxisLabel(t, 'USD'))).size).toBe(4);
    expect(ticks.map((t) => basisAxisLabel(t, 'USD'))).toEqual(['$231.50', '$231.75', '$232.00', '$232.25']);
    // The old axis: whole dollars, all four labels "+$232".
    expect(new Set(ticks.map((t) => fmtMoneyCompact(t, 'USD')))).toEqual(new Set(['+$232']));
  });
});
