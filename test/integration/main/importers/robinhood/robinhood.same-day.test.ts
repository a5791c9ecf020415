/**
 * Same-day assignment and exercise (issue 28, item 4): a put spread that expires in the money is settled on one day
 * by an assignment of the short put (Robinhood's `OASGN` and a `Buy` of the shares, "68 AMZN Options Assigned") and
 * an exercise of the long put (`OEXCS` and a `Sell`, "68 AMZN Options Exercised"). A date-only file gives the four
 * rows one instant; read bottom-up (newest first), the sale came before the purchase that funds it: an unmatched
 * sale of 6,800 shares, then a phantom long of 6,800. The delivery comes first, in either file order. The file states
 * no figure of its own: the journal must end flat and book the P&L written out by hand.
 */
import { describe, expect, it } from 'vitest';
import { parseRobinhood } from '../../../../../src-main/importers/robinhood';
import type { ParseResult } from '../../../../../src-main/importers/types';
import { amountSum, brokerFixture, ledgerFor } from '../file-totals';

const text = brokerFixture('robinhood_same_day_assignment_exercise_selfwritten.csv');

/** The file with the exercise's two rows above the assignment's (the other order of one day). */
function exerciseListedFirst(input: string): string {
  const lines = input.split('\n');
  // Lines 2–5 are the assignment (OASGN + its 3-line Buy), 6–9 the exercise (OEXCS + its 3-line Sell).
  return [lines[0], ...lines.slice(5, 9), ...lines.slice(1, 5), ...lines.slice(9)].join('\n');
}

function check(result: ParseResult): void {
  expect(result.errors).toEqual([]);
  const ledger = ledgerFor(result);
  expect(ledger.positions, 'flat: the shares delivered by the assignment left by the exercise').toEqual([]);
  expect(ledger.unmatched, 'no sale without its shares').toEqual([]);
  const realized = [...ledger.realizedByTx.values()].reduce((sum, pnl) => sum + pnl, 0);
  // By hand: the 120 put sold for 16,656.43 net and assigned (+16,656.43), the 115 put bought for 7,480.00 and
  // exercised (−7,480.00); 6,800 shares bought at 120 (816,000.00) and sold at 115 for 781,985.32 net (−34,014.68).
  expect(realized).toBe((1_665_643 - 748_000 - 3_401_468) * 100);
  expect(amountSum(result), 'the file’s cash: 50,000 + 16,656.43 − 7,480 − 816,000 + 781,985.32').toBe(2_516_175 * 100);
}

describe('Robinhood: an assignment and an exercise on one day', () => {
  it('delivers the assigned shares before the exercise sells them (assignment listed above the exercise)', () => {
    check(parseRobinhood(text, {}));
  });

  it('and the same with the exercise listed above the assignment', () => {
    check(parseRobinhood(exerciseListedFirst(text), {}));
  });
});
