import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { dateInZone, dateOfQuery, dateTimeInZone, dayOfInstant, makeDayOf, NEW_YORK, parseDateTimeInZone, todayIn, zonedTimeToMs } from '../../../src-shared/zone';

/**
 * New York's 2024 changes: clocks jump 02:00 EST → 03:00 EDT on 2024-03-10 (07:00Z) and fall back 02:00 EDT →
 * 01:00 EST on 2024-11-03 (06:00Z). The references are written out by hand, and luxon (read directly) checks the rest.
 */
describe('the day of an instant in a zone', () => {
  it('gives the New York day around midnight and on both DST days', () => {
    const cases: Array<[string, string, string]> = [
      ['2024-01-05T04:59:59.000Z', '2024-01-04', '23:59:59 EST on Jan 4'],
      ['2024-01-05T05:00:00.000Z', '2024-01-05', '00:00 EST on Jan 5'],
      ['2024-07-05T03:59:59.000Z', '2024-07-04', '23:59:59 EDT on Jul 4'],
      ['2024-07-05T04:00:00.000Z', '2024-07-05', '00:00 EDT'],
      ['2024-03-10T06:59:00.000Z', '2024-03-10', '01:59 EST, just before the spring-forward'],
      ['2024-03-11T03:59:00.000Z', '2024-03-10', '23:59 EDT, the evening of the short day'],
      ['2024-03-11T04:00:00.000Z', '2024-03-11', 'midnight EDT after the short day'],
      ['2024-11-03T04:30:00.000Z', '2024-11-03', 'fall-back day, still EDT: 00:30'],
      ['2024-11-04T04:30:00.000Z', '2024-11-03', 'after fall-back, EST: Nov 3 23:30'],
      ['2024-11-04T05:00:00.000Z', '2024-11-04', 'midnight EST after the long day'],
      ['2025-01-01T04:59:59.999Z', '2024-12-31', 'the year ends at 05:00Z in New York'],
      ['2024-03-01T04:59:59.000Z', '2024-02-29', 'a leap day evening'],
    ];
    const dayOf = makeDayOf(NEW_YORK);
    for (const [instant, day, what] of cases) {
      expect(dateInZone(Date.parse(instant), NEW_YORK), what).toBe(day);
      expect(dayOfInstant(instant), what).toBe(day);
      expect(dayOf(instant), what).toBe(day);
    }
  });

  it('agrees with luxon on 5,000 instants spread over ten years, in three zones (whole and half-hour offsets)', () => {
    for (const zone of [NEW_YORK, 'Europe/London', 'Asia/Kolkata']) {
      const dayOf = makeDayOf(zone);
      let ms = Date.parse('2018-01-01T00:00:00Z');
      for (let i = 0; i < 5_000; i += 1) {
        ms += 63_113_903 + (i % 7) * 3_600_000;
        const iso = new Date(ms).toISOString();
        const reference = DateTime.fromMillis(ms, { zone }).toISODate();
        expect(dayOf(iso), `${zone} ${iso}`).toBe(reference);
        expect(dateInZone(ms, zone), `${zone} ${iso}`).toBe(reference);
      }
    }
  });

  it('agrees with luxon on instants minutes apart, in date order as an import reads them, across both DST changes', () => {
    // Consecutive rows of one hour are answered from the hour before (makeDayOf's last hour): every 7 minutes over
    // the days around New York's and London's 2024 changes, and a half-hour zone, against luxon read directly.
    for (const zone of [NEW_YORK, 'Europe/London', 'Asia/Kolkata']) {
      const dayOf = makeDayOf(zone);
      for (const start of ['2024-03-09T00:00:00Z', '2024-03-30T00:00:00Z', '2024-10-26T00:00:00Z', '2024-11-02T00:00:00Z']) {
        for (let ms = Date.parse(start); ms < Date.parse(start) + 3 * 86_400_000; ms += 7 * 60_000) {
          const iso = new Date(ms).toISOString();
          expect(dayOf(iso), `${zone} ${iso}`).toBe(DateTime.fromMillis(ms, { zone }).toISODate());
        }
      }
    }
  });

  it('answers a repeated hour from its map and still gives each instant of a DST day its own day', () => {
    const dayOf = makeDayOf(NEW_YORK);
    // 2024-11-03T04:xxZ is 00:xx EDT (Nov 3); 2024-11-04T04:xxZ is 23:xx EST (Nov 3); the hour keys differ.
    expect(dayOf('2024-11-03T03:10:00.000Z')).toBe('2024-11-02');
    expect(dayOf('2024-11-03T03:50:00.000Z')).toBe('2024-11-02');
    expect(dayOf('2024-11-03T04:10:00.000Z')).toBe('2024-11-03');
    expect(dayOf('not a date, long text.')).toBe('not a date');
    expect(() => dayOfInstant('2024-01-05T10:00:00')).toThrow(RangeError);
    expect(dateInZone(Number.NaN)).toBe('');
  });

  it('takes "today" from the given now, never from the clock', () => {
    const now = Date.parse('2025-01-01T03:00:00Z');
    expect(todayIn(NEW_YORK, now)).toBe('2024-12-31');
    expect(todayIn('UTC', new Date(now))).toBe('2025-01-01');
    expect(todayIn('Asia/Tokyo', now)).toBe('2025-01-01');
  });
});

