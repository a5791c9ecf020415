/**
 * Levels scope (DESIGN §5, docs/journal.md §Levels scope) on the real SPY chain of 2023-09-14 16:31 New York: a short
 * strangle on the 2023-10-06 expiration (21 days out when opened the next morning, far beyond the 0–5 dte of the
 * nearest three expirations; the issue's 16-DTE case has no 16-day expiration in this file) is held against its own
 * expiration's walls and flip, which must be `/gex?symbol=SPY&expirations=2023-10-06`'s; `levelsScope=nearest` gives
 * the default `/gex`'s, `book` `/gex?minDte=0&maxDte=45`'s, and every answer says which scope and expirations.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { PositionsResponseT, TradeJson, TradesResponseT } from '../../../../../src-shared/api/schemas';
import { manualClock } from '../../../../clock';
import { useTestApp } from '../../../../helper';
import { readChain } from '../../../../quotedata';

const SPY = 'SPY_quotedata_2023-09-14_carlos.csv';
const EXPIRATION = '2023-10-06';

interface Gex {
  callWall: { strike: number } | null;
  putWall: { strike: number } | null;
  gammaInflection: number | null;
  gammaZone: string;
  meta: { expirations: string[] };
}

/** DESIGN §5's places written out again: below the put wall, above the call wall, else on the flip's side. */
function place(strike: number, levels: { putWall: number | null; callWall: number | null; gammaFlip: number | null }): string | null {
  if (levels.putWall !== null && strike < levels.putWall) return 'below_put_wall';
  if (levels.callWall !== null && strike > levels.callWall) return 'above_call_wall';
  if (levels.gammaFlip === null) return null;
  return strike < levels.gammaFlip ? 'put_wall_to_flip' : 'flip_to_call_wall';
}

