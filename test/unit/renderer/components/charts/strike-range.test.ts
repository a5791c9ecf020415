import { describe, expect, it } from 'vitest';
import { strikesThatMatter } from '../../../../../src-renderer/components/charts/strike-range';

const strikes = [80, 85, 90, 95, 100, 105, 110, 115, 120, 200, 300];

describe('strikesThatMatter: the range a strike chart opens on', () => {
  it('keeps the strikes within the focus that carry a visible value, not the empty ends of the focus', () => {
    // Within spot ± 10 % (90–110) only 95–105 carry weight; 90 and 110 are empty (below 0.5 % of the largest).
    const weight = new Map([
      [80, 50],
      [90, 0.1],
      [95, 400],
      [100, 1000],
      [105, 300],
      [110, 1],
      [300, 20],
    ]);
    expect(strikesThatMatter(strikes, weight, { from: 90, to: 110 })).toEqual({ first: 3, last: 5 });
  });

  it('an empty focus (all the weight away from spot) zooms to the strikes that carry weight at all', () => {
    const weight = new Map([
      [200, 500],
      [300, 1000],
      [80, 1],
    ]);
    expect(strikesThatMatter(strikes, weight, { from: 90, to: 110 })).toEqual({ first: 9, last: 10 });
  });

  it('nothing to show: null (the chart fits everything)', () => {
    expect(strikesThatMatter(strikes, new Map(), { from: 90, to: 110 })).toBeNull();
    expect(strikesThatMatter([], new Map([[100, 1]]))).toBeNull();
  });
});
