import { describe, expect, it } from 'vitest';
import { allTime, ledgerOf, tx, performanceJson, yearJson } from '../../../journal-helpers';

const P50_MAR = { expiration: '2024-03-15', strike: 50, right: 'P' as const };
const P50_APR = { expiration: '2024-04-19', strike: 50, right: 'P' as const };
const P48_APR = { expiration: '2024-04-19', strike: 48, right: 'P' as const };
const C52_APR = { expiration: '2024-04-19', strike: 52, right: 'C' as const };

/** CSP assigned, covered call, called away: the full wheel on XYZ. */
function wheel() {
  return [
    tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: P50_MAR, quantity: 1, price: 2, commission: 1, fees: 0.12, at: '2024-03-01T10:00', orderId: 'o1' }),
    tx({ type: 'ASSIGNMENT', ticker: 'XYZ', option: P50_MAR, quantity: 1, at: '2024-03-15T17:00' }),
    tx({ type: 'BUY', ticker: 'XYZ', quantity: 100, price: 50, fees: 0.1, at: '2024-03-15T17:00' }),
    tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: C52_APR, quantity: 1, price: 1.5, commission: 1, fees: 0.12, at: '2024-03-18T10:00', orderId: 'o2' }),
    tx({ type: 'ASSIGNMENT', ticker: 'XYZ', option: C52_APR, quantity: 1, at: '2024-04-19T17:00' }),
    tx({ type: 'SELL', ticker: 'XYZ', quantity: 100, price: 52, fees: 0.1, at: '2024-04-19T17:00' }),
  ];
}

describe('the wheel: assignment, covered call, called away', () => {
  it('keeps premiums in option P&L and books the stock at the strikes', () => {
    const ledger = ledgerOf(wheel());
    const s = allTime(ledger).summary;
    // Put: 200 − 1.12 = 198.88; call: 150 − 1.12 = 148.88
    expect(s.optionsPL, 'both premiums net of their entry costs').toBe(347.76);
    // Stock bought at the put strike 50, sold at the call strike 52: 200 − 0.10 − 0.10
    expect(s.stockPL, '(52 − 50) × 100 − 0.20').toBe(199.8);
    expect(s.realizedPL).toBe(547.56);
    expect(s.lockedInPremiums, 'both short option lots closed (assigned)').toBe(347.76);
    expect(s.premiumsCollected, '200 + 150 gross STO credits').toBe(350);
    expect(s.trades, 'two STO and two stock legs; assignments are not executions').toBe(4);
    expect(ledger.positions, 'flat at the end').toEqual([]);
  });

  it('dates each piece by its own New York day', () => {
    const ledger = ledgerOf(wheel());
    const march = performanceJson(ledger, { period: 'monthly', date: '2024-03-20' }).monthly.summary;
    const april = performanceJson(ledger, { period: 'monthly', date: '2024-04-02' }).monthly.summary;
    expect(march.optionsPL, 'the put closes (assigned) on 03-15').toBe(198.88);
    expect(march.premiumsCollected, 'both STOs are in March').toBe(350);
    expect(april.optionsPL, 'the call closes on 04-19').toBe(148.88);
    expect(april.stockPL, 'called away on 04-19').toBe(199.8);
  });

  it('is one chain from flat to flat, a win, counted in the summary', () => {
    const ledger = ledgerOf(wheel());
    expect(ledger.campaigns.length, 'assigned shares and the covered call stay inside the chain').toBe(1);
    const chain = ledger.campaigns[0];
    expect(chain?.openDay).toBe('2024-03-01');
    expect(chain?.closeDay).toBe('2024-04-19');
    expect(chain?.plMinor, '547.56 in minor units').toBe(5_475_600);
    const stats = yearJson(ledger, 2024).stats;
    expect(stats.chains).toEqual({ opened: 1, closed: 1, open: 0, wins: 1, losses: 0, winRate: 1 });
    expect(stats.assignments, 'two ASSIGNMENT rows').toBe(2);
    expect(stats.totalRealizedPnl).toBe(547.56);
  });
});

