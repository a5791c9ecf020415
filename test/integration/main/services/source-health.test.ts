/**
 * Failures said once (issue 30, item 4): a source that cannot be reached — a closed loopback port, a name that does not
 * resolve — is one line for the whole pass ("cannot reach <host>: <why>"), its symbols skipped rather than 23 rows of
 * "fetch failed"; the line is in the pass (the page that asked) and in GET /v1/status; the poller and the schedule wait
 * for the backoff (30 s, then doubling) instead of failing every round; one log line, not one per symbol or round.
 */
import { createServer as createNetServer } from 'node:net';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppStatusT, RefreshPassT } from '../../../../src-shared/api/schemas';
import { ChainRefresh } from '../../../../src-main/services/chain-refresh';
import { OnlineSource } from '../../../../src-main/services/online-source';
import { RefreshSchedule } from '../../../../src-main/services/refresh-schedule';
import { createSourceFetch, type HostLookup } from '../../../../src-main/services/source-fetch';
import { FIRST_RETRY_MS, SourceHealth } from '../../../../src-main/services/source-health';
import { manualClock } from '../../../clock';
import { buildTestApp, type TestApp } from '../../../helper';
import { smallChain } from '../../../delayed-quotes';

const WATCHLIST = ['SPY', 'QQQ', 'IWM', 'AAPL', 'MSFT'];
// A Wednesday, 09:00 New York.
const clock = manualClock('2099-11-18T14:00:00Z');
let t: TestApp;
let closedPort = 0;

