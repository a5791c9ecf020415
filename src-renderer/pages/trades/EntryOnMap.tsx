/**
 * A trade's entry on the dealers' map: the net GEX by strike of the snapshot its entry figures come from (`at=` its
 * quote time: the chain as it stood when the trade was opened) in the scope of its levels at entry (own: its main
 * leg's expiration alone, named under the chart), the walls on top, spot and every short strike at the bottom (a
 * strangle's put and call; the main strike when nothing was sold).
 */
import { useMemo } from 'react';
import type { GexResponseT, TradeJson } from '../../../src-shared/api/schemas';
import { dealerMapMarkers, nearestStrike, netGexSeries, StrikeChart, type StrikeMarker, type StrikeSeries, useChartPalette } from '../../components/charts';
import { Loading } from '../../components/ui';
import { fmtDateTime, fmtExposure, fmtPrice } from '../../format';
import { useApi, useAsync } from '../../hooks';
import { gexScopeOf, scopeText } from '../../components/LevelsScope';

export function EntryOnMap({ trade }: { trade: TradeJson }) {
  const api = useApi();
  const palette = useChartPalette();
  const quoteTime = trade.entrySnapshot?.quoteTime ?? '';
  const levels = trade.levelsAtEntry;
  const scope = gexScopeOf(levels);
  const scopeKey = JSON.stringify(scope);
  const gex = useAsync<GexResponseT>((signal) => api.call('GET /gex', { query: { symbol: trade.underlying, at: quoteTime, ...scope } }, { signal }), [api, trade.underlying, quoteTime, scopeKey]);
  const data = gex.data;
  const leg = trade.mainLeg;
  const series = useMemo<StrikeSeries[]>(() => (data ? netGexSeries(data, palette) : []), [data, palette]);
  // Every short leg, each drawn at the nearest listed strike; a structure without one shows its main (long) leg.
  const drawn = useMemo(() => {
    if (!data) return [];
    const strikes = data.data.map((r) => r.strike);
    const legs = (levels?.shortStrikes.length ?? 0) > 0 ? (levels?.shortStrikes ?? []).map((s) => ({ strike: s.strike, right: s.right, sold: true })) : leg ? [{ strike: leg.strike, right: leg.right, sold: leg.side === 'short' }] : [];
    return legs.flatMap((l) => {
      const at = nearestStrike(strikes, l.strike);
      return at === null ? [] : [{ ...l, at }];
    });
  }, [data, levels, leg]);
  const markers = useMemo<StrikeMarker[]>(() => {
    if (!data) return [];
    const list = dealerMapMarkers(data, palette);
    for (const l of drawn) list.push({ strike: l.at, label: `${l.sold ? 'Sold' : 'Bought'} ${fmtPrice(l.strike)}${l.right}`, color: palette.accent, edge: 'bottom' });
    return list;
  }, [data, drawn, palette]);
  const focus = useMemo(() => {
    if (!data) return undefined;
    const strikes = drawn.map((l) => l.at);
    return { from: Math.min(data.stockPrice * 0.85, ...strikes.map((k) => k * 0.99)), to: Math.max(data.stockPrice * 1.15, ...strikes.map((k) => k * 1.01)) };
  }, [data, drawn]);
  const formatValue = useMemo(() => (value: number) => fmtExposure(value, data?.meta.unit ?? 'shares'), [data]);
  if (gex.error) return <p className="muted small pad">No dealers&apos; map of the entry: {gex.error.message}</p>;
  if (!data) return <Loading label="Loading the entry's GEX…" />;
  return (
    <div className="book-map" data-testid="entry-map" data-snapshot-time={data.meta.snapshotTime} data-strikes={drawn.map((l) => `${l.strike}${l.right}`).join(',')}>
      <StrikeChart series={series} markers={markers} focus={focus} formatValue={formatValue} label={`Net GEX by strike for ${trade.underlying} when the trade was opened, with its strike`} height={240} />
      <p className="muted small">
        Net GEX of {levels === null ? 'the 3 nearest expirations' : scopeText(levels)} in the snapshot at entry, {fmtDateTime(data.meta.snapshotTime)} · spot {fmtPrice(data.stockPrice)}
      </p>
    </div>
  );
}
