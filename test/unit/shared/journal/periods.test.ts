import { describe, expect, it } from 'vitest';
import { monthRange, weekRange } from '../../../../src-shared/calendar';
import { dateOfQuery } from '../../../../src-shared/zone';
import { TRANSACTION_TYPES } from '../../../../src-shared/journal/model';
import { DayBook } from '../../../../src-shared/journal/periods';
import { ledgerOf, tx, performanceJson, yearJson } from '../../../journal-helpers';

/** One realized 10.00 per fill pair: interest rows are the simplest dated P&L. */
const interest = (amount: number, at: string, currency = 'USD') => tx({ type: 'INTEREST', ticker: '', amount, at, currency });

describe('period boundaries', () => {
  it('weeks run Monday to Sunday', () => {
    expect(weekRange('2024-03-10'), 'a Sunday ends its week').toEqual({ from: '2024-03-04', to: '2024-03-10' });
    expect(weekRange('2024-03-11'), 'a Monday starts one').toEqual({ from: '2024-03-11', to: '2024-03-17' });
    expect(weekRange('2024-12-31'), 'a week across the year end').toEqual({ from: '2024-12-30', to: '2025-01-05' });
    expect(monthRange('2024-02-10'), 'leap February').toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(monthRange('2023-02-28')).toEqual({ from: '2023-02-01', to: '2023-02-28' });
  });

  it('dates a fill by its New York day, not its UTC day', () => {
    // 2024-03-01T03:30Z is 22:30 on Feb 29 in New York (EST, UTC−5).
    const late = interest(7, '2024-03-01T03:30:00Z');
    expect(late.tradeDay).toBe('2024-02-29');
    const ledger = ledgerOf([late, interest(3, '2024-03-01T15:00:00Z')]);
    const feb = performanceJson(ledger, { period: 'monthly', date: '2024-02-15' }).monthly;
    const mar = performanceJson(ledger, { period: 'monthly', date: '2024-03-15' }).monthly;
    expect(feb.summary.interest, 'the late-evening row is February').toBe(7);
    expect(mar.summary.interest).toBe(3);
    expect(dateOfQuery('2024-03-01T02:00:00Z'), 'a query date-time converts to New York too').toBe('2024-02-29');
    expect(dateOfQuery('2024-03-01T02:00:00'), 'without offset it is New York time already').toBe('2024-03-01');
  });

  it('puts Sunday in the week that started on Monday, and month ends in their month', () => {
    const ledger = ledgerOf([
      interest(1, '2024-03-03T12:00'), // Sunday
      interest(2, '2024-03-04T12:00'), // Monday
      interest(4, '2024-03-10T12:00'), // Sunday
      interest(8, '2024-03-31T12:00'), // Sunday, month end
      interest(16, '2024-04-01T12:00'), // Monday, next month
    ]);
    const week = performanceJson(ledger, { period: 'weekly', date: '2024-03-07' });
    expect([week.weekly.from, week.weekly.to]).toEqual(['2024-03-04', '2024-03-10']);
    expect(week.weekly.summary.totalPL, 'Mon 2 + Sun 4 (the Sunday before belongs to the previous week)').toBe(6);
    expect(week.range, 'range follows the chosen period').toEqual({ period: 'weekly', from: '2024-03-04', to: '2024-03-10' });
    expect(week.calendar.days.map((d) => d.date)).toEqual(['2024-03-04', '2024-03-10']);
    const monthEnd = performanceJson(ledger, { period: 'monthly', date: '2024-03-31' });
    expect(monthEnd.monthly.summary.totalPL, '1 + 2 + 4 + 8').toBe(15);
    expect(monthEnd.weekly.summary.totalPL, 'week 03-25..03-31 holds only the 31st').toBe(8);
    expect(monthEnd.custom, 'no custom range without from/to').toBeUndefined();
  });

  it('adds the custom range and points range and calendar at it', () => {
    const ledger = ledgerOf([interest(1, '2024-03-03T12:00'), interest(2, '2024-03-04T12:00'), interest(16, '2024-04-01T12:00')]);
    const result = performanceJson(ledger, { period: 'weekly', date: '2024-03-04', from: '2024-03-04', to: '2024-04-01' });
    expect(result.range).toEqual({ period: 'custom', from: '2024-03-04', to: '2024-04-01' });
    expect(result.custom?.summary.totalPL, '2 + 16, inclusive at both ends').toBe(18);
    expect(result.calendar, 'only days with activity').toEqual({
      from: '2024-03-04',
      to: '2024-04-01',
      days: [
        { date: '2024-03-04', pl: 2, trades: 0 },
        { date: '2024-04-01', pl: 16, trades: 0 },
      ],
    });
    expect(result.weekly.summary.totalPL, 'weekly is still computed').toBe(2);
    const empty = performanceJson(ledger, { period: 'monthly', date: '2024-03-04', from: '2024-05-01', to: '2024-04-01' });
    expect(empty.custom?.summary.totalPL, 'from after to: empty').toBe(0);
  });

  it('sorts byDay by date and bySymbol by |pl|', () => {
    const put = (ticker: string) => ({ ticker, option: { expiration: '2024-03-15', strike: 10, right: 'P' as const } });
    const ledger = ledgerOf([
      tx({ type: 'SELL_TO_OPEN', ...put('AAA'), quantity: 1, price: 0.5, at: '2024-03-01T10:00' }),
      tx({ type: 'SELL_TO_OPEN', ...put('BBB'), quantity: 1, price: 1, at: '2024-03-01T10:00' }),
      tx({ type: 'SELL_TO_OPEN', ...put('CCC'), quantity: 1, price: 0.2, at: '2024-03-01T10:00' }),
      tx({ type: 'BUY_TO_CLOSE', ...put('BBB'), quantity: 1, price: 0.1, at: '2024-03-05T10:00' }),
      tx({ type: 'BUY_TO_CLOSE', ...put('AAA'), quantity: 1, price: 2, at: '2024-03-04T10:00' }),
      tx({ type: 'EXPIRATION', ...put('CCC'), quantity: 1, at: '2024-03-15T17:00' }),
    ]);
    const month = performanceJson(ledger, { period: 'monthly', date: '2024-03-10' }).monthly;
    expect(month.breakdown.byDay.map((d) => [d.date, d.pl, d.trades])).toEqual([
      ['2024-03-01', 0, 3],
      ['2024-03-04', -150, 1],
      ['2024-03-05', 90, 1],
      ['2024-03-15', 20, 0],
    ]);
    // AAA 50 − 200 = −150, BBB 100 − 10 = 90, CCC 20
    expect(month.breakdown.bySymbol.map((r) => [r.symbol, r.pl])).toEqual([
      ['AAA', -150],
      ['BBB', 90],
      ['CCC', 20],
    ]);
    expect(month.summary.lockedInPremiums, '−150 + 90 + 20').toBe(-40);
  });
});

