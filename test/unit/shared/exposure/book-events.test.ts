import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bsmGreeks } from '../../../../src-shared/exposure/greeks';
import { scopeView, type ConfirmedState } from '../../../../src-shared/exposure/events';
import { BOOK_SCOPE, bookExpirations } from '../../../../src-shared/exposure/book-events';
import { evaluateSnapshotEvents } from '../../../../src-shared/exposure/snapshot-events';
import { explanationLines } from '../../../../src-shared/exposure/event-explain';
import { prepareChain } from '../../../../src-shared/exposure/prepare';
import type { OptionContract } from '../../../../src-shared/exposure/model';
import { parseChainFile } from '../../../../src-main/chains/index';
import { CHAIN_FIXTURES } from '../../../paths';
import { contract, EXPIRATION, QUOTE_TIME, snapshot, T_WEEK } from '../../../exposure-helpers';

const RATE = 0.04;
const S = 100;
const F = S * Math.exp(RATE * T_WEEK);
const gammaPerContract = (strike: number) => bsmGreeks({ spot: S, forward: F, strike, tYears: T_WEEK, sigma: 0.2, rate: RATE, right: 'C' }).gamma * 100;

/** A week after QUOTE_TIME plus a day: 2026-02-10 16:00 New York; its weekly (2026-02-17) is again 7 × 24 h away. */
const NEXT_QUOTE = '2026-02-10T21:00:00Z';
const NEXT_EXPIRATION = '2026-02-17';

/** Calls at 105 (3000 OI), a put at 95 with 0.8 × their gamma, and an optional call at 110 with `ratio110` × it. */
function weekly(expiration: string, ratio110 = 0): OptionContract[] {
  const callGamma = gammaPerContract(105) * 3000;
  const rows = [
    contract({ expiration, strike: 105, right: 'C', openInterest: 3000 }),
    contract({ expiration, strike: 95, right: 'P', openInterest: (0.8 * callGamma) / gammaPerContract(95) }),
  ];
  if (ratio110 > 0) rows.push(contract({ expiration, strike: 110, right: 'C', openInterest: (ratio110 * callGamma) / gammaPerContract(110) }));
  return rows;
}

const run = (contracts: OptionContract[], quoteTime: string, previous: ReadonlyMap<string, ConfirmedState>) =>
  evaluateSnapshotEvents('XYZ', prepareChain(snapshot(contracts, S, quoteTime), { rate: RATE }), previous);

