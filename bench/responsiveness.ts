import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticTransactions } from '../src-shared/demo/journal';
import { startServe } from '../test/cli';
import { REPO_ROOT, tempDir } from '../test/paths';
import { toGenericCsv } from './journal';
import { atMost, percentile, type BenchLine } from './lib';

const ROWS = 200_000;

/**
 * Latencies of `/v1/health` while `work` runs in the server: asked one after another (5 ms apart) by a pinger in
 * its own process (bench/health-pinger.mjs), so that neither this process's own work (sending a 25 MB upload) nor
 * its event loop colour the figures: they measure how long the server keeps health waiting.
 */
export async function healthWhile(apiBaseUrl: string, work: () => Promise<Response>): Promise<{ response: Response; samples: number[]; ms: number }> {
  const pinger = spawn(process.execPath, [join(REPO_ROOT, 'bench/health-pinger.mjs'), `${apiBaseUrl}/health`, '5'], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  pinger.stdout.setEncoding('utf8');
  pinger.stdout.on('data', (chunk: string) => (out += chunk));
  const exited = new Promise<void>((resolve) => pinger.on('exit', () => resolve()));
  while (!out.includes('ready\n')) {
    if (pinger.exitCode !== null) throw new Error(`health pinger stopped: ${out}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const fromMs = Date.now();
  const start = performance.now();
  let response: Response;
  try {
    response = await work();
    await response.arrayBuffer();
  } finally {
    pinger.stdin.end('stop\n');
    await exited;
  }
  const toMs = Date.now();
  const lines = out.trim().split('\n');
  const all = JSON.parse(lines[lines.length - 1] ?? '[]') as Array<[number, number]>;
  // A request that failed (-1) counts as the longest wait there is.
  const samples = all.filter(([sentAt]) => sentAt >= fromMs && sentAt <= toMs).map(([, ms]) => (ms < 0 ? Infinity : ms));
  return { response, samples, ms: performance.now() - start };
}

/**
 * responsiveness.* (docs/architecture.md §Budgets): `/v1/health` p99 during a 200,000-row import through HTTP into a `strikebook serve`
 * process (the bundled CLI), and during the first journal read after it (the ledger rebuild). Both run in the
 * journal worker; the event loop only receives the upload, hands it over and sends the answers.
 */
export async function benchResponsiveness(): Promise<BenchLine[]> {
  const build = spawnSync(process.execPath, ['scripts/build-node.mjs'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('build:node failed');
  // Encoded once here: the upload itself then costs this process nothing worth mentioning.
  const csv = Buffer.from(toGenericCsv(syntheticTransactions(ROWS, 42)));
  const dataDir = tempDir('strikebook-bench-');
  const server = await startServe(['--port', '0', '--data-dir', dataDir]);
  try {
    const key = readFileSync(server.keyFile, 'utf8').trim();
    const headers = { authorization: `Bearer ${key}` };
    // Warm the connection and the routes first.
    for (let i = 0; i < 20; i += 1) await (await fetch(`${server.apiBaseUrl}/health`)).arrayBuffer();

    const imported = await healthWhile(server.apiBaseUrl, () =>
      fetch(`${server.apiBaseUrl}/imports?broker=generic&filename=bench.csv`, { method: 'POST', headers: { ...headers, 'content-type': 'text/csv' }, body: csv }),
    );
    if (imported.response.status !== 201) throw new Error(`import: HTTP ${imported.response.status}`);
    const read = await healthWhile(server.apiBaseUrl, () => fetch(`${server.apiBaseUrl}/journal/summary?year=2022`, { headers }));
    if (read.response.status !== 200) throw new Error(`summary: HTTP ${read.response.status}`);
    const importP99 = percentile(imported.samples, 99);
    const readP99 = percentile(read.samples, 99);
    return [
      atMost('responsiveness.health_p99_import_ms', importP99, 'ms', 50, `${imported.samples.length} /v1/health during a ${ROWS.toLocaleString('en-US')}-row import over HTTP (${(imported.ms / 1000).toFixed(1)} s); max ${Math.max(...imported.samples).toFixed(0)} ms`),
      atMost('responsiveness.health_p99_first_read_ms', readP99, 'ms', 50, `${read.samples.length} /v1/health during the first /journal/summary after it (${(read.ms / 1000).toFixed(1)} s, ledger rebuild); max ${Math.max(...read.samples).toFixed(0)} ms`),
    ];
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}
