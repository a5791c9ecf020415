/**
 * Per-strike histograms on lightweight-charts' options (price) horizontal axis: GEX, DEX, open interest, vanna and
 * charm, the change between snapshots; level markers (spot, flip, walls) on rows of their own.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import {
  createOptionsChart,
  createSeriesMarkers,
  HistogramSeries,
  LineSeries,
  type DeepPartial,
  type IChartApiBase,
  type PriceChartOptions,
  type SeriesMarker,
} from 'lightweight-charts';
import { fmtCount, fmtExposure, fmtInt, fmtPrice } from '../../format';
import { BandPrimitive, type StrikeBand, type StrikeLine } from './band-primitive';
import { baseOptions, textWidth, useChart, useElementWidth, type ChartPalette } from './base';
import { strikesThatMatter } from './strike-range';
import { strikeWindow, type CentredLabel } from './strike-window';

export type { StrikeBand, StrikeLine };

export interface StrikeSeries {
  label: string;
  color: string;
  values: ReadonlyArray<{ strike: number; value: number }>;
  /** 0 = main pane; 1 = a second pane below (a second unit, e.g. charm under vanna). */
  pane?: number;
}

export interface StrikeMarker {
  strike: number;
  label: string;
  color: string;
  /**
   * Walls, max pain and targets stand above the bars, spot and flip below them. Markers of one edge take rows of
   * their own (in the order given, outwards from the bars), so two labels never share a line however near their
   * strikes are or however narrow the chart is, and no label covers a bar (docs/ui.md, "Charts").
   */
  edge: 'top' | 'bottom';
}

/** One line of a strike's tooltip: a label and its value, already formatted. */
export type TooltipLine = readonly [string, string];

/**
 * The value formatter and the tooltip of a StrikeChart of exposure rows in `unit`: the tooltip finds the row of the
 * strike under the cursor and shows its strike, then what `lines` writes of it.
 */
export function useExposureTooltip<R extends { strike: number }>(
  rows: readonly R[] | undefined,
  unit: string,
  lines: (row: R) => TooltipLine[],
  /** Changes when `lines` writes something else of the same rows (GEX or DEX of one answer). */
  linesKey = '',
): { formatValue: (value: number) => string; tooltip: (strike: number) => TooltipLine[] | null } {
  const byStrike = useMemo(() => new Map((rows ?? []).map((r) => [r.strike, r])), [rows]);
  const formatValue = useCallback((v: number) => fmtExposure(v, unit, false), [unit]);
  const tooltip = useCallback(
    (strike: number): TooltipLine[] | null => {
      const r = byStrike.get(strike);
      return r ? [['Strike', fmtPrice(strike)], ...lines(r)] : null;
    },
    // `lines` is a new closure every render; it reads only the row, `unit` and what `linesKey` names.
    [byStrike, unit, linesKey],
  );
  return { formatValue, tooltip };
}

/** Snaps a level (spot, flip) to the nearest strike present in the data: the strike axis is ordinal. */
export function nearestStrike(strikes: readonly number[], level: number): number | null {
  let best: number | null = null;
  for (const strike of strikes) if (best === null || Math.abs(strike - level) < Math.abs(best - level)) best = strike;
  return best;
}

/** A marker list that starts with spot, on the bottom row at the strike nearest to it (none on an empty chain). */
export function spotMarkers(strikes: readonly number[], stockPrice: number, palette: ChartPalette): StrikeMarker[] {
  const spot = nearestStrike(strikes, stockPrice);
  return spot === null ? [] : [{ strike: spot, label: `Spot ${fmtPrice(stockPrice)}`, color: palette.text, edge: 'bottom' }];
}

function strikeDecimals(strikes: readonly number[]): number {
  let decimals = 0;
  for (const k of strikes) {
    if (Math.abs(k * 100 - Math.round(k * 100)) > 1e-6) return 2;
    if (Math.abs(k - Math.round(k)) > 1e-9) decimals = Math.max(decimals, Math.abs(k * 10 - Math.round(k * 10)) > 1e-6 ? 2 : 1);
  }
  return decimals;
}

