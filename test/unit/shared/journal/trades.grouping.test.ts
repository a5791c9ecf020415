/**
 * How fills become trades and how trades are managed (docs/journal.md §Trades and strategies): closes one leg at a
 * time, rolls joining their trade, strangles taken off over days, buy-writes, a poor man's covered call, 0DTE flies of
 * several fills, the wheel across trades and campaigns, closes before history, FIFO across two trades, stable ids.
 * Hand computations in dollars in the comments; every scenario also adds up to the ledger's realized P&L.
 */
import { describe, expect, it } from 'vitest';
import type { Transaction } from '../../../../src-shared/journal/model';
import { ledgerOf, tx } from '../../../journal-helpers';
import { minor, onlyTrade, tradesOf } from '../../../trade-helpers';

const MAR = '2024-03-15';
const APR = '2024-04-19';
const opt = (strike: number, right: 'C' | 'P', expiration = MAR) => ({ expiration, strike, right });

/** Σ trade P&L + the P&L of shares outside any trade = the ledger's realized, row by row. */
function expectAddsUpToLedger(rows: readonly Transaction[]): void {
  const book = tradesOf(rows);
  const ledger = ledgerOf(rows);
  const ours = new Map<string, number>(book.outsideByTx);
  for (const trade of book.trades) {
    for (const leg of trade.legs) if (leg.realizedMinor !== null) ours.set(leg.txId, (ours.get(leg.txId) ?? 0) + leg.realizedMinor);
  }
  expect(Object.fromEntries(ours), 'per row: the trades\' realized (and shares outside them) = the ledger\'s').toEqual(Object.fromEntries(ledger.realizedByTx));
}

