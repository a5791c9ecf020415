/**
 * Calendar-date helpers for the journal. A journal day is a New York (journal time zone) calendar date,
 * `YYYY-MM-DD`; arithmetic on such dates is done in UTC so no time zone can shift them.
 */
import { DateTime } from 'luxon';

export const JOURNAL_TIME_ZONE = 'America/New_York';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isIsoDate(text: string): boolean {
  const match = DATE_ONLY.exec(text);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const utc = new Date(Date.UTC(y, m - 1, d));
  return utc.getUTCFullYear() === y && utc.getUTCMonth() === m - 1 && utc.getUTCDate() === d;
}

function parts(date: string): [number, number, number] {
  return [Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
}

function fromUtcMs(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  const [y, m, d] = parts(date);
  return fromUtcMs(Date.UTC(y, m - 1, d + days));
}

/** 0 = Sunday … 6 = Saturday. */
export function dayOfWeek(date: string): number {
  const [y, m, d] = parts(date);
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

/** The calendar month containing `date`. */
export function monthRange(date: string): { from: string; to: string } {
  const [y, m] = parts(date);
  return { from: fromUtcMs(Date.UTC(y, m - 1, 1)), to: fromUtcMs(Date.UTC(y, m, 0)) };
}

/** The Monday–Sunday week containing `date`. */
export function weekRange(date: string): { from: string; to: string } {
  const sinceMonday = (dayOfWeek(date) + 6) % 7;
  const from = addDays(date, -sinceMonday);
  return { from, to: addDays(from, 6) };
}

/** The journal-zone calendar date of an ISO 8601 instant (`2024-01-05T03:00:00Z` → `2024-01-04` in New York). */
export function tradeDayOf(instant: string, zone: string = JOURNAL_TIME_ZONE): string {
  const parsed = DateTime.fromISO(instant, { zone: 'utc' });
  if (!parsed.isValid) throw new RangeError(`not an ISO 8601 instant: ${instant}`);
  return parsed.setZone(zone).toISODate() ?? instant.slice(0, 10);
}

/**
 * A query's center date: a plain `YYYY-MM-DD` is already a journal date; a date-time is read in the
 * journal zone when it carries no offset, and converted to it when it does.
 */
export function journalDate(text: string, zone: string = JOURNAL_TIME_ZONE): string {
  if (DATE_ONLY.test(text)) return text;
  const parsed = DateTime.fromISO(text, { zone, setZone: false });
  if (!parsed.isValid) throw new RangeError(`not an ISO 8601 date: ${text}`);
  return parsed.setZone(zone).toISODate() ?? text.slice(0, 10);
}

/** Today in the journal zone (the only wall-clock read in the journal; callers may pass their own date instead). */
export function journalToday(zone: string = JOURNAL_TIME_ZONE): string {
  return DateTime.now().setZone(zone).toISODate() ?? new Date().toISOString().slice(0, 10);
}
