/**
 * Trades whose walk is kept open (docs/journal.md §Staying current) and extended with rows dated after its last day
 * are, bit for bit, the trades built from all the rows at once: each trade's legs, outcome, P&L, option P&L, max
 * profit and loss, collateral, campaign, the open parts and the P&L outside every trade; a book given before an
 * extension keeps its trades. Rows of the last day or before are refused.
 */
import { describe, expect, it } from 'vitest';
import { syntheticTransactions } from '../../../../src-shared/demo/journal';
import { buildLedger } from '../../../../src-shared/journal/ledger';
import type { Transaction } from '../../../../src-shared/journal/model';
import { instantMs } from '../../../../src-shared/journal/order';
import { buildTrades, LiveTrades } from '../../../../src-shared/journal/trades';
import { stored } from '../../../journal-helpers';

function cutAt(rows: readonly Transaction[], index: number): { head: Transaction[]; tail: Transaction[] } {
  const sorted = [...rows].sort((a, b) => instantMs(a.tradeDate, a.tradeDay) - instantMs(b.tradeDate, b.tradeDay));
  let at = Math.min(index, sorted.length);
  while (at > 0 && at < sorted.length && sorted[at - 1]?.tradeDay === sorted[at]?.tradeDay) at += 1;
  return { head: sorted.slice(0, at), tail: sorted.slice(at) };
}

describe('live trades', () => {
  const rows = stored(syntheticTransactions(4_000, 9), { fastDay: true });
  const campaigns = buildLedger(rows, { reportingCurrency: 'USD' }).campaigns;
  const whole = buildTrades(rows, { campaigns });

  it('build as buildTrades does, with open and closed trades to compare', () => {
    expect(LiveTrades.build(rows, { campaigns }).book).toEqual(whole);
    expect(whole.trades.filter((t) => t.status === 'open').length).toBeGreaterThan(0);
    expect(whole.trades.filter((t) => t.rolls > 0).length).toBeGreaterThan(0);
  });

  for (const fraction of [0, 0.4, 0.8, 0.995]) {
    it(`extended at ${fraction} of the rows (a day boundary), in one step and in three, equal the whole build`, () => {
      const { head, tail } = cutAt(rows, Math.floor(rows.length * fraction));
      const { live, book: before } = LiveTrades.build(head, { campaigns: buildLedger(head, { reportingCurrency: 'USD' }).campaigns });
      const frozen = structuredClone(before);
      expect(live.extend(tail, { campaigns })).toEqual(whole);
      expect(before).toEqual(frozen);

      const steps = LiveTrades.build(head).live;
      const third = cutAt(tail, Math.floor(tail.length / 3));
      const second = cutAt(third.tail, Math.floor(third.tail.length / 2));
      steps.extend(third.head);
      steps.extend(second.head);
      expect(steps.extend(second.tail, { campaigns })).toEqual(whole);
    });
  }

  it('refuses rows of its last day or before', () => {
    const { head, tail } = cutAt(rows, 2_000);
    const { live } = LiveTrades.build(head);
    const last = head[head.length - 1] as Transaction;
    expect(live.extend([...tail, { ...last, id: 'same-day' }])).toBeNull();
    expect(live.extend(tail, { campaigns })).toEqual(whole);
  });
});
