/**
 * Exposure over time (issue 11) on two real SPX chains of different days: stored snapshots, `snapshot=` and `at=`,
 * the profile curve against a computation from the file's rows, history points, the diff, delete, dte ranges and
 * each expiration's share of the book's gamma.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ExpirationsResponseT, GexDiffResponseT, GexHistoryResponseT, GexProfileResponseT, GexResponseT, SnapshotsResponseT, VannaResponseT } from '../../../../../src-shared/api/schemas';
import { MAX_SCOPES_PER_SNAPSHOT } from '../../../../../src-main/db/gex-history';
import { ExposureWorkerClient } from '../../../../../src-main/services/exposure/worker-client';
import { buildTestApp, storeChain, type TestApp, useTestApp } from '../../../../helper';
import { contract, snapshot } from '../../../../exposure-helpers';
import { callsTo, workerCallsDuring } from '../../../../stall';
import { liveContracts, rawContracts, readChain, settlementGroups, type RawContract } from '../../../../quotedata';

const FILE_A = 'SPX_quotedata_2022-02-04close_luca.csv';
const FILE_B = 'SPX_quotedata_2023-09-14_carlos.csv';
const RATE = 0.04;

/** What P(x) needs of one usable contract (OI > 0, 0 < IV ≤ 5), by hand from the file's rows. */
interface Term {
  expiration: string;
  sign: number;
  weight: number;
  /** ln(F/K) + σ²T/2: d1(x) = (this + ln(x/S)) / σ√T. */
  logFK: number;
  sigmaSqrtT: number;
  /** e^{−qT} = e^{−rT}F/S. */
  carryDiscount: number;
}

/** Per settlement group the parity forward F and T, then every usable contract's term. */
function usableTerms(live: readonly RawContract[], spot: number, quoteTime: string): Term[] {
  const terms: Term[] = [];
  for (const expiration of new Set(live.map((c) => c.expiration))) {
    for (const { contracts: group, tYears, forward } of settlementGroups(live, expiration, spot, RATE, quoteTime)) {
      for (const c of group) {
        if (!(c.openInterest > 0) || !(c.iv > 0 && c.iv <= 5)) continue;
        const sigmaSqrtT = c.iv * Math.sqrt(tYears);
        terms.push({ expiration, sign: c.right === 'C' ? 1 : -1, weight: c.openInterest * 100, logFK: Math.log(forward / c.strike) + (c.iv * c.iv * tYears) / 2, sigmaSqrtT, carryDiscount: (Math.exp(-RATE * tYears) * forward) / spot });
      }
    }
  }
  return terms;
}

/** |Γ(x)|·OI·100 of a term when the forward moves to F·x/S: e^{−qT}φ(d1(x))/(xσ√T)·OI·100. */
function termGamma(t: Term, x: number, spot: number): number {
  const d1 = (t.logFK + Math.log(x / spot)) / t.sigmaSqrtT;
  return (t.weight * t.carryDiscount * Math.exp((-d1 * d1) / 2)) / Math.sqrt(2 * Math.PI) / (x * t.sigmaSqrtT);
}

/** P(x) of docs/exposure.md by hand: Σ s·Γ(x)·OI·100 (shares per $1) over the usable contracts of the expirations. */
function handProfile(live: readonly RawContract[], expirations: readonly string[], spot: number, quoteTime: string): (x: number) => number {
  const terms = usableTerms(live, spot, quoteTime).filter((t) => expirations.includes(t.expiration));
  return (x) => terms.reduce((sum, t) => sum + t.sign * termGamma(t, x, spot), 0);
}

/** The parts of a /gex answer that depend on the snapshot and the parameters (not asOf). */
function figures(g: GexResponseT) {
  const { asOf: _asOf, ...rest } = g;
  return rest;
}

