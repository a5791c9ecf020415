import { describe, expect, it } from 'vitest';
import { bsmGreeks } from '../../../../src-shared/exposure/greeks';
import { evaluateEvents, type ConfirmedState, type WallEventDraft, type FlipEventDraft } from '../../../../src-shared/exposure/events';
import { prepareChain } from '../../../../src-shared/exposure/prepare';
import type { OptionContract } from '../../../../src-shared/exposure/model';
import { contract, EXPIRATION, QUOTE_TIME, snapshot, T_WEEK } from '../../../exposure-helpers';

const RATE = 0.04;
const S = 100;
const F = S * Math.exp(RATE * T_WEEK);
/** Γ·100 of one contract at spot 100 (shares per $1 per contract of OI). */
const gammaPerContract = (strike: number, iv = 0.2) => bsmGreeks({ spot: S, forward: F, strike, tYears: T_WEEK, sigma: iv, rate: RATE, right: 'C' }).gamma * 100;

/** Calls at 105 (3000 OI) and a put at 95 sized to `putRatio` × the call gamma. */
function book(putRatio: number, extra: OptionContract[] = []): OptionContract[] {
  const callGamma = gammaPerContract(105) * 3000;
  return [
    contract({ strike: 105, right: 'C', openInterest: 3000 }),
    contract({ strike: 95, right: 'P', openInterest: (putRatio * callGamma) / gammaPerContract(95) }),
    ...extra,
  ];
}

function run(contracts: OptionContract[], previous: ReadonlyMap<string, ConfirmedState>, quoteTime = QUOTE_TIME) {
  return evaluateEvents('XYZ', prepareChain(snapshot(contracts, S, quoteTime), { rate: RATE }), previous);
}

describe('events', () => {
  const first = run(book(0.8), new Map());

  it('the first snapshot only sets the state', () => {
    expect(first.events).toEqual([]);
    expect(first.states.get(EXPIRATION), 'call gamma 1.25× the put gamma: positive; walls 105 and 95').toEqual({ zone: 'positive', callWallStrike: 105, putWallStrike: 95 });
  });

  it('the same snapshot twice creates nothing', () => {
    const again = run(book(0.8), first.states);
    expect(again.events).toEqual([]);
    expect(again.states).toEqual(first.states);
  });

  it('a flip inside the 2% dead band is ignored and the zone stays confirmed', () => {
    // put = 1.03 × call: |total| / Σ|net| = 0.03 / 2.03 = 1.5% < 2%.
    const inside = run(book(1.03), first.states);
    expect(inside.events).toEqual([]);
    expect(inside.states.get(EXPIRATION)?.zone, 'hysteresis: still the confirmed zone').toBe('positive');
  });

  it('a flip beyond the dead band fires with the levels of the new snapshot', () => {
    // put = 1.1 × call: 0.1 / 2.1 = 4.8% ≥ 2%.
    const flipped = run(book(1.1), first.states);
    expect(flipped.events).toHaveLength(1);
    const event = flipped.events[0] as FlipEventDraft;
    expect(event).toMatchObject({
      ticker: 'XYZ',
      eventType: 'flip',
      expiration: EXPIRATION,
      timestamp: QUOTE_TIME,
      previousState: 'positive',
      newState: 'negative',
      spotPrice: S,
      callWallStrike: 105,
      putWallStrike: 95,
    });
    expect(event.inflectionPoint, 'net gamma is negative at 100 and positive near the 105 calls: the flip is above spot').toBeGreaterThan(S);
    expect(flipped.states.get(EXPIRATION)?.zone).toBe('negative');
    // And back: the confirmed state is now negative.
    const back = run(book(0.8), flipped.states);
    expect(back.events.map((e) => (e.eventType === 'flip' ? e.newState : e.eventType))).toEqual(['positive']);
  });

  it('a moved wall fires only when the new strike beats the old one by 10%', () => {
    const old105 = gammaPerContract(105) * 3000;
    const oi110 = (ratio: number) => (ratio * old105) / gammaPerContract(110);
    // 110 now has 5% more call gamma than 105: the wall moves but inside the margin.
    const small = run(book(0.8, [contract({ strike: 110, right: 'C', openInterest: oi110(1.05) })]), first.states);
    expect(small.events, '1.05 < 1.1: no event').toEqual([]);
    expect(small.states.get(EXPIRATION)?.callWallStrike, 'the confirmed wall stays at 105').toBe(105);
    // 20% more: the wall event fires.
    const moved = run(book(0.8, [contract({ strike: 110, right: 'C', openInterest: oi110(1.2) })]), small.states);
    expect(moved.events).toEqual([
      { ticker: 'XYZ', eventType: 'wall', expiration: EXPIRATION, timestamp: QUOTE_TIME, wallType: 'call', previousStrike: 105, newStrike: 110, spotPrice: S },
    ] satisfies WallEventDraft[]);
    expect(moved.states.get(EXPIRATION)?.callWallStrike).toBe(110);
  });

  it('a put wall that moves to a strike where the old one has vanished fires', () => {
    const moved = run(
      [contract({ strike: 105, right: 'C', openInterest: 3000 }), contract({ strike: 90, right: 'P', openInterest: 100 })],
      first.states,
    );
    const wall = moved.events.find((e) => e.eventType === 'wall');
    expect(wall, 'the 95 put has no open interest left: its current GEX is 0').toMatchObject({ wallType: 'put', previousStrike: 95, newStrike: 90 });
  });

  it('evaluates only expirations with 0 ≤ dte ≤ 45 and forgets expired states', () => {
    const far = '2026-03-27'; // 53 days after 2026-02-02
    const result = run(
      [...book(0.8), contract({ strike: 105, right: 'C', expiration: far }), contract({ strike: 95, right: 'P', expiration: far })],
      new Map([['2026-01-30', { zone: 'negative' as const, callWallStrike: 1, putWallStrike: 1 }]]),
    );
    expect([...result.states.keys()], 'the 53-dte book is not tracked, the expired one is dropped').toEqual([EXPIRATION]);
  });
});
