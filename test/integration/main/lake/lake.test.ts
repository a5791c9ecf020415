/**
 * The Parquet lake (issue 22, docs/research.md) read back with a real DuckDB: row counts, Σ open interest and Σ IV
 * against the sources the chains were made from, the per-day total GEX recomputed in SQL from the contracts against
 * /gex/history, the documented queries, the journal's exact money; a second export writes nothing and another
 * folder gets the same bytes; export → import into a fresh data folder answers /gex the same, snapshot for snapshot.
 */
import { NO_NOTES } from '../../../../src-shared/journal/import-report';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GexHistoryResponseT, GexResponseT, SnapshotsResponseT } from '../../../../src-shared/api/schemas';
import { DEMO_JOURNAL_SEED, demoTransactions } from '../../../../src-shared/demo/journal';
import { DEMO_SEED, demoMarket } from '../../../../src-shared/demo/market';
import type { ChainSnapshot } from '../../../../src-shared/exposure/model';
import { exportLake, type ExportSummary } from '../../../../src-main/services/lake/export';
import { importLake } from '../../../../src-main/services/lake/import';
import { buildTestApp, storeChain, type TestApp } from '../../../helper';
import { CHAIN_TABLE, liveContracts, rawContracts, readChain, settlementGroups } from '../../../quotedata';
import { documentedQueries, openDuck, query, type Duck, scratchFolders } from '../../../duck';

const folders = scratchFolders();
afterAll(() => folders.removeAll());

const RATE = 0.04;
const DAY_MS = 86_400_000;
/** Real downloads that exercise what the lake must keep: expired rows, an adjusted root (AMD1), IVs above 5. */
const REAL_FILES = ['SPX_quotedata_2024-01-05close_phammings.csv', 'AMD_quotedata_2023-08-18close_aryaman.csv', 'TSLA_quotedata_2023-11-10_frlocale_hicham.csv'];

/**
 * The demo market's SPX at the open, at noon and at the close of 2026-11-20, its AAPL at the close, and another
 * seed's SPX close moved to the day before (so that two dates of one symbol have different open interest).
 */
function demoChains(): ChainSnapshot[] {
  const day = demoMarket(DEMO_SEED);
  const pick = (symbol: string, slot: number, market: ChainSnapshot[]) => {
    const found = market.filter((s) => s.symbol === symbol)[slot];
    if (found === undefined) throw new Error(`demo has no ${symbol} slot ${slot}`);
    return found;
  };
  const other = pick('SPX', 13, demoMarket(2));
  const dayBefore = { ...other, quoteTime: new Date(Date.parse(other.quoteTime) - DAY_MS).toISOString() };
  return [dayBefore, pick('SPX', 0, day), pick('SPX', 6, day), pick('SPX', 13, day), pick('AAPL', 13, day)];
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** N(x) by Marsaglia's series, Φ(x) = ½ + φ(x)(x + x³/3 + x⁵/(3·5) + …): exact to double precision, not the engine's algorithm. */
function normCdfSeries(x: number): number {
  if (x < -9) return 0;
  if (x > 9) return 1;
  let term = x;
  let total = x;
  for (let n = 1; n < 400 && Math.abs(term) > 1e-17 * Math.abs(total); n += 1) {
    term = (term * x * x) / (2 * n + 1);
    total += term;
  }
  return 0.5 + (Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI)) * total;
}

/** docs/exposure.md: BSM on the forward, e^{−qT} = e^{−rT}F/S; delta = e^{−qT}N(d1) (calls), −e^{−qT}N(−d1) (puts). */
function handGreeks(spot: number, forward: number, strike: number, tYears: number, sigma: number, right: 'C' | 'P'): { delta: number; gamma: number } {
  const sigmaSqrtT = sigma * Math.sqrt(tYears);
  const d1 = (Math.log(forward / strike) + (sigma * sigma * tYears) / 2) / sigmaSqrtT;
  const carryDiscount = (Math.exp(-RATE * tYears) * forward) / spot;
  const delta = right === 'C' ? carryDiscount * normCdfSeries(d1) : -carryDiscount * normCdfSeries(-d1);
  return { delta, gamma: (carryDiscount * Math.exp(-0.5 * d1 * d1)) / (Math.sqrt(2 * Math.PI) * spot * sigmaSqrtT) };
}

