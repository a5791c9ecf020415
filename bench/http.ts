import { spawn } from 'node:child_process';
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import { fileURLToPath } from 'node:url';
import { atLeast, median, type BenchLine } from './lib';
import type { RunningServer } from '../src-main/serve';

const ROUNDS = 15;
const CLIENT = fileURLToPath(new URL('./load-client.mjs', import.meta.url));

interface LoadResult {
  rps: number;
  /** Responses over the whole run, warm-up included. */
  total: number;
  errors: number;
  /** CPU seconds this process (the server under test) spent during the run. */
  cpuSeconds: number;
}

function load(port: number, path: string, host: string, token: string, durationMs: number): Promise<LoadResult> {
  const cpuBefore = process.cpuUsage();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLIENT, String(port), path, host, token, String(durationMs), '8', '16']);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`load client exited ${code}`));
      const cpu = process.cpuUsage(cpuBefore);
      resolve({ ...(JSON.parse(out) as Omit<LoadResult, 'cpuSeconds'>), cpuSeconds: (cpu.user + cpu.system) / 1e6 });
    });
  });
}

/**
 * http.cached_vs_raw (docs/architecture.md §Budgets): throughput of a cached /gex answer through the whole app (Host check,
 * auth, rate limit, ETag) against a bare node:http server sending the same bytes and headers, measured
 * alternately in the same run; the ratio of the medians.
 */
export async function benchHttp(server: RunningServer, path: string): Promise<BenchLine[]> {
  const first = await fetch(`${server.apiBaseUrl.replace(/\/v1$/, '')}${path}`, { headers: { authorization: `Bearer ${server.apiKey}` } });
  const body = Buffer.from(await first.arrayBuffer());
  if (first.status !== 200) throw new Error(`${path} answered ${first.status}: ${body.toString().slice(0, 200)}`);
  const headers: OutgoingHttpHeaders = {};
  for (const name of ['content-type', 'etag', 'cache-control']) {
    const value = first.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  headers['content-length'] = body.length;
  const raw = createServer((_request, response) => {
    response.writeHead(200, headers);
    response.end(body);
  });
  raw.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  const rawAddress = raw.address();
  const rawPort = typeof rawAddress === 'object' && rawAddress !== null ? rawAddress.port : 0;
  const appSamples: number[] = [];
  const rawSamples: number[] = [];
  const ratios: number[] = [];
  try {
    // Adjacent pairs, alternating which goes first. Each ratio compares requests per CPU-second of this
    // process (where both servers run, one at a time): wall-clock throughput on a shared 2-core VM swings by
    // ±30% from run to run, CPU cost per request does not.
    for (let round = 0; round < ROUNDS; round += 1) {
      // The same request bytes to both (the bare server ignores the key), so only the servers differ.
      const measureRaw = () => load(rawPort, path, `127.0.0.1:${rawPort}`, server.apiKey, 1500);
      const measureApp = () => load(server.port, path, `127.0.0.1:${server.port}`, server.apiKey, 1500);
      const [first, second] = round % 2 === 0 ? [await measureRaw(), await measureApp()] : [await measureApp(), await measureRaw()];
      const [raw, app] = round % 2 === 0 ? [first, second] : [second, first];
      rawSamples.push(raw.rps);
      appSamples.push(app.rps);
      ratios.push(app.total / app.cpuSeconds / (raw.total / raw.cpuSeconds));
    }
  } finally {
    raw.close();
  }
  const appRps = median(appSamples);
  const rawRps = median(rawSamples);
  return [
    atLeast('http.cached_vs_raw', median(ratios), 'ratio', 0.8, `requests per server CPU-second, median of ${ROUNDS} paired runs; wall-clock medians app ${Math.round(appRps)} req/s vs bare node:http ${Math.round(rawRps)} req/s; ${body.length} bytes, ${path}`),
  ];
}