describe('a trade is managed until flat', () => {
  const spread = [
    tx({ type: 'SELL_TO_OPEN', option: opt(95, 'P'), quantity: 1, price: 1.8, commission: 1, at: '2024-03-01T10:00', orderId: 'o1' }),
    tx({ type: 'BUY_TO_OPEN', option: opt(90, 'P'), quantity: 1, price: 0.6, commission: 1, at: '2024-03-01T10:00', orderId: 'o1' }),
  ];
  const shortLegOut = tx({ type: 'BUY_TO_CLOSE', option: opt(95, 'P'), quantity: 1, price: 0.4, at: '2024-03-05T10:00', orderId: 'o2' });
  const longLegOut = tx({ type: 'SELL_TO_CLOSE', option: opt(90, 'P'), quantity: 1, price: 0.1, at: '2024-03-07T10:00', orderId: 'o3' });

  it('a vertical closed one leg at a time stays one trade, open until its last leg is out', () => {
    const half = onlyTrade([...spread, shortLegOut]);
    expect([half.status, half.closedAt, half.daysHeld], 'the long put is still open').toEqual(['open', null, null]);
    expect(half.pnlMinor, 'realized so far: the short put 180 − 40 − 1').toBe(minor(139));
    const whole = onlyTrade([...spread, shortLegOut, longLegOut]);
    expect([whole.strategy, whole.status, whole.closeDay, whole.daysHeld]).toEqual(['credit_spread', 'closed', '2024-03-07', 6]);
    expect(whole.pnlMinor, '139 + (10 − 60 − 1) = 88').toBe(minor(88));
    expect(whole.pctOfMaxProfit, '88 / 118 (credit 180 − 60 − 2)').toBeCloseTo(88 / 118, 12);
    expect(whole.returnOnCollateral, '88 / 500 (collateral: the width, 5 × 100)').toBeCloseTo(88 / 500, 12);
    expect(whole.legs.map((leg) => [leg.role, leg.symbol.slice(-9), leg.realizedMinor])).toEqual([
      ['entry', 'P00095000', null],
      ['entry', 'P00090000', null],
      ['close', 'P00095000', minor(139)],
      ['close', 'P00090000', minor(-51)],
    ]);
    expectAddsUpToLedger([...spread, shortLegOut, longLegOut]);
  });

  it('an iron condor rolled on its untested side keeps one trade, its first structure and two rolls', () => {
    const order = (type: 'SELL_TO_OPEN' | 'BUY_TO_OPEN' | 'BUY_TO_CLOSE' | 'SELL_TO_CLOSE', strike: number, right: 'C' | 'P', price: number, at: string, orderId: string, commission: number) =>
      tx({ type, option: opt(strike, right), quantity: 1, price, commission, at, orderId });
    const rows = [
      order('SELL_TO_OPEN', 95, 'P', 1.2, '2024-03-01T10:00', 'o1', 1),
      order('BUY_TO_OPEN', 90, 'P', 0.4, '2024-03-01T10:00', 'o1', 1),
      order('SELL_TO_OPEN', 110, 'C', 1, '2024-03-01T10:00', 'o1', 1),
      order('BUY_TO_OPEN', 115, 'C', 0.3, '2024-03-01T10:00', 'o1', 1),
      // The stock fell towards 96: the call spread 110/115 is rolled down to 100/105 in one order.
      order('BUY_TO_CLOSE', 110, 'C', 0.1, '2024-03-08T11:00', 'o2', 0),
      order('SELL_TO_CLOSE', 115, 'C', 0.02, '2024-03-08T11:00', 'o2', 0),
      order('SELL_TO_OPEN', 100, 'C', 0.9, '2024-03-08T11:00', 'o2', 1),
      order('BUY_TO_OPEN', 105, 'C', 0.3, '2024-03-08T11:00', 'o2', 1),
      ...[95, 90].map((strike) => tx({ type: 'EXPIRATION', option: opt(strike, 'P'), quantity: 1, at: `${MAR}T16:00` })),
      ...[100, 105].map((strike) => tx({ type: 'EXPIRATION', option: opt(strike, 'C'), quantity: 1, at: `${MAR}T16:00` })),
    ];
    const trade = onlyTrade(rows);
    expect(trade.strategy, 'named by its first structure').toBe('iron_condor');
    expect(trade.rolls, 'the short call 110 → 100 and the long call 115 → 105: two rolls by the ledger\'s rule').toBe(2);
    expect(ledgerOf(rows).rolls.length, 'the ledger counts the same two').toBe(2);
    expect(trade.legs.filter((leg) => leg.role === 'open').map((leg) => leg.symbol.slice(-9)), 'the new legs joined the condor').toEqual(['C00100000', 'C00105000']);
    // Credit 146; max profit every credit less the roll's debits: 146 − 10 + 2 (the old call spread bought back) + 89 − 31
    // (the new one sold) = 196; max loss the 500-wide condor, before and after the roll, less them: 304.
    expect([trade.creditMinor, trade.maxProfitMinor, trade.maxLossMinor, trade.collateralMinor]).toEqual([minor(146), minor(196), minor(304), minor(500)]);
    // 95P 120 − 1, 90P −40 − 1, 110C 100 − 10 − 1, 115C 2 − 30 − 1, 100C 90 − 1, 105C −30 − 1.
    expect(trade.pnlMinor, '119 − 41 + 89 − 29 + 89 − 31 = 196').toBe(minor(196));
    expect(trade.pctOfMaxProfit, 'everything expired: 196 / 196 (it read 134 % of the first credit)').toBe(1);
    expectAddsUpToLedger(rows);
  });

  it('a short strangle taken off over three days: each close books on its lot', () => {
    const rows = [
      tx({ type: 'SELL_TO_OPEN', option: opt(90, 'P'), quantity: 2, price: 1, commission: 2, at: '2024-03-01T10:00', orderId: 'o1' }),
      tx({ type: 'SELL_TO_OPEN', option: opt(110, 'C'), quantity: 2, price: 1.5, commission: 2, at: '2024-03-01T10:00', orderId: 'o1' }),
      tx({ type: 'BUY_TO_CLOSE', option: opt(110, 'C'), quantity: 1, price: 0.8, at: '2024-03-04T10:00', orderId: 'o2' }),
      tx({ type: 'BUY_TO_CLOSE', option: opt(110, 'C'), quantity: 1, price: 0.5, at: '2024-03-05T10:00', orderId: 'o3' }),
      tx({ type: 'BUY_TO_CLOSE', option: opt(90, 'P'), quantity: 1, price: 0.3, at: '2024-03-05T10:05', orderId: 'o4' }),
      tx({ type: 'BUY_TO_CLOSE', option: opt(90, 'P'), quantity: 1, price: 0.1, at: '2024-03-06T10:00', orderId: 'o5' }),
    ];
    const trade = onlyTrade(rows);
    expect([trade.strategy, trade.status, trade.closeDay, trade.daysHeld]).toEqual(['short_strangle', 'closed', '2024-03-06', 5]);
    // Each contract carries half its row's entry: call 150 − 1, put 100 − 1.
    expect(trade.legs.filter((leg) => leg.role === 'close').map((leg) => leg.realizedMinor), '150 − 80 − 1, 150 − 50 − 1, 100 − 30 − 1, 100 − 10 − 1').toEqual([
      minor(69),
      minor(99),
      minor(69),
      minor(89),
    ]);
    expect(trade.pnlMinor, '69 + 99 + 69 + 89').toBe(minor(326));
    expect(trade.pctOfMaxProfit, '326 / 496').toBeCloseTo(326 / 496, 12);
    expectAddsUpToLedger(rows);
  });

  it('a covered call bought as a buy-write: the shares are legs of the trade, called away at max profit', () => {
    const rows = [
      tx({ type: 'BUY', quantity: 100, price: 50, at: '2024-03-01T10:00', orderId: 'bw' }),
      tx({ type: 'SELL_TO_OPEN', option: opt(55, 'C'), quantity: 1, price: 1, commission: 1, at: '2024-03-01T10:00', orderId: 'bw' }),
      tx({ type: 'ASSIGNMENT', option: opt(55, 'C'), quantity: 1, at: `${MAR}T16:00` }),
      tx({ type: 'SELL', quantity: 100, price: 55, at: `${MAR}T16:00` }),
    ];
    const trade = onlyTrade(rows);
    expect(trade.strategy).toBe('covered_call');
    expect(trade.creditMinor, '−5,000 for the shares + 100 − 1').toBe(minor(-4_901));
    expect([trade.maxProfitMinor, trade.maxLossMinor], 'at 55: 5,500 − 4,901 = 599; at 0: 4,901').toEqual([minor(599), minor(4_901)]);
    expect(trade.collateralMinor, 'the 100 shares covered cost 5,000').toBe(minor(5_000));
    expect(trade.pnlMinor, 'call 100 − 1 + shares 5,500 − 5,000').toBe(minor(599));
    expect([trade.pctOfMaxProfit, trade.returnOnCollateral]).toEqual([1, 599 / 5_000]);
    expect(trade.legs.map((leg) => [leg.role, leg.type])).toEqual([
      ['entry', 'SELL_TO_OPEN'],
      ['entry', 'BUY'],
      // One instant: the ledger's order, fills before settlements.
      ['close', 'SELL'],
      ['close', 'ASSIGNMENT'],
    ]);
    expectAddsUpToLedger(rows);
  });

  it('a poor man\'s covered call: the short call rolled out joins the diagonal; closed as a whole', () => {
    const JAN25 = '2025-01-17';
    const rows = [
      tx({ type: 'BUY_TO_OPEN', option: opt(80, 'C', JAN25), quantity: 1, price: 22, commission: 1, at: '2024-03-01T10:00', orderId: 'o1' }),
      tx({ type: 'SELL_TO_OPEN', option: opt(105, 'C'), quantity: 1, price: 1, commission: 1, at: '2024-03-01T10:00', orderId: 'o1' }),
      tx({ type: 'BUY_TO_CLOSE', option: opt(105, 'C'), quantity: 1, price: 0.2, at: '2024-03-14T10:00', orderId: 'o2' }),
      tx({ type: 'SELL_TO_OPEN', option: opt(105, 'C', APR), quantity: 1, price: 1.1, commission: 1, at: '2024-03-14T10:00', orderId: 'o2' }),
      tx({ type: 'BUY_TO_CLOSE', option: opt(105, 'C', APR), quantity: 1, price: 0.5, at: '2024-04-10T10:00', orderId: 'o3' }),
      tx({ type: 'SELL_TO_CLOSE', option: opt(80, 'C', JAN25), quantity: 1, price: 24, commission: 1, at: '2024-04-10T10:00', orderId: 'o3' }),
    ];
    const trade = onlyTrade(rows);
    expect([trade.strategy, trade.rolls, trade.daysHeld]).toEqual(['diagonal', 1, 40]);
    // Max loss: the net debit after the roll, 2,201 − 99 + 20 − 109 = 2,013 (the long call's value floors the loss);
    // collateral the diagonal's debit at open, 2,201 − 99 = 2,102 (after the roll, 2,201 − 109 = 2,092).
    expect([trade.maxLossMinor, trade.maxProfitMinor, trade.collateralMinor]).toEqual([minor(2_013), null, minor(2_102)]);
    // Short March 100 − 20 − 1, short April 110 − 50 − 1, long 2,400 − 2,200 − 1 − 1.
    expect(trade.pnlMinor, '79 + 59 + 198 = 336').toBe(minor(336));
    expect(trade.returnOnCollateral, '336 / 2,102').toBeCloseTo(336 / 2_102, 12);
    expectAddsUpToLedger(rows);
  });

  it('0DTE flies of several fills of one minute (no order ids) are one butterfly each', () => {
    const fill = (type: 'BUY_TO_OPEN' | 'SELL_TO_OPEN', strike: number, quantity: number, price: number, at: string) =>
      tx({ type, ticker: 'XSP', option: opt(strike, 'C'), quantity, price, at: `${MAR}T${at}` });
    const rows = [
      fill('BUY_TO_OPEN', 500, 1, 1, '10:31:05'),
      fill('SELL_TO_OPEN', 501, 1, 0.6, '10:31:20'),
      fill('SELL_TO_OPEN', 501, 1, 0.6, '10:31:40'),
      fill('BUY_TO_OPEN', 502, 1, 0.3, '10:31:55'),
      fill('BUY_TO_OPEN', 500.5, 1, 0.8, '11:05:10'),
      fill('SELL_TO_OPEN', 501.5, 2, 0.45, '11:05:30'),
      fill('BUY_TO_OPEN', 502.5, 1, 0.2, '11:05:50'),
      // The first fly is sold back at 15:30 in one order; the second expires worthless.
      tx({ type: 'SELL_TO_CLOSE', ticker: 'XSP', option: opt(500, 'C'), quantity: 1, price: 1.2, at: `${MAR}T15:30`, orderId: 'c1' }),
      tx({ type: 'BUY_TO_CLOSE', ticker: 'XSP', option: opt(501, 'C'), quantity: 2, price: 0.3, at: `${MAR}T15:30`, orderId: 'c1' }),
      tx({ type: 'SELL_TO_CLOSE', ticker: 'XSP', option: opt(502, 'C'), quantity: 1, price: 0.05, at: `${MAR}T15:30`, orderId: 'c1' }),
      ...[500.5, 502.5].map((strike) => tx({ type: 'EXPIRATION', ticker: 'XSP', option: opt(strike, 'C'), quantity: 1, at: `${MAR}T16:00` })),
      tx({ type: 'EXPIRATION', ticker: 'XSP', option: opt(501.5, 'C'), quantity: 2, at: `${MAR}T16:00` }),
    ];
    const [second, first] = tradesOf(rows).trades;
    expect([first?.strategy, second?.strategy]).toEqual(['butterfly', 'butterfly']);
    expect(first?.structure.map((leg) => [leg.strike, leg.side, leg.quantity]), 'the two 501 fills are one body of 2').toEqual([
      [500, 1, 1],
      [501, -1, 2],
      [502, 1, 1],
    ]);
    expect([first?.creditMinor, first?.maxProfitMinor, first?.maxLossMinor], 'debit 100 − 120 + 30 = 10; at 501: 100 − 10').toEqual([minor(-10), minor(90), minor(10)]);
    expect(first?.pnlMinor, 'sold back for 120 − 60 + 5 = 65: 65 − 10').toBe(minor(55));
    expect([first?.dteAtEntry, first?.daysHeld, second?.dteAtEntry, second?.daysHeld], 'same-day trades').toEqual([0, 0, 0, 0]);
    expect(second?.pnlMinor, 'expired worthless: the debit 80 − 90 + 20').toBe(minor(-10));
    expectAddsUpToLedger(rows);
  });
});

