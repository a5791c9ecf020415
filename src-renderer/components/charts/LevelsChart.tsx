/** The levels across stored snapshots (/gex/history): spot as a line, the flip and both walls as step lines. */
import { createChart, LineSeries, LineStyle, LineType, type ISeriesApi, type LogicalRange, type Time, type UTCTimestamp } from 'lightweight-charts';
import type { GexHistoryResponseT } from '../../../src-shared/api/schemas';
import { fmtPrice } from '../../format';
import { baseOptions, useChart } from './base';
import { bucketFor, levelsToDraw, type LevelsPoint, type LevelsSeries } from './downsample';
import { newYorkWallSeconds, wallText, wallTickLabel } from './wall-clock';

const seconds = (iso: string) => Math.round(newYorkWallSeconds(Date.parse(iso))) as UTCTimestamp;

/**
 * Levels over time: spot as a line, the flip and both walls as step lines, one point per stored snapshot. The axis
 * is New York time (wall-clock.ts): a new year's tick shows the whole date, a day's `MM-DD`, a time `HH:mm`. The
 * wheel (or a pinch) zooms and a drag pans; more snapshots than pixels are drawn downsampled (downsample.ts), every
 * point once zoomed in to a pixel a snapshot. The element says how many points it draws (`data-drawn`, spot's) and
 * how wide its buckets are (`data-bucket`).
 */
export function LevelsChart({ history, height = 260 }: { history: GexHistoryResponseT; height?: number }) {
  const ref = useChart((container, palette) => {
    const wall = (time: Time) => (typeof time === 'number' ? time : 0);
    const base = baseOptions(palette);
    const chart = createChart(container, {
      ...base,
      localization: { priceFormatter: (v: number) => fmtPrice(v), timeFormatter: (time: Time) => `${wallText(wall(time))} ET` },
      timeScale: { ...base.timeScale, fixLeftEdge: true, fixRightEdge: true, timeVisible: true, tickMarkMaxCharacterLength: 10, tickMarkFormatter: (time: Time, type: number) => wallTickLabel(wall(time), type) },
      handleScroll: { mouseWheel: false, pressedMouseMove: true, horzTouchDrag: true, vertTouchDrag: false },
      handleScale: { mouseWheel: true, pinch: true, axisPressedMouseMove: { time: true, price: false }, axisDoubleClickReset: { time: true, price: false } },
    });
    // Snapshots quoted in the same second would be one time on the axis: the newest of them is kept.
    const byTime = new Map<number, GexHistoryResponseT['points'][number]>();
    for (const point of history.points) byTime.set(seconds(point.quoteTime), point);
    const sorted = [...byTime].sort(([a], [b]) => a - b);
    const times = sorted.map(([time]) => time as UTCTimestamp);
    const levels: LevelsPoint[] = sorted.map(([, p]) => ({ spot: p.spot, flip: p.gammaInflection, callWall: p.callWall?.strike ?? null, putWall: p.putWall?.strike ?? null }));
    const series = new Map<LevelsSeries, ISeriesApi<'Line'>>();
    const line = (name: LevelsSeries, color: string, title: string, step: boolean, style: LineStyle = LineStyle.Solid) => {
      series.set(name, chart.addSeries(LineSeries, { color, title, lineWidth: 2, lineStyle: style, lineType: step ? LineType.WithSteps : LineType.Simple, priceLineVisible: false, lastValueVisible: true, pointMarkersVisible: times.length < 40 }));
    };
    line('spot', palette.text, 'Spot', false);
    line('flip', palette.warn, 'Flip', true, LineStyle.Dashed);
    line('callWall', palette.pos, 'Call wall', true);
    line('putWall', palette.neg, 'Put wall', true);
    let bucket = 0;
    // Every snapshot stays a time of the axis (whitespace where a point is not drawn), so a new bucket width
    // redraws the lines without moving the axis.
    const draw = (next: number) => {
      if (next === bucket) return;
      bucket = next;
      const drawn = levelsToDraw(levels, next);
      for (const [name, api] of series) {
        const kept = new Set(drawn[name]);
        api.setData(times.map((time, i) => {
          const value = levels[i]?.[name] ?? null;
          return value === null || !kept.has(i) ? { time } : { time, value };
        }));
      }
      container.dataset.drawn = String(drawn.spot.length);
      container.dataset.bucket = String(next);
    };
    const plotWidth = () => Math.max(1, chart.timeScale().width() || container.clientWidth);
    const fit = (range: LogicalRange | null) => {
      const bars = range === null ? times.length : Math.min(times.length, range.to - range.from);
      draw(bucketFor(bars / plotWidth()));
    };
    fit(null);
    chart.timeScale().fitContent();
    let frame = 0;
    // A zoom redraws at most once a frame, and only when the bucket width changes (a power of two).
    chart.timeScale().subscribeVisibleLogicalRangeChange((range) => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => fit(range));
    });
    return {
      remove: () => {
        cancelAnimationFrame(frame);
        chart.remove();
      },
    };
  }, [history]);
  return <div className="chart" ref={ref} style={{ height }} role="img" aria-label={`${history.symbol} spot, gamma flip and walls across ${history.points.length} stored snapshots`} data-points={history.points.length} />;
}
