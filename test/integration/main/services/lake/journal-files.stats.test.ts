/**
 * trades.parquet carries what /journal/stats groups by (issue 27 item 10, docs/research.md §trades): a real DuckDB
 * redoes `/v1/journal/stats?groupBy=zoneAtEntry` from the file with the documented query, and its rows are the API's,
 * on the hand-written AMD trades around the real AMD chain (a zone at entry and "unknown"); the entry's columns (dte,
 * delta, levels, strike place), the ratios and the tags are each trade's as /journal/trades answers it, and so are its
 * outcome and options P&L (a closed XYZ wheel beside them: a put assigned, a call assigned away).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatsResponseT, TradesResponseT } from '../../../../../src-shared/api/schemas';
import { exportLake } from '../../../../../src-main/services/lake/export';
import { AMD_TRADES } from '../../../../amd-trades';
import { AMD_WHEEL } from '../../../../amd-wheel';
import { documentedQueries, openDuck, query, scratchFolders, type Duck, type DuckRow } from '../../../../duck';
import { buildTestApp, type TestApp } from '../../../../helper';
import { CHAIN_FIXTURES } from '../../../../paths';

const AMD_CHAIN = join(CHAIN_FIXTURES, 'AMD_quotedata_2023-08-18close_aryaman.csv');

/** A DECIMAL(18,4) as DuckDB prints it, in minor units (1/10,000). */
const minorOf = (text: unknown): number => Math.round(Number(String(text)) * 10_000);
/** The API's presentation of money: minor units to cents, half away from zero. */
const cents = (minor: number): number => (Math.sign(minor) * Math.round(Math.abs(minor) / 100)) / 100;

/** A row of the documented SQL as /journal/stats presents it: sums exact from SQL, each average rounded to the minor unit, then to the cent. */
function asStatsRow(row: DuckRow) {
  const trades = Number(row.trades);
  const wins = Number(row.wins);
  const losses = trades - wins;
  const won = minorOf(row.won);
  const lost = minorOf(row.lost);
  return {
    key: row.key,
    trades,
    wins,
    losses,
    winRate: wins / trades,
    pnl: cents(minorOf(row.pnl)),
    avgPnl: cents(Math.round(minorOf(row.pnl) / trades)),
    avgWin: wins > 0 ? cents(Math.round(won / wins)) : null,
    avgLoss: losses > 0 ? cents(Math.round(lost / losses)) : null,
    profitFactor: lost < 0 ? won / -lost : null,
    avgDaysHeld: row.avg_days_held ?? null,
    avgReturnOnCollateral: row.avg_return_on_collateral ?? null,
    avgPctOfMaxProfit: row.avg_pct_of_max_profit ?? null,
    largestLoss: row.largest_loss === null ? null : cents(minorOf(row.largest_loss)),
  };
}

