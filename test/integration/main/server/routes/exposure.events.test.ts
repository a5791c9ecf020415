import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExposureEventJson } from '../../../../../src-shared/api/schemas';
import type { ChainSnapshot, OptionContract } from '../../../../../src-shared/exposure/model';
import { startServer, type RunningServer } from '../../../../../src-main/serve';
import { manualClock } from '../../../../clock';
import { tempDir } from '../../../../paths';
import { storeChain } from '../../../../helper';

const EXPIRATION = '2099-12-18';

function contract(right: 'C' | 'P', strike: number, openInterest: number): OptionContract {
  return { root: 'TEST', expiration: EXPIRATION, strike, right, openInterest, iv: 0.25, bid: 1, ask: 1.1, multiplier: 100 };
}

/** A one-expiration chain at spot 100: call open interest at 105/110, puts at 95/90. */
function snapshot(quoteTime: string, calls: Record<number, number>, puts: Record<number, number>): ChainSnapshot {
  return {
    symbol: 'TEST',
    spot: 100,
    quoteTime,
    source: 'generic',
    contracts: [
      ...Object.entries(calls).map(([k, oi]) => contract('C', Number(k), oi)),
      ...Object.entries(puts).map(([k, oi]) => contract('P', Number(k), oi)),
    ],
  };
}

/** Today, for the events' dte: the day of the snapshots, 28 days before the expiration. */
const clock = manualClock('2099-11-20T17:00:00Z');
let server: RunningServer;
const auth = () => ({ headers: { authorization: `Bearer ${server.apiKey}` } });
beforeAll(async () => {
  server = await startServer({ dataDir: tempDir(), port: 0, uiDir: null, clock });
});
afterAll(async () => {
  await server?.close();
});

describe('events through the API', () => {
  it('first snapshot sets state; a moved wall and a flip become events, live on the SSE stream; re-posting creates none', async () => {
    // The expiration is far away: events only consider 0–45 dte, so the quote times sit just before it.
    const t0 = '2099-11-20T15:00:00.000Z';
    const t1 = '2099-11-20T15:30:00.000Z';
    const t2 = '2099-11-20T16:00:00.000Z';
    const first = storeChain(server.ctx, snapshot(t0, { 105: 5000, 110: 1000 }, { 95: 2000, 90: 1000 }));
    expect(first.events, 'the first snapshot only sets the state').toBe(0);

    const controller = new AbortController();
    const stream = await fetch(`${server.apiBaseUrl}/gex/events/stream?tickers=TEST`, { ...auth(), signal: controller.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/text\/event-stream/);
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

    // Call OI moves from 105 to 110: 110's call GEX now beats 105's by far more than 10%.
    const moved = storeChain(server.ctx, snapshot(t1, { 105: 500, 110: 8000 }, { 95: 2000, 90: 1000 }));
    // One per expiration; the book (one expiration: the same move) fires its own: both counted, as the Events page lists them.
    expect(moved.events).toBe(2);
    expect(moved.eventsByScope).toEqual({ expiration: 1, book: 1 });
    expect(moved.eventReport).toMatchObject({ compared: 1, firstState: 0, book: 'compared', fired: { expiration: 1, book: 1 } });
    // Puts swamp calls near spot: the expiration's total turns negative well beyond the 2% dead band.
    const flipped = storeChain(server.ctx, snapshot(t2, { 105: 500, 110: 8000 }, { 100: 60000, 95: 2000, 90: 1000 }));
    expect(flipped.events).toBeGreaterThanOrEqual(1);

    const events = (await (await fetch(`${server.apiBaseUrl}/gex/events?tickers=TEST`, auth())).json()) as { events: ExposureEventJson[] };
    const wall = events.events.find((e) => e.eventType === 'wall' && e.wallType === 'call');
    expect(wall).toMatchObject({ ticker: 'TEST', expiration: EXPIRATION, wallType: 'call', previousStrike: 105, newStrike: 110, spotPrice: 100, timestamp: t1 });
    const flip = events.events.find((e) => e.eventType === 'flip');
    expect(flip).toMatchObject({ ticker: 'TEST', previousState: 'positive', newState: 'negative', timestamp: t2 });
    const putWall = events.events.find((e) => e.eventType === 'wall' && e.wallType === 'put');
    expect(putWall, 'the 60,000 puts at 100 also move the put wall from 95').toMatchObject({ previousStrike: 95, newStrike: 100, timestamp: t2 });
    expect(events.events[0]?.timestamp, 'newest first').toBe(t2);

    const flips = (await (await fetch(`${server.apiBaseUrl}/gex/events?eventType=flip`, auth())).json()) as { events: ExposureEventJson[] };
    expect(flips.events.every((e) => e.eventType === 'flip')).toBe(true);
    expect(events.events.map((e) => e.dte), 'December 18 is 28 days after November 20').toEqual(events.events.map(() => 28));
    const dteWindow = async (query: string) => ((await (await fetch(`${server.apiBaseUrl}/gex/events?${query}`, auth())).json()) as { events: ExposureEventJson[] }).events.length;
    expect(await dteWindow('maxDte=27'), 'dte filters on the expiration as of today').toBe(0);
    expect(await dteWindow('minDte=28&maxDte=28')).toBe(events.events.length);
    clock.set('2099-12-10T17:00:00Z');
    expect(await dteWindow('maxDte=10'), 'eight days before the expiration').toBe(events.events.length);
    expect(await dteWindow('minDte=9')).toBe(0);

    // Same snapshots again: nothing new.
    expect(storeChain(server.ctx, snapshot(t1, { 105: 500, 110: 8000 }, { 95: 2000, 90: 1000 })).events).toBe(0);
    expect(storeChain(server.ctx, snapshot(t2, { 105: 500, 110: 8000 }, { 100: 60000, 95: 2000, 90: 1000 })).stored).toBe(false);
    const after = (await (await fetch(`${server.apiBaseUrl}/gex/events?tickers=TEST`, auth())).json()) as { events: ExposureEventJson[] };
    expect(after.events.map((e) => e.id)).toEqual(events.events.map((e) => e.id));

    // The stream is written as the events are stored; give the reader time to see both, then stop it.
    for (let waited = 0; waited < 5_000 && !/event: flip\n/.test(received.join('')); waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    controller.abort();
    await reading;
    const text = received.join('');
    expect(text).toMatch(/event: wall\n/);
    expect(text).toMatch(/event: flip\n/);
    expect(text).toContain(`"previousStrike":105`);
  });
});
