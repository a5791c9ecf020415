/**
 * lightweight-charts wrappers. Colours come from the CSS variables of the current theme so charts follow the
 * light/dark toggle; the charts resize with their container (autoSize).
 */
import { useEffect, useRef } from 'react';
import {
  BaselineSeries,
  ColorType,
  createChart,
  createOptionsChart,
  createSeriesMarkers,
  HistogramSeries,
  LineSeries,
  LineStyle,
  type DeepPartial,
  type IChartApi,
  type IChartApiBase,
  type PriceChartOptions,
  type SeriesMarker,
  type Time,
} from 'lightweight-charts';
import { fmtMoneyCompact, fmtPrice } from '../format';
import { useTheme, type Theme } from '../hooks';

export interface ChartPalette {
  text: string;
  muted: string;
  grid: string;
  border: string;
  bg: string;
  pos: string;
  neg: string;
  posFill: string;
  negFill: string;
  accent: string;
  warn: string;
  call: string;
  put: string;
  net: string;
}

function cssVar(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value === '' ? fallback : value;
}

export function chartPalette(_theme: Theme): ChartPalette {
  return {
    text: cssVar('--text', '#1b2230'),
    muted: cssVar('--text-muted', '#6b7385'),
    grid: cssVar('--chart-grid', 'rgba(128,128,128,0.12)'),
    border: cssVar('--border', '#d9dde5'),
    bg: cssVar('--surface', '#ffffff'),
    pos: cssVar('--pos', '#0f9d58'),
    neg: cssVar('--neg', '#d93025'),
    posFill: cssVar('--pos-fill', 'rgba(15,157,88,0.18)'),
    negFill: cssVar('--neg-fill', 'rgba(217,48,37,0.18)'),
    accent: cssVar('--accent', '#2f6fed'),
    warn: cssVar('--warn', '#c98a00'),
    call: cssVar('--call', 'rgba(15,157,88,0.55)'),
    put: cssVar('--put', 'rgba(217,48,37,0.55)'),
    net: cssVar('--net', '#2f6fed'),
  };
}

export function baseOptions(palette: ChartPalette) {
  return {
    autoSize: true,
    layout: {
      background: { type: ColorType.Solid, color: 'transparent' },
      textColor: palette.muted,
      fontFamily: 'Inter, system-ui, -apple-system, Segoe UI, Roboto, sans-serif',
      fontSize: 11,
      attributionLogo: false,
    },
    grid: { vertLines: { color: palette.grid }, horzLines: { color: palette.grid } },
    rightPriceScale: { borderColor: palette.border },
    leftPriceScale: { borderColor: palette.border },
    timeScale: { borderColor: palette.border },
    crosshair: { vertLine: { labelBackgroundColor: palette.accent }, horzLine: { labelBackgroundColor: palette.accent } },
  } as const;
}

/** A fixed (no scroll, no zoom) chart over dates with money on the price axis: the journal's charts. */
function createMoneyTimeChart(container: HTMLElement, palette: ReturnType<typeof chartPalette>, currency: string) {
  return createChart(container, {
    ...baseOptions(palette),
    localization: { priceFormatter: (value: number) => fmtMoneyCompact(value, currency) },
    // These charts always show all their data. Without the lock a narrower container (a scrollbar appearing,
    // the window or the sidebar changing) keeps the bar spacing and the left edge, and the last days fall off the right.
    timeScale: { borderColor: palette.border, fixLeftEdge: true, fixRightEdge: true, lockVisibleTimeRangeOnResize: true },
    handleScroll: false,
    handleScale: false,
  });
}

/**
 * Writes the first and last dates the chart really shows onto its element (`data-shown-from`, `data-shown-to`),
 * from the library's own visible range: what a reader can check against the data, and the browser tests do.
 */
function reportShownDates(chart: IChartApi, container: HTMLElement): void {
  const update = () => {
    const range = chart.timeScale().getVisibleRange();
    container.dataset.shownFrom = range ? businessDay(range.from) : '';
    container.dataset.shownTo = range ? businessDay(range.to) : '';
  };
  chart.timeScale().subscribeVisibleTimeRangeChange(update);
  update();
}

function businessDay(time: Time): string {
  if (typeof time === 'string') return time;
  if (typeof time === 'number') return new Date(time * 1000).toISOString().slice(0, 10);
  return `${String(time.year).padStart(4, '0')}-${String(time.month).padStart(2, '0')}-${String(time.day).padStart(2, '0')}`;
}