describe('trades.parquet against /journal/stats', () => {
  const folders = scratchFolders();
  let app: TestApp;
  let duck: Duck;
  let lake: string;

  beforeAll(async () => {
    app = await buildTestApp();
    const post = async (url: string, body: string) => expect((await app.request({ method: 'POST', url, headers: { 'content-type': 'text/csv' }, payload: body })).statusCode).toBe(201);
    await post('/v1/chains?symbol=AMD', readFileSync(AMD_CHAIN, 'utf8'));
    await post('/v1/imports?broker=generic', AMD_TRADES);
    // amd-wheel.ts's Taxable account: the closed XYZ wheel (its header and its own rows).
    await post('/v1/imports?broker=generic', AMD_WHEEL.split('\n').filter((line, index) => index === 0 || line.includes(',Taxable,')).join('\n'));
    const trades = (await app.get<TradesResponseT>('/v1/journal/trades')).body.trades;
    const tagged = trades.find((t) => t.mainLeg?.strike === 95);
    const saved = await app.request({ method: 'PUT', url: `/v1/journal/trades/${encodeURIComponent(tagged?.id ?? '')}/annotation`, payload: { note: 'below the wall', tags: ['Earnings', 'wheel'] } });
    expect(saved.statusCode, saved.body).toBe(200);
    lake = join(folders.make('strikebook-lake-stats-'), 'lake');
    const exported = exportLake(app.ctx.db, { out: lake }, app.ctx.settings.rate);
    if (!exported.ok) throw new Error(`export failed: ${JSON.stringify(exported.error)}`);
    duck = await openDuck();
    await duck.run(`CREATE VIEW trades AS SELECT * FROM read_parquet('${lake}/trades.parquet');`);
  }, 120_000);

  afterAll(async () => {
    duck.close();
    await app.close();
    folders.removeAll();
  });

  it('the documented query gives /journal/stats?groupBy=zoneAtEntry, row for row', async () => {
    const api = (await app.get<StatsResponseT>('/v1/journal/stats?groupBy=zoneAtEntry')).body;
    expect(api.rows.map((r) => r.key), 'a zone at entry and trades without a snapshot at entry').toContain('unknown');
    expect(api.rows.length).toBeGreaterThanOrEqual(2);
    const sql = (await duck.rows(query(documentedQueries(lake), 'trade stats by zone at entry'))).map(asStatsRow);
    expect(sql.map((r) => r.key)).toEqual(api.rows.map((r) => r.key));
    for (const [index, row] of api.rows.entries()) {
      const mine = sql[index];
      const exact = { ...row, avgReturnOnCollateral: null, avgPctOfMaxProfit: null, avgDaysHeld: null, profitFactor: null };
      expect({ ...mine, avgReturnOnCollateral: null, avgPctOfMaxProfit: null, avgDaysHeld: null, profitFactor: null }, String(row.key)).toEqual(exact);
      // Means of doubles: summed in another order, equal to the last bits that matter.
      for (const field of ['avgReturnOnCollateral', 'avgPctOfMaxProfit', 'avgDaysHeld', 'profitFactor'] as const) {
        const theirs = row[field];
        const ours = mine?.[field];
        if (theirs === null) expect(ours, `${String(row.key)} ${field}`).toBeNull();
        else expect(Number(ours), `${String(row.key)} ${field}`).toBeCloseTo(theirs, 12);
      }
    }
  });

  it("each trade's entry, ratios and tags are the ones /journal/trades answers", async () => {
    const api = (await app.get<TradesResponseT>('/v1/journal/trades')).body.trades;
    const rows = await duck.rows(
      `SELECT id, status, dte_at_entry, delta_at_entry, gamma_zone_at_entry, put_wall_at_entry, gamma_flip_at_entry, call_wall_at_entry, strike_vs_levels,
              entry_spot, epoch_ms(entry_quote_time) AS entry_ms, return_on_collateral, pct_of_max_profit, collateral::VARCHAR AS collateral, campaign_id, from_json(tags, '["VARCHAR"]') AS tags
       FROM trades ORDER BY id`,
    );
    expect(rows).toHaveLength(api.length);
    const byId = new Map(rows.map((r) => [String(r.id), r]));
    let placed = 0;
    for (const trade of api) {
      const row = byId.get(trade.id);
      const levels = trade.levelsAtEntry;
      if (levels !== null) placed += 1;
      expect(row, trade.id).toMatchObject({
        status: trade.status,
        dte_at_entry: trade.dteAtEntry,
        delta_at_entry: trade.deltaAtEntry,
        gamma_zone_at_entry: levels?.gammaZone ?? null,
        put_wall_at_entry: levels?.putWall ?? null,
        gamma_flip_at_entry: levels?.gammaFlip ?? null,
        call_wall_at_entry: levels?.callWall ?? null,
        strike_vs_levels: levels?.shortStrikeVs ?? null,
        entry_spot: trade.entrySnapshot?.spot ?? null,
        campaign_id: trade.campaignId,
        tags: trade.tags,
      });
      expect(row?.entry_ms === null ? null : Number(row?.entry_ms)).toBe(trade.entrySnapshot === null ? null : Date.parse(trade.entrySnapshot.quoteTime));
      expect(row?.collateral === null ? null : cents(minorOf(row?.collateral))).toBe(trade.collateral);
      if (trade.status === 'closed') {
        expect(row?.return_on_collateral, trade.id).toBe(trade.returnOnCollateral);
        expect(row?.pct_of_max_profit, trade.id).toBe(trade.pctOfMaxProfit);
      }
    }
    expect(placed, 'trades opened beside the AMD snapshot have their levels').toBeGreaterThanOrEqual(2);
    expect(rows.some((r) => JSON.stringify(r.tags) === JSON.stringify(['earnings', 'wheel']))).toBe(true);
  });

  it("each trade's outcome and options P&L are the ones /journal/trades answers", async () => {
    const api = (await app.get<TradesResponseT>('/v1/journal/trades')).body.trades;
    const rows = await duck.rows('SELECT id, outcome, pnl::VARCHAR AS pnl, option_pl::VARCHAR AS option_pl FROM trades ORDER BY id');
    expect(rows).toHaveLength(api.length);
    const byId = new Map(rows.map((r) => [String(r.id), r]));
    for (const trade of api) {
      const row = byId.get(trade.id);
      expect(row?.outcome, trade.id).toBe(trade.outcome);
      expect(row?.option_pl === null ? null : cents(minorOf(row?.option_pl)), trade.id).toBe(trade.optionPL);
    }
    expect(new Set(rows.map((r) => r.outcome))).toEqual(new Set(['closed', 'open', 'assigned']));
    // The XYZ wheel by hand: its options are the put's 1.00 × 100 − 1.00 = 99.00 and the call's 0.80 × 100 − 1.00 = 79.00,
    // 178.00 in all; its shares bought at 50 and called away at 52 add 200.00 to its P&L (378.00).
    const wheel = rows.find((r) => r.outcome === 'assigned');
    expect(wheel).toMatchObject({ option_pl: '178.0000', pnl: '378.0000' });
  });
});