describe('wall-clock times in a zone', () => {
  it('turns New York wall-clock times into instants in winter and summer', () => {
    expect(new Date(zonedTimeToMs('2024-01-05', { hour: 16, minute: 0 })).toISOString()).toBe('2024-01-05T21:00:00.000Z');
    expect(new Date(zonedTimeToMs('2024-07-05', { hour: 9, minute: 30 })).toISOString()).toBe('2024-07-05T13:30:00.000Z');
    expect(new Date(zonedTimeToMs('2024-02-29', { hour: 23, minute: 59, second: 59 })).toISOString()).toBe('2024-03-01T04:59:59.000Z');
  });

  it('resolves the spring-forward gap and the fall-back overlap as luxon does', () => {
    // 02:30 does not exist on 2024-03-10: luxon moves it forward by the gap (03:30 EDT = 07:30Z).
    const gap = zonedTimeToMs('2024-03-10', { hour: 2, minute: 30 });
    expect(gap).toBe(DateTime.fromObject({ year: 2024, month: 3, day: 10, hour: 2, minute: 30 }, { zone: NEW_YORK }).toMillis());
    expect(new Date(gap).toISOString()).toBe('2024-03-10T07:30:00.000Z');
    // 01:30 happens twice on 2024-11-03 (05:30Z in EDT, 06:30Z in EST): luxon takes the standard-time one.
    const overlap = zonedTimeToMs('2024-11-03', { hour: 1, minute: 30 });
    expect(overlap).toBe(DateTime.fromObject({ year: 2024, month: 11, day: 3, hour: 1, minute: 30 }, { zone: NEW_YORK }).toMillis());
    expect(new Date(overlap).toISOString()).toBe('2024-11-03T06:30:00.000Z');
    // The close of the session after the change is in EST.
    expect(new Date(zonedTimeToMs('2024-11-04', { hour: 16, minute: 0 })).toISOString()).toBe('2024-11-04T21:00:00.000Z');
  });

  it('gives NaN for a date or time that is not real', () => {
    expect(zonedTimeToMs('2023-02-29', { hour: 16, minute: 0 })).toBeNaN();
    expect(zonedTimeToMs('2024-01-05', { hour: 24, minute: 0 })).toBeNaN();
    expect(zonedTimeToMs('2024-01-05', { hour: 9, minute: 60 })).toBeNaN();
  });

  it('reads ISO date-times with an offset as instants and without one as wall-clock time in the zone', () => {
    expect(parseDateTimeInZone('2024-01-05T16:00', NEW_YORK)).toBe(Date.parse('2024-01-05T21:00:00Z'));
    expect(parseDateTimeInZone('2024-07-05T16:00:00', NEW_YORK)).toBe(Date.parse('2024-07-05T20:00:00Z'));
    expect(parseDateTimeInZone('2024-01-05T16:00:00Z', NEW_YORK)).toBe(Date.parse('2024-01-05T16:00:00Z'));
    expect(parseDateTimeInZone('2024-01-05T16:00:00+01:00', 'utc')).toBe(Date.parse('2024-01-05T15:00:00Z'));
    expect(parseDateTimeInZone('yesterday', NEW_YORK)).toBeNaN();
    expect(dateTimeInZone(Date.parse('2024-03-10T07:30:00Z'))).toBe('2024-03-10 03:30');
  });

  it('gives a query its date in the zone: dates as they are, date-times converted', () => {
    expect(dateOfQuery('2024-02-29')).toBe('2024-02-29');
    expect(dateOfQuery('2024-03-01T02:00:00Z'), 'an instant is 21:00 on Feb 29 in New York').toBe('2024-02-29');
    expect(dateOfQuery('2024-03-01T02:00:00'), 'without offset it is New York time already').toBe('2024-03-01');
    expect(dateOfQuery('2024-03-01T02:00:00Z', 'Asia/Tokyo')).toBe('2024-03-01');
    expect(() => dateOfQuery('2023-02-29')).toThrow(RangeError);
    expect(() => dateOfQuery('soon')).toThrow(RangeError);
  });
});
