/**
 * GET /journal/manage (DESIGN §5 "Management rules and rolls", docs/journal.md §Managing open trades) on hand-built
 * positions and marks: short options of KO sold on 2024-02-20 without costs, marked on Friday 2024-03-01 from a KO
 * snapshot written here (spot 60, each contract's bid and ask given), one trade per rule, each at its threshold; a PEP
 * trade whose snapshot is a week old and an XYZ one with none, listed apart; a position alert of the exposure side.
 *
 * By hand (credit = price × 100; P&L = credit − mid × 100; DTE = New York days from 2024-03-01):
 * - D 62 P Mar 8 at 1.50, mid (2.05 + 2.15) / 2 = 2.10: −60.00; 62 − 60 = 2.00 in the money, 7 days: itm_near_expiry, dte.
 * - C 62 C Apr 19 at 1.00, mid (2.90 + 3.10) / 2 = 3.00: −200.00 = 2 × the 100.00 credit: loss_stop.
 * - E 58 C Apr 19 at 2.50, mid 2.10: +40.00; intrinsic 60 − 58 = 2.00, extrinsic 0.10 < the 0.485 dividend ex 03-14: dividend.
 * - F 45 P Apr 19 at 0.50, mid (0.25 + 0.35) / 2 = 0.30: +20.00 (40 %); a put-wall alert on it today: level.
 * - A 55 P Mar 22 at 1.00, mid (0.60 + 0.80) / 2 = 0.70: +30.00 (30 %); 21 days: dte.
 * - B 50 P Apr 19 at 1.00, mid (0.45 + 0.55) / 2 = 0.50: +50.00 = 50 % of 100.00: profit_target.
 * - N 40 P Apr 19 at 0.20, mid (0.10 + 0.20) / 2 = 0.15: +5.00 (25 %), 49 days: no rule.
 * - G PEP 150 P Apr 19, PEP quoted 2024-02-23: 5 trading days old: stale. H XYZ 20 P: no snapshot: unmarked.
 * - K PEP 140 P sold 02-20 at 1.00, bought back 02-27 at 0.50: closed now; open on 02-23, when PEP's mid (0.45 + 0.55) / 2
 *   = 0.50 was 50 % of its credit.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ManageResponseT } from '../../../../../src-shared/api/schemas';
import type { ChainSnapshot, OptionContract } from '../../../../../src-shared/exposure/model';
import { writeNow } from '../../../../../src-main/db/writes';
import { manualClock } from '../../../../clock';
import { storeChain, useTestApp } from '../../../../helper';

const contract = (root: string, expiration: string, strike: number, right: 'P' | 'C', bid: number, ask: number): OptionContract => ({ root, expiration, strike, right, bid, ask, iv: 0.25, openInterest: 500, multiplier: 100 });

const KO: ChainSnapshot = {
  symbol: 'KO',
  spot: 60,
  quoteTime: '2024-03-01T19:30:00.000Z',
  source: 'generic',
  contracts: [
    contract('KO', '2024-03-08', 62, 'P', 2.05, 2.15),
    contract('KO', '2024-03-08', 62, 'C', 0.1, 0.2),
    contract('KO', '2024-03-22', 55, 'P', 0.6, 0.8),
    contract('KO', '2024-03-22', 65, 'C', 0.05, 0.1),
    contract('KO', '2024-04-19', 40, 'P', 0.1, 0.2),
    contract('KO', '2024-04-19', 45, 'P', 0.25, 0.35),
    contract('KO', '2024-04-19', 50, 'P', 0.45, 0.55),
    contract('KO', '2024-04-19', 58, 'C', 2.05, 2.15),
    contract('KO', '2024-04-19', 62, 'C', 2.9, 3.1),
  ],
};
const PEP: ChainSnapshot = {
  symbol: 'PEP',
  spot: 165,
  quoteTime: '2024-02-23T21:00:00.000Z',
  source: 'generic',
  contracts: [contract('PEP', '2024-04-19', 150, 'P', 1.9, 2.1), contract('PEP', '2024-04-19', 140, 'P', 0.45, 0.55), contract('PEP', '2024-04-19', 180, 'C', 0.5, 0.6)],
};

const sell = (order: string, symbol: string, expiration: string, strike: number, right: 'P' | 'C', price: number, account = 'Margin') => ({
  account,
  date: '2024-02-20T15:00:00Z',
  type: 'SELL_TO_OPEN',
  symbol,
  expiration,
  strike,
  right,
  quantity: 1,
  price,
  orderId: order,
});

/** The rules the book is read with (the turn-off test puts them back). */
const RULES = { profitTargetPct: 50, manageAtDte: 21, lossStopMultiple: 2, itmWithinDays: 7, dividendRisk: true, levelAlerts: true, upcomingDividends: [{ symbol: 'KO', exDate: '2024-03-14', amount: 0.485 }] };

