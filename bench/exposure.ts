import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createContext, type OwnedContext } from '../src-main/context';
import { CHAIN_FIXTURES, tempDir } from '../test/paths';
import { atMost, timeMs, type BenchLine } from './lib';

export const SPX_FIXTURE = join(CHAIN_FIXTURES, 'SPX_quotedata_2024-01-05close_phammings.csv');

/**
 * exposure.* (DESIGN §7) on the SPX 2024-01-05 fixture (21,038 contracts): parse + store, and the uncached
 * /vanna aggregate, /gex over 3 expirations and /gex over the whole chain through the service (compute and
 * serialisation, the work an uncached request does).
 */
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
    const parseStoreMs = await timeMs(() => {
      const ctx = fresh[run];
      run += 1;
      if (!ctx) throw new Error('out of fresh contexts');
      ctx.exposure.ingestText(text, {});
    }, 9, 3);

    const ctx = fresh[0];
    if (!ctx) throw new Error('no context');
    const serializeGex = (value: unknown) => JSON.stringify(value);
    const all = ctx.exposure.expirations('SPX').expirations;
    const gex3Ms = await timeMs(() => ctx.exposure.gex({ symbol: 'SPX', expirationsCount: 3 }, serializeGex), 25, 5);
    const gexAllMs = await timeMs(() => ctx.exposure.gex({ symbol: 'SPX', expirations: all.join(',') }, serializeGex), 15, 3);
    const vannaMs = await timeMs(() => ctx.exposure.vanna({ symbol: 'SPX' }, serializeGex), 15, 3);
    const whole = JSON.parse(ctx.exposure.gex({ symbol: 'SPX', expirations: all.join(','), formula: 'per_1pct' }, serializeGex).body) as {
      totalGEX: number;
      gammaInflection: number | null;
      callWall: { strike: number } | null;
      putWall: { strike: number } | null;
    };
    return [
      atMost('exposure.parse_store_spx_ms', parseStoreMs, 'ms', 150, `${text.length} bytes, 21,038 contracts`),
      atMost('exposure.vanna_aggregate_ms', vannaMs, 'ms', 30, '0–45 dte, both sweeps, uncached'),
      atMost('exposure.gex_3_expirations_ms', gex3Ms, 'ms', 10, 'with inflection, uncached'),
      atMost(
        'exposure.gex_whole_chain_ms',
        gexAllMs,
        'ms',
        90,
        `${all.length} expirations; per_1pct total ${(whole.totalGEX / 1e9).toFixed(2)}bn, flip ${whole.gammaInflection?.toFixed(1) ?? 'none'}, call wall ${whole.callWall?.strike ?? '-'}, put wall ${whole.putWall?.strike ?? '-'}`,
      ),
    ];
  } finally {
    for (const ctx of contexts) await ctx.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