describe('trades and the rest of the book', () => {
  it('the wheel: the put, its assigned shares and the covered call are one trade of one campaign (DESIGN §5, 2026-11-29)', () => {
    const rows = [
      tx({ type: 'SELL_TO_OPEN', option: opt(50, 'P'), quantity: 1, price: 2, commission: 1, at: '2024-03-01T10:00', orderId: 'o1' }),
      tx({ type: 'ASSIGNMENT', option: opt(50, 'P'), quantity: 1, at: `${MAR}T16:00` }),
      tx({ type: 'BUY', quantity: 100, price: 50, at: `${MAR}T16:00` }),
      tx({ type: 'SELL_TO_OPEN', option: opt(52, 'C', APR), quantity: 1, price: 1.5, commission: 1, at: '2024-03-18T10:00', orderId: 'o2' }),
      tx({ type: 'ASSIGNMENT', option: opt(52, 'C', APR), quantity: 1, at: `${APR}T16:00` }),
      tx({ type: 'SELL', quantity: 100, price: 52, at: `${APR}T16:00` }),
    ];
    const book = tradesOf(rows);
    const [trade, ...rest] = book.trades;
    expect(rest).toEqual([]);
    // Premiums net of commission 199 and 149, the shares bought at 50 and called away at 52: 200.
    expect([trade?.strategy, trade?.outcome, trade?.pnlMinor, trade?.optionPLMinor]).toEqual(['short_put', 'assigned', minor(548), minor(348)]);
    expect(trade?.collateralMinor, 'the put\'s 50 × 100, then the assigned shares\' cost, 100 × 50').toBe(minor(5_000));
    expect(trade?.campaignId, 'one chain from flat to flat').toBe('acct:USD:XYZ:2024-03-01');
    expect(book.outsideByTx.size, 'no share left outside the trade').toBe(0);
    expectAddsUpToLedger(rows);
  });

  it('a close with no known opening books no trade P&L: it is a trade opened before history', () => {
    const rows = [
      tx({ type: 'BUY_TO_CLOSE', option: opt(100, 'P'), quantity: 1, price: 0.5, at: '2024-03-04T10:00', orderId: 'o1' }),
      tx({ type: 'SELL_TO_OPEN', option: opt(95, 'P'), quantity: 2, price: 1, commission: 2, at: '2024-03-05T10:00', orderId: 'o2' }),
      tx({ type: 'BUY_TO_CLOSE', option: opt(95, 'P'), quantity: 3, price: 0.2, at: '2024-03-08T10:00', orderId: 'o3' }),
      tx({ type: 'EXPIRATION', option: opt(120, 'C'), quantity: 0, at: `${MAR}T16:00` }),
    ];
    const book = tradesOf(rows);
    const known = book.trades.find((trade) => !trade.openedBeforeHistory);
    const before = book.trades.filter((trade) => trade.openedBeforeHistory);
    expect(known?.pnlMinor, 'two of the three contracts bought back were opened here: 200 − 40 − 2 (the third is unknown)').toBe(minor(158));
    expect(known?.legs.map((leg) => [leg.type, leg.quantity])).toEqual([
      ['SELL_TO_OPEN', 2],
      ['BUY_TO_CLOSE', 2],
    ]);
    expect(before.map((trade) => [trade.strategy, trade.status, trade.pnlMinor, trade.openedAt, trade.legs.map((leg) => [leg.type, leg.quantity, leg.realizedMinor])]), 'newest first').toEqual([
      ['custom', 'closed', null, null, [['EXPIRATION', 0, null]]],
      ['short_put', 'closed', null, null, [['BUY_TO_CLOSE', 1, null]]],
      ['short_put', 'closed', null, null, [['BUY_TO_CLOSE', 1, null]]],
    ]);
    expect(before.map((trade) => trade.id.startsWith('before:'))).toEqual([true, true, true]);
  });

  it('FIFO across two trades of one contract: one buy-back closes the older first and is a leg of both', () => {
    const rows = [
      tx({ type: 'SELL_TO_OPEN', option: opt(50, 'P'), quantity: 1, price: 2, commission: 1, at: '2024-03-01T10:00', orderId: 'a' }),
      tx({ type: 'SELL_TO_OPEN', option: opt(50, 'P'), quantity: 1, price: 1.5, commission: 1, at: '2024-03-04T10:00', orderId: 'b' }),
      tx({ type: 'BUY_TO_CLOSE', option: opt(50, 'P'), quantity: 2, price: 0.5, at: '2024-03-08T10:00', orderId: 'c' }),
    ];
    const [later, earlier] = tradesOf(rows).trades;
    expect([earlier?.pnlMinor, later?.pnlMinor], '200 − 50 − 1 and 150 − 50 − 1').toEqual([minor(149), minor(99)]);
    expect([earlier?.legs[1]?.quantity, later?.legs[1]?.quantity, earlier?.legs[1]?.txId === later?.legs[1]?.txId]).toEqual([1, 1, true]);
    expectAddsUpToLedger(rows);
  });

  it('a roll linked by its trading day (no order ids) joins the trade when the new leg comes at or after the close', () => {
    const rows = [
      tx({ type: 'SELL_TO_OPEN', option: opt(50, 'P'), quantity: 1, price: 2, at: '2024-03-01T10:00' }),
      tx({ type: 'BUY_TO_CLOSE', option: opt(50, 'P'), quantity: 1, price: 1, at: '2024-03-14T10:00' }),
      tx({ type: 'SELL_TO_OPEN', option: opt(48, 'P', APR), quantity: 1, price: 1.8, at: '2024-03-14T14:00' }),
      // A date-only export: the close and the new leg share one instant.
      tx({ type: 'BUY_TO_CLOSE', option: opt(48, 'P', APR), quantity: 1, price: 0.4, at: '2024-04-12T00:00' }),
      tx({ type: 'SELL_TO_OPEN', option: opt(47, 'P', '2024-05-17'), quantity: 1, price: 1, at: '2024-04-12T00:00' }),
    ];
    const trade = onlyTrade(rows);
    expect([trade.strategy, trade.rolls, trade.status, trade.pnlMinor], 'open on the May put; realized 200 − 100 + 180 − 40').toEqual(['short_put', 2, 'open', minor(240)]);
    expect(trade.legs.map((leg) => leg.role), 'at one instant the opening is walked first').toEqual(['entry', 'close', 'open', 'open', 'close']);
  });

  it('an opening earlier on the day of a close is no roll for the trades (the ledger counts the pair)', () => {
    const rows = [
      tx({ type: 'SELL_TO_OPEN', option: opt(50, 'P'), quantity: 1, price: 2, at: '2024-03-01T10:00' }),
      tx({ type: 'SELL_TO_OPEN', option: opt(48, 'P', APR), quantity: 1, price: 1.8, at: '2024-03-14T09:45' }),
      tx({ type: 'BUY_TO_CLOSE', option: opt(50, 'P'), quantity: 1, price: 1, at: '2024-03-14T14:00' }),
    ];
    const trades = tradesOf(rows).trades;
    expect(trades.map((trade) => [trade.status, trade.rolls]), 'the April put was sold while the March put was on: its own trade').toEqual([
      ['open', 0],
      ['closed', 0],
    ]);
    expect(ledgerOf(rows).rolls.length, 'the ledger\'s same-day rule pairs them').toBe(1);
  });
});

