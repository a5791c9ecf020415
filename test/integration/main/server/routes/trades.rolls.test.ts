/**
 * The roll assistant (DESIGN §5 "Management rules and rolls", docs/journal.md §Rolls) on the real SPX chain of
 * 2024-01-05 (quoted 2024-01-07 10:52 New York): a short SPXW strangle on the 2024-01-12 expiration, the 4600 put and
 * the 4800 call, and a lone short 4500 put of 2024-01-19. The closing and opening prices are the file's own bids and
 * asks, read off its rows below and added up by hand; the candidate strikes are the file's listed ones (read by the
 * tests' own reader, test/quotedata.ts); each expiration's walls and flip are `/gex?expirations=<date>`'s; the delta is
 * worked out again here from docs/exposure.md's forward and T (Black–Scholes on the forward, an erf of its own).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RollLegJson, RollsResponseT } from '../../../../../src-shared/api/schemas';
import { manualClock } from '../../../../clock';
import { useTestApp } from '../../../../helper';
import { liveContracts, rawContracts, readChain, settlementGroups } from '../../../../quotedata';

const FILE = 'SPX_quotedata_2024-01-05close_phammings.csv';
const QUOTE_TIME = '2024-01-07T15:52:00Z';
const SPOT = 4697.2402;

/** DESIGN §5's places written out again: below the put wall, above the call wall, else on the flip's side. */
function place(strike: number, levels: { putWall: number | null; callWall: number | null; gammaFlip: number | null }): string | null {
  if (levels.putWall !== null && strike < levels.putWall) return 'below_put_wall';
  if (levels.callWall !== null && strike > levels.callWall) return 'above_call_wall';
  if (levels.gammaFlip === null) return null;
  return strike < levels.gammaFlip ? 'put_wall_to_flip' : 'flip_to_call_wall';
}

/** N(x) from erf (Abramowitz & Stegun 7.1.26, |error| < 1.5e-7). */
function normCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-z * z);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

interface Gex {
  callWall: { strike: number } | null;
  putWall: { strike: number } | null;
  gammaInflection: number | null;
  gammaZone: string;
}

const manual = (rows: object[]) => ({ method: 'POST' as const, url: '/v1/journal/transactions', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ transactions: rows }) });
const sell = (expiration: string, strike: number, right: 'P' | 'C', price: number, orderId: string, date = '2024-01-05T20:00:00Z') => ({
  account: 'Margin',
  date,
  type: 'SELL_TO_OPEN',
  symbol: 'SPXW',
  expiration,
  strike,
  right,
  quantity: 1,
  price,
  orderId,
});

