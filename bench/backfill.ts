import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import type { BackfillStatusT } from '../src-shared/api/schemas';
import { startServe } from '../test/cli';
import { withQuoteTime } from '../test/chain-files';
import { REPO_ROOT, tempDir } from '../test/paths';
import { CHAIN_TABLE, readChain } from '../test/quotedata';
import { healthWhile } from './responsiveness';
import { atLeast, atMost, info, percentile, type BenchLine } from './lib';

const FILES = 1000;
/**
 * Real CBOE downloads of ../shared/fixtures/chains, a quarter of the files each: 236, 1,738, 3,160 and 40 contracts
 * (1,294 on average; each with the quoted English `Date:` line withQuoteTime moves). Not the 21,000-contract SPX close: a thousand of those take about 25 minutes of this 2-core
 * machine (each is a 1.5 MB parse and a 21k-contract preparation, ~1.5 s), longer than a bench run may; its own
 * parse and store is benched by exposure.parse_store_spx_ms.
 */
const SOURCES = ['TSLA_quotedata_2023-08-20_aryaman.csv', 'AMD_quotedata_2023-08-18close_aryaman.csv', 'SPY_quotedata_2025-05-16_photon1c.csv', 'SPX_quotedata_2025-01-06_20rows_dorel.csv'];
/** /v1/status asked by the bench itself every STATUS_EVERY_MS while the backfill runs (the page's status line does so). */
const STATUS_EVERY_MS = 50;
/** The idle server's /v1/health is asked this long before the backfill starts (the machine's own noise). */
const IDLE_MS = 15_000;

/**
 * `count` chain files, each a real download whose `Date:` line is moved back by a whole number of hours (its rows stay
 * as CBOE wrote them; moved back, no contract expires), in subfolders of 100.
 */
function writeFiles(dir: string, count: number): { bytes: number } {
  let bytes = 0;
  const texts = SOURCES.map((file) => ({ file, text: readChain(file), quoteMs: Date.parse(CHAIN_TABLE.find((f) => f.file === file)?.quoteTime ?? '') }));
  for (let i = 0; i < count; i += 1) {
    const source = texts[i % texts.length];
    if (source === undefined || Number.isNaN(source.quoteMs)) throw new Error('backfill bench: a source chain is missing from CHAIN_TABLE');
    const quoteMs = source.quoteMs - Math.floor(i / texts.length) * 3_600_000;
    const folder = join(dir, `part-${String(Math.floor(i / 100)).padStart(2, '0')}`);
    mkdirSync(folder, { recursive: true });
    const text = withQuoteTime(source.text, DateTime.fromMillis(quoteMs).toISO() ?? '');
    writeFileSync(join(folder, `${String(i).padStart(4, '0')}-${source.file}`), text);
    bytes += Buffer.byteLength(text);
  }
  return { bytes };
}

/**
 * backfill.* (issue 30: "1,000 files without holding other requests"): 1,000 real chain files backfilled through
 * POST /v1/chains/backfill into a `strikebook serve` process (the bundled CLI), measuring files stored per second and,
 * meanwhile, the latency of other requests: /v1/health from a pinger process of its own (every 5 ms) and the
 * authenticated /v1/status (what the app's status line asks) from here every 50 ms.
 */
