/**
 * The one calendar: dates as `YYYY-MM-DD` strings and instants as epoch milliseconds, with no time zone.
 * Date arithmetic is done on the date's UTC midnight, where no daylight-saving change can shift a day; what
 * depends on a zone (the day of an instant in New York, a wall-clock time there) is in zone.ts. Nothing here
 * reads the clock: "today" comes from a caller's `now` (zone.ts `todayIn`). Pure, and light enough for the
 * renderer's bundle. Conventions: docs/conventions.md §Dates.
 */

export const DAY_MS = 86_400_000;

/** Days in a month (1–12) of a proleptic Gregorian year. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The value of `count` ASCII digits of `text` from `from`, or −1 when one of them is not a digit. */
function digitsAt(text: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i += 1) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** The parts of a `YYYY-MM-DD` that names a real calendar day (no 2024-02-30), else null. */
export function parseIsoDate(text: string): { year: number; month: number; day: number } | null {
  if (text.length !== 10 || text.charCodeAt(4) !== 45 /* - */ || text.charCodeAt(7) !== 45) return null;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

/** `YYYY-MM-DD` that names a real calendar day. */
export function isIsoDate(text: string): boolean {
  return parseIsoDate(text) !== null;
}

/** Date.UTC, also for years 0–99 (which Date.UTC reads as 1900–1999). */
function utcMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, millis = 0): number {
  if (year >= 100) return Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, millis));
  date.setUTCFullYear(year);
  return date.getTime();
}

/** Epoch milliseconds of the date's UTC midnight; NaN when it is not a real date. */
export function dateToUtcMs(date: string): number {
  const parts = parseIsoDate(date);
  return parts === null ? Number.NaN : utcMs(parts.year, parts.month, parts.day);
}

function checkedParts(date: string): { year: number; month: number; day: number } {
  const parts = parseIsoDate(date);
  if (parts === null) throw new RangeError(`not a calendar date (YYYY-MM-DD): ${date}`);
  return parts;
}

/** The UTC calendar date of an instant. */
export function utcDateOf(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

/** The date `days` after `date` (before it when negative). Throws a RangeError for a date that is not real. */
export function addDays(date: string, days: number): string {
  const { year, month, day } = checkedParts(date);
  return utcDateOf(utcMs(year, month, day) + days * DAY_MS);
}

/** The same day `months` later, clamped to the end of a shorter month (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(date: string, months: number): string {
  const parts = checkedParts(date);
  const index = parts.year * 12 + (parts.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  return utcDateOf(utcMs(year, month, Math.min(parts.day, daysInMonth(year, month))));
}

/** Whole days from `from` to `to` (negative when `to` is earlier); NaN when either is not a real date. */
export function daysBetween(from: string, to: string): number {
  return Math.round((dateToUtcMs(to) - dateToUtcMs(from)) / DAY_MS);
}

/** 0 = Sunday … 6 = Saturday. */
export function dayOfWeek(date: string): number {
  return new Date(dateToUtcMs(date)).getUTCDay();
}

/** 0 = Monday … 6 = Sunday (the journal's weeks run Monday to Sunday). */
export function weekdayFromMonday(date: string): number {
  return (dayOfWeek(date) + 6) % 7;
}

/** The Monday–Sunday week containing `date`. */
export function weekRange(date: string): { from: string; to: string } {
  const from = addDays(date, -weekdayFromMonday(date));
  return { from, to: addDays(from, 6) };
}

/** The calendar month containing `date`. */
export function monthRange(date: string): { from: string; to: string } {
  const { year, month } = checkedParts(date);
  const prefix = date.slice(0, 8);
  return { from: `${prefix}01`, to: `${prefix}${String(daysInMonth(year, month)).padStart(2, '0')}` };
}

/**
 * Epoch milliseconds of an ISO 8601 instant: `YYYY-MM-DDTHH:MM[:SS[.fraction]]` followed by `Z` or an offset
 * (`+01:00`, `+0100`). Fields are checked (no 2024-02-30, no 24:00, offsets within ±18:00); a fraction beyond
 * milliseconds is truncated, as Date.parse does. NaN for anything else: text without an offset is no instant.
 * Read by hand: it runs once per imported row and per row of a ledger build, where Date.parse and regular
 * expressions dominated.
 */
export function parseInstantMs(text: string): number {
  const n = text.length;
  if (n < 17 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 /* T */ || text.charCodeAt(13) !== 58 /* : */) {
    return Number.NaN;
  }
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour < 0 || hour > 23 || minute < 0 || minute > 59) {
    return Number.NaN;
  }
  let i = 16;
  let second = 0;
  let millis = 0;
  if (text.charCodeAt(i) === 58 /* : */) {
    second = digitsAt(text, i + 1, 2);
    if (second < 0 || second > 59) return Number.NaN;
    i += 3;
    if (text.charCodeAt(i) === 46 /* . */) {
      i += 1;
      const start = i;
      let scale = 100;
      while (i < n) {
        const digit = text.charCodeAt(i) - 48;
        if (digit < 0 || digit > 9) break;
        millis += digit * scale;
        scale /= 10;
        i += 1;
      }
      if (i === start) return Number.NaN;
      millis = Math.floor(millis);
    }
  }
  let offsetMinutes: number;
  const sign = text.charCodeAt(i);
  if (sign === 90 /* Z */ && i === n - 1) {
    offsetMinutes = 0;
  } else if (sign === 43 /* + */ || sign === 45 /* - */) {
    const colon = text.charCodeAt(i + 3) === 58 ? 1 : 0;
    if (n !== i + 5 + colon) return Number.NaN;
    const offsetHours = digitsAt(text, i + 1, 2);
    const offsetMins = digitsAt(text, i + 3 + colon, 2);
    if (offsetHours < 0 || offsetMins < 0 || offsetMins > 59) return Number.NaN;
    offsetMinutes = offsetHours * 60 + offsetMins;
    if (offsetMinutes > 18 * 60) return Number.NaN;
    if (sign === 45) offsetMinutes = -offsetMinutes;
  } else {
    return Number.NaN;
  }
  return utcMs(year, month, day, hour, minute, second, millis) - offsetMinutes * 60_000;
}

/**
 * The ISO 8601 UTC text of an instant: `2024-01-05T21:00:00.000Z`, or with `compact` without a zero
 * millisecond part (`2024-01-05T21:00:00Z`, the form snapshots store their quote times in).
 */
export function isoInstant(epochMs: number, options: { compact?: boolean } = {}): string {
  const text = new Date(epochMs).toISOString();
  return options.compact === true && text.endsWith('.000Z') ? `${text.slice(0, -5)}Z` : text;
}