describe('GET /journal/trades/{id}/rolls on the real SPX chain', () => {
  // Monday 2024-01-08 10:00 New York: the Sunday-quoted snapshot is 1 trading day old (fresh under markMaxAgeDays 2).
  const t = useTestApp({ clock: manualClock('2024-01-08T15:00:00Z') });
  const ids = { strangle: '', put: '', closed: '' };
  let snapshotId = 0;
  const rolls = async (id: string, query = '') => {
    const { status, body } = await t.get<RollsResponseT>(`/v1/journal/trades/${encodeURIComponent(id)}/rolls${query}`);
    expect(status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const legOf = (body: RollsResponseT, symbol: string): RollLegJson => {
    const found = body.legs.find((l) => l.leg.symbol === symbol);
    if (found === undefined) throw new Error(`no leg ${symbol}: ${body.legs.map((l) => l.leg.symbol).join(', ')}`);
    return found;
  };
  const raw = liveContracts(rawContracts(readChain(FILE)), QUOTE_TIME);

  // The chain and three trades stored before every test (each reads them alone): the strangle, a lone put, and a put
  // sold and bought back (closed).
  beforeAll(async () => {
    const chain = await t.request({ method: 'POST', url: '/v1/chains?symbol=SPX', headers: { 'content-type': 'text/csv' }, payload: readChain(FILE) });
    expect(chain.statusCode, chain.body).toBe(201);
    snapshotId = (chain.json() as { id: number }).id;
    for (const rows of [
      [sell('2024-01-12', 4600, 'P', 5, 'S1'), sell('2024-01-12', 4800, 'C', 3, 'S1')],
      [sell('2024-01-19', 4500, 'P', 4, 'P1', '2024-01-05T19:00:00Z')],
      [sell('2024-01-19', 4400, 'P', 2, 'C1', '2024-01-04T19:00:00Z'), { ...sell('2024-01-19', 4400, 'P', 1, 'C2', '2024-01-05T18:00:00Z'), type: 'BUY_TO_CLOSE' }],
    ]) {
      const added = await t.request(manual(rows));
      expect(added.statusCode, added.body).toBe(201);
    }
    const { body } = await t.get<{ trades: Array<{ id: string; strategy: string; status: string; mainLeg: { strike: number } | null }> }>('/v1/journal/trades');
    const find = (strategy: string, status: string, strike: number) => body.trades.find((tr) => tr.strategy === strategy && tr.status === status && tr.mainLeg?.strike === strike)?.id ?? '';
    ids.strangle = find('short_strangle', 'open', 4600);
    ids.put = find('short_put', 'open', 4500);
    ids.closed = find('short_put', 'closed', 4400);
    expect(Object.values(ids).every((id) => id !== ''), JSON.stringify(body.trades.map((tr) => [tr.strategy, tr.status, tr.mainLeg]))).toBe(true);
  });

  it('the strangle’s two short legs, nearest expiration first, priced from the file’s own rows', async () => {
    const body = await rolls(ids.strangle);
    expect(body).toMatchObject({ tradeId: ids.strangle, symbol: 'SPX', currency: 'USD', snapshot: { id: snapshotId, quoteTime: '2024-01-07T15:52:00.000Z', spot: SPOT, ageDays: 1 } });
    expect(body.filters).toEqual({ maxDte: 60, expirations: 8, strikes: 5, minNet: null, net: 'mid', maxDelta: null, beyondWall: false });
    expect(body.legs.map((l) => l.leg)).toEqual([
      { symbol: 'SPXW240112P04600000', expiration: '2024-01-12', strike: 4600, right: 'P', contracts: 1, multiplier: 100, dte: 5 },
      { symbol: 'SPXW240112C04800000', expiration: '2024-01-12', strike: 4800, right: 'C', contracts: 1, multiplier: 100, dte: 5 },
    ]);
    // The file's row "Fri Jan 12 2024,SPXW240112C04600000,…,4600.00,SPXW240112P04600000,3.7,-2,3.6,3.8,…": the put's bid 3.60, ask 3.80.
    const put = legOf(body, 'SPXW240112P04600000');
    expect([put.root, put.closeBid, put.closeAsk, put.closeMid, put.closeNatural]).toEqual(['SPXW', 3.6, 3.8, 3.7, 3.8]);
    // "Fri Jan 12 2024,SPXW240112C04800000,2,-2.22,1.9,2.05,…": the call's bid 1.90, ask 2.05; mid (1.90 + 2.05) / 2 = 1.975.
    const call = legOf(body, 'SPXW240112C04800000');
    expect([call.closeBid, call.closeAsk, call.closeMid, call.closeNatural]).toEqual([1.9, 2.05, 1.975, 2.05]);
  });

  it('two candidates by hand: mid and natural credits of the file’s bids and asks', async () => {
    const body = await rolls(ids.strangle);
    const put = legOf(body, 'SPXW240112P04600000');
    // "Tue Jan 16 2024,…,4600.00,SPXW240116P04600000,6.02,-2.03,5.8,6,…": bid 5.80, ask 6.00. Open at mid 5.90, at the
    // bid 5.80; net at mid 5.90 − 3.70 = 2.20, natural 5.80 − 3.80 = 2.00.
    expect(put.candidates.find((c) => c.symbol === 'SPXW240116P04600000')).toMatchObject({ expiration: '2024-01-16', strike: 4600, dte: 9, bid: 5.8, ask: 6, openMid: 5.9, openNatural: 5.8, netMid: 2.2, netNatural: 2 });
    // "Wed Jan 17 2024,…,4590.00,SPXW240117P04590000,8.14,-0.31,6.3,6.6,…": bid 6.30, ask 6.60: mid 6.45, net 6.45 − 3.70 =
    // 2.75; natural 6.30 − 3.80 = 2.50.
    expect(put.candidates.find((c) => c.symbol === 'SPXW240117P04590000')).toMatchObject({ strike: 4590, dte: 10, openMid: 6.45, openNatural: 6.3, netMid: 2.75, netNatural: 2.5 });
    const call = legOf(body, 'SPXW240112C04800000');
    // "Fri Jan 19 2024,SPXW240119C04825000,3.8,-1.9,3.7,3.9,…": bid 3.70, ask 3.90: mid 3.80, net 3.80 − 1.975 = 1.825;
    // natural 3.70 − 2.05 = 1.65.
    expect(call.candidates.find((c) => c.symbol === 'SPXW240119C04825000')).toMatchObject({ strike: 4825, dte: 12, openMid: 3.8, openNatural: 3.7, netMid: 1.825, netNatural: 1.65 });
  });

  it('the next 8 SPXW expirations after the leg’s, and at each the same strike and 5 listed strikes further out of the money', async () => {
    const body = await rolls(ids.strangle);
    // The file lists SPXW on Jan 16, 17, 18, 19, 22, 23, 24 and 25 after Jan 12 (days from the Sunday quote: 9 … 18).
    const expected = ['2024-01-16', '2024-01-17', '2024-01-18', '2024-01-19', '2024-01-22', '2024-01-23', '2024-01-24', '2024-01-25'];
    for (const leg of body.legs) {
      expect(leg.expirations.map((e) => [e.expiration, e.dte])).toEqual(expected.map((e, i) => [e, [9, 10, 11, 12, 15, 16, 17, 18][i]]));
      for (const expiration of expected) {
        // The file's quoted SPXW strikes of that expiration and right, from the leg's strike outward.
        const listed = raw
          .filter((c) => c.root === 'SPXW' && c.expiration === expiration && c.right === leg.leg.right && c.ask > 0 && c.ask >= c.bid)
          .map((c) => c.strike)
          .filter((k) => (leg.leg.right === 'P' ? k <= leg.leg.strike : k >= leg.leg.strike))
          .sort((a, b) => (leg.leg.right === 'P' ? b - a : a - b))
          .slice(0, 6);
        expect(leg.candidates.filter((c) => c.expiration === expiration).map((c) => c.strike), `${leg.leg.symbol} ${expiration}`).toEqual(listed);
      }
      expect(leg.considered).toBe(48);
    }
    expect(legOf(body, 'SPXW240112P04600000').candidates.filter((c) => c.expiration === '2024-01-16').map((c) => c.strike)).toEqual([4600, 4595, 4590, 4585, 4580, 4575]);
  });

  it('each candidate’s place is its strike against /gex?expirations=<its date>’s walls and flip', async () => {
    const body = await rolls(ids.strangle);
    for (const leg of body.legs) {
      for (const e of leg.expirations) {
        const { status, body: gex } = await t.get<Gex>(`/v1/gex?symbol=SPX&snapshot=${snapshotId}&expirations=${e.expiration}`);
        expect(status).toBe(200);
        const levels = { putWall: gex.putWall?.strike ?? null, callWall: gex.callWall?.strike ?? null, gammaFlip: gex.gammaInflection };
        expect({ putWall: e.putWall, callWall: e.callWall, gammaFlip: e.gammaFlip, gammaZone: e.gammaZone }).toEqual({ ...levels, gammaZone: gex.gammaZone });
        for (const c of leg.candidates.filter((x) => x.expiration === e.expiration)) expect(c.place, `${c.symbol}`).toBe(place(c.strike, levels));
      }
    }
    // Not all in one place: the 4600 put of Jan 16 is under that expiration's put wall (4700), the 4800 call of Jan 19 above its call wall (4700).
    const places = new Set(body.legs.flatMap((l) => l.candidates.map((c) => c.place)));
    expect(places.has('below_put_wall') && places.has('above_call_wall')).toBe(true);
  });

  it('delta from the snapshot’s IV on the exposure engine’s forward and T; probOTM = 1 − |delta|', async () => {
    const put = legOf(await rolls(ids.strangle), 'SPXW240112P04600000');
    const candidate = put.candidates.find((c) => c.symbol === 'SPXW240116P04600000');
    // docs/exposure.md: F by put–call parity of the expiration's settlement group, T in minutes of a 365-day year, r 0.04;
    // a put's delta is −e^{−qT}·N(−d1) with e^{−qT} = e^{−rT}·F / S, d1 = (ln(F/K) + σ²T/2) / (σ√T); σ = the file's 0.1142.
    const [group] = settlementGroups(raw, '2024-01-16', SPOT, 0.04, QUOTE_TIME);
    if (group === undefined || candidate === undefined) throw new Error('no group or candidate');
    const sigma = 0.1142;
    const d1 = (Math.log(group.forward / 4600) + (sigma * sigma * group.tYears) / 2) / (sigma * Math.sqrt(group.tYears));
    const delta = -Math.exp(-0.04 * group.tYears) * (group.forward / SPOT) * normCdf(-d1);
    expect(candidate.iv).toBe(sigma);
    expect(candidate.delta).toBeCloseTo(delta, 6);
    for (const c of put.candidates) {
      expect(c.delta ?? 0).toBeLessThan(0);
      expect(c.probOTM).toBeCloseTo(1 - Math.abs(c.delta ?? 0), 12);
    }
    // Further out of the money, a smaller |delta|.
    const jan16 = put.candidates.filter((c) => c.expiration === '2024-01-16').map((c) => Math.abs(c.delta ?? 0));
    expect([...jan16].sort((a, b) => b - a)).toEqual(jan16);
  });

  it('a lone short put: collateral the new strike × 100, its return the net credit on it, annualized over the new days', async () => {
    const body = await rolls(ids.put);
    const [leg] = body.legs;
    if (leg === undefined) throw new Error('no leg');
    expect(leg.leg.symbol).toBe('SPXW240119P04500000');
    const candidate = leg.candidates[0];
    if (candidate === undefined || leg.closeMid === null || candidate.netMid === null) throw new Error('no candidate');
    // Cash-secured: 4,500 × 100 = 450,000.00 at the same strike, 4,495 × 100 one step out.
    expect([candidate.strike, candidate.collateral]).toEqual([4500, 450_000]);
    expect(leg.candidates[1]?.collateral).toBe((leg.candidates[1]?.strike ?? 0) * 100);
    expect(candidate.netMid).toBeCloseTo(candidate.openMid - leg.closeMid, 10);
    expect(candidate.returnOnCollateral).toBeCloseTo((candidate.netMid * 100) / 450_000, 12);
    expect(candidate.annualized).toBeCloseTo(((candidate.returnOnCollateral ?? 0) * 365) / candidate.dte, 12);
  });

  it('filters: net credit ≥ 0 at mid or natural, |delta| ≤ x, beyond the wall — each the unfiltered list cut by the rule', async () => {
    const all = await rolls(ids.strangle);
    const cut = (body: RollsResponseT) => body.legs.map((l) => l.candidates.map((c) => c.symbol));
    const keep = (rule: (c: RollLegJson['candidates'][number], leg: RollLegJson) => boolean) => all.legs.map((l) => l.candidates.filter((c) => rule(c, l)).map((c) => c.symbol));
    const credit = await rolls(ids.strangle, '?minNet=0');
    expect(credit.filters.minNet).toBe(0);
    expect(cut(credit)).toEqual(keep((c) => (c.netMid ?? -1) >= 0));
    const natural = await rolls(ids.strangle, '?minNet=2&net=natural');
    expect(cut(natural)).toEqual(keep((c) => (c.netNatural ?? -1) >= 2));
    const delta = await rolls(ids.strangle, '?maxDelta=0.1');
    expect(cut(delta)).toEqual(keep((c) => Math.abs(c.delta ?? 1) <= 0.1));
    const wall = await rolls(ids.strangle, '?beyondWall=true');
    expect(cut(wall)).toEqual(keep((c, l) => c.place === (l.leg.right === 'P' ? 'below_put_wall' : 'above_call_wall')));
    // Each filter leaves some and removes some (the file is not all one side of it).
    for (const body of [credit, natural, delta, wall]) {
      const kept = body.legs.reduce((n, l) => n + l.candidates.length, 0);
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThan(96);
    }
    // Fewer expirations and strikes: the first 2 expirations, the same strike and 1 further.
    const small = await rolls(ids.strangle, '?expirations=2&strikes=1&maxDte=10');
    expect(legOf(small, 'SPXW240112P04600000').candidates.map((c) => c.symbol)).toEqual(['SPXW240116P04600000', 'SPXW240116P04595000', 'SPXW240117P04600000', 'SPXW240117P04595000']);
  });

  it('refuses what it cannot roll: an unknown trade 404, a closed one 409, a snapshot not of SPX 404, bad parameters 400', async () => {
    const unknown = await t.get<{ code: string }>('/v1/journal/trades/nope/rolls');
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
    const closed = await t.get<{ code: string; detail: string }>(`/v1/journal/trades/${encodeURIComponent(ids.closed)}/rolls`);
    expect([closed.status, closed.body.code]).toEqual([409, 'CONFLICT']);
    expect(closed.body.detail).toMatch(/closed: it has no open leg to roll/);
    const missing = await t.get<{ code: string }>(`/v1/journal/trades/${encodeURIComponent(ids.put)}/rolls?snapshot=999`);
    expect([missing.status, missing.body.code]).toEqual([404, 'UNKNOWN_SNAPSHOT']);
    for (const query of ['strikes=21', 'expirations=0', 'maxDelta=1.5', 'beyondWall=yes', 'net=best', 'maxDte=-1', 'minNet=1e3', 'snapshot=0x1']) {
      const bad = await t.get<{ code: string }>(`/v1/journal/trades/${encodeURIComponent(ids.put)}/rolls?${query}`);
      expect([bad.status, bad.body.code], query).toEqual([400, 'INVALID_PARAMETER']);
    }
  });
});

describe('a snapshot older than markMaxAgeDays: 409 STALE_SNAPSHOT naming its date', () => {
  // Friday 2024-01-12: the 2024-01-07 quote is 5 New York trading days old (8, 9, 10, 11, 12 January).
  const t = useTestApp({ clock: manualClock('2024-01-12T15:00:00Z') });
  it('refuses the rolls and says which snapshot, of when, and what to do', async () => {
    const chain = await t.request({ method: 'POST', url: '/v1/chains?symbol=SPX', headers: { 'content-type': 'text/csv' }, payload: readChain(FILE) });
    expect(chain.statusCode).toBe(201);
    const added = await t.request(manual([sell('2024-01-19', 4500, 'P', 4, 'P1')]));
    expect(added.statusCode, added.body).toBe(201);
    const { body: list } = await t.get<{ trades: Array<{ id: string }> }>('/v1/journal/trades');
    const id = list.trades[0]?.id ?? '';
    const { status, body } = await t.get<{ code: string; detail: string; errors: Array<{ param: string; message: string }> }>(`/v1/journal/trades/${encodeURIComponent(id)}/rolls`);
    expect([status, body.code]).toEqual([409, 'STALE_SNAPSHOT']);
    expect(body.detail).toMatch(/^The SPX snapshot \d+ is of 2024-01-07 \(2024-01-07T15:52:00.000Z\), 5 New York trading days old: older than markMaxAgeDays \(2\)/);
    expect(body.errors).toEqual([{ param: 'snapshot', message: 'is of 2024-01-07, 5 trading days old (markMaxAgeDays 2)' }]);
    // A wider setting takes it.
    const put = await t.request({ method: 'PUT', url: '/v1/settings', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ markMaxAgeDays: 5 }) });
    expect(put.statusCode).toBe(200);
    expect((await t.get(`/v1/journal/trades/${encodeURIComponent(id)}/rolls`)).status).toBe(200);
  });
});
