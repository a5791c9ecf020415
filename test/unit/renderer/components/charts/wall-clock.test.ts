import { describe, expect, it } from 'vitest';
import { newYorkWallSeconds, wallText, wallTickLabel } from '../../../../../src-renderer/components/charts/wall-clock';

describe('time axes in New York time', () => {
  it('shifts an instant by New York’s offset of that day: EST in January (−5 h), EDT in September (−4 h)', () => {
    // The SPX snapshots' quote times (docs/exposure.md): 2024-01-07 15:52Z is 10:52 EST; 2023-09-14 20:31Z is 16:31 EDT.
    expect(wallText(newYorkWallSeconds(Date.parse('2024-01-07T15:52:00Z')))).toBe('2024-01-07 10:52');
    expect(wallText(newYorkWallSeconds(Date.parse('2023-09-14T20:31:00Z')))).toBe('2023-09-14 16:31');
    // 2022-02-06 01:09Z is still the 5th in New York (20:09 EST): the day tick falls on New York's midnight.
    expect(wallText(newYorkWallSeconds(Date.parse('2022-02-06T01:09:00Z')))).toBe('2022-02-05 20:09');
    expect(newYorkWallSeconds(Date.parse('2024-01-07T15:52:00Z'))).toBe(Date.parse('2024-01-07T10:52:00Z') / 1000);
  });

  it('labels: the whole date at a new year, MM-DD at a month or day, HH:mm at a time', () => {
    const s = Date.parse('2024-01-07T10:52:00Z') / 1000;
    expect(wallTickLabel(s, 0)).toBe('2024-01-07');
    expect(wallTickLabel(s, 1)).toBe('01-07');
    expect(wallTickLabel(s, 2)).toBe('01-07');
    expect(wallTickLabel(s, 3)).toBe('10:52');
    expect(wallTickLabel(s, 4)).toBe('10:52');
  });
});
