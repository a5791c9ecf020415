/**
 * Published expectations of other tools, translated to neutral transactions. Where their convention
 * differs from ours (docs/journal.md, docs/journal.md) the test says so and pins our number by hand instead.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allTime, ledgerOf, tx, yearJson } from '../../../journal-helpers';
import { BROKER_FIXTURES_SHARED as FIXTURES } from '../../../paths';

const TRADETALLY = path.join(FIXTURES, 'tradetally_EXPECTED_pnl_engine_contracts.json');
const BINNACULUM = path.join(FIXTURES, 'binnaculum_EXPECTED_operations_TSLL_MPW_PFE.json');
const PFE_CSV = path.join(FIXTURES, 'tastytrade_v2_21col_PFE_binnaculum.csv');

interface Case {
  id: string;
  expected: { aggregate: { pnl: number }; realized_pnl: Array<number | null> };
}

describe('tradetally P&L engine contracts (Apache-2.0, GeneBO98/tradetally)', () => {
  const cases = (): Map<string, Case> => {
    const json = JSON.parse(readFileSync(TRADETALLY, 'utf8')) as { pnl_engine_cases: Case[] };
    return new Map(json.pnl_engine_cases.map((c) => [c.id, c]));
  };
  const expected = (id: string) => {
    const found = cases().get(id);
    if (!found) throw new Error(`case ${id} missing from the fixture`);
    return found.expected;
  };

  it('stock_long_round_trip: 197.75', () => {
    const ledger = ledgerOf([
      tx({ type: 'BUY', ticker: 'T1', quantity: 100, price: 10, commission: 1, at: '2026-01-05T10:00:00Z' }),
      tx({ type: 'SELL', ticker: 'T1', quantity: 100, price: 12, commission: 1, fees: 0.25, at: '2026-01-05T14:00:00Z' }),
    ]);
    expect(allTime(ledger).summary.stockPL, 'published pnl: 200 − 2 − 0.25').toBe(expected('stock_long_round_trip').aggregate.pnl);
  });

  it('stock_short_round_trip: 98.9 (their SELL with no lot is a short sale: SELL_SHORT in the neutral model)', () => {
    // A plain SELL beyond the shares held is an unmatched close for us (docs/journal.md §Unmatched closes): the case's
    // short sale and its cover are written as the types that say so.
    const ledger = ledgerOf([
      tx({ type: 'SELL_SHORT', ticker: 'T1', quantity: 50, price: 20, commission: 0.5, at: '2026-01-06T10:00:00Z' }),
      tx({ type: 'BUY_TO_COVER', ticker: 'T1', quantity: 50, price: 18, commission: 0.5, fees: 0.1, at: '2026-01-06T14:00:00Z' }),
    ]);
    expect(allTime(ledger).summary.stockPL, 'published pnl').toBe(expected('stock_short_round_trip').aggregate.pnl);
  });

  it('option_contract_multiplier: 147.8', () => {
    const call = { expiration: '2026-01-16', strike: 100, right: 'C' as const };
    const ledger = ledgerOf([
      tx({ type: 'BUY_TO_OPEN', ticker: 'T1', option: call, quantity: 2, price: 1.5, commission: 1, at: '2026-01-07T10:00:00Z' }),
      tx({ type: 'SELL_TO_CLOSE', ticker: 'T1', option: call, quantity: 2, price: 2.25, commission: 1, fees: 0.2, at: '2026-01-07T14:00:00Z' }),
    ]);
    expect(allTime(ledger).summary.optionsPL, 'published pnl').toBe(expected('option_contract_multiplier').aggregate.pnl);
  });

  it('short_option_expired_worthless: 9.48', () => {
    const put = { expiration: '2026-02-20', strike: 100, right: 'P' as const };
    // The case gives one record with commission 0.50 and fees 0.02 for the trade; the entry fill carries them.
    const ledger = ledgerOf([
      tx({ type: 'SELL_TO_OPEN', ticker: 'T1', option: put, quantity: 1, price: 0.1, commission: 0.5, fees: 0.02, at: '2026-02-13T15:30:00Z' }),
      tx({ type: 'EXPIRATION', ticker: 'T1', option: put, quantity: 1, at: '2026-02-20T21:00:00Z' }),
    ]);
    const s = allTime(ledger).summary;
    expect(s.optionsPL, 'published pnl').toBe(expected('short_option_expired_worthless').aggregate.pnl);
    expect(s.lockedInPremiums, 'the same figure is locked in').toBe(9.48);
  });

  it('future_point_value: 52.8 (the multiplier is the point value)', () => {
    const ledger = ledgerOf([
      tx({ type: 'BUY', ticker: '/MES', quantity: 3, price: 4500, commission: 3, multiplier: 5, at: '2026-01-08T10:00:00Z' }),
      tx({ type: 'SELL', ticker: '/MES', quantity: 3, price: 4504, commission: 3, fees: 1.2, multiplier: 5, at: '2026-01-08T14:00:00Z' }),
    ]);
    expect(allTime(ledger).summary.stockPL, 'published pnl: 3 × 4 × 5 − 7.2').toBe(expected('future_point_value').aggregate.pnl);
  });

  it('fifo_partial_exits: 39.12 then 118.68', () => {
    // Their exits are hours apart on one day; ours are put on two days so that byDay shows each exit's realized.
    const ledger = ledgerOf([
      tx({ type: 'BUY', ticker: 'T1', quantity: 100, price: 10, commission: 1, fees: 0.1, at: '2026-01-09T10:00:00Z' }),
      tx({ type: 'SELL', ticker: 'T1', quantity: 40, price: 11, commission: 0.4, fees: 0.04, at: '2026-01-09T16:00:00Z' }),
      tx({ type: 'SELL', ticker: 'T1', quantity: 60, price: 12, commission: 0.6, fees: 0.06, at: '2026-01-12T16:00:00Z' }),
    ]);
    const realized = expected('fifo_partial_exits').realized_pnl.filter((x): x is number => x !== null);
    expect(allTime(ledger).breakdown.byDay.map((d) => d.realizedPL).filter((x) => x !== 0), 'published per-exit realized').toEqual(realized);
    expect(allTime(ledger).summary.stockPL, 'published aggregate').toBe(expected('fifo_partial_exits').aggregate.pnl);
  });

  it('grouped_executions: 98.8 + 29.4 matched FIFO', () => {
    // Two entry/exit records; each record's costs are put on its exit fill.
    const ledger = ledgerOf([
      tx({ type: 'BUY', ticker: 'T1', quantity: 10, price: 100, at: '2026-01-10T10:00:00Z' }),
      tx({ type: 'BUY', ticker: 'T1', quantity: 5, price: 102, at: '2026-01-10T10:05:00Z' }),
      tx({ type: 'SELL', ticker: 'T1', quantity: 10, price: 110, commission: 1, fees: 0.2, at: '2026-01-10T13:00:00Z' }),
      tx({ type: 'SELL', ticker: 'T1', quantity: 5, price: 108, commission: 0.5, fees: 0.1, at: '2026-01-10T13:05:00Z' }),
    ]);
    const realized = expected('grouped_executions').realized_pnl.filter((x): x is number => x !== null);
    expect(allTime(ledger).summary.stockPL, 'published aggregate = Σ per-record').toBeCloseTo(realized.reduce((a, b) => a + b, 0), 10);
    expect(allTime(ledger).summary.stockPL).toBe(expected('grouped_executions').aggregate.pnl);
  });

  it('ibkr_double_recorded_cost: DIFFERS — our costs are unsigned, so −1.53244 is a cost, not a credit', () => {
    // tradetally reads IBKR's negative fee as adding to P&L (188 + 1.53244 = 189.53244). Our importers store
    // commissions/fees unsigned (model.ts), so the same execution nets 188.00 − 1.5324 = 186.4676 → 186.47.
    const published = expected('ibkr_double_recorded_cost').aggregate.pnl;
    const put = { expiration: '2026-01-02', strike: 100, right: 'P' as const };
    const ledger = ledgerOf([
      tx({ type: 'SELL_TO_OPEN', ticker: 'T1', option: put, quantity: 4, price: 0.47, fees: 1.53244, at: '2025-12-30T18:11:00Z' }),
      tx({ type: 'BUY_TO_CLOSE', ticker: 'T1', option: put, quantity: 4, price: 0, at: '2026-01-02T21:20:00Z' }),
    ]);
    expect(published, 'their convention adds the fee').toBeCloseTo(189.53244, 5);
    expect(allTime(ledger).summary.optionsPL, '4 × 0.47 × 100 − 1.5324').toBe(186.47);
  });

  it('analytics_summary: win rate 2/3 and total 294.65 as three flat-to-flat chains', () => {
    const ledger = ledgerOf([
      tx({ type: 'BUY', ticker: 'W1', quantity: 100, price: 10, commission: 1, at: '2026-01-05T15:00:00Z' }),
      tx({ type: 'SELL', ticker: 'W1', quantity: 100, price: 12, commission: 1, fees: 0.25, at: '2026-01-05T19:00:00Z' }),
      // Their short round trip (a SELL with no shares is a short sale for them): SELL_SHORT, and a BUY covers it.
      tx({ type: 'SELL_SHORT', ticker: 'W2', quantity: 50, price: 20, commission: 0.5, at: '2026-01-06T15:00:00Z' }),
      tx({ type: 'BUY', ticker: 'W2', quantity: 50, price: 18, commission: 0.5, fees: 0.1, at: '2026-01-06T19:00:00Z' }),
      tx({ type: 'BUY', ticker: 'B1', quantity: 100, price: 10, commission: 1, at: '2026-01-07T15:00:00Z' }),
      tx({ type: 'SELL', ticker: 'B1', quantity: 100, price: 10, commission: 1, at: '2026-01-07T19:00:00Z' }),
    ]);
    const json = JSON.parse(readFileSync(TRADETALLY, 'utf8')) as { analytics_summary: { expected: { total_pnl: number; win_rate: number } } };
    const stats = yearJson(ledger, 2026).stats;
    expect(stats.totalPL, 'published total_pnl').toBe(json.analytics_summary.expected.total_pnl);
    // Their win_rate counts the −2.00 "breakeven" trade in the denominator, as we do: 2 / 3.
    // DIFFERS in labels: they call −2.00 breakeven (within a tolerance); for us a chain with P&L ≤ 0 is a loss.
    expect((stats.chains.winRate ?? 0) * 100, 'published win_rate (percent)').toBeCloseTo(json.analytics_summary.expected.win_rate, 8);
    expect(stats.chains.losses, 'the −2.00 chain is a loss for us').toBe(1);
  });
});

describe('Binnaculum PFE (MIT, DarioAlonsoCerezo/Binnaculum), hand-built from the tastytrade CSV', () => {
  // tastytrade_v2_21col_PFE_binnaculum.csv, oldest first (its times are +01:00; UTC below):
  //   2025-08-25T19:26:41+0100 BUY_TO_OPEN  PFE 260116C00020000 1 @ 5.54  commission 1.00 fees 0.12 order 403310257
  //   2025-10-01T16:16:44+0100 SELL_TO_OPEN PFE 251010C00027000 1 @ 0.51  commission 1.00 fees 0.12 order 410536999
  //   2025-10-03T20:55:09+0100 BUY_TO_CLOSE PFE 251010C00027000 1 @ 0.64  commission 0    fees 0.12 order 411322652
  //   2025-10-03T20:55:09+0100 SELL_TO_CLOSE PFE 260116C00020000 1 @ 7.45 commission 0    fees 0.12 order 411322652
  const c20 = { expiration: '2026-01-16', strike: 20, right: 'C' as const };
  const c27 = { expiration: '2025-10-10', strike: 27, right: 'C' as const };
  const rows = () => [
    tx({ type: 'BUY_TO_OPEN', ticker: 'PFE', option: c20, quantity: 1, price: 5.54, commission: 1, fees: 0.12, at: '2025-08-25T18:26:41Z', orderId: '403310257' }),
    tx({ type: 'SELL_TO_OPEN', ticker: 'PFE', option: c27, quantity: 1, price: 0.51, commission: 1, fees: 0.12, at: '2025-10-01T15:16:44Z', orderId: '410536999' }),
    tx({ type: 'BUY_TO_CLOSE', ticker: 'PFE', option: c27, quantity: 1, price: 0.64, fees: 0.12, at: '2025-10-03T19:55:09Z', orderId: '411322652' }),
    tx({ type: 'SELL_TO_CLOSE', ticker: 'PFE', option: c20, quantity: 1, price: 7.45, fees: 0.12, at: '2025-10-03T19:55:09Z', orderId: '411322652' }),
  ];
  const published = () => (JSON.parse(readFileSync(BINNACULUM, 'utf8')) as { PFE: { realized: number; premiumGross: number; commissions: number; fees: number } }).PFE;

  it('the hand-built rows match the CSV', () => {
    const lines = readFileSync(PFE_CSV, 'utf8').trim().split(/\r?\n/).slice(1);
    expect(lines.length).toBe(4);
    for (const row of rows()) {
      const line = lines.find((l) => l.includes(row.orderId ?? '?') && l.includes(row.type));
      expect(line, `${row.type} ${row.orderId}`).toBeDefined();
      expect(line).toContain(`${(row.priceMinor / 10_000).toFixed(2)}`);
    }
  });

  it('realized 175.52 with commissions 2.00 and fees 0.48', () => {
    const ledger = ledgerOf(rows());
    const s = allTime(ledger).summary;
    const expected = published();
    // Long call: 745 − 554 − 1.12 − 0.12 = 189.76; short call: 51 − 64 − 1.12 − 0.12 = −14.24
    expect(s.optionsPL, 'published realized').toBe(expected.realized);
    const costs = rows().reduce((sum, r) => sum + r.commissionMinor + r.feesMinor, 0) / 10_000;
    expect(costs, 'published commissions + fees').toBeCloseTo(expected.commissions + expected.fees, 10);
    // Their "premium" is the net gross option cash flow: −554 + 51 − 64 + 745 = 178 = realized + all costs.
    expect(s.optionsPL + costs, 'published net premium = realized + costs').toBeCloseTo(expected.premiumGross, 10);
    // DIFFERS: our premiumsCollected is the gross sell-to-open credit only (docs/journal.md): 0.51 × 100.
    expect(s.premiumsCollected, 'STO credits only').toBe(51);
    expect(s.lockedInPremiums, 'the short 27 call only').toBe(-14.24);
    expect(s.rolls, 'two closes on one order are not a roll (no open leg)').toBe(0);
    expect(ledger.campaigns.map((c) => [c.openDay, c.closeDay, c.plMinor]), 'one campaign, flat to flat, like their operation').toEqual([
      ['2025-08-25', '2025-10-03', 1_755_200],
    ]);
  });
});
