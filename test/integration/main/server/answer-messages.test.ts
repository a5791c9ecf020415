/**
 * What the answers say, over several routes (issue 18's smaller request items): `expirationsCount` is clamped like
 * `limit` and refused beside `expirations`; a format error says which format, for the query and for a body;
 * `/vanna?at=9999-12-31` is a 400, not a 500; messages name no file of the source tree; a scope whose expirations all
 * expired says so; an import report's counts add up.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GexResponseT, ImportReport, ImportsResponseT } from '../../../../src-shared/api/schemas';
import type { OptionContract } from '../../../../src-shared/exposure/model';
import { REPO_ROOT, storeChain, useTestApp } from '../../../helper';

interface ProblemBody {
  code: string;
  detail: string;
  errors?: Array<{ param: string; message: string }>;
}

const t = useTestApp();
const EXPIRATIONS = ['2099-01-02', '2099-01-09', '2099-01-16', '2099-01-23', '2099-01-30', '2099-02-06', '2099-02-13'];

function chainWithSevenExpirations(): void {
  const contracts: OptionContract[] = EXPIRATIONS.flatMap((expiration) =>
    ([95, 100, 105] as const).flatMap((strike) => (['C', 'P'] as const).map((right) => ({ root: 'REQ', expiration, strike, right, openInterest: 1000, iv: 0.3, bid: 1, ask: 1.2, multiplier: 100 }))),
  );
  storeChain(t.ctx, { symbol: 'REQ', spot: 100, quoteTime: '2098-12-31T15:00:00Z', source: 'generic', contracts });
}

describe('expirationsCount', () => {
  it('above 5 is clamped to 5, as limit is clamped (it was a 400 while limit=500 was clamped)', async () => {
    chainWithSevenExpirations();
    const nine = await t.get<GexResponseT>('/v1/gex?symbol=REQ&expirationsCount=9');
    expect(nine.status).toBe(200);
    expect(nine.body.meta.expirations).toEqual(EXPIRATIONS.slice(0, 5));
    const five = await t.get<GexResponseT>('/v1/gex?symbol=REQ&expirationsCount=5');
    expect(nine.body.totalGEX).toBe(five.body.totalGEX);
  });

  it('beside expirations is a 400 naming both (it was silently ignored)', async () => {
    const response = await t.get<ProblemBody>(`/v1/gex?symbol=REQ&expirations=${EXPIRATIONS[0] ?? ''}&expirationsCount=2`);
    expect(response.status).toBe(400);
    expect(response.response.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(response.body.errors?.map((e) => e.param).sort()).toEqual(['expirations', 'expirationsCount']);
    expect(response.body.detail).toMatch(/expirations and expirationsCount cannot be given together/);
  });
});

describe('format errors say which format, and where', () => {
  it('a query date-time: the parameter, the query, and the format it must have', async () => {
    const response = await t.get<ProblemBody>('/v1/journal/positions?asOf=yesterday');
    expect(response.status).toBe(400);
    expect(response.body.detail).toBe('Invalid query: asOf must be a date written YYYY-MM-DD or an ISO 8601 date-time (e.g. 2024-01-05T16:00, 2024-01-05T21:00:00Z)');
    expect(response.body.errors).toEqual([{ param: 'asOf', message: 'must be a date written YYYY-MM-DD or an ISO 8601 date-time (e.g. 2024-01-05T16:00, 2024-01-05T21:00:00Z)' }]);
  });

  it('a query ticker and a list of expirations', async () => {
    expect((await t.get<ProblemBody>('/v1/gex?symbol=%24%24')).body.detail).toBe('Invalid query: symbol must be a ticker: a letter or digit, then up to 15 letters, digits or . _ / ^ -');
    expect((await t.get<ProblemBody>('/v1/gex?symbol=REQ&expirations=2099-1-2')).body.detail).toBe('Invalid query: expirations must be dates written YYYY-MM-DD, separated by commas (at most 200)');
  });

  it('a body field: the body, the field, and the format', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/journal/transactions',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ transactions: [{ date: '05/01/2024', type: 'BUY', symbol: 'AAPL', quantity: 1, price: 1 }] }),
    });
    expect(response.statusCode).toBe(400);
    const body = response.json<ProblemBody>();
    expect(body.detail).toContain('Invalid body: transactions.0.date must be a date written YYYY-MM-DD or an ISO 8601 instant with an offset');
  });
});

describe('dates past the years served', () => {
  it('/v1/vanna?at=9999-12-31 is a 400 naming at (issue 18 saw a 500)', async () => {
    const response = await t.get<ProblemBody>('/v1/vanna?symbol=REQ&at=9999-12-31');
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.param).toBe('at');
  });
});

describe('messages point to no file of the source tree', () => {
  it('an unknown file, an image, and the importer list speak in words, not "docs/importers.md"', async () => {
    const unknown = await t.request({ method: 'POST', url: '/v1/imports', headers: { 'content-type': 'text/csv' }, payload: 'alpha,beta,gamma\n1,2,3\n' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.body).toContain('generic CSV format (a header of date, type, symbol, quantity, price, amount');
    const png = await t.request({ method: 'POST', url: '/v1/imports', headers: { 'content-type': 'application/octet-stream' }, payload: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]) });
    expect(png.statusCode).toBe(422);
    const formats = await t.request('/v1/import-formats');
    for (const answer of [unknown, png, formats]) expect(answer.body).not.toMatch(/docs\/\w+\.md/);
  });
});

describe('a scope whose expirations have all expired', () => {
  it('0DTE after the close says so instead of "positive gamma" over an empty profile', async () => {
    const contract = (right: 'C' | 'P', strike: number, expiration: string): OptionContract => ({ root: 'ZDT', expiration, strike, right, openInterest: 1000, iv: 0.25, bid: 1, ask: 1.1, multiplier: 100 });
    // Friday 2024-01-05 16:30 New York: that day's expiration settled at 16:00.
    storeChain(t.ctx, {
      symbol: 'ZDT',
      spot: 100,
      quoteTime: '2024-01-05T21:30:00Z',
      source: 'generic',
      contracts: [contract('C', 105, '2024-01-05'), contract('P', 95, '2024-01-05'), contract('C', 105, '2024-01-12'), contract('P', 95, '2024-01-12')],
    });
    const zeroDte = await t.get<GexResponseT>('/v1/gex?symbol=ZDT&maxDte=0');
    expect(zeroDte.status).toBe(200);
    expect(zeroDte.body.meta.expirations).toEqual([]);
    expect(zeroDte.body.emptyScope).toBe(
      "All expirations in this scope have expired at the snapshot's quote time (2024-01-05 16:30 New York), or lie outside it: no contract is in scope, so the dealers' gamma is not known. The nearest unexpired expiration is 2024-01-12.",
    );
    const week = await t.get<GexResponseT>('/v1/gex?symbol=ZDT');
    expect(week.body.emptyScope, 'a scope with contracts').toBeNull();
    expect(week.body.meta.expirations).toEqual(['2024-01-12']);
  });

});

describe('an import report whose counts add up', () => {
  it('lists the rows merged into another row’s transaction: rows = imported + duplicates + skipped + merged, stored and listed again', async () => {
    const text = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'brokers', 'tastytrade_v2_20col_history_2018-2024_avion23.csv'), 'utf8');
    const uploaded = await t.request({ method: 'POST', url: '/v1/imports?broker=tastytrade', headers: { 'content-type': 'text/csv' }, payload: text });
    expect(uploaded.statusCode, uploaded.body.slice(0, 300)).toBe(201);
    const report = uploaded.json<ImportReport>();
    expect(report.mergedCount, 'seven corporate-action pairs').toBe(7);
    expect(report.rows).toBe(report.imported + report.duplicates + report.skippedCount + report.mergedCount);
    expect(report.merged.map((m) => m.lines)).toContainEqual([237, 238]);
    const listed = (await t.get<ImportsResponseT>('/v1/imports')).body.imports.find((i) => i.id === report.id);
    expect(listed?.merged, 'the stored report keeps them').toEqual(report.merged);
    expect(listed?.mergedCount).toBe(7);
  });
});