describe('rolls', () => {
  const open = tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: P50_MAR, quantity: 2, price: 2, commission: 2, fees: 0.24, at: '2024-03-01T10:00', orderId: 'o1' });

  it('links a close and an open leg by order id', () => {
    const ledger = ledgerOf([
      open,
      tx({ type: 'BUY_TO_CLOSE', ticker: 'XYZ', option: P50_MAR, quantity: 2, price: 3, fees: 0.24, at: '2024-03-12T11:00', orderId: 'R1' }),
      tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: P50_APR, quantity: 2, price: 4.1, commission: 2, fees: 0.24, at: '2024-03-12T11:00', orderId: 'R1' }),
    ]);
    const s = allTime(ledger).summary;
    expect(s.rolls).toBe(1);
    // Open credit 4.10 × 200 = 820 − close debit 3.00 × 200 = 600
    expect(s.rollCredits, '820 − 600').toBe(220);
    // The closed leg's loss: 400 − 600 − 2.24 − 0.24 = −202.48
    expect(s.optionsPL, 'the rolled-out leg realizes its loss').toBe(-202.48);
    expect(s.lockedInPremiums, 'a short lot bought back at a loss').toBe(-202.48);
    expect(s.premiumsCollected, '400 + 820').toBe(1220);
    expect(ledger.rolls[0]?.linkedBy).toBe('order');
  });

  it('does not link legs of two different orders, even on the same day', () => {
    const ledger = ledgerOf([
      open,
      tx({ type: 'BUY_TO_CLOSE', ticker: 'XYZ', option: P50_MAR, quantity: 2, price: 3, at: '2024-03-12T11:00', orderId: 'A' }),
      tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: P50_APR, quantity: 2, price: 4.1, at: '2024-03-12T11:05', orderId: 'B' }),
    ]);
    expect(allTime(ledger).summary.rolls, 'both legs have order ids and they differ').toBe(0);
  });

  it('links legs without order ids by the trading day', () => {
    const sameDay = ledgerOf([
      open,
      tx({ type: 'BUY_TO_CLOSE', ticker: 'XYZ', option: P50_MAR, quantity: 2, price: 3, at: '2024-03-12T10:00' }),
      tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: P48_APR, quantity: 2, price: 3.25, at: '2024-03-12T15:30' }),
    ]);
    expect(allTime(sameDay).summary.rolls).toBe(1);
    expect(allTime(sameDay).summary.rollCredits, '650 − 600').toBe(50);
    expect(sameDay.rolls[0]?.linkedBy).toBe('day');

    const nextDay = ledgerOf([
      open,
      tx({ type: 'BUY_TO_CLOSE', ticker: 'XYZ', option: P50_MAR, quantity: 2, price: 3, at: '2024-03-12T10:00' }),
      tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: P48_APR, quantity: 2, price: 3.25, at: '2024-03-13T10:00' }),
    ]);
    expect(allTime(nextDay).summary.rolls, 'different trading days').toBe(0);
  });

  it('needs the same quantity, right and direction', () => {
    const ledger = ledgerOf([
      open,
      tx({ type: 'BUY_TO_CLOSE', ticker: 'XYZ', option: P50_MAR, quantity: 2, price: 3, at: '2024-03-12T10:00' }),
      tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: P48_APR, quantity: 1, price: 3.25, at: '2024-03-12T10:00' }),
      tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: C52_APR, quantity: 2, price: 1, at: '2024-03-12T10:00' }),
      tx({ type: 'BUY_TO_OPEN', ticker: 'XYZ', option: P48_APR, quantity: 2, price: 3.25, at: '2024-03-12T10:00' }),
    ]);
    expect(allTime(ledger).summary.rolls, 'quantity 1 ≠ 2; call ≠ put; long open ≠ short close').toBe(0);
  });

  it('counts a long roll: sell-to-close credit − buy-to-open debit', () => {
    const ledger = ledgerOf([
      tx({ type: 'BUY_TO_OPEN', ticker: 'XYZ', option: C52_APR, quantity: 1, price: 1, at: '2024-03-01T10:00', orderId: 'a' }),
      tx({ type: 'SELL_TO_CLOSE', ticker: 'XYZ', option: C52_APR, quantity: 1, price: 2.5, at: '2024-03-20T10:00', orderId: 'L' }),
      tx({ type: 'BUY_TO_OPEN', ticker: 'XYZ', option: { expiration: '2024-05-17', strike: 55, right: 'C' }, quantity: 1, price: 1.75, at: '2024-03-20T10:00', orderId: 'L' }),
    ]);
    expect(allTime(ledger).summary.rolls).toBe(1);
    expect(allTime(ledger).summary.rollCredits, '250 − 175').toBe(75);
    expect(ledger.rolls[0]?.direction).toBe('long');
  });

  it('treats several fills of one roll order as one leg', () => {
    const ledger = ledgerOf([
      open,
      tx({ type: 'BUY_TO_CLOSE', ticker: 'XYZ', option: P50_MAR, quantity: 1, price: 3, at: '2024-03-12T11:00', orderId: 'R' }),
      tx({ type: 'BUY_TO_CLOSE', ticker: 'XYZ', option: P50_MAR, quantity: 1, price: 3.02, at: '2024-03-12T11:00', orderId: 'R' }),
      tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: P50_APR, quantity: 2, price: 4.1, at: '2024-03-12T11:00', orderId: 'R' }),
    ]);
    expect(allTime(ledger).summary.rolls).toBe(1);
    expect(allTime(ledger).summary.rollCredits, '820 − (300 + 302)').toBe(218);
  });
});

