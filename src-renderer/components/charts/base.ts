/**
 * What every chart shares: colours from the CSS variables of the current theme (charts follow the light/dark toggle),
 * lightweight-charts' base options, and the hook that builds a chart into an element and rebuilds it when its inputs
 * or the theme change. Charts resize with their container (autoSize).
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type DependencyList, type RefObject } from 'react';
import { ColorType } from 'lightweight-charts';
import { useTheme, type Theme } from '../../hooks';

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
  /** The expected-move band's fill. */
  band: string;
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
    band: cssVar('--chart-band', 'rgba(47,111,237,0.09)'),
  };
}

/** The palette of the current theme, read again when the light/dark toggle changes it. */
export function useChartPalette(): ChartPalette {
  const theme = useTheme();
  return useMemo(() => chartPalette(theme), [theme]);
}

export const CHART_FONT_FAMILY = 'Inter, system-ui, -apple-system, Segoe UI, Roboto, sans-serif';
export const CHART_FONT_PX = 11;

let measuring: CanvasRenderingContext2D | null | undefined;
/** The width in pixels of `text` in the charts' font: what a label needs, to keep it inside the plot. */
export function textWidth(text: string, fontPx = CHART_FONT_PX): number {
  if (measuring === undefined) measuring = document.createElement('canvas').getContext('2d');
  if (!measuring) return text.length * fontPx * 0.62;
  measuring.font = `${fontPx}px ${CHART_FONT_FAMILY}`;
  return measuring.measureText(text).width;
}

export function baseOptions(palette: ChartPalette) {
  return {
    autoSize: true,
    layout: {
      background: { type: ColorType.Solid, color: 'transparent' },
      textColor: palette.muted,
      fontFamily: CHART_FONT_FAMILY,
      fontSize: CHART_FONT_PX,
      attributionLogo: false,
    },
    grid: { vertLines: { color: palette.grid }, horzLines: { color: palette.grid } },
    // entireTextOnly: the top and bottom value labels are drawn only when whole (they were cut in half at the top).
    rightPriceScale: { borderColor: palette.border, entireTextOnly: true },
    leftPriceScale: { borderColor: palette.border, entireTextOnly: true },
    timeScale: { borderColor: palette.border },
    crosshair: { vertLine: { labelBackgroundColor: palette.accent }, horzLine: { labelBackgroundColor: palette.accent } },
  } as const;
}

/** A line green above zero and red below (a baseline series at 0): the equity curve, the gamma profile. */
export function zeroBaseline(palette: ChartPalette) {
  return {
    baseValue: { type: 'price' as const, price: 0 },
    topLineColor: palette.pos,
    topFillColor1: palette.posFill,
    topFillColor2: 'rgba(0,0,0,0)',
    bottomLineColor: palette.neg,
    bottomFillColor1: 'rgba(0,0,0,0)',
    bottomFillColor2: palette.negFill,
    lineWidth: 2 as const,
    priceLineVisible: false,
  };
}

/** A chart that always shows all its data: no scroll, no zoom, the time axis pinned at both edges. */
export function fixedOptions(palette: ChartPalette) {
  return {
    ...baseOptions(palette),
    timeScale: { borderColor: palette.border, fixLeftEdge: true, fixRightEdge: true },
    handleScroll: false,
    handleScale: false,
  } as const;
}

/**
 * The element a chart is drawn into: `build` makes the chart (from the palette of the current theme) and returns
 * it; it is rebuilt when a dependency or the theme changes and removed when the element goes.
 */
export function useChart(build: (container: HTMLDivElement, palette: ChartPalette) => { remove: () => void }, deps: DependencyList): RefObject<HTMLDivElement | null> {
  const ref = useRef<HTMLDivElement>(null);
  const theme = useTheme();
  useEffect(() => {
    const container = ref.current;
    if (!container) return;
    const chart = build(container, chartPalette(theme));
    return () => chart.remove();
    // `build` is a new closure every render; what it reads is in `deps`.
  }, [...deps, theme]);
  return ref;
}

/**
 * The width of an element, kept up to date (ResizeObserver): for the charts that lay themselves out by pixels (a
 * strike chart's room for its labels, the hand-drawn ones). 0 until the element is laid out.
 */
export function useElementWidth<T extends HTMLElement>(): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(Math.round(element.clientWidth));
    const observer = new ResizeObserver(() => setWidth(Math.round(element.clientWidth)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

