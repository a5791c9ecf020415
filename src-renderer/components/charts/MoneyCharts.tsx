/** The journal's charts over dates: the equity curve and the monthly bars (fixed: no scroll, no zoom). */
import { BaselineSeries, createChart, HistogramSeries, LineStyle, type IChartApi, type Time } from 'lightweight-charts';
import { fmtMoneyCompact } from '../../format';
import { fixedOptions, useChart, zeroBaseline, type ChartPalette } from './base';

/** A fixed (no scroll, no zoom) chart over dates with money on the price axis: the journal's charts. */
function createMoneyTimeChart(container: HTMLElement, palette: ChartPalette, currency: string) {
  const fixed = fixedOptions(palette);
  return createChart(container, {
    ...fixed,
    localization: { priceFormatter: (value: number) => fmtMoneyCompact(value, currency) },
    // These charts always show all their data. Without the lock a narrower container (a scrollbar appearing,
    // the window or the sidebar changing) keeps the bar spacing and the left edge, and the last days fall off the right.
    timeScale: { ...fixed.timeScale, lockVisibleTimeRangeOnResize: true },
  });
}

/**
 * Fits all the data, then writes the first and last dates the chart really shows onto its element (`data-shown-from`, `data-shown-to`),
 * from the library's own visible range: what a reader can check against the data, and the browser tests do.
 */
function fitAndReportDates(chart: IChartApi, container: HTMLElement): void {
  chart.timeScale().fitContent();
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
  const ref = useChart((container, palette) => {
    const chart = createMoneyTimeChart(container, palette, currency);
    const series = chart.addSeries(BaselineSeries, zeroBaseline(palette));
    series.setData(points.map((p) => ({ time: p.date as Time, value: p.value })));
    series.createPriceLine({ price: 0, color: palette.border, lineWidth: 1, lineStyle: LineStyle.Dotted, axisLabelVisible: false, title: '' });
    fitAndReportDates(chart, container);
    return chart;
  }, [points, currency]);
  return <div className="chart" ref={ref} style={{ height }} role="img" aria-label="Equity curve: cumulative P&L by day" />;
}

/** Monthly P&L bars on a time axis. */
export function MonthlyBars({ months, currency, height = 180 }: { months: ReadonlyArray<{ month: string; pl: number }>; currency: string; height?: number }) {
  const ref = useChart((container, palette) => {
    const chart = createMoneyTimeChart(container, palette, currency);
    const series = chart.addSeries(HistogramSeries, { priceLineVisible: false, lastValueVisible: false });
    series.setData(months.map((m) => ({ time: `${m.month.slice(0, 7)}-01` as Time, value: m.pl, color: m.pl >= 0 ? palette.pos : palette.neg })));
    fitAndReportDates(chart, container);
    return chart;
  }, [months, currency]);
  return <div className="chart" ref={ref} style={{ height }} role="img" aria-label="Monthly P&L" />;
}

