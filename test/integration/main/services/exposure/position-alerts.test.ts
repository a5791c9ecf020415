import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventReportJson, ExposureEventJson } from '../../../../../src-shared/api/event-schemas';
import type { PositionJson } from '../../../../../src-shared/api/position-schemas';
import type { ChainSnapshot, OptionContract } from '../../../../../src-shared/exposure/model';
import { startServer, type RunningServer } from '../../../../../src-main/serve';
import { manualClock } from '../../../../clock';
import { CHAIN_FIXTURES, tempDir } from '../../../../paths';
import { buildTestApp, storeChain, type TestApp } from '../../../../helper';

const EXPIRATION = '2099-12-18';

function contract(right: 'C' | 'P', strike: number, openInterest: number): OptionContract {
  return { root: 'TEST', expiration: EXPIRATION, strike, right, openInterest, iv: 0.25, bid: 1, ask: 1.1, multiplier: 100 };
}

/** Spot 100: calls at 110, the put wall at `wall` (5,000 OI: nearer spot and five times the 90 puts' OI). */
function chain(quoteTime: string, wall: number): ChainSnapshot {
  return { symbol: 'TEST', spot: 100, quoteTime, source: 'generic', contracts: [contract('C', 110, 3000), contract('P', wall, 5000), contract('P', 90, 1000)] };
}

const clock = manualClock('2099-11-20T17:00:00Z');
let server: RunningServer;
const auth = () => ({ headers: { authorization: `Bearer ${server.apiKey}` } });
const getJson = async <T,>(path: string): Promise<T> => (await (await fetch(`${server.apiBaseUrl}${path}`, auth())).json()) as T;

beforeAll(async () => {
  server = await startServer({ dataDir: tempDir(), port: 0, uiDir: null, clock });
});
afterAll(async () => {
  await server?.close();
});

