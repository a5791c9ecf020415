import { describe, expect, it } from 'vitest';
import { dteTicks, heatStrength, labelledCells, niceTicks, rowMaxima } from '../../../../../src-renderer/components/charts/scales';

describe('axis and colour scales of the hand-drawn charts', () => {
  it('nice ticks: steps of 1, 2 or 5 × 10^k, no float noise', () => {
    expect(niceTicks(12.3, 17.9, 5)).toEqual([14, 16]);
    expect(niceTicks(0.1, 0.5, 4)).toEqual([0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(niceTicks(-3, 7, 5)).toEqual([-2, 0, 2, 4, 6]);
    expect(niceTicks(5, 5)).toEqual([5]);
  });

  it('days-to-expiry ticks stop at the last expiration and never crowd each other on the √ axis', () => {
    expect(dteTicks(45).map((t) => t.label)).toEqual(['0', '7d', '30d']);
    // SPX 2024-01-05 runs to 2029: √1825 ≈ 42.7; 7d sits at 0.062 of the axis, too near 0 (gap 0.08): left out.
    expect(dteTicks(1800).map((t) => t.label)).toEqual(['0', '30d', '90d', '180d', '1y', '2y', '3y']);
  });

  it('colour strength: √(|v| / largest), signless, at least 0.06 for any non-zero cell, 0 for an empty one', () => {
    expect(heatStrength(25, 100)).toBeCloseTo(0.5, 12);
    expect(heatStrength(-25, 100)).toBeCloseTo(0.5, 12);
    expect(heatStrength(100, 100)).toBe(1);
    expect(heatStrength(1e-6, 100)).toBe(0.06);
    expect(heatStrength(0, 100)).toBe(0);
    expect(heatStrength(5, 0)).toBe(0);
  });

  it('row maxima: the whole grid’s largest cell for every row, or each row’s own', () => {
    const grid = [
      [1, -8, 2],
      [0, 0.5, -0.25],
    ];
    expect(rowMaxima(grid, 'grid')).toEqual([8, 8]);
    expect(rowMaxima(grid, 'row')).toEqual([8, 0.5]);
  });

  it('strike labels: round strikes at least the gap apart', () => {
    const strikes = Array.from({ length: 101 }, (_, i) => 4500 + 5 * i);
    // 4 px a column: 60 px is 15 columns (75 points): the step is 100.
    const picked = labelledCells(strikes, 4, 60).map((i) => strikes[i]);
    expect(picked).toEqual([4500, 4600, 4700, 4800, 4900, 5000]);
  });
});
