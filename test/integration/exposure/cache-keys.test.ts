/**
 * The exposure caches depend on the stored snapshots alone (issue 12): a journal import, which commits through the
 * journal worker's own connection and so moves the server connection's data_version, leaves prepared chains and
 * cached answers as they were; a snapshot stored by another process drops them. The server's clock stands still
 * (a manual clock): an answer computed again would carry a later `asOf`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainSnapshot } from '../../../src-shared/exposure/model';
import { systemClock } from '../../../src-main/clock';
import { ExposureService } from '../../../src-main/services/exposure/service';
import { WriteQueue } from '../../../src-main/db/writes';
import { DEFAULT_SETTINGS } from '../../../src-main/settings';
import { startServer, type RunningServer } from '../../../src-main/serve';
import { manualClock } from '../../clock';
import { storeChain } from '../../helper';
import { REPO_ROOT, tempDir } from '../../paths';

function chain(quoteTime: string): ChainSnapshot {
  const contracts = [90, 95, 100, 105, 110].flatMap((strike) => [
    { root: 'KEYS', expiration: '2099-12-18', strike, right: 'C' as const, openInterest: 1000 + strike, iv: 0.3, bid: 1, ask: 1.2, multiplier: 100 },
    { root: 'KEYS', expiration: '2099-12-18', strike, right: 'P' as const, openInterest: 600 + strike, iv: 0.3, bid: 1, ask: 1.2, multiplier: 100 },
  ]);
  return { symbol: 'KEYS', spot: 100, quoteTime, source: 'generic', contracts };
}

const clock = manualClock('2099-11-20T15:30:00Z');
let server: RunningServer;
const get = (path: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${server.apiKey}` } });
/** Longer than the 25 ms for which data_version is read once (db/open.ts dataVersionReader). */
const pastDataVersionAge = () => new Promise((resolve) => setTimeout(resolve, 60));

async function gex(): Promise<{ etag: string | null; asOf: string; snapshotTime: string }> {
  const response = await get('/v1/gex?symbol=KEYS');
  expect(response.status).toBe(200);
  const body = (await response.json()) as { asOf: string; meta: { snapshotTime: string } };
  return { etag: response.headers.get('etag'), asOf: body.asOf, snapshotTime: body.meta.snapshotTime };
}

beforeAll(async () => {
  server = await startServer({ dataDir: tempDir(), port: 0, uiDir: null, clock });
  storeChain(server.ctx, chain('2099-11-20T15:00:00Z'));
});
afterAll(async () => {
  await server?.close();
});

describe('exposure caches keyed on the snapshots', () => {
  it('a journal import leaves a cached /gex answer cached: same ETag, same asOf, through the route and the fast path', async () => {
    const first = await gex();
    expect(first.asOf).toBe('2099-11-20T15:30:00.000Z');
    clock.advance(1000);
    const csv = readFileSync(join(REPO_ROOT, 'test/fixtures/brokers/tastytrade_v2_21col_PFE_binnaculum.csv'));
    const imported = await fetch(`${server.apiBaseUrl}/imports`, { method: 'POST', headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'text/csv' }, body: csv });
    expect(imported.status).toBe(201);
    await pastDataVersionAge();
    const after = await gex();
    expect(after, 'not recomputed: the import wrote no snapshot').toEqual(first);
  });

  it('a snapshot stored by another process drops the answers: the next one is computed on it', async () => {
    const before = await gex();
    // Another process (the CLI) stores a newer snapshot through its own connection.
    const other = new Database(join(server.dataDir, 'strikebook.db'));
    try {
      const result = await new ExposureService(other, () => DEFAULT_SETTINGS, systemClock, new WriteQueue(other)).ingest({ snapshot: chain('2099-11-20T16:00:00Z') });
      expect(result.ok).toBe(true);
    } finally {
      other.close();
    }
    clock.advance(1000);
    await pastDataVersionAge();
    const after = await gex();
    expect(after.snapshotTime).toBe('2099-11-20T16:00:00.000Z');
    expect(after.asOf, 'computed again, now').toBe(new Date(clock.nowMs()).toISOString());
    expect(after.etag).not.toBe(before.etag);
  });
});
