import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseChainFile } from '../src-main/chains/index';
import { createContext, type OwnedContext } from '../src-main/context';
import { presentGex, presentGexProfile, presentHistory, presentVanna } from '../src-main/server/presenters/exposure';
import { preparePacked } from '../src-main/services/exposure/compute';
import type { Result } from '../src-main/services/result';
import { prepareChain } from '../src-shared/exposure/prepare';
import { CHAIN_FIXTURES, tempDir } from '../test/paths';
import { floorInput, floorLoop } from './floor';
import { against, atMost, info, median, timeMs, type BenchLine } from './lib';
import { baselines, sampleMs } from './baselines';
import { asTicker } from '../src-shared/ids';

export const SPX_FIXTURE = join(CHAIN_FIXTURES, 'SPX_quotedata_2024-01-05close_phammings.csv');

/**
 * exposure.* (docs/decisions.md §Benchmarks) on the SPX 2024-01-05 fixture (21,038 contracts): parse + store, and the
 * uncached /vanna aggregate, /gex over 3 expirations and /gex over the whole chain through the service (compute and
 * serialisation, the work an uncached request does); the whole chain also against the floor loop (bench/floor.ts) in
 * back-to-back pairs.
 */
function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`exposure bench: ${result.error.kind}`);
  return result.value;
}

