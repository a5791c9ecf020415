/**
 * Assignment, exercise and the figures of a managed trade (DESIGN §5 "Assignment, collateral and levels in trades",
 * issue 27 items 1 and 2): the shares an assignment delivers, and the calls sold against them, stay in the trade until
 * it is flat, so its P&L is the wheel cycle's; `outcome`, `rolled` and `optionPL` (the options' cash alone) beside it;
 * max profit counts every credit of the trade less the debits paid to roll; max loss is bounded for covered calls and
 * cash-secured puts. Every figure is worked out by hand in the comments (dollars; assertions in minor units).
 */
import { describe, expect, it } from 'vitest';
import { DEMO_JOURNAL_SEED, demoTransactions } from '../../../../src-shared/demo/journal';
import type { Transaction } from '../../../../src-shared/journal/model';
import { ledgerOf, stored, tx } from '../../../journal-helpers';
import { minor, onlyTrade, tradesOf } from '../../../trade-helpers';

const MAR = '2024-03-15';
const APR = '2024-04-19';
const MAY = '2024-05-17';
const opt = (strike: number, right: 'C' | 'P', expiration = MAR) => ({ expiration, strike, right });

/** Σ trade P&L + the P&L of shares outside any trade = the ledger's realized, row by row. */
function expectAddsUpToLedger(rows: readonly Transaction[]): void {
  const book = tradesOf(rows);
  const ours = new Map<string, number>(book.outsideByTx);
  for (const trade of book.trades) for (const leg of trade.legs) if (leg.realizedMinor !== null) ours.set(leg.txId, (ours.get(leg.txId) ?? 0) + leg.realizedMinor);
  expect(Object.fromEntries(ours)).toEqual(Object.fromEntries(ledgerOf(rows).realizedByTx));
}

describe('the demo’s TSLA 365 put, rolled twice then assigned (issue 27: +$2,951.40 and 215 % of max on Trades)', () => {
  // The demo of 28 November 2026 (the users' day): its rows of the trade, as demoTransactions writes them.
  const rows = stored(demoTransactions(DEMO_JOURNAL_SEED, '2026-11-28'));
  const book = tradesOf(rows);
  const trade = book.trades.find((t) => t.underlying === 'TSLA' && t.legs.some((leg) => leg.type === 'ASSIGNMENT'));

  it('its P&L is the wheel cycle’s: the options’ cash and the stock leg, as its campaign says', () => {
    expect(trade?.legs.map((leg) => [leg.day, leg.type, leg.symbol, leg.quantity, leg.cashMinor])).toEqual([
      ['2026-02-17', 'SELL_TO_OPEN', 'TSLA260320P00365000', 1, minor(1371.88)], // 13.73 × 100 − 1 commission − 0.12 fees
      ['2026-03-13', 'SELL_TO_OPEN', 'TSLA260417P00365000', 1, minor(2247.88)], // the roll: 22.49 × 100 − 1.12
      ['2026-03-13', 'BUY_TO_CLOSE', 'TSLA260320P00365000', 1, minor(-937.12)], // 9.37 × 100 + 0.12
      ['2026-04-06', 'SELL_TO_OPEN', 'TSLA260515P00365000', 1, minor(6940.88)], // the second roll: 69.42 × 100 − 1.12
      ['2026-04-06', 'BUY_TO_CLOSE', 'TSLA260417P00365000', 1, minor(-6672.12)], // 66.72 × 100 + 0.12
      ['2026-05-15', 'BUY', 'TSLA', 100, minor(-36500.13)], // the delivered shares: 100 × 365 + 0.13 fees
      ['2026-05-15', 'ASSIGNMENT', 'TSLA260515P00365000', 1, 0],
      ['2026-05-18', 'SELL', 'TSLA', 100, minor(25474.87)], // sold the next trading day: 100 × 254.75 − 0.13
    ]);
    // Options: 1,371.88 + 2,247.88 − 937.12 + 6,940.88 − 6,672.12 = 2,951.40 (what Trades showed as the trade's P&L);
    // shares: −36,500.13 + 25,474.87 = −11,025.26. The trade: 2,951.40 − 11,025.26 = −8,073.86.
    expect(trade?.pnlMinor).toBe(minor(-8073.86));
    expect(trade?.optionPLMinor, 'the broker statement’s view: the options alone').toBe(minor(2951.4));
    expect([trade?.status, trade?.outcome, trade?.rolled, trade?.rolls, trade?.closeDay]).toEqual(['closed', 'assigned', true, 2, '2026-05-18']);
    const campaign = ledgerOf(rows).campaigns.find((c) => c.id === trade?.campaignId);
    expect(campaign?.plMinor, 'its campaign lost the same').toBe(minor(-8073.86));
    expect(book.outsideByTx.size, 'no share row of the demo is outside a trade now').toBe(0);
  });

  it('max profit is every credit less the debits paid to roll; % of max and max loss follow', () => {
    // 1,371.88 + 2,247.88 + 6,940.88 − 937.12 − 6,672.12 = 2,951.40 (was 1,371.88: 215 %).
    expect(trade?.maxProfitMinor).toBe(minor(2951.4));
    expect(trade?.pctOfMaxProfit).toBeCloseTo(-8073.86 / 2951.4, 12);
    // 365 × 100 − 2,951.40 = 33,548.60.
    expect(trade?.maxLossMinor).toBe(minor(33548.6));
    // The shares held at their cost, 36,500.13: the campaign's peak too.
    expect(trade?.collateralMinor).toBe(minor(36500.13));
    expect(ledgerOf(rows).campaigns.find((c) => c.id === trade?.campaignId)?.collateralPeakMinor).toBe(minor(36500.13));
  });
});

