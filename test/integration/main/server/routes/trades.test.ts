/**
 * GET /journal/trades, /journal/stats and the annotations (docs/journal.md §Trades and strategies, §Annotations) on a
 * hand-written journal whose trades open the trading day after the real AMD chain of 2023-08-18's close was quoted
 * (2023-08-20 22:35 New York): their levels at entry are `/gex` of that snapshot, their strike's place is worked out
 * here from those levels, their P&L by hand in the comments. Notes and tags survive an undo and a re-import of the file.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnnotationResponseT, StatsResponseT, TradeJson, TradesResponseT } from '../../../../../src-shared/api/schemas';
import { manualClock } from '../../../../clock';
import { useTestApp } from '../../../../helper';
import { rawContracts, readChain } from '../../../../quotedata';
import { AMD_TRADES as JOURNAL } from '../../../../amd-trades';

const AMD = 'AMD_quotedata_2023-08-18close_aryaman.csv';


interface Levels {
  putWall: number | null;
  callWall: number | null;
  gammaFlip: number | null;
  gammaZone: string;
}

/** DESIGN §5's places, written out again: below the put wall, above the call wall, else on the flip's side (at a level: the band above). */
function place(strike: number, levels: Levels): string | null {
  if (levels.putWall !== null && strike < levels.putWall) return 'below_put_wall';
  if (levels.callWall !== null && strike > levels.callWall) return 'above_call_wall';
  if (levels.gammaFlip === null) return null;
  return strike < levels.gammaFlip ? 'put_wall_to_flip' : 'flip_to_call_wall';
}

/** CBOE's own delta of a contract of the file (column 8 for calls, 19 for puts), a published figure of another recipe. */
function cboeDelta(expirationText: string, strike: number, right: 'C' | 'P'): number {
  for (const line of readChain(AMD).split(/\r?\n/)) {
    const cells = line.split(',');
    if (cells[0] === expirationText && Number(cells[11]) === strike) return Number(cells[right === 'C' ? 8 : 19]);
  }
  throw new Error('contract not in the file');
}

