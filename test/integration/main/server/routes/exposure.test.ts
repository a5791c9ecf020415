import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExpirationsResponseT, GexResponseT, VannaResponseT } from '../../../../../src-shared/api/schemas';
import { buildTestApp, CHAIN_FIXTURES, type TestApp, useTestApp } from '../../../../helper';

const SPX = join(CHAIN_FIXTURES, 'SPX_quotedata_2024-01-05close_phammings.csv');
const NDX = join(CHAIN_FIXTURES, 'NDX_quotedata_2022-02-04close_luca.csv');

describe('exposure routes on the real SPX 2024-01-05 chain', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    const posted = await t.request({ method: 'POST', url: '/v1/chains', headers: { 'content-type': 'text/csv' }, payload: readFileSync(SPX, 'utf8') });
    expect(posted.statusCode, posted.body).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('POST /v1/chains reports the snapshot; the same file again stores nothing and creates no events', async () => {
    const again = await t.request({ method: 'POST', url: '/v1/chains', headers: { 'content-type': 'text/csv' }, payload: readFileSync(SPX, 'utf8') });
    expect(again.statusCode).toBe(200);
    const body = again.json<{ symbol: string; contracts: number; stored: boolean; events: number; spot: number; quoteTime: string }>();
    expect(body).toMatchObject({ symbol: 'SPX', contracts: 21_038, stored: false, events: 0, spot: 4697.2402 });
    expect(body.quoteTime, 'January 7, 2024 10:52 AM EST is 15:52 UTC').toBe('2024-01-07T15:52:00.000Z');
    const list = await t.get<{ symbols: Array<{ symbol: string; snapshots: number }> }>('/v1/chains');
    expect(list.body.symbols).toEqual([expect.objectContaining({ symbol: 'SPX', snapshots: 1 })]);
  });

  it('GET /gex answers with the full body, meta and units; formula variants differ by exactly S and S²/100', async () => {
    const nominal = await t.get<GexResponseT>('/v1/gex?symbol=SPX');
    expect(nominal.status).toBe(200);
    const g = nominal.body;
    expect(g.meta.expirations, 'default: the nearest 3 unexpired expirations').toEqual(g.meta.availableExpirations.slice(0, 3));
    expect(g.meta.availableExpirations[0], 'expirations before the quote date are dropped').toBe('2024-01-08');
    expect(g.meta).toMatchObject({ formula: 'nominal', unit: 'shares per $1 move', source: 'cboe-csv', snapshotTime: '2024-01-07T15:52:00.000Z' });
    expect(g.stockPrice).toBe(4697.2402);
    expect(g.data.map((r) => r.strike), 'rows sorted by strike').toEqual([...g.data.map((r) => r.strike)].sort((a, b) => a - b));
    for (const row of g.data) {
      expect(row.callGEX).toBeGreaterThanOrEqual(0);
      expect(row.putGEX).toBeLessThanOrEqual(0);
      expect(row.netGEX).toBeCloseTo(row.callGEX + row.putGEX, 6);
    }
    const sum = g.data.reduce((acc, r) => acc + r.netGEX, 0);
    expect(g.totalGEX / sum, 'totalGEX = Σ netGEX').toBeCloseTo(1, 9);
    expect(g.gammaZone).toBe(g.totalGEX >= 0 ? 'positive' : 'negative');

    const S = g.stockPrice;
    for (const [formula, factor, unit] of [
      ['per_1dollar', S, 'USD of delta per $1 move'],
      ['per_1pct', S * S * 0.01, 'USD per 1% move'],
    ] as const) {
      const other = (await t.get<GexResponseT>(`/v1/gex?symbol=SPX&formula=${formula}`)).body;
      expect(other.meta.unit).toBe(unit);
      expect(other.totalGEX / (g.totalGEX * factor), `${formula} = nominal × ${formula === 'per_1pct' ? 'S²·0.01' : 'S'}`).toBeCloseTo(1, 9);
      expect(other.callWall?.strike, 'walls do not depend on the formula').toBe(g.callWall?.strike);
      expect(other.putWall?.strike).toBe(g.putWall?.strike);
      expect(other.gammaInflection, 'the flip does not depend on the formula').toBe(g.gammaInflection);
    }
  });

  it('caches for 60 s: the same asOf and ETag, 304 on If-None-Match', async () => {
    const first = await t.request('/v1/gex?symbol=SPX&expirationsCount=2');
    const second = await t.request('/v1/gex?symbol=SPX&expirationsCount=2');
    expect(first.json<GexResponseT>().asOf).toBe(second.json<GexResponseT>().asOf);
    const etag = first.headers.etag;
    expect(typeof etag === 'string' && etag.length > 2).toBe(true);
    const notModified = await t.request({ url: '/v1/gex?symbol=SPX&expirationsCount=2', headers: { 'if-none-match': String(etag) } });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    const otherParams = await t.request('/v1/gex?symbol=SPX&expirationsCount=1');
    expect(otherParams.headers.etag, 'the ETag depends on the parameters').not.toBe(etag);
  });

  it('explicit expirations: 400 UNKNOWN_EXPIRATION listing the valid ones', async () => {
    const bad = await t.request('/v1/gex?symbol=SPX&expirations=2024-01-05,2024-01-08');
    expect(bad.statusCode).toBe(400);
    const problem = bad.json<{ code: string; detail: string; errors: Array<{ param: string }> }>();
    expect(problem.code).toBe('UNKNOWN_EXPIRATION');
    expect(problem.detail, 'an expired expiration is not available').toMatch(/2024-01-05/);
    expect(problem.detail).toMatch(/Valid: 2024-01-08, 2024-01-09/);
    const two = (await t.request('/v1/gex?symbol=SPX&expirations=2024-01-05,2024-01-08,2030-01-18')).json<{ detail: string; errors: Array<{ param: string; message: string }> }>();
    expect(two.errors, 'every unknown expiration is named, by the engine’s one rule').toEqual([
      { param: 'expirations', message: '2024-01-05 is not available' },
      { param: 'expirations', message: '2030-01-18 is not available' },
    ]);
    expect(two.detail).toMatch(/^2024-01-05, 2030-01-18 are not available for SPX\. Valid: /);
    const vanna = (await t.request('/v1/vanna?symbol=SPX&expiration=2030-01-18')).json<{ code: string; errors: Array<{ param: string }> }>();
    expect(vanna, '/vanna maps the same error, naming its own parameter').toMatchObject({ code: 'UNKNOWN_EXPIRATION', errors: [{ param: 'expiration' }] });
    const good = await t.get<GexResponseT>('/v1/gex?symbol=SPX&expirations=2024-01-19,2024-01-08');
    expect(good.body.meta.expirations).toEqual(['2024-01-08', '2024-01-19']);
  });

  it('GET /vanna: aggregate 0–45 dte by default, pinned with expiration', async () => {
    const aggregate = (await t.get<VannaResponseT>('/v1/vanna?symbol=SPX')).body;
    expect(aggregate).toMatchObject({ symbol: 'SPX', mode: 'aggregate', expiration: null, minDte: 0, maxDte: 45 });
    expect(aggregate.keyLevels.vannaRegime).toBe(aggregate.totalVanna >= 0 ? 'positive' : 'negative');
    expect(aggregate.data.length).toBeGreaterThan(10);
    for (const row of aggregate.data) {
      expect(row.strike).toBeGreaterThanOrEqual(0.8 * aggregate.stockPrice - 1e-9);
      expect(row.strike).toBeLessThanOrEqual(1.2 * aggregate.stockPrice + 1e-9);
    }
    const pinned = (await t.get<VannaResponseT>('/v1/vanna?symbol=SPX&expiration=2024-01-19')).body;
    expect(pinned).toMatchObject({ mode: 'expiration', expiration: '2024-01-19', minDte: 12, maxDte: 12 });
    const unknown = await t.request('/v1/vanna?symbol=SPX&expiration=2024-01-06');
    expect(unknown.json<{ code: string }>().code).toBe('UNKNOWN_EXPIRATION');
  });

  it('GET /expirations lists dte, settlement (SPX AM, SPXW PM), contracts and open interest', async () => {
    const body = (await t.get<ExpirationsResponseT>('/v1/expirations?symbol=spx')).body;
    expect(body.symbol).toBe('SPX');
    expect(body.expirations[0]).toBe('2024-01-08');
    const jan8 = body.details.find((d) => d.expiration === '2024-01-08');
    expect(jan8).toMatchObject({ dte: 1, settlement: 'PM' });
    const jan19 = body.details.filter((d) => d.expiration === '2024-01-19');
    expect(jan19.length).toBeGreaterThanOrEqual(1);
    expect(body.details.some((d) => d.settlement === 'AM'), 'the monthly SPX root settles AM').toBe(true);
  });
});

describe('chain file errors', () => {
  const t = useTestApp();

  it('a corrupted chain gives 422 IMPORT_FAILED naming the line, and stores nothing', async () => {
    const lines = readFileSync(NDX, 'utf8').split('\n');
    lines[10] = (lines[10] ?? '').replace(/,(\d+\.\d+),/, ',abc,');
    const response = await t.request({ method: 'POST', url: '/v1/chains', headers: { 'content-type': 'text/csv' }, payload: lines.join('\n') });
    expect(response.statusCode).toBe(422);
    const problem = response.json<{ code: string; errors: Array<{ line?: number; message: string }> }>();
    expect(problem.code).toBe('IMPORT_FAILED');
    expect(problem.errors.map((e) => e.line)).toContain(11);
    expect((await t.get<{ symbols: unknown[] }>('/v1/chains')).body.symbols).toEqual([]);
  });
});
