import { describe, expect, it } from 'vitest';
import { addDays } from '../../../src-shared/calendar';
import { easterSunday, isTradingDay, marketHolidays, nextTradingDay, tradingDaysAfter } from '../../../src-shared/trading-days';

/** The NYSE's published holiday schedules (nyse.com, "Holidays & Trading Hours"), full closures only. */
const PUBLISHED: Record<number, string[]> = {
  2021: ['2021-01-01', '2021-01-18', '2021-02-15', '2021-04-02', '2021-05-31', '2021-07-05', '2021-09-06', '2021-11-25', '2021-12-24'],
  // New Year's Day 2022 fell on a Saturday: not kept (31 December 2021 traded); Juneteenth on a Sunday, kept Monday.
  2022: ['2022-01-17', '2022-02-21', '2022-04-15', '2022-05-30', '2022-06-20', '2022-07-04', '2022-09-05', '2022-11-24', '2022-12-26'],
  2023: ['2023-01-02', '2023-01-16', '2023-02-20', '2023-04-07', '2023-05-29', '2023-06-19', '2023-07-04', '2023-09-04', '2023-11-23', '2023-12-25'],
  2024: ['2024-01-01', '2024-01-15', '2024-02-19', '2024-03-29', '2024-05-27', '2024-06-19', '2024-07-04', '2024-09-02', '2024-11-28', '2024-12-25'],
  2025: ['2025-01-01', '2025-01-20', '2025-02-17', '2025-04-18', '2025-05-26', '2025-06-19', '2025-07-04', '2025-09-01', '2025-11-27', '2025-12-25'],
  2026: ['2026-01-01', '2026-01-19', '2026-02-16', '2026-04-03', '2026-05-25', '2026-06-19', '2026-07-03', '2026-09-07', '2026-11-26', '2026-12-25'],
  2027: ['2027-01-01', '2027-01-18', '2027-02-15', '2027-03-26', '2027-05-31', '2027-06-18', '2027-07-05', '2027-09-06', '2027-11-25', '2027-12-24'],
};

describe('the New York market calendar', () => {
  it('keeps the holidays the NYSE published for 2021–2027', () => {
    for (const [year, dates] of Object.entries(PUBLISHED)) expect([...marketHolidays(Number(year))].sort(), year).toEqual(dates);
  });

  it('is closed on holidays, weekends and unscheduled closings; open the day after', () => {
    expect(isTradingDay('2024-11-28'), 'Thanksgiving').toBe(false);
    expect(isTradingDay('2024-11-29'), 'the Friday after (an early close) trades').toBe(true);
    expect(isTradingDay('2021-12-31'), 'New Year 2022 on a Saturday is not kept on the Friday').toBe(true);
    expect(isTradingDay('2025-01-09'), 'national day of mourning for President Carter').toBe(false);
    expect(isTradingDay('2012-10-30'), 'Hurricane Sandy').toBe(false);
    expect(isTradingDay('2024-06-15'), 'a Saturday').toBe(false);
    expect(isTradingDay('2024-02-30'), 'no such date').toBe(false);
  });

  it('finds Easter by the Gregorian computus (published dates)', () => {
    expect([2019, 2024, 2025, 2038].map(easterSunday)).toEqual(['2019-04-21', '2024-03-31', '2025-04-20', '2038-04-25']);
  });

  it('counts trading days after a date: Friday → Monday is one, over a holiday weekend too', () => {
    expect(tradingDaysAfter('2024-05-24', '2024-05-26'), 'Friday → Sunday').toBe(0);
    expect(tradingDaysAfter('2024-05-24', '2024-05-28'), 'Memorial Day Monday is closed: Tuesday is the first').toBe(1);
    expect(tradingDaysAfter('2024-05-22', '2024-05-28'), 'Thu, Fri, Tue').toBe(3);
    expect(tradingDaysAfter('2024-05-28', '2024-05-22'), 'backwards').toBe(0);
    expect(nextTradingDay('2024-05-24')).toBe('2024-05-28');
    // 2024 had 252 sessions (366 days − 104 weekend days − 10 holidays).
    expect(tradingDaysAfter('2023-12-31', '2024-12-31')).toBe(252);
  });

  it('counts by arithmetic exactly what a walk over the days counts (random ranges 1990–2035)', () => {
    let seed = 17;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (let i = 0; i < 300; i += 1) {
      const from = addDays('1990-01-01', Math.floor(random() * 16_000));
      const to = addDays(from, Math.floor(random() * 900) - 20);
      let walked = 0;
      for (let day = addDays(from, 1); day <= to; day = addDays(day, 1)) if (isTradingDay(day)) walked += 1;
      expect(tradingDaysAfter(from, to), `${from} → ${to}`).toBe(walked);
    }
  });
});
