/**
 * The words of a wall event (src-shared/exposure/event-explain.ts): a wall that grew from almost nothing is said so
 * ("new wall from ~0"), not as "+105,656.6% beat the margin" (issue 27 item 9); an ordinary move keeps its percentage.
 */
import { describe, expect, it } from 'vitest';
import { draftExplanation, explanationLines } from '../../../../src-shared/exposure/event-explain';
import { evaluateSnapshotEvents } from '../../../../src-shared/exposure/snapshot-events';
import { prepareChain } from '../../../../src-shared/exposure/prepare';
import type { OptionContract } from '../../../../src-shared/exposure/model';
import { contract, EXPIRATION, QUOTE_TIME, snapshot } from '../../../exposure-helpers';

const RATE = 0.04;
/** An hour later, the same expiration: compared with its confirmed state. */
const LATER = '2026-02-02T22:00:00Z';

const run = (contracts: OptionContract[], quoteTime: string, previous = new Map()) => evaluateSnapshotEvents('XYZ', prepareChain(snapshot(contracts, 100, quoteTime), { rate: RATE }), previous);

describe('a wall grown from ~0', () => {
  const first = run([contract({ expiration: EXPIRATION, strike: 102, right: 'C', openInterest: 3000 }), contract({ expiration: EXPIRATION, strike: 95, right: 'P', openInterest: 2000 })], QUOTE_TIME);

  it('the old strike keeps 1 contract of 3000, the new one takes 3000 (its gamma over 1,000 times the old): "new wall from ~0", no five-digit percentage', () => {
    const next = run(
      [
        contract({ expiration: EXPIRATION, strike: 102, right: 'C', openInterest: 1 }),
        contract({ expiration: EXPIRATION, strike: 104, right: 'C', openInterest: 3000 }),
        contract({ expiration: EXPIRATION, strike: 95, right: 'P', openInterest: 2000 }),
      ],
      LATER,
      first.states,
    );
    const wall = next.events.find((e) => e.eventType === 'wall' && e.expiration === EXPIRATION);
    expect(wall).toMatchObject({ wallType: 'call', previousStrike: 102, newStrike: 104 });
    const detail = explanationLines(next.explanation).find((line) => line.startsWith(`  ${EXPIRATION}`));
    expect(detail).toContain('call wall 102 → 104 (new wall from ~0 — 102 keeps under 1% of its gamma: event)');
    expect(detail).not.toMatch(/%[^)]*beat the margin/);
    if (wall === undefined) throw new Error('no wall event');
    expect(draftExplanation(wall, next.explanation)).toBe(`${EXPIRATION}: call wall 102 → 104 (new wall from ~0 — 102 keeps under 1% of its gamma: event)`);
  });

  it('a wall that beats the old one by some 40% keeps its percentage', () => {
    const next = run(
      [
        contract({ expiration: EXPIRATION, strike: 102, right: 'C', openInterest: 2000 }),
        // 104's gamma per contract is about half of 102's a week out (further from spot 100): 6000 beat 2000 by some 40%.
        contract({ expiration: EXPIRATION, strike: 104, right: 'C', openInterest: 6000 }),
        contract({ expiration: EXPIRATION, strike: 95, right: 'P', openInterest: 2000 }),
      ],
      LATER,
      first.states,
    );
    const detail = explanationLines(next.explanation).find((line) => line.startsWith(`  ${EXPIRATION}`));
    expect(detail).toMatch(/call wall 102 → 104 \(\+\d{2}\.\d% beat the margin: event\)/);
  });
});
