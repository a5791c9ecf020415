import { describe, expect, it } from 'vitest';
import { bucketFor, flipCrossings, levelsToDraw, m4, type LevelsPoint } from '../../../../../src-renderer/components/charts/downsample';

/** A seeded walk (mulberry32): the same series on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 6,500 snapshots: spot wandering around a flip that moves more slowly, walls as steps, the flip missing now and then. */
function series(n: number, seed = 7): LevelsPoint[] {
  const next = random(seed);
  const points: LevelsPoint[] = [];
  let spot = 4700;
  let flip = 4690;
  let callWall = 4800;
  let putWall = 4600;
  for (let i = 0; i < n; i += 1) {
    spot += (next() - 0.5) * 12;
    flip += (next() - 0.5) * 4;
    if (next() < 0.02) callWall = Math.round((spot + 50 + next() * 100) / 25) * 25;
    if (next() < 0.02) putWall = Math.round((spot - 50 - next() * 100) / 25) * 25;
    points.push({ spot, flip: next() < 0.01 ? null : flip, callWall, putWall: next() < 0.005 ? null : putWall });
  }
  return points;
}

describe('levels over time: the points drawn', () => {
  const points = series(6500);
  const names = ['spot', 'flip', 'callWall', 'putWall'] as const;

  it('bucket widths are powers of two, one snapshot once a pixel holds at most one', () => {
    expect([0.2, 1, 1.01, 2, 3.99, 4, 8.1, 6500 / 800].map(bucketFor)).toEqual([1, 1, 2, 2, 4, 4, 16, 16]);
  });

  it('a bucket of one draws every point, exactly (zoomed in)', () => {
    const drawn = levelsToDraw(points, 1);
    for (const name of names) {
      const present = points.flatMap((p, i) => (p[name] === null ? [] : [i]));
      expect(drawn[name], name).toEqual(present);
    }
  });

  it('6,500 points on 800 px: at most four a bucket and the crossings; each bucket keeps its first, last, lowest and highest value', () => {
    const bucket = bucketFor(6500 / 800);
    const drawn = levelsToDraw(points, bucket);
    const crossings = flipCrossings(points);
    expect(crossings.length, 'the walk crosses the flip').toBeGreaterThan(10);
    for (const name of names) {
      const kept = new Set(drawn[name]);
      const values = points.map((p) => p[name]);
      expect(drawn[name].length, name).toBeLessThan(6500 / 3);
      for (let start = 0; start < values.length; start += bucket) {
        const inBucket = values.slice(start, start + bucket).map((value, k) => ({ value, index: start + k })).filter((v): v is { value: number; index: number } => v.value !== null);
        if (inBucket.length === 0) continue;
        const shown = inBucket.filter((v) => kept.has(v.index)).map((v) => v.value);
        const all = inBucket.map((v) => v.value);
        // The line through the kept points spans the bucket's whole range, from its first value to its last.
        expect(Math.min(...shown), `${name} @${start}`).toBe(Math.min(...all));
        expect(Math.max(...shown), `${name} @${start}`).toBe(Math.max(...all));
        expect(kept.has(inBucket[0]?.index ?? -1)).toBe(true);
        expect(kept.has(inBucket.at(-1)?.index ?? -1)).toBe(true);
      }
    }
    for (const i of crossings) {
      for (const index of [i - 1, i]) {
        expect(drawn.spot.includes(index) && drawn.flip.includes(index), `crossing at ${i}`).toBe(true);
      }
    }
  });

  it('a crossing inside a bucket whose extremes are elsewhere is still drawn on both sides', () => {
    // The bucket's extremes at its end; spot dips under the flip and back in the middle of a quiet stretch.
    const spots = [104, 103, 99.9, 100.1, 102, 101, 80, 106];
    const quiet: LevelsPoint[] = spots.map((spot) => ({ spot, flip: 100, callWall: 110, putWall: 90 }));
    expect(flipCrossings(quiet)).toEqual([2, 3, 6, 7]);
    const drawn = levelsToDraw(quiet, 8);
    expect(drawn.spot).toEqual([0, 1, 2, 3, 5, 6, 7]);
    expect(drawn.flip).toEqual([0, 1, 2, 3, 5, 6, 7]);
    // Without the crossing rule M4 alone would keep 0, 6 and 7: the dip under the flip would not be drawn.
    expect([...m4(spots, 8)].sort((a, b) => a - b)).toEqual([0, 6, 7]);
  });

  it('the points beside a gap are drawn, so a missing flip stays a gap of the same width', () => {
    const values = [1, 2, 3, null, 5, 6, 7, 8];
    expect([...m4(values, 8)].sort((a, b) => a - b)).toEqual([0, 2, 4, 7]);
  });
});