describe('dividends, interest, standalone fees', () => {
  it('nets withholding and keeps fees out of trades', () => {
    const ledger = ledgerOf([
      tx({ type: 'BUY', ticker: 'KO', quantity: 100, price: 60, at: '2024-03-01T10:00' }),
      tx({ type: 'DIVIDEND', ticker: 'KO', amount: 48.5, at: '2024-04-01T09:00' }),
      tx({ type: 'DIVIDEND', ticker: 'KO', amount: -7.28, at: '2024-04-01T09:00' }),
      tx({ type: 'INTEREST', ticker: '', amount: 1.23, at: '2024-04-02T09:00' }),
      tx({ type: 'FEE', ticker: '', amount: -5, at: '2024-04-03T09:00' }),
      tx({ type: 'SELL', ticker: 'KO', quantity: 100, price: 59.5, commission: 1, at: '2024-04-10T10:00' }),
    ]);
    const s = allTime(ledger).summary;
    expect(s.dividends, '48.50 − 7.28 withheld').toBe(41.22);
    expect(s.interest).toBe(1.23);
    expect(s.fees, 'a standalone fee of 5.00').toBe(5);
    expect(s.stockPL, '(59.50 − 60) × 100 − 1').toBe(-51);
    // totalPL = realized + dividends + interest − fees = −51 + 41.22 + 1.23 − 5
    expect(s.totalPL, '−51 + 41.22 + 1.23 − 5').toBe(-13.55);
    expect(s.trades, 'dividends, interest and fees are not trades').toBe(2);
    const ko = allTime(ledger).breakdown.bySymbol.find((row) => row.symbol === 'KO');
    expect(ko?.dividends).toBe(41.22);
    expect(ko?.pl, 'KO: −51 + 41.22 (interest and the fee have no symbol)').toBe(-9.78);
    expect(ledger.campaigns[0]?.plMinor, 'chain: realized + dividends').toBe(-97_800);
  });
});

