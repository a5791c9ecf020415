/** The levels across stored snapshots (/gex/history): spot as a line, the flip and both walls as step lines. */
import { createChart, LineSeries, LineStyle, LineType, type Time, type UTCTimestamp } from 'lightweight-charts';
import type { GexHistoryResponseT } from '../../../src-shared/api/schemas';
import { fmtDateTime, fmtPrice } from '../../format';
import { fixedOptions, useChart } from './base';

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
