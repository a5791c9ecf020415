/**
 * A trade's entry on the dealers' map: the net GEX by strike of the snapshot its entry figures come from (`at=` its
 * quote time: the chain as it stood when the trade was opened), the walls on top, spot and the trade's main strike at
 * the bottom, and the place in words ("Sold below the put wall").
 */
import { useMemo } from 'react';
import type { GexResponseT, TradeJson } from '../../../src-shared/api/schemas';
import { dealerMapMarkers, nearestStrike, netGexSeries, StrikeChart, type StrikeMarker, type StrikeSeries, useChartPalette } from '../../components/charts';
import { Loading } from '../../components/ui';
import { fmtDateTime, fmtExposure, fmtPrice } from '../../format';
import { useApi, useAsync } from '../../hooks';

export function EntryOnMap({ trade }: { trade: TradeJson }) {
  const api = useApi();
  const palette = useChartPalette();
  const quoteTime = trade.entrySnapshot?.quoteTime ?? '';
  const gex = useAsync<GexResponseT>((signal) => api.gex({ symbol: trade.underlying, at: quoteTime }, signal), [api, trade.underlying, quoteTime]);
  const data = gex.data;
  const leg = trade.mainLeg;
  const series = useMemo<StrikeSeries[]>(() => (data ? netGexSeries(data, palette) : []), [data, palette]);
  const drawnAt = useMemo(() => (data && leg ? nearestStrike(data.data.map((r) => r.strike), leg.strike) : null), [data, leg]);
  const markers = useMemo<StrikeMarker[]>(() => {
    if (!data) return [];
    const list = dealerMapMarkers(data, palette);
    if (leg && drawnAt !== null) list.push({ strike: drawnAt, label: `${leg.side === 'short' ? 'Sold' : 'Bought'} ${fmtPrice(leg.strike)}${leg.right}`, color: palette.accent, edge: 'bottom' });
    return list;
  }, [data, leg, drawnAt, palette]);
  const focus = useMemo(() => {
    if (!data) return undefined;
    const strikes = drawnAt === null ? [] : [drawnAt];
    return { from: Math.min(data.stockPrice * 0.85, ...strikes.map((k) => k * 0.99)), to: Math.max(data.stockPrice * 1.15, ...strikes.map((k) => k * 1.01)) };
  }, [data, drawnAt]);
  const formatValue = useMemo(() => (value: number) => fmtExposure(value, data?.meta.unit ?? 'shares'), [data]);
  if (gex.error) return <p className="muted small pad">No dealers&apos; map of the entry: {gex.error.message}</p>;
  if (!data) return <Loading label="Loading the entry's GEX…" />;
  return (
    <div className="book-map" data-testid="entry-map" data-snapshot-time={data.meta.snapshotTime}>
      <StrikeChart series={series} markers={markers} focus={focus} formatValue={formatValue} label={`Net GEX by strike for ${trade.underlying} when the trade was opened, with its strike`} height={240} />
      <p className="muted small">
        Net GEX of the snapshot at entry, {fmtDateTime(data.meta.snapshotTime)} · spot {fmtPrice(data.stockPrice)}
      </p>
    </div>
  );
}
