/** The strikes a per-strike chart draws, and the empty room at its ends (pure: the unit tests run it without a DOM). */

/** Something drawn centred on a bar that must fit inside the plot: a marker's label, the first or last axis label. */
export interface CentredLabel {
  /** Index of the bar in the chart's sorted strikes. */
  index: number;
  /** Half the label's width, in pixels. */
  halfWidthPx: number;
}

/** The bars `first..last` (indices into the strikes) are drawn, then `padLeft` and `padRight` empty bars beside them. */
export interface StrikeWindow {
  first: number;
  last: number;
  padLeft: number;
  padRight: number;
}

/**
 * Widens `first..last` until every label centred on a bar fits inside `plotWidthPx`: first with the neighbouring
 * strikes (real bars, where there are more), then with empty bars beyond the data. The chart is fixed (no scroll, no
 * zoom), so what this returns is what is seen: a marker's label at the edge is never cut (docs/ui.md, "Charts").
 * Labels wider than the plot cannot fit; the room stops growing at as many empty bars as there are drawn ones.
 */
export function strikeWindow(count: number, range: { first: number; last: number }, labels: readonly CentredLabel[], plotWidthPx: number): StrikeWindow {
  if (count <= 0) return { first: 0, last: -1, padLeft: 0, padRight: 0 };
  let first = Math.max(0, Math.min(range.first, count - 1));
  let last = Math.min(count - 1, Math.max(range.last, first));
  for (const label of labels) {
    if (label.index < 0 || label.index >= count) continue;
    first = Math.min(first, label.index);
    last = Math.max(last, label.index);
  }
  let padLeft = 0;
  let padRight = 0;
  const width = Math.max(plotWidthPx, 1);
  for (let round = 0; round < 64; round += 1) {
    const bars = last - first + 1 + padLeft + padRight;
    const spacing = width / bars;
    // Bar i's centre sits at (i − first + padLeft + ½)·spacing from the left edge, and as far from the right.
    let needLeft = 0;
    let needRight = 0;
    for (const label of labels) {
      if (label.index < 0 || label.index >= count) continue;
      const bars = label.halfWidthPx / spacing - 0.5;
      needLeft = Math.max(needLeft, Math.ceil(bars - (label.index - first) - padLeft - 1e-9));
      needRight = Math.max(needRight, Math.ceil(bars - (last - label.index) - padRight - 1e-9));
    }
    if (needLeft <= 0 && needRight <= 0) break;
    const cap = last - first + 1;
    if (needLeft > 0) {
      const real = Math.min(needLeft, first);
      first -= real;
      padLeft = Math.min(padLeft + needLeft - real, cap);
    }
    if (needRight > 0) {
      const real = Math.min(needRight, count - 1 - last);
      last += real;
      padRight = Math.min(padRight + needRight - real, cap);
    }
    if (padLeft === cap && padRight === cap) break;
  }
  return { first, last, padLeft, padRight };
}