describe('a wheel cycle is one trade', () => {
  const put = opt(50, 'P');
  const call = opt(52, 'C', APR);
  // At one instant the ledger walks the stock row before the settlement (order.ts phases); half an hour later, after it.
  const cycle = (stockFirst: boolean) => [
    tx({ type: 'SELL_TO_OPEN', option: put, quantity: 1, price: 2, commission: 1, at: '2024-03-01T10:00', orderId: 'o1' }),
    tx({ type: 'ASSIGNMENT', option: put, quantity: 1, at: `${MAR}T16:00` }),
    tx({ type: 'BUY', quantity: 100, price: 50, fees: 0.1, at: stockFirst ? `${MAR}T16:00` : `${MAR}T16:30` }),
    tx({ type: 'SELL_TO_OPEN', option: call, quantity: 1, price: 1.5, commission: 1, at: '2024-03-18T10:00', orderId: 'o2' }),
    tx({ type: 'ASSIGNMENT', option: call, quantity: 1, at: `${APR}T16:00` }),
    tx({ type: 'SELL', quantity: 100, price: 52, fees: 0.1, at: stockFirst ? `${APR}T16:00` : `${APR}T16:30` }),
  ];

  it.each([false, true])('put assigned, call sold against the shares, called away (stock row first: %s)', (stockFirst) => {
    const rows = cycle(stockFirst);
    const trade = onlyTrade(rows);
    // Options: put 200 − 1 = 199, call 150 − 1 = 149; shares 5,200 − 0.1 − (5,000 + 0.1) = 199.80. Total 547.80.
    expect([trade.strategy, trade.status, trade.outcome, trade.rolled]).toEqual(['short_put', 'closed', 'assigned', false]);
    expect(trade.pnlMinor).toBe(minor(547.8));
    expect(trade.optionPLMinor).toBe(minor(348));
    expect(trade.legs.reduce((sum, leg) => sum + leg.cashMinor, 0), 'its legs’ cash, stock legs included').toBe(minor(547.8));
    expect(trade.legs.map((leg) => leg.role)).toEqual(stockFirst ? ['entry', 'open', 'close', 'open', 'close', 'close'] : ['entry', 'close', 'open', 'open', 'close', 'close']);
    // Credits 199 + 149 = 348: the max profit. Max loss: the larger risk of its structures, the put's 50 × 100 = 5,000 and
    // the call's covered shares at their cost 5,000.10, less the credits: 5,000.10 − 348 = 4,652.10.
    expect([trade.maxProfitMinor, trade.maxLossMinor]).toEqual([minor(348), minor(4652.1)]);
    expect(trade.pctOfMaxProfit).toBeCloseTo(547.8 / 348, 12);
    // The larger of the put's 5,000 and the shares' 5,000.10.
    expect(trade.collateralMinor).toBe(minor(5000.1));
    expect(tradesOf(rows).outsideByTx.size).toBe(0);
    expectAddsUpToLedger(rows);
  });

  it('open while the shares are held, the shares its open part (marked like any position)', () => {
    const rows = cycle(false).slice(0, 3);
    const book = tradesOf(rows);
    const [trade] = book.trades;
    expect([book.trades.length, trade?.status, trade?.outcome, trade?.pnlMinor]).toEqual([1, 'open', 'open', minor(199)]);
    // The 100 shares at 5,000 + 0.10 fees.
    expect(book.openParts.get(trade?.id ?? '')).toEqual([{ accountId: 'acct', currency: 'USD', symbol: 'XYZ', quantity: 100, entryGrossMinor: minor(5000), entryCostsMinor: minor(0.1) }]);
  });

  it('a lost cycle is a loss: the shares sold below the strike', () => {
    const rows = [...cycle(false).slice(0, 3), tx({ type: 'SELL', quantity: 100, price: 40, at: '2024-03-20T10:00', orderId: 's' })];
    const trade = onlyTrade(rows);
    // 199 + 4,000 − 5,000.10 = −801.10: a loss, although the put's premium is a gain on the statement.
    expect([trade.outcome, trade.pnlMinor, trade.optionPLMinor]).toEqual(['assigned', minor(-801.1), minor(199)]);
    expectAddsUpToLedger(rows);
  });

  it('a long call exercised: the shares bought join the trade, outcome exercised', () => {
    const c = opt(100, 'C');
    const rows = [
      tx({ type: 'BUY_TO_OPEN', option: c, quantity: 1, price: 3, commission: 1, at: '2024-03-01T10:00', orderId: 'o1' }),
      tx({ type: 'EXERCISE', option: c, quantity: 1, at: `${MAR}T16:00` }),
      tx({ type: 'BUY', quantity: 100, price: 100, at: `${MAR}T16:00` }),
      tx({ type: 'SELL', quantity: 100, price: 106, at: '2024-03-18T10:00', orderId: 's' }),
    ];
    const trade = onlyTrade(rows);
    // −301 for the call, +600 on the shares: 299.
    expect([trade.strategy, trade.outcome, trade.pnlMinor, trade.optionPLMinor]).toEqual(['long_call', 'exercised', minor(299), minor(-301)]);
    expectAddsUpToLedger(rows);
  });

  it('shares bought on their own stay outside; a stock row at another price than the strike is no delivery', () => {
    const rows = [
      tx({ type: 'SELL_TO_OPEN', option: put, quantity: 1, price: 2, at: '2024-03-01T10:00', orderId: 'o1' }),
      tx({ type: 'BUY', quantity: 100, price: 48, at: `${MAR}T11:00`, orderId: 'b' }),
      tx({ type: 'EXPIRATION', option: put, quantity: 1, at: `${MAR}T16:00` }),
    ];
    const book = tradesOf(rows);
    expect(book.trades.map((t) => [t.outcome, t.pnlMinor, t.legs.length])).toEqual([['expired', minor(200), 2]]);
    expect(book.trades[0]?.status).toBe('closed');
  });
});

