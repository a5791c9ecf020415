/**
 * A ticker in a query is upper-cased once, as the schema decodes it (server/ticker-keyword.ts, src-shared/ids.ts): a
 * lower-case `symbol=xyz` finds the snapshots stored as XYZ and every answer names XYZ; `tickers=xyz` of the events
 * answers as XYZ's; a ticker the pattern refuses is still 400 naming it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GexResponseT, SnapshotsResponseT } from '../../../../src-shared/api/schemas';
import { manualClock } from '../../../clock';
import { contract, EXPIRATION, snapshot } from '../../../exposure-helpers';
import { buildTestApp, storeChain, type TestApp } from '../../../helper';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ clock: manualClock('2026-02-03T15:00:00Z') });
  storeChain(t.ctx, snapshot([contract({ strike: 95, right: 'P', openInterest: 500 }), contract({ strike: 105, right: 'C', openInterest: 700 }), contract({ strike: 100, right: 'C', expiration: EXPIRATION })]));
  // The next morning the put wall has moved from 95 to 90: an event of XYZ.
  storeChain(t.ctx, snapshot([contract({ strike: 90, right: 'P', openInterest: 5000 }), contract({ strike: 95, right: 'P', openInterest: 10 }), contract({ strike: 105, right: 'C', openInterest: 700 }), contract({ strike: 100, right: 'C' })], 100, '2026-02-03T14:30:00Z'));
});

afterAll(async () => {
  await t.close();
});

describe('a ticker in a query', () => {
  it('lower case finds the upper-case ticker, and the answer names it upper case', async () => {
    const listed = await t.get<SnapshotsResponseT>('/v1/snapshots?symbol=xyz');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.symbol).toBe('XYZ');
    expect(listed.body.snapshots).toHaveLength(2);
    const gex = await t.get<GexResponseT>('/v1/gex?symbol=xYz');
    expect(gex.status, JSON.stringify(gex.body)).toBe(200);
    expect(JSON.stringify(gex.body)).toContain('"symbol":"XYZ"');
  });

  it('the same answer for any case (one cache entry per ticker)', async () => {
    const lower = await t.get('/v1/gex?symbol=xyz');
    const upper = await t.get('/v1/gex?symbol=XYZ');
    expect(lower.response.headers.etag).toBe(upper.response.headers.etag);
  });

  it('the events of tickers=xyz answer as those of XYZ', async () => {
    const lower = await t.get<{ events: unknown[]; explanations: unknown[] }>('/v1/gex/events?tickers=xyz');
    const upper = await t.get<{ events: unknown[]; explanations: unknown[] }>('/v1/gex/events?tickers=XYZ');
    expect(lower.status).toBe(200);
    expect(lower.body).toEqual(upper.body);
  });

  it('a ticker the pattern refuses is 400 naming symbol', async () => {
    const bad = await t.get<{ errors: Array<{ param: string }> }>('/v1/snapshots?symbol=-spx');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e) => e.param)).toContain('symbol');
  });
});
