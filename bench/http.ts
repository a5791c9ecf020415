import { spawn } from 'node:child_process';
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import { fileURLToPath } from 'node:url';
import { atLeast, median, type BenchLine } from './lib';
import type { RunningServer } from '../src-main/serve';

const CLIENT = fileURLToPath(new URL('./load-client.mjs', import.meta.url));

function load(port: number, path: string, host: string, token: string, durationMs: number): Promise<{ rps: number; errors: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLIENT, String(port), path, host, token, String(durationMs), '8', '16']);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as { rps: number; errors: number }) : reject(new Error(`load client exited ${code}`))));
  });
}

/**
 * http.cached_vs_raw (DESIGN §7): throughput of a cached /gex answer through the whole app (Host check,
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
  try {
    for (let round = 0; round < 5; round += 1) {
      rawSamples.push((await load(rawPort, path, `127.0.0.1:${rawPort}`, '', 1500)).rps);
      appSamples.push((await load(server.port, path, `127.0.0.1:${server.port}`, server.apiKey, 1500)).rps);
    }
  } finally {
    raw.close();
  }
  const appRps = median(appSamples);
  const rawRps = median(rawSamples);
  return [
    atLeast('http.cached_vs_raw', appRps / rawRps, 'ratio', 0.8, `app ${Math.round(appRps)} req/s vs bare node:http ${Math.round(rawRps)} req/s, ${body.length} bytes, ${path}`),
  ];
}
