/**
 * The one reading of a date-or-instant parameter (src-shared/date-or-instant.ts; docs/conventions.md §Date grammar):
 * a date `asOf` is the END of that day in the reader's zone (docs/journal.md §Positions: 23:59:59.999), a range's
 * `from` its start; an instant without an offset is wall-clock time in the zone. The instants are written out by hand
 * from the zones' offsets on those days.
 */
import { describe, expect, it } from 'vitest';
import { asOfMs, dateOrInstantMs, instantMsOf, readDateOrInstant } from '../../../src-shared/date-or-instant';

const iso = (ms: number) => new Date(ms).toISOString();

describe('a date-or-instant parameter', () => {
  it('a date asOf is the last millisecond of that day in the zone, not its start', () => {
    // 2025-07-15 in New York is EDT (UTC−4): the day ends at 2025-07-16 00:00 EDT = 04:00Z, less 1 ms.
    expect(iso(asOfMs('2025-07-15', 'America/New_York'))).toBe('2025-07-16T03:59:59.999Z');
    // 2025-01-15 is EST (UTC−5): 2025-01-16 05:00Z less 1 ms.
    expect(iso(asOfMs('2025-01-15', 'America/New_York'))).toBe('2025-01-16T04:59:59.999Z');
    // The journal's zone, not New York's: Tokyo (UTC+9, no DST) ends 2025-07-15 at 15:00Z.
    expect(iso(asOfMs('2025-07-15', 'Asia/Tokyo'))).toBe('2025-07-15T14:59:59.999Z');
    // The day before a DST change is 23 hours long in New York (2025-03-09): its end is 04:00Z of the 10th (EDT), less 1 ms.
    expect(iso(asOfMs('2025-03-09', 'America/New_York'))).toBe('2025-03-10T03:59:59.999Z');
  });

  it('a range reads a date as its start for from and its end for to', () => {
    expect(iso(dateOrInstantMs('2025-07-15', 'America/New_York', 'start'))).toBe('2025-07-15T04:00:00.000Z');
    expect(iso(dateOrInstantMs('2025-07-15', 'America/New_York', 'end'))).toBe('2025-07-16T03:59:59.999Z');
  });

  it('an instant is that instant whichever end: with an offset as written, without one in the zone', () => {
    for (const end of ['start', 'end'] as const) {
      expect(iso(dateOrInstantMs('2025-07-15T10:00:00Z', 'America/New_York', end))).toBe('2025-07-15T10:00:00.000Z');
      expect(iso(dateOrInstantMs('2025-07-15T10:00', 'America/New_York', end))).toBe('2025-07-15T14:00:00.000Z');
      expect(iso(dateOrInstantMs('2025-07-15T10:00', 'Asia/Tokyo', end))).toBe('2025-07-15T01:00:00.000Z');
    }
  });

  it('reads a real day as a date, a readable date-time as an instant, and nothing else', () => {
    expect(readDateOrInstant('2024-02-29')).toEqual({ kind: 'date', date: '2024-02-29' });
    expect(readDateOrInstant('2024-01-05T16:00')).toEqual({ kind: 'instant', text: '2024-01-05T16:00' });
    for (const text of ['2023-02-29', '2024-13-01', 'yesterday', '', '2024-01-05T25:00']) expect(readDateOrInstant(text), text).toBeNull();
    expect(asOfMs('2023-02-29', 'America/New_York')).toBeNaN();
  });

  it('a day read once gives the same instant as the value carried (instantMsOf)', () => {
    const value = readDateOrInstant('2025-07-15');
    if (value === null) throw new Error('2025-07-15 is a day');
    expect(instantMsOf(value, 'America/New_York', 'end')).toBe(asOfMs('2025-07-15', 'America/New_York'));
  });
});
