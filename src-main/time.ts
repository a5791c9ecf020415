import { DateTime } from 'luxon';

/**
 * Calendar day of a UTC instant in a time zone, memoised per minute of the instant: offsets are whole
 * minutes, so every instant of one UTC minute falls on the same local day. Imports of 100k rows hit this
 * once per distinct minute instead of once per row.
 */
export function makeDayOf(timeZone: string): (isoInstant: string) => string {
  const memo = new Map<string, string>();
  return (isoInstant) => {
    const key = isoInstant.slice(0, 16);
    const cached = memo.get(key);
    if (cached !== undefined) return cached;
    const day = DateTime.fromISO(isoInstant, { zone: 'utc' }).setZone(timeZone).toISODate() ?? isoInstant.slice(0, 10);
    if (memo.size > 100_000) memo.clear();
    memo.set(key, day);
    return day;
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
