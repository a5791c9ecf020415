/**
 * Memory under hostile traffic (issue 8): 10,000 distinct requests that each used to leave something behind —
 * static-file spellings that resolve to the same file, `expirations=` subsets, junk paths — sent to a real server
 * in its own process. Its RSS after a full GC must stay within a bound; the figure is printed for the report.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir, tempUiDir } from '../../../paths';

/** What 10,000 hostile requests may add to the server's RSS: the caches' own bounds are 64 + 32 + 2 MB. */
const RSS_GROWTH_LIMIT_MB = 80;
const REQUESTS = 10_000;
const CONCURRENCY = 8;
const BUNDLE = 'assets/index-Mem0ry.js';

let child: ChildProcessWithoutNullStreams;
let port = 0;
let key = '';
let expirations: string[] = [];
let lines: string[] = [];
const waiters: Array<(line: string) => void> = [];
const dirs: string[] = [];

function nextLine(): Promise<string> {
  const line = lines.shift();
  return line === undefined ? new Promise((resolve) => waiters.push(resolve)) : Promise.resolve(line);
}

async function rssMb(): Promise<number> {
  child.stdin.write('rss\n');
  const line = await nextLine();
  return Number(/^rss (\d+)$/.exec(line)?.[1] ?? Number.NaN) / (1024 * 1024);
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function send(path: string, withKey: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: `127.0.0.1:${port}` };
    if (withKey) headers.authorization = `Bearer ${key}`;
    const req = request({ host: '127.0.0.1', port, path, agent, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The i-th of all subsets of 1 to 5 expirations, in a fixed order (6,884 of them for 16 expirations). */
function* subsets(list: string[], size: number, start = 0, prefix: string[] = []): Generator<string[]> {
  if (prefix.length === size) {
    yield prefix;
    return;
  }
  for (let i = start; i < list.length; i += 1) yield* subsets(list, size, i + 1, [...prefix, list[i] ?? '']);
}

/** Request i of the flood: every path is distinct, and each kind used to be kept by some cache. */
function hostile(i: number, allSubsets: string[][]): { path: string; withKey: boolean } {
  switch (i % 4) {
    case 0:
      // Spellings of the one bundle file, no key needed (the static cache was keyed by the raw path).
      return { path: `/x${i}%2f..%2f${BUNDLE}`, withKey: false };
    case 1: {
      const subset = allSubsets[Math.floor(i / 4) % allSubsets.length] ?? [];
      return { path: `/v1/gex?symbol=MEM&expirations=${subset.join(',')}`, withKey: true };
    }
    case 2:
      return { path: `/v1/junk/${i}/${'z'.repeat(i % 200)}?q=${i}`, withKey: i % 8 === 2 };
    default:
      return { path: `/page-${i}/${'y'.repeat(i % 300)}`, withKey: false };
  }
}

async function flood(count: number, offset: number, allSubsets: string[][]): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const { path, withKey } = hostile(offset + next, allSubsets);
      next += 1;
      const status = await send(path, withKey);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return statuses;
}

beforeAll(async () => {
  const dataDir = tempDir();
  const uiDir = tempUiDir({
    'index.html': `<!doctype html><title>Strikebook</title><script src="/${BUNDLE}"></script>`,
    // As large as the real bundle (≈ 270 KB): one copy per spelling is what made the RSS grow.
    [BUNDLE]: `/* bundle */\n${'console.log(1);\n'.repeat(18_000)}`,
  });
  dirs.push(dataDir, uiDir);
  child = spawn(process.execPath, ['--expose-gc', join(REPO_ROOT, 'bin/run-ts.mjs'), join(REPO_ROOT, 'test/integration/main/server/hostile-memory.child.ts'), dataDir, uiDir, '3'], { cwd: REPO_ROOT });
  let buffer = '';
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let end = buffer.indexOf('\n');
    while (end !== -1) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      const waiter = waiters.shift();
      if (waiter) waiter(line);
      else lines.push(line);
      end = buffer.indexOf('\n');
    }
  });
  const started = await Promise.race([nextLine(), new Promise<string>((_resolve, reject) => setTimeout(() => reject(new Error(`the server did not start: ${errors}`)), 60_000))]);
  ({ port, key, expirations } = JSON.parse(started) as { port: number; key: string; expirations: string[] });
  lines = [];
}, 90_000);

afterAll(async () => {
  agent.destroy();
  if (child && child.exitCode === null) {
    child.stdin.write('exit\n');
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('memory under hostile traffic (issue 8)', () => {
  it(`keeps the RSS of a real server within ${RSS_GROWTH_LIMIT_MB} MB over ${REQUESTS.toLocaleString('en-US')} distinct hostile requests`, async () => {
    expect(expirations.length).toBe(16);
    const allSubsets = [1, 2, 3, 4, 5].flatMap((size) => [...subsets(expirations, size)]);
    expect(allSubsets.length, 'enough distinct subsets for every exposure request of the flood').toBeGreaterThanOrEqual(REQUESTS / 4);
    // Warm-up with other paths (JIT, sockets, one computed answer), then the baseline.
    await flood(400, REQUESTS * 10, allSubsets);
    const baselineMb = await rssMb();
    const statuses = await flood(REQUESTS, 0, allSubsets);
    const afterMb = await rssMb();
    const growthMb = afterMb - baselineMb;
    console.log(`[hostile-memory] RSS ${baselineMb.toFixed(1)} MB → ${afterMb.toFixed(1)} MB after ${REQUESTS} requests: growth ${growthMb.toFixed(1)} MB; statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    // Every kind was answered as it should be: the file (200), answers (200), 401 and 404 problems, the UI (200).
    expect([...statuses.keys()].sort()).toEqual([200, 401, 404]);
    expect(growthMb).toBeLessThan(RSS_GROWTH_LIMIT_MB);

    // The answers expire (cacheSeconds 3 in this server) and their memory goes with them.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const expiredMb = await rssMb();
    console.log(`[hostile-memory] RSS ${expiredMb.toFixed(1)} MB once the answers expired`);
    expect(expiredMb - baselineMb).toBeLessThan(RSS_GROWTH_LIMIT_MB);
  }, 300_000);
});