describe('chains and win rate', () => {
  it('counts wins and losses by close year, opened by open year', () => {
    const ledger = ledgerOf([
      // Chain A (win): opened 2023-12, closed 2024-01.
      tx({ type: 'SELL_TO_OPEN', ticker: 'AAA', option: { expiration: '2024-01-19', strike: 10, right: 'P' }, quantity: 1, price: 0.5, at: '2023-12-15T10:00' }),
      tx({ type: 'EXPIRATION', ticker: 'AAA', option: { expiration: '2024-01-19', strike: 10, right: 'P' }, quantity: 1, at: '2024-01-19T17:00' }),
      // Chain B (loss): assigned, shares sold lower.
      tx({ type: 'SELL_TO_OPEN', ticker: 'BBB', option: { expiration: '2024-02-16', strike: 20, right: 'P' }, quantity: 1, price: 0.6, at: '2024-01-22T10:00' }),
      tx({ type: 'ASSIGNMENT', ticker: 'BBB', option: { expiration: '2024-02-16', strike: 20, right: 'P' }, quantity: 1, at: '2024-02-16T17:00' }),
      tx({ type: 'BUY', ticker: 'BBB', quantity: 100, price: 20, at: '2024-02-16T17:00' }),
      tx({ type: 'SELL', ticker: 'BBB', quantity: 100, price: 18, at: '2024-02-20T10:00' }),
      // A dividend paid after the shares left belongs to the chain that held them on the ex-date.
      tx({ type: 'DIVIDEND', ticker: 'BBB', amount: 25, at: '2024-03-01T09:00' }),
      // Chain C: still open at the end of 2024.
      tx({ type: 'SELL_TO_OPEN', ticker: 'CCC', option: { expiration: '2025-01-17', strike: 5, right: 'P' }, quantity: 1, price: 0.2, at: '2024-12-20T10:00' }),
    ]);
    const y2023 = yearJson(ledger, 2023).stats.chains;
    expect(y2023, 'A opened in 2023 and is still open at its end').toEqual({ opened: 1, closed: 0, open: 1, wins: 0, losses: 0, winRate: null });
    const y2024 = yearJson(ledger, 2024).stats.chains;
    // A: +50 (win). B: 60 − 200 + 25 = −115 (loss). C open.
    expect(y2024, 'B and C opened; A and B closed; C open').toEqual({ opened: 2, closed: 2, open: 1, wins: 1, losses: 1, winRate: 0.5 });
    const b = ledger.campaigns.find((c) => c.underlying === 'BBB');
    expect(b?.plMinor, '60 premium − 200 stock loss + 25 late dividend').toBe(-1_150_000);
  });

  it('a same-day close and re-open stays one chain; a flat night splits it', () => {
    const put = (strike: number) => ({ expiration: '2024-05-17', strike, right: 'P' as const });
    const ledger = ledgerOf([
      tx({ type: 'SELL_TO_OPEN', ticker: 'AAA', option: put(10), quantity: 1, price: 0.5, at: '2024-04-01T10:00' }),
      tx({ type: 'BUY_TO_CLOSE', ticker: 'AAA', option: put(10), quantity: 1, price: 0.2, at: '2024-04-10T10:00', orderId: 'x' }),
      tx({ type: 'SELL_TO_OPEN', ticker: 'AAA', option: put(9), quantity: 1, price: 0.3, at: '2024-04-10T14:00', orderId: 'y' }),
      tx({ type: 'BUY_TO_CLOSE', ticker: 'AAA', option: put(9), quantity: 1, price: 0.1, at: '2024-04-15T10:00' }),
      tx({ type: 'SELL_TO_OPEN', ticker: 'AAA', option: put(9), quantity: 1, price: 0.3, at: '2024-04-16T10:00' }),
    ]);
    expect(ledger.campaigns.map((c) => [c.openDay, c.closeDay])).toEqual([
      ['2024-04-01', '2024-04-15'],
      ['2024-04-16', null],
    ]);
  });
});
