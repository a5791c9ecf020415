/**
 * Per-strike histograms on lightweight-charts' options (price) horizontal axis: GEX, DEX, open interest, vanna and
 * charm, the change between snapshots; level markers (spot, flip, walls) on rows of their own.
 */
import { useCallback, useMemo, useRef } from 'react';
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
import { fmtExposure, fmtPrice } from '../../format';
import { baseOptions, useChart, type ChartPalette } from './base';
import { strikesThatMatter } from './strike-range';

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
   * Walls and targets hang from the top of the pane, spot and flip stand on the bottom. Markers of one edge take
   * rows of their own (in the order given), so two labels never share a line however near their strikes are or
   * however narrow the chart is (docs/ui.md, "Exposure").
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
): { formatValue: (value: number) => string; tooltip: (strike: number) => TooltipLine[] | null } {
  const byStrike = useMemo(() => new Map((rows ?? []).map((r) => [r.strike, r])), [rows]);
  const formatValue = useCallback((v: number) => fmtExposure(v, unit, false), [unit]);
  const tooltip = useCallback(
    (strike: number): TooltipLine[] | null => {
      const r = byStrike.get(strike);
      return r ? [['Strike', fmtPrice(strike)], ...lines(r)] : null;
    },
    // `lines` is a new closure every render; it reads only the row and `unit`.
    [byStrike, unit],
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

/**
 * A per-strike histogram chart on lightweight-charts' options (price) horizontal axis. The visible range opens on
 * the strikes that matter (strikesThatMatter) with half a bar and a label's room on either side, so the last axis
 * label is not cut off. Level markers ride on an invisible carrier series, each on its own row; `tooltip` describes
 * the strike under the crosshair.
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
}) {
  const tipRef = useRef<HTMLDivElement>(null);
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
    const decimals = strikeDecimals(strikes);
    const options: DeepPartial<PriceChartOptions> = {
      ...baseOptions(palette),
      localization: { priceFormatter: formatValue, precision: decimals, timeFormatter: (strike: number) => fmtPrice(strike, decimals) } as DeepPartial<PriceChartOptions['localization']>,
      timeScale: { borderColor: palette.border, minBarSpacing: 2 },
      layout: { ...baseOptions(palette).layout, panes: { separatorColor: palette.border, enableResize: false } },
    };
    const chart: IChartApiBase<number> = createOptionsChart(container, options);
    const first = strikes[0];
    const last = strikes[strikes.length - 1];
    let step = Number.POSITIVE_INFINITY;
    for (let i = 1; i < strikes.length; i += 1) step = Math.min(step, (strikes[i] ?? 0) - (strikes[i - 1] ?? 0));
    const pad = first === undefined || last === undefined ? null : { low: first - (Number.isFinite(step) ? step : 1), high: last + (Number.isFinite(step) ? step : 1) };
    let mainMax = 0;
    let mainMin = 0;
    for (const s of series) {
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
      const rows = [...s.values].sort((a, b) => a.strike - b.strike);
      if (pane === 0) {
        for (const row of rows) {
          mainMax = Math.max(mainMax, row.value);
          mainMin = Math.min(mainMin, row.value);
        }
      }
      const data: Array<{ time: number; value?: number }> = rows.map((row) => ({ time: row.strike, value: row.value }));
      // An empty strike on each side (a bar of 0: whitespace items do not widen the range): the first and last
      // bars' axis labels get room instead of being cut.
      if (s === series[0] && pad !== null) {
        data.unshift({ time: pad.low, value: 0 });
        data.push({ time: pad.high, value: 0 });
      }
      api.setData(data);
    }
    // Room above and below the bars for the marker labels of the first and last rows.
    chart.priceScale('right', 0).applyOptions({ scaleMargins: { top: 0.2, bottom: 0.2 } });
    if (markers.length > 0) {
      // Rows of 14% of the pane's value range from each edge: a label and its arrow fit in one at 340 px.
      const range = mainMax - mainMin || 1;
      const carrier = chart.addSeries(
        LineSeries,
        { lineVisible: false, pointMarkersVisible: false, crosshairMarkerVisible: false, priceLineVisible: false, lastValueVisible: false, title: '', priceFormat: { type: 'custom', formatter: formatValue, minMove: 0.01 } },
        0,
      );
      const carried = [...new Set(markers.map((m) => m.strike))].sort((a, b) => a - b);
      carrier.setData(carried.map((strike) => ({ time: strike, value: mainMin })));
      // Markers of one edge at one strike (both walls at 4700) become one label: rows would stack them on the arrow.
      const merged: StrikeMarker[] = [];
      for (const m of markers) {
        const same = merged.find((o) => o.edge === m.edge && o.strike === m.strike);
        if (same) same.label = `${same.label} · ${m.label}`;
        else merged.push({ ...m });
      }
      const rows = { top: 0, bottom: 0 };
      const ms: Array<SeriesMarker<number>> = [];
      for (const m of merged) {
        const row = rows[m.edge];
        rows[m.edge] += 1;
        ms.push({
          time: m.strike,
          position: m.edge === 'top' ? 'atPriceTop' : 'atPriceBottom',
          price: m.edge === 'top' ? mainMax - row * 0.14 * range : mainMin + row * 0.14 * range,
          shape: m.edge === 'top' ? 'arrowDown' : 'arrowUp',
          color: m.color,
          text: m.label,
        });
      }
      createSeriesMarkers(carrier, ms.sort((a, b) => a.time - b.time));
    }
    const panes = chart.panes();
    if (panes.length > 1) panes[1]?.setHeight(pane2Height);
    const open = strikesThatMatter(strikes, weight, focus);
    // Logical index i + 1 is strike i (the pad is index 0): one more bar's room on either side.
    if (open) chart.timeScale().setVisibleLogicalRange({ from: open.first - 0.5, to: open.last + 2.5 });
    else chart.timeScale().fitContent();
    container.dataset.shownFrom = open ? String(strikes[open.first]) : '';
    container.dataset.shownTo = open ? String(strikes[open.last]) : '';
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
  }, [series, markers, focus, formatValue, formatPane2, pane2Height, tooltip]);
  return (
    <div className="chart-wrap">
      <div className="chart" ref={ref} style={{ height }} role="img" aria-label={label} />
      <div className="chart-tooltip" ref={tipRef} hidden role="tooltip" data-testid="strike-tooltip" />
    </div>
  );
}
