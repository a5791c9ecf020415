/**
 * Date helpers shared by the importers. Every transaction's tradeDate is an ISO 8601 UTC instant
 * (`2025-10-03T19:55:09.000Z`); broker files give local times, offsets or bare dates.
 */
import { isIsoDate, isoInstant, parseInstantMs } from '../../../src-shared/calendar';
import { NEW_YORK, zonedTimeToIso } from '../../../src-shared/zone';

/**
 * Bare dates (Schwab, generic `YYYY-MM-DD`) become 16:00 New York time: the close of the session, so the
 * New York trade day is the printed date whatever the UTC offset.
 */
export const DATE_ONLY_LOCAL_TIME = '16:00:00';

/** `2025-10-03T20:55:09+0100`, `...+01:00`, `...Z` to a UTC ISO instant; null when the text has no offset. */
export function offsetIsoToUtc(text: string): string | null {
  const trimmed = text.trim();
  const ms = parseInstantMs(trimmed);
  if (Number.isNaN(ms)) return null;
  // Already canonical UTC (what our own exports and many APIs write): the checked text is the answer.
  return trimmed.length === 24 && trimmed.charCodeAt(23) === 90 /* Z */ && trimmed.charCodeAt(19) === 46 /* . */ ? trimmed : isoInstant(ms);
}

/** A calendar date plus a wall-clock time (`H:MM[:SS]`) in a time zone to a UTC ISO instant. */
export function localToUtc(ymd: string, time: string, zone: string): string | null {
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(time.trim());
  if (!match) return null;
  return zonedTimeToIso(ymd, { hour: Number(match[1]), minute: Number(match[2]), second: Number(match[3] ?? '0') }, zone);
}

/** A bare calendar date to the UTC instant of 16:00 in `zone` (see DATE_ONLY_LOCAL_TIME). */
export function dayToUtc(ymd: string, zone: string = NEW_YORK): string | null {
  return localToUtc(ymd, DATE_ONLY_LOCAL_TIME, zone);
}

/** `YYYY-MM-DD` when it is a real calendar date, else null. */
export function checkYmd(text: string): string | null {
  const trimmed = text.trim();
  return isIsoDate(trimmed) ? trimmed : null;
}

/** US dates `M/D/YY`, `MM/DD/YYYY`, `MM-DD-YYYY` to `YYYY-MM-DD`; two-digit years are 20YY. */
export function mdyToYmd(text: string): string | null {
  const match = /^(\d{1,2})([/-])(\d{1,2})\2(\d{2}|\d{4})$/.exec(text.trim());
  if (!match) return null;
  const [, m, , d, y] = match;
  if (m === undefined || d === undefined || y === undefined) return null;
  const year = y.length === 2 ? `20${y}` : y;
  return checkYmd(`${year}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`);
}

const MONTHS: Record<string, string> = {
  JAN: '01', FEB: '02', MAR: '03', APR: '04', MAY: '05', JUN: '06',
  JUL: '07', AUG: '08', SEP: '09', OCT: '10', NOV: '11', DEC: '12',
};

/** thinkorswim expirations `17 JAN 25` (day, month name, two-digit year) to `YYYY-MM-DD`. */
export function dayMonYyToYmd(text: string): string | null {
  const match = /^(\d{1,2})\s+([A-Z]{3})\s+(\d{2}|\d{4})$/i.exec(text.trim());
  if (!match) return null;
  const [, d, mon, y] = match;
  if (d === undefined || mon === undefined || y === undefined) return null;
  const month = MONTHS[mon.toUpperCase()];
  if (month === undefined) return null;
  const year = y.length === 2 ? `20${y}` : y;
  return checkYmd(`${year}-${month}-${d.padStart(2, '0')}`);
}

/** `7:31 PM`, `19:31`, `19:31:05`, `193105` (IBKR Flex) to `HH:MM:SS`. */
export function clockTo24h(text: string): string | null {
  const match = /^(\d{1,2}):?(\d{2})(?::?(\d{2}))?\s*([AP]\.?M\.?)?$/i.exec(text.trim());
  if (!match) return null;
  let hour = Number(match[1]);
  const minute = Number(match[2]);
  const second = Number(match[3] ?? '0');
  const meridiem = match[4]?.toUpperCase().replace(/\./g, '');
  if (meridiem !== undefined) {
    if (hour < 1 || hour > 12) return null;
    if (meridiem === 'AM' && hour === 12) hour = 0;
    if (meridiem === 'PM' && hour !== 12) hour += 12;
  }
  if (hour > 23 || minute > 59 || second > 59) return null;
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${pad(hour)}:${pad(minute)}:${pad(second)}`;
}

/** `YYYY-MM-DD` or `YYYYMMDD` (IBKR Flex) to `YYYY-MM-DD` when it is a real calendar date. */
export function isoToYmd(text: string): string | null {
  const match = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(text.trim());
  return match ? checkYmd(`${match[1]}-${match[2]}-${match[3]}`) : null;
}
