/**
 * A date-or-instant parameter (`asOf`, `at`, `date`, `from`, `to`), read in one place (docs/conventions.md §Date
 * grammar): a calendar day `YYYY-MM-DD`, or an ISO 8601 date-time (with `Z` or an offset it is that instant; without
 * one it is wall-clock time in the reader's zone: New York for exposure, the journal's zone for the journal).
 * As an instant a day means one of its ends: the END of that day for `asOf`, `at` and a range's `to` (23:59:59.999 in
 * the zone: "as of Friday" includes Friday's trades), its start for a range's `from`.
 */
import { addDays, isIsoDate } from './calendar';
import { parseDateTimeInZone, zonedTimeToMs } from './zone';

export type DateOrInstant = { kind: 'date'; date: string } | { kind: 'instant'; text: string };
/** Which end of a day a date stands for. */
export type DayEnd = 'start' | 'end';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Whether the text is written as a day (`YYYY-MM-DD`), real or not: the rules name a false day as a date. */
export function writtenAsDay(text: string): boolean {
  return DAY.test(text);
}

/** The parameter read: a real calendar day, or a readable date-time; null for anything else. */
export function readDateOrInstant(text: string): DateOrInstant | null {
  if (DAY.test(text)) return isIsoDate(text) ? { kind: 'date', date: text } : null;
  return Number.isNaN(parseDateTimeInZone(text)) ? null : { kind: 'instant', text };
}

/** Epoch ms of a read parameter in `zone`: a day its start or its end (the last millisecond before the next day). */
export function instantMsOf(value: DateOrInstant, zone: string, end: DayEnd): number {
  if (value.kind === 'instant') return parseDateTimeInZone(value.text, zone);
  return end === 'start' ? zonedTimeToMs(value.date, { hour: 0, minute: 0 }, zone) : zonedTimeToMs(addDays(value.date, 1), { hour: 0, minute: 0 }, zone) - 1;
}

/** Epoch ms of a date-or-instant text (NaN when it is neither): a day its `end`. */
export function dateOrInstantMs(text: string, zone: string, end: DayEnd): number {
  const value = readDateOrInstant(text);
  return value === null ? Number.NaN : instantMsOf(value, zone, end);
}

/** Epoch ms of an `asOf` (or `at`): an instant, or a day's END in `zone` (NaN when unreadable). */
export function asOfMs(text: string, zone: string): number {
  return dateOrInstantMs(text, zone, 'end');
}
