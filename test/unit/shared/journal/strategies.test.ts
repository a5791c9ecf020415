/**
 * One hand-computed structure per strategy (docs/journal.md §Trades and strategies): legs, credit, max profit and max
 * loss at expiration, collateral (Reg T by hand for naked calls and strangles), P&L, % of max profit and return on
 * collateral. Money in the comments is dollars; the assertions compare minor units (1/10,000).
 */
import { describe, expect, it } from 'vitest';
import { tx } from '../../../journal-helpers';
import { minor, onlyTrade, snapshotLookup, tradesOf } from '../../../trade-helpers';

const MAR = '2024-03-15';
const APR = '2024-04-19';
const opt = (strike: number, right: 'C' | 'P', expiration = MAR) => ({ expiration, strike, right });
/** Open on Friday 2024-03-01 at 10:00 New York, one order. */
const OPEN = '2024-03-01T10:00';
const sto = (strike: number, right: 'C' | 'P', quantity: number, price: number, orderId = 'o1', expiration = MAR, commission = quantity) =>
  tx({ type: 'SELL_TO_OPEN', option: opt(strike, right, expiration), quantity, price, commission, at: OPEN, orderId });
const bto = (strike: number, right: 'C' | 'P', quantity: number, price: number, orderId = 'o1', expiration = MAR, commission = quantity) =>
  tx({ type: 'BUY_TO_OPEN', option: opt(strike, right, expiration), quantity, price, commission, at: OPEN, orderId });
const expire = (strike: number, right: 'C' | 'P', quantity: number, expiration = MAR) =>
  tx({ type: 'EXPIRATION', option: opt(strike, right, expiration), quantity, at: `${expiration}T16:00` });
/** Spot 100, quoted at 09:45 on the open's day. */
const SPOT_100 = snapshotLookup('2024-03-01T14:45:00.000Z', 100);

