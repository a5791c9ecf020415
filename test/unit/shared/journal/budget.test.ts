/**
 * A smoke check of docs/architecture.md §Budgets's journal budgets on 100,000 transactions (build < 1 s, performance ≤ 20 ms,
 * summary ≤ 50 ms), with 4× slack because the test machine is shared; `npm run bench` measures for real.
 */
import { describe, expect, it } from 'vitest';
import { syntheticTransactions } from '../../../../src-shared/demo/journal';
import { buildLedger, performance, yearSummary } from '../../../../src-shared/journal/index';
import { stored } from '../../../journal-helpers';

function medianMs(runs: number, work: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = globalThis.performance.now();
    work();
    times.push(globalThis.performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

describe('journal budgets (100k transactions)', () => {
  it('builds and queries within 4× the budgets', () => {
    // Round-tripped through JSON so the strings are flat, as they come out of SQLite.
    const transactions = JSON.parse(JSON.stringify(stored(syntheticTransactions(100_000, 42), { fastDay: true }))) as ReturnType<typeof stored>;
    let ledger = buildLedger(transactions, { reportingCurrency: 'USD' });
    const buildMs = medianMs(3, () => {
      ledger = buildLedger(transactions, { reportingCurrency: 'USD' });
    });
    const perfMs = medianMs(7, () => performance(ledger, { period: 'monthly', date: '2022-06-15', from: '2022-01-01', to: '2022-12-31' }));
    const yearMs = medianMs(7, () => yearSummary(ledger, 2022));
    expect(buildMs, `buildLedger ${buildMs.toFixed(0)} ms`).toBeLessThan(4_000);
    expect(perfMs, `performance ${perfMs.toFixed(1)} ms`).toBeLessThan(80);
    expect(yearMs, `yearSummary ${yearMs.toFixed(1)} ms`).toBeLessThan(200);
  });
});
