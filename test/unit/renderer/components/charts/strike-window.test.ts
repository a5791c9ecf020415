import { describe, expect, it } from 'vitest';
import { strikeWindow, type CentredLabel, type StrikeWindow } from '../../../../../src-renderer/components/charts/strike-window';

/** Where a label's edges land on the plot, by the same geometry the chart draws with: bars of equal width. */
function edges(w: StrikeWindow, label: CentredLabel, plotWidthPx: number): { left: number; right: number } {
  const bars = w.last - w.first + 1 + w.padLeft + w.padRight;
  const spacing = plotWidthPx / bars;
  const centre = (label.index - w.first + w.padLeft + 0.5) * spacing;
  return { left: centre - label.halfWidthPx, right: centre + label.halfWidthPx };
}

describe('strikeWindow: the bars a fixed strike chart draws so that no label is cut', () => {
  it('labels in the middle of a wide plot need no room: the range is drawn as it is', () => {
    expect(strikeWindow(100, { first: 40, last: 60 }, [{ index: 50, halfWidthPx: 30 }], 800)).toEqual({ first: 40, last: 60, padLeft: 0, padRight: 0 });
  });

  it('a marker outside the range widens it to the marker', () => {
    const w = strikeWindow(100, { first: 40, last: 60 }, [{ index: 70, halfWidthPx: 1 }], 800);
    expect(w.first).toBe(40);
    expect(w.last).toBe(70);
  });

  it('a label at the last strike of the data gets empty bars beyond it; one at a middle strike gets real neighbours', () => {
    // 21 bars on 420 px: 20 px a bar. A 100 px label (half 50) on the last bar needs 2 more bars to its right
    // (its centre 10 px from the edge must be 50 px from it), and the bars added shrink the spacing: found by iterating.
    const atEnd = strikeWindow(21, { first: 0, last: 20 }, [{ index: 20, halfWidthPx: 50 }], 420);
    expect(atEnd.first).toBe(0);
    expect(atEnd.last).toBe(20);
    expect(atEnd.padLeft).toBe(0);
    expect(atEnd.padRight).toBeGreaterThanOrEqual(2);
    const e = edges(atEnd, { index: 20, halfWidthPx: 50 }, 420);
    expect(e.right).toBeLessThanOrEqual(420);

    const inData = strikeWindow(40, { first: 10, last: 30 }, [{ index: 10, halfWidthPx: 50 }], 420);
    expect(inData.padLeft, 'strikes exist to the left: they are drawn instead of empty bars').toBe(0);
    expect(inData.first).toBeLessThan(10);
    expect(edges(inData, { index: 10, halfWidthPx: 50 }, 420).left).toBeGreaterThanOrEqual(0);
  });

  it('property: every label fits inside the plot, for random ranges, labels and widths', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let run = 0; run < 2000; run += 1) {
      const count = 1 + Math.floor(random() * 300);
      const a = Math.floor(random() * count);
      const b = Math.floor(random() * count);
      const plot = 200 + random() * 1200;
      const labels = Array.from({ length: Math.floor(random() * 6) }, () => ({ index: Math.floor(random() * count), halfWidthPx: 5 + random() * 60 }));
      const w = strikeWindow(count, { first: Math.min(a, b), last: Math.max(a, b) }, labels, plot);
      expect(w.first).toBeGreaterThanOrEqual(0);
      expect(w.last).toBeLessThan(count);
      expect(w.first).toBeLessThanOrEqual(Math.min(a, b));
      expect(w.last).toBeGreaterThanOrEqual(Math.max(a, b));
      for (const label of labels) {
        const e = edges(w, label, plot);
        expect(e.left, JSON.stringify({ count, a, b, plot, labels, w })).toBeGreaterThanOrEqual(-1e-6);
        expect(e.right, JSON.stringify({ count, a, b, plot, labels, w })).toBeLessThanOrEqual(plot + 1e-6);
      }
    }
  });

  it('no strikes: nothing drawn', () => {
    expect(strikeWindow(0, { first: 0, last: 0 }, [], 500)).toEqual({ first: 0, last: -1, padLeft: 0, padRight: 0 });
  });
});
