import { describe, expect, it } from 'vitest';
import { bsmGreeks } from '../../../../src-shared/exposure/greeks';
import { prepareChain } from '../../../../src-shared/exposure/prepare';
import type { OptionContract } from '../../../../src-shared/exposure/model';
import {
  evaluatePositionAlerts,
  positionAlertKey,
  positionAlertText,
  POSITION_ALERT_DISTANCE_PCT,
  type DealerLevelValues,
  type OptionPositionInput,
  type PositionLevelState,
} from '../../../../src-shared/exposure/position-alerts';
import { DEFAULT_SCOPE, historyPoint } from '../../../../src-main/services/exposure/compute';
import { contract, EXPIRATION, QUOTE_TIME, snapshot, T_WEEK } from '../../../exposure-helpers';

const RATE = 0.04;
const S = 100;
const SIGMA = 0.2;
const F = S * Math.exp(RATE * T_WEEK);
const gammaPerContract = (strike: number) => bsmGreeks({ spot: S, forward: F, strike, tYears: T_WEEK, sigma: SIGMA, rate: RATE, right: 'C' }).gamma * 100;

/** The default /gex scope's levels of a hand-built chain, as the server's history point computes them. */
function levelsOf(contracts: OptionContract[]): DealerLevelValues {
  const point = historyPoint(prepareChain(snapshot(contracts, S), { rate: RATE }), DEFAULT_SCOPE);
  return { gammaFlip: point.gammaInflection, callWall: point.callWall?.strike ?? null, putWall: point.putWall?.strike ?? null };
}

/**
 * The flip by hand: the root of P(x) = OIc·Γ(x, 105) − OIp·Γ(x, 95) with Γ ∝ φ(d1)/(x·σ√T), d1 = (ln(F·x/S / K) +
 * σ²T/2)/(σ√T) (the common factor e^{−qT}·100 drops out of the sign), bisected on [95, 105].
 */
