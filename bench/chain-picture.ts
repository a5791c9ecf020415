/**
 * exposure.* of issue 21 (docs/decisions.md §Benchmarks) on the SPX 2024-01-05 fixture: /expirations with every
 * statistic and the whole-chain /gex/grid through the service (compute, present, serialise: what an uncached request
 * does), the statistics' own cost, and the whole-chain gamma profile against the numpy peer
 * (../shared/peers/gex_numpy.py, vectorised numpy over the same 201 points), in the same run, rounds interleaved.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseChainFile } from '../src-main/chains/index';
import { createContext, type OwnedContext } from '../src-main/context';
import { presentExpirations, presentGexGrid } from '../src-main/server/presenters/exposure';
import type { Result } from '../src-main/services/result';
import { expirationStats, type StatsRow } from '../src-shared/exposure/expiration-stats';
import { computeGexProfile } from '../src-shared/exposure/gex';
import { isAdjustedRoot, prepareChain } from '../src-shared/exposure/prepare';
import { settlementOf } from '../src-shared/exposure/time';
import { REPO_ROOT, tempDir } from '../test/paths';
import { SPX_FIXTURE } from './exposure';
import { against, atLeast, atMost, info, median, timeMs, type BenchLine } from './lib';
import { baselines, sampleMs } from './baselines';
import { asTicker } from '../src-shared/ids';

export const NUMPY_PEER = join(REPO_ROOT, '..', 'shared', 'peers', 'gex_numpy.py');

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`chain-picture bench: ${result.error.kind}`);
  return result.value;
}

/** The peer's median compute time over `runs` runs (it parses the file first and excludes that), or null. */
function numpyProfileMs(runs: number): number | null {
  const run = spawnSync('python3', [NUMPY_PEER, SPX_FIXTURE, String(runs)], { encoding: 'utf8', timeout: 120_000 });
  const match = /numpy_profile_ms_median=([\d.]+)/.exec(run.stdout ?? '');
  return run.status === 0 && match !== null ? Number(match[1]) : null;
}

/** Why the peer cannot run here, or null when it can. */
function peerMissing(): string | null {
  if (!existsSync(NUMPY_PEER)) return `${NUMPY_PEER} is absent`;
  const check = spawnSync('python3', ['-c', 'import numpy'], { encoding: 'utf8', timeout: 60_000 });
  if (check.error !== undefined) return 'python3 is not installed';
  return check.status === 0 ? null : 'python3 has no numpy';
}

export async function benchChainPicture(): Promise<BenchLine[]> {
  if (!existsSync(SPX_FIXTURE)) {
    process.stderr.write(`exposure (chain picture): skipped, ${SPX_FIXTURE} is absent\n`);
    return [];
  }
  const text = readFileSync(SPX_FIXTURE, 'utf8');
  const dir = tempDir('strikebook-bench-');
  let ctx: OwnedContext | null = null;
  try {
    ctx = createContext({ dataDir: dir, overrides: { cacheSeconds: 0 } });
    const exposure = ctx.exposure;
    value(await exposure.ingest({ file: text, options: {} }));
    const expirationsMs = await timeMs(async () => JSON.stringify(presentExpirations(value(await exposure.expirations(asTicker('SPX'))))), 25, 5);
    const base = baselines();
    const expirationsBase = sampleMs(base.json, expirationsMs);
    const gridMs = await timeMs(async () => JSON.stringify(presentGexGrid(value(await exposure.gexGrid({ symbol: asTicker('SPX'), formula: 'per_1pct' })).compute())), 15, 3);
    const gridBase = sampleMs(base.cpu, gridMs);
    const grid = value(await exposure.gexGrid({ symbol: asTicker('SPX') })).compute().result;

    // The statistics' own cost (prepare computes them once per snapshot): every expiration's rows, sorted, each summarised.
    const parsed = parseChainFile(text, {});
    if (!parsed.ok) throw new Error('the SPX fixture does not parse');
    const chain = prepareChain(parsed.snapshot, { rate: ctx.settings.rate });
    const byExpiration = new Map<string, StatsRow[]>();
    for (const contract of parsed.snapshot.contracts) {
      if (!chain.byExpiration.has(contract.expiration) || isAdjustedRoot(contract.root, chain.symbol)) continue;
      let rows = byExpiration.get(contract.expiration);
      if (rows === undefined) byExpiration.set(contract.expiration, (rows = []));
      rows.push({ contract, settlement: settlementOf(contract.root) });
    }
    const statsMs = await timeMs(() => {
      for (const e of chain.expirations) {
        const rows = (byExpiration.get(e.expiration) ?? []).filter((row) => e.groups.some((g) => g.settlement === row.settlement)).sort((a, b) => a.contract.strike - b.contract.strike);
        const main = e.groups.find((g) => g.settlement === e.settlement) ?? e.groups[0];
        if (main !== undefined) expirationStats(rows, main, chain.spot, chain.rate);
      }
    }, 25, 5);

    const lines: BenchLine[] = [
      against(atMost('exposure.expirations_spx_ms', expirationsMs, 'ms', 15, `${chain.expirations.length} expirations with every statistic and the term structure, presented and serialised`), base.json, expirationsBase),
      info(atMost('exposure.expiration_stats_spx_ms', statsMs, 'ms', 15, 'the statistics of every expiration from the contracts (prepare computes them once per snapshot)')),
      against(atMost('exposure.gex_grid_spx_ms', gridMs, 'ms', 40, `whole chain: ${grid.expirations.length} expirations × ${grid.strikes.length} strikes, uncached`), base.cpu, gridBase),
    ];

    const missing = peerMissing();
    if (missing !== null) {
      process.stderr.write(`exposure.profile_vs_numpy: skipped, ${missing}\n`);
      return lines;
    }
    // Same work as the peer: 201 points over every expiration and the flip, on a prepared chain (the peer's parse is
    // excluded from its time too). Rounds alternate engine and peer so that both meet the machine's load alike.
    const all = chain.expirations.map((e) => e.expiration);
    const engine = () => computeGexProfile(chain, { expirations: all, formula: 'per_1pct', exact: true });
    const ratios: number[] = [];
    const engineSamples: number[] = [];
    const peerSamples: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      const engineMs = await timeMs(engine, 9, 2);
      const peerMs = numpyProfileMs(7);
      if (peerMs === null) {
        process.stderr.write('exposure.profile_vs_numpy: skipped, the peer did not report a time\n');
        return lines;
      }
      ratios.push(peerMs / engineMs);
      engineSamples.push(engineMs);
      peerSamples.push(peerMs);
    }
    const profile = engine();
    lines.push(
      atLeast(
        'exposure.profile_vs_numpy',
        median(ratios),
        'x',
        2,
        `numpy ${median(peerSamples).toFixed(1)} ms ÷ engine ${median(engineSamples).toFixed(1)} ms for the whole-chain profile (201 points, flip ${profile.gammaInflection?.toFixed(1) ?? 'none'}, ${profile.flipStatus}), median of ${ratios.length} interleaved rounds`,
      ),
      info(atMost('exposure.profile_whole_chain_ms', median(engineSamples), 'ms', 90, 'computeGexProfile over every expiration, prepared chain')),
    );
    return lines;
  } finally {
    await ctx?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
