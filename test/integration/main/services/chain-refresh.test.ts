/**
 * "Refresh what you hold" (issue 21 item 4): POST /v1/chains/refresh against a local server that serves CBOE
 * delayed-quotes JSON. The JSON is built by the test from a real quotedata download (its rows read by the test's own
 * reader), so the refreshed snapshot's /gex must equal that of the quotedata file imported directly. An open short put
 * brings its underlying in without being on the watchlist; a failing symbol fails alone, with its reason.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GexResponseT, RefreshPassT } from '../../../../src-shared/api/schemas';
import { ChainRefresh } from '../../../../src-main/services/chain-refresh';
import { OnlineSource } from '../../../../src-main/services/online-source';
import { manualClock } from '../../../clock';
import { buildTestApp, type TestApp } from '../../../helper';
import { delayedQuotesFromQuotedata, smallChain } from '../../../delayed-quotes';
import { readChain } from '../../../quotedata';

const SPY_FILE = 'SPY_quotedata_2025-05-16_photon1c.csv';

/** What the local CBOE stand-in serves, by the file name asked for. */
let spyJson = '';
let requests: string[] = [];
/** Held requests of HOLD.json, answered when the test releases them. */
let held: Array<() => void> = [];
const silent: ServerResponse[] = [];

function serve(request: IncomingMessage, response: ServerResponse): void {
  const name = (request.url ?? '').replace(/^\/api\/options\//, '');
  requests.push(name);
  const json = (body: string) => response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  switch (name) {
    case 'SPY.json':
      json(spyJson || smallChain('SPY'));
      return;
    case '_SPX.json':
      json(smallChain('SPX', 'SPXW'));
      return;
    case 'QQQ.json':
      json(smallChain('QQQ'));
      return;
    case 'HOLD.json':
      held.push(() => json(smallChain('HOLD')));
      return;
    case 'BAD.json':
      // Line 4 is not JSON: the symbol's error names it.
      json('{\n "timestamp": "2099-11-20 15:00:00",\n "data": {"current_price": 100, "options": [\n   {"option": "BAD991217C00100000",, }\n ]}\n}');
      return;
    case 'SLOW.json':
      silent.push(response);
      return;
    case 'HUGE.json':
      json(`${' '.repeat(2 * 1024 * 1024)}${smallChain('HUGE')}`);
      return;
    default:
      response.writeHead(404).end('not found');
  }
}

let server: Server;
let baseUrl = '';
const clock = manualClock('2099-11-20T20:00:00Z');

beforeAll(async () => {
  spyJson = delayedQuotesFromQuotedata(SPY_FILE);
  server = createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/api/options`;
});
afterAll(async () => {
  for (const release of held) release();
  for (const response of silent) response.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function settings(t: TestApp, body: object) {
  const response = await t.request({ method: 'PUT', url: '/v1/settings', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  expect(response.statusCode, response.body).toBe(200);
}

describe('POST /v1/chains/refresh', () => {
  let t: TestApp;
  // A new app for every `it` (a pass, its settings and its snapshots are the test's own), and the requests it sends.
  beforeEach(async () => {
    requests = [];
    held = [];
    t = await buildTestApp({ clock });
    // The online source stays off: a refresh works without the periodic poller.
    await settings(t, { onlineSource: { enabled: false, baseUrl, watchlist: ['SPY', 'MISSING', 'BAD'], intervalSeconds: 300 } });
    // An open short put on QQQ, and a short SPX weekly put whose underlying an importer wrote as the root (SPXW).
    const manual = await t.request({
      method: 'POST',
      url: '/v1/journal/transactions',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        transactions: [
          { account: 'Refresh test', date: '2099-11-02', type: 'SELL_TO_OPEN', symbol: 'QQQ', expiration: '2099-12-17', strike: 95, right: 'P', quantity: 1, price: 2.1 },
          { account: 'Refresh test', date: '2099-11-02', type: 'SELL_TO_OPEN', symbol: 'SPXW', underlying: 'SPXW', expiration: '2099-12-17', strike: 90, right: 'P', quantity: 1, price: 1.5 },
        ],
      }),
    });
    expect(manual.statusCode, manual.body).toBe(201);
  });
  afterEach(async () => {
    await t.close();
  });

  it('needs a key like every /v1 route', async () => {
    const response = await t.request({ method: 'POST', url: '/v1/chains/refresh', headers: { authorization: '' } });
    expect(response.statusCode).toBe(401);
  });

  it('GET before any pass: an empty pass that never started', async () => {
    const response = await t.get<RefreshPassT>('/v1/chains/refresh');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ startedAt: null, finishedAt: null, running: false, symbols: [], omitted: [] });
  });

  it('fetches the watchlist and the open positions’ underlyings; failures are per symbol and named', async () => {
    requests = [];
    const started = await t.request({ method: 'POST', url: '/v1/chains/refresh' });
    expect(started.statusCode, started.body).toBe(202);
    expect(started.headers.location).toBe('/v1/chains/refresh');
    const pass = started.json<RefreshPassT>();
    expect(pass.running).toBe(true);
    expect(pass.symbols.map((s) => [s.symbol, s.origin])).toEqual([
      ['SPY', 'watchlist'],
      ['MISSING', 'watchlist'],
      ['BAD', 'watchlist'],
      ['QQQ', 'position'],
      ['SPX', 'position'],
    ]);
    await t.ctx.refresh.settled();
    const done = await t.get<RefreshPassT>('/v1/chains/refresh');
    expect(done.status).toBe(200);
    expect(done.body.running).toBe(false);
    expect(done.body.finishedAt).not.toBeNull();
    const bySymbol = new Map(done.body.symbols.map((s) => [s.symbol, s]));
    expect(bySymbol.get('MISSING')).toMatchObject({ state: 'failed', error: 'HTTP 404' });
    expect(bySymbol.get('BAD')?.state).toBe('failed');
    expect(bySymbol.get('BAD')?.error).toMatch(/line 4/);
    for (const symbol of ['SPY', 'QQQ', 'SPX']) expect(bySymbol.get(symbol), symbol).toMatchObject({ state: 'stored', unchanged: false });
    expect(requests.sort()).toEqual(['BAD.json', 'MISSING.json', 'QQQ.json', 'SPY.json', '_SPX.json']);
    // The refreshed snapshots answer like any other, under the underlying the marks look up.
    const qqq = await t.get<GexResponseT>('/v1/gex?symbol=QQQ');
    expect(qqq.status).toBe(200);
    expect(qqq.body.meta.source).toBe('online');
    expect(qqq.body.meta.snapshotTime).toBe('2099-11-20T15:00:00.000Z');
    const positions = await t.get<{ positions: Array<{ underlying: string; mark: unknown }> }>('/v1/journal/positions');
    expect(positions.body.positions.find((p) => p.underlying === 'QQQ')?.mark, 'the refreshed chain marks the position').not.toBeNull();

    const again = await t.request({ method: 'POST', url: '/v1/chains/refresh' });
    expect(again.statusCode).toBe(202);
    await t.ctx.refresh.settled();
    const second = await t.get<RefreshPassT>('/v1/chains/refresh');
    expect(second.body.symbols.find((s) => s.symbol === 'QQQ'), 'the same snapshot again is not stored twice').toMatchObject({ state: 'stored', unchanged: true, snapshotId: bySymbol.get('QQQ')?.snapshotId });
  });

  it('leaves the positions out when the setting says so', async () => {
    await settings(t, { watchlistIncludesPositions: false });
    const started = await t.request({ method: 'POST', url: '/v1/chains/refresh' });
    expect(started.json<RefreshPassT>().symbols.map((s) => s.symbol)).toEqual(['SPY', 'MISSING', 'BAD']);
    await t.ctx.refresh.settled();
    await settings(t, { watchlistIncludesPositions: true });
  });

  it('refuses a second pass while one runs (409 REFRESH_RUNNING); GET follows the running one', async () => {
    await settings(t, { onlineSource: { enabled: false, baseUrl, watchlist: ['HOLD'], intervalSeconds: 300 }, watchlistIncludesPositions: false });
    held = [];
    const first = await t.request({ method: 'POST', url: '/v1/chains/refresh' });
    expect(first.statusCode).toBe(202);
    await expect.poll(() => held.length).toBe(1);
    const running = await t.get<RefreshPassT>('/v1/chains/refresh');
    expect(running.body).toMatchObject({ running: true, finishedAt: null, symbols: [{ symbol: 'HOLD', state: 'fetching' }] });
    const second = await t.request({ method: 'POST', url: '/v1/chains/refresh' });
    expect(second.statusCode).toBe(409);
    expect(second.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(second.json()).toMatchObject({ code: 'REFRESH_RUNNING', status: 409 });
    for (const release of held) release();
    held = [];
    await t.ctx.refresh.settled();
    expect((await t.get<RefreshPassT>('/v1/chains/refresh')).body.symbols).toEqual([expect.objectContaining({ symbol: 'HOLD', state: 'stored' })]);
    await settings(t, { watchlistIncludesPositions: true });
  });

  it('the periodic poller polls the open positions’ underlyings too', async () => {
    await settings(t, { onlineSource: { enabled: true, baseUrl, watchlist: ['SPY'], intervalSeconds: 300 }, watchlistIncludesPositions: true });
    requests = [];
    const polled = await new OnlineSource(t.ctx, undefined, fetch).pollOnce();
    expect(polled.map((p) => [p.symbol, p.ok])).toEqual([
      ['SPY', true],
      ['QQQ', true],
      ['SPX', true],
    ]);
    expect(requests).toEqual(['SPY.json', 'QQQ.json', '_SPX.json']);
    await settings(t, { onlineSource: { enabled: false, baseUrl, watchlist: ['SPY'], intervalSeconds: 300 } });
  });

  it('without a base URL: 409 SOURCE_NOT_CONFIGURED with a clear message, nothing fetched', async () => {
    await settings(t, { onlineSource: { enabled: false, baseUrl: '', watchlist: ['SPY'], intervalSeconds: 300 } });
    requests = [];
    const response = await t.request({ method: 'POST', url: '/v1/chains/refresh' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'SOURCE_NOT_CONFIGURED', detail: expect.stringMatching(/base URL/) });
    expect(requests).toEqual([]);
    // A body is not part of the request: whatever is sent, the answer is the route's, never a 5xx.
    for (const [type, payload] of [['application/json', '{"symbols": ["X"]'], ['text/csv', 'a,b'], ['application/x-www-form-urlencoded', 'a=1']]) {
      const withBody = await t.request({ method: 'POST', url: '/v1/chains/refresh', headers: { 'content-type': type ?? '' }, payload: payload ?? '' });
      expect(withBody.statusCode, `${type}: ${withBody.body}`).toBeLessThan(500);
      expect(withBody.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
  });
});

describe('the watchlist of a big book', () => {
  it('lists the setting first, each held underlying once, and stops at 50, naming the rest', async () => {
    const t = await buildTestApp({ clock });
    try {
      await settings(t, { onlineSource: { enabled: false, baseUrl, watchlist: ['SPY', 'qqq', 'SPY'], intervalSeconds: 300 } });
      // Letters only: a trailing digit marks an adjusted root (AMD1), whose chain is the underlying's (AMD).
      const tickers = Array.from({ length: 55 }, (_, i) => `T${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`);
      const put = (symbol: string) => ({ account: 'Big book', date: '2099-11-02', type: 'SELL_TO_OPEN', symbol, expiration: '2099-12-17', strike: 95, right: 'P', quantity: 1, price: 2.1 });
      const manual = await t.request({
        method: 'POST',
        url: '/v1/journal/transactions',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ transactions: [...tickers.map(put), put('SPY'), { ...put('QQQ'), right: 'C', strike: 105 }, put('AMD1')] }),
      });
      expect(manual.statusCode, manual.body).toBe(201);
      const started = await t.request({ method: 'POST', url: '/v1/chains/refresh' });
      expect(started.statusCode).toBe(202);
      const pass = started.json<RefreshPassT>();
      // SPY and QQQ are held too, but listed once, as the setting's; an adjusted root's chain is its underlying's
      // (AMD1 → AMD); the others fill the places left alphabetically.
      expect(pass.symbols.map((s) => `${s.symbol}:${s.origin}`)).toEqual(['SPY:watchlist', 'QQQ:watchlist', 'AMD:position', ...tickers.slice(0, 47).map((x) => `${x}:position`)]);
      expect(pass.omitted).toEqual(tickers.slice(47));
      await t.ctx.refresh.settled();
    } finally {
      await t.close();
    }
  }, 60_000);
});

describe('one pass with a symbol that never answers and one over the size cap', () => {
  it('gives them up at the limits, with the reason, while the others store', async () => {
    const t = await buildTestApp({ clock });
    try {
      await settings(t, { onlineSource: { enabled: false, baseUrl, watchlist: ['SLOW', 'QQQ', 'HUGE', 'SPX'], intervalSeconds: 300 } });
      const refresh = new ChainRefresh(t.ctx, undefined, fetch, { timeoutMs: 500, maxBytes: 1024 * 1024 });
      const pass = await refresh.start();
      expect(pass.ok).toBe(true);
      // The silent server never answers: that the pass settles at all is the hang check (the reasons below say it was
      // the limit); how soon is no test's business on a shared machine.
      await refresh.settled();
      const status = refresh.status();
      const bySymbol = new Map(status?.symbols.map((s) => [s.symbol, s]));
      expect(bySymbol.get('SLOW')).toMatchObject({ state: 'failed', error: 'no whole answer within 0.5 s' });
      expect(bySymbol.get('HUGE')?.state).toBe('failed');
      expect(bySymbol.get('HUGE')?.error).toMatch(/^the response is (longer than|\d+ bytes, more than) the 1 MB read$/);
      expect(bySymbol.get('QQQ')?.state).toBe('stored');
      expect(bySymbol.get('SPX')?.state).toBe('stored');
    } finally {
      await t.close();
    }
  }, 30_000);
});

describe('a refreshed chain is the chain: /gex of the delayed-quotes JSON built from a real quotedata file equals /gex of the file', () => {
  it(SPY_FILE, async () => {
    const online = await buildTestApp({ clock });
    const direct = await buildTestApp({ clock });
    try {
      await settings(online, { onlineSource: { enabled: false, baseUrl, watchlist: ['SPY'], intervalSeconds: 300 } });
      expect((await online.request({ method: 'POST', url: '/v1/chains/refresh' })).statusCode).toBe(202);
      await online.ctx.refresh.settled();
      const refreshed = online.ctx.refresh.status().symbols[0];
      expect(refreshed?.state, refreshed?.error).toBe('stored');
      const posted = await direct.request({ method: 'POST', url: '/v1/chains', headers: { 'content-type': 'text/csv' }, payload: readChain(SPY_FILE) });
      expect(posted.statusCode, posted.body).toBe(201);
      for (const scope of ['', '&minDte=0', '&formula=per_1pct&expirationsCount=5']) {
        const a = await online.get<GexResponseT>(`/v1/gex?symbol=SPY${scope}`);
        const b = await direct.get<GexResponseT>(`/v1/gex?symbol=SPY${scope}`);
        expect(a.status).toBe(200);
        const { asOf: _a, meta: metaA, ...restA } = a.body;
        const { asOf: _b, meta: metaB, ...restB } = b.body;
        expect(metaA.source).toBe('online');
        expect({ ...metaA, source: 'same' }, scope).toEqual({ ...metaB, source: 'same' });
        expect(restA, scope).toEqual(restB);
        expect(restA.data.length, 'a real chain, not an empty one').toBeGreaterThan(20);
      }
    } finally {
      await online.close();
      await direct.close();
    }
  }, 60_000);
});