describe('outcomes', () => {
  it('expired, closed, rolled', () => {
    const expired = onlyTrade([
      tx({ type: 'SELL_TO_OPEN', option: opt(50, 'P'), quantity: 1, price: 1, at: '2024-03-01T10:00', orderId: 'a' }),
      tx({ type: 'EXPIRATION', option: opt(50, 'P'), quantity: 1, at: `${MAR}T16:00` }),
    ]);
    const closed = onlyTrade([
      tx({ type: 'SELL_TO_OPEN', option: opt(50, 'P'), quantity: 1, price: 1, at: '2024-03-01T10:00', orderId: 'a' }),
      tx({ type: 'BUY_TO_CLOSE', option: opt(50, 'P'), quantity: 1, price: 0.5, at: '2024-03-05T10:00', orderId: 'b' }),
    ]);
    expect([expired.outcome, expired.rolled, closed.outcome, closed.rolled]).toEqual(['expired', false, 'closed', false]);
  });
});

describe('max profit and % of max of a twice-rolled trade (issue 27: 385 % and 678 % of the first credit)', () => {
  const rows = [
    // Sold for 2.00 − 1 commission = 199.
    tx({ type: 'SELL_TO_OPEN', option: opt(100, 'P'), quantity: 1, price: 2, commission: 1, at: '2024-03-01T10:00', orderId: 'o1' }),
    // Rolled out: bought back for 300, sold the April put for 400 − 1 = 399.
    tx({ type: 'BUY_TO_CLOSE', option: opt(100, 'P'), quantity: 1, price: 3, at: '2024-03-12T10:00', orderId: 'r1' }),
    tx({ type: 'SELL_TO_OPEN', option: opt(100, 'P', APR), quantity: 1, price: 4, commission: 1, at: '2024-03-12T10:00', orderId: 'r1' }),
    // Rolled again: bought back for 500, sold the May put for 650 − 1 = 649.
    tx({ type: 'BUY_TO_CLOSE', option: opt(100, 'P', APR), quantity: 1, price: 5, at: '2024-04-15T10:00', orderId: 'r2' }),
    tx({ type: 'SELL_TO_OPEN', option: opt(100, 'P', MAY), quantity: 1, price: 6.5, commission: 1, at: '2024-04-15T10:00', orderId: 'r2' }),
    // Closed for 100.
    tx({ type: 'BUY_TO_CLOSE', option: opt(100, 'P', MAY), quantity: 1, price: 1, at: '2024-05-10T10:00', orderId: 'c' }),
  ];

  it('max profit 199 + 399 + 649 − 300 − 500 = 447; pnl 347; 347 / 447 of max', () => {
    const trade = onlyTrade(rows);
    expect([trade.rolls, trade.rolled, trade.outcome]).toEqual([2, true, 'closed']);
    expect(trade.creditMinor, 'the first structure’s credit').toBe(minor(199));
    expect(trade.maxProfitMinor).toBe(minor(447));
    // 199 − 300 + 399 − 500 + 649 − 100 = 347 (347 / 199 = 174 % of the first credit before).
    expect(trade.pnlMinor).toBe(minor(347));
    expect(trade.pctOfMaxProfit).toBeCloseTo(347 / 447, 12);
    // 100 × 100 − 447 = 9,553; collateral the strike, 10,000.
    expect([trade.maxLossMinor, trade.collateralMinor]).toEqual([minor(9553), minor(10_000)]);
  });
});

