/**
 * Scales of the hand-drawn charts (term structure, heat map): nice axis steps, the days-to-expiry axis and the heat
 * map's colour strength. Pure: the unit tests run them without a DOM.
 */

/** Ticks at 1, 2 or 5 × 10^k covering [min, max], about `target` of them. */
export function niceTicks(min: number, max: number, target = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (max < min) [min, max] = [max, min];
  if (max === min) return [min];
  const raw = (max - min) / Math.max(target, 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const ticks: number[] = [];
  // Integer multiples, so 0.1 + 0.2 never shows as 0.30000000000000004.
  for (let k = Math.ceil(min / step - 1e-9); k * step <= max + step * 1e-9; k += 1) ticks.push(Number((k * step).toPrecision(12)));
  return ticks;
}

/** Days to expiry on a square-root axis: the near dates (where most expirations are) get room, years stay on it. */
export const sqrtDte = (dte: number): number => Math.sqrt(Math.max(dte, 0));

const DTE_TICKS: ReadonlyArray<readonly [number, string]> = [
  [0, '0'],
  [7, '7d'],
  [30, '30d'],
  [90, '90d'],
  [180, '180d'],
  [365, '1y'],
  [730, '2y'],
  [1095, '3y'],
  [1825, '5y'],
  [3650, '10y'],
];

/** The days-to-expiry ticks up to `maxDte`, none closer to the previous one than `minGap` of the axis (in √ days). */
export function dteTicks(maxDte: number, minGap = 0.08): Array<{ dte: number; label: string }> {
  const top = sqrtDte(maxDte);
  const ticks: Array<{ dte: number; label: string }> = [];
  let last = Number.NEGATIVE_INFINITY;
  for (const [dte, label] of DTE_TICKS) {
    if (dte > maxDte) break;
    const at = top > 0 ? sqrtDte(dte) / top : 0;
    if (at - last < minGap) continue;
    ticks.push({ dte, label });
    last = at;
  }
  return ticks;
}

/** The colour scale of the heat map: one for the whole grid, or one per expiration (each row's own largest cell). */
export type HeatScaleMode = 'grid' | 'row';

/** Each row's largest |value| under the mode: the denominators of the colour strength. */
export function rowMaxima(grid: ReadonlyArray<readonly number[]>, mode: HeatScaleMode): number[] {
  const own = grid.map((row) => row.reduce((m, v) => Math.max(m, Math.abs(v)), 0));
  if (mode === 'row') return own;
  const all = own.reduce((m, v) => Math.max(m, v), 0);
  return own.map(() => all);
}

/**
 * How strongly a cell is coloured, 0..1: √(|value| / largest). A square root, because a chain's gamma spans orders of
 * magnitude (the nearest expiration's at-the-money strikes dwarf the rest) and a linear scale would leave most of the
 * grid blank. A cell that holds anything gets at least 0.06, so open interest never looks like none. 0 stays 0.
 */
export function heatStrength(value: number, largest: number): number {
  if (value === 0 || !(largest > 0) || !Number.isFinite(value)) return 0;
  return Math.max(0.06, Math.min(1, Math.sqrt(Math.abs(value) / largest)));
}

/** Labels along an axis of `count` equal cells `cellPx` wide: the cells worth a label, at least `minGapPx` apart. */
export function labelledCells(values: readonly number[], cellPx: number, minGapPx: number): number[] {
  if (values.length === 0) return [];
  // A round step: the smallest 1/2.5/5 × 10^k whose labels land at least minGapPx apart at the median spacing.
  const gaps: number[] = [];
  for (let i = 1; i < values.length; i += 1) gaps.push((values[i] ?? 0) - (values[i - 1] ?? 0));
  gaps.sort((a, b) => a - b);
  const gap = gaps[Math.floor(gaps.length / 2)] ?? 1;
  const need = (minGapPx / Math.max(cellPx, 1e-9)) * gap;
  let step = 0;
  for (let power = 10 ** Math.floor(Math.log10(Math.max(need, 1e-9))); step === 0; power *= 10) {
    step = [1, 2.5, 5, 10].map((m) => m * power).find((s) => s >= need - 1e-9) ?? 0;
  }
  const picked: number[] = [];
  let lastPx = Number.NEGATIVE_INFINITY;
  values.forEach((value, index) => {
    const round = Math.abs(value / step - Math.round(value / step)) < 1e-6;
    const px = index * cellPx;
    if (round && px - lastPx >= minGapPx) {
      picked.push(index);
      lastPx = px;
    }
  });
  return picked;
}
