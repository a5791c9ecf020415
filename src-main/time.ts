import { DateTime } from 'luxon';

/**
 * Calendar day of a UTC instant in a time zone. The zone's offset is looked up once per UTC day: when it is
 * the same at both ends of the day (every day but a DST change), the local day follows by arithmetic;
 * otherwise luxon answers for the instant itself. Imports of 100k rows need a few thousand look-ups.
 */
export function makeDayOf(timeZone: string): (isoInstant: string) => string {
  const DAY_MS = 86_400_000;
  const offsets = new Map<number, number | null>();
  const offsetAt = (ms: number) => DateTime.fromMillis(ms, { zone: timeZone }).offset;
  // Canonical instants of one UTC hour share their local day whenever the offset is whole hours.
  const byHour = new Map<string, string>();
  return (isoInstant) => {
    const hourKey = isoInstant.length === 24 && isoInstant.charCodeAt(23) === 90 /* Z */ ? isoInstant.slice(0, 13) : '';
    if (hourKey !== '') {
      const known = byHour.get(hourKey);
      if (known !== undefined) return known;
    }
    const ms = Date.parse(isoInstant);
    if (Number.isNaN(ms)) return isoInstant.slice(0, 10);
    const day = Math.floor(ms / DAY_MS);
    let offset = offsets.get(day);
    if (offset === undefined) {
      const start = offsetAt(day * DAY_MS);
      offset = start === offsetAt(day * DAY_MS + DAY_MS - 1) ? start : null;
      if (offsets.size > 100_000) offsets.clear();
      offsets.set(day, offset);
    }
    if (offset === null) return DateTime.fromMillis(ms, { zone: timeZone }).toISODate() ?? isoInstant.slice(0, 10);
    const localDay = new Date(ms + offset * 60_000).toISOString().slice(0, 10);
    if (hourKey !== '' && offset % 60 === 0) {
      if (byHour.size > 200_000) byHour.clear();
      byHour.set(hourKey, localDay);
    }
    return localDay;
  };
}

/** Today's date in the zone, YYYY-MM-DD. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return DateTime.fromJSDate(now).setZone(timeZone).toISODate() ?? now.toISOString().slice(0, 10);
}

/** A real calendar date (rejects 2024-02-30). */
export function isValidDate(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && DateTime.fromISO(text).isValid;
}

/** Whole days from `from` to `to` (both YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