describe('exposure over time on two real SPX chains', () => {
  let t: TestApp;
  let idA = 0;
  let idB = 0;
  let quoteA = '';
  let quoteB = '';
  // Answers while A was the newest snapshot.
  const whenNewest: { gex?: GexResponseT; nominal?: GexResponseT; vanna?: VannaResponseT; expirations?: ExpirationsResponseT } = {};
  const post = async (file: string) => {
    const response = await t.request({ method: 'POST', url: '/v1/chains', headers: { 'content-type': 'text/csv' }, payload: readChain(file) });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ quoteTime: string; contracts: number }>();
  };
  const get = async <T>(url: string, status = 200): Promise<T> => {
    const answer = await t.get<T>(url);
    expect(answer.status, `${url}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(status);
    return answer.body;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    quoteA = (await post(FILE_A)).quoteTime;
    whenNewest.gex = await get<GexResponseT>('/v1/gex?symbol=SPX&formula=per_1pct');
    whenNewest.nominal = await get<GexResponseT>('/v1/gex?symbol=SPX');
    whenNewest.vanna = await get<VannaResponseT>('/v1/vanna?symbol=SPX');
    whenNewest.expirations = await get<ExpirationsResponseT>('/v1/expirations?symbol=SPX');
    idA = whenNewest.gex.meta.snapshotId;
    quoteB = (await post(FILE_B)).quoteTime;
    idB = (await get<GexResponseT>('/v1/gex?symbol=SPX')).meta.snapshotId;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('lists the stored snapshots newest first with the file counts', async () => {
    const list = await get<SnapshotsResponseT>('/v1/snapshots?symbol=spx');
    expect(list.symbol).toBe('SPX');
    expect(list.snapshots.map((s) => s.id)).toEqual([idB, idA]);
    expect(list.snapshots.map((s) => [s.quoteTime, s.spot, s.contracts, s.source])).toEqual([
      [quoteB, 4505.1001, 19_920, 'cboe-csv'],
      [quoteA, 4500.5298, 20_514, 'cboe-csv'],
    ]);
    for (const [s, file] of [
      [list.snapshots[0], FILE_B],
      [list.snapshots[1], FILE_A],
    ] as const) {
      expect(s?.expirations, 'expirations of the file, expired ones included').toBe(new Set(rawContracts(readChain(file)).map((c) => c.expiration)).size);
    }
  });

  it('answers an older snapshot exactly as it did when it was the newest (snapshot=)', async () => {
    const newest = await get<GexResponseT>('/v1/gex?symbol=SPX&formula=per_1pct');
    expect(newest.meta.snapshotId).toBe(idB);
    expect(newest.totalGEX).not.toBe(whenNewest.gex?.totalGEX);
    const again = await get<GexResponseT>(`/v1/gex?symbol=SPX&formula=per_1pct&snapshot=${idA}`);
    expect(figures(again)).toEqual(figures(whenNewest.gex as GexResponseT));
    const { asOf: _v, ...vanna } = await get<VannaResponseT>(`/v1/vanna?symbol=SPX&snapshot=${idA}`);
    const { asOf: _w, ...vannaThen } = whenNewest.vanna as VannaResponseT;
    expect(vanna).toEqual(vannaThen);
    expect(await get<ExpirationsResponseT>(`/v1/expirations?symbol=SPX&snapshot=${idA}`)).toEqual(whenNewest.expirations);
  });

  it('at= picks the newest snapshot quoted at or before the instant', async () => {
    const at = async (instant: string) => (await get<GexResponseT>(`/v1/gex?symbol=SPX&at=${encodeURIComponent(instant)}`)).meta.snapshotId;
    expect(await at(quoteA)).toBe(idA);
    expect(await at(new Date(Date.parse(quoteB) - 1).toISOString())).toBe(idA);
    expect(await at(quoteB)).toBe(idB);
    expect(await at('2099-01-01T00:00:00Z')).toBe(idB);
    // A date is the end of that New York day; B was quoted 2023-09-14 16:31 New York time.
    expect(await at('2023-09-14')).toBe(idB);
    expect(await at('2023-09-13')).toBe(idA);
    // No offset: New York wall-clock time (B is 16:31 EDT = 20:31 UTC).
    expect(await at('2023-09-14T16:30')).toBe(idA);
    expect(await at('2023-09-14T16:31')).toBe(idB);
  });

  it('UNKNOWN_SNAPSHOT for an id that is not the symbol’s, or nothing at or before at=; 400 for both selectors', async () => {
    const other = storeChain(t.ctx, snapshot([contract({ strike: 100, right: 'C' })], 100, '2026-02-02T21:00:00Z', 'XYZ'));
    expect(other.stored).toBe(true);
    const xyzId = (await get<SnapshotsResponseT>('/v1/snapshots?symbol=XYZ')).snapshots[0]?.id ?? 0;
    for (const url of [`/v1/gex?symbol=SPX&snapshot=${xyzId}`, '/v1/gex?symbol=SPX&snapshot=987654', '/v1/vanna?symbol=SPX&at=2020-01-01', `/v1/gex/profile?symbol=SPX&snapshot=${xyzId}`, `/v1/expirations?symbol=SPX&snapshot=${xyzId}`]) {
      const body = await get<{ code: string; detail: string }>(url, 404);
      expect(body.code, url).toBe('UNKNOWN_SNAPSHOT');
    }
    expect((await get<{ code: string }>(`/v1/gex?symbol=SPX&snapshot=${idA}&at=2024-01-01`, 400)).code).toBe('INVALID_PARAMETER');
    expect((await get<{ code: string }>('/v1/gex?symbol=SPX&at=yesterday', 400)).code).toBe('INVALID_PARAMETER');
    expect((await get<{ code: string }>('/v1/gex?symbol=NOPE&at=2024-01-01', 404)).code).toBe('UNKNOWN_SYMBOL');
  });

  it('the profile: 201 points on [0.8S, 1.2S] equal to P(x) from the rows, at spot the /gex total, the flip a sign change', async () => {
    const profile = await get<GexProfileResponseT>(`/v1/gex/profile?symbol=SPX&snapshot=${idA}`);
    const gex = whenNewest.nominal as GexResponseT;
    const S = gex.stockPrice;
    expect(profile.points).toHaveLength(201);
    expect(profile.meta.expirations).toEqual(gex.meta.expirations);
    expect(profile.points[0]?.spot).toBeCloseTo(0.8 * S, 9);
    expect(profile.points[200]?.spot).toBeCloseTo(1.2 * S, 9);
    expect(profile.unit).toBe('shares per $1 move');
    const P = handProfile(liveContracts(rawContracts(readChain(FILE_A)), quoteA), gex.meta.expirations, S, quoteA);
    for (const index of [0, 37, 100, 150, 200]) {
      const point = profile.points[index];
      if (point === undefined) throw new Error('missing point');
      expect(point.netGEX / P(point.spot), `point ${index} at ${point.spot}`).toBeCloseTo(1, 9);
    }
    expect(profile.points[100]?.netGEX ?? 0, 'P(S) = /gex totalGEX in shares per $1').toBeCloseTo(gex.totalGEX, 6);
    expect(profile.gammaInflection).toBe(gex.gammaInflection);
    const flip = profile.gammaInflection;
    if (flip === null) throw new Error('SPX 2022-02-04 has a flip');
    const step = 1e-5 * S;
    expect(Math.sign(P(flip - step)), 'the hand profile changes sign across the flip').toBe(-Math.sign(P(flip + step)));

    const pct = await get<GexProfileResponseT>(`/v1/gex/profile?symbol=SPX&snapshot=${idA}&formula=per_1pct`);
    expect(pct.unit).toBe('USD per 1% move');
    for (const index of [10, 100, 190]) {
      const x = profile.points[index]?.spot ?? 0;
      expect((pct.points[index]?.netGEX ?? 0) / ((profile.points[index]?.netGEX ?? 0) * x * x * 0.01), 'the factor is taken at x').toBeCloseTo(1, 12);
    }
  });

  it('history: one point per snapshot, oldest first, equal to /gex with snapshot=, kept in SQLite', async () => {
    const url = '/v1/gex/history?symbol=SPX&formula=per_1pct&expirationsCount=2';
    const history = await get<GexHistoryResponseT>(url);
    expect(history.unit).toBe('USD per 1% move');
    expect(history.points.map((p) => p.snapshotId)).toEqual([idA, idB]);
    for (const point of history.points) {
      const g = await get<GexResponseT>(`/v1/gex?symbol=SPX&formula=per_1pct&expirationsCount=2&snapshot=${point.snapshotId}`);
      expect(point).toEqual({
        snapshotId: point.snapshotId,
        quoteTime: g.meta.snapshotTime,
        spot: g.stockPrice,
        totalGEX: g.totalGEX,
        gammaZone: g.gammaZone,
        gammaInflection: g.gammaInflection,
        callWall: g.callWall,
        putWall: g.putWall,
      });
    }
    // Served from the table, not recomputed: a point changed there is what the next request answers.
    const scope = 'per_1pct||2||';
    const rows = t.ctx.db.prepare<[string], { snapshot_id: number }>('SELECT snapshot_id FROM gex_history WHERE scope = ? ORDER BY snapshot_id').all(scope);
    expect(rows.map((r) => r.snapshot_id)).toEqual([idA, idB]);
    t.ctx.db.prepare('UPDATE gex_history SET point = json_set(point, \'$.totalGEX\', 42) WHERE scope = ? AND snapshot_id = ?').run(scope, idA);
    expect((await get<GexHistoryResponseT>(url)).points[0]?.totalGEX).toBe(42);
    t.ctx.db.prepare('DELETE FROM gex_history WHERE scope = ?').run(scope);
    expect(await get<GexHistoryResponseT>(url), 'computed again when gone').toEqual(history);

    // Every stored snapshot got its default-scope point when it was stored.
    const defaults = t.ctx.db.prepare<[string], { snapshot_id: number }>('SELECT snapshot_id FROM gex_history WHERE scope = ? ORDER BY snapshot_id').all('nominal||3||');
    expect(defaults.map((r) => r.snapshot_id)).toEqual(expect.arrayContaining([idA, idB]));
    const ranged = await get<GexHistoryResponseT>('/v1/gex/history?symbol=SPX&from=2023-09-14&to=2023-09-14');
    expect(ranged.points.map((p) => p.snapshotId)).toEqual([idB]);
    expect((await get<{ code: string }>('/v1/gex/history?symbol=SPX&from=2023-09-15&to=2023-09-14', 400)).code).toBe('INVALID_PARAMETER');
  });

  it('diff: per strike, the `to` snapshot’s /gex row minus the `from` snapshot’s (0 where a side has none)', async () => {
    const diff = await get<GexDiffResponseT>(`/v1/gex/diff?symbol=SPX&from=${idA}&to=${idB}&formula=per_1pct`);
    const a = await get<GexResponseT>(`/v1/gex?symbol=SPX&formula=per_1pct&snapshot=${idA}`);
    const b = await get<GexResponseT>(`/v1/gex?symbol=SPX&formula=per_1pct&snapshot=${idB}`);
    expect(diff.from).toEqual({ snapshotId: idA, quoteTime: quoteA, spot: a.stockPrice, totalGEX: a.totalGEX, expirations: a.meta.expirations });
    expect(diff.to.totalGEX).toBe(b.totalGEX);
    const strikes = [...new Set([...a.data, ...b.data].map((r) => r.strike))].sort((x, y) => x - y);
    expect(diff.data.map((r) => r.strike)).toEqual(strikes);
    const rowOf = (g: GexResponseT, strike: number) => g.data.find((r) => r.strike === strike) ?? { netGEX: 0, callGEX: 0, putGEX: 0, callOI: 0, putOI: 0 };
    for (const row of diff.data) {
      const before = rowOf(a, row.strike);
      const after = rowOf(b, row.strike);
      expect(row.netGEX).toBeCloseTo(after.netGEX - before.netGEX, 6);
      expect(row.callOI).toBe(after.callOI - before.callOI);
      expect(row.putGEX).toBeCloseTo(after.putGEX - before.putGEX, 6);
    }
    const sum = diff.data.reduce((acc, r) => acc + r.netGEX, 0);
    expect(sum / (b.totalGEX - a.totalGEX), 'Σ change = change of the total').toBeCloseTo(1, 9);
  });

  it('minDte/maxDte scope every expiration in the range; the parts add up; not with expirations', async () => {
    const details = (await get<ExpirationsResponseT>('/v1/expirations?symbol=SPX')).details;
    const near = await get<GexResponseT>('/v1/gex?symbol=SPX&maxDte=1');
    const far = await get<GexResponseT>('/v1/gex?symbol=SPX&minDte=2');
    const all = await get<GexResponseT>('/v1/gex?symbol=SPX&minDte=0');
    expect(near.meta.expirations).toEqual(details.filter((d) => d.dte <= 1).map((d) => d.expiration));
    expect(far.meta.expirations).toEqual(details.filter((d) => d.dte >= 2).map((d) => d.expiration));
    expect(all.meta.expirations).toEqual(details.map((d) => d.expiration));
    expect((near.totalGEX + far.totalGEX) / all.totalGEX).toBeCloseTo(1, 9);
    // Quoted after the 16:00 close of 2023-09-14: nothing has dte 0.
    const none = await get<GexResponseT>('/v1/gex?symbol=SPX&maxDte=0');
    expect(none).toMatchObject({ totalGEX: 0, data: [], callWall: null, putWall: null, gammaInflection: null, meta: { expirations: [] } });
    expect((await get<GexResponseT>('/v1/gex?symbol=SPX&minDte=2&expirationsCount=2')).meta.expirations).toEqual(far.meta.expirations.slice(0, 2));
    expect((await get<{ code: string }>('/v1/gex?symbol=SPX&minDte=3&maxDte=2', 400)).code).toBe('INVALID_PARAMETER');
    expect((await get<{ code: string }>(`/v1/gex?symbol=SPX&maxDte=3&expirations=${details[0]?.expiration ?? ''}`, 400)).code).toBe('INVALID_PARAMETER');
  });

  it('gammaShare: each expiration’s Σ|gamma| over the book’s, from the rows; the shares sum to 1', async () => {
    const details = (await get<ExpirationsResponseT>(`/v1/expirations?symbol=SPX&snapshot=${idA}`)).details;
    const live = liveContracts(rawContracts(readChain(FILE_A)), quoteA);
    const S = 4500.5298;
    const absolute = new Map<string, number>();
    for (const term of usableTerms(live, S, quoteA)) absolute.set(term.expiration, (absolute.get(term.expiration) ?? 0) + termGamma(term, S, S));
    const book = [...absolute.values()].reduce((x, y) => x + y, 0);
    for (const d of details) expect(d.gammaShare, d.expiration).toBeCloseTo((absolute.get(d.expiration) ?? 0) / book, 12);
    expect(details.reduce((x, d) => x + d.gammaShare, 0)).toBeCloseTo(1, 12);
  });
});

// Deleting takes the snapshots the other tests read: an app of its own, with the same two chains and another symbol.
describe('deleting snapshots of the two real SPX chains', () => {
  let t: TestApp;
  let idA = 0;
  let idB = 0;
  let quoteB = '';
  const whenNewest: { gex?: GexResponseT } = {};
  const post = async (file: string) => {
    const response = await t.request({ method: 'POST', url: '/v1/chains', headers: { 'content-type': 'text/csv' }, payload: readChain(file) });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ quoteTime: string; contracts: number }>();
  };
  const get = async <T>(url: string, status = 200): Promise<T> => {
    const answer = await t.get<T>(url);
    expect(answer.status, `${url}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(status);
    return answer.body;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    await post(FILE_A);
    whenNewest.gex = await get<GexResponseT>('/v1/gex?symbol=SPX&formula=per_1pct');
    idA = whenNewest.gex.meta.snapshotId;
    quoteB = (await post(FILE_B)).quoteTime;
    idB = (await get<GexResponseT>('/v1/gex?symbol=SPX')).meta.snapshotId;
    storeChain(t.ctx, snapshot([contract({ strike: 100, right: 'C' })], 100, '2026-02-02T21:00:00Z', 'XYZ'));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('delete: the newest goes, the older answers again, events and states stay; then the last; then 404', async () => {
    const events = (await get<{ events: Array<{ id: string }> }>('/v1/gex/events?tickers=SPX&limit=200')).events.map((e) => e.id);
    const states = t.ctx.db.prepare('SELECT * FROM exposure_state WHERE ticker = ? ORDER BY expiration').all('SPX');
    const deleted = await t.request({ method: 'DELETE', url: `/v1/snapshots/${idB}` });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ id: idB, symbol: 'SPX', quoteTime: quoteB });
    expect((await get<SnapshotsResponseT>('/v1/snapshots?symbol=SPX')).snapshots.map((s) => s.id)).toEqual([idA]);
    expect(figures(await get<GexResponseT>('/v1/gex?symbol=SPX&formula=per_1pct')), 'A is the newest again').toEqual(figures(whenNewest.gex as GexResponseT));
    expect((await get<GexHistoryResponseT>('/v1/gex/history?symbol=SPX')).points.map((p) => p.snapshotId)).toEqual([idA]);
    expect(t.ctx.db.prepare('SELECT COUNT(*) AS n FROM gex_history WHERE snapshot_id = ?').get(idB), 'its history points went with it').toEqual({ n: 0 });
    expect((await get<{ events: Array<{ id: string }> }>('/v1/gex/events?tickers=SPX&limit=200')).events.map((e) => e.id)).toEqual(events);
    expect(t.ctx.db.prepare('SELECT * FROM exposure_state WHERE ticker = ? ORDER BY expiration').all('SPX')).toEqual(states);
    expect((await get<{ code: string }>(`/v1/gex?symbol=SPX&snapshot=${idB}`, 404)).code).toBe('UNKNOWN_SNAPSHOT');
    expect((await get<SnapshotsResponseT>('/v1/snapshots?symbol=XYZ')).snapshots, 'other symbols untouched').toHaveLength(1);

    expect((await t.request({ method: 'DELETE', url: `/v1/snapshots/${idA}` })).statusCode).toBe(200);
    expect((await get<{ code: string }>('/v1/gex?symbol=SPX', 404)).code).toBe('UNKNOWN_SYMBOL');
    const again = await t.request({ method: 'DELETE', url: `/v1/snapshots/${idA}` });
    expect(again.statusCode).toBe(404);
    expect(again.json<{ code: string }>().code).toBe('UNKNOWN_SNAPSHOT');
  });
});