describe('a 21-DTE SPY strangle against its own expiration’s levels, the nearest three’s and the book’s', () => {
  // Friday 2023-09-15 16:00 New York: the Thursday-close snapshot is 1 trading day old (fresh).
  const t = useTestApp({ clock: manualClock('2023-09-15T20:00:00Z') });
  const levelsOf = async (query: string) => {
    const { status, body } = await t.get<Gex>(`/v1/gex?symbol=SPY${query}`);
    expect(status).toBe(200);
    return { callWall: body.callWall?.strike ?? null, putWall: body.putWall?.strike ?? null, gammaFlip: body.gammaInflection, gammaZone: body.gammaZone, expirations: body.meta.expirations };
  };

  // The chain and the strangle sold by hand at the file’s bids (2 × 440 put at 1.62, 2 × 460 call at 1.04, one order):
  // what every it reads (an it of its own before: shuffled, the positions test ran first and found no book).
  beforeAll(async () => {
    const chain = await t.request({ method: 'POST', url: '/v1/chains?symbol=SPY', headers: { 'content-type': 'text/csv' }, payload: readChain(SPY) });
    expect(chain.statusCode, chain.body).toBe(201);
    const leg = (strike: number, right: 'P' | 'C', price: number) => ({ account: 'Margin', date: '2023-09-15T14:00:00Z', type: 'SELL_TO_OPEN', symbol: 'SPY', expiration: EXPIRATION, strike, right, quantity: 2, price, orderId: 'S1' });
    const added = await t.request({ method: 'POST', url: '/v1/journal/transactions', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ transactions: [leg(440, 'P', 1.62), leg(460, 'C', 1.04)] }) });
    expect(added.statusCode, added.body).toBe(201);
  });

  it('positions: own = /gex?expirations=2023-10-06 (walls 445 / 459, not the nearest three’s 450 / 450); nearest = /gex; book = /gex?minDte=0&maxDte=45; the scope echoed', async () => {
    const own = await levelsOf(`&expirations=${EXPIRATION}`);
    const nearest = await levelsOf('');
    const book = await levelsOf('&minDte=0&maxDte=45');
    // What the file's open interest makes of each scope (read off /gex, the independent answer): the 10-06 walls are not the 0–5 dte ones.
    expect([own.putWall, own.callWall], 'the strangle’s own expiration').toEqual([445, 459]);
    expect([nearest.putWall, nearest.callWall, nearest.expirations], 'the nearest three (1, 4 and 5 dte)').toEqual([450, 450, ['2023-09-15', '2023-09-18', '2023-09-19']]);
    expect(own.gammaZone, 'its own expiration is in negative gamma, the nearest three in positive').not.toBe(nearest.gammaZone);
    for (const [scope, expected] of [
      [undefined, { ...own, scope: 'own' }],
      ['own', { ...own, scope: 'own' }],
      ['nearest', { ...nearest, scope: 'nearest' }],
      ['book', { ...book, scope: 'book' }],
    ] as const) {
      const { status, body } = await t.get<PositionsResponseT>(`/v1/journal/positions${scope === undefined ? '' : `?levelsScope=${scope}`}`);
      expect(status).toBe(200);
      expect(body.levelsScope).toBe(scope ?? 'own');
      expect(body.positions.map((p) => p.symbol)).toEqual(['SPY231006P00440000', 'SPY231006C00460000']);
      for (const position of body.positions) {
        expect(position.dte).toBe(21);
        expect(position.levels, `${scope ?? 'default'}: ${position.symbol}`).toEqual(expected);
        const strike = position.strike ?? 0;
        expect(position.strikeVs?.putWall).toBeCloseTo(((strike - (expected.putWall ?? 0)) / (expected.putWall ?? 1)) * 100, 10);
      }
    }
    expect(book.expirations.length, 'the book: every expiration within 45 days').toBeGreaterThan(10);
  });

  it('trades: the strangle’s levels at entry are its own expiration’s, both short legs placed (the put below the put wall, the call above the call wall); nearest on request', async () => {
    const own = await levelsOf(`&expirations=${EXPIRATION}`);
    const nearest = await levelsOf('');
    const list = async (query: string): Promise<{ levelsScope: string; trade: TradeJson }> => {
      const { status, body } = await t.get<TradesResponseT>(`/v1/journal/trades${query}`);
      expect(status).toBe(200);
      expect(body.trades).toHaveLength(1);
      const [trade] = body.trades;
      if (trade === undefined) throw new Error('no trade');
      return { levelsScope: body.levelsScope, trade };
    };
    const { levelsScope, trade } = await list('');
    expect([levelsScope, trade.strategy, trade.dteAtEntry]).toEqual(['own', 'short_strangle', 21]);
    const shortStrikes = (levels: typeof own) => [
      { expiration: EXPIRATION, strike: 440, right: 'P', place: place(440, levels) },
      { expiration: EXPIRATION, strike: 460, right: 'C', place: place(460, levels) },
    ];
    const { expirations: _e, ...ownLevels } = own;
    expect(trade.levelsAtEntry).toEqual({ ...ownLevels, scope: 'own', expirations: [EXPIRATION], shortStrikeVs: place(trade.mainLeg?.strike ?? 0, own), shortStrikes: shortStrikes(own) });
    expect(trade.levelsAtEntry?.shortStrikes.map((s) => s.place), '440 < 445, 460 > 459').toEqual(['below_put_wall', 'above_call_wall']);
    const asked = await list('?levelsScope=nearest');
    const { expirations, ...nearestLevels } = nearest;
    expect(asked.levelsScope).toBe('nearest');
    expect(asked.trade.levelsAtEntry).toEqual({ ...nearestLevels, scope: 'nearest', expirations, shortStrikeVs: place(trade.mainLeg?.strike ?? 0, nearest), shortStrikes: shortStrikes(nearest) });
    const book = await list('?levelsScope=book');
    expect([book.levelsScope, book.trade.levelsAtEntry?.scope, book.trade.levelsAtEntry?.expirations]).toEqual(['book', 'book', (await levelsOf('&minDte=0&maxDte=45')).expirations]);
  });

  it('refuses a scope it does not know, naming the parameter', async () => {
    for (const path of ['/v1/journal/positions?levelsScope=all', '/v1/journal/trades?levelsScope=3']) {
      const { status, body } = await t.get<{ code: string; errors?: Array<{ param: string }> }>(path);
      expect(status, path).toBe(400);
      expect(body.errors?.map((e) => e.param)).toContain('levelsScope');
    }
  });
});
