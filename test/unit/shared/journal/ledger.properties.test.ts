import { describe, expect, it } from 'vitest';
import { demoTransactions, syntheticTransactions, DEMO_ACCOUNT } from '../../../../src-shared/demo/journal';
import { seededRandom } from '../../../../src-shared/demo/random';
import { buildLedger, type Ledger } from '../../../../src-shared/journal/index';
import type { Transaction } from '../../../../src-shared/journal/model';
import { allTime, stored, performanceJson, yearJson } from '../../../journal-helpers';

const TRADE_OR_SETTLEMENT = new Set(['BUY_TO_OPEN', 'SELL_TO_OPEN', 'BUY_TO_CLOSE', 'SELL_TO_CLOSE', 'BUY', 'SELL', 'EXPIRATION', 'ASSIGNMENT', 'EXERCISE']);

function shuffle<T>(items: readonly T[], seed: number): T[] {
  const random = seededRandom(seed);
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

function realizedMinor(ledger: Ledger, currency: string): number {
  return (ledger.byCurrency.get(currency)?.aggs ?? []).reduce((sum, agg) => sum + agg.optionsPLMinor + agg.stockPLMinor, 0);
}

/**
 * Cash conservation, computed independently of the lot engine: the generators write every trade's
 * amount as ±gross − costs, so Σ amounts = realized − (open longs' basis + costs) + (open shorts' credit − costs).
 */
function expectCashConserved(transactions: readonly Transaction[], ledger: Ledger): void {
  for (const currency of ledger.currencies) {
    const cashMinor = transactions.filter((t) => t.currency === currency && TRADE_OR_SETTLEMENT.has(t.type)).reduce((sum, t) => sum + t.amountMinor, 0);
    const openMinor = ledger.positions
      .filter((p) => p.currency === currency)
      .reduce((sum, p) => sum + (p.quantity > 0 ? -p.entryGrossMinor - p.entryCostsMinor : p.entryGrossMinor - p.entryCostsMinor), 0);
    expect(realizedMinor(ledger, currency) + openMinor, `${currency}: Σ trade cash = realized + open positions' cash`).toBe(cashMinor);
  }
}

describe('properties', () => {
  const synthetic = stored(syntheticTransactions(6_000, 3), { fastDay: true });
  const demo = stored(demoTransactions(7, '2025-06-30'));

  it('conserves cash exactly (synthetic journal, two currencies)', () => {
    const ledger = buildLedger(synthetic, { reportingCurrency: 'USD' });
    expect(ledger.currencies).toEqual(['USD', 'CAD']);
    expectCashConserved(synthetic, ledger);
  });

  it('conserves cash exactly (demo journal)', () => {
    expectCashConserved(demo, buildLedger(demo, { reportingCurrency: 'USD' }));
  });

  it('every realized amount belongs to exactly one chain', () => {
    const ledger = buildLedger(synthetic, { reportingCurrency: 'USD' });
    for (const currency of ledger.currencies) {
      const chainsMinor = ledger.campaigns.filter((c) => c.currency === currency).reduce((sum, c) => sum + c.realizedMinor, 0);
      expect(chainsMinor, `${currency}: Σ chain realized = Σ daily realized`).toBe(realizedMinor(ledger, currency));
    }
  });

  it('does not depend on the input order', () => {
    const a = buildLedger(synthetic, { reportingCurrency: 'USD' });
    const b = buildLedger(shuffle(synthetic, 11), { reportingCurrency: 'USD' });
    expect(yearJson(b, 2021)).toEqual(yearJson(a, 2021));
    expect(performanceJson(b, { period: 'weekly', date: '2022-03-09', from: '2020-01-01', to: '2026-01-01' })).toEqual(
      performanceJson(a, { period: 'weekly', date: '2022-03-09', from: '2020-01-01', to: '2026-01-01' }),
    );
    expect(b.campaigns.length).toBe(a.campaigns.length);
  });

  it('does not depend on the id order of rows that share an instant (date-only exports)', () => {
    // Every row of a day gets the same instant, as a date-only export would; then the ids are permuted
    // among the rows, which changes the tie-break order within each day.
    const collapsed = demo.map((t) => ({ ...t, tradeDate: `${t.tradeDay}T16:00:00.000Z` }));
    const ids = shuffle(collapsed.map((t) => t.id), 5);
    const permuted = collapsed.map((t, i) => ({ ...t, id: ids[i] ?? t.id }));
    const a = buildLedger(collapsed, { reportingCurrency: 'USD' });
    const b = buildLedger(permuted, { reportingCurrency: 'USD' });
    expect(yearJson(b, 2025).stats).toEqual(yearJson(a, 2025).stats);
    expect(allTime(b).summary).toEqual(allTime(a).summary);
    expect(b.warnings, 'opens sort before closes within an instant').toEqual({ unmatchedCloses: 0, unmatchedSettlements: 0, openedAgainstOpposite: 0, corporateActionsWithoutLots: 0 });
    expect(allTime(a).summary, 'same figures as with real times').toEqual(allTime(buildLedger(demo, { reportingCurrency: 'USD' })).summary);
  });

  it('period totals are the sums of their day and month buckets', () => {
    const ledger = buildLedger(synthetic, { reportingCurrency: 'USD' });
    const year = yearJson(ledger, 2022);
    const monthsSum = year.chartData.monthly.reduce((sum, m) => sum + m.pl, 0);
    expect(Math.abs(monthsSum - year.stats.totalPL), 'Σ monthly within 12 half-cents of the year').toBeLessThanOrEqual(0.06);
    const days = year.chartData.daily;
    expect(days.at(-1)?.cumulative, 'the last cumulative point is the year').toBe(year.stats.totalPL);
    const custom = allTime(ledger);
    const byDaySum = custom.breakdown.byDay.reduce((sum, d) => sum + d.pl, 0);
    expect(Math.abs(byDaySum - custom.summary.totalPL), 'Σ byDay within a half-cent per day').toBeLessThanOrEqual(custom.breakdown.byDay.length * 0.005 + 1e-6);
    const trades = custom.breakdown.byDay.reduce((sum, d) => sum + d.trades, 0);
    expect(trades, 'trades add up exactly').toBe(custom.summary.trades);
  });
});

describe('demo journal', () => {
  const today = '2025-06-30';

  it('is deterministic and labelled', () => {
    const a = demoTransactions(3, today);
    expect(demoTransactions(3, today)).toEqual(a);
    expect(demoTransactions(4, today)).not.toEqual(a);
    expect(a.every((t) => t.source === 'demo' && t.accountName === DEMO_ACCOUNT && t.currency === 'USD')).toBe(true);
    expect(new Set(a.map((t) => t.brokerRowId)).size, 'unique row ids').toBe(a.length);
    const days = stored(a).map((t) => t.tradeDay);
    expect(days.every((d) => d <= today && d >= '2024-07-01'), 'one year up to today').toBe(true);
  });

  for (const seed of [1, 2, 3, 7]) {
    it(`seed ${seed}: has every wheel event`, () => {
      const rows = demoTransactions(seed, today);
      const ledger = buildLedger(stored(rows), { reportingCurrency: 'USD' });
      const types = new Set(rows.map((t) => t.type));
      for (const type of ['SELL_TO_OPEN', 'BUY_TO_CLOSE', 'EXPIRATION', 'ASSIGNMENT', 'BUY', 'SELL', 'DIVIDEND'] as const) expect(types.has(type), type).toBe(true);
      expect(new Set(rows.filter((t) => t.isOption).map((t) => t.underlying)).size, '3–4 tickers').toBeGreaterThanOrEqual(3);
      expect(ledger.rolls.some((r) => r.linkedBy === 'order'), 'a roll on one order id').toBe(true);
      expect(rows.some((t) => t.type === 'DIVIDEND' && t.amountMinor < 0), 'withholding').toBe(true);
      expect(rows.some((t) => t.type === 'SELL' && t.description.includes('called away')), 'called away').toBe(true);
      const assignedBuys = rows.filter((t) => t.type === 'BUY');
      expect(assignedBuys.every((b) => rows.some((o) => o.type === 'ASSIGNMENT' && o.tradeDate === b.tradeDate && o.underlying === b.underlying && Math.round((o.strike ?? 0) * 10_000) === b.priceMinor)), 'stock at the strike').toBe(true);
      expect(ledger.campaigns.some((c) => c.closeDay !== null && c.plMinor < 0), 'a losing chain').toBe(true);
      const fills = rows.filter((t) => ['SELL_TO_OPEN', 'BUY_TO_CLOSE', 'BUY', 'SELL'].includes(t.type));
      expect(fills.every((t) => t.feesMinor > 0), 'fees on every fill').toBe(true);
      expect(ledger.warnings).toEqual({ unmatchedCloses: 0, unmatchedSettlements: 0, openedAgainstOpposite: 0, corporateActionsWithoutLots: 0 });
    });
  }
});

describe('synthetic journal', () => {
  it('has exactly the count asked for, several accounts, symbols and currencies', () => {
    const rows = syntheticTransactions(2_000, 9);
    expect(rows.length).toBe(2_000);
    expect(syntheticTransactions(2_000, 9)).toEqual(rows);
    expect(new Set(rows.map((t) => t.accountName)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(rows.map((t) => t.underlying)).size).toBeGreaterThanOrEqual(20);
    expect(new Set(rows.map((t) => t.currency))).toEqual(new Set(['USD', 'CAD']));
    expect(rows.every((t, i) => i === 0 || (rows[i - 1]?.tradeDate ?? '') <= t.tradeDate), 'oldest first').toBe(true);
  });
});
