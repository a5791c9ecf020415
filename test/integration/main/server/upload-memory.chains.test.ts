/**
 * Memory of large valid chains (issue 29, finding 5; docs/architecture.md §Reliability and security): a 45 MB CBOE
 * delayed-quotes JSON and 300,000 contracts, uploaded to `POST /v1/chains` of a real `strikebook serve` and fetched by
 * a refresh from an online source on loopback, each raise the peak RSS (VmHWM) of a fresh, warm server by at most
 * 300 MB over its idle RSS; a JSON of more contracts than a chain may hold is refused as it is read. Before: +546 MB for the 45 MB JSON, +316 MB for 280,000 contracts uploaded and
 * +358 MB refreshed. The figures are printed for the report.
 */
import { createServer, type Server } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../../../cli';
import { tempDir } from '../../../paths';
import { compactCboeJsonChain, fullCboeJsonChain, genericCsvChain, send, SMALL_CHAIN, sleep } from '../../../uploads';

const GROWTH_LIMIT_MB = 300;
const CONTRACTS = 300_000;

let server: ServeProcess;
let key = '';
let source: Server;
let sourcePort = 0;
let served: Buffer = Buffer.alloc(0);

function statusMb(field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) / 1024;
}

/**
 * A fresh server for each case (a case's chain, prepared and kept, and its garbage would be the next one's baseline),
 * warm: it has stored a small chain, so both workers run. Its idle RSS is the baseline.
 */
async function freshServer(): Promise<number> {
  if (server !== undefined) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  server = await startServe(['--port', '0', '--data-dir', tempDir()]);
  key = readFileSync(server.keyFile, 'utf8').trim();
  const put = await send(server.port, key, '/v1/settings', JSON.stringify({ onlineSource: { enabled: false, baseUrl: `http://127.0.0.1:${sourcePort}/api`, watchlist: ['SPX'], intervalSeconds: 300 }, watchlistIncludesPositions: false }), { method: 'PUT', contentType: 'application/json' }).answer;
  expect(put.status, put.body).toBe(200);
  expect((await send(server.port, key, '/v1/chains', SMALL_CHAIN).answer).status).toBe(201);
  await sleep(1_000);
  return statusMb('VmRSS');
}

/** The peak RSS of a fresh server over its idle RSS while `run` runs, in MB (Linux: writing 5 to clear_refs resets VmHWM). */
async function peakGrowth(name: string, run: () => Promise<void>): Promise<number> {
  const idleMb = await freshServer();
  writeFileSync(`/proc/${server.child.pid}/clear_refs`, '5');
  await run();
  const peakMb = statusMb('VmHWM');
  console.log(`${name}: idle ${idleMb.toFixed(0)} MB, peak ${peakMb.toFixed(0)} MB (+${(peakMb - idleMb).toFixed(0)} MB)`);
  return peakMb - idleMb;
}

/** A UTC time an hour ago as CBOE writes `timestamp` (a refresh refuses a quote time after the poll). */
function anHourAgo(): string {
  return new Date(Date.now() - 3_600_000).toISOString().replace('T', ' ').slice(0, 19);
}

beforeAll(async () => {
  source = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': served.length });
    response.end(served);
  });
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  const address = source.address();
  sourcePort = typeof address === 'object' && address !== null ? address.port : 0;
});

afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  await new Promise((resolve) => source?.close(resolve));
});

describe(`a large valid chain raises the server's peak RSS by at most ${GROWTH_LIMIT_MB} MB`, () => {
  it('a 45 MB CBOE delayed-quotes JSON (115,000 options of 23 fields) by upload', async () => {
    const file = fullCboeJsonChain(115_000);
    expect(file.length).toBeGreaterThan(44e6);
    let status = 0;
    const growth = await peakGrowth(`45 MB CBOE JSON (${(file.length / 1e6).toFixed(1)} MB)`, async () => {
      const answer = await send(server.port, key, '/v1/chains', file, { contentType: 'application/json' }).answer;
      status = answer.status;
      expect(answer.status, answer.body.slice(0, 300)).toBe(201);
    });
    expect(status).toBe(201);
    expect(growth).toBeLessThanOrEqual(GROWTH_LIMIT_MB);
  }, 300_000);

  it(`${CONTRACTS.toLocaleString('en-US')} contracts by upload (generic CSV)`, async () => {
    const file = genericCsvChain(CONTRACTS);
    const growth = await peakGrowth(`${CONTRACTS} contracts, generic CSV (${(file.length / 1e6).toFixed(1)} MB)`, async () => {
      const answer = await send(server.port, key, '/v1/chains?symbol=SPXCSV', file).answer;
      expect(answer.status, answer.body.slice(0, 300)).toBe(201);
    });
    expect(growth).toBeLessThanOrEqual(GROWTH_LIMIT_MB);
  }, 300_000);

  it(`${CONTRACTS.toLocaleString('en-US')} contracts by refresh from the online source`, async () => {
    served = compactCboeJsonChain(CONTRACTS, anHourAgo());
    expect(served.length).toBeLessThan(32 * 1024 * 1024);
    const growth = await peakGrowth(`${CONTRACTS} contracts by refresh (${(served.length / 1e6).toFixed(1)} MB)`, async () => {
      const started = await send(server.port, key, '/v1/chains/refresh', '').answer;
      expect(started.status, started.body).toBe(202);
      for (;;) {
        const status = JSON.parse((await send(server.port, key, '/v1/chains/refresh', '', { method: 'GET' }).answer).body) as { running: boolean; symbols: Array<{ state: string; message?: string }> };
        if (!status.running) {
          expect(status.symbols.map((s) => s.state), JSON.stringify(status)).toEqual(['stored']);
          break;
        }
        await sleep(200);
      }
    });
    expect(growth).toBeLessThanOrEqual(GROWTH_LIMIT_MB);
  }, 300_000);

  it('a 45 MB CBOE JSON of 450,000 options: refused past 300,000 contracts, as it is read', async () => {
    const file = compactCboeJsonChain(450_000);
    const growth = await peakGrowth(`450,000 options (${(file.length / 1e6).toFixed(1)} MB)`, async () => {
      const answer = await send(server.port, key, '/v1/chains', file, { contentType: 'application/json' }).answer;
      expect(answer.status, answer.body.slice(0, 300)).toBe(422);
      expect(answer.body).toContain('more than 300,000 contracts');
    });
    expect(growth).toBeLessThanOrEqual(GROWTH_LIMIT_MB);
  }, 300_000);
});
