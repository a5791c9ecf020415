/**
 * The New York market calendar: which dates are trading days of the NYSE (weekdays that are no exchange holiday),
 * and counts of trading days between dates. The journal uses it for the age of a mark and for the evidence of an
 * expiry (docs/journal.md §Positions). Pure: dates are `YYYY-MM-DD` strings, arithmetic on calendar.ts.
 *
 * Holidays follow NYSE Rule 7.2 as applied since 1998 (Martin Luther King Jr. Day from 1998, Juneteenth from 2022):
 * a holiday on a Sunday is kept on the Monday after, on a Saturday on the Friday before, except New Year's Day on a
 * Saturday, which is not kept at all (the Friday is the end of the yearly accounting period). Good Friday is two
 * days before Western Easter. Unscheduled closings are listed one by one (CLOSINGS). Early closes (13:00) are
 * trading days.
 */
import { addDays, dayOfWeek, daysBetween, parseIsoDate } from './calendar';

/** Days the exchange closed outside its holiday rules: 9/11, national days of mourning, Hurricane Sandy. */
const CLOSINGS: ReadonlySet<string> = new Set([
  '1994-04-27', // President Nixon
  '2001-09-11',
  '2001-09-12',
  '2001-09-13',
  '2001-09-14',
  '2004-06-11', // President Reagan
  '2007-01-02', // President Ford
  '2012-10-29', // Hurricane Sandy
  '2012-10-30',
  '2018-12-05', // President George H. W. Bush
  '2025-01-09', // President Carter
]);

function ymd(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The `nth` (1-based) `weekday` (0 = Sunday) of a month; nth = −1 is the last one. */
function nthWeekday(year: number, month: number, weekday: number, nth: number): string {
  if (nth > 0) {
    const first = ymd(year, month, 1);
    const offset = (weekday - dayOfWeek(first) + 7) % 7;
    return addDays(first, offset + (nth - 1) * 7);
  }
  const nextFirst = month === 12 ? ymd(year + 1, 1, 1) : ymd(year, month + 1, 1);
  const last = addDays(nextFirst, -1);
  return addDays(last, -((dayOfWeek(last) - weekday + 7) % 7));
}

/** Western (Gregorian) Easter Sunday: the anonymous Gregorian algorithm (Meeus/Jones/Butcher). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return ymd(year, month, day);
}

/** A fixed-date holiday as kept: Sunday → Monday, Saturday → Friday. */
function observed(date: string): string {
  const weekday = dayOfWeek(date);
  return weekday === 0 ? addDays(date, 1) : weekday === 6 ? addDays(date, -1) : date;
}

const holidaysByYear = new Map<number, ReadonlySet<string>>();

/** The exchange holidays kept in a calendar year (weekdays only). */
export function marketHolidays(year: number): ReadonlySet<string> {
  let holidays = holidaysByYear.get(year);
  if (holidays !== undefined) return holidays;
  const list: string[] = [];
  const newYear = ymd(year, 1, 1);
  // New Year's Day on a Saturday is not kept on Friday 31 December.
  if (dayOfWeek(newYear) !== 6) list.push(observed(newYear));
  if (year >= 1998) list.push(nthWeekday(year, 1, 1, 3));
  list.push(nthWeekday(year, 2, 1, 3));
  list.push(addDays(easterSunday(year), -2));
  list.push(nthWeekday(year, 5, 1, -1));
  if (year >= 2022) list.push(observed(ymd(year, 6, 19)));
  list.push(observed(ymd(year, 7, 4)));
  list.push(nthWeekday(year, 9, 1, 1));
  list.push(nthWeekday(year, 11, 4, 4));
  list.push(observed(ymd(year, 12, 25)));
  // Next year's New Year's Day on a Sunday is kept on Monday 2 January, in its own year: nothing to add here.
  holidays = new Set(list.filter((date) => date.startsWith(String(year).padStart(4, '0'))));
  holidaysByYear.set(year, holidays);
  return holidays;
}

/** A weekday on which the New York exchanges trade (false for holidays, unscheduled closings and non-dates). */
export function isTradingDay(date: string): boolean {
  const parts = parseIsoDate(date);
  if (parts === null) return false;
  const weekday = dayOfWeek(date);
  if (weekday === 0 || weekday === 6) return false;
  return !CLOSINGS.has(date) && !marketHolidays(parts.year).has(date);
}

/** The first trading day after `date`. */
export function nextTradingDay(date: string): string {
  let day = addDays(date, 1);
  while (!isTradingDay(day)) day = addDays(day, 1);
  return day;
}

/** The last trading day before `date`. */
export function previousTradingDay(date: string): string {
  let day = addDays(date, -1);
  while (!isTradingDay(day)) day = addDays(day, -1);
  return day;
}

/**
 * Trading days d with from < d ≤ to: how many sessions opened after `from` up to and including `to` (0 when `to` is
 * not after `from`). A quote of Friday evening is 1 trading day old on Monday, 0 on the Sunday in between.
 */
export function tradingDaysAfter(from: string, to: string): number {
  const span = daysBetween(from, to);
  if (!(span > 0)) return 0;
  // Weekdays by arithmetic (whole weeks, then the remaining days), then the closed weekdays in the range taken off:
  // a mark two years old is counted as fast as one of yesterday.
  const start = dayOfWeek(from);
  let weekdays = Math.floor(span / 7) * 5;
  for (let i = 1; i <= span % 7; i += 1) {
    const weekday = (start + i) % 7;
    if (weekday !== 0 && weekday !== 6) weekdays += 1;
  }
  let closed = 0;
  const inRange = (date: string) => date > from && date <= to;
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year += 1) {
    for (const holiday of marketHolidays(year)) if (inRange(holiday)) closed += 1;
  }
  for (const closing of CLOSINGS) if (inRange(closing)) closed += 1;
  return weekdays - closed;
}
