/** The gamma profile: net GEX at hypothetical spots (/gex/profile), green above the zero line and red below. */
import { BaselineSeries, createOptionsChart, createSeriesMarkers, LineStyle, type DeepPartial, type PriceChartOptions, type SeriesMarker } from 'lightweight-charts';
import type { GexProfileResponseT } from '../../../src-shared/api/schemas';
import { fmtPrice } from '../../format';
import { fixedOptions, useChart, zeroBaseline } from './base';

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