describe('retention per symbol', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ overrides: { snapshotRetention: 3, snapshotRetentionBySymbol: { XYZ: 2 } } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps the symbol’s own number of snapshots, and the default for the others', async () => {
    for (const symbol of ['XYZ', 'ABC']) {
      for (const hour of [14, 15, 16, 17]) storeChain(t.ctx, snapshot([contract({ strike: 100, right: 'C', root: symbol })], 100 + hour, `2026-02-02T${hour}:00:00Z`, symbol));
    }
    const times = async (symbol: string) => (await t.get<SnapshotsResponseT>(`/v1/snapshots?symbol=${symbol}`)).body.snapshots.map((s) => s.quoteTime.slice(11, 13));
    expect(await times('XYZ')).toEqual(['17', '16']);
    expect(await times('ABC')).toEqual(['17', '16', '15']);
    const settings = await t.get<{ snapshotRetentionBySymbol: Record<string, number> }>('/v1/settings');
    expect(settings.body.snapshotRetentionBySymbol).toEqual({ XYZ: 2 });
    const put = (body: string) => t.request({ method: 'PUT', url: '/v1/settings', headers: { 'content-type': 'application/json' }, payload: body });
    expect((await put('{"snapshotRetentionBySymbol": {"spx": 5}}')).statusCode, 'symbols are upper case').toBe(400);
    expect((await put('{"snapshotRetentionBySymbol": {"SPX": 0}}')).statusCode, 'at least one').toBe(400);
    expect((await put('{"snapshotRetentionBySymbol": {"SPX": 100}}')).statusCode).toBe(200);
  });

  it('a snapshot pruned by retention answers no more, even one read (and kept prepared) before', async () => {
    const store = (hour: number) => storeChain(t.ctx, snapshot([contract({ strike: 100, right: 'C', root: 'XYZ' })], 100 + hour, `2026-02-03T${hour}:00:00Z`, 'XYZ'));
    store(19);
    store(20);
    const listed = (await t.get<SnapshotsResponseT>('/v1/snapshots?symbol=XYZ')).body.snapshots;
    const older = listed[1];
    expect(older?.quoteTime, 'XYZ keeps two snapshots').toBe('2026-02-03T19:00:00.000Z');
    expect((await t.get<GexResponseT>(`/v1/gex?symbol=XYZ&snapshot=${older?.id}`)).status, 'the older of the two, read once').toBe(200);
    store(21);
    const after = await t.get<{ code: string }>(`/v1/gex?symbol=XYZ&snapshot=${older?.id}`);
    expect([after.status, after.body.code], 'pruned with the new snapshot').toEqual([404, 'UNKNOWN_SNAPSHOT']);
  });
});