describe('currencies', () => {
  it('keeps other currencies out of the summary and under byCurrency', () => {
    const ledger = ledgerOf([
      interest(10, '2024-03-04T12:00'),
      tx({ type: 'BUY', ticker: 'ENB', quantity: 10, price: 50, at: '2024-03-04T10:00', currency: 'CAD', account: 'tfsa' }),
      tx({ type: 'SELL', ticker: 'ENB', quantity: 10, price: 52, commission: 1, at: '2024-03-05T10:00', currency: 'CAD', account: 'tfsa' }),
      tx({ type: 'DIVIDEND', ticker: 'ENB', amount: 9.15, at: '2024-03-06T09:00', currency: 'CAD', account: 'tfsa' }),
    ]);
    const month = performanceJson(ledger, { period: 'monthly', date: '2024-03-10' }).monthly;
    expect(month.currency).toBe('USD');
    expect(month.summary.totalPL, 'USD only: the interest').toBe(10);
    expect(month.summary.trades, 'CAD trades are not in the USD summary').toBe(0);
    expect(month.breakdown.bySymbol, 'nor in its breakdown').toEqual([]);
    expect(month.byCurrency.CAD?.stockPL, '(52 − 50) × 10 − 1').toBe(19);
    expect(month.byCurrency.CAD?.totalPL, '19 + 9.15').toBe(28.15);
    expect(month.byCurrency.CAD?.trades).toBe(2);
    const year = yearJson(ledger, 2024);
    expect(year.stats.totalPL).toBe(10);
    // Commissions in CAD stay in CAD: the 1.00 of the round trip.
    expect(year.byCurrency).toEqual({ CAD: { totalPL: 28.15, realizedPL: 19, premiumsCollected: 0, dividends: 9.15, commissions: 1, unmatched: { closes: 0, quantity: 0 } } });
    expect(year.stats.commissions, 'no USD trade').toBe(0);
  });

  it('reports in another currency when that is the setting', () => {
    const rows = [
      interest(10, '2024-03-04T12:00'),
      tx({ type: 'DIVIDEND', ticker: 'ENB', amount: 9.15, at: '2024-03-06T09:00', currency: 'CAD' }),
    ];
    const ledger = ledgerOf(rows, 'CAD');
    expect(ledger.currencies, 'reporting currency first').toEqual(['CAD', 'USD']);
    const month = performanceJson(ledger, { period: 'monthly', date: '2024-03-10' }).monthly;
    expect(month.summary.totalPL).toBe(9.15);
    expect(month.byCurrency.USD?.totalPL).toBe(10);
  });
});

