/**
 * GET /journal/trades/{id} (docs/journal.md §Trades and strategies, "One trade"): a hand-written journal (generic CSV,
 * one order id per structure) whose trades' timelines, cash and running P&L are worked out by hand below; each detail
 * equals its row of /journal/trades; an unknown id is a 404 like the annotation routes'.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TradeDetailResponseT, TradeJson, TradesResponseT } from '../../../../../src-shared/api/schemas';
import { manualClock } from '../../../../clock';
import { useTestApp } from '../../../../helper';

/**
 * Account "Detail" (costs are commission + fees, every amount net of them):
 * - S1 2024-03-04: a KO Apr 19 60/55 put credit spread, 2 contracts: sell 60 P at 1.20 (240 − 1.30 − 0.04 = 238.66),
 *   buy 55 P at 0.40 (−80 − 1.30 − 0.04 = −81.34): credit 157.32. S2 2024-03-18 closes it: buy the 60 P at 0.50
 *   (−100 − 0.04 = −100.04), sell the 55 P at 0.10 (20 − 0.04 = 19.96). Realized: 60 P 238.66 − 100.04 = 138.62,
 *   55 P −81.34 + 19.96 = −61.38; pnl 77.24 = the four cash figures added up. Max loss width 5 × 100 × 2 − 157.32.
 * - R1 2024-03-05: a KO Mar 15 58 put sold at 0.90 (90 − 0.65 − 0.02 = 89.33); R2 2024-03-14 rolls it: buy it back at
 *   1.50 (−150.02: realized 89.33 − 150.02 = −60.69), sell the Apr 19 57 put at 1.80 (180 − 0.67 = 179.33); R3
 *   2024-04-01 buys that back at 0.60 (−60.02: realized 119.31). pnl −60.69 + 119.31 = 58.62, one roll.
 * - C1 2024-03-06 sells 1 Apr 19 50 put at 0.50 (49.33), C2 2024-03-07 two more at 0.60 (120 − 1.30 − 0.04 = 118.66):
 *   two trades (an opening that closes nothing is a trade of its own). C3 2024-03-20 buys all 3 back at 0.20
 *   (−60 − 0.06 = −60.06), FIFO: 1 for C1's trade (−20.02: pnl 29.31), 2 for C2's (−40.04: pnl 78.62).
 */
const HEADER = 'date,account,type,symbol,quantity,price,commission,fees,amount,currency,orderId,description,expiration,strike,right,multiplier,id';
const JOURNAL = [
  HEADER,
  '2024-03-04T15:00:00Z,Detail,SELL_TO_OPEN,KO,2,1.20,1.30,0.04,238.66,USD,S1,spread short,2024-04-19,60,P,100,d1',
  '2024-03-04T15:00:00Z,Detail,BUY_TO_OPEN,KO,2,0.40,1.30,0.04,-81.34,USD,S1,spread long,2024-04-19,55,P,100,d2',
  '2024-03-05T15:00:00Z,Detail,SELL_TO_OPEN,KO,1,0.90,0.65,0.02,89.33,USD,R1,Mar 58 put,2024-03-15,58,P,100,d3',
  '2024-03-06T15:00:00Z,Detail,SELL_TO_OPEN,KO,1,0.50,0.65,0.02,49.33,USD,C1,Apr 50 put,2024-04-19,50,P,100,d4',
  '2024-03-07T15:00:00Z,Detail,SELL_TO_OPEN,KO,2,0.60,1.30,0.04,118.66,USD,C2,Apr 50 puts,2024-04-19,50,P,100,d5',
  '2024-03-14T15:00:00Z,Detail,BUY_TO_CLOSE,KO,1,1.50,0,0.02,-150.02,USD,R2,roll close,2024-03-15,58,P,100,d6',
  '2024-03-14T15:00:00Z,Detail,SELL_TO_OPEN,KO,1,1.80,0.65,0.02,179.33,USD,R2,roll open,2024-04-19,57,P,100,d7',
  '2024-03-18T15:00:00Z,Detail,BUY_TO_CLOSE,KO,2,0.50,0,0.04,-100.04,USD,S2,spread close short,2024-04-19,60,P,100,d8',
  '2024-03-18T15:00:00Z,Detail,SELL_TO_CLOSE,KO,2,0.10,0,0.04,19.96,USD,S2,spread close long,2024-04-19,55,P,100,d9',
  '2024-03-20T15:00:00Z,Detail,BUY_TO_CLOSE,KO,3,0.20,0,0.06,-60.06,USD,C3,close all 50 puts,2024-04-19,50,P,100,d10',
  '2024-04-01T15:00:00Z,Detail,BUY_TO_CLOSE,KO,1,0.60,0,0.02,-60.02,USD,R3,close 57 put,2024-04-19,57,P,100,d11',
].join('\n');

