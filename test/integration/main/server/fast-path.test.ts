import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChainSnapshot } from '../../../../src-shared/exposure/model';
import { startServer, type RunningServer } from '../../../../src-main/serve';
import { tempDir } from '../../../paths';
import { storeChain } from '../../../helper';

function chain(quoteTime: string, callOi: number): ChainSnapshot {
  const contracts = [90, 95, 100, 105, 110].flatMap((strike) => [
    { root: 'FAST', expiration: '2099-12-18', strike, right: 'C' as const, openInterest: callOi + strike, iv: 0.3, bid: 1, ask: 1.2, multiplier: 100 },
    { root: 'FAST', expiration: '2099-12-18', strike, right: 'P' as const, openInterest: 500 + strike, iv: 0.3, bid: 1, ask: 1.2, multiplier: 100 },
  ]);
  return { symbol: 'FAST', spot: 100, quoteTime, source: 'generic', contracts };
}

let server: RunningServer;
let url = '';
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${url}${path}`, { headers: { authorization: `Bearer ${server.apiKey}`, ...headers } });

beforeAll(async () => {
  server = await startServer({ dataDir: tempDir(), port: 0, uiDir: null, overrides: { rateLimit: { perSecond: 0.01, burst: 6 } } });
  url = server.url;
  storeChain(server.ctx, chain('2099-11-20T15:00:00Z', 1000));
});
afterAll(async () => {
  await server?.close();
});

describe('the cached-answer fast path (real HTTP)', () => {
  it('serves a repeated request from the cache with the same bytes and headers, and keeps every check', async () => {
    const compute = vi.spyOn(server.ctx.exposure, 'gex');
    const first = await get('/v1/gex?symbol=FAST');
    const firstBody = await first.text();
    expect(compute).toHaveBeenCalledTimes(1);
    const second = await get('/v1/gex?symbol=FAST');
    expect(await second.text(), 'identical bytes').toBe(firstBody);
    expect(compute, 'the second answer came from the fast path, not the route').toHaveBeenCalledTimes(1);
    for (const header of ['content-type', 'etag', 'cache-control', 'content-length']) expect(second.headers.get(header), header).toBe(first.headers.get(header));

    const notModified = await get('/v1/gex?symbol=FAST', { 'if-none-match': first.headers.get('etag') ?? '' });
    expect(notModified.status).toBe(304);

    const badKey = await fetch(`${url}/v1/gex?symbol=FAST`, { headers: { authorization: 'Bearer sb_wrong' } });
    expect(badKey.status, 'an unknown key still gets 401').toBe(401);
    expect(badKey.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const noKey = await fetch(`${url}/v1/gex?symbol=FAST`);
    expect(noKey.status).toBe(401);

    // 6 tokens of burst (refilling at 0.01/s, i.e. not during this test): 3 spent above (first, second, 304),
    // then the 4th, 5th and 6th pass and the 7th is limited.
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await get('/v1/gex?symbol=FAST')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await get('/v1/gex?symbol=FAST');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await limited.json()) as { code: string }).toMatchObject({ code: 'RATE_LIMITED' });
    compute.mockRestore();
  });

  it('refuses a foreign Host even for a cached URL', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/v1/gex?symbol=FAST', headers: { host: 'evil.example', authorization: `Bearer ${server.apiKey}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(421);
  });

  it('never serves a stale answer after a newer snapshot, nor a key revoked by another process', async () => {
    // A second key has a bucket of its own (the first one is spent).
    const { key } = server.ctx.keys.create('second');
    const getWith = (path: string) => fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } });
    const before = (await (await getWith('/v1/gex?symbol=FAST&formula=per_1pct')).json()) as { meta: { snapshotTime: string } };
    storeChain(server.ctx, chain('2099-11-20T16:00:00Z', 3000));
    const after = (await (await getWith('/v1/gex?symbol=FAST&formula=per_1pct')).json()) as { meta: { snapshotTime: string } };
    expect(before.meta.snapshotTime).toBe('2099-11-20T15:00:00.000Z');
    expect(after.meta.snapshotTime, 'the newer snapshot drops the cached answer').toBe('2099-11-20T16:00:00.000Z');

    const other = new Database(join(server.dataDir, 'strikebook.db'));
    other.prepare('UPDATE api_keys SET revoked_at = ? WHERE revoked_at IS NULL').run(new Date().toISOString());
    other.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await getWith('/v1/gex?symbol=FAST&formula=per_1pct')).status, 'revoked elsewhere: refused within 25 ms').toBe(401);
  });
});