describe('one leg', () => {
  it('short_put: collateral is strike × 100 × contracts, max loss the strike less the credit', () => {
    const trade = onlyTrade([sto(50, 'P', 2, 1.5), expire(50, 'P', 2)]);
    expect(trade.strategy).toBe('short_put');
    expect(trade.creditMinor, '2 × 100 × 1.50 − 2.00 commission = 298').toBe(minor(298));
    expect(trade.maxProfitMinor, 'the credit, net of its commission').toBe(minor(298));
    expect(trade.maxLossMinor, 'at 0: 2 × 100 × 50 − 298 = 9,702').toBe(minor(9_702));
    expect(trade.collateralMinor, '50 × 100 × 2 = 10,000').toBe(minor(10_000));
    expect(trade.pnlMinor, 'expired worthless: the whole credit').toBe(minor(298));
    expect(trade.pctOfMaxProfit, '298 / 298').toBe(1);
    expect(trade.returnOnCollateral, '298 / 10,000').toBeCloseTo(0.0298, 12);
    expect([trade.status, trade.daysHeld, trade.dteAtEntry, trade.rolls], 'closed on 03-15: 14 days, 14 dte').toEqual(['closed', 14, 14, 0]);
    expect(trade.legs.map((leg) => [leg.role, leg.type, leg.quantity, leg.realizedMinor])).toEqual([
      ['entry', 'SELL_TO_OPEN', 2, null],
      ['close', 'EXPIRATION', 2, minor(298)],
    ]);
  });

  it('short_call (naked): Reg T at the snapshot spot, max loss unbounded', () => {
    const trade = onlyTrade([sto(105, 'C', 1, 2), tx({ type: 'BUY_TO_CLOSE', option: opt(105, 'C'), quantity: 1, price: 0.5, commission: 1, at: '2024-03-08T11:00' })], SPOT_100);
    expect(trade.strategy).toBe('short_call');
    // Reg T: 5 out of the money; max(20 % × 100 − 5, 10 % × 100) = 15 a share × 100 = 1,500, + the 200 premium.
    expect(trade.collateralMinor, '1,500 + 200 = 1,700').toBe(minor(1_700));
    expect([trade.maxProfitMinor, trade.maxLossMinor], 'credit 200 − 1; loss unbounded above').toEqual([minor(199), null]);
    expect(trade.pnlMinor, '200 − 50 − 1 − 1 = 148').toBe(minor(148));
    expect(trade.returnOnCollateral, '148 / 1,700').toBeCloseTo(148 / 1_700, 12);
    expect(trade.pctOfMaxProfit, '148 / 199').toBeCloseTo(148 / 199, 12);
    expect(trade.entrySnapshot, 'the snapshot of 09:45 that morning').toEqual({ quoteTime: '2024-03-01T14:45:00.000Z', spot: 100 });
  });

  it('short_call without a snapshot: Reg T with the strike standing in for the spot (the fallback of every page)', () => {
    const trade = onlyTrade([sto(105, 'C', 1, 2), expire(105, 'C', 1)]);
    // At the money at 105: 20 % × 105 = 21 a share × 100 = 2,100, + the 200 premium = 2,300 (it was null).
    expect([trade.strategy, trade.collateralMinor, trade.collateralRule, trade.pctOfMaxProfit]).toEqual(['short_call', minor(2_300), 'Reg T needs the spot at entry: no snapshot, strike used', 1]);
    expect(trade.returnOnCollateral, '199 / 2,300').toBeCloseTo(199 / 2_300, 12);
  });

  it('covered_call on shares held: collateral is the cost of the shares covered', () => {
    const rows = [
      tx({ type: 'BUY', quantity: 100, price: 95, at: '2024-02-20T10:00', orderId: 's1' }),
      sto(110, 'C', 1, 1.2),
      expire(110, 'C', 1),
    ];
    const [trade, ...rest] = tradesOf(rows).trades;
    expect(rest, 'the shares bought on their own are no trade').toEqual([]);
    expect(trade?.strategy).toBe('covered_call');
    expect(trade?.collateralMinor, '100 × 95 = 9,500').toBe(minor(9_500));
    expect([trade?.creditMinor, trade?.maxProfitMinor, trade?.maxLossMinor], 'the call: 120 − 1; its loss the shares covered less it: 9,500 − 119').toEqual([minor(119), minor(119), minor(9_381)]);
    expect(trade?.returnOnCollateral, '119 / 9,500').toBeCloseTo(119 / 9_500, 12);
  });

  it('a second call on the same 100 shares is naked: shares cover one call', () => {
    const rows = [
      tx({ type: 'BUY', quantity: 100, price: 95, at: '2024-02-20T10:00', orderId: 's1' }),
      sto(110, 'C', 1, 1.2, 'o1'),
      tx({ type: 'SELL_TO_OPEN', option: opt(115, 'C'), quantity: 1, price: 0.6, commission: 1, at: '2024-03-04T10:00', orderId: 'o2' }),
    ];
    expect(tradesOf(rows).trades.map((t) => t.strategy), 'newest first').toEqual(['short_call', 'covered_call']);
  });

  it('long_call: the debit is collateral and max loss; profit unbounded', () => {
    const trade = onlyTrade([bto(100, 'C', 1, 3, 'o1', APR), tx({ type: 'SELL_TO_CLOSE', option: opt(100, 'C', APR), quantity: 1, price: 4.5, commission: 1, at: '2024-03-20T10:00' })]);
    expect(trade.strategy).toBe('long_call');
    expect([trade.creditMinor, trade.maxLossMinor, trade.maxProfitMinor, trade.collateralMinor], 'debit 300 + 1').toEqual([minor(-301), minor(301), null, minor(301)]);
    expect(trade.pnlMinor, '450 − 300 − 2').toBe(minor(148));
    expect(trade.returnOnCollateral, '148 / 301').toBeCloseTo(148 / 301, 12);
    expect(trade.pctOfMaxProfit, 'no max profit').toBeNull();
  });

  it('long_put: max profit is the strike less the debit (the stock at 0)', () => {
    const trade = onlyTrade([bto(100, 'P', 1, 2), expire(100, 'P', 1)]);
    expect(trade.strategy).toBe('long_put');
    expect([trade.maxProfitMinor, trade.maxLossMinor, trade.collateralMinor], '100 × 100 − 201; 201; 201').toEqual([minor(9_799), minor(201), minor(201)]);
    expect(trade.pctOfMaxProfit, 'expired worthless: −201 / 9,799').toBeCloseTo(-201 / 9_799, 12);
  });
});

