/**
 * One collateral on every page (DESIGN §5 "Assignment, collateral and levels in trades", issue 27 item 3): E*TRADE SPXW
 * 5-wide put spreads tie up their widths on Trades and Campaigns (the campaign's peak is the busiest close's sum of its
 * spreads, not the short puts' strike notional of $2,045,500 users saw); a short strangle and a naked call show the
 * same collateral on Trades, Campaigns, Positions, the stats' return on collateral and the lake's trades table.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CampaignsResponseT, PositionsResponseT, StatsResponseT, TradesResponseT } from '../../../../../src-shared/api/schemas';
import type { OptionContract } from '../../../../../src-shared/exposure/model';
import { exportLake } from '../../../../../src-main/services/lake/export';
import { openDuck, scratchFolders } from '../../../../duck';
import { REPO_ROOT, storeChain, useTestApp } from '../../../../helper';

const t = useTestApp();

describe('E*TRADE SPXW put credit spreads (a self-written file in E*TRADE’s columns)', () => {
  it('each trade is its width; the campaign’s peak is the busiest close’s sum of the open spreads’ widths', async () => {
    const file = readFileSync(join(REPO_ROOT, 'test/fixtures/brokers/etrade_spxw_put_spreads_selfwritten.csv'));
    const imported = await t.request({ method: 'POST', url: '/v1/imports', headers: { 'content-type': 'text/csv' }, payload: file });
    expect(imported.statusCode, imported.body).toBe(201);

    const trades = await t.get<TradesResponseT>('/v1/journal/trades?limit=100');
    const byShort = new Map(trades.body.trades.map((trade) => [trade.mainLeg?.strike, trade]));
    // 5 wide × 100: A 4600/4595 × 1, B 4550/4545 × 2, C 4500/4495 × 1, D 4650/4645 × 2.
    expect([4600, 4550, 4500, 4650].map((strike) => [strike, byShort.get(strike)?.strategy, byShort.get(strike)?.collateral])).toEqual([
      [4600, 'credit_spread', 500],
      [4550, 'credit_spread', 1000],
      [4500, 'credit_spread', 500],
      [4650, 'credit_spread', 1000],
    ]);
    // D: credit 438.70 − 371.30 = 67.40; max loss 1,000 − 67.40.
    expect([byShort.get(4650)?.maxProfit, byShort.get(4650)?.maxLoss]).toEqual([67.4, 932.6]);

    const chains = await t.get<CampaignsResponseT>('/v1/journal/chains?asOf=2024-02-05');
    expect(chains.body.chains).toHaveLength(1);
    const [campaign] = chains.body.chains;
    // Open at each close: 01-02 A 500; 01-03 A + B 1,500; 01-04..09 A + B + C 2,000; 01-10 A closed: 1,500;
    // 01-11..18 B + C + D = 1,000 + 500 + 1,000 = 2,500 (the busiest); 01-19 C expired: 2,000; 01-26 B expired: 1,000.
    expect(campaign?.collateralPeak).toBe(2500);
    const [b, c, d] = [4550, 4500, 4650].map((strike) => byShort.get(strike)?.collateral ?? NaN);
    expect(campaign?.collateralPeak, 'the open trades’ widths on 01-11').toBe((b ?? 0) + (c ?? 0) + (d ?? 0));
    // pnl: A 309.35 − 260.65 − 80.65 + 54.35 = 22.40; B 478.70 − 411.30 = 67.40; C 149.35 − 125.65 = 23.70; D 67.40.
    expect(campaign?.pnl).toBe(180.9);
    expect(campaign?.returnOnCollateral).toBeCloseTo(180.9 / 2500, 12);
  });
});

function contract(root: string, expiration: string, right: 'C' | 'P', strike: number): OptionContract {
  return { root, expiration, strike, right, openInterest: 1000, iv: 0.3, bid: 1.4, ask: 1.6, multiplier: 100 };
}

describe('a short strangle and a naked call: one collateral on every page', () => {
  const folders = scratchFolders();
  afterAll(() => folders.removeAll());

  it('Trades, Campaigns, Positions, the stats and the lake’s trades table agree', async () => {
    // Spot 100 at 10:30 New York on 2024-03-01, the morning of both openings.
    for (const symbol of ['STR', 'NKC']) {
      storeChain(t.ctx, {
        symbol,
        spot: 100,
        quoteTime: '2024-03-01T15:30:00Z',
        source: 'generic',
        contracts: [contract(symbol, '2024-04-19', 'P', 90), contract(symbol, '2024-04-19', 'C', 110), contract(symbol, '2024-05-17', 'C', 105)],
      });
    }
    const stored = await t.request({
      method: 'POST',
      url: '/v1/journal/transactions',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        transactions: [
          { account: 'Margin', date: '2024-03-01T16:00:00Z', type: 'SELL_TO_OPEN', symbol: 'STR', expiration: '2024-04-19', strike: 90, right: 'P', quantity: 1, price: 1, orderId: 's1' },
          { account: 'Margin', date: '2024-03-01T16:00:00Z', type: 'SELL_TO_OPEN', symbol: 'STR', expiration: '2024-04-19', strike: 110, right: 'C', quantity: 1, price: 1.5, orderId: 's1' },
          { account: 'Margin', date: '2024-03-01T16:05:00Z', type: 'SELL_TO_OPEN', symbol: 'NKC', expiration: '2024-05-17', strike: 105, right: 'C', quantity: 2, price: 2, orderId: 'n1' },
          // The strangle is bought back on 03-08 (a closed trade for the stats); the naked call stays open.
          { account: 'Margin', date: '2024-03-08T16:00:00Z', type: 'BUY_TO_CLOSE', symbol: 'STR', expiration: '2024-04-19', strike: 90, right: 'P', quantity: 1, price: 0.5, orderId: 's2' },
          { account: 'Margin', date: '2024-03-08T16:00:00Z', type: 'BUY_TO_CLOSE', symbol: 'STR', expiration: '2024-04-19', strike: 110, right: 'C', quantity: 1, price: 0.5, orderId: 's2' },
        ],
      }),
    });
    expect(stored.statusCode, stored.body).toBe(201);

    // By hand, Reg T at spot 100: strangle put 90 (10 out) max(20 − 10, 10) × 100 = 1,000 + 100 premium; call 110
    // (10 out) 1,000 + 150: the call side 1,150 + the put's 100 = 1,250. Naked call 105 × 2 (5 out): max(20 − 5, 10) = 15
    // × 100 × 2 = 3,000 + 400 premium = 3,400.
    const hand = { STR: 1250, NKC: 3400 };

    const trades = await t.get<TradesResponseT>('/v1/journal/trades');
    const tradeOf = (underlying: string) => trades.body.trades.find((trade) => trade.underlying === underlying);
    expect([tradeOf('STR')?.strategy, tradeOf('STR')?.collateral, tradeOf('NKC')?.strategy, tradeOf('NKC')?.collateral]).toEqual(['short_strangle', hand.STR, 'short_call', hand.NKC]);
    expect(tradeOf('NKC')?.collateralRule).toBe('Reg T, spot 100.00 from the 2024-03-01 snapshot');

    // Campaigns: the peak (the strangle's at its opening day's close; the naked call still open).
    const chains = await t.get<CampaignsResponseT>('/v1/journal/chains?asOf=2024-03-11');
    const chainOf = (underlying: string) => chains.body.chains.find((c) => c.underlying === underlying);
    expect([chainOf('STR')?.collateralPeak, chainOf('NKC')?.collateralPeak]).toEqual([hand.STR, hand.NKC]);

    // Positions: on 03-05 both are open; each position carries its part, the underlying's sum is the figure.
    const positions = await t.get<PositionsResponseT>('/v1/journal/positions?asOf=2024-03-05');
    const sumOf = (underlying: string) => positions.body.positions.filter((p) => p.underlying === underlying).reduce((sum, p) => sum + p.collateral, 0);
    expect([sumOf('STR'), sumOf('NKC')]).toEqual([hand.STR, hand.NKC]);
    expect(positions.body.totals.collateral).toBe(hand.STR + hand.NKC);

    // The stats' return on collateral reads the same figure: (100 + 150 − 50 − 50) / 1,250.
    const stats = await t.get<StatsResponseT>('/v1/journal/stats?groupBy=underlying');
    expect(stats.body.rows.find((r) => r.key === 'STR')?.avgReturnOnCollateral).toBeCloseTo(150 / hand.STR, 12);

    // The research export's trades table.
    const lake = join(folders.make('strikebook-lake-'), 'lake');
    const exported = exportLake(t.ctx.db, { out: lake }, 0.04);
    expect(exported.ok).toBe(true);
    const duck = await openDuck();
    try {
      const rows = await duck.rows(`SELECT underlying, collateral::VARCHAR AS collateral FROM read_parquet('${join(lake, 'trades.parquet')}') WHERE underlying IN ('NKC', 'STR') ORDER BY underlying`);
      expect(rows.map((r) => [r.underlying, Number(r.collateral)])).toEqual([
        ['NKC', hand.NKC],
        ['STR', hand.STR],
      ]);
    } finally {
      duck.close();
    }
  });
});
