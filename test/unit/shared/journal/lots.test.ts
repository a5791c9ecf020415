import { describe, expect, it } from 'vitest';
import { allTime, ledgerOf, tx } from '../../../journal-helpers';

const CALL = { expiration: '2024-06-21', strike: 50, right: 'C' as const };
const PUT = { expiration: '2024-06-21', strike: 45, right: 'P' as const };

describe('FIFO lots and realized P&L', () => {
  it('nets both legs of a long stock round trip', () => {
    const ledger = ledgerOf([
      tx({ type: 'BUY', ticker: 'ABC', quantity: 100, price: 20, commission: 1, fees: 0.05, at: '2024-05-01T10:00' }),
      tx({ type: 'SELL', ticker: 'ABC', quantity: 100, price: 21.5, commission: 1, fees: 0.07, at: '2024-05-03T10:00' }),
    ]);
    const s = allTime(ledger).summary;
    // (21.50 − 20.00) × 100 = 150.00; − 1.05 entry − 1.07 exit = 147.88
    expect(s.stockPL, '150 gross − 1.05 entry − 1.07 exit costs').toBe(147.88);
    expect(s.optionsPL, 'no option traded').toBe(0);
    expect(s.realizedPL, 'realized = options + stock').toBe(147.88);
    expect(s.trades, 'two fills').toBe(2);
  });

  it('prorates entry costs over partial closes (both legs net)', () => {
    const ledger = ledgerOf([
      tx({ type: 'BUY_TO_OPEN', ticker: 'ABC', option: CALL, quantity: 3, price: 2, commission: 3, fees: 0.36, at: '2024-05-01T10:00' }),
      tx({ type: 'SELL_TO_CLOSE', ticker: 'ABC', option: CALL, quantity: 1, price: 3, fees: 0.12, at: '2024-05-02T10:00' }),
      tx({ type: 'SELL_TO_CLOSE', ticker: 'ABC', option: CALL, quantity: 2, price: 1.5, fees: 0.24, at: '2024-05-03T10:00' }),
    ]);
    const days = allTime(ledger).breakdown.byDay;
    // Exit 1: 300 − 200 (1/3 of 600) − 1.12 (1/3 of 3.36) − 0.12 = 98.76
    expect(days.find((d) => d.date === '2024-05-02')?.realizedPL, '300 − 200 − 3.36/3 − 0.12').toBe(98.76);
    // Exit 2: 300 − 400 − 2.24 − 0.24 = −102.48
    expect(days.find((d) => d.date === '2024-05-03')?.realizedPL, '300 − 400 − 3.36×2/3 − 0.24').toBe(-102.48);
    // The opening day realizes nothing: its costs wait in the lot.
    expect(days.find((d) => d.date === '2024-05-01')?.realizedPL, 'opening fill realizes nothing').toBe(0);
    expect(allTime(ledger).summary.optionsPL, 'gross 0, all costs 3.36 + 0.36').toBe(-3.72);
  });

  it('splits an indivisible entry cost exactly across three closes', () => {
    const ledger = ledgerOf([
      tx({ type: 'BUY', ticker: 'ABC', quantity: 3, price: 10, commission: 1, at: '2024-05-01T10:00' }),
      tx({ type: 'SELL', ticker: 'ABC', quantity: 1, price: 10, at: '2024-05-02T10:00' }),
      tx({ type: 'SELL', ticker: 'ABC', quantity: 1, price: 10, at: '2024-05-03T10:00' }),
      tx({ type: 'SELL', ticker: 'ABC', quantity: 1, price: 10, at: '2024-05-06T10:00' }),
    ]);
    // 1.0000 over thirds in 1/10,000 units: 0.3333, 0.3333, 0.3334 — the pieces add back to exactly 1.00.
    expect(allTime(ledger).summary.stockPL, 'flat price: P&L is exactly −commission').toBe(-1);
    const days = allTime(ledger).breakdown.byDay.map((d) => d.realizedPL);
    expect(days, 'per-close share of 1.00 rounded to cents').toEqual([0, -0.33, -0.33, -0.33]);
  });

  it('expires a short option at zero with its own costs', () => {
    const ledger = ledgerOf([
      tx({ type: 'SELL_TO_OPEN', ticker: 'ABC', option: PUT, quantity: 2, price: 0.85, commission: 2, fees: 0.24, at: '2024-05-20T10:00' }),
      tx({ type: 'EXPIRATION', ticker: 'ABC', option: PUT, quantity: 2, fees: 0.01, at: '2024-06-21T17:00' }),
    ]);
    const s = allTime(ledger).summary;
    // 0.85 × 2 × 100 = 170 credit; − 2.24 entry − 0.01 expiration = 167.75
    expect(s.optionsPL, '170 − 2.24 − 0.01').toBe(167.75);
    expect(s.lockedInPremiums, 'a short option lot closed: all of it is locked in').toBe(167.75);
    expect(s.premiumsCollected, 'gross STO credit 0.85 × 2 × 100').toBe(170);
    expect(s.trades, 'the expiration is not a trade execution').toBe(1);
    expect(ledger.warnings.unmatchedSettlements).toBe(0);
  });

  it('opens a short stock lot with SELL_SHORT; a BUY while short covers it', () => {
    const ledger = ledgerOf([
      tx({ type: 'SELL_SHORT', ticker: 'ABC', quantity: 10, price: 30, commission: 0.5, at: '2024-05-01T10:00' }),
      tx({ type: 'BUY', ticker: 'ABC', quantity: 10, price: 27.25, commission: 0.5, at: '2024-05-02T10:00' }),
    ]);
    // (30 − 27.25) × 10 = 27.50 − 1.00
    expect(allTime(ledger).summary.stockPL, 'short: entry − exit − costs').toBe(26.5);
    expect(ledger.warnings.unmatchedCloses).toBe(0);
    expect(ledger.positions).toEqual([]);
  });

  it('BUY_TO_COVER closes a short sale', () => {
    const ledger = ledgerOf([
      tx({ type: 'SELL_SHORT', ticker: 'ABC', quantity: 10, price: 30, at: '2024-05-01T10:00' }),
      tx({ type: 'BUY_TO_COVER', ticker: 'ABC', quantity: 4, price: 31, commission: 1, at: '2024-05-02T10:00' }),
    ]);
    // 4 × (30 − 31) − 1 = −5; 6 shares stay short.
    expect(allTime(ledger).summary.stockPL, '4 × (30 − 31) − 1').toBe(-5);
    expect(ledger.positions.map((p) => [p.symbol, p.quantity, p.entryGrossMinor])).toEqual([['ABC', -6, 1_800_000]]);
  });

  it('a BUY larger than the short position closes it and opens the rest long', () => {
    const ledger = ledgerOf([
      tx({ type: 'SELL_SHORT', ticker: 'ABC', quantity: 10, price: 30, at: '2024-05-01T10:00' }),
      tx({ type: 'BUY', ticker: 'ABC', quantity: 15, price: 28, commission: 1.5, at: '2024-05-02T10:00' }),
      tx({ type: 'SELL', ticker: 'ABC', quantity: 5, price: 29, at: '2024-05-03T10:00' }),
    ]);
    const days = allTime(ledger).breakdown.byDay;
    // Day 2: 10 × (30 − 28) − 1.00 (10/15 of 1.50) = 19.00; day 3: 5 × (29 − 28) − 0.50 = 4.50
    expect(days.find((d) => d.date === '2024-05-02')?.realizedPL, '20 − 10/15 × 1.50').toBe(19);
    expect(days.find((d) => d.date === '2024-05-03')?.realizedPL, '5 − 5/15 × 1.50').toBe(4.5);
  });

  it('counts an expiration with no open lot as a warning', () => {
    const ledger = ledgerOf([tx({ type: 'EXPIRATION', ticker: 'ABC', option: PUT, quantity: 1, at: '2024-06-21T17:00' })]);
    expect(ledger.warnings.unmatchedSettlements).toBe(1);
    expect(allTime(ledger).summary.optionsPL).toBe(0);
  });

  it('handles fractional shares FIFO', () => {
    const ledger = ledgerOf([
      tx({ type: 'BUY', ticker: 'ABC', quantity: 0.5, price: 100.01, at: '2024-05-01T10:00' }),
      tx({ type: 'BUY', ticker: 'ABC', quantity: 0.25, price: 99, at: '2024-05-02T10:00' }),
      tx({ type: 'SELL', ticker: 'ABC', quantity: 0.6, price: 101, at: '2024-05-03T10:00' }),
    ]);
    // Lot 1: 0.5 × (101 − 100.01) = 0.495; lot 2 (0.1 of 0.25): 0.1 × (101 − 99) = 0.20 → 0.695 → 0.70 in cents
    expect(allTime(ledger).summary.stockPL, '0.495 + 0.200 rounded to cents').toBe(0.7);
    const open = ledger.positions.find((p) => p.symbol === 'ABC');
    expect(open?.quantity, '0.25 − 0.1 shares left').toBeCloseTo(0.15, 12);
    expect(open?.entryGrossMinor, '0.15 × 99 = 14.85').toBe(148_500);
  });

  it('SPLIT scales the open lots and keeps the basis', () => {
    const ledger = ledgerOf([
      tx({ type: 'BUY', ticker: 'ABC', quantity: 100, price: 50, at: '2024-05-01T10:00' }),
      tx({ type: 'SPLIT', ticker: 'ABC', quantity: 100, at: '2024-05-10T08:00' }),
      tx({ type: 'SELL', ticker: 'ABC', quantity: 200, price: 26, at: '2024-05-13T10:00' }),
    ]);
    // Basis 5,000 for 200 shares after a 2:1 split; sold for 5,200.
    expect(allTime(ledger).summary.stockPL, '200 × 26 − 5,000').toBe(200);
    expect(ledger.positions).toEqual([]);
  });

  it('a reverse split (negative share change) keeps the basis too', () => {
    const ledger = ledgerOf([
      tx({ type: 'BUY', ticker: 'ABC', quantity: 100, price: 5, at: '2024-05-01T10:00' }),
      tx({ type: 'SPLIT', ticker: 'ABC', quantity: -90, at: '2024-05-10T08:00' }),
      tx({ type: 'SELL', ticker: 'ABC', quantity: 10, price: 49, at: '2024-05-13T10:00' }),
    ]);
    expect(allTime(ledger).summary.stockPL, '10 × 49 − 500 (1:10)').toBe(-10);
  });

  it('SYMBOL_CHANGE carries the lots to the new ticker', () => {
    const ledger = ledgerOf([
      tx({ type: 'BUY', ticker: 'FB', quantity: 10, price: 300, at: '2022-06-01T10:00' }),
      tx({ type: 'SYMBOL_CHANGE', ticker: 'META', previousSymbol: 'FB', quantity: 10, at: '2022-06-09T08:00' }),
      tx({ type: 'SELL', ticker: 'META', quantity: 10, price: 310, commission: 1, at: '2022-06-10T10:00' }),
    ]);
    expect(allTime(ledger).summary.stockPL, '10 × (310 − 300) − 1').toBe(99);
    expect(ledger.warnings.unmatchedCloses + ledger.warnings.corporateActionsWithoutLots).toBe(0);
    expect(ledger.campaigns.length, 'one story: the chain moves with the rename').toBe(1);
    expect(ledger.campaigns[0]?.underlying).toBe('META');
    expect(ledger.campaigns[0]?.closeDay).toBe('2022-06-10');
  });
});