export async function benchExposure(): Promise<BenchLine[]> {
  if (!existsSync(SPX_FIXTURE)) {
    process.stderr.write(`exposure.*: skipped, ${SPX_FIXTURE} is absent\n`);
    return [];
  }
  const text = readFileSync(SPX_FIXTURE, 'utf8');
  const dirs: string[] = [];
  const contexts: OwnedContext[] = [];
  try {
    // Each parse+store run gets a fresh data folder (the same snapshot twice would be a no-op).
    const fresh: OwnedContext[] = [];
    for (let i = 0; i < 12; i += 1) {
      const dir = tempDir('strikebook-bench-');
      dirs.push(dir);
      const ctx = createContext({ dataDir: dir, overrides: { cacheSeconds: 0 } });
      contexts.push(ctx);
      fresh.push(ctx);
    }
    let run = 0;
    // Parsed and stored on this thread (a parsed snapshot is planned inline): the work an upload's worker takes off it.
    const parseStoreMs = await timeMs(async () => {
      const ctx = fresh[run];
      run += 1;
      if (!ctx) throw new Error('out of fresh contexts');
      const parsedFile = parseChainFile(text, {});
      if (!parsedFile.ok) throw new Error('the SPX fixture does not parse');
      value(await ctx.exposure.ingest({ snapshot: parsedFile.snapshot }));
    }, 9, 3);
    // Each absolute line beside a baseline sampled right after it (baselines.ts, docs/decisions.md §Benchmarks).
    const base = baselines();
    const parseStoreBase = sampleMs(base.sqlite, parseStoreMs);

    const ctx = fresh[0];
    if (!ctx) throw new Error('no context');
    // What an uncached request does: compute, present, serialise.
    const gex = async (query: Parameters<typeof ctx.exposure.gex>[0]) => JSON.stringify(presentGex(value(await ctx.exposure.gex(query)).compute()));
    const all = value(await ctx.exposure.expirations(asTicker('SPX'))).snapshot.expirations;
    const gex3Ms = await timeMs(() => gex({ symbol: asTicker('SPX'), expirationsCount: 3 }), 25, 5);
    const gex3Base = sampleMs(base.cpu, gex3Ms);
    const gexAllMs = await timeMs(() => gex({ symbol: asTicker('SPX'), expirations: all.join(',') }), 15, 3);
    const vannaMs = await timeMs(async () => JSON.stringify(presentVanna(value(await ctx.exposure.vanna({ symbol: asTicker('SPX') })).compute())), 15, 3);
    const vannaBase = sampleMs(base.cpu, vannaMs);

    // The floor over the contracts the whole-chain sweep visits, timed right after the /gex it is compared with.
    const parsed = parseChainFile(text, {});
    if (!parsed.ok) throw new Error('the SPX fixture does not parse');
    const floor = floorInput(prepareChain(parsed.snapshot, { rate: ctx.settings.rate }));
    let floorSum = 0;
    const gexAll = () => gex({ symbol: asTicker('SPX'), expirations: all.join(',') });
    const ratios: number[] = [];
    const floorSamples: number[] = [];
    for (let pair = 0; pair < 18; pair += 1) {
      let start = performance.now();
      await gexAll();
      const gexMs = performance.now() - start;
      start = performance.now();
      floorSum += floorLoop(floor);
      const floorMs = performance.now() - start;
      // The first three pairs warm both up.
      if (pair >= 3) {
        ratios.push(gexMs / floorMs);
        floorSamples.push(floorMs);
      }
    }
    if (!Number.isFinite(floorSum)) throw new Error('the floor loop summed to a non-finite value');
    const whole = value(await ctx.exposure.gex({ symbol: asTicker('SPX'), expirations: all.join(','), formula: 'per_1pct' })).compute().result;

    // /gex/profile on SPX (default scope, nominal): one sweep for curve and flip, presented and serialised.
    const profileMs = await timeMs(async () => JSON.stringify(presentGexProfile(value(await ctx.exposure.gexProfile({ symbol: asTicker('SPX') })).compute())), 25, 5);
    const profileBase = sampleMs(base.cpu, profileMs);

    // /gex/history over 20 stored SPX snapshots (the same chain at 20 quote times, as a day of polling stores it).
    const historyDir = tempDir('strikebook-bench-');
    dirs.push(historyDir);
    const history = createContext({ dataDir: historyDir, overrides: { cacheSeconds: 0 } });
    contexts.push(history);
    for (let i = 0; i < 20; i += 1) value(await history.exposure.ingest({ file: text, options: { quoteTime: `2024-01-05T${String(9 + Math.floor(i / 3)).padStart(2, '0')}:${String((i % 3) * 20).padStart(2, '0')}:00-05:00` } }));
    const historyQuery = { symbol: asTicker('SPX'), formula: 'per_1pct' as const };
    const historyRequest = async () => JSON.stringify(presentHistory(value(await history.exposure.gexHistory(historyQuery))));
    // Cold: no point of the scope kept (each run deletes them first), 20 computed in the exposure worker and stored.
    const dropPoints = history.db.prepare("DELETE FROM gex_history WHERE scope LIKE 'per_1pct|%'");
    await historyRequest(); // starts the worker
    const coldSamples: number[] = [];
    for (let runIndex = 0; runIndex < 5; runIndex += 1) {
      dropPoints.run();
      const start = performance.now();
      await historyRequest();
      coldSamples.push(performance.now() - start);
    }
    const warmSamples: number[] = [];
    for (let runIndex = 0; runIndex < 25; runIndex += 1) {
      const start = performance.now();
      await historyRequest();
      warmSamples.push(performance.now() - start);
    }
    // The floor of a cold history: each snapshot read, unpacked and prepared once (on this thread, back to back).
    const stored = history.db.prepare<[], { id: number }>("SELECT id FROM snapshots WHERE symbol = 'SPX'").all();
    const prepareSamples: number[] = [];
    for (let runIndex = 0; runIndex < 3; runIndex += 1) {
      const start = performance.now();
      for (const { id } of stored) {
        const row = history.db.prepare<[number], { id: number; symbol: string; quote_time: string; spot: number; source: 'cboe-csv'; payload: Buffer }>('SELECT id, symbol, quote_time, spot, source, payload FROM snapshots WHERE id = ?').get(id);
        if (row) preparePacked({ id: row.id, symbol: row.symbol, quoteTime: row.quote_time, spot: row.spot, source: row.source, payload: row.payload }, history.settings.rate);
      }
      prepareSamples.push(performance.now() - start);
    }
    const coldMs = median(coldSamples);
    const prepareMs = median(prepareSamples);
    const warmBase = sampleMs(base.sqlite, median(warmSamples));
    return [
      against(atMost('exposure.parse_store_spx_ms', parseStoreMs, 'ms', 150, `${text.length} bytes, 21,038 contracts`), base.sqlite, parseStoreBase),
      against(atMost('exposure.vanna_aggregate_ms', vannaMs, 'ms', 30, '0–45 dte, both sweeps, uncached'), base.cpu, vannaBase),
      against(atMost('exposure.gex_3_expirations_ms', gex3Ms, 'ms', 10, 'with inflection, uncached'), base.cpu, gex3Base),
      atMost(
        'exposure.gex_whole_chain_vs_floor',
        median(ratios),
        'x',
        3,
        `whole-chain /gex time ÷ a loop of one exp, one log and one sqrt per contract per sweep point (${floor.sigmaSqrtT.length} contracts × ${floor.levels.length} points, ${median(floorSamples).toFixed(1)} ms), median of ${ratios.length} back-to-back pairs`,
      ),
      against(atMost('exposure.gex_profile_spx_ms', profileMs, 'ms', 10, '201 points and the flip from one sweep, nearest 3 expirations, uncached'), base.cpu, profileBase),
      atMost(
        'exposure.gex_history_cold_vs_prepare',
        coldMs / prepareMs,
        'x',
        1.6,
        `cold /gex/history over 20 SPX snapshots (${coldMs.toFixed(0)} ms, in the exposure worker) ÷ preparing the 20 snapshots back to back on this thread (${prepareMs.toFixed(0)} ms), median of ${coldSamples.length}`,
      ),
      info(atMost('exposure.gex_history_cold_20_spx_ms', coldMs, 'ms', 2500, '20 points computed in the worker and stored')),
      against(atMost('exposure.gex_history_warm_20_spx_ms', median(warmSamples), 'ms', 10, '20 kept points read from gex_history, presented, serialised'), base.sqlite, warmBase),
      info(
        atMost(
          'exposure.gex_whole_chain_ms',
          gexAllMs,
          'ms',
          90,
          `${all.length} expirations; per_1pct total ${(whole.totalGEX / 1e9).toFixed(2)}bn, flip ${whole.gammaInflection?.toFixed(1) ?? 'none'}, call wall ${whole.callWall?.strike ?? '-'}, put wall ${whole.putWall?.strike ?? '-'}`,
        ),
      ),
    ];
  } finally {
    for (const ctx of contexts) await ctx.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