export async function benchBackfill(): Promise<BenchLine[]> {
  const build = spawnSync(process.execPath, ['scripts/build-node.mjs'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('build:node failed');
  const chainsDir = tempDir('strikebook-bench-backfill-');
  const dataDir = tempDir('strikebook-bench-');
  const written = writeFiles(chainsDir, FILES);
  const server = await startServe(['--port', '0', '--data-dir', dataDir]);
  try {
    const key = readFileSync(server.keyFile, 'utf8').trim();
    const headers = { authorization: `Bearer ${key}` };
    const retention = Object.fromEntries(['TSLA', 'AMD', 'SPY', 'SPX'].map((symbol) => [symbol, 1000]));
    const settings = await fetch(`${server.apiBaseUrl}/settings`, { method: 'PUT', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ snapshotRetentionBySymbol: retention }) });
    if (settings.status !== 200) throw new Error(`settings: HTTP ${settings.status} ${await settings.text()}`);
    for (let i = 0; i < 20; i += 1) await (await fetch(`${server.apiBaseUrl}/status`, { headers })).arrayBuffer();

    // The same pinger against the idle server first: what the machine's load alone costs a request, for comparison.
    const idle = await healthWhile(server.apiBaseUrl, async () => {
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      return new Response('idle');
    });

    const statusMs: number[] = [];
    let storingFromMs = 0;
    let storingMs = 0;
    const run = await healthWhile(server.apiBaseUrl, async () => {
      const started = await fetch(`${server.apiBaseUrl}/chains/backfill`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ path: chainsDir }) });
      if (started.status !== 202) throw new Error(`backfill: HTTP ${started.status} ${await started.text()}`);
      await started.arrayBuffer();
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, STATUS_EVERY_MS));
        const t0 = performance.now();
        const status = await fetch(`${server.apiBaseUrl}/status`, { headers });
        await status.arrayBuffer();
        statusMs.push(performance.now() - t0);
        const backfill = await fetch(`${server.apiBaseUrl}/chains/backfill`, { headers });
        const job = ((await backfill.json()) as BackfillStatusT).backfill;
        if (job?.phase === 'importing' && storingFromMs === 0) storingFromMs = performance.now();
        if (job !== null && job.state !== 'running') {
          storingMs = performance.now() - storingFromMs;
          if (job.state !== 'done' || job.counts.stored !== FILES || job.counts.failed !== 0) throw new Error(`backfill ended ${job.state}: ${JSON.stringify(job.counts)} ${job.error ?? ''} ${JSON.stringify(job.failures.slice(0, 3))}`);
          return new Response(JSON.stringify(job));
        }
      }
    });
    const filesPerS = FILES / (run.ms / 1000);
    const healthP50 = percentile(run.samples, 50);
    const healthP99 = percentile(run.samples, 99);
    const statusP99 = percentile(statusMs, 99);
    const detail = `${FILES} real CBOE chain files (TSLA 236, AMD 1,738, SPY 3,160, SPX 40 contracts; ${(written.bytes / 1e6).toFixed(0)} MB) through POST /v1/chains/backfill in ${(run.ms / 1000).toFixed(1)} s (storing ${(storingMs / 1000).toFixed(1)} s after dating)`;
    return [
      atLeast('backfill.files_per_s', filesPerS, 'files/s', 2, detail),
      info(atMost('backfill.idle_health_p99_ms', percentile(idle.samples, 99), 'ms', 100, `${idle.samples.length} /v1/health of the same server idle for ${IDLE_MS / 1000} s before the backfill (the machine's load alone); p50 ${percentile(idle.samples, 50).toFixed(1)} ms, max ${Math.max(...idle.samples).toFixed(0)} ms; load average ${loadavg()[0]?.toFixed(1) ?? '?'}`)),
      info(atMost('backfill.health_p50_ms', healthP50, 'ms', 100, `${run.samples.length} /v1/health from a pinger process during the backfill`)),
      atMost('backfill.health_p99_ms', healthP99, 'ms', 100, `${run.samples.length} /v1/health during the backfill; max ${Math.max(...run.samples).toFixed(0)} ms`),
      atMost('backfill.status_p99_ms', statusP99, 'ms', 100, `${statusMs.length} authenticated /v1/status every ${STATUS_EVERY_MS} ms during the backfill; p50 ${percentile(statusMs, 50).toFixed(1)} ms, max ${Math.max(...statusMs).toFixed(0)} ms`),
    ];
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(chainsDir, { recursive: true, force: true });
  }
}