/** The height of a marker row: its label and its arrow. */
const MARKER_ROW_PX = 30;

const panes2 = (series: readonly StrikeSeries[]) => series.some((s) => (s.pane ?? 0) === 1);

/** Room for the value axis at the right, in pixels: its widest label and the scale's padding. */
function valueAxisPx(formatValue: (value: number) => string, values: readonly number[]): number {
  let widest = 0;
  for (const v of values) widest = Math.max(widest, textWidth(formatValue(v)));
  return widest + 22;
}

/**
 * A per-strike histogram chart on lightweight-charts' options (price) horizontal axis. It is fixed (no scroll, no
 * zoom): it draws the strikes that matter (strikesThatMatter: spot ± 10 % where the bars are), or every strike at
 * "Show all", widened until every marker's label fits (strikeWindow), with empty bars beyond the data where a label
 * needs room at the chain's last strike. Fixed, the library keeps its first and last axis labels inside the plot, and
 * the empty bars carry no axis label (ignoreWhitespaceIndices). Level markers ride on an invisible carrier series,
 * each on its own row; `band` shades a span of strikes and `lines` mark levels between strikes, behind the bars;
 * `tooltip` describes the strike under the crosshair.
 */
export function StrikeChart({
  series,
  markers,
  focus,
  formatValue,
  formatPane2,
  height = 340,
  pane2Height = 140,
  label,
  tooltip,
  band,
  lines,
}: {
  series: readonly StrikeSeries[];
  markers: readonly StrikeMarker[];
  focus?: { from: number; to: number };
  formatValue: (value: number) => string;
  formatPane2?: (value: number) => string;
  height?: number;
  pane2Height?: number;
  label: string;
  tooltip?: (strike: number) => readonly TooltipLine[] | null;
  band?: StrikeBand;
  lines?: readonly StrikeLine[];
}) {
  const tipRef = useRef<HTMLDivElement>(null);
  const [wrapRef, width] = useElementWidth<HTMLDivElement>();
  const [showAll, setShowAll] = useState(false);
  const [shown, setShown] = useState<{ from: number; to: number; count: number; total: number } | null>(null);
  // Markers of one edge at one strike (both walls at 4700) become one label: rows would stack them on the arrow.
  const merged = useMemo(() => {
    const list: StrikeMarker[] = [];
    for (const m of markers) {
      const same = list.find((o) => o.edge === m.edge && o.strike === m.strike);
      if (same) same.label = `${same.label} · ${m.label}`;
      else list.push({ ...m });
    }
    return list;
  }, [markers]);
  // Every marker is drawn (the window reaches it), a row each: a chart with many keeps its bars at least 140 px tall.
  const rowCount = merged.length;
  const chartHeight = Math.max(height, 34 + rowCount * MARKER_ROW_PX + 140 + (panes2(series) ? pane2Height : 0));
  const ref = useChart((container, palette) => {
    const allStrikes = new Set<number>();
    const weight = new Map<number, number>();
    for (const s of series) {
      for (const row of s.values) {
        allStrikes.add(row.strike);
        if ((s.pane ?? 0) === 0) weight.set(row.strike, Math.max(weight.get(row.strike) ?? 0, Math.abs(row.value)));
      }
    }
    const strikes = [...allStrikes].sort((a, b) => a - b);
    const indexOf = new Map(strikes.map((k, i) => [k, i]));
    const decimals = strikeDecimals(strikes);
    let mainMax = 0;
    let mainMin = 0;
    for (const s of series) {
      if ((s.pane ?? 0) !== 0) continue;
      for (const row of s.values) {
        mainMax = Math.max(mainMax, row.value);
        mainMin = Math.min(mainMin, row.value);
      }
    }
    const boxPx = width > 0 ? width : container.clientWidth;
    const plotPx = Math.max(boxPx - valueAxisPx(formatValue, [mainMax, mainMin]), 80);
    // Half the text and the arrow's own half width. A box not laid out yet (a few pixels wide) would widen the window
    // to every strike: it is fitted at its next width.
    const labels: CentredLabel[] = [];
    for (const m of boxPx >= 160 ? merged : []) {
      const index = indexOf.get(m.strike);
      if (index !== undefined) labels.push({ index, halfWidthPx: textWidth(m.label) / 2 + 6 });
    }
    const open = showAll || strikes.length === 0 ? null : strikesThatMatter(strikes, weight, focus);
    const win = strikeWindow(strikes.length, open ?? { first: 0, last: strikes.length - 1 }, labels, plotPx);
    const lo = strikes[win.first];
    const hi = strikes[win.last];
    const drawn = strikes.slice(win.first, win.last + 1);
    let step = Number.POSITIVE_INFINITY;
    for (let i = 1; i < strikes.length; i += 1) step = Math.min(step, (strikes[i] ?? 0) - (strikes[i - 1] ?? 0));
    if (!Number.isFinite(step)) step = Math.max(Math.abs(lo ?? 1) * 0.01, 0.01);

    const options: DeepPartial<PriceChartOptions> = {
      ...baseOptions(palette),
      localization: { priceFormatter: formatValue, precision: decimals, timeFormatter: (strike: number) => fmtPrice(strike, decimals) } as DeepPartial<PriceChartOptions['localization']>,
      timeScale: { borderColor: palette.border, minBarSpacing: 0.05, fixLeftEdge: true, fixRightEdge: true, ignoreWhitespaceIndices: true, lockVisibleTimeRangeOnResize: true },
      handleScroll: false,
      handleScale: false,
      layout: { ...baseOptions(palette).layout, panes: { separatorColor: palette.border, enableResize: false } },
    };
    const chart: IChartApiBase<number> = createOptionsChart(container, options);
    const inWindow = (strike: number) => lo !== undefined && hi !== undefined && strike >= lo && strike <= hi;
    for (const [n, s] of series.entries()) {
      const pane = s.pane ?? 0;
      const api = chart.addSeries(
        HistogramSeries,
        {
          color: s.color,
          priceLineVisible: false,
          lastValueVisible: false,
          title: '',
          priceFormat: { type: 'custom', formatter: pane === 1 && formatPane2 ? formatPane2 : formatValue, minMove: 0.01 },
        },
        pane,
      );
      const data: Array<{ time: number; value?: number }> = [...s.values].filter((row) => inWindow(row.strike)).sort((a, b) => a.strike - b.strike).map((row) => ({ time: row.strike, value: row.value }));
      if (n === 0 && lo !== undefined && hi !== undefined) {
        // Empty bars (whitespace: no bar, no axis label, no grid line) where a label needs room beyond the data.
        for (let j = 1; j <= win.padLeft; j += 1) data.unshift({ time: lo - j * step });
        for (let j = 1; j <= win.padRight; j += 1) data.push({ time: hi + j * step });
        if (band || (lines && lines.length > 0)) api.attachPrimitive(new BandPrimitive(drawn, band, lines ?? [], palette.band, palette.accent));
      }
      api.setData(data);
    }
    if (merged.length > 0) {
      // Each marker row is a label and its arrow, about 30 px: the rows stack above the bars (walls, max pain) and
      // below them (spot, flip), never over them. The carrier's autoscale reaches the outermost row, so the value
      // axis leaves that room; a row's height in values follows from the pane's height in pixels.
      const rows = { top: 0, bottom: 0 };
      for (const m of merged) if (inWindow(m.strike)) rows[m.edge] += 1;
      const range = mainMax - mainMin || 1;
      const panePx = (panes2(series) ? chartHeight - pane2Height : chartHeight) - 34;
      const usable = Math.max(panePx * 0.9 - (rows.top + rows.bottom) * MARKER_ROW_PX, panePx * 0.3);
      const rowValue = (MARKER_ROW_PX * range) / usable;
      const top = mainMax + rows.top * rowValue;
      const bottom = mainMin - rows.bottom * rowValue;
      const carrier = chart.addSeries(
        LineSeries,
        {
          lineVisible: false,
          pointMarkersVisible: false,
          crosshairMarkerVisible: false,
          priceLineVisible: false,
          lastValueVisible: false,
          title: '',
          priceFormat: { type: 'custom', formatter: formatValue, minMove: 0.01 },
          autoscaleInfoProvider: () => ({ priceRange: { minValue: bottom, maxValue: top } }),
        },
        0,
      );
      const carried = [...new Set(merged.map((m) => m.strike))].filter(inWindow).sort((a, b) => a - b);
      carrier.setData(carried.map((strike) => ({ time: strike, value: mainMin })));
      const placed = { top: 0, bottom: 0 };
      const ms: Array<SeriesMarker<number>> = [];
      for (const m of merged) {
        if (!inWindow(m.strike)) continue;
        const row = placed[m.edge];
        placed[m.edge] += 1;
        ms.push({
          time: m.strike,
          // The first marker of an edge sits next to the bars, the next one a row further out.
          position: m.edge === 'top' ? 'atPriceTop' : 'atPriceBottom',
          price: m.edge === 'top' ? mainMax + row * rowValue : mainMin - row * rowValue,
          shape: m.edge === 'top' ? 'arrowDown' : 'arrowUp',
          color: m.color,
          text: m.label,
        });
      }
      createSeriesMarkers(carrier, ms.sort((a, b) => a.time - b.time));
    }
    chart.priceScale('right', 0).applyOptions({ scaleMargins: { top: 0.05, bottom: 0.05 } });
    const panes = chart.panes();
    if (panes.length > 1) panes[1]?.setHeight(pane2Height);
    chart.timeScale().fitContent();
    container.dataset.shownFrom = lo === undefined ? '' : String(lo);
    container.dataset.shownTo = hi === undefined ? '' : String(hi);
    container.dataset.strikes = String(drawn.length);
    setShown(lo === undefined || hi === undefined ? null : { from: lo, to: hi, count: drawn.length, total: strikes.length });
    const tip = tipRef.current;
    if (tooltip && tip) {
      chart.subscribeCrosshairMove((param) => {
        const lines = param.time === undefined || param.point === undefined ? null : tooltip(param.time);
        if (lines === null || param.point === undefined) {
          tip.hidden = true;
          return;
        }
        tip.replaceChildren(
          ...lines.map(([name, value]) => {
            const line = document.createElement('div');
            const strong = document.createElement('strong');
            strong.textContent = value;
            line.append(`${name} `, strong);
            return line;
          }),
        );
        tip.hidden = false;
        const left = Math.min(Math.max(param.point.x + 12, 0), container.clientWidth - tip.offsetWidth - 4);
        tip.style.left = `${left}px`;
        tip.style.top = `${Math.max(param.point.y - tip.offsetHeight - 8, 0)}px`;
      });
    }
    return chart;
  }, [series, merged, focus, formatValue, formatPane2, pane2Height, chartHeight, tooltip, band, lines, showAll, width]);
  const partial = shown !== null && shown.count < shown.total;
  return (
    <div className="chart-wrap" ref={wrapRef}>
      <div className="chart" ref={ref} style={{ height: chartHeight }} role="img" aria-label={label} />
      <div className="chart-tooltip" ref={tipRef} hidden role="tooltip" data-testid="strike-tooltip" />
      {shown !== null && (
        <div className="chart-foot small muted">
          <span className="tnum">
            {partial ? `${fmtInt(shown.count)} of ${fmtCount(shown.total, 'strike')}` : shown.total === 1 ? '1 strike' : `All ${fmtCount(shown.total, 'strike')}`} · {fmtPrice(shown.from)}–{fmtPrice(shown.to)}
          </span>
          {(partial || showAll) && (
            <button type="button" className="btn btn-small btn-ghost" aria-pressed={showAll} onClick={() => setShowAll(!showAll)}>
              {showAll ? 'Near spot' : 'Show all strikes'}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
