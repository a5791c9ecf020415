/**
 * The Exposure page's charts over levels and time: the gamma profile (net GEX at hypothetical spots), the levels
 * across stored snapshots (spot, flip and walls as step lines), and the roll-off of gamma per expiration.
 */
import { BaselineSeries, createChart, createOptionsChart, createSeriesMarkers, LineSeries, LineStyle, LineType, type DeepPartial, type PriceChartOptions, type SeriesMarker, type Time, type UTCTimestamp } from 'lightweight-charts';
import type { GexHistoryResponseT, GexProfileResponseT } from '../../../src-shared/api/schemas';
import { fmtDateTime, fmtPct, fmtPrice } from '../../format';
import { fixedOptions, useChart, zeroBaseline } from './StrikeChart';

/**
 * The profile curve: net GEX (the formula's unit) against a hypothetical spot, green above the zero line and red
 * below; spot and the flip marked on rows of their own.
 */
export function ProfileChart({ profile, formatValue, height = 280 }: { profile: GexProfileResponseT; formatValue: (value: number) => string; height?: number }) {
  const ref = useChart((container, palette) => {
    const options: DeepPartial<PriceChartOptions> = {
      ...fixedOptions(palette),
      localization: { priceFormatter: formatValue, timeFormatter: (x: number) => fmtPrice(x, 0) } as DeepPartial<PriceChartOptions['localization']>,
    };
    const chart = createOptionsChart(container, options);
    const series = chart.addSeries(BaselineSeries, {
      ...zeroBaseline(palette),
      lastValueVisible: false,
      priceFormat: { type: 'custom', formatter: formatValue, minMove: 0.01 },
    });
    // The axis is ordinal (points): whole-dollar spots keep it readable, the values keep their own spot.
    series.setData(profile.points.map((p) => ({ time: p.spot, value: p.netGEX })));
    series.createPriceLine({ price: 0, color: palette.muted, lineWidth: 1, lineStyle: LineStyle.Dashed, axisLabelVisible: false, title: 'zero' });
    const nearest = (level: number) => profile.points.reduce((best, p) => (Math.abs(p.spot - level) < Math.abs(best - level) ? p.spot : best), profile.points[0]?.spot ?? level);
    // Spot hangs from the top of the curve's range and the flip stands on its bottom: near each other (the flip is
    // often within 1% of spot) their labels would overlap on the curve.
    const values = profile.points.map((p) => p.netGEX);
    const top = Math.max(...values, 0);
    const bottom = Math.min(...values, 0);
    const markers: Array<SeriesMarker<number>> = [{ time: nearest(profile.stockPrice), position: 'atPriceTop', price: top, shape: 'arrowDown', color: palette.text, text: `Spot ${fmtPrice(profile.stockPrice)}` }];
    if (profile.gammaInflection !== null) {
      markers.push({ time: nearest(profile.gammaInflection), position: 'atPriceBottom', price: bottom, shape: 'arrowUp', color: palette.warn, text: `Flip ${fmtPrice(profile.gammaInflection)}` });
    }
    createSeriesMarkers(series, markers.sort((a, b) => a.time - b.time));
    chart.timeScale().fitContent();
    return chart;
  }, [profile, formatValue]);
  return <div className="chart" ref={ref} style={{ height }} role="img" aria-label={`Gamma profile of ${profile.symbol}: net GEX at hypothetical spot levels`} data-points={profile.points.length} />;
}

const seconds = (iso: string) => Math.round(Date.parse(iso) / 1000) as UTCTimestamp;

/**
 * Levels over time: spot as a line, the flip and both walls as step lines, one point per stored snapshot. Times are
 * shown in New York (the axis labels are formatted, the points stay UTC instants).
 */
export function LevelsChart({ history, height = 260 }: { history: GexHistoryResponseT; height?: number }) {
  const ref = useChart((container, palette) => {
    const toText = (time: Time) => (typeof time === 'number' ? fmtDateTime(new Date(time * 1000).toISOString()) : String(time));
    const fixed = fixedOptions(palette);
    const chart = createChart(container, {
      ...fixed,
      localization: { priceFormatter: (v: number) => fmtPrice(v), timeFormatter: toText },
      timeScale: { ...fixed.timeScale, timeVisible: true, tickMarkFormatter: (time: Time) => toText(time).slice(5, 16) },
    });
    // Snapshots quoted in the same second would be one time on the axis: the newest of them is kept.
    const byTime = new Map<number, GexHistoryResponseT['points'][number]>();
    for (const point of history.points) byTime.set(seconds(point.quoteTime), point);
    const points = [...byTime].sort(([a], [b]) => a - b);
    const line = (color: string, title: string, pick: (p: GexHistoryResponseT['points'][number]) => number | null, step: boolean, style: LineStyle = LineStyle.Solid) => {
      const series = chart.addSeries(LineSeries, { color, title, lineWidth: 2, lineStyle: style, lineType: step ? LineType.WithSteps : LineType.Simple, priceLineVisible: false, lastValueVisible: true, pointMarkersVisible: points.length < 40 });
      series.setData(points.map(([time, p]) => {
        const value = pick(p);
        return value === null ? { time: time as UTCTimestamp } : { time: time as UTCTimestamp, value };
      }));
    };
    line(palette.text, 'Spot', (p) => p.spot, false);
    line(palette.warn, 'Flip', (p) => p.gammaInflection, true, LineStyle.Dashed);
    line(palette.pos, 'Call wall', (p) => p.callWall?.strike ?? null, true);
    line(palette.neg, 'Put wall', (p) => p.putWall?.strike ?? null, true);
    chart.timeScale().fitContent();
    return chart;
  }, [history]);
  return <div className="chart" ref={ref} style={{ height }} role="img" aria-label={`${history.symbol} spot, gamma flip and walls across ${history.points.length} stored snapshots`} data-points={history.points.length} />;
}

/** Gamma per expiration as shares of the book: what rolls off at each date. */
export function RollOffBars({ details, limit = 12 }: { details: ReadonlyArray<{ expiration: string; dte: number; gammaShare: number; openInterest: number }>; limit?: number }) {
  const shown = details.slice(0, limit);
  const largest = Math.max(...shown.map((d) => d.gammaShare), 0);
  const rest = details.slice(limit).reduce((sum, d) => sum + d.gammaShare, 0);
  return (
    <div className="rolloff" role="list" aria-label="Share of the book's gamma per expiration" data-testid="rolloff">
      {shown.map((d) => (
        <div key={d.expiration} className="rolloff-row" role="listitem" title={`${d.expiration}: ${fmtPct(d.gammaShare, 2)} of the book's absolute gamma`}>
          <span className="rolloff-date">
            {d.expiration} <span className="muted">{d.dte}d</span>
          </span>
          <span className="rolloff-track">
            <span className="rolloff-bar" style={{ width: `${largest > 0 ? (d.gammaShare / largest) * 100 : 0}%` }} />
          </span>
          <span className="rolloff-value">{fmtPct(d.gammaShare, 1)}</span>
        </div>
      ))}
      {rest > 0 && (
        <div className="rolloff-row muted" role="listitem">
          <span className="rolloff-date">{details.length - limit} later</span>
          <span className="rolloff-track" />
          <span className="rolloff-value">{fmtPct(rest, 1)}</span>
        </div>
      )}
    </div>
  );
}