describe('GET /journal/manage', () => {
  // Friday 2024-03-01 15:00 New York.
  const t = useTestApp({ clock: manualClock('2024-03-01T20:00:00Z') });
  const tradeIdOf = new Map<string, string>();
  const manage = async (query = '') => {
    const { status, body } = await t.get<ManageResponseT>(`/v1/journal/manage${query}`);
    expect(status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const nameOf = (tradeId: string) => [...tradeIdOf].find(([, id]) => id === tradeId)?.[0] ?? tradeId;
  let accountId = '';

  // The book every it reads (an it of its own before: a shuffled order read an empty journal).
  beforeAll(async () => {
    storeChain(t.ctx, KO);
    storeChain(t.ctx, PEP);
    const rows = [
      sell('A', 'KO', '2024-03-22', 55, 'P', 1),
      sell('B', 'KO', '2024-04-19', 50, 'P', 1),
      sell('C', 'KO', '2024-04-19', 62, 'C', 1),
      sell('D', 'KO', '2024-03-08', 62, 'P', 1.5),
      sell('E', 'KO', '2024-04-19', 58, 'C', 2.5),
      sell('F', 'KO', '2024-04-19', 45, 'P', 0.5),
      sell('G', 'PEP', '2024-04-19', 150, 'P', 2),
      sell('H', 'XYZ', '2024-04-19', 20, 'P', 0.5),
      sell('K', 'PEP', '2024-04-19', 140, 'P', 1),
      { ...sell('K2', 'PEP', '2024-04-19', 140, 'P', 0.5), type: 'BUY_TO_CLOSE', date: '2024-02-27T15:00:00Z' },
      sell('N', 'KO', '2024-04-19', 40, 'P', 0.2),
      sell('J', 'KO', '2024-04-19', 50, 'P', 1, 'IRA'),
    ];
    const added = await t.request({ method: 'POST', url: '/v1/journal/transactions', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ transactions: rows }) });
    expect(added.statusCode, added.body).toBe(201);
    const { body } = await t.get<{ trades: Array<{ id: string; legs: Array<{ transactionId: string }> }> }>('/v1/journal/trades?limit=100');
    const txIds = (added.json() as { ids: string[] }).ids;
    rows.forEach((row, index) => {
      const trade = body.trades.find((tr) => tr.legs[0]?.transactionId === txIds[index]);
      if (trade) tradeIdOf.set(row.orderId, trade.id);
    });
    expect([...tradeIdOf.keys()].sort()).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'J', 'K', 'N']);
    const accounts = (await t.get<{ accounts: Array<{ id: string; name: string }> }>('/v1/journal/accounts')).body.accounts;
    accountId = accounts.find((a) => a.name === 'Margin')?.id ?? '';
    // The exposure side's alert on F's put (today), and an older one on A's (4 trading days back: beyond the marks' age).
    const alert = (symbol: string, strike: number, timestamp: string) => ({
      ticker: 'KO',
      eventType: 'position' as const,
      expiration: symbol === 'KO240419P00045000' ? '2024-04-19' : '2024-03-22',
      timestamp,
      accountId,
      symbol,
      strike,
      right: 'P' as const,
      quantity: -1,
      level: 'putWall' as const,
      alert: 'crossed' as const,
      previousValue: strike - 1,
      newValue: strike + 0.5,
      gapPct: (0.5 / strike) * 100,
      distancePct: 1,
      spotPrice: 60,
      explanation: `KO put wall ${strike - 1} → ${strike + 0.5} crossed your short ${strike} put`,
    });
    writeNow(t.ctx.db, (turn) => {
      t.ctx.exposure.eventStore.insert(turn, alert('KO240419P00045000', 45, '2024-03-01T19:30:00.000Z'), '2024-03-01');
      t.ctx.exposure.eventStore.insert(turn, alert('KO240322P00055000', 55, '2024-02-26T20:00:00.000Z'), '2024-03-01');
    });
    const put = await t.request({
      method: 'PUT',
      url: '/v1/settings',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ manageRules: RULES }),
    });
    expect(put.statusCode, put.body).toBe(200);
  });

  it('one trade per rule, most urgent first, each with the figure and threshold worked out by hand', async () => {
    const body = await manage(`?accountId=${accountId}`);
    expect(body.asOf).toBe('2024-03-01T20:00:00.000Z');
    // Every open Margin trade: A–H, N (K closed on 02-27; J is the IRA's).
    expect(body.open).toBe(9);
    expect(body.items.map((item) => [nameOf(item.tradeId), item.rules.map((r) => [r.rule, r.value, r.threshold])])).toEqual([
      ['D', [['itm_near_expiry', 7, 7], ['dte', 7, 21]]],
      ['C', [['loss_stop', 2, 2]]],
      ['E', [['dividend', 0.1, 0.485]]],
      ['F', [['level', (0.5 / 45) * 100, 1]]],
      ['A', [['dte', 21, 21]]],
      ['B', [['profit_target', 50, 50]]],
    ]);
  });

  it('the figures behind each: P&L, max profit, % captured, mark, intrinsic, extrinsic, distance to the strike', async () => {
    const body = await manage(`?accountId=${accountId}`);
    const item = (name: string) => body.items.find((i) => nameOf(i.tradeId) === name);
    expect(item('D')).toMatchObject({ symbol: 'KO', strategy: 'short_put', accountName: 'Margin', spot: 60, pnl: -60, unrealizedPL: -60, maxProfit: 150, pctOfMaxProfit: -0.4 });
    expect(item('D')?.mark).toEqual({ price: 2.1, asOf: '2024-03-01T19:30:00.000Z', snapshotId: expect.any(Number) as unknown as number, ageDays: 0, stale: false });
    expect(item('D')?.legs).toEqual([
      {
        symbol: 'KO240308P00062000',
        isOption: true,
        expiration: '2024-03-08',
        strike: 62,
        right: 'P',
        quantity: -1,
        multiplier: 100,
        dte: 7,
        mark: 2.1,
        delta: expect.any(Number) as unknown as number,
        intrinsic: 2,
        extrinsic: 0.1,
        distancePct: ((60 - 62) / 60) * 100,
      },
    ]);
    expect(item('D')?.rules[0]?.message).toBe('The short 62 put (2024-03-08) is 2.00 in the money with 7 days to expiry (rule: within 7): assignment is near.');
    expect(item('C')).toMatchObject({ pnl: -200, maxProfit: 100, pctOfMaxProfit: -2 });
    expect(item('E')?.legs[0]).toMatchObject({ intrinsic: 2, extrinsic: 0.1, distancePct: ((58 - 60) / 60) * 100 });
    expect(item('F')?.rules[0]).toMatchObject({ leg: 'KO240419P00045000', message: 'KO put wall 44 → 45.5 crossed your short 45 put' });
    expect(item('B')).toMatchObject({ pnl: 50, maxProfit: 100, pctOfMaxProfit: 0.5 });
    expect(item('B')?.legs[0]?.distancePct).toBeCloseTo((10 / 60) * 100, 12);
  });

  it('stale and missing marks fire no rule: listed apart with their age', async () => {
    const body = await manage(`?accountId=${accountId}`);
    expect(body.stale.map((s) => [nameOf(s.tradeId), s.symbol, s.leg, s.reason, s.quoteTime, s.ageDays])).toEqual([
      ['G', 'PEP', 'PEP240419P00150000', 'stale', '2024-02-23T21:00:00.000Z', 5],
      ['H', 'XYZ', 'XYZ240419P00020000', 'unmarked', null, null],
    ]);
    expect(body.items.some((i) => i.symbol !== 'KO')).toBe(false);
  });

  it('all accounts by default; an unknown account is a 404', async () => {
    const body = await manage();
    expect(body.open).toBe(10);
    expect(body.items.filter((i) => i.accountName === 'IRA').map((i) => [nameOf(i.tradeId), i.rules.map((r) => r.rule)])).toEqual([['J', ['profit_target']]]);
    const { status, body: problem } = await t.get<{ code: string }>('/v1/journal/manage?accountId=nobody');
    expect([status, problem.code]).toEqual([404, 'UNKNOWN_ACCOUNT']);
  });

  it('asOf: the trades as they stood (K open on 02-23, marked by that day’s PEP snapshot: 50 %); KO without a snapshot yet is unmarked', async () => {
    const body = await manage(`?accountId=${accountId}&asOf=2024-02-23T17:00:00`);
    expect(body.asOf).toBe('2024-02-23T22:00:00.000Z');
    expect(body.items.map((i) => [nameOf(i.tradeId), i.rules.map((r) => [r.rule, r.value])])).toEqual([['K', [['profit_target', 50]]]]);
    expect(body.stale.map((s) => [nameOf(s.tradeId), s.reason]).sort()).toEqual([['A', 'unmarked'], ['B', 'unmarked'], ['C', 'unmarked'], ['D', 'unmarked'], ['E', 'unmarked'], ['F', 'unmarked'], ['H', 'unmarked'], ['N', 'unmarked']]);
    expect(body.open).toBe(10);
  });

  it('each rule can be turned off in the settings', async () => {
    const rules = { profitTargetPct: null, manageAtDte: null, lossStopMultiple: 2, itmWithinDays: null, dividendRisk: false, levelAlerts: false, upcomingDividends: [] };
    const put = await t.request({ method: 'PUT', url: '/v1/settings', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ manageRules: rules }) });
    expect(put.statusCode, put.body).toBe(200);
    const body = await manage(`?accountId=${accountId}`);
    expect(body.rules).toEqual(rules);
    expect(body.items.map((i) => [nameOf(i.tradeId), i.rules.map((r) => r.rule)])).toEqual([['C', ['loss_stop']]]);
    const bad = await t.request({ method: 'PUT', url: '/v1/settings', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ manageRules: { ...rules, profitTargetPct: -5 } }) });
    expect(bad.statusCode).toBe(400);
    const back = await t.request({ method: 'PUT', url: '/v1/settings', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ manageRules: RULES }) });
    expect(back.statusCode, 'the rules put back for the other its').toBe(200);
  });
});
