/**
 * Date helpers shared by the importers. Every transaction's tradeDate is an ISO 8601 UTC instant
 * (`2025-10-03T19:55:09.000Z`); broker files give local times, offsets or bare dates.
 */
import { DateTime } from 'luxon';

export const NEW_YORK = 'America/New_York';

/**
 * Bare dates (Schwab, generic `YYYY-MM-DD`) become 16:00 New York time: the close of the session, so the
 * New York trade day is the printed date whatever the UTC offset.
 */
export const DATE_ONLY_LOCAL_TIME = '16:00:00';

function toIso(dt: DateTime): string | null {
  if (!dt.isValid) return null;
  return new Date(dt.toMillis()).toISOString();
}

/** `2025-10-03T20:55:09+0100`, `...+01:00`, `...Z` to a UTC ISO instant; null when the text has no offset. */
const CANONICAL_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function daysInMonth(year: number, month: number): number {
  return month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

export function offsetIsoToUtc(text: string): string | null {
  // Already canonical UTC (what our own exports and many APIs write): check the fields, keep the text.
  if (text.length === 24 && CANONICAL_UTC.test(text)) {
    const month = Number(text.slice(5, 7));
    const day = Number(text.slice(8, 10));
    if (month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(Number(text.slice(0, 4)), month) && Number(text.slice(11, 13)) <= 23 && Number(text.slice(14, 16)) <= 59 && Number(text.slice(17, 19)) <= 59) {
      return text;
    }
    return null;
  }
  // Otherwise plain arithmetic on the fields instead of luxon (10× faster), with the same strictness
  // (no 2024-02-30, no 24:00).
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|([+-])(\d{2}):?(\d{2}))$/.exec(text.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, sec, frac, zone, sign, oh, om] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(sec ?? '0');
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const offsetMinutes = zone === 'Z' ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  if (Math.abs(offsetMinutes) > 18 * 60) return null;
  const millis = frac === undefined ? 0 : Math.round(Number(`0${frac}`) * 1000);
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, millis) - offsetMinutes * 60_000).toISOString();
}

/** A calendar date plus a wall-clock time in a time zone to a UTC ISO instant. */
export function localToUtc(ymd: string, time: string, zone: string): string | null {
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(time.trim());
  const dateMatch = /^(\d{4})-(\d{2})-(\d{2})$/.exec(ymd);
  if (!match || !dateMatch) return null;
  const dt = DateTime.fromObject(
    {
      year: Number(dateMatch[1]),
      month: Number(dateMatch[2]),
      day: Number(dateMatch[3]),
      hour: Number(match[1]),
      minute: Number(match[2]),
      second: Number(match[3] ?? '0'),
    },
    { zone },
  );
  return toIso(dt);
}

/** A bare calendar date to the UTC instant of 16:00 in `zone` (see DATE_ONLY_LOCAL_TIME). */
export function dayToUtc(ymd: string, zone: string = NEW_YORK): string | null {
  return localToUtc(ymd, DATE_ONLY_LOCAL_TIME, zone);
}

/** `YYYY-MM-DD` when it is a real calendar date, else null. */
export function checkYmd(text: string): string | null {
  const trimmed = text.trim();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(trimmed)) return null;
  return DateTime.fromISO(trimmed).isValid ? trimmed : null;
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
  const match = /^(\d{1,2})\s+([A-Za-z]{3})\s+(\d{2}|\d{4})$/.exec(text.trim());
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
  const match = /^(\d{1,2}):?(\d{2})(?::?(\d{2}))?\s*([AaPp]\.?[Mm]\.?)?$/.exec(text.trim());
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

/** The calendar day `days` after `ymd`. */
export function addDaysYmd(ymd: string, days: number): string {
  return DateTime.fromISO(ymd, { zone: 'UTC' }).plus({ days }).toISODate() ?? ymd;
}

/** The New York calendar day of a UTC instant. */
export function newYorkDay(instant: string): string {
  return DateTime.fromISO(instant, { zone: NEW_YORK }).toISODate() ?? instant.slice(0, 10);
}