/** Cumulative P&L: green above zero, red below (a baseline series at 0). */
export function EquityChart({ points, currency, height = 240 }: { points: ReadonlyArray<{ date: string; value: number }>; currency: string; height?: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const theme = useTheme();
  useEffect(() => {
    const container = ref.current;
    if (!container) return;
    const palette = chartPalette(theme);
    const chart = createMoneyTimeChart(container, palette, currency);
    const series = chart.addSeries(BaselineSeries, {
      baseValue: { type: 'price', price: 0 },
      topLineColor: palette.pos,
      topFillColor1: palette.posFill,
      topFillColor2: 'rgba(0,0,0,0)',
      bottomLineColor: palette.neg,
      bottomFillColor1: 'rgba(0,0,0,0)',
      bottomFillColor2: palette.negFill,
      lineWidth: 2,
      priceLineVisible: false,
    });
    series.setData(points.map((p) => ({ time: p.date as Time, value: p.value })));
    series.createPriceLine({ price: 0, color: palette.border, lineWidth: 1, lineStyle: LineStyle.Dotted, axisLabelVisible: false, title: '' });
    chart.timeScale().fitContent();
    reportShownDates(chart, container);
    return () => chart.remove();
  }, [points, theme, currency]);
  return <div className="chart" ref={ref} style={{ height }} role="img" aria-label="Equity curve: cumulative P&L by day" />;
}

/** Monthly P&L bars on a time axis. */
export function MonthlyBars({ months, currency, height = 180 }: { months: ReadonlyArray<{ month: string; pl: number }>; currency: string; height?: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const theme = useTheme();
  useEffect(() => {
    const container = ref.current;
    if (!container) return;
    const palette = chartPalette(theme);
    const chart = createMoneyTimeChart(container, palette, currency);
    const series = chart.addSeries(HistogramSeries, { priceLineVisible: false, lastValueVisible: false });
    series.setData(months.map((m) => ({ time: `${m.month.slice(0, 7)}-01` as Time, value: m.pl, color: m.pl >= 0 ? palette.pos : palette.neg })));
    chart.timeScale().fitContent();
    reportShownDates(chart, container);
    return () => chart.remove();
  }, [months, theme, currency]);
  return <div className="chart" ref={ref} style={{ height }} role="img" aria-label="Monthly P&L" />;
}

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
  /** Walls and targets sit on top of the pane, spot and flip at the bottom, so labels never collide. */
  edge: 'top' | 'bottom';
}

/** Snaps a level (spot, flip) to the nearest strike present in the data: the strike axis is ordinal. */
export function nearestStrike(strikes: readonly number[], level: number): number | null {
  let best: number | null = null;
  for (const strike of strikes) if (best === null || Math.abs(strike - level) < Math.abs(best - level)) best = strike;
  return best;
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
 * A per-strike histogram chart on lightweight-charts' options (price) horizontal axis. The visible range
 * starts at strikes within `focus` (e.g. spot ± 10%) so a 500-strike chain opens on the part that matters.
 * Level markers ride on invisible carrier series pinned to the top and bottom of the first pane.
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
}: {
  series: readonly StrikeSeries[];
  markers: readonly StrikeMarker[];
  focus?: { from: number; to: number };
  formatValue: (value: number) => string;
  formatPane2?: (value: number) => string;
  height?: number;
  pane2Height?: number;
  label: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const theme = useTheme();
  useEffect(() => {
    const container = ref.current;
    if (!container) return;
    const palette = chartPalette(theme);
    const allStrikes = new Set<number>();
    for (const s of series) for (const row of s.values) allStrikes.add(row.strike);
    const strikes = [...allStrikes].sort((a, b) => a - b);
    const decimals = strikeDecimals(strikes);
    const options: DeepPartial<PriceChartOptions> = {
      ...baseOptions(palette),
      localization: { priceFormatter: formatValue, precision: decimals, timeFormatter: (strike: number) => fmtPrice(strike, decimals) } as DeepPartial<PriceChartOptions['localization']>,
      timeScale: { borderColor: palette.border, minBarSpacing: 2 },
      layout: { ...baseOptions(palette).layout, panes: { separatorColor: palette.border, enableResize: false } },
    };
    const chart: IChartApiBase<number> = createOptionsChart(container, options);
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
      api.setData(rows.map((row) => ({ time: row.strike, value: row.value })));
    }
    for (const edge of ['top', 'bottom'] as const) {
      const list = markers.filter((m) => m.edge === edge).sort((a, b) => a.strike - b.strike);
      if (list.length === 0) continue;
      const level = edge === 'top' ? mainMax : mainMin;
      const carrier = chart.addSeries(
        LineSeries,
        { lineVisible: false, pointMarkersVisible: false, crosshairMarkerVisible: false, priceLineVisible: false, lastValueVisible: false, title: '', priceFormat: { type: 'custom', formatter: formatValue, minMove: 0.01 } },
        0,
      );
      const seen = new Set<number>();
      const points: Array<{ time: number; value: number }> = [];
      for (const m of list) {
        if (seen.has(m.strike)) continue;
        seen.add(m.strike);
        points.push({ time: m.strike, value: level });
      }
      carrier.setData(points);
      const ms: Array<SeriesMarker<number>> = list.map((m) => ({
        time: m.strike,
        position: edge === 'top' ? 'aboveBar' : 'belowBar',
        shape: edge === 'top' ? 'arrowDown' : 'arrowUp',
        color: m.color,
        text: m.label,
      }));
      createSeriesMarkers(carrier, ms);
    }
    const panes = chart.panes();
    if (panes.length > 1) panes[1]?.setHeight(pane2Height);
    if (focus && strikes.length > 0) {
      const first = strikes.findIndex((k) => k >= focus.from);
      let last = -1;
      for (let i = strikes.length - 1; i >= 0; i -= 1) {
        const k = strikes[i];
        if (k !== undefined && k <= focus.to) {
          last = i;
          break;
        }
      }
      if (first >= 0 && last >= first) chart.timeScale().setVisibleLogicalRange({ from: first - 0.5, to: last + 0.5 });
      else chart.timeScale().fitContent();
    } else chart.timeScale().fitContent();
    return () => chart.remove();
  }, [series, markers, focus, formatValue, formatPane2, theme, pane2Height]);
  return <div className="chart" ref={ref} style={{ height }} role="img" aria-label={label} />;
}
