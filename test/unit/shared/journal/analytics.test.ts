import { describe, expect, it } from 'vitest';
import { TRANSACTION_TYPES } from '../../../../src-shared/journal/model';
import { ledgerOf, tx, yearJson } from '../../../journal-helpers';

const interest = (amount: number, at: string) => tx({ type: 'INTEREST', ticker: '', amount, at });

describe('yearSummary', () => {
  it('max drawdown on a known series, trading days and chart data', () => {
    // Daily P&L +100, −30, +50, −150, +20 → cumulative 100, 70, 120, −30, −10.
    // Peak 120 (day 3) to trough −30 (day 4): drawdown 150.
    const ledger = ledgerOf([
      interest(100, '2024-01-02T12:00'),
      interest(-30, '2024-01-03T12:00'),
      interest(50, '2024-02-05T12:00'),
      interest(-150, '2024-02-06T12:00'),
      interest(20, '2024-12-31T12:00'),
      interest(999, '2025-01-01T12:00'), // next year: outside
    ]);
    const y = yearJson(ledger, 2024);
    expect(y.stats.equity.maxDrawdown, 'peak 120 → trough −30').toBe(150);
    expect(y.stats.equity.series.map((p) => p.equity), 'cumulative P&L').toEqual([100, 70, 120, -30, -10]);
    expect(y.chartData.daily.map((d) => [d.pl, d.cumulative])).toEqual([
      [100, 100],
      [-30, 70],
      [50, 120],
      [-150, -30],
      [20, -10],
    ]);
    expect(y.stats.tradingDays).toEqual({
      active: 5,
      winning: 3,
      losing: 2,
      bestDay: { date: '2024-01-02', pl: 100 },
      worstDay: { date: '2024-02-06', pl: -150 },
    });
    expect(y.chartData.monthly.length, 'all twelve months').toBe(12);
    expect(y.chartData.monthly[0], 'January: 100 − 30').toEqual({ month: '2024-01', pl: 70 });
    expect(y.chartData.monthly[1], 'February: 50 − 150').toEqual({ month: '2024-02', pl: -100 });
    expect(y.chartData.monthly[5], 'an empty month is 0').toEqual({ month: '2024-06', pl: 0 });
    expect(y.chartData.monthly[11]).toEqual({ month: '2024-12', pl: 20 });
    expect(y.stats.totalPL).toBe(-10);
    expect(y.stats.interest).toBe(-10);
  });

  it('draws down from the starting zero when the year begins with losses', () => {
    const ledger = ledgerOf([interest(-50, '2024-01-02T12:00'), interest(20, '2024-01-03T12:00')]);
    expect(yearJson(ledger, 2024).stats.equity.maxDrawdown, '0 → −50').toBe(50);
    expect(yearJson(ledger, 2023).stats.equity, 'an empty year').toEqual({ series: [], maxDrawdown: 0 });
    expect(yearJson(ledger, 2023).stats.tradingDays.bestDay).toBeNull();
  });

  it('counts every transaction type, expirations and contracts', () => {
    const put = { expiration: '2024-03-15', strike: 10, right: 'P' as const };
    const call = { expiration: '2024-03-15', strike: 12, right: 'C' as const };
    const ledger = ledgerOf([
      tx({ type: 'DEPOSIT', ticker: '', amount: 1000, at: '2024-03-01T09:00' }),
      tx({ type: 'SELL_TO_OPEN', ticker: 'AAA', option: put, quantity: 3, price: 0.5, at: '2024-03-01T10:00' }),
      tx({ type: 'SELL_TO_OPEN', ticker: 'AAA', option: call, quantity: 2, price: 0.4, at: '2024-03-01T10:00' }),
      tx({ type: 'EXPIRATION', ticker: 'AAA', option: put, quantity: 3, at: '2024-03-15T17:00' }),
      tx({ type: 'EXPIRATION', ticker: 'AAA', option: call, quantity: 2, at: '2024-03-15T17:00' }),
    ]);
    const stats = yearJson(ledger, 2024).stats;
    expect(stats.expiredOptions, 'two expiration events').toBe(2);
    expect(stats.expiredContracts, '3 + 2 contracts').toBe(5);
    expect([...Object.keys(stats.tradesByType), ...Object.keys(stats.otherRowsByType)].sort(), 'every type is listed once').toEqual([...TRANSACTION_TYPES].sort());
    expect(stats.tradesByType.SELL_TO_OPEN).toBe(2);
    expect(stats.tradesByType.EXPIRATION).toBe(2);
    // A deposit is not a trade (issue 18: it was counted under "Trades by type").
    expect(stats.tradesByType.DEPOSIT).toBeUndefined();
    expect(stats.otherRowsByType.DEPOSIT).toBe(1);
    expect(stats.tradesByType.BUY).toBe(0);
    expect(stats.trades).toBe(2);
    expect(stats.totalPremium, '150 + 80').toBe(230);
    expect(stats.lockedInPremiums, 'both expired worthless').toBe(230);
    expect(stats.tradingDays.active, 'the STO day has no P&L; the expiration day has').toBe(1);
  });
});