/** A timeline row as a reader checks it: symbol's strike and right, role, structure, units of the trade / of the row, price, costs, cash, realized, running. */
type Seen = [string, string, number, number, number | null, number | null, number, number, number | null, number | null];
const seen = (body: TradeDetailResponseT): Seen[] =>
  body.timeline.map((e) => [`${e.strike ?? ''}${e.right ?? ''}`, e.role, e.roll, e.quantity, e.rowQuantity, e.price, e.costs, e.cash, e.realizedPL, e.runningRealizedPL]);

describe('GET /journal/trades/{id}', () => {
  const t = useTestApp({ clock: manualClock('2024-04-10T20:00:00Z') });
  let list: TradeJson[] = [];
  const detail = async (id: string) => {
    const { status, body } = await t.get<TradeDetailResponseT>(`/v1/journal/trades/${encodeURIComponent(id)}`);
    expect(status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const tradeOf = (orderId: string): TradeJson => {
    const found = list.find((trade) => orderOf.get(trade.legs[0]?.transactionId ?? '') === orderId);
    if (found === undefined) throw new Error(`no trade opened by ${orderId}`);
    return found;
  };
  const orderOf = new Map<string, string>();

  // The journal imported once before every test (each reads the list on its own): four trades.
  beforeAll(async () => {
    const imported = await t.request({ method: 'POST', url: '/v1/imports?broker=generic', headers: { 'content-type': 'text/csv' }, payload: JOURNAL });
    expect(imported.statusCode, imported.body).toBe(201);
    const transactions = (await t.get<{ transactions: Array<{ id: string; orderId: string | null }> }>('/v1/journal/transactions?limit=100')).body.transactions;
    for (const tx of transactions) orderOf.set(tx.id, tx.orderId ?? '');
    const { body } = await t.get<TradesResponseT>('/v1/journal/trades?limit=100');
    list = body.trades;
    expect(list.length).toBe(4);
  });

  it('a put credit spread opened and closed: its four rows, their cash adding up to its pnl', async () => {
    const body = await detail(tradeOf('S1').id);
    // Collateral: the width, 5 × 100 × 2 = 1,000 (the max loss was shown before issue 27).
    expect(body.trade).toMatchObject({ strategy: 'credit_spread', status: 'closed', outcome: 'closed', credit: 157.32, maxProfit: 157.32, maxLoss: 842.68, collateral: 1000, pnl: 77.24, optionPL: 77.24, rolls: 0 });
    expect(seen(body)).toEqual([
      ['60P', 'entry', 0, 2, 2, 1.2, 1.34, 238.66, null, 0],
      ['55P', 'entry', 0, 2, 2, 0.4, 1.34, -81.34, null, 0],
      ['60P', 'close', 0, 2, 2, 0.5, 0.04, -100.04, 138.62, 138.62],
      ['55P', 'close', 0, 2, 2, 0.1, 0.04, 19.96, -61.38, 77.24],
    ]);
    expect(body.timeline.map((e) => [e.side, e.type, e.date, e.tradeDate, e.expiration, e.inferred])).toEqual([
      ['sell', 'SELL_TO_OPEN', '2024-03-04', '2024-03-04T15:00:00.000Z', '2024-04-19', false],
      ['buy', 'BUY_TO_OPEN', '2024-03-04', '2024-03-04T15:00:00.000Z', '2024-04-19', false],
      ['buy', 'BUY_TO_CLOSE', '2024-03-18', '2024-03-18T15:00:00.000Z', '2024-04-19', false],
      ['sell', 'SELL_TO_CLOSE', '2024-03-18', '2024-03-18T15:00:00.000Z', '2024-04-19', false],
    ]);
  });

  it('a rolled short put: the new leg is structure 1, the realized P&L runs to the pnl', async () => {
    const body = await detail(tradeOf('R1').id);
    expect(body.trade).toMatchObject({ strategy: 'short_put', status: 'closed', credit: 89.33, pnl: 58.62, rolls: 1 });
    expect(seen(body)).toEqual([
      ['58P', 'entry', 0, 1, 1, 0.9, 0.67, 89.33, null, 0],
      ['58P', 'close', 0, 1, 1, 1.5, 0.02, -150.02, -60.69, -60.69],
      ['57P', 'open', 1, 1, 1, 1.8, 0.67, 179.33, null, -60.69],
      ['57P', 'close', 1, 1, 1, 0.6, 0.02, -60.02, 119.31, 58.62],
    ]);
  });

  it('a close shared by two trades: each has its units of the row, its share of the costs and of the cash', async () => {
    const first = await detail(tradeOf('C1').id);
    const second = await detail(tradeOf('C2').id);
    expect([first.trade.pnl, second.trade.pnl]).toEqual([29.31, 78.62]);
    expect(seen(first)).toEqual([
      ['50P', 'entry', 0, 1, 1, 0.5, 0.67, 49.33, null, 0],
      ['50P', 'close', 0, 1, 3, 0.2, 0.02, -20.02, 29.31, 29.31],
    ]);
    expect(seen(second)).toEqual([
      ['50P', 'entry', 0, 2, 2, 0.6, 1.34, 118.66, null, 0],
      ['50P', 'close', 0, 2, 3, 0.2, 0.04, -40.04, 78.62, 78.62],
    ]);
    // The row's cash, split: −20.02 − 40.04 = −60.06.
    expect(first.timeline[1]?.transactionId).toBe(second.timeline[1]?.transactionId);
  });

  it('each detail is its row of /journal/trades, with the list’s accounts', async () => {
    for (const row of list) {
      const body = await detail(row.id);
      expect(body.trade).toEqual(row);
      expect(body.timeline.map((e) => [e.transactionId, e.role, e.quantity, e.realizedPL])).toEqual(row.legs.map((leg) => [leg.transactionId, leg.role, leg.quantity, leg.realizedPL]));
      expect(body.accounts.map((a) => a.name)).toEqual(['Detail']);
      expect(body.currency).toBe('USD');
    }
  });

  it('an id in another case names the same trade (paths are read without case)', async () => {
    const row = tradeOf('S1');
    expect((await detail(row.id.toUpperCase())).trade.id).toBe(row.id);
  });

  it('an unknown id is a 404 problem, as the annotation routes answer; an id over the schema’s 200 characters too (the router’s bound is the same)', async () => {
    const unknown = await t.request({ method: 'GET', url: '/v1/journal/trades/no-such-trade' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toContain('application/problem+json');
    expect(unknown.json()).toMatchObject({ code: 'NOT_FOUND', detail: 'No trade with id no-such-trade.' });
    const annotation = await t.request({ method: 'GET', url: '/v1/journal/trades/no-such-trade/annotation' });
    expect(annotation.json<{ code: string }>().code).toBe(unknown.json<{ code: string }>().code);
    const atBound = await t.request({ method: 'GET', url: `/v1/journal/trades/${'x'.repeat(200)}` });
    expect([atBound.statusCode, atBound.json<{ code: string }>().code]).toEqual([404, 'NOT_FOUND']);
    const long = await t.request({ method: 'GET', url: `/v1/journal/trades/${'x'.repeat(201)}` });
    expect(long.statusCode).toBe(404);
    expect(long.headers['content-type']).toContain('application/problem+json');
    expect(long.json<{ detail: string }>().detail).toMatch(/^No route GET/);
  });
});