describe('POST /v1/chains off the event loop', () => {
  const t = useTestApp();

  it('parses and plans the 21k-contract SPX file in the exposure worker, the event loop answering meanwhile', async () => {
    const text = readChain('SPX_quotedata_2024-01-05close_phammings.csv');
    const { value: response, calls } = await workerCallsDuring(() => t.request({ method: 'POST', url: '/v1/chains', headers: { 'content-type': 'text/csv' }, payload: text }));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<{ contracts: number }>().contracts).toBe(21_038);
    // The parse, preparation and evaluation are the plan the worker makes; this thread only stores it.
    const planned = callsTo(calls, 'planChainFile');
    expect(planned.pings, `the file was planned once, in the worker: ${planned.shown}`).toHaveLength(1);
    expect(planned.pings[0], `the event loop went on while the worker planned: ${planned.shown}`).toBeGreaterThanOrEqual(3);
  });
});

describe('a stored chain not in memory is prepared off the event loop', () => {
  const t = useTestApp();

  it('answers as the chain prepared on this thread would, once for requests that come together, the event loop answering while the worker prepares', async () => {
    const text = readChain('SPX_quotedata_2024-01-05close_phammings.csv');
    const stored = await t.ctx.exposure.ingest({ file: text, options: { symbol: 'SPX' } });
    expect(stored.ok).toBe(true);
    const prepared = (await t.get<GexResponseT>('/v1/gex?symbol=SPX&expirationsCount=5')).body;
    // A restart, another process's snapshot or a new rate drops the prepared chains: the next reads prepare it again.
    // Once untimed, so that the worker has started and both threads have compiled the code.
    t.ctx.exposure.reset();
    expect((await t.get('/v1/expirations?symbol=SPX')).status).toBe(200);
    t.ctx.exposure.reset();
    const calls = vi.spyOn(ExposureWorkerClient.prototype, 'call');
    const { value: answers, calls: sent } = await workerCallsDuring(() => Promise.all([t.get<GexResponseT>('/v1/gex?symbol=SPX&expirationsCount=5'), t.get<ExpirationsResponseT>('/v1/expirations?symbol=SPX')]));
    const [gex, expirations] = answers;
    expect(gex.status).toBe(200);
    expect(expirations.status).toBe(200);
    expect({ ...gex.body, asOf: '' }, 'the chain the worker prepared gives the same answer').toEqual({ ...prepared, asOf: '' });
    expect(calls.mock.calls.filter(([method]) => method === 'prepare'), 'one preparation for both requests').toHaveLength(1);
    calls.mockRestore();
    const preparation = callsTo(sent, 'prepare');
    expect(preparation.pings[0], `the event loop went on while the worker prepared: ${preparation.shown}`).toBeGreaterThanOrEqual(3);
  });
});

describe('history points kept per snapshot are bounded', () => {
  const t = useTestApp();

  it(`keeps at most ${MAX_SCOPES_PER_SNAPSHOT} scopes of a snapshot, and still answers the others`, async () => {
    storeChain(t.ctx, snapshot([contract({ strike: 100, right: 'C' }), contract({ strike: 95, right: 'P' })]));
    for (let minDte = 0; minDte < MAX_SCOPES_PER_SNAPSHOT + 6; minDte += 1) {
      const answer = await t.get<GexHistoryResponseT>(`/v1/gex/history?symbol=XYZ&minDte=${minDte}`);
      expect(answer.status).toBe(200);
      // The one expiration has dte 7: in scope up to minDte=7, then none (a point with no walls).
      expect(answer.body.points[0]?.callWall?.strike ?? null).toBe(minDte <= 7 ? 100 : null);
    }
    const kept = t.ctx.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM gex_history').get();
    expect(kept?.n).toBe(MAX_SCOPES_PER_SNAPSHOT);
  });
});
