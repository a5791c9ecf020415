/** The gamma profile: net GEX at hypothetical spots (/gex/profile), green above the zero line and red below. */
import { BaselineSeries, createOptionsChart, createSeriesMarkers, LineStyle, type DeepPartial, type PriceChartOptions, type SeriesMarker } from 'lightweight-charts';
import type { GexProfileResponseT } from '../../../src-shared/api/schemas';
import { fmtPrice } from '../../format';
import { fixedOptions, textWidth, useChart, useElementWidth, zeroBaseline } from './base';
import { strikeWindow } from './strike-window';

/**
 * The profile curve: net GEX (the formula's unit) against a hypothetical spot, green above the zero line and red
 * below; spot and the flip marked on rows of their own, the other crossings (flipStatus multiple) by bare arrows.
 * Empty points beyond the sweep give a label near an end its room (strikeWindow), so none is cut.
 */
export function ProfileChart({ profile, formatValue, height = 280 }: { profile: GexProfileResponseT; formatValue: (value: number) => string; height?: number }) {
  const [wrapRef, width] = useElementWidth<HTMLDivElement>();
  const ref = useChart((container, palette) => {
    const fixed = fixedOptions(palette);
    const options: DeepPartial<PriceChartOptions> = {
      ...fixed,
      timeScale: { ...fixed.timeScale, ignoreWhitespaceIndices: true },
      localization: { priceFormatter: formatValue, timeFormatter: (x: number) => fmtPrice(x, 0) } as DeepPartial<PriceChartOptions['localization']>,
    };
    const chart = createOptionsChart(container, options);
    const series = chart.addSeries(BaselineSeries, {
      ...zeroBaseline(palette),
      lastValueVisible: false,
      priceFormat: { type: 'custom', formatter: formatValue, minMove: 0.01 },
    });
    // The axis is ordinal (points): whole-dollar spots keep it readable, the values keep their own spot.
    const data: Array<{ time: number; value?: number }> = profile.points.map((p) => ({ time: p.spot, value: p.netGEX }));
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
    for (const root of profile.flipRoots) {
      if (root !== profile.gammaInflection) markers.push({ time: nearest(root), position: 'atPriceBottom', price: bottom, shape: 'arrowUp', color: palette.warn, text: '' });
    }
    const index = new Map(profile.points.map((p, i) => [p.spot, i]));
    const labels = markers.filter((m) => m.text !== '').map((m) => ({ index: index.get(m.time) ?? 0, halfWidthPx: textWidth(m.text ?? '') / 2 + 6 }));
    const win = strikeWindow(data.length, { first: 0, last: data.length - 1 }, labels, Math.max((width > 0 ? width : container.clientWidth) - 70, 80));
    const first = profile.points[0]?.spot ?? 0;
    const last = profile.points[profile.points.length - 1]?.spot ?? 0;
    const step = profile.points.length > 1 ? (last - first) / (profile.points.length - 1) : 1;
    for (let j = 1; j <= win.padLeft; j += 1) data.unshift({ time: first - j * step });
    for (let j = 1; j <= win.padRight; j += 1) data.push({ time: last + j * step });
    series.setData(data);
    createSeriesMarkers(series, markers.sort((a, b) => a.time - b.time));
    chart.timeScale().fitContent();
    return chart;
  }, [profile, formatValue, width]);
  return (
    <div ref={wrapRef}>
      <div className="chart" ref={ref} style={{ height }} role="img" aria-label={`Gamma profile of ${profile.symbol}: net GEX at hypothetical spot levels`} data-points={profile.points.length} />
    </div>
  );
}
