/**
 * The schedule of the online source (issue 30, item 3): New York times on NYSE trading days. The instants expected are
 * written out by hand in UTC (EST = UTC−5, EDT = UTC−4), on weeks with a holiday and a change of clocks.
 */
import { describe, expect, it } from 'vitest';
import { nextScheduledRun, nextScheduledRuns, parseScheduleTime, scheduleTimes } from '../../../src-shared/refresh-schedule';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const TIMES = ['15:45', '09:45'];

describe('refreshSchedule', () => {
  it('reads HH:MM, 24 h, and orders the day', () => {
    expect(parseScheduleTime('09:45')).toEqual({ hour: 9, minute: 45 });
    for (const bad of ['9:45', '24:00', '09:60', '09:45:00', ' 09:45', '0945', '']) expect(parseScheduleTime(bad), bad).toBeNull();
    expect(scheduleTimes(['15:45', '09:45', '15:45', 'nope'])).toEqual([
      { hour: 9, minute: 45 },
      { hour: 15, minute: 45 },
    ]);
    expect(nextScheduledRun(at('2024-11-25T12:00:00Z'), [])).toBeNull();
  });

  it('Thanksgiving week 2024: Thursday 28 November is no trading day, the Friday (an early close) is', () => {
    // Wednesday 27 Nov, 16:00 New York (21:00Z): the next is Friday 09:45 EST = 14:45Z.
    expect(iso(nextScheduledRun(at('2024-11-27T21:00:00Z'), TIMES))).toBe('2024-11-29T14:45:00.000Z');
    // Wednesday 09:00 New York: that day's 09:45.
    expect(iso(nextScheduledRun(at('2024-11-27T14:00:00Z'), TIMES))).toBe('2024-11-27T14:45:00.000Z');
    // Exactly at a time: the next one, not the same.
    expect(iso(nextScheduledRun(at('2024-11-27T14:45:00Z'), TIMES))).toBe('2024-11-27T20:45:00.000Z');
    // Friday after 15:45: Monday 2 December 09:45 (the weekend skipped).
    expect(iso(nextScheduledRun(at('2024-11-29T21:00:00Z'), TIMES))).toBe('2024-12-02T14:45:00.000Z');
    expect(nextScheduledRuns(at('2024-11-26T22:00:00Z'), TIMES, 5).map(iso)).toEqual([
      '2024-11-27T14:45:00.000Z',
      '2024-11-27T20:45:00.000Z',
      '2024-11-29T14:45:00.000Z',
      '2024-11-29T20:45:00.000Z',
      '2024-12-02T14:45:00.000Z',
    ]);
  });

  it('Independence Day 2025 on a Friday, and New York time across the change of clocks', () => {
    // Thursday 3 July 2025 after 15:45 EDT (19:45Z): Monday 7 July 09:45 EDT = 13:45Z.
    expect(iso(nextScheduledRun(at('2025-07-03T20:00:00Z'), TIMES))).toBe('2025-07-07T13:45:00.000Z');
    // Friday 1 November 2024 (EDT) after the last time: Monday 4 November, now EST: 09:45 = 14:45Z.
    expect(iso(nextScheduledRun(at('2024-11-01T20:00:00Z'), TIMES))).toBe('2024-11-04T14:45:00.000Z');
  });
});