describe('two legs', () => {
  it('credit_spread (bull put 95/90): max loss the width less the credit, collateral the width', () => {
    const trade = onlyTrade([sto(95, 'P', 1, 1.8), bto(90, 'P', 1, 0.6), expire(95, 'P', 1), expire(90, 'P', 1)]);
    expect(trade.strategy).toBe('credit_spread');
    expect(trade.creditMinor, '180 − 60 − 2').toBe(minor(118));
    expect([trade.maxProfitMinor, trade.maxLossMinor, trade.collateralMinor], '118; 500 − 118 = 382; the width 5 × 100 = 500').toEqual([minor(118), minor(382), minor(500)]);
    expect([trade.pnlMinor, trade.pctOfMaxProfit], 'both expire: the credit').toEqual([minor(118), 1]);
  });

  it('debit_spread (bull call 100/105): max profit the width less the debit', () => {
    const trade = onlyTrade([bto(100, 'C', 1, 3), sto(105, 'C', 1, 1)]);
    expect(trade.strategy).toBe('debit_spread');
    expect([trade.creditMinor, trade.maxProfitMinor, trade.maxLossMinor, trade.collateralMinor], 'debit 200 + 2: profit 500 − 202, loss 202').toEqual([
      minor(-202),
      minor(298),
      minor(202),
      minor(202),
    ]);
    expect(trade.status).toBe('open');
    expect([trade.pnlMinor, trade.returnOnCollateral, trade.pctOfMaxProfit, trade.daysHeld], 'open: nothing realized, no ratios yet').toEqual([0, null, null, null]);
  });

  it('short_strangle: Reg T is the larger side plus the other side\'s premium', () => {
    const trade = onlyTrade([sto(90, 'P', 2, 1), sto(110, 'C', 2, 1.5)], SPOT_100);
    expect(trade.strategy).toBe('short_strangle');
    // Put side: 10 OTM, max(20 − 10, 10) = 10 × 100 × 2 = 2,000 + 200 premium = 2,200.
    // Call side: 10 OTM, 10 × 100 × 2 = 2,000 + 300 premium = 2,300: the larger, plus the put's 200.
    expect(trade.collateralMinor, '2,300 + 200 = 2,500').toBe(minor(2_500));
    expect([trade.creditMinor, trade.maxProfitMinor, trade.maxLossMinor], '200 + 300 − 4').toEqual([minor(496), minor(496), null]);
  });

  it('short_straddle: Reg T with nothing out of the money', () => {
    const trade = onlyTrade([sto(100, 'P', 1, 3), sto(100, 'C', 1, 3.5)], SPOT_100);
    expect(trade.strategy).toBe('short_straddle');
    // Each side 20 % × 100 = 20 × 100 = 2,000; put 2,000 + 300, call 2,000 + 350 (larger) + the put's 300.
    expect(trade.collateralMinor, '2,350 + 300 = 2,650').toBe(minor(2_650));
  });

  it.each([
    ['long_strangle', 90, 110, 1, 1.2],
    ['long_straddle', 100, 100, 3, 3.5],
  ] as const)('%s: the debit is the collateral and the max loss', (strategy, putStrike, callStrike, putPrice, callPrice) => {
    const trade = onlyTrade([bto(putStrike, 'P', 1, putPrice), bto(callStrike, 'C', 1, callPrice)]);
    const debit = (putPrice + callPrice) * 100 + 2;
    expect([trade.strategy, trade.maxLossMinor, trade.collateralMinor, trade.maxProfitMinor]).toEqual([strategy, minor(debit), minor(debit), null]);
  });

  it('calendar: the same strike in two expirations; max loss the debit, max profit unknown', () => {
    const trade = onlyTrade([sto(100, 'C', 1, 2, 'o1', MAR), bto(100, 'C', 1, 3.5, 'o1', APR)]);
    expect(trade.strategy).toBe('calendar');
    expect([trade.creditMinor, trade.maxLossMinor, trade.maxProfitMinor, trade.collateralMinor], 'debit 150 + 2').toEqual([minor(-152), minor(152), null, minor(152)]);
    expect(trade.dteAtEntry, 'to the nearest leg, 03-15').toBe(14);
  });

  it('diagonal (a poor man\'s covered call): long deep call far out, short call near; max loss the debit', () => {
    const trade = onlyTrade([bto(80, 'C', 1, 22, 'o1', '2025-01-17'), sto(105, 'C', 1, 1, 'o1', MAR)]);
    expect(trade.strategy).toBe('diagonal');
    // At the March expiry the long call is worth at least its intrinsic: −2,102 below 80, rising to +398 at 105, flat above.
    expect([trade.creditMinor, trade.maxLossMinor, trade.maxProfitMinor, trade.collateralMinor]).toEqual([minor(-2_102), minor(2_102), null, minor(2_102)]);
  });
});