describe('DayBook: cases the mutation run found untested (issue 31 item 5), each with its reason', () => {
  it('lists the reporting currency first and the others alphabetically, whatever order their rows came in (the summary reads the first)', () => {
    const book = new DayBook();
    for (const currency of ['JPY', 'EUR', 'USD', 'CAD']) book.day(currency, '2024-01-02');
    expect(book.finish('USD').currencies).toEqual(['USD', 'CAD', 'EUR', 'JPY']);
    expect(book.finish('EUR').currencies, 'another reporting currency').toEqual(['EUR', 'CAD', 'JPY', 'USD']);
  });

  it('sorts the days, whatever order the rows came in (files imported out of order), each aggregate with its day', () => {
    const book = new DayBook();
    for (const day of ['2024-03-01', '2024-01-15', '2024-02-10']) book.day('USD', day);
    const usd = book.finish('USD').byCurrency.get('USD');
    expect(usd?.days).toEqual(['2024-01-15', '2024-02-10', '2024-03-01']);
    expect(usd?.aggs.map((agg) => agg.day)).toEqual(['2024-01-15', '2024-02-10', '2024-03-01']);
  });

  it('keeps one row per underlying a day, so that a second fill adds to the first; a cash row has none', () => {
    const book = new DayBook();
    const agg = book.day('USD', '2024-01-02');
    const spy = book.symbol(agg, 'SPY');
    if (spy === null) throw new Error('SPY has a row');
    spy.premiumsMinor = 1_500_000;
    expect(book.symbol(agg, 'SPY'), 'the same row, with its premium').toBe(spy);
    expect(book.symbol(agg, ''), 'cash: no underlying').toBeNull();
    expect(book.day('USD', '2024-01-02'), 'the same day, the same aggregate').toBe(agg);
  });

  it('counts each transaction type from zero, one slot per type', () => {
    expect(new DayBook().day('USD', '2024-01-02').typeCounts).toEqual(TRANSACTION_TYPES.map(() => 0));
  });

  it('restoreBefore: a resumed book starts from the days strictly before the resume day, copied, their rolls left for the ledger to add again', () => {
    const published = new DayBook();
    for (const [currency, day, premiumsMinor] of [['USD', '2024-01-02', 1_000], ['USD', '2024-01-03', 2_000], ['USD', '2024-01-04', 4_000], ['CAD', '2024-01-05', 8_000]] as const) {
      const agg = published.day(currency, day);
      agg.premiumsMinor = premiumsMinor;
      agg.rolls = 1;
      agg.rollCreditsMinor = 500;
      agg.typeCounts[0] = 3;
      const row = published.symbol(agg, 'SPY');
      if (row === null) throw new Error('SPY has a row');
      row.premiumsMinor = premiumsMinor;
      row.rolls = 1;
    }
    const { byCurrency } = published.finish('USD');
    const resumed = new DayBook();
    resumed.restoreBefore(byCurrency, '2024-01-04');
    const { currencies, byCurrency: restored } = resumed.finish('USD');
    // CAD's only day (01-05) is not before 01-04: the currency is not there at all; USD keeps 01-02 and 01-03, not 01-04.
    expect(currencies, 'only the currencies with a day before the resume day').toEqual(['USD']);
    const usd = restored.get('USD');
    expect(usd?.days, 'the days before the resume day, not the day itself').toEqual(['2024-01-02', '2024-01-03']);
    expect(usd?.aggs.map((agg) => agg.premiumsMinor), 'their figures kept').toEqual([1_000, 2_000]);
    expect(usd?.aggs.map((agg) => [agg.rolls, agg.rollCreditsMinor]), 'their rolls cleared (the ledger adds them from its roll list)').toEqual([[0, 0], [0, 0]]);
    expect(usd?.aggs.map((agg) => agg.typeCounts[0]), 'their type counts kept').toEqual([3, 3]);
    expect(usd?.aggs.map((agg) => [agg.symbols.get('SPY')?.premiumsMinor, agg.symbols.get('SPY')?.rolls]), 'each underlying row kept, its rolls cleared').toEqual([[1_000, 0], [2_000, 0]]);
    // Booking into the resumed book must not change the published ledger's days (a published ledger is immutable).
    const first = resumed.day('USD', '2024-01-02');
    first.typeCounts[0] = 99;
    first.premiumsMinor = 7;
    expect(byCurrency.get('USD')?.aggs[0]?.typeCounts[0], 'the published type counts are not shared').toBe(3);
    expect(byCurrency.get('USD')?.aggs[0]?.premiumsMinor, 'nor the aggregate').toBe(1_000);
    expect(byCurrency.get('USD')?.aggs[0]?.rolls, 'nor its rolls').toBe(1);
    expect(byCurrency.get('USD')?.aggs[0]?.symbols.get('SPY')?.rolls, 'nor its underlying rows').toBe(1);
  });
});