describe('trades, stats and annotations on the real AMD chain', () => {
  // Tuesday after the Sunday-evening quote: the open trade's mark is 2 trading days old, fresh (markMaxAgeDays 2).
  const clock = manualClock('2023-08-22T20:00:00Z');
  const t = useTestApp({ clock });
  let importId = 0;
  let levels: Levels;
  /** The levels of Sep 15 alone (/gex?expirations=2023-09-15): the own expiration of the trades that open on 08-21. */
  let sep15: Levels;

  const trades = async (query = '') => {
    const { status, body } = await t.get<TradesResponseT>(`/v1/journal/trades${query}`);
    expect(status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const byOrder = (list: readonly TradeJson[], strike: number, right: 'C' | 'P', opened: string): TradeJson => {
    const found = list.find((trade) => trade.legs[0]?.symbol.includes(`${right}00${String(strike * 1000).padStart(6, '0')}`) && trade.openedAt?.startsWith(opened));
    if (found === undefined) throw new Error(`no trade of the ${strike} ${right} opened ${opened}`);
    return found;
  };

  // The chain and the journal imported, and the levels of /gex read, before every test (each reads them alone).
  beforeAll(async () => {
    const chain = await t.request({ method: 'POST', url: '/v1/chains?symbol=AMD', headers: { 'content-type': 'text/csv' }, payload: readChain(AMD) });
    expect(chain.statusCode, chain.body).toBe(201);
    const snapshot = chain.json<{ id: number }>().id;

    const imported = await t.request({ method: 'POST', url: '/v1/imports?broker=generic', headers: { 'content-type': 'text/csv' }, payload: JOURNAL });
    expect(imported.statusCode, imported.body).toBe(201);
    importId = imported.json<{ id: number }>().id;
    const gex = (await t.get<{ callWall: { strike: number } | null; putWall: { strike: number } | null; gammaInflection: number | null; gammaZone: string }>(`/v1/gex?symbol=AMD&snapshot=${snapshot}`)).body;
    levels = { putWall: gex.putWall?.strike ?? null, callWall: gex.callWall?.strike ?? null, gammaFlip: gex.gammaInflection, gammaZone: gex.gammaZone };
    expect(levels.putWall, 'the AMD chain has a put wall').not.toBeNull();
    expect(levels.callWall).not.toBeNull();
    const own = (await t.get<{ callWall: { strike: number } | null; putWall: { strike: number } | null; gammaInflection: number | null; gammaZone: string }>(`/v1/gex?symbol=AMD&snapshot=${snapshot}&expirations=2023-09-15`)).body;
    sep15 = { putWall: own.putWall?.strike ?? null, callWall: own.callWall?.strike ?? null, gammaFlip: own.gammaInflection, gammaZone: own.gammaZone };
    expect(sep15.gammaFlip, 'Sep 15 alone has its own flip, not the nearest three’s').not.toBe(levels.gammaFlip);
  });

  it('lists the four trades, newest opened first, with strategy, credit, risk, collateral, pnl and the entry levels of /gex', async () => {
    const body = await trades();
    expect(body.pagination).toEqual({ page: 1, limit: 25, total: 4, pages: 1 });
    expect(body.trades.map((trade) => trade.openedAt)).toEqual(['2023-08-21T14:20:00.000Z', '2023-08-21T14:10:00.000Z', '2023-08-21T14:00:00.000Z', '2023-08-10T14:00:00.000Z']);
    const puts = byOrder(body.trades, 95, 'P', '2023-08-21');
    expect(puts).toMatchObject({
      strategy: 'short_put',
      status: 'closed',
      credit: 274.68,
      // A short put: max profit the credit; max loss strike × 100 × 2 − credit = 19,000 − 274.68; collateral 19,000.
      maxProfit: 274.68,
      maxLoss: 18725.32,
      collateral: 19000,
      pnl: 193.36,
      unrealizedPL: null,
      daysHeld: 7,
      // Monday 2023-08-21 to Friday 2023-09-15.
      dteAtEntry: 25,
      rolls: 0,
      mainLeg: { symbol: 'AMD230915P00095000', expiration: '2023-09-15', strike: 95, right: 'P', side: 'short', contracts: 2 },
      entrySnapshot: { quoteTime: '2023-08-21T02:35:00.000Z', spot: 105.6 },
      levelsAtEntry: { ...sep15, scope: 'own', expirations: ['2023-09-15'], shortStrikeVs: place(95, sep15), shortStrikes: [{ expiration: '2023-09-15', strike: 95, right: 'P', place: place(95, sep15) }] },
    });
    expect(puts.returnOnCollateral).toBeCloseTo(193.36 / 19000, 10);
    expect(puts.pctOfMaxProfit).toBeCloseTo(193.36 / 274.68, 10);
    expect(puts.legs.map((leg) => [leg.role, leg.quantity, leg.realizedPL])).toEqual([
      ['entry', 2, null],
      ['close', 2, 193.36],
    ]);
    // The delta comes from the snapshot's IV on the engine's convention: CBOE's column (its own recipe, 4 decimals) agrees to a few hundredths.
    expect(Math.abs((puts.deltaAtEntry ?? 0) - cboeDelta('Fri Sep 15 2023', 95, 'P'))).toBeLessThan(0.03);
    expect(puts.deltaAtEntry).toBeLessThan(0);
    const call = byOrder(body.trades, 115, 'C', '2023-08-21');
    expect(call).toMatchObject({ strategy: 'short_call', pnl: -105.32, levelsAtEntry: { ...sep15, shortStrikeVs: place(115, sep15) } });
    // The /gex default scope on request, named with its expirations; the stats keep the own expiration's.
    const nearest = (await trades('?levelsScope=nearest')).trades;
    expect(byOrder(nearest, 95, 'P', '2023-08-21').levelsAtEntry).toEqual({
      ...levels,
      scope: 'nearest',
      expirations: ['2023-08-25', '2023-09-01', '2023-09-08'],
      shortStrikeVs: place(95, levels),
      shortStrikes: [{ expiration: '2023-09-15', strike: 95, right: 'P', place: place(95, levels) }],
    });
    const detail = (await t.get<{ levelsScope: string; trade: TradeJson }>(`/v1/journal/trades/${encodeURIComponent(puts.id)}?levelsScope=nearest`)).body;
    expect([detail.levelsScope, detail.trade.levelsAtEntry], 'the detail answers the scope it is asked').toEqual(['nearest', byOrder(nearest, 95, 'P', '2023-08-21').levelsAtEntry]);
    expect(call.deltaAtEntry).toBeGreaterThan(0);
    const early = byOrder(body.trades, 100, 'P', '2023-08-10');
    expect(early, 'opened ten days before any snapshot: no entry figures').toMatchObject({ pnl: 128.68, deltaAtEntry: null, levelsAtEntry: null, entrySnapshot: null });
    expect(call.campaignId).not.toBeNull();
  });

  it('marks the open trade as the positions are marked: unrealized = its position’s, ratios with it', async () => {
    const open = byOrder((await trades('?status=open')).trades, 100, 'P', '2023-08-21');
    const quote = rawContracts(readChain(AMD)).find((c) => c.root === 'AMD' && c.expiration === '2023-09-15' && c.strike === 100 && c.right === 'P');
    if (quote === undefined) throw new Error('no Sep 15 100 put');
    // Short 1 at a mid of (bid + ask)/2: market value −mid × 100, cost basis −269.34, unrealized their difference.
    const unrealized = Math.round((269.34 - ((quote.bid + quote.ask) / 2) * 100) * 100) / 100;
    expect(open).toMatchObject({ status: 'open', pnl: 0, unrealizedPL: unrealized, collateral: 10000 });
    expect(open.returnOnCollateral).toBeCloseTo(unrealized / 10000, 8);
    const { body: positions } = await t.get<{ positions: Array<{ symbol: string; unrealizedPL: number | null }> }>('/v1/journal/positions');
    expect(positions.positions.find((p) => p.symbol === 'AMD230915P00100000')?.unrealizedPL, 'the Positions page says the same').toBe(unrealized);
  });

  it('stats by dealer regime and by strike place at entry: the three closed trades, the early one unknown', async () => {
    const zone = (await t.get<StatsResponseT>('/v1/journal/stats?groupBy=zoneAtEntry')).body;
    // The 95 put (+193.36) and the 115 call (−105.32) opened in the snapshot's regime; the Aug 10 put (+128.68) unknown.
    expect(zone.rows).toEqual([
      expect.objectContaining({ key: levels.gammaZone, trades: 2, wins: 1, losses: 1, winRate: 0.5, pnl: 88.04, avgPnl: 44.02, avgWin: 193.36, avgLoss: -105.32, largestLoss: -105.32 }),
      expect.objectContaining({ key: 'unknown', trades: 1, wins: 1, losses: 0, pnl: 128.68, avgLoss: null, profitFactor: null }),
    ]);
    expect(zone.rows[0]?.profitFactor).toBeCloseTo(193.36 / 105.32, 10);
    const places = (await t.get<StatsResponseT>('/v1/journal/stats?groupBy=strikeVsLevels')).body;
    const order = ['below_put_wall', 'put_wall_to_flip', 'flip_to_call_wall', 'above_call_wall', 'unknown'];
    const expected = new Map<string, number[]>();
    for (const [key, pnl] of [[place(95, levels) ?? 'unknown', 193.36], [place(115, levels) ?? 'unknown', -105.32], ['unknown', 128.68]] as const) expected.set(key, [...(expected.get(key) ?? []), pnl]);
    const keys = [...expected.keys()].sort((a, b) => order.indexOf(a) - order.indexOf(b));
    expect(places.rows.map((row) => [row.key, row.trades, row.pnl])).toEqual(keys.map((key) => [key, expected.get(key)?.length, Math.round((expected.get(key) ?? []).reduce((a, b) => a + b, 0) * 100) / 100]));
    const strategies = (await t.get<StatsResponseT>('/v1/journal/stats')).body;
    expect(strategies.groupBy, 'groupBy defaults to strategy').toBe('strategy');
    expect(strategies.rows.map((row) => [row.key, row.trades, row.pnl])).toEqual([
      ['short_call', 1, -105.32],
      ['short_put', 2, 322.04],
    ]);
    const late = (await t.get<StatsResponseT>('/v1/journal/stats?groupBy=month&from=2023-08-20')).body;
    expect(late.rows, 'closing day from 2023-08-20: the August closes of the 21st trades').toEqual([expect.objectContaining({ key: '2023-08', trades: 2, pnl: 88.04 })]);
  });

  it('notes and tags: bounded, normalised, searchable by tag=, grouped by tag, and kept across an undo and a re-import', async () => {
    const puts = byOrder((await trades()).trades, 95, 'P', '2023-08-21');
    const put = (path: string, body: unknown) => t.request({ method: 'PUT', url: path, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    const saved = await put(`/v1/journal/trades/${puts.id}/annotation`, { note: 'Sold below the put wall into earnings.', tags: ['Wheel ', 'earnings', 'wheel'] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<AnnotationResponseT>()).toMatchObject({ kind: 'trade', id: puts.id, note: 'Sold below the put wall into earnings.', tags: ['earnings', 'wheel'] });
    // Refusals: problem+json naming the field; nothing written.
    const refusals = [
      { note: 'x'.repeat(10_001), tags: [] },
      { note: '', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
      { note: '', tags: ['x'.repeat(41)] },
      { note: '', tags: [' '] },
      { note: '', tags: [], extra: 1 },
      { tags: [] },
    ];
    for (const body of refusals) {
      const refused = await put(`/v1/journal/trades/${puts.id}/annotation`, body);
      expect(refused.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
    }
    expect((await put('/v1/journal/trades/tx_nope/annotation', { note: 'n', tags: [] })).statusCode, 'no such trade').toBe(404);
    const call = byOrder((await trades()).trades, 115, 'C', '2023-08-21');
    const campaign = await put(`/v1/journal/chains/${encodeURIComponent(call.campaignId ?? '')}/annotation`, { note: 'AMD wheel, summer 2023', tags: ['wheel'] });
    expect(campaign.statusCode, campaign.body).toBe(200);
    expect(campaign.json<AnnotationResponseT>()).toMatchObject({ kind: 'campaign', id: call.campaignId, tags: ['wheel'] });
    expect((await put(`/v1/journal/trades/${call.id}/annotation`, { note: '', tags: ['Earnings'] })).statusCode).toBe(200);
    const read = await t.get<AnnotationResponseT>(`/v1/journal/chains/${encodeURIComponent((call.campaignId ?? '').toLowerCase())}/annotation`);
    expect(read.body, 'GET answers what the PUT stored, the id in any case').toMatchObject({ kind: 'campaign', id: call.campaignId, note: 'AMD wheel, summer 2023', tags: ['wheel'] });
    expect((await t.get(`/v1/journal/trades/${byOrder((await trades()).trades, 100, 'P', '2023-08-10').id}/annotation`)).body, 'none yet: empty').toMatchObject({ note: '', tags: [], updatedAt: null });
    expect((await t.get('/v1/journal/chains/nope/annotation')).status).toBe(404);

    const tagged = await trades('?tag=EARNINGS');
    expect(tagged.trades.map((trade) => trade.id).sort()).toEqual([puts.id, call.id].sort());
    expect((await trades('?tag=wheel')).trades.map((trade) => [trade.id, trade.note, trade.tags])).toEqual([[puts.id, 'Sold below the put wall into earnings.', ['earnings', 'wheel']]]);
    expect((await trades('?tag=nothing')).pagination.total).toBe(0);
    const byTag = (await t.get<StatsResponseT>('/v1/journal/stats?groupBy=tag')).body;
    expect(byTag.rows.map((row) => [row.key, row.trades, row.pnl])).toEqual([
      ['earnings', 2, 88.04],
      ['wheel', 1, 193.36],
      [null, 1, 128.68],
    ]);

    // Undo the file: the trades go, the notes stay; the same file again: the same ids, the notes back on them.
    expect((await t.request({ method: 'DELETE', url: `/v1/imports/${importId}` })).statusCode).toBe(200);
    expect((await trades()).pagination.total).toBe(0);
    expect((await put(`/v1/journal/trades/${puts.id}/annotation`, { note: 'n', tags: [] })).statusCode, 'a trade the journal no longer has').toBe(404);
    const again = await t.request({ method: 'POST', url: '/v1/imports?broker=generic', headers: { 'content-type': 'text/csv' }, payload: JOURNAL });
    expect(again.statusCode, again.body).toBe(201);
    const back = byOrder((await trades()).trades, 95, 'P', '2023-08-21');
    expect([back.id, back.note, back.tags]).toEqual([puts.id, 'Sold below the put wall into earnings.', ['earnings', 'wheel']]);
    expect((await t.get<StatsResponseT>('/v1/journal/stats?groupBy=tag')).body.rows.map((row) => [row.key, row.trades])).toEqual([
      ['earnings', 2],
      ['wheel', 1],
      [null, 1],
    ]);
    // An empty note without tags removes the annotation.
    const cleared = await put(`/v1/journal/trades/${call.id}/annotation`, { note: '  ', tags: [] });
    expect(cleared.json<AnnotationResponseT>()).toMatchObject({ note: '', tags: [], updatedAt: null });
    expect((await trades('?tag=earnings')).trades.map((trade) => trade.id)).toEqual([puts.id]);
  });

  it('filters and pages: strategy, status, symbol in any case, dates, an unknown account 404', async () => {
    expect((await trades('?strategy=short_call')).trades.map((trade) => trade.strategy)).toEqual(['short_call']);
    expect((await trades('?symbol=amd&status=closed&limit=2&page=2')).pagination).toEqual({ page: 2, limit: 2, total: 3, pages: 2 });
    expect((await trades('?from=2023-08-01&to=2023-08-20')).trades.map((trade) => trade.openedAt)).toEqual(['2023-08-10T14:00:00.000Z']);
    expect((await t.get('/v1/journal/trades?accountId=acc_nope')).status).toBe(404);
    expect((await t.get('/v1/journal/trades?from=2023-09-01&to=2023-08-01')).status, 'from after to').toBe(400);
    expect((await t.get('/v1/journal/stats?groupBy=weekday')).status).toBe(400);
    expect((await t.get('/v1/journal/trades?strategy=wheel')).status).toBe(400);
  });
});

describe('trades follow the data version: a snapshot stored after the import', () => {
  const t = useTestApp({ clock: manualClock('2023-08-22T20:00:00Z') });

  it('has no entry figures before the chain, and the /gex levels once it is stored (built again, not per request)', async () => {
    const imported = await t.request({ method: 'POST', url: '/v1/imports?broker=generic', headers: { 'content-type': 'text/csv' }, payload: JOURNAL });
    expect(imported.statusCode, imported.body).toBe(201);
    const before = (await t.get<TradesResponseT>('/v1/journal/trades?status=closed')).body.trades;
    expect(before.map((trade) => trade.levelsAtEntry)).toEqual([null, null, null]);
    expect((await t.get<StatsResponseT>('/v1/journal/stats?groupBy=zoneAtEntry')).body.rows.map((row) => [row.key, row.trades])).toEqual([['unknown', 3]]);
    const chain = await t.request({ method: 'POST', url: '/v1/chains?symbol=AMD', headers: { 'content-type': 'text/csv' }, payload: readChain(AMD) });
    expect(chain.statusCode, chain.body).toBe(201);
    const gex = (await t.get<{ gammaZone: string; putWall: { strike: number } | null }>('/v1/gex?symbol=AMD')).body;
    const after = (await t.get<TradesResponseT>('/v1/journal/trades?status=closed')).body.trades;
    expect(after.filter((trade) => trade.levelsAtEntry !== null).map((trade) => [trade.levelsAtEntry?.gammaZone, trade.levelsAtEntry?.putWall])).toEqual([
      [gex.gammaZone, gex.putWall?.strike ?? null],
      [gex.gammaZone, gex.putWall?.strike ?? null],
    ]);
    expect((await t.get<StatsResponseT>('/v1/journal/stats?groupBy=zoneAtEntry')).body.rows.map((row) => [row.key, row.trades])).toEqual([
      [gex.gammaZone, 2],
      ['unknown', 1],
    ]);
  });
});