describe('the book scope', () => {
  const first = run(weekly(EXPIRATION), QUOTE_TIME, new Map());

  it('the first snapshot sets the state of its expiration and of the book, without events', () => {
    expect(first.events).toEqual([]);
    expect(first.states.get(EXPIRATION)).toEqual({ zone: 'positive', callWallStrike: 105, putWallStrike: 95 });
    expect(first.states.get(BOOK_SCOPE), 'one expiration: the book is that expiration').toEqual({ zone: 'positive', callWallStrike: 105, putWallStrike: 95 });
    expect(first.explanation.book).toEqual({ status: 'first', expirations: [EXPIRATION] });
  });

  it('two weeklies that share no expiration: nothing compared per expiration, the book fires the moved wall', () => {
    // The next week's weekly has 110 calls with 1.2 × the 105 calls' gamma (the same T: a week each): +20% beats 10%.
    const next = run(weekly(NEXT_EXPIRATION, 1.2), NEXT_QUOTE, first.states);
    expect(next.events).toEqual([
      {
        ticker: 'XYZ',
        eventType: 'wall',
        expiration: BOOK_SCOPE,
        scope: BOOK_SCOPE,
        expirations: [NEXT_EXPIRATION],
        timestamp: NEXT_QUOTE,
        wallType: 'call',
        previousStrike: 105,
        newStrike: 110,
        spotPrice: S,
      },
    ]);
    expect(next.states.get(BOOK_SCOPE)).toEqual({ zone: 'positive', callWallStrike: 110, putWallStrike: 95 });
    expect(next.states.get(NEXT_EXPIRATION), 'its first state').toEqual({ zone: 'positive', callWallStrike: 110, putWallStrike: 95 });
    expect(next.states.has(EXPIRATION), 'expired on 2026-02-09: dropped').toBe(false);

    const { explanation } = next;
    expect(explanation.comparedCount).toBe(0);
    expect(explanation.firstState).toEqual([{ expiration: NEXT_EXPIRATION, dte: 7 }]);
    expect(explanation.expired).toEqual([EXPIRATION]);
    expect(explanation.events).toBe(1);
    const bookOutcome = explanation.book.status === 'compared' ? explanation.book.outcome : null;
    expect(bookOutcome?.callWall).toMatchObject({ result: 'fired', previousStrike: 105, strike: 110 });
    if (bookOutcome?.callWall.result === 'fired') expect(bookOutcome.callWall.ratio).toBeCloseTo(1.2, 9);
    expect(explanationLines(explanation)).toEqual([
      'no expiration in common with the confirmed states: no per-expiration event can fire on this snapshot',
      '1 new expiration set their first state (nothing to compare): 2026-02-17',
      '1 confirmed expiration expired: state dropped (2026-02-09)',
      'the book (1 expiration, 0–45 dte together): zone positive unchanged; call wall 105 → 110 (+20.0% beat the margin: event); put wall 95 unchanged',
    ]);
  });

  it('a book wall that moves within the 10% margin: no event, and the explanation says so', () => {
    const next = run(weekly(NEXT_EXPIRATION, 1.05), NEXT_QUOTE, first.states);
    expect(next.events).toEqual([]);
    expect(next.states.get(BOOK_SCOPE)?.callWallStrike, 'hysteresis: the confirmed wall stays').toBe(105);
    expect(explanationLines(next.explanation).at(-1)).toBe(
      'the book (1 expiration, 0–45 dte together): zone positive unchanged; call wall 105 → 110 within the 10.0% margin (+5.0%): no event; put wall 95 unchanged — none fired',
    );
  });

  it('per-expiration comparisons say why nothing fired', () => {
    const again = run(weekly(EXPIRATION), QUOTE_TIME, first.states);
    expect(again.events).toEqual([]);
    expect(again.explanation.compared).toEqual([
      { expiration: EXPIRATION, dte: 7, outcome: { flip: { result: 'unchanged', zone: 'positive', share: expect.any(Number) as number }, callWall: { result: 'unchanged', strike: 105 }, putWall: { result: 'unchanged', strike: 95 } } },
    ]);
    // Σnet / Σ|net| = (1 − 0.8) / (1 + 0.8) = 1/9.
    expect(again.explanation.compared[0]?.outcome.flip).toMatchObject({ share: expect.closeTo(1 / 9, 9) as number });
    expect(explanationLines(again.explanation)[0]).toBe('compared 1 expiration (0–45 dte) with their confirmed state: none fired — zone and walls unchanged');
  });

  it('the book takes every expiration within 0–45 dte together: its totals are the sums of theirs', () => {
    const far = '2026-03-27'; // 53 dte: outside the book
    const second = '2026-02-16';
    const chain = prepareChain(
      snapshot([...weekly(EXPIRATION, 1.2), ...weekly(second), contract({ expiration: far, strike: 120, right: 'C', openInterest: 99999 })], S, QUOTE_TIME),
      { rate: RATE },
    );
    const book = bookExpirations(chain);
    expect(book.map((e) => e.expiration)).toEqual([EXPIRATION, second]);
    const whole = scopeView(chain, book);
    const parts = book.map((e) => scopeView(chain, [e]));
    expect(whole.totalShares).toBeCloseTo(parts.reduce((sum, p) => sum + p.totalShares, 0), 6);
    // Each expiration has one-sided strikes, so Σ|net| adds too.
    expect(whole.absoluteShares).toBeCloseTo(parts.reduce((sum, p) => sum + p.absoluteShares, 0), 6);
    expect(whole.callWallStrike, 'the far 120 calls are outside the book').toBe(105);
  });

  it('on a real chain (SPX 2024-01-05): the book total is the sum over its expirations', () => {
    const text = readFileSync(join(CHAIN_FIXTURES, 'SPX_quotedata_2024-01-05close_phammings.csv'), 'utf8');
    const parsed = parseChainFile(text, {});
    if (!parsed.ok) throw new Error('the SPX fixture parses');
    const chain = prepareChain(parsed.snapshot, { rate: RATE });
    const book = bookExpirations(chain);
    expect(book.length).toBeGreaterThan(10);
    expect(book.every((e) => e.dte >= 0 && e.dte <= 45)).toBe(true);
    const whole = scopeView(chain, book).totalShares;
    const sum = book.reduce((total, e) => total + scopeView(chain, [e]).totalShares, 0);
    expect(Math.abs(whole - sum)).toBeLessThan(1e-9 * scopeView(chain, book).absoluteShares);
  });
});
