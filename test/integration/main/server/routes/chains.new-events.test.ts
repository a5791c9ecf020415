/**
 * A chain import's "new events" (issue 27 item 9): POST /v1/chains counts every event the snapshot made as the Events
 * page lists them (GET /v1/gex/events?scope=all): per expiration, of the whole book, and on your strikes. It used to
 * count the per-expiration ones alone ("0 new events" beside three book events and an alert on a short put).
 */
import { describe, expect, it } from 'vitest';
import type { ExposureEventJson } from '../../../../../src-shared/api/event-schemas';
import type { ChainSnapshot, OptionContract } from '../../../../../src-shared/exposure/model';
import { manualClock } from '../../../../clock';
import { useTestApp } from '../../../../helper';

const EXPIRATION = '2099-12-18';
const contract = (right: 'C' | 'P', strike: number, openInterest: number): OptionContract => ({ root: 'TEST', expiration: EXPIRATION, strike, right, openInterest, iv: 0.25, bid: 1, ask: 1.1, multiplier: 100 });
/** Spot 100: calls at 110, the put wall at `wall` (5,000 OI, five times the 90 puts'). */
const chain = (quoteTime: string, wall: number): ChainSnapshot => ({ symbol: 'TEST', spot: 100, quoteTime, source: 'generic', contracts: [contract('C', 110, 3000), contract('P', wall, 5000), contract('P', 90, 1000)] });

const t = useTestApp({ clock: manualClock('2099-11-20T17:00:00Z') });

async function post(snapshot: ChainSnapshot): Promise<{ events: number; eventsByScope: { expiration: number; book: number; position: number }; quoteTime: string }> {
  const response = await t.request({ method: 'POST', url: '/v1/chains', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(snapshot) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

describe('POST /v1/chains counts its events as the Events page lists them', () => {
  it('the put wall moves from 95 to 99.5 under two short 100 puts: 1 per expiration + 1 of the book + 2 on your strikes = 4', async () => {
    const shortPut = (account: string, quantity: number) => ({ account, date: '2099-11-19', type: 'SELL_TO_OPEN', symbol: 'TEST', expiration: EXPIRATION, strike: 100, right: 'P', quantity, price: 1.5 });
    const added = await t.request({ method: 'POST', url: '/v1/journal/transactions', payload: { transactions: [shortPut('Alpha', 2), shortPut('Beta', 3)] } });
    expect(added.statusCode, added.body).toBe(201);

    const first = await post(chain('2099-11-20T15:00:00.000Z', 95));
    expect([first.events, first.eventsByScope]).toEqual([0, { expiration: 0, book: 0, position: 0 }]);

    const second = await post(chain('2099-11-20T15:30:00.000Z', 99.5));
    const listed = (await t.get<{ events: ExposureEventJson[] }>('/v1/gex/events?tickers=TEST&scope=all')).body.events.filter((e) => Date.parse(e.timestamp) === Date.parse(second.quoteTime));
    const byScope = { expiration: listed.filter((e) => e.eventType !== 'position' && e.expiration !== 'book').length, book: listed.filter((e) => e.eventType !== 'position' && e.expiration === 'book').length, position: listed.filter((e) => e.eventType === 'position').length };
    // The one expiration's put wall, the book's (that expiration alone), and one alert per account short the 100 put.
    expect(byScope).toEqual({ expiration: 1, book: 1, position: 2 });
    expect(second.eventsByScope).toEqual(byScope);
    expect(second.events).toBe(listed.length);
    expect(second.events).toBe(4);
  });
});
