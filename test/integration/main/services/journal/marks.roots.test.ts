/**
 * Underlying roots (DESIGN §5, docs/journal.md §Underlying roots): an option's underlying is its chain's symbol, and a
 * position is marked from the row of its own root. On the real SPX chain of 2023-09-14 16:31 New York the third
 * Friday 2023-09-15 lists the AM-settled SPX put and the PM-settled SPXW put of one strike side by side at different
 * quotes: an E*TRADE file (self-written) and the manual form sell both, and each is marked from its own row (mids by
 * hand from the file's bid and ask), both held against the SPX chain's levels. On the real AMD chain, an adjusted AMD1
 * put is AMD's, flagged `adjusted`, and marked from the AMD1 row only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PositionsResponseT, TransactionsResponseT } from '../../../../../src-shared/api/schemas';
import { manualClock } from '../../../../clock';
import { REPO_ROOT, useTestApp } from '../../../../helper';
import { rawContracts, readChain } from '../../../../quotedata';

const SPX = 'SPX_quotedata_2023-09-14_carlos.csv';
const AMD = 'AMD_quotedata_2023-08-18close_aryaman.csv';
const ETRADE = readFileSync(join(REPO_ROOT, 'test/fixtures/brokers/etrade_spxw_selfwritten.csv'), 'utf8');

interface Gex {
  callWall: { strike: number } | null;
  putWall: { strike: number } | null;
  gammaInflection: number | null;
  gammaZone: string;
  meta: { expirations: string[] };
}

describe('SPXW and SPX puts of one third Friday, marked from the SPX chain', () => {
  // Thursday 17:00 New York, half an hour after the chain's quote.
  // An app each: a story in steps (the file, then the chain, then a manual entry), each it replaying those before its
  // own (shuffled, the import test ran after the chain was stored and found the puts marked).
  const t = useTestApp({ clock: manualClock('2023-09-14T21:00:00Z') }, 'each');
  const importFile = async () => {
    const imported = await t.request({ method: 'POST', url: '/v1/imports?filename=etrade.csv', headers: { 'content-type': 'text/csv' }, payload: ETRADE });
    expect(imported.statusCode, imported.body).toBe(201);
  };
  const storeSpxChain = async () => {
    const chain = await t.request({ method: 'POST', url: '/v1/chains?symbol=SPX', headers: { 'content-type': 'text/csv' }, payload: readChain(SPX) });
    expect(chain.statusCode, chain.body).toBe(201);
  };
  const positions = async () => {
    const { status, body } = await t.get<PositionsResponseT>('/v1/journal/positions');
    expect(status).toBe(200);
    return body;
  };

  it('imports the E*TRADE file: both puts are SPX’s, unmarked, and the chain to load is SPX’s (never SPXW’s)', async () => {
    await importFile();
    const rows = (await t.get<TransactionsResponseT>('/v1/journal/transactions?limit=100')).body.transactions.filter((tx) => tx.isOption);
    expect(rows.map((tx) => [tx.symbol, tx.underlying, tx.adjusted]).sort()).toEqual([
      ['SPX230915P04400000', 'SPX', false],
      ['SPXW230915P04400000', 'SPX', false],
    ]);
    const body = await positions();
    expect(body.positions.map((p) => [p.symbol, p.underlying, p.quantity, p.mark]).sort()).toEqual([
      ['SPX230915P04400000', 'SPX', -1, null],
      ['SPXW230915P04400000', 'SPX', -2, null],
    ]);
    // What the page names as the chain to load: the positions' underlying, with no snapshot of it.
    expect([...new Set(body.positions.map((p) => p.underlying))].filter((u) => !body.marksAsOf.some((m) => m.symbol === u))).toEqual(['SPX']);
    expect((await t.get<PositionsResponseT>('/v1/journal/positions?symbol=SPXW')).body.positions, 'symbol=SPXW finds the SPX book').toHaveLength(2);
  });

  it('with the SPX chain stored: the SPXW put at the SPXW row’s mid (0.40/0.45 → 0.425), the SPX put at the SPX row’s (0.25/0.35 → 0.30)', async () => {
    await importFile();
    await storeSpxChain();
    // The file's own rows, read by the tests' reader: the two roots quote the 4400 put of 09-15 differently.
    const quote = (root: string) => rawContracts(readChain(SPX)).find((c) => c.root === root && c.expiration === '2023-09-15' && c.strike === 4400 && c.right === 'P');
    expect([quote('SPXW')?.bid, quote('SPXW')?.ask, quote('SPX')?.bid, quote('SPX')?.ask]).toEqual([0.4, 0.45, 0.25, 0.35]);
    const body = await positions();
    const bySymbol = new Map(body.positions.map((p) => [p.symbol, p]));
    const spxw = bySymbol.get('SPXW230915P04400000');
    const spx = bySymbol.get('SPX230915P04400000');
    expect(spxw?.mark?.price).toBeCloseTo(0.425, 10);
    expect(spx?.mark?.price).toBeCloseTo(0.3, 10);
    // SPXW: sold 2 × 0.40 × 100 − 0.52 = 79.48; worth −2 × 0.425 × 100 = −85.00; −5.52. SPX: 25 − 0.26 = 24.74; −30.00; −5.26.
    expect([spxw?.costBasis, spxw?.marketValue, spxw?.unrealizedPL]).toEqual([-79.48, -85, -5.52]);
    expect([spx?.costBasis, spx?.marketValue, spx?.unrealizedPL]).toEqual([-24.74, -30, -5.26]);
    // Both held against the SPX chain's levels of their own expiration.
    const gex = (await t.get<Gex>('/v1/gex?symbol=SPX&expirations=2023-09-15')).body;
    const levels = { callWall: gex.callWall?.strike ?? null, putWall: gex.putWall?.strike ?? null, gammaFlip: gex.gammaInflection, gammaZone: gex.gammaZone, scope: 'own', expirations: ['2023-09-15'] };
    expect(spxw?.levels).toEqual(levels);
    expect(spx?.levels).toEqual(levels);
    expect(body.marksAsOf.map((m) => m.symbol)).toEqual(['SPX']);
  });

  it('the manual form: an SPXW 4450 put entered by hand is SPX’s too, marked from the SPXW row (0.65/0.70 → 0.675, the SPX AM row says 0.30/0.35)', async () => {
    await importFile();
    await storeSpxChain();
    const accountId = (await positions()).positions[0]?.accountId ?? '';
    const added = await t.request({
      method: 'POST',
      url: '/v1/journal/transactions',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ transactions: [{ accountId, date: '2023-09-14', type: 'SELL_TO_OPEN', symbol: 'SPXW', expiration: '2023-09-15', strike: 4450, right: 'P', quantity: 1, price: 0.65 }] }),
    });
    expect(added.statusCode, added.body).toBe(201);
    const quote = (root: string) => rawContracts(readChain(SPX)).find((c) => c.root === root && c.expiration === '2023-09-15' && c.strike === 4450 && c.right === 'P');
    expect([quote('SPXW')?.bid, quote('SPXW')?.ask, quote('SPX')?.bid, quote('SPX')?.ask]).toEqual([0.65, 0.7, 0.3, 0.35]);
    const manual = (await positions()).positions.find((p) => p.symbol === 'SPXW230915P04450000');
    expect([manual?.underlying, manual?.quantity, manual?.adjusted]).toEqual(['SPX', -1, false]);
    expect(manual?.mark?.price).toBeCloseTo(0.675, 10);
  });
});

describe('an adjusted AMD1 put: AMD’s, flagged, marked from the AMD1 row', () => {
  // Monday 11:00 New York: the Sunday-evening chain is 1 trading day old.
  const t = useTestApp({ clock: manualClock('2023-08-21T15:00:00Z') });

  it('AMD1 → AMD with adjusted: true on the row and the position; the mark is the AMD1 row’s mid (0/0.70 → 0.35), not the standard AMD put’s (1.71/1.75)', async () => {
    const chain = await t.request({ method: 'POST', url: '/v1/chains?symbol=AMD', headers: { 'content-type': 'text/csv' }, payload: readChain(AMD) });
    expect(chain.statusCode, chain.body).toBe(201);
    const quote = (root: string) => rawContracts(readChain(AMD)).find((c) => c.root === root && c.expiration === '2024-01-19' && c.strike === 75 && c.right === 'P');
    expect([quote('AMD1')?.bid, quote('AMD1')?.ask, quote('AMD')?.bid, quote('AMD')?.ask]).toEqual([0, 0.7, 1.71, 1.75]);
    const added = await t.request({
      method: 'POST',
      url: '/v1/journal/transactions',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ transactions: [{ account: 'Main', date: '2023-08-21T14:00:00Z', type: 'SELL_TO_OPEN', symbol: 'AMD1', expiration: '2024-01-19', strike: 75, right: 'P', quantity: 1, price: 0.5 }] }),
    });
    expect(added.statusCode, added.body).toBe(201);
    const [row] = (await t.get<TransactionsResponseT>('/v1/journal/transactions')).body.transactions;
    expect([row?.symbol, row?.underlying, row?.adjusted]).toEqual(['AMD1240119P00075000', 'AMD', true]);
    const { positions } = (await t.get<PositionsResponseT>('/v1/journal/positions')).body;
    expect(positions.map((p) => [p.symbol, p.underlying, p.adjusted])).toEqual([['AMD1240119P00075000', 'AMD', true]]);
    expect(positions[0]?.mark?.price).toBeCloseTo(0.35, 10);
  });
});
