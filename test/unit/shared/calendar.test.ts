import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  dateToUtcMs,
  dayOfWeek,
  daysBetween,
  daysInMonth,
  isIsoDate,
  isoInstant,
  monthRange,
  parseInstantMs,
  weekdayFromMonday,
  weekRange,
} from '../../../src-shared/calendar';

/** luxon on UTC is the independent reference for the date arithmetic. */
const utc = (date: string) => DateTime.fromISO(date, { zone: 'utc' });

describe('calendar dates', () => {
  it('knows real dates: leap days of 2024 and 2000, none in 1900, 2023 or 2100', () => {
    for (const date of ['2024-02-29', '2000-02-29', '1999-12-31', '2025-01-01', '0001-01-01']) expect(isIsoDate(date), date).toBe(true);
    for (const date of ['2023-02-29', '1900-02-29', '2100-02-29', '2024-02-30', '2024-04-31', '2024-13-01', '2024-00-10', '2024-01-00', '2024-1-05', '2024/01/05', ' 2024-01-05', '20240105', '2024-01-05T00:00'])
      expect(isIsoDate(date), date).toBe(false);
    expect([2023, 2024, 1900, 2000].map((year) => daysInMonth(year, 2))).toEqual([28, 29, 28, 29]);
  });

  it('adds days across month ends, leap days and year ends as luxon does', () => {
    const cases: Array<[string, number]> = [
      ['2024-02-28', 1],
      ['2024-02-28', 2],
      ['2023-02-28', 1],
      ['2024-12-31', 1],
      ['2025-01-01', -1],
      ['2024-03-10', 1], // New York's spring-forward day: no zone here, still one day
      ['2024-11-03', -1],
      ['2024-01-15', 366],
      ['2024-06-30', -365],
    ];
    for (const [date, days] of cases) expect(addDays(date, days), `${date} ${days}`).toBe(utc(date).plus({ days }).toISODate());
    expect(() => addDays('2024-02-30', 1)).toThrow(RangeError);
  });

  it('adds months clamped to the shorter month, as luxon does', () => {
    for (const [date, months] of [
      ['2024-01-31', 1],
      ['2023-01-31', 1],
      ['2024-03-31', -1],
      ['2024-12-15', 1],
      ['2025-01-15', -1],
      ['2024-02-29', 12],
      ['2024-05-31', -15],
    ] as Array<[string, number]>) {
      expect(addMonths(date, months), `${date} ${months}`).toBe(utc(date).plus({ months }).toISODate());
    }
  });

  it('counts days between dates, both ways, over leap years', () => {
    for (const [from, to] of [
      ['2024-01-01', '2025-01-01'],
      ['2023-01-01', '2024-01-01'],
      ['2024-03-09', '2024-03-11'],
      ['2025-01-01', '2024-12-31'],
      ['2000-02-28', '2000-03-01'],
    ] as Array<[string, string]>) {
      expect(daysBetween(from, to), `${from} → ${to}`).toBe(utc(to).diff(utc(from), 'days').days);
    }
    expect(daysBetween('2024-01-01', '2024-02-30')).toBeNaN();
  });

  it('gives the day of the week, 0 = Sunday, and weeks from Monday', () => {
    let date = '2023-12-25';
    for (let i = 0; i < 21; i += 1) {
      expect(dayOfWeek(date), date).toBe(utc(date).weekday % 7);
      expect(weekdayFromMonday(date), date).toBe(utc(date).weekday - 1);
      date = addDays(date, 1);
    }
  });

  it('puts a Sunday at the end of its Monday–Sunday week, also across a year end', () => {
    expect(weekRange('2024-03-10'), 'a Sunday').toEqual({ from: '2024-03-04', to: '2024-03-10' });
    expect(weekRange('2024-03-04'), 'its Monday').toEqual({ from: '2024-03-04', to: '2024-03-10' });
    expect(weekRange('2025-01-05'), 'a Sunday whose Monday is in the old year').toEqual({ from: '2024-12-30', to: '2025-01-05' });
    expect(weekRange('2024-02-29')).toEqual({ from: '2024-02-26', to: '2024-03-03' });
    for (let date = '2024-12-20'; date <= '2025-01-12'; date = addDays(date, 1)) {
      const reference = utc(date);
      expect(weekRange(date), date).toEqual({ from: reference.startOf('week').toISODate(), to: reference.endOf('week').toISODate() });
    }
  });

  it('gives month ranges, February of leap and common years and December', () => {
    expect(monthRange('2024-02-10')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(monthRange('2023-02-28')).toEqual({ from: '2023-02-01', to: '2023-02-28' });
    expect(monthRange('2024-12-31')).toEqual({ from: '2024-12-01', to: '2024-12-31' });
    expect(monthRange('2024-04-01')).toEqual({ from: '2024-04-01', to: '2024-04-30' });
  });
});

describe('parseInstantMs', () => {
  it.each([
    '2024-01-05T21:00:00.000Z',
    '2024-01-05T21:00:00Z',
    '2024-01-05T21:00Z',
    '2024-01-05T16:00:00-05:00',
    '2024-01-05T16:00:00-0500',
    '2024-07-05T02:30:00+05:30',
    '2024-02-29T23:59:59.999Z',
    '2024-12-31T23:59:59.5-14:00',
    '2000-02-29T12:00:00.123456Z',
    '0050-06-01T00:00:00Z',
  ])('reads %s as Date.parse does', (text) => {
    expect(parseInstantMs(text)).toBe(Date.parse(text));
  });

  it.each([
    '2024-02-30T10:00:00Z',
    '2023-02-29T10:00:00Z',
    '2024-01-01T24:00:00Z',
    '2024-01-01T10:60:00Z',
    '2024-01-01T10:00:60Z',
    '2024-13-01T10:00:00Z',
    '2024-01-01T10:00:00', // no offset: wall-clock time somewhere, not an instant
    '2024-01-01',
    '2024-01-01T10:00:00+19:00',
    '2024-01-01T10:00:00+05:75',
    '2024-01-01T10:00:00.Z',
    '2024-01-01T10:00:00Zjunk',
    '2024-01-01 10:00:00Z',
    '',
  ])('refuses %j', (text) => {
    expect(parseInstantMs(text)).toBeNaN();
  });

  it('agrees with Date.parse on 2,000 instants over thirty years, with and without milliseconds', () => {
    let ms = Date.parse('1995-01-01T00:00:00Z');
    for (let i = 0; i < 2_000; i += 1) {
      ms += 473_039_999 + i * 7;
      const text = new Date(ms).toISOString();
      expect(parseInstantMs(text), text).toBe(ms);
      expect(parseInstantMs(isoInstant(ms - (ms % 1000), { compact: true }))).toBe(ms - (ms % 1000));
    }
  });

  it('writes instants back in UTC, compact without a zero millisecond part', () => {
    expect(isoInstant(Date.parse('2024-01-05T21:00:00Z'), { compact: true })).toBe('2024-01-05T21:00:00Z');
    expect(isoInstant(Date.parse('2024-01-05T21:00:00.250Z'), { compact: true })).toBe('2024-01-05T21:00:00.250Z');
    expect(isoInstant(dateToUtcMs('2024-01-05'))).toBe('2024-01-05T00:00:00.000Z');
  });
});
