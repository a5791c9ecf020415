/** The levels across stored snapshots (/gex/history): spot as a line, the flip and both walls as step lines. */
import { createChart, LineSeries, LineStyle, LineType, type Time, type UTCTimestamp } from 'lightweight-charts';
import type { GexHistoryResponseT } from '../../../src-shared/api/schemas';
import { fmtPrice } from '../../format';
import { fixedOptions, useChart } from './base';
import { newYorkWallSeconds, wallText, wallTickLabel } from './wall-clock';

const seconds = (iso: string) => Math.round(newYorkWallSeconds(Date.parse(iso))) as UTCTimestamp;

/**
 * Levels over time: spot as a line, the flip and both walls as step lines, one point per stored snapshot. The axis
 * is New York time (wall-clock.ts): a new year's tick shows the whole date, a day's `MM-DD`, a time `HH:mm`.
 */
export function LevelsChart({ history, height = 260 }: { history: GexHistoryResponseT; height?: number }) {
  const ref = useChart((container, palette) => {
    const wall = (time: Time) => (typeof time === 'number' ? time : 0);
    const fixed = fixedOptions(palette);
    const chart = createChart(container, {
      ...fixed,
      localization: { priceFormatter: (v: number) => fmtPrice(v), timeFormatter: (time: Time) => `${wallText(wall(time))} ET` },
      timeScale: { ...fixed.timeScale, timeVisible: true, tickMarkMaxCharacterLength: 10, tickMarkFormatter: (time: Time, type: number) => wallTickLabel(wall(time), type) },
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