describe('alerts on your strikes through the API', () => {
  it('two accounts short the 100 put: the put wall moving from 95 to 99.5 stores a position event each, listed, streamed and on Positions', async () => {
    const shortPut = (account: string, quantity: number) => ({ account, date: '2099-11-19', type: 'SELL_TO_OPEN', symbol: 'TEST', expiration: EXPIRATION, strike: 100, right: 'P', quantity, price: 1.5 });
    const added = await fetch(`${server.apiBaseUrl}/journal/transactions`, {
      method: 'POST',
      headers: { ...auth().headers, 'content-type': 'application/json' },
      body: JSON.stringify({ transactions: [shortPut('Alpha', 2), shortPut('Beta', 3)] }),
    });
    expect(added.status).toBe(201);

    storeChain(server.ctx, chain('2099-11-20T15:00:00.000Z', 95));
    await server.ctx.positionAlerts.idle();
    expect((await getJson<{ events: ExposureEventJson[] }>('/gex/events?eventType=position')).events, 'the first snapshot only sets the states').toEqual([]);

    const controller = new AbortController();
    const stream = await fetch(`${server.apiBaseUrl}/gex/events/stream?eventType=position`, { ...auth(), signal: controller.signal });
    const reader = stream.body?.getReader();
    const received: string[] = [];
    const reading = (async () => {
      const decoder = new TextDecoder();
      for (;;) {
        const chunk = await reader?.read().catch(() => undefined);
        if (!chunk || chunk.done) return;
        received.push(decoder.decode(chunk.value));
      }
    })();

    storeChain(server.ctx, chain('2099-11-20T15:30:00.000Z', 99.5));
    await server.ctx.positionAlerts.idle();
    const { events } = await getJson<{ events: ExposureEventJson[] }>('/gex/events?eventType=position');
    // One per account (same snapshot: ordered by id, so compared as a set).
    const rows = events.map((e) => (e.eventType === 'position' ? [e.quantity, e.level, e.alert, e.previousValue, e.newValue, e.strike, e.right] : null));
    expect(rows.sort()).toEqual([
      [-2, 'putWall', 'within', 95, 99.5, 100, 'P'],
      [-3, 'putWall', 'within', 95, 99.5, 100, 'P'],
    ]);
    expect(events[0]?.explanation).toBe('TEST put wall 95 → 99.5 came within 1% of your short 100 put (2099-12-18): 0.5% below');
    expect(events[0]?.dte, '28 days to the option').toBe(28);
    expect(new Set(events.map((e) => e.id)).size).toBe(2);
    expect((await getJson<{ events: ExposureEventJson[] }>('/gex/events?eventType=flip')).events.every((e) => e.eventType === 'flip')).toBe(true);

    for (let waited = 0; waited < 5_000 && (received.join('').match(/event: position\n/g) ?? []).length < 2; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await reading;
    expect(received.join('').match(/event: position\n/g)).toHaveLength(2);

    const positions = await getJson<{ positions: PositionJson[] }>('/journal/positions?symbol=TEST');
    const puts = positions.positions.filter((p) => p.right === 'P');
    expect(puts).toHaveLength(2);
    for (const put of puts) {
      expect(put.alerts, put.accountName).toEqual([expect.objectContaining({ kind: 'position_within', message: expect.stringContaining('came within 1% of your short 100 put') as string })]);
    }

    // The wall wobbles back to 98.9 and up to 99.1: still near (it must go beyond 2% to be away), no new alert.
    storeChain(server.ctx, chain('2099-11-20T16:00:00.000Z', 98.9));
    storeChain(server.ctx, chain('2099-11-20T16:30:00.000Z', 99.1));
    await server.ctx.positionAlerts.idle();
    expect((await getJson<{ events: ExposureEventJson[] }>('/gex/events?eventType=position')).events).toHaveLength(2);
  });
});

describe('alerts hold a short option against its own expiration’s levels (DESIGN §5 "Levels scope")', () => {
  const alertClock = manualClock('2099-11-20T17:00:00Z');
  let own: RunningServer;
  const headers = () => ({ authorization: `Bearer ${own.apiKey}` });
  beforeAll(async () => {
    own = await startServer({ dataDir: tempDir(), port: 0, uiDir: null, clock: alertClock });
  });
  afterAll(async () => {
    await own?.close();
  });
  const NEAR = ['2099-11-27', '2099-12-04', '2099-12-11'];
  const FAR = '2099-12-24';
  /** Three near expirations with a put wall at 80 that never moves; the short put's own (the fourth) with its wall at `wall`. */
  function fourExpirations(quoteTime: string, wall: number): ChainSnapshot {
    const c = (expiration: string, right: 'C' | 'P', strike: number, openInterest: number): OptionContract => ({ root: 'FOUR', expiration, strike, right, openInterest, iv: 0.25, bid: 1, ask: 1.1, multiplier: 100 });
    const near = NEAR.flatMap((e) => [c(e, 'C', 110, 3000), c(e, 'P', 80, 9000)]);
    return { symbol: 'FOUR', spot: 100, quoteTime, source: 'generic', contracts: [...near, c(FAR, 'C', 110, 3000), c(FAR, 'P', wall, 5000), c(FAR, 'P', 90, 1000)] };
  }

  it('the fourth expiration’s put wall moves from 95 to 99.5 near the short 100 put: one alert, though the nearest three’s wall stays at 80', async () => {
    const added = await fetch(`${own.apiBaseUrl}/journal/transactions`, {
      method: 'POST',
      headers: { ...headers(), 'content-type': 'application/json' },
      body: JSON.stringify({ transactions: [{ account: 'Alpha', date: '2099-11-19', type: 'SELL_TO_OPEN', symbol: 'FOUR', expiration: FAR, strike: 100, right: 'P', quantity: 1, price: 1.5 }] }),
    });
    expect(added.status).toBe(201);
    storeChain(own.ctx, fourExpirations('2099-11-20T15:00:00.000Z', 95));
    await own.ctx.positionAlerts.idle();
    storeChain(own.ctx, fourExpirations('2099-11-20T15:30:00.000Z', 99.5));
    await own.ctx.positionAlerts.idle();
    const get = async <T,>(path: string): Promise<T> => (await (await fetch(`${own.apiBaseUrl}${path}`, { headers: headers() })).json()) as T;
    const nearest = await get<{ putWall: { strike: number } | null }>('/gex?symbol=FOUR');
    expect(nearest.putWall?.strike, 'the /gex default scope (the nearest three): nothing moved').toBe(80);
    const { events } = await get<{ events: ExposureEventJson[] }>('/gex/events?eventType=position');
    expect(events.map((e) => (e.eventType === 'position' ? [e.expiration, e.level, e.alert, e.previousValue, e.newValue] : null))).toEqual([[FAR, 'putWall', 'within', 95, 99.5]]);
    const positions = await get<{ positions: PositionJson[] }>('/journal/positions?symbol=FOUR');
    expect(positions.positions[0]?.levels, 'the level Positions shows is the one that alerted').toMatchObject({ putWall: 99.5, scope: 'own', expirations: [FAR] });
  });
});

describe('the book scope on two real TSLA chains that share no expiration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('per expiration nothing is compared; the book is, and the answer and /gex/events say so', async () => {
    const post = async (file: string) => {
      const response = await t.request({ method: 'POST', url: '/v1/chains?symbol=TSLA', headers: { 'content-type': 'text/csv' }, payload: readFileSync(join(CHAIN_FIXTURES, file)) });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ events: number; eventsByScope: Record<string, number>; eventReport: EventReportJson }>();
    };
    const first = await post('TSLA_quotedata_2023-08-20_aryaman.csv');
    expect(first.events).toBe(0);
    expect(first.eventReport).toMatchObject({ compared: 0, book: 'first' });
    const second = await post('TSLA_quotedata_2023-11-10_frlocale_hicham.csv');
    // The book of 2023-11-10 (2023-11-17 and 11-24) against that of 2023-08-20 (2023-08-25): all three rules fire.
    // Counted as the Events page lists them (all scopes): none per expiration, the book's three.
    expect(second.events).toBe(3);
    expect(second.eventsByScope).toEqual({ expiration: 0, book: 3, position: 0 });
    expect(second.eventReport).toMatchObject({ firstState: 2, expired: 1, fired: { expiration: 0, book: 3 } });
    expect(second.eventReport.lines).toEqual([
      'no expiration in common with the confirmed states: no per-expiration event can fire on this snapshot',
      '2 new expirations set their first state (nothing to compare): 2023-11-17, 2023-11-24',
      '1 confirmed expiration expired: state dropped (2023-08-25)',
      'the book (2 expirations, 0–45 dte together): zone negative → positive (|total| 11.9% of Σ|net|, beyond the 2.0% dead band: event); call wall 230 → 220 (+73.1% beat the margin: event); put wall 220 → 200 (+65.4% beat the margin: event)',
    ]);
    expect(second.eventReport.compared, 'the November chain shares no expiration within 45 days with the August one').toBe(0);
    expect(second.eventReport.book).toBe('compared');
    expect(second.eventReport.lines.at(-1)).toMatch(/^the book \(\d+ expirations, 0–45 dte together\): /);
    const listed = (await t.get<{ events: ExposureEventJson[]; explanations: Array<{ ticker: string; report: EventReportJson }> }>('/v1/gex/events?tickers=TSLA&scope=book')).body;
    expect(listed.explanations).toEqual([expect.objectContaining({ ticker: 'TSLA', report: second.eventReport })]);
    expect(listed.events.length).toBe(second.eventReport.fired.book);
    expect(listed.events.every((e) => e.expiration === 'book' && e.explanation?.startsWith('the book (') === true)).toBe(true);
    const perExpiration = (await t.get<{ events: ExposureEventJson[] }>('/v1/gex/events?tickers=TSLA')).body;
    expect(perExpiration.events, 'the default scope: per expiration').toEqual([]);
  });
});
