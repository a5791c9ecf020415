/**
 * Which points of the levels-over-time chart to draw (docs/ui.md, "Levels over time at scale"). Thousands of
 * snapshots fall on a few hundred pixels: per bucket of consecutive snapshots about a pixel wide, a series keeps its
 * first, lowest, highest and last point (M4: the line drawn through them covers the same pixels as through every
 * point), the points on both sides of a null, and, for spot and the flip, both points of every crossing of spot
 * over the flip (a change of gamma zone is never smoothed away). Every snapshot stays on the time axis (the others are
 * drawn as whitespace), so zooming does not move the axis; once a bucket is one snapshot wide, every point is drawn.
 */

/** One snapshot's levels, in the chart's order (oldest first). */
export interface LevelsPoint {
  spot: number;
  flip: number | null;
  callWall: number | null;
  putWall: number | null;
}

export type LevelsSeries = keyof LevelsPoint;

/**
 * The bucket width, in snapshots, for `barsPerPixel` snapshots on a pixel: the power of two at or above it (a bucket
 * spans one to two pixels; 1 = every point, once a pixel holds at most one snapshot), so that scrolling or a small
 * zoom keeps the same buckets and the chart is not redrawn for them.
 */
export function bucketFor(barsPerPixel: number): number {
  if (!(barsPerPixel > 1)) return 1;
  return 2 ** Math.ceil(Math.log2(barsPerPixel));
}

/** Indices of one series' points to draw, ascending: M4 per bucket of `bucket` points (aligned on multiples of it). */
export function m4(values: ReadonlyArray<number | null>, bucket: number): Set<number> {
  const kept = new Set<number>();
  if (bucket <= 1) {
    values.forEach((value, index) => {
      if (value !== null) kept.add(index);
    });
    return kept;
  }
  for (let start = 0; start < values.length; start += bucket) {
    const end = Math.min(values.length, start + bucket);
    let first = -1;
    let last = -1;
    let low = -1;
    let high = -1;
    for (let i = start; i < end; i += 1) {
      const value = values[i] ?? null;
      if (value === null) {
        // A gap: the points beside it are drawn, so the line ends and starts where it does.
        if (i > 0 && values[i - 1] !== null && values[i - 1] !== undefined) kept.add(i - 1);
        if (i + 1 < values.length && values[i + 1] !== null && values[i + 1] !== undefined) kept.add(i + 1);
        continue;
      }
      if (first < 0) first = i;
      last = i;
      if (low < 0 || value < (values[low] ?? value)) low = i;
      if (high < 0 || value > (values[high] ?? value)) high = i;
    }
    for (const index of [first, low, high, last]) if (index >= 0) kept.add(index);
  }
  return kept;
}

/** Indices i where spot and the flip swap sides between points i−1 and i (a flip at both, spot on neither). */
export function flipCrossings(points: readonly LevelsPoint[]): number[] {
  const crossings: number[] = [];
  let previous = 0;
  for (let i = 0; i < points.length; i += 1) {
    const point = points[i];
    const side = point === undefined || point.flip === null ? 0 : Math.sign(point.spot - point.flip);
    if (side !== 0 && previous !== 0 && side !== previous) crossings.push(i);
    previous = side;
  }
  return crossings;
}

/** The points of each series to draw at `bucket` snapshots per bucket, as sorted index lists. */
export function levelsToDraw(points: readonly LevelsPoint[], bucket: number): Record<LevelsSeries, number[]> {
  const series: LevelsSeries[] = ['spot', 'flip', 'callWall', 'putWall'];
  const kept = Object.fromEntries(series.map((name) => [name, m4(points.map((p) => p[name]), bucket)])) as Record<LevelsSeries, Set<number>>;
  if (bucket > 1) {
    for (const i of flipCrossings(points)) {
      for (const index of [i - 1, i]) {
        kept.spot.add(index);
        kept.flip.add(index);
      }
    }
  }
  return Object.fromEntries(series.map((name) => [name, [...kept[name]].sort((a, b) => a - b)])) as Record<LevelsSeries, number[]>;
}
