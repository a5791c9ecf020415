/**
 * Time zones, on luxon (the IANA database: daylight-saving changes come from it, never from hand-written
 * offsets). Market days are New York days; the journal's zone is a setting (New York by default). Like
 * calendar.ts, nothing here reads the clock: "today" is computed from the `now` a caller passes (the server's
 * Clock). The renderer formats with Intl instead and imports only `NEW_YORK` from here (luxon is tree-shaken
 * out of its bundle). Conventions: docs/conventions.md §Dates.
 */
import { DateTime } from 'luxon';
import { DAY_MS, isoInstant, parseInstantMs, parseIsoDate, utcDateOf } from './calendar';

/** The exchanges' zone: expiries, dte, quote times without an offset, the default journal zone. */
export const NEW_YORK = 'America/New_York';

/**
 * Offsets (minutes) of a zone per UTC day, or null for a day on which the offset changes. Every day but a DST
 * change has one offset, so the local day of an instant follows by arithmetic; bulk work (an import, a
 * re-dating of the journal) then needs a few thousand luxon look-ups instead of one per row.
 */
const offsetsByZone = new Map<string, Map<number, number | null>>();

function dayOffset(zone: string, utcDay: number): number | null {
  let offsets = offsetsByZone.get(zone);
  if (offsets === undefined) {
    if (offsetsByZone.size > 64) offsetsByZone.clear();
    offsets = new Map();
    offsetsByZone.set(zone, offsets);
  }
  let offset = offsets.get(utcDay);
  if (offset === undefined) {
    const start = DateTime.fromMillis(utcDay * DAY_MS, { zone }).offset;
    const end = DateTime.fromMillis(utcDay * DAY_MS + DAY_MS - 1, { zone }).offset;
    offset = start === end && Number.isFinite(start) ? start : null;
    if (offsets.size > 100_000) offsets.clear();
    offsets.set(utcDay, offset);
  }
  return offset;
}

/** The calendar date (YYYY-MM-DD) of an instant in a zone; '' for an invalid instant or zone. */
export function dateInZone(epochMs: number, zone: string = NEW_YORK): string {
  if (!Number.isFinite(epochMs)) return '';
  const offset = dayOffset(zone, Math.floor(epochMs / DAY_MS));
  if (offset !== null) return utcDateOf(epochMs + offset * 60_000);
  return DateTime.fromMillis(epochMs, { zone }).toISODate() ?? '';
}

/** Today's date in the zone at the instant `now` (the caller's clock). */
export function todayIn(zone: string, now: Date | number): string {
  return dateInZone(typeof now === 'number' ? now : now.getTime(), zone);
}

/**
 * The day of ISO instants in a zone, for one bulk job: instants of one UTC hour share their local day when
 * the zone's offset is whole hours, so the canonical `…T15:04:05.000Z` text of most rows is answered from a
 * map of hours. Text that is no instant gives its first ten characters.
 */
export function makeDayOf(zone: string): (isoInstant: string) => string {
  const byHour = new Map<string, string>();
  // The hour answered last: an import's rows come in date order, so most rows share the hour of the row before,
  // which is compared in place (no key cut out of the text and looked up per row).
  let lastHour = '';
  let lastDay = '';
  return (text) => {
    const canonical = text.length === 24 && text.charCodeAt(23) === 90; /* Z */
    if (canonical && lastHour !== '' && text.startsWith(lastHour)) return lastDay;
    const hourKey = canonical ? text.slice(0, 13) : '';
    if (hourKey !== '') {
      const known = byHour.get(hourKey);
      if (known !== undefined) {
        lastHour = hourKey;
        lastDay = known;
        return known;
      }
    }
    const ms = parseInstantMs(text);
    const day = dateInZone(ms, zone);
    if (day === '') return text.slice(0, 10);
    if (hourKey !== '') {
      const offset = dayOffset(zone, Math.floor(ms / DAY_MS));
      if (offset !== null && offset % 60 === 0) {
        if (byHour.size > 200_000) byHour.clear();
        byHour.set(hourKey, day);
        lastHour = hourKey;
        lastDay = day;
      }
    }
    return day;
  };
}

/** The zone's day of an ISO 8601 instant (`2024-01-05T03:00:00Z` → `2024-01-04` in New York); throws for other text. */
export function dayOfInstant(instant: string, zone: string = NEW_YORK): string {
  const day = dateInZone(parseInstantMs(instant), zone);
  if (day === '') throw new RangeError(`not an ISO 8601 instant: ${instant}`);
  return day;
}

/**
 * Epoch milliseconds of a wall-clock time on a date in a zone (`2024-01-05`, 16:00 New York →
 * 2024-01-05T21:00Z). A time inside a spring-forward gap moves forward by the gap, a time repeated by a
 * fall-back is its second (standard-time) occurrence, as luxon resolves them. NaN for a date or time that is
 * not real (hours 0–23, minutes and seconds 0–59).
 */
export function zonedTimeToMs(date: string, time: { hour: number; minute: number; second?: number }, zone: string = NEW_YORK): number {
  const parts = parseIsoDate(date);
  const second = time.second ?? 0;
  if (parts === null || !(time.hour >= 0 && time.hour <= 23 && time.minute >= 0 && time.minute <= 59 && second >= 0 && second <= 59)) return Number.NaN;
  const local = DateTime.fromObject({ ...parts, hour: time.hour, minute: time.minute, second }, { zone });
  return local.isValid ? local.toMillis() : Number.NaN;
}

/**
 * Epoch milliseconds of an ISO 8601 date-time: with an offset or `Z` it is that instant; without one it is
 * wall-clock time in `zone`. NaN when unreadable.
 */
export function parseDateTimeInZone(text: string, zone: string = NEW_YORK): number {
  const parsed = DateTime.fromISO(text, { zone });
  return parsed.isValid ? parsed.toMillis() : Number.NaN;
}

/**
 * A query's date: a plain `YYYY-MM-DD` is taken as it is; a date-time is read as `parseDateTimeInZone` does and
 * its day in `zone` returned. Throws a RangeError for text that is neither.
 */
export function dateOfQuery(text: string, zone: string = NEW_YORK): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    if (parseIsoDate(text) === null) throw new RangeError(`not a calendar date: ${text}`);
    return text;
  }
  const day = dateInZone(parseDateTimeInZone(text, zone), zone);
  if (day === '') throw new RangeError(`not an ISO 8601 date: ${text}`);
  return day;
}

/** The wall-clock time of an instant in a zone, `YYYY-MM-DD HH:mm`, for messages. */
export function dateTimeInZone(epochMs: number, zone: string = NEW_YORK): string {
  return DateTime.fromMillis(epochMs, { zone }).toFormat('yyyy-MM-dd HH:mm');
}

/** A wall-clock time in a zone as the UTC instant text `…T21:00:00.000Z`; null for a date or time that is not real. */
export function zonedTimeToIso(date: string, time: { hour: number; minute: number; second?: number }, zone: string = NEW_YORK): string | null {
  const ms = zonedTimeToMs(date, time, zone);
  return Number.isNaN(ms) ? null : isoInstant(ms);
}
