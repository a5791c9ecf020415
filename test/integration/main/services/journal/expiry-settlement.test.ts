/**
 * Expiry needs evidence (DESIGN §5, "Expiry"; docs/journal.md §Positions), over HTTP with the app in-process:
 * - a snapshot of the underlying quoted within one New York trading day of the expiry instant, before or after it, is
 *   evidence: the evening before (16:15 on the Thursday of a Friday expiry) and the morning after count; one of two
 *   trading days before does not (the option waits under needsAttention, with the last snapshot before its expiry);
 * - POST /v1/journal/expirations books options past expiry expired worthless (one manual import; undo removes it);
 * - a campaign whose expiry is unknown takes no later trade: a 2026 SPX put starts its own campaign.
 * Figures by hand in the comments.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignsResponseT, ExpiredByHandResponseT, ImportsResponseT, PositionsResponseT, SummaryResponseT } from '../../../../../src-shared/api/schemas';
import type { OptionContract } from '../../../../../src-shared/exposure/model';
import { manualClock } from '../../../../clock';
import { useTestApp } from '../../../../helper';

const JOURNAL = [
  'date,account,type,symbol,quantity,price,commission,fees,amount,currency',
  // Three puts and a call of Friday 19 July 2024 (16:00 New York = 20:00Z), 1.00 of premium each (0.80 the call).
  '2024-07-01T14:00:00Z,Book,SELL_TO_OPEN,AAA240719P00045000,1,1.00,0,0,100,USD',
  '2024-07-01T14:00:00Z,Book,SELL_TO_OPEN,BBB240719P00045000,1,1.00,0,0,100,USD',
  '2024-07-01T14:00:00Z,Book,SELL_TO_OPEN,CCC240719C00055000,1,0.80,0,0,80,USD',
  // An SPX put of January 2022 (AM-settled: 09:30 New York = 14:30Z) that no row settles, and one of 2026.
  '2022-01-03T15:00:00Z,Book,SELL_TO_OPEN,SPX220121P04300000,1,10.00,0,0,1000,USD',
  '2026-03-02T15:00:00Z,Book,SELL_TO_OPEN,SPX260320P05800000,1,20.00,0,0,2000,USD',
].join('\n');

const bySymbol = <T extends { symbol: string }>(items: readonly T[]): T[] => [...items].sort((a, b) => a.symbol.localeCompare(b.symbol));

function snapshot(symbol: string, quoteTime: string, spot: number) {
  const contract: OptionContract = { root: symbol, expiration: '2026-12-18', strike: spot, right: 'C', openInterest: 100, iv: 0.3, bid: 1, ask: 1.2, multiplier: 100 };
  return { symbol, spot, quoteTime, source: 'generic' as const, contracts: [contract] };
}

describe('expiry evidence within one trading day of the expiry, before or after; expired worthless by hand', () => {
  const clock = manualClock('2026-03-10T16:00:00Z');
  const app = useTestApp({ clock });
  const positions = async (query = '') => {
    const response = await app.get<PositionsResponseT>(`/v1/journal/positions?${query}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  };
  const send = (method: 'POST' | 'DELETE', url: string, body?: unknown) =>
    app.request({ method, url, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) }) });
  let book = '';

  // The journal and three snapshots around the July expiry, before every test (each reads them on its own).
  beforeAll(async () => {
    const imported = await app.request({ method: 'POST', url: '/v1/imports?broker=generic', headers: { 'content-type': 'text/csv' }, payload: JOURNAL });
    expect(imported.statusCode, imported.body).toBe(201);
    book = (await positions()).accounts.find((a) => a.name === 'Book')?.id ?? '';
    // AAA: Thursday 18 July 16:15 New York, the evening before (spot 50 > 45: out of the money).
    // BBB: Wednesday 17 July 16:15, two trading days before: no evidence.
    // CCC: Monday 22 July 09:45, the morning after (spot 50 < 55: out of the money).
    for (const [symbol, quoteTime] of [['AAA', '2024-07-18T20:15:00Z'], ['BBB', '2024-07-17T20:15:00Z'], ['CCC', '2024-07-22T13:45:00Z']] as const) {
      expect((await app.ctx.exposure.ingest({ snapshot: snapshot(symbol, quoteTime, 50) })).ok, symbol).toBe(true);
    }
  });

  it('the evening before and the morning after are evidence; two trading days before is not', async () => {
    const now = await positions(`accountId=${book}`);
    expect(now.inferredExpirations.map((i) => [i.symbol, i.tradeDate, i.spot, i.quoteTime])).toEqual([
      ['AAA240719P00045000', '2024-07-19T20:00:00.000Z', 50, '2024-07-18T20:15:00.000Z'],
      ['CCC240719C00055000', '2024-07-19T20:00:00.000Z', 50, '2024-07-22T13:45:00.000Z'],
    ]);
    expect(bySymbol(now.needsAttention).map((n) => [n.kind, n.symbol, n.quantity, n.lastSnapshot])).toEqual([
      // The last snapshot before its expiry: Wednesday's, spot 50 above the 45 strike.
      ['expiry_unknown', 'BBB240719P00045000', -1, { spot: 50, quoteTime: '2024-07-17T20:15:00.000Z', outOfTheMoney: true }],
      // No SPX snapshot at all.
      ['expiry_unknown', 'SPX220121P04300000', -1, null],
    ]);
  });

  it('evidence quoted the evening before counts from the expiry: the option is open until then', async () => {
    // Friday 19 July 15:00 New York: AAA still open, nothing inferred yet.
    const before = await positions(`accountId=${book}&asOf=2024-07-19T19:00:00Z`);
    expect(before.positions.map((p) => p.symbol)).toContain('AAA240719P00045000');
    expect(before.inferredExpirations).toEqual([]);
    // Friday 17:00: expired, out of the money by Thursday's snapshot; the morning-after one is not quoted yet (CCC waits).
    const after = await positions(`accountId=${book}&asOf=2024-07-19T21:00:00Z`);
    expect(after.inferredExpirations.map((i) => i.symbol)).toEqual(['AAA240719P00045000']);
    expect(bySymbol(after.needsAttention).map((n) => [n.kind, n.symbol])).toEqual([
      ['expiry_unknown', 'BBB240719P00045000'],
      ['expiry_unknown', 'CCC240719C00055000'],
      ['expiry_unknown', 'SPX220121P04300000'],
    ]);
  });

  it('a 2026 put after the 2022 campaign whose expiry is unknown starts its own campaign', async () => {
    const chains = (await app.get<CampaignsResponseT>(`/v1/journal/chains?accountId=${book}&symbol=SPX`)).body.chains;
    expect(chains.map((c) => [c.openedAt, c.closedAt, c.premiums, c.collateralPeak])).toEqual([
      // 5,800 × 100: the 2026 put alone.
      ['2026-03-02', null, 2000, 580_000],
      ['2022-01-03', null, 1000, 430_000],
    ]);
    const open = await positions(`accountId=${book}&symbol=SPX`);
    expect(open.positions.map((p) => [p.symbol, p.chainId])).toEqual([['SPX260320P05800000', `${book}:USD:SPX:2026-03-02`]]);
  });

  it('POST /v1/journal/expirations refuses an option that waits for nothing, naming it; nothing is booked', async () => {
    const response = await send('POST', '/v1/journal/expirations', { items: [{ accountId: book, symbol: 'SPX260320P05800000' }] });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json<{ code: string; errors: Array<{ param: string }> }>()).toMatchObject({ code: 'INVALID_PARAMETER', errors: [{ param: 'items.0.symbol' }] });
    expect((await app.get<ImportsResponseT>('/v1/imports')).body.imports.map((i) => i.kind)).toEqual(['file']);
  });

  const bookBoth = () =>
    send('POST', '/v1/journal/expirations', {
      items: [
        { accountId: book, symbol: 'bbb240719p00045000' },
        { accountId: book, symbol: 'SPX220121P04300000' },
      ],
    });
  // What a test booked by hand is undone after it: the others see the journal as imported.
  afterEach(async () => {
    for (const { id, kind } of (await app.get<ImportsResponseT>('/v1/imports')).body.imports) if (kind === 'manual') await send('DELETE', `/v1/imports/${id}`);
  });

  it('books BBB and the 2022 SPX put expired worthless: one manual import; their premiums are realized on their expiry days', async () => {
    const response = await bookBoth();
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json<ExpiredByHandResponseT>();
    const importId = body.importId;
    expect(body.ids).toHaveLength(2);
    expect(body.expired).toEqual([
      { accountId: book, symbol: 'BBB240719P00045000', currency: 'USD', quantity: 1, tradeDate: '2024-07-19T20:00:00.000Z' },
      { accountId: book, symbol: 'SPX220121P04300000', currency: 'USD', quantity: 1, tradeDate: '2022-01-21T14:30:00.000Z' },
    ]);
    expect((await app.get<ImportsResponseT>('/v1/imports')).body.imports[0]).toMatchObject({ id: importId, kind: 'manual', rows: 2 });
    expect((await positions(`accountId=${book}`)).needsAttention).toEqual([]);
    const chains = (await app.get<CampaignsResponseT>(`/v1/journal/chains?accountId=${book}&symbol=SPX`)).body.chains;
    expect(chains.map((c) => [c.openedAt, c.closedAt, c.realizedPL])).toEqual([
      ['2026-03-02', null, 0],
      ['2022-01-03', '2022-01-21', 1000],
    ]);
    // 2024: AAA 100 and CCC 80 inferred, BBB 100 booked by hand.
    expect((await app.get<SummaryResponseT>(`/v1/journal/summary?year=2024&accountId=${book}`)).body.stats.totalRealizedPnl).toBe(280);
  });

  it('undo of that import brings both back under needsAttention', async () => {
    const booked = await bookBoth();
    expect(booked.statusCode, booked.body).toBe(201);
    const importId = booked.json<ExpiredByHandResponseT>().importId;
    const undo = await send('DELETE', `/v1/imports/${importId}`);
    expect(undo.statusCode, undo.body).toBe(200);
    expect(undo.json()).toEqual({ id: importId, removed: 2 });
    expect(bySymbol((await positions(`accountId=${book}`)).needsAttention).map((n) => n.symbol)).toEqual(['BBB240719P00045000', 'SPX220121P04300000']);
    expect((await app.get<SummaryResponseT>(`/v1/journal/summary?year=2024&accountId=${book}`)).body.stats.totalRealizedPnl).toBe(180);
  });
});
