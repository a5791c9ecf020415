/**
 * The strategy report on the demo (issue 27: "Short put 34 trades, 100 % win rate" on a year with an $11,025
 * drawdown): the losing assigned TSLA cycle is a loss of its strategy's row, and `groupBy=outcome` puts it under
 * `assigned`. The expected rows are counted here from the trades' own P&L, independently of the stats' sums.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_JOURNAL_SEED, demoTransactions } from '../../../../src-shared/demo/journal';
import { tradeStats } from '../../../../src-shared/journal/trade-stats';
import { stored } from '../../../journal-helpers';
import { minor, tradesOf } from '../../../trade-helpers';

const book = tradesOf(stored(demoTransactions(DEMO_JOURNAL_SEED, '2026-11-28')));
const closed = book.trades.filter((t) => t.status === 'closed' && t.pnlMinor !== null);

describe('the demo’s strategy report', () => {
  it('the short-put row has the TSLA cycle’s loss: −8,073.86, its largest', () => {
    const { rows } = tradeStats(book, { groupBy: 'strategy', currency: 'USD' });
    const shortPut = rows.find((r) => r.key === 'short_put');
    const puts = closed.filter((t) => t.strategy === 'short_put');
    const lost = puts.filter((t) => (t.pnlMinor ?? 0) <= 0);
    expect(lost.length, 'the TSLA 365 put, rolled twice, assigned, the shares sold at 254.75').toBeGreaterThan(0);
    expect(shortPut?.losses).toBe(lost.length);
    expect(shortPut?.winRate).toBeCloseTo((puts.length - lost.length) / puts.length, 12);
    expect(shortPut?.largestLossMinor).toBe(minor(-8073.86));
  });

  it('groupBy=outcome: a row per way out, the assigned cycles under `assigned`, in a fixed order', () => {
    const { rows, groupBy } = tradeStats(book, { groupBy: 'outcome', currency: 'USD' });
    expect(groupBy).toBe('outcome');
    const byOutcome = new Map<string, number>();
    for (const t of closed) byOutcome.set(t.outcome, (byOutcome.get(t.outcome) ?? 0) + 1);
    expect(rows.map((r) => [r.key, r.trades])).toEqual(['expired', 'closed', 'assigned', 'exercised'].filter((k) => byOutcome.has(k)).map((k) => [k, byOutcome.get(k)]));
    const assigned = rows.find((r) => r.key === 'assigned');
    expect(assigned?.largestLossMinor).toBe(minor(-8073.86));
    expect(rows.reduce((sum, r) => sum + r.trades, 0)).toBe(closed.length);
  });
});
