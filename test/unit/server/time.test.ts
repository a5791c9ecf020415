import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { makeDayOf } from '../../../src-main/time';

describe('makeDayOf', () => {
  it('gives the New York calendar day of instants around midnight and both DST changes', () => {
    const dayOf = makeDayOf('America/New_York');
    expect(dayOf('2024-01-05T04:59:59.000Z'), '23:59:59 EST on Jan 4').toBe('2024-01-04');
    expect(dayOf('2024-01-05T05:00:00.000Z'), '00:00 EST on Jan 5').toBe('2024-01-05');
    expect(dayOf('2024-07-05T03:59:59.000Z'), '23:59:59 EDT on Jul 4').toBe('2024-07-04');
    expect(dayOf('2024-07-05T04:00:00.000Z')).toBe('2024-07-05');
    expect(dayOf('2024-03-10T06:59:00.000Z'), 'before the spring-forward at 07:00Z').toBe('2024-03-10');
    expect(dayOf('2024-11-03T04:30:00.000Z'), 'fall-back day, still EDT: 00:30').toBe('2024-11-03');
    expect(dayOf('2024-11-04T04:30:00.000Z'), 'after fall-back, EST: Nov 3 23:30').toBe('2024-11-03');
  });

  it('agrees with luxon on 5,000 instants spread over ten years, in three zones', () => {
    for (const zone of ['America/New_York', 'Europe/London', 'Asia/Kolkata']) {
      const dayOf = makeDayOf(zone);
      let ms = Date.parse('2018-01-01T00:00:00Z');
      for (let i = 0; i < 5_000; i += 1) {
        ms += 63_113_903 + (i % 7) * 3_600_000;
        const iso = new Date(ms).toISOString();
        expect(dayOf(iso), `${zone} ${iso}`).toBe(DateTime.fromMillis(ms, { zone }).toISODate());
      }
    }
  });
});
