import { describe, expect, it } from 'vitest';
import { getOrInsertComputed, innerMap } from '../../../src-shared/maps';
import { markAgeDays } from '../../../src-shared/journal/book';

describe('getOrInsertComputed', () => {
  it('computes a key once, then answers from the map; a falsy value (0) is a value, not a miss', () => {
    const map = new Map<string, number>();
    const asked: string[] = [];
    const length = (key: string) => {
      asked.push(key);
      return key.length;
    };
    expect(getOrInsertComputed(map, '', length)).toBe(0);
    expect(getOrInsertComputed(map, '', length)).toBe(0);
    expect(getOrInsertComputed(map, 'abc', length)).toBe(3);
    expect(getOrInsertComputed(map, 'abc', length)).toBe(3);
    expect(asked).toEqual(['', 'abc']);
    expect([...map]).toEqual([
      ['', 0],
      ['abc', 3],
    ]);
  });

  it('inserts after computing: a compute that clears the map (a bounded memo) still leaves its own value', () => {
    const map = new Map([['old', 1]]);
    expect(
      getOrInsertComputed(map, 'new', () => {
        map.clear();
        return 2;
      }),
    ).toBe(2);
    expect([...map]).toEqual([['new', 2]]);
  });
});

describe('innerMap', () => {
  it('creates the inner map on first use and hands back the same one after', () => {
    const outer = new Map<string, Map<string, number>>();
    const first = innerMap(outer, 'acct');
    first.set('SPY', 1);
    expect(innerMap(outer, 'acct')).toBe(first);
    expect(outer.size).toBe(1);
    expect(innerMap(outer, 'other')).not.toBe(first);
    expect(outer.size).toBe(2);
  });
});

describe('markAgeDays through the memo', () => {
  it('counts New York trading days, the same on a second ask and after the memo filled and cleared itself', () => {
    // Friday 2024-01-05 16:00 ET → Tuesday 2024-01-09 10:00 ET: Monday and Tuesday are the trading days after it.
    const asOfMs = Date.parse('2024-01-09T15:00:00Z');
    expect(markAgeDays('2024-01-05T21:00:00Z', asOfMs)).toBe(2);
    expect(markAgeDays('2024-01-05T21:00:00Z', asOfMs)).toBe(2);
    for (let i = 0; i < 300; i += 1) markAgeDays('2024-01-09T14:00:00Z', asOfMs + i);
    expect(markAgeDays('2024-01-05T21:00:00Z', asOfMs)).toBe(2);
    expect(markAgeDays('not a time', asOfMs), 'an unreadable quote time is as old as can be').toBe(Number.MAX_SAFE_INTEGER);
  });
});