describe('what a rolled trade holds is measured once its structure is on', () => {
  it('a put spread filled in two fills half a minute apart, its short leg rolled down: the larger width less every credit', () => {
    const rows = [
      tx({ type: 'SELL_TO_OPEN', option: opt(95, 'P'), quantity: 1, price: 1.8, at: '2024-03-01T10:00:05', orderId: 'o1' }),
      tx({ type: 'BUY_TO_OPEN', option: opt(90, 'P'), quantity: 1, price: 0.6, at: '2024-03-01T10:00:40', orderId: 'o1' }),
      tx({ type: 'BUY_TO_CLOSE', option: opt(95, 'P'), quantity: 1, price: 0.4, at: '2024-03-08T10:00', orderId: 'r' }),
      tx({ type: 'SELL_TO_OPEN', option: opt(94, 'P'), quantity: 1, price: 1.2, at: '2024-03-08T10:00', orderId: 'r' }),
    ];
    const trade = onlyTrade(rows);
    // Credits 180 − 60 − 40 + 120 = 200. Widths: 95/90 = 500, then 94/90 = 400. Max loss 500 − 200 = 300 (the short put
    // alone, before its long was filled, is no structure of the trade); collateral the 500 width.
    expect([trade.rolls, trade.maxProfitMinor, trade.maxLossMinor, trade.collateralMinor]).toEqual([1, minor(200), minor(300), minor(500)]);
  });
});

describe('max loss is bounded whenever the risk is', () => {
  it('a covered call on shares held: the covered shares’ cost less the credits', () => {
    const rows = [
      tx({ type: 'BUY', quantity: 100, price: 50, at: '2024-03-01T10:00', orderId: 'b' }),
      tx({ type: 'SELL_TO_OPEN', option: opt(55, 'C'), quantity: 1, price: 1.2, commission: 1, at: '2024-03-04T10:00', orderId: 'c' }),
    ];
    const trade = onlyTrade(rows);
    // 100 × 50 − (120 − 1) = 4,881 (it was ∞); collateral the shares' 5,000.
    expect([trade.strategy, trade.maxLossMinor, trade.maxProfitMinor, trade.collateralMinor]).toEqual(['covered_call', minor(4881), minor(119), minor(5000)]);
  });

  it('a cash-secured put: strike × 100 × contracts less the credit', () => {
    const trade = onlyTrade([tx({ type: 'SELL_TO_OPEN', option: opt(40, 'P'), quantity: 2, price: 0.8, commission: 1, at: '2024-03-04T10:00', orderId: 'p' })]);
    // 40 × 100 × 2 − (160 − 1) = 7,841; collateral 8,000.
    expect([trade.maxLossMinor, trade.collateralMinor]).toEqual([minor(7841), minor(8000)]);
  });

  it('a naked call and short shares stay unbounded (null)', () => {
    const naked = onlyTrade([tx({ type: 'SELL_TO_OPEN', option: opt(55, 'C'), quantity: 1, price: 1.2, at: '2024-03-04T10:00', orderId: 'c' })]);
    expect([naked.strategy, naked.maxLossMinor]).toEqual(['short_call', null]);
  });

  it('a trade opened before the history has unknown figures (null), not unbounded ones', () => {
    const [trade] = tradesOf([tx({ type: 'BUY_TO_CLOSE', option: opt(50, 'P'), quantity: 1, price: 0.5, at: '2024-03-04T10:00' })]).trades;
    expect([trade?.openedBeforeHistory, trade?.maxLossMinor, trade?.maxProfitMinor, trade?.collateralMinor, trade?.pnlMinor, trade?.optionPLMinor, trade?.outcome]).toEqual([
      true,
      null,
      null,
      null,
      null,
      null,
      'closed',
    ]);
  });
});
