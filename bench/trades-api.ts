/**
 * journal.trades_api_* (docs/journal.md §Trades and strategies, DESIGN §7: trades and stats ≤ 50 ms each on the
 * 100,000-transaction journal): GET /v1/journal/trades, /v1/journal/trades/{id} and /v1/journal/stats through the real path — the server, the
 * journal worker, its trades built once per data version — on the generated journal (seed 42) imported as the generic
 * CSV, with a snapshot of every underlying quoted mid-journal (the trades opened that day or the next get entry levels)
 * and notes with tags on a few hundred trades. The first read after the import builds the trades (measured once, info);
 * the budgets are the reads after it. Runs alone: `node bin/run-ts.mjs bench/trades-api.ts`.
 */
import { rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { syntheticTransactions } from '../src-shared/demo/journal';
import type { PositionsResponseT, StatsResponseT, TradesResponseT } from '../src-shared/api/schemas';
import { TRADE_GROUPS } from '../src-shared/journal/trade-stats';
import { buildApp } from '../src-main/server/app';
import { createContext } from '../src-main/context';
import { tempDir } from '../test/paths';
import { snapshotFor, toGenericCsv } from './journal';
import { against, atMost, info, timeMs, type BenchLine } from './lib';
import { baselines, sampleMs } from './baselines';

const COUNT = 100_000;
const TAGGED = 300;

export async function benchTradesApi(): Promise<BenchLine[]> {
  const dir = tempDir('strikebook-bench-trades-');
  const ctx = createContext({ dataDir: dir, overrides: { rateLimit: { perSecond: 1e9, burst: 1e9 } } });
  try {
    const imported = await ctx.journal.importFile({ text: toGenericCsv(syntheticTransactions(COUNT, 42)), broker: 'generic', filename: 'bench.csv' });
    if (!imported.ok) throw new Error(`import refused: ${imported.error.kind}`);
    const app = await buildApp(ctx, { port: 7717 });
    await app.ready();
    const headers = { host: '127.0.0.1:7717', authorization: `Bearer ${ctx.apiKey}` };
    const get = async <T>(url: string): Promise<T> => {
      const response = await app.inject({ url, headers });
      if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body.slice(0, 200)}`);
      return response.json<T>();
    };
    const middle = ctx.db.prepare('SELECT trade_date FROM transactions ORDER BY trade_date LIMIT 1 OFFSET ?').pluck().get(COUNT / 2) as string;
    const open = await get<PositionsResponseT>(`/v1/journal/positions?asOf=${encodeURIComponent(middle)}`);
    const underlyings = [...new Set(open.positions.map((p) => p.underlying))];
    for (const symbol of underlyings) {
      const stored = await ctx.exposure.ingest({ snapshot: snapshotFor(symbol, middle, open.positions.filter((p) => p.underlying === symbol)) });
      if (!stored.ok) throw new Error(`bench snapshot of ${symbol} refused: ${stored.error.kind}`);
    }
    // The first read after the snapshots changed builds the trades (the ledger is built already).
    const buildStart = performance.now();
    const first = await get<TradesResponseT>('/v1/journal/trades?limit=100');
    const buildMs = performance.now() - buildStart;
    for (const trade of first.trades.slice(0, 100)) {
      const put = await app.inject({ method: 'PUT', url: `/v1/journal/trades/${trade.id}/annotation`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify({ note: 'bench', tags: ['bench', trade.strategy] }) });
      if (put.statusCode !== 200) throw new Error(`annotation: ${put.statusCode} ${put.body.slice(0, 200)}`);
    }
    const late = await get<TradesResponseT>(`/v1/journal/trades?limit=100&page=${Math.max(1, Math.floor(first.pagination.pages / 2))}`);
    for (const trade of [...late.trades, ...(await get<TradesResponseT>('/v1/journal/trades?limit=100&page=3')).trades].slice(0, TAGGED - 100)) {
      await app.inject({ method: 'PUT', url: `/v1/journal/trades/${trade.id}/annotation`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify({ note: '', tags: ['bench'] }) });
    }
    const withLevels = (await get<StatsResponseT>('/v1/journal/stats?groupBy=zoneAtEntry')).rows.filter((r) => r.key !== 'unknown').reduce((sum, r) => sum + r.trades, 0);
    const pageMs = await timeMs(() => get('/v1/journal/trades?limit=100'), 31, 5);
    const base = baselines();
    const pageBase = sampleMs(base.json, pageMs);
    const filteredMs = await timeMs(() => get('/v1/journal/trades?status=closed&strategy=short_put&symbol=spy&tag=bench&limit=100'), 31, 5);
    const filteredBase = sampleMs(base.json, filteredMs);
    const latePageMs = await timeMs(() => get(`/v1/journal/trades?status=closed&limit=100&page=${Math.max(1, Math.floor(first.pagination.pages / 3))}`), 31, 5);
    const latePageBase = sampleMs(base.json, latePageMs);
    // One trade with its timeline: the trades of the pages read, the ones with the most rows (rolled) first, in turn.
    const details = [...first.trades, ...late.trades].sort((a, b) => b.legs.length - a.legs.length).slice(0, 20);
    let at = 0;
    const detailMs = await timeMs(() => get(`/v1/journal/trades/${encodeURIComponent(details[at++ % details.length]?.id ?? '')}`), 31, 5);
    const detailBase = sampleMs(base.json, detailMs);
    let statsWorstMs = 0;
    let statsWorst = '';
    for (const groupBy of TRADE_GROUPS) {
      const ms = await timeMs(() => get(`/v1/journal/stats?groupBy=${groupBy}`), 15, 3);
      if (ms > statsWorstMs) {
        statsWorstMs = ms;
        statsWorst = groupBy;
      }
    }
    const statsBase = sampleMs(base.json, statsWorstMs);
    await app.close();
    const detail = `${first.pagination.total} trades from ${COUNT} transactions; ${withLevels} closed ones with levels at entry from ${underlyings.length} snapshots; ${TAGGED} tagged`;
    return [
      info(atMost('journal.trades_api_first_ms', buildMs, 'ms', 10_000, `${detail}; the first read after a change builds them in the journal worker`)),
      against(atMost('journal.trades_api_page_ms', pageMs, 'ms', 50, 'GET /v1/journal/trades?limit=100 (open trades marked)'), base.json, pageBase),
      against(atMost('journal.trades_api_filtered_ms', filteredMs, 'ms', 50, 'status, strategy, symbol and tag'), base.json, filteredBase),
      against(atMost('journal.trades_api_late_page_ms', latePageMs, 'ms', 50, 'status=closed, a page a third of the way in'), base.json, latePageBase),
      against(atMost('journal.trades_api_detail_ms', detailMs, 'ms', 50, `GET /v1/journal/trades/{id}, ${details.length} trades in turn (up to ${details[0]?.legs.length ?? 0} rows)`), base.json, detailBase),
      against(atMost('journal.trades_api_stats_ms', statsWorstMs, 'ms', 50, `GET /v1/journal/stats, the slowest groupBy: ${statsWorst}`), base.json, statsBase),
    ];
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const line of await benchTradesApi()) {
    process.stdout.write(`${line.info ? 'info' : line.ok ? 'ok  ' : 'MISS'} ${line.name.padEnd(34)} ${String(line.value).padStart(10)} ${line.unit} budget ${line.budget}  (${line.detail ?? ''})\n`);
  }
}
