import { createServer, type Server } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createContext, type OwnedContext } from '../../../../src-main/context';
import { chainUrl, OnlineSource } from '../../../../src-main/services/online-source';
import { manualClock } from '../../../clock';
import { tempDir } from '../../../paths';
import { asTicker } from '../../../../src-shared/ids';

/** A small CBOE delayed-quotes document: calls and puts around spot 5000 for each expiration (YYMMDD). */
function cboeJson(spot: number, quoteTime: string, expirations = ['991217']): string {
  const options = [];
  for (const expiration of expirations) {
    for (const strike of [4900, 4950, 5000, 5050, 5100]) {
      for (const right of ['C', 'P'] as const) {
        options.push({ option: `SPXW${expiration}${right}0${strike}000`, iv: 0.15, open_interest: 1000 + strike / 10, bid: 10, ask: 11 });
      }
    }
  }
  return JSON.stringify({ timestamp: quoteTime, data: { symbol: '_SPX', current_price: spot, options } });
}

let server: Server;
let baseUrl = '';
let mode: 'ok' | 'fail' | 'garbage' | 'session' | 'future' | 'endless' | 'silent' = 'ok';
/** Bytes the 'endless' server wrote before the poller hung up (it stops at 256 MB: a test must end). */
let endlessSent = 0;
const ENDLESS_LIMIT = 256 * 1024 * 1024;
let requests: string[] = [];
let ctx: OwnedContext;
/** The poller's now (back-off, the quote time's plausibility) is the context's clock. */
const clock = manualClock('2099-11-20T20:00:00Z');

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(request.url ?? '');
    if (mode === 'fail') {
      response.writeHead(503).end('down');
      return;
    }
    if (mode === 'silent') return; // never answers
    if (mode === 'endless') {
      // A body without end: chunks as fast as the client takes them, no Content-Length.
      endlessSent = 0;
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      response.writeHead(200, { 'content-type': 'application/json' });
      const pump = () => {
        while (endlessSent < ENDLESS_LIMIT) {
          endlessSent += chunk.length;
          if (!response.write(chunk)) {
            response.once('drain', pump);
            return;
          }
        }
        response.end();
      };
      response.on('close', () => response.removeAllListeners('drain'));
      pump();
      return;
    }
    // CBOE's `timestamp` is UTC. 'session': 2099-11-20 19:30 UTC = 14:30 New York, with a 0DTE expiration.
    // 'future': 5 hours after the poll (a source writing New York time where CBOE writes UTC).
    const bodies = { session: cboeJson(5010, '2099-11-20 19:30:00', ['991120', '991217']), future: cboeJson(5020, '2099-11-21 00:31:00'), garbage: '{"data": 1' };
    const body = mode === 'session' || mode === 'future' || mode === 'garbage' ? bodies[mode] : cboeJson(5000, '2099-11-20 15:00:00');
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/api/options`;
});
// Every `it` has its own context (data folder, settings, back-off), server mode and request list, the clock at its start.
beforeEach(() => {
  mode = 'ok';
  requests = [];
  clock.set('2099-11-20T20:00:00Z');
  ctx = createContext({ dataDir: tempDir(), clock });
});
afterEach(() => {
  ctx.close();
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** What GET /v1/expirations answers for the symbol. */
async function expirationsOf(symbol: string) {
  const result = await ctx.exposure.expirations(asTicker(symbol));
  if (!result.ok) throw new Error(`no snapshot of ${symbol}`);
  return { expirations: result.value.snapshot.expirations, snapshotTime: result.value.snapshot.quoteTime };
}

/** The source on, polling SPX from the test's server. */
function enable(): void {
  ctx.updateSettings({ onlineSource: { enabled: true, baseUrl, watchlist: ['SPX'], intervalSeconds: 60 } });
}

describe('online chain source (CBOE delayed quotes, tested against a local server)', () => {
  it('builds CBOE URLs: indices with a leading underscore, equities without', () => {
    expect(chainUrl('https://x/api/', 'spx')).toBe('https://x/api/_SPX.json');
    expect(chainUrl('https://x/api', 'SPY')).toBe('https://x/api/SPY.json');
  });

  it('does nothing while disabled (the default)', async () => {
    const source = new OnlineSource(ctx, undefined);
    expect(ctx.settings.onlineSource.enabled).toBe(false);
    expect(await source.pollOnce()).toEqual([]);
    expect(requests).toEqual([]);
  });

  it('stores a snapshot per watchlist symbol, backs off on errors and keeps serving the last good one', async () => {
    enable();
    const source = new OnlineSource(ctx, undefined, fetch);
    const [ok] = await source.pollOnce();
    expect(ok).toMatchObject({ symbol: 'SPX', ok: true });
    expect(requests).toEqual(['/api/options/_SPX.json']);
    const chains = ctx.exposure.snapshotSummaries();
    expect(chains).toEqual([expect.objectContaining({ symbol: 'SPX', source: 'online', contracts: 10, spot: 5000 })]);

    mode = 'fail';
    const [failed] = await source.pollOnce();
    expect(failed).toMatchObject({ symbol: 'SPX', ok: false });
    expect(failed?.message).toMatch(/HTTP 503; retry in 30 s/);
    requests = [];
    expect(await source.pollOnce(), 'within the back-off window the symbol is not polled').toEqual([]);
    expect(requests).toEqual([]);
    clock.advance(31_000);
    mode = 'garbage';
    const [bad] = await source.pollOnce();
    expect(bad?.ok).toBe(false);
    expect(bad?.message, 'the back-off doubles').toMatch(/retry in 60 s/);

    expect((await expirationsOf('SPX')).expirations, 'the last good snapshot still answers').toEqual(['2099-12-17']);
    mode = 'ok';
    clock.advance(61_000);
    const [recovered] = await source.pollOnce();
    expect(recovered?.ok).toBe(true);
    expect(recovered?.message).toMatch(/unchanged/);
  });

  it('reads the CBOE timestamp as UTC: a snapshot polled during the session keeps its same-day expiration', async () => {
    enable();
    mode = 'session';
    clock.set('2099-11-20T19:31:00Z');
    const source = new OnlineSource(ctx, undefined, fetch);
    const [polled] = await source.pollOnce();
    expect(polled?.ok, polled?.message).toBe(true);
    const expirations = await expirationsOf('SPX');
    expect(expirations.snapshotTime, '19:30 UTC, not 19:30 New York (00:30 UTC the next day)').toBe('2099-11-20T19:30:00.000Z');
    expect(Date.parse(expirations.snapshotTime), 'not after the poll').toBeLessThanOrEqual(clock.nowMs());
    expect(expirations.expirations, 'the 0DTE expiration closes at 16:00 New York, after the quote').toEqual(['2099-11-20', '2099-12-17']);

    mode = 'future';
    const [future] = await new OnlineSource(ctx, undefined, fetch).pollOnce();
    expect(future?.ok).toBe(false);
    expect(future?.message).toMatch(/^the quote time 2099-11-21T00:31:00Z is 5\.0 h after the poll: the source's timestamp is not UTC; retry in/);
    expect((await expirationsOf('SPX')).snapshotTime, 'the snapshot from the future was not stored').toBe('2099-11-20T19:30:00.000Z');
    mode = 'ok';
  });

  it('reads at most 32 MB of a response: a body without end is cut off there and the poll fails with the reason', async () => {
    enable();
    mode = 'endless';
    clock.advance(3_600_000);
    const source = new OnlineSource(ctx, undefined, fetch);
    const [endless] = await source.pollOnce();
    expect(endless?.ok).toBe(false);
    expect(endless?.message).toMatch(/^the response is longer than the 32 MB read; retry in/);
    // What crossed the socket before the poller hung up: the 32 MB read plus what the socket buffers held.
    expect(endlessSent / 1024 / 1024, 'MB the server could write before the poller hung up').toBeLessThan(48);
    mode = 'ok';
  }, 60_000);

  it('gives up a server that never answers after the request time limit', async () => {
    enable();
    mode = 'silent';
    clock.advance(3_600_000);
    // The silent server never answers: that the poll returns at all, with the limit's reason, is the check (without
    // the limit it would hang until the test's timeout). How soon is no test's business on a shared machine.
    const [silent] = await new OnlineSource(ctx, undefined, fetch, { timeoutMs: 500, maxBytes: 32 * 1024 * 1024 }).pollOnce();
    expect(silent?.ok).toBe(false);
    expect(silent?.message, 'given up at its 0.5 s limit, not waited for').toMatch(/^no whole answer within 0.5 s; retry in/);
    mode = 'ok';
  }, 60_000);
});