describe('ids', () => {
  const rows = [
    tx({ type: 'SELL_TO_OPEN', option: opt(50, 'P'), quantity: 1, price: 2, at: '2024-03-01T10:00', orderId: 'o1', id: 'id-put' }),
    tx({ type: 'BUY_TO_CLOSE', option: opt(50, 'P'), quantity: 1, price: 1, at: '2024-03-08T10:00', orderId: 'o2', id: 'id-put-out' }),
    tx({ type: 'BUY_TO_OPEN', option: opt(90, 'P'), quantity: 1, price: 0.6, at: '2024-03-04T10:00', orderId: 'o3', id: 'id-spread-long' }),
    tx({ type: 'SELL_TO_OPEN', option: opt(95, 'P'), quantity: 1, price: 1.8, at: '2024-03-04T10:00', orderId: 'o3', id: 'id-spread-short' }),
  ];
  const summary = (transactions: readonly Transaction[]) => tradesOf(transactions).trades.map((trade) => [trade.id, trade.pnlMinor, trade.legs.length]);

  it('a trade\'s id is its first opening transaction\'s, whatever order the rows come in', () => {
    expect(summary(rows)).toEqual([
      ['id-spread-long', 0, 2],
      ['id-put', minor(100), 2],
    ]);
    expect(summary([...rows].reverse()), 'the rows reversed').toEqual(summary(rows));
    expect(summary([rows[2], rows[0], rows[3], rows[1]].filter((row): row is Transaction => row !== undefined)), 'shuffled').toEqual(summary(rows));
  });

  it('later rows (a re-import with more history after) leave the earlier trades\' ids alone', () => {
    const more = [...rows, tx({ type: 'SELL_TO_OPEN', option: opt(45, 'P', APR), quantity: 1, price: 1, at: '2024-03-20T10:00', orderId: 'o4', id: 'id-new' })];
    expect(summary(more).slice(1)).toEqual(summary(rows));
  });
});
