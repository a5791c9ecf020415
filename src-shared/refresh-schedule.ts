/**
 * When the online source is fetched by itself (the `refreshSchedule` setting; docs/exposure.md §Chains that arrive by
 * themselves): at New York times of day, on NYSE trading days only (trading-days.ts: no weekend, no exchange holiday;
 * an early close is a trading day). Pure: instants in epoch ms, the zone's rules from luxon.
 */
import { addDays } from './calendar';
import { isTradingDay } from './trading-days';
import { dateInZone, NEW_YORK, zonedTimeToMs } from './zone';

/** `HH:MM` (24 h) as hour and minute, or null. */
export function parseScheduleTime(text: string): { hour: number; minute: number } | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  return match === null ? null : { hour: Number(match[1]), minute: Number(match[2]) };
}

/** The times of a schedule, read, deduplicated and in the order of the day (unreadable ones left out). */
export function scheduleTimes(times: readonly string[]): Array<{ hour: number; minute: number }> {
  const minutes = new Set<number>();
  for (const text of times) {
    const time = parseScheduleTime(text.trim());
    if (time !== null) minutes.add(time.hour * 60 + time.minute);
  }
  return [...minutes].sort((a, b) => a - b).map((m) => ({ hour: Math.floor(m / 60), minute: m % 60 }));
}

/** The longest run of days without a trading day (a long weekend with a holiday, a closing) is far below this. */
const LOOKAHEAD_DAYS = 21;

/**
 * The first scheduled instant strictly after `afterMs`: the earliest of `times` on the first New York trading day that
 * still has one ahead; null when the schedule names no time.
 */
export function nextScheduledRun(afterMs: number, times: readonly string[]): number | null {
  const daily = scheduleTimes(times);
  if (daily.length === 0) return null;
  const today = dateInZone(afterMs, NEW_YORK);
  for (let offset = 0; offset <= LOOKAHEAD_DAYS; offset += 1) {
    const day = addDays(today, offset);
    if (!isTradingDay(day)) continue;
    for (const time of daily) {
      const atMs = zonedTimeToMs(day, time, NEW_YORK);
      if (atMs > afterMs) return atMs;
    }
  }
  return null;
}

/** The next `count` scheduled instants after `afterMs` (the Settings page shows them). */
export function nextScheduledRuns(afterMs: number, times: readonly string[], count: number): number[] {
  const runs: number[] = [];
  let from = afterMs;
  while (runs.length < count) {
    const next = nextScheduledRun(from, times);
    if (next === null) break;
    runs.push(next);
    from = next;
  }
  return runs;
}