describe('three and four legs', () => {
  it('iron_condor 90/95/110/115: max loss the wider wing less the credit, collateral the wider wing', () => {
    const trade = onlyTrade([sto(95, 'P', 1, 1.2), bto(90, 'P', 1, 0.4), sto(110, 'C', 1, 1), bto(115, 'C', 1, 0.3)]);
    expect(trade.strategy).toBe('iron_condor');
    expect([trade.creditMinor, trade.maxProfitMinor, trade.maxLossMinor, trade.collateralMinor], '120 − 40 + 100 − 30 − 4 = 146; 500 − 146; both wings 500 wide, only one can lose').toEqual([
      minor(146),
      minor(146),
      minor(354),
      minor(500),
    ]);
  });

  it('iron_butterfly 95/100/100/105', () => {
    const trade = onlyTrade([sto(100, 'P', 1, 3), sto(100, 'C', 1, 3), bto(95, 'P', 1, 1), bto(105, 'C', 1, 1)]);
    expect([trade.strategy, trade.creditMinor, trade.maxLossMinor], '600 − 200 − 4 = 396; 500 − 396').toEqual(['iron_butterfly', minor(396), minor(104)]);
  });

  it('butterfly 1-2-1 of calls: max profit at the body', () => {
    const trade = onlyTrade([bto(95, 'C', 1, 6), sto(100, 'C', 2, 3.2), bto(105, 'C', 1, 1.4)]);
    expect(trade.strategy).toBe('butterfly');
    // Debit 600 − 640 + 140 = 100, + 4 commissions: at 100 the 95 call is worth 500.
    expect([trade.creditMinor, trade.maxProfitMinor, trade.maxLossMinor, trade.collateralMinor]).toEqual([minor(-104), minor(396), minor(104), minor(104)]);
  });

  it('custom: a put credit spread with extra naked puts (4-2-2) has a bounded loss, its collateral', () => {
    const trade = onlyTrade([sto(54, 'P', 4, 0.5), sto(61, 'P', 2, 1.6), bto(62, 'P', 2, 1.9)]);
    expect(trade.strategy).toBe('custom');
    // Credit 200 + 320 − 380 − 8 = 132; at 0: −4 × 5,400 − 2 × 6,100 + 2 × 6,200 + 132 = −21,400 + 132 = −21,268.
    // Collateral: the 62/61 pair is a debit spread, 380 + 2 − (320 − 2) = 64; the four 54 puts cash-secured, 21,600.
    expect([trade.creditMinor, trade.maxLossMinor, trade.collateralMinor]).toEqual([minor(132), minor(21_268), minor(21_664)]);
    // From 61 down to 54 the spread is worth its full width, 1 × 100 × 2 = 200, and the naked puts nothing: 132 + 200.
    expect(trade.maxProfitMinor).toBe(minor(332));
  });

  it('custom: a ratio call spread (1 × 2) is no vertical, and its loss is unbounded', () => {
    const trade = onlyTrade([bto(100, 'C', 1, 3), sto(105, 'C', 2, 1.5)]);
    // Collateral: 100/105 one pair bought for 301 − (150 − 1) = 152; the other 105 call naked, Reg T at the strike
    // (no snapshot): 20 % × 105 × 100 = 2,100 + its 150 premium = 2,250. Together 2,402.
    expect([trade.strategy, trade.maxLossMinor, trade.collateralMinor]).toEqual(['custom', null, minor(2_402)]);
  });
});