function treeDigests(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(relative(dir, path), createHash('sha256').update(readFileSync(path)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}

function exported(app: TestApp, out: string): ExportSummary {
  const result = exportLake(app.ctx.db, { out }, RATE);
  if (!result.ok) throw new Error(`export failed: ${JSON.stringify(result.error)}`);
  return result.value;
}

describe('the Parquet lake', () => {
  let source: TestApp;
  let duck: Duck;
  let lake: string;
  const chains = demoChains();
  const real = CHAIN_TABLE.filter((f) => REAL_FILES.includes(f.file));
  let first: ExportSummary;

  beforeAll(async () => {
    source = await buildTestApp({ overrides: { rate: RATE } });
    for (const chain of chains) storeChain(source.ctx, chain);
    for (const fixture of real) {
      const stored = await source.ctx.exposure.ingest({ file: readChain(fixture.file), options: {} });
      if (!stored.ok) throw new Error(`${fixture.file} refused`);
    }
    const transactions = demoTransactions(DEMO_JOURNAL_SEED, '2026-11-20');
    await source.ctx.journal.store('demo', 'demo', transactions.map((transaction, index) => ({ line: index + 1, transaction })), transactions.length, NO_NOTES, 'demo');
    lake = join(folders.make('strikebook-lake-'), 'lake');
    first = exported(source, lake);
    duck = await openDuck();
    await duck.run(query(documentedQueries(lake), 'views'));
  }, 120_000);

  afterAll(async () => {
    duck.close();
    await source.close();
  });

  it('writes a contracts and a levels file per snapshot, under symbol= and the quote’s New York date=', async () => {
    const total = chains.length + real.length;
    expect(first.snapshots, 'every stored snapshot written once').toEqual({ total, written: total, skipped: 0 });
    const files = await duck.rows(`SELECT symbol, date::VARCHAR AS date, snapshot_id, count(*) AS n FROM contracts GROUP BY ALL ORDER BY snapshot_id`);
    expect(files.length).toBe(total);
    // 2026-11-20 09:30 New York is 14:30 UTC; the other seed's close moved a day back is dated 2026-11-19.
    expect(files.filter((f) => f.symbol === 'SPX' && f.date === '2026-11-20').length).toBe(3);
    expect(files.filter((f) => f.symbol === 'SPX' && f.date === '2026-11-19').length).toBe(1);
    const levels = await duck.rows('SELECT count(*) AS n, count(DISTINCT snapshot_id) AS s FROM levels');
    expect(levels[0]).toEqual({ n: String(total), s: String(total) });
  });

  it('holds every contract of every snapshot: row counts, Σ open interest and Σ IV as in the chains stored', async () => {
    const rows = await duck.rows('SELECT symbol, epoch_ms(quote_time) AS ms, count(*) AS n, sum(open_interest) AS oi, sum(iv) AS iv FROM contracts GROUP BY ALL');
    const byQuote = new Map(rows.map((r) => [`${String(r.symbol)}|${String(r.ms)}`, r]));
    const at = (symbol: string, quoteTime: string) => byQuote.get(`${symbol}|${Date.parse(quoteTime)}`);
    for (const chain of chains) {
      const row = at(chain.symbol, chain.quoteTime);
      expect(row?.n, `${chain.symbol} ${chain.quoteTime}: the simulator's contracts`).toBe(String(chain.contracts.length));
      expect(row?.oi).toBe(sum(chain.contracts.map((c) => c.openInterest)));
      expect(Number(row?.iv)).toBeCloseTo(sum(chain.contracts.map((c) => c.iv)), 6);
    }
    for (const fixture of real) {
      const raw = rawContracts(readChain(fixture.file));
      const row = at(fixture.symbol, fixture.quoteTime);
      expect(row?.n, `${fixture.file}: the fixtures README's count`).toBe(String(fixture.contracts));
      expect(row?.oi, `${fixture.file}: Σ OI from the file's rows (the test's own reader)`).toBe(sum(raw.map((c) => c.openInterest)));
      expect(Number(row?.iv)).toBeCloseTo(sum(raw.map((c) => c.iv)), 6);
    }
  });

  it('marks with a dte exactly the contracts the engine uses (unexpired, standard roots); greeks only where the IV is usable', async () => {
    if (real.length === 0) return;
    for (const fixture of real) {
      const raw = rawContracts(readChain(fixture.file));
      const live = liveContracts(raw, fixture.quoteTime).filter((c) => c.strike > 0);
      const [row] = await duck.rows(`SELECT count(dte) AS dated, count(gamma) AS greeks, count(*) - count(dte) AS left_out FROM contracts WHERE symbol = '${fixture.symbol}' AND epoch_ms(quote_time) = ${Date.parse(fixture.quoteTime)}`);
      expect(row?.dated, `${fixture.file}: unexpired at the README's quote time and not adjusted (the test's reader)`).toBe(String(live.length));
      expect(row?.greeks, `${fixture.file}: of those, IV in (0, 5]`).toBe(String(live.filter((c) => c.iv > 0 && c.iv <= 5).length));
    }
  });

  it('delta and gamma are BSM on each group’s parity forward, by hand from the chains’ rows', async () => {
    const sources = [...chains.map((c) => ({ symbol: c.symbol, quoteTime: c.quoteTime, spot: c.spot, rows: c.contracts.map((k) => ({ ...k, volume: k.volume ?? 0 })) })), ...real.map((f) => ({ symbol: f.symbol, quoteTime: f.quoteTime, spot: f.spot, rows: rawContracts(readChain(f.file)) }))];
    let checked = 0;
    for (const chain of sources) {
      const lakeRows = await duck.rows(`SELECT root, expiration::VARCHAR AS expiration, strike, "right", delta, gamma FROM contracts WHERE symbol = '${chain.symbol}' AND epoch_ms(quote_time) = ${Date.parse(chain.quoteTime)}`);
      const byKey = new Map(lakeRows.map((r) => [`${String(r.root)}|${String(r.expiration)}|${String(r.strike)}|${String(r.right)}`, r]));
      const live = liveContracts(chain.rows, chain.quoteTime).filter((c) => c.strike > 0);
      for (const expiration of new Set(live.map((c) => c.expiration))) {
        for (const group of settlementGroups(live, expiration, chain.spot, RATE, chain.quoteTime)) {
          for (const c of group.contracts) {
            const row = byKey.get(`${c.root}|${c.expiration}|${c.strike}|${c.right}`);
            if (!(c.iv > 0 && c.iv <= 5)) {
              expect(row?.gamma, 'no greeks for an unusable IV').toBeNull();
              continue;
            }
            const hand = handGreeks(chain.spot, group.forward, c.strike, group.tYears, c.iv, c.right);
            expect(Math.abs(Number(row?.delta) - hand.delta), `${chain.symbol} ${c.root} ${c.expiration} ${c.strike}${c.right} delta`).toBeLessThan(1e-12);
            expect(Math.abs(Number(row?.gamma) - hand.gamma), `${chain.symbol} ${c.root} ${c.expiration} ${c.strike}${c.right} gamma`).toBeLessThanOrEqual(1e-12 * hand.gamma + 1e-300);
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('the total GEX recomputed in SQL from the contracts is /gex/history’s, snapshot for snapshot', async () => {
    const recomputed = await duck.rows(`
      WITH scoped AS (
        SELECT *, dense_rank() OVER (PARTITION BY snapshot_id ORDER BY expiration) AS nth FROM contracts WHERE dte IS NOT NULL
      )
      SELECT symbol, snapshot_id, sum(CASE "right" WHEN 'C' THEN 1 ELSE -1 END * gamma * open_interest * multiplier) AS total_gex
      FROM scoped WHERE nth <= 3 GROUP BY symbol, snapshot_id`);
    const levels = await duck.rows('SELECT snapshot_id, total_gex, gamma_inflection, call_wall_strike, put_wall_gex FROM levels');
    let compared = 0;
    for (const symbol of new Set(recomputed.map((r) => String(r.symbol)))) {
      const history = await source.get<GexHistoryResponseT>(`/v1/gex/history?symbol=${symbol}`);
      expect(history.status).toBe(200);
      for (const point of history.body.points) {
        const sqlRow = recomputed.find((r) => r.snapshot_id === String(point.snapshotId));
        const level = levels.find((r) => r.snapshot_id === String(point.snapshotId));
        expect(Math.abs(Number(sqlRow?.total_gex) - point.totalGEX) / Math.abs(point.totalGEX), `${symbol} ${point.quoteTime}: Σ s·Γ·OI·m over the nearest three`).toBeLessThan(1e-9);
        expect(level).toEqual({ snapshot_id: String(point.snapshotId), total_gex: point.totalGEX, gamma_inflection: point.gammaInflection, call_wall_strike: point.callWall?.strike ?? null, put_wall_gex: point.putWall?.gex ?? null });
        compared += 1;
      }
    }
    expect(compared).toBe(chains.length + real.length);
  });

  it('the documented queries: total GEX per day (the day’s last snapshot) is that snapshot’s /gex total', async () => {
    const perDay = await duck.rows(query(documentedQueries(lake), 'total GEX per day'));
    expect(perDay.length, 'one row per symbol and date').toBe(new Set([...chains.map((c) => `${c.symbol}|${c.quoteTime.slice(0, 10)}`), ...real.map((f) => f.file)]).size);
    for (const row of perDay) {
      const history = await source.get<GexHistoryResponseT>(`/v1/gex/history?symbol=${String(row.symbol)}&from=${String(row.date)}&to=${String(row.date)}`);
      const last = history.body.points.at(-1);
      expect(last, `${String(row.symbol)} ${String(row.date)}`).toBeDefined();
      expect(Math.abs(Number(row.total_gex) - (last?.totalGEX ?? 0)) / Math.abs(last?.totalGEX ?? 1)).toBeLessThan(1e-9);
    }
  });

  it('the documented queries: the flip over a day is /gex/history’s, and the OI change by strike is the chains’', async () => {
    const queries = documentedQueries(lake);
    const flips = await duck.rows(query(queries, 'the flip over a day'));
    const history = await source.get<GexHistoryResponseT>('/v1/gex/history?symbol=SPX&from=2026-11-20&to=2026-11-20');
    expect(flips.map((r) => r.gamma_inflection)).toEqual(history.body.points.map((p) => p.gammaInflection));
    expect(flips.map((r) => r.zone_changed)).toEqual(history.body.points.map((p, i) => i > 0 && p.gammaZone !== history.body.points[i - 1]?.gammaZone));

    const changes = await duck.rows(query(queries, 'OI change by strike between two dates'));
    const byStrike = (chain: ChainSnapshot | undefined) => {
      const map = new Map<number, number>();
      for (const c of chain?.contracts ?? []) map.set(c.strike, (map.get(c.strike) ?? 0) + c.openInterest);
      return map;
    };
    const before = byStrike(chains[0]);
    const after = byStrike(chains[3]);
    const strikes = [...new Set([...before.keys(), ...after.keys()])].sort((a, b) => a - b);
    expect(changes.map((r) => r.strike)).toEqual(strikes);
    expect(changes.map((r) => r.oi_change), 'the simulator’s OI of the two closes, strike by strike').toEqual(strikes.map((k) => (after.get(k) ?? 0) - (before.get(k) ?? 0)));
  });

  it('transactions.parquet: the journal with money as exact DECIMAL(18,4)', async () => {
    const transactions = demoTransactions(DEMO_JOURNAL_SEED, '2026-11-20');
    const [described] = await duck.rows(`SELECT column_type FROM (DESCRIBE transactions) WHERE column_name = 'amount'`);
    expect(described?.column_type).toBe('DECIMAL(18,4)');
    const [totals] = await duck.rows('SELECT count(*) AS n, sum(amount)::VARCHAR AS amount, sum(commission + fees)::VARCHAR AS costs FROM transactions');
    const minor = (values: number[]) => {
      const total = values.reduce((a, b) => a + BigInt(b), 0n);
      const sign = total < 0n ? '-' : '';
      const abs = total < 0n ? -total : total;
      return `${sign}${abs / 10000n}.${String(abs % 10000n).padStart(4, '0')}`;
    };
    expect(totals?.n).toBe(String(transactions.length));
    expect(totals?.amount, 'Σ amountMinor of the generated journal, in integers').toBe(minor(transactions.map((t) => t.amountMinor)));
    expect(totals?.costs).toBe(minor(transactions.map((t) => t.commissionMinor + t.feesMinor)));
    const byType = await duck.rows(query(documentedQueries(lake), 'cash by type'));
    expect(sum(byType.map((r) => Number(r.rows)))).toBe(transactions.length);
  });

  it('a second export writes nothing; an export into another folder gives the same bytes', () => {
    const before = treeDigests(lake);
    const again = exported(source, lake);
    expect(again.snapshots).toEqual({ total: first.snapshots.total, written: 0, skipped: first.snapshots.total });
    expect(again.files, 'no file rewritten').toBe(0);
    expect(again.transactions).toBe('unchanged');
    expect(treeDigests(lake)).toEqual(before);
    const elsewhere = join(folders.make('strikebook-lake-'), 'lake');
    exported(source, elsewhere);
    expect(treeDigests(elsewhere), 'the same data, the same bytes (no clock in any file)').toEqual(before);
  });

  it('export → import into a fresh data folder: the same /gex answers, snapshot for snapshot', async () => {
    const target = await buildTestApp({ overrides: { rate: RATE } });
    try {
      const imported = await importLake(lake, { ingest: (s) => target.ctx.exposure.ingest({ snapshot: s }), retention: () => 20 });
      if (!imported.ok) throw new Error(JSON.stringify(imported.error));
      expect(imported.value.refused).toEqual([]);
      expect(imported.value.snapshots).toEqual({ found: first.snapshots.total, stored: first.snapshots.total, alreadyStored: 0, beyondRetention: 0 });
      expect(imported.value.ignored, 'levels, transactions and trades are not chain files').toBe(first.snapshots.total + 2);
      for (const symbol of new Set([...chains.map((c) => c.symbol), ...real.map((f) => f.symbol)])) {
        const a = await source.get<SnapshotsResponseT>(`/v1/snapshots?symbol=${symbol}`);
        const b = await target.get<SnapshotsResponseT>(`/v1/snapshots?symbol=${symbol}`);
        expect(b.body.snapshots.map(({ id: _id, ...rest }) => rest)).toEqual(a.body.snapshots.map(({ id: _id, ...rest }) => rest));
        for (const [index, snap] of a.body.snapshots.entries()) {
          const other = b.body.snapshots[index];
          for (const scope of ['', '&minDte=0&formula=per_1pct']) {
            const gexA = await source.get<GexResponseT>(`/v1/gex?symbol=${symbol}&snapshot=${snap.id}${scope}`);
            const gexB = await target.get<GexResponseT>(`/v1/gex?symbol=${symbol}&snapshot=${other?.id ?? 0}${scope}`);
            expect(gexB.status).toBe(200);
            const strip = (body: GexResponseT) => ({ ...body, asOf: null, meta: { ...body.meta, snapshotId: null } });
            expect(strip(gexB.body), `${symbol} ${snap.quoteTime}${scope}`).toEqual(strip(gexA.body));
          }
        }
      }
      const again = await importLake(lake, { ingest: (s) => target.ctx.exposure.ingest({ snapshot: s }), retention: () => 20 });
      expect(again.ok && again.value.snapshots.alreadyStored, 'a second import stores nothing').toBe(first.snapshots.total);
    } finally {
      await target.close();
    }
  }, 180_000); // A hang guard, not a budget: it ingests every snapshot again, 30 s on a quiet machine and more on a loaded one.
});