/** A port nothing listens on: opened, noted, closed. */
async function freeClosedPort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function settings(body: object): Promise<void> {
  const response = await t.request({ method: 'PUT', url: '/v1/settings', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  expect(response.statusCode, response.body).toBe(200);
}

/** A ChainRefresh of the test's app with a health and a log of its own. */
function refreshWith(fetchImpl = createSourceFetch()) {
  const log: string[] = [];
  const health = new SourceHealth(clock, (line) => log.push(line));
  const refresh = new ChainRefresh({ settings: t.ctx.settings, clock, exposure: t.ctx.exposure, journal: t.ctx.journal, sourceHealth: health }, (line) => log.push(line), fetchImpl);
  return { refresh, health, log };
}

beforeAll(async () => {
  t = await buildTestApp({ clock });
  closedPort = await freeClosedPort();
});
afterAll(async () => {
  await t.close();
});

describe('a source that cannot be reached', () => {
  it('a closed port: one line for the pass, every symbol skipped, the status line says it', async () => {
    await settings({ onlineSource: { enabled: false, baseUrl: `http://127.0.0.1:${closedPort}/api/options`, watchlist: WATCHLIST, intervalSeconds: 300 }, watchlistIncludesPositions: false });
    const started = await t.request({ method: 'POST', url: '/v1/chains/refresh' });
    expect(started.statusCode, started.body).toBe(202);
    await t.ctx.refresh.settled();
    const pass = (await t.get<RefreshPassT>('/v1/chains/refresh')).body;
    expect(pass.sourceProblem).toBe(`cannot reach 127.0.0.1:${closedPort}: connection refused (nothing answers on port ${closedPort})`);
    expect(pass.symbols.map((s) => s.state), 'no symbol is a failure of its own').toEqual(WATCHLIST.map(() => 'skipped'));
    expect(pass.symbols.every((s) => s.error === undefined)).toBe(true);
    expect(pass.retryAt).toBe(new Date(clock.nowMs() + FIRST_RETRY_MS).toISOString());

    const status = (await t.get<AppStatusT>('/v1/status')).body;
    expect(status.source).toMatchObject({ state: 'unreachable', host: `127.0.0.1:${closedPort}`, message: pass.sourceProblem, retryAt: pass.retryAt });
    expect(status.refresh.sourceProblem).toBe(pass.sourceProblem);
    const lines = status.messages.filter((m) => m.text.includes('cannot reach'));
    expect(lines).toEqual([{ level: 'error', text: `Online source: ${pass.sourceProblem}; tried again with backoff`, page: 'settings' }]);
  });

  it('a name that does not resolve: the DNS failure in one line, logged once', async () => {
    await settings({ onlineSource: { enabled: false, baseUrl: 'https://quotes.example.invalid/api/options', watchlist: WATCHLIST, intervalSeconds: 300 } });
    // The resolver of the test answers as the system's does for an unknown name.
    const lookup: HostLookup = (hostname, _options, callback) => callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    const { refresh, log } = refreshWith(createSourceFetch({ lookup }));
    expect((await refresh.start()).ok).toBe(true);
    await refresh.settled();
    const pass = refresh.status();
    expect(pass.sourceProblem).toBe('cannot reach quotes.example.invalid: the name does not resolve (DNS lookup failed)');
    expect(pass.symbols.filter((s) => s.state === 'skipped')).toHaveLength(WATCHLIST.length);
    expect(log.filter((line) => line.includes('cannot reach')), 'said once, not once per symbol').toHaveLength(1);
  });

  it('the poller waits for the backoff, doubling, and says nothing more until the source answers', async () => {
    await settings({ onlineSource: { enabled: true, baseUrl: `http://127.0.0.1:${closedPort}/api/options`, watchlist: WATCHLIST, intervalSeconds: 300 } });
    const log: string[] = [];
    const health = new SourceHealth(clock, (line) => log.push(line));
    let fetches = 0;
    const counting = createSourceFetch();
    const poller = new OnlineSource({ ...t.ctx, settings: t.ctx.settings, sourceHealth: health }, (line) => log.push(line), (url, init) => {
      fetches += 1;
      return counting(url, init);
    });
    expect(await poller.pollOnce()).toEqual([]);
    expect(fetches, 'the round stops at the first symbol').toBe(1);
    expect(health.status().retryAt).toBe(new Date(clock.nowMs() + FIRST_RETRY_MS).toISOString());
    clock.advance(FIRST_RETRY_MS - 1);
    expect(await poller.pollOnce()).toEqual([]);
    expect(fetches, 'nothing is fetched before the retry time').toBe(1);
    clock.advance(1);
    await poller.pollOnce();
    expect(fetches).toBe(2);
    expect(health.status()).toMatchObject({ state: 'unreachable', failures: 2, retryAt: new Date(clock.nowMs() + 2 * FIRST_RETRY_MS).toISOString() });
    expect(log.filter((line) => line.includes('cannot reach')), 'the same reason is not said again').toHaveLength(1);
  });

  it('the schedule runs on its times, tries an unreachable source again with backoff, and stops when it answers', async () => {
    let server: Server | null = null;
    const port = closedPort;
    await settings({ onlineSource: { enabled: false, baseUrl: `http://127.0.0.1:${port}/api/options`, watchlist: ['SPY'], intervalSeconds: 300 }, refreshSchedule: ['09:45', '15:45'] });
    const { refresh, health } = refreshWith();
    const schedule = new RefreshSchedule({ settings: t.ctx.settings, clock, refresh, sourceHealth: health });
    clock.set('2099-11-18T14:00:00Z');
    await schedule.tick();
    expect(schedule.status()).toMatchObject({ nextRunAt: '2099-11-18T14:45:00.000Z', lastRunAt: null });
    clock.set('2099-11-18T14:45:00Z');
    await schedule.tick();
    expect(refresh.status().trigger).toBe('schedule');
    expect(schedule.status()).toMatchObject({ nextRunAt: '2099-11-18T20:45:00.000Z', retryAt: '2099-11-18T14:45:30.000Z' });
    expect(schedule.status().lastOutcome).toContain('cannot reach');
    try {
      // The source comes back before the retry: the retry gets through, and no further retry is planned.
      server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(smallChain('SPY', 'SPY', '2099-11-18 14:40:00')));
      await new Promise<void>((resolve) => server?.listen(port, '127.0.0.1', resolve));
      clock.set('2099-11-18T14:45:29Z');
      await schedule.tick();
      expect(refresh.status().startedAt, 'not before the retry time').toBe('2099-11-18T14:45:00.000Z');
      clock.set('2099-11-18T14:45:30Z');
      await schedule.tick();
      expect(refresh.status().symbols.map((s) => s.state)).toEqual(['stored']);
      expect(schedule.status()).toMatchObject({ retryAt: null, lastOutcome: '1 of 1 symbols stored', nextRunAt: '2099-11-18T20:45:00.000Z' });
      expect(health.status().state).toBe('ok');
      // Thanksgiving (Thursday 2099-11-26) and the weekend are skipped: Wednesday's last time, then Friday's first.
      clock.set('2099-11-25T20:46:00Z');
      await schedule.tick();
      expect(schedule.status().nextRunAt).toBe('2099-11-27T14:45:00.000Z');
    } finally {
      await schedule.stop();
      server?.closeAllConnections();
      await new Promise((resolve) => (server === null ? resolve(undefined) : server.close(resolve)));
    }
  });
});
