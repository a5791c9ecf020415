/**
 * Time axes in New York time. lightweight-charts lays out and labels a time axis in UTC, so a chart of instants
 * gets them shifted by New York's offset at each instant: its day, month and year ticks then fall on New York
 * midnights and its labels, read back in UTC, are New York wall-clock times (daylight saving included). Pure.
 */
import { NEW_YORK } from '../../../src-shared/zone';

const partsFormat = new Intl.DateTimeFormat('en-US', { timeZone: NEW_YORK, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });

/** The New York wall-clock time of an instant, as seconds of a UTC clock showing it. */
export function newYorkWallSeconds(epochMs: number): number {
  const get = (parts: Intl.DateTimeFormatPart[], type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const parts = partsFormat.formatToParts(new Date(epochMs));
  return Date.UTC(get(parts, 'year'), get(parts, 'month') - 1, get(parts, 'day'), get(parts, 'hour') % 24, get(parts, 'minute'), get(parts, 'second')) / 1000;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `2024-01-07 10:52` of a wall-clock second. */
export function wallText(seconds: number): string {
  const d = new Date(seconds * 1000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/**
 * An axis label by what the tick starts (lightweight-charts' TickMarkType: 0 year, 1 month, 2 day, 3–4 time): a new
 * year shows the whole date, so snapshots years apart are never read as one year's; a month or day `MM-DD`; a time
 * `HH:mm`. Every label is one of these three shapes: nothing else can appear among the ticks.
 */
export function wallTickLabel(seconds: number, tickMarkType: number): string {
  const text = wallText(seconds);
  if (tickMarkType === 0) return text.slice(0, 10);
  if (tickMarkType <= 2) return text.slice(5, 10);
  return text.slice(11, 16);
}
