import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { syntheticTransactions } from '../src-shared/demo/journal';
import { systemClock } from '../src-main/clock';
import { openDataFolder } from '../src-main/context';
import { ExposureService } from '../src-main/services/exposure/service';
import { WriteQueue, writeNow } from '../src-main/db/writes';
import { JournalService } from '../src-main/services/journal/service';
import { saveSettings } from '../src-main/settings';
import { startServe } from '../test/cli';
import { REPO_ROOT, tempDir } from '../test/paths';
import { SPX_FIXTURE } from './exposure';
import { toGenericCsv } from './journal';
import { atMost, type BenchLine } from './lib';

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/**
 * server.* (docs/architecture.md §Budgets, §8) on a real `strikebook serve` process holding the 100k-transaction journal and the
 * SPX snapshot: its RSS once every cache is warm, then 30 s of 64 concurrent mixed requests (errors and
 * RSS growth over the soak).
 */
export async function benchServer(soakSeconds = 30): Promise<BenchLine[]> {
  // Measure the production path: the bundled CLI (bin/strikebook.mjs runs it when it is fresh).
  const build = spawnSync(process.execPath, ['scripts/build-node.mjs'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('build:node failed');
  const dataDir = tempDir('strikebook-bench-');
  try {
    // The data is prepared in this thread, as the CLI would (the measured server starts afterwards).
    const folder = openDataFolder({ dataDir, busyTimeoutMs: 5000 });
    const journal = new JournalService(folder.db, () => folder.settings, systemClock);
    writeNow(folder.db, (turn) => journal.importFile(turn, { text: toGenericCsv(syntheticTransactions(100_000, 42)), broker: 'generic' }));
    const exposure = new ExposureService(folder.db, () => folder.settings, systemClock, new WriteQueue(folder.db));
    const withChain = await exposure.ingest({ file: readFileSync(SPX_FIXTURE, 'utf8'), options: {} }).then(
      (stored) => stored.ok,
      () => false,
    );
    await exposure.close();
    writeNow(folder.db, (turn) => saveSettings(turn, folder.db, { rateLimit: { perSecond: 100_000, burst: 100_000 } }));
    folder.db.close();

    const server = await startServe(['--port', '0', '--data-dir', dataDir]);
    const key = readFileSync(server.keyFile, 'utf8').trim();
    const headers = { authorization: `Bearer ${key}` };
    const urls = [
      '/journal/summary?year=2022',
      '/journal/summary?year=2021',
      '/journal/performance?date=2022-03-15',
      '/journal/performance?period=weekly&date=2021-06-01&from=2021-01-01&to=2021-12-31',
      '/journal/transactions?page=3&limit=100',
      '/journal/transactions?symbol=SPY&limit=50',
      '/gex/events?limit=200',
      '/health',
      ...(withChain ? ['/gex?symbol=SPX', '/gex?symbol=SPX&formula=per_1pct&expirationsCount=5', '/vanna?symbol=SPX', '/expirations?symbol=SPX'] : []),
    ];
    for (const url of urls) {
      const response = await fetch(`${server.apiBaseUrl}${url}`, { headers });
      if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
      await response.arrayBuffer();
    }
    const warmRss = rssMb(server.child.pid ?? 0);

    let errors = 0;
    let requests = 0;
    const samples: number[] = [];
    const endAt = performance.now() + soakSeconds * 1000;
    const sampler = setInterval(() => samples.push(rssMb(server.child.pid ?? 0)), 1000);
    await Promise.all(
      Array.from({ length: 64 }, async (_, worker) => {
        let i = worker;
        while (performance.now() < endAt) {
          const url = urls[i % urls.length] ?? '/health';
          i += 7;
          try {
            const response = await fetch(`${server.apiBaseUrl}${url}`, { headers });
            await response.arrayBuffer();
            if (response.status !== 200) errors += 1;
          } catch {
            errors += 1;
          }
          requests += 1;
        }
      }),
    );
    clearInterval(sampler);
    if (process.env.SOAK_TRACE) process.stderr.write(`rss samples: ${samples.map((v) => v.toFixed(0)).join(' ')}\n`);
    server.child.kill('SIGTERM');
    await server.exited;
    // The heap first grows to its working size under 64 clients (warm-up, the first 5 s), then saw-tooths
    // between major GCs: a leak shows as a rising floor, so compare the lowest RSS of the two halves after it.
    const steady = samples.slice(5);
    const half = Math.max(1, Math.floor(steady.length / 2));
    const early = Math.min(...steady.slice(0, half));
    const late = Math.min(...steady.slice(half));
    const peak = Math.max(...samples);
    return [
      atMost('server.rss_mb', warmRss, 'MB', 250, `serve with 100k transactions${withChain ? ' and the SPX snapshot' : ''}, caches warm`),
      atMost('soak.errors', errors, 'count', 0, `${requests} requests in ${soakSeconds} s from 64 concurrent clients (${Math.round(requests / soakSeconds)} req/s)`),
      atMost('soak.rss_growth_mb', Math.max(0, late - early), 'MB', 25, `after a 5 s warm-up: RSS floor first half ${early.toFixed(0)} MB, second half ${late.toFixed(0)} MB; peak ${peak.toFixed(0)} MB`),
    ];
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