function flipByHand(callOI: number, putOI: number): number {
  const sd = SIGMA * Math.sqrt(T_WEEK);
  const gamma = (x: number, k: number) => {
    const d1 = (Math.log((F * x) / S / k) + (SIGMA * SIGMA * T_WEEK) / 2) / sd;
    return Math.exp(-(d1 * d1) / 2) / (x * sd);
  };
  const p = (x: number) => callOI * gamma(x, 105) - putOI * gamma(x, 95);
  let lo = 95;
  let hi = 105;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (Math.sign(p(mid)) === Math.sign(p(lo))) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Calls at 105 (3000 OI), puts at 95 with `putRatio` × their gamma. */
function flipBook(putRatio: number): { contracts: OptionContract[]; callOI: number; putOI: number } {
  const callOI = 3000;
  const putOI = (putRatio * gammaPerContract(105) * callOI) / gammaPerContract(95);
  return { contracts: [contract({ strike: 105, right: 'C', openInterest: callOI }), contract({ strike: 95, right: 'P', openInterest: putOI })], callOI, putOI };
}

/** Calls at 110, the put wall at `wall` (5000 OI) and smaller puts at 90 (1000 OI: less OI, farther from spot). */
const wallBook = (wall: number): OptionContract[] => [
  contract({ strike: 110, right: 'C', openInterest: 3000 }),
  contract({ strike: wall, right: 'P', openInterest: 5000 }),
  contract({ strike: 90, right: 'P', openInterest: 1000 }),
];

const shortPut = (strike: number, accountId = 'acct-1', quantity = -2): OptionPositionInput => ({
  accountId,
  symbol: `XYZ   260209P${String(strike * 1000).padStart(8, '0')}`,
  expiration: EXPIRATION,
  strike,
  right: 'P',
  quantity,
});

type States = ReadonlyMap<string, PositionLevelState>;

/** Feeds the snapshots' levels one after another, as the server does, and collects every alert. */
function sequence(levels: DealerLevelValues[], positions: OptionPositionInput[], distancePct?: number) {
  let states: States = new Map();
  let before: DealerLevelValues | null = null;
  const alerts = [];
  for (const [i, after] of levels.entries()) {
    const timestamp = new Date(Date.parse(QUOTE_TIME) + i * 60_000).toISOString();
    const result = evaluatePositionAlerts({ ticker: 'XYZ', timestamp, spotPrice: S, positions, before, after, ...(distancePct === undefined ? {} : { distancePct }) }, states);
    alerts.push(...result.alerts);
    states = result.states;
    before = after;
  }
  return { alerts, states };
}

describe('alerts on your strikes', () => {
  it('the default distance is 1% of the strike', () => {
    expect(POSITION_ALERT_DISTANCE_PCT).toBe(1);
  });

  it('a flip that crosses a short put strike alerts once, with the old and new flip', () => {
    const before = flipBook(0.3);
    const after = flipBook(3);
    const flipBefore = flipByHand(before.callOI, before.putOI);
    const flipAfter = flipByHand(after.callOI, after.putOI);
    const levelsBefore = levelsOf(before.contracts);
    const levelsAfter = levelsOf(after.contracts);
    expect(levelsBefore.gammaFlip).toBeCloseTo(flipBefore, 3);
    expect(levelsAfter.gammaFlip).toBeCloseTo(flipAfter, 3);
    // By hand: 99.08 (0.92% below 100) → 100.85 (0.85% above): with a 0.5% distance, from beyond one side to beyond
    // the other.
    expect(flipBefore).toBeGreaterThan(99.05);
    expect(flipBefore).toBeLessThan(99.1);
    expect(flipAfter).toBeGreaterThan(100.8);
    expect(flipAfter).toBeLessThan(100.9);

    const { alerts } = sequence([levelsBefore, levelsAfter], [shortPut(100)], 0.5);
    expect(alerts).toHaveLength(1);
    const [alert] = alerts;
    expect(alert).toMatchObject({ ticker: 'XYZ', eventType: 'position', level: 'gammaFlip', alert: 'crossed', strike: 100, right: 'P', accountId: 'acct-1', quantity: -2, distancePct: 0.5 });
    expect(alert?.previousValue).toBeCloseTo(flipBefore, 3);
    expect(alert?.newValue).toBeCloseTo(flipAfter, 3);
    expect(alert?.gapPct).toBeCloseTo(flipAfter - 100, 3);
    if (alert !== undefined) expect(positionAlertText(alert)).toMatch(/^XYZ gamma flip 99\.08 → 100\.8\d crossed your short 100 put \(2026-02-09\): 0\.8% above$/);
  });

  it('a put wall that moves within 1% of a short put alerts "within"', () => {
    const far = levelsOf(wallBook(95));
    const near = levelsOf(wallBook(99.5));
    // By hand: 5000 OI at 95 or 99.5 against 1000 at 90 (farther from spot, less gamma per contract): the wall.
    expect(gammaPerContract(95) * 5000).toBeGreaterThan(gammaPerContract(90) * 1000);
    expect([far.putWall, near.putWall]).toEqual([95, 99.5]);
    const { alerts } = sequence([far, near], [shortPut(100)]);
    expect(alerts.map((a) => [a.level, a.alert, a.previousValue, a.newValue])).toEqual([['putWall', 'within', 95, 99.5]]);
    expect(alerts[0]?.gapPct).toBeCloseTo(-0.5, 9);
    if (alerts[0] !== undefined) expect(positionAlertText(alerts[0])).toBe('XYZ put wall 95 → 99.5 came within 1% of your short 100 put (2026-02-09): 0.5% below');
  });

  it('a wall that moves away does not alert', () => {
    const { alerts } = sequence([levelsOf(wallBook(99.5)), levelsOf(wallBook(95))], [shortPut(100)]);
    expect(alerts).toEqual([]);
  });

  it('a wall wobbling at the 1% boundary alerts once, not at every snapshot', () => {
    // 97 (3% below), then 99.1 (0.9%: within), 98.9 (1.1%), 99.1, 98.9: it has to go beyond 2% to be "away" again.
    const levels = [97, 99.1, 98.9, 99.1, 98.9].map((wall) => levelsOf(wallBook(wall)));
    expect(levels.map((l) => l.putWall)).toEqual([97, 99.1, 98.9, 99.1, 98.9]);
    const { alerts } = sequence(levels, [shortPut(100)]);
    expect(alerts.map((a) => [a.level, a.alert, a.newValue])).toEqual([['putWall', 'within', 99.1]]);
    // Once beyond twice the distance, a return alerts again.
    const back = sequence([97, 99.1, 97.5, 99.1].map((wall) => levelsOf(wallBook(wall))), [shortPut(100)]);
    expect(back.alerts.map((a) => a.newValue)).toEqual([99.1, 99.1]);
  });

  it('a flip wobbling across the strike inside the distance does not alert at each crossing', () => {
    const flips = [99.5, 100.4, 99.6, 100.3];
    const levels = flips.map((gammaFlip): DealerLevelValues => ({ gammaFlip, callWall: null, putWall: null }));
    const { alerts } = sequence(levels, [shortPut(100)]);
    expect(alerts, 'seeded within 1% at the first snapshot: no sign change beyond the distance, no entry').toEqual([]);
  });

  it('two accounts short the same strike get an alert each, with distinct ids', () => {
    const positions = [shortPut(100, 'acct-1', -1), shortPut(100, 'acct-2', -3), shortPut(100, 'acct-2', -2), { ...shortPut(100, 'acct-3'), quantity: 4 }];
    const { alerts } = sequence([levelsOf(wallBook(95)), levelsOf(wallBook(99.5))], positions);
    expect(alerts.map((a) => [a.accountId, a.quantity])).toEqual([
      ['acct-1', -1],
      ['acct-2', -5],
    ]);
    expect(new Set(alerts.map(positionAlertKey)).size).toBe(2);
  });

  it('the same snapshot evaluated twice gives the same key (stable ids), and expired positions are ignored', () => {
    const first = sequence([levelsOf(wallBook(95)), levelsOf(wallBook(99.5))], [shortPut(100)]);
    const again = sequence([levelsOf(wallBook(95)), levelsOf(wallBook(99.5))], [shortPut(100)]);
    expect(first.alerts.map(positionAlertKey)).toEqual(again.alerts.map(positionAlertKey));
    const expired = sequence([levelsOf(wallBook(95)), levelsOf(wallBook(99.5))], [{ ...shortPut(100), expiration: '2026-01-30' }]);
    expect(expired.alerts).toEqual([]);
    expect(expired.states.size).toBe(0);
  });

  it('refuses a distance that is not a positive percentage', () => {
    expect(() => evaluatePositionAlerts({ ticker: 'XYZ', timestamp: QUOTE_TIME, spotPrice: S, positions: [], before: null, after: { gammaFlip: null, callWall: null, putWall: null }, distancePct: 0 }, new Map())).toThrow(/positive/);
  });
});
