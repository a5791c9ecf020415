/**
 * "Your book on the dealers' map": the underlying's net GEX by strike from the very snapshot its positions are marked
 * from (`snapshot=` the mark's id: a past "As of" shows that day's chain, never the newest one's other strikes), in the
 * levels scope of the page (own: the expirations held short, nearest: /gex's default, book: 0–45 DTE, named in the
 * legend), the walls on top, spot and every short strike at the bottom, and under it each short strike in words: where
 * it is against spot and whether the snapshot lists it (a strike it does not list is drawn at the nearest one, and
 * says so).
 */
import { useMemo } from 'react';
import { LEVELS_SCOPE_LABELS, type LevelsScope } from '../../../src-shared/api/constants';
import type { GexResponseT, PositionJson } from '../../../src-shared/api/schemas';
import { gexScopeOf, scopeText } from '../../components/LevelsScope';
import { dealerMapMarkers, nearestStrike, netGexSeries, StrikeChart, type StrikeMarker, type StrikeSeries, useChartPalette } from '../../components/charts';
import { Loading } from '../../components/ui';
import { fmtDateTime, fmtExposure, fmtInt, fmtPrice } from '../../format';
import { useApi, useAsync } from '../../hooks';

interface ShortStrike {
  key: string;
  strike: number;
  right: string;
  contracts: number;
  /** The strike it is drawn at: the strike itself when the snapshot lists it. */
  drawnAt: number | null;
}

/**
 * The scope the map draws: under `own`, the expirations of the short options (those the snapshot lists: their levels
 * say so), together; otherwise the page's scope.
 */
export function mapScope(positions: readonly PositionJson[], levelsScope: LevelsScope): { scope: LevelsScope; expirations: string[] } {
  if (levelsScope !== 'own') return { scope: levelsScope, expirations: [] };
  const held = new Set<string>();
  for (const p of positions) if (p.isOption && p.quantity < 0 && p.levels?.scope === 'own') for (const e of p.levels.expirations) held.add(e);
  return held.size === 0 ? { scope: 'nearest', expirations: [] } : { scope: 'own', expirations: [...held].sort() };
}

export function BookOnMap({ symbol, positions, snapshotId, levelsScope = 'own' }: { symbol: string; positions: readonly PositionJson[]; snapshotId: number; levelsScope?: LevelsScope }) {
  const api = useApi();
  const palette = useChartPalette();
  const drawn = useMemo(() => mapScope(positions, levelsScope), [positions, levelsScope]);
  const scopeKey = `${drawn.scope}|${drawn.expirations.join(',')}`;
  const gex = useAsync<GexResponseT>((signal) => api.call('GET /gex', { query: { symbol, snapshot: snapshotId, ...gexScopeOf(drawn) } }, { signal }), [api, symbol, snapshotId, scopeKey]);
  const data = gex.data;
  const shorts = useMemo<ShortStrike[]>(() => {
    const strikes = data?.data.map((r) => r.strike) ?? [];
    const listed = new Set(strikes);
    return positions
      .filter((p) => p.isOption && p.strike !== null && p.quantity < 0)
      .map((p) => {
        const strike = p.strike ?? 0;
        return { key: `${p.accountId}|${p.symbol}`, strike, right: p.right ?? '', contracts: -p.quantity, drawnAt: listed.has(strike) ? strike : nearestStrike(strikes, strike) };
      });
  }, [data, positions]);
  const series = useMemo<StrikeSeries[]>(() => (data ? netGexSeries(data, palette) : []), [data, palette]);
  const markers = useMemo<StrikeMarker[]>(() => {
    if (!data) return [];
    const list = dealerMapMarkers(data, palette);
    for (const s of shorts) if (s.drawnAt !== null) list.push({ strike: s.drawnAt, label: `Short ${fmtPrice(s.strike)}${s.right} ×${fmtInt(s.contracts)}`, color: palette.accent, edge: 'bottom' });
    return list;
  }, [data, shorts, palette]);
  // The view opens on spot ± 15 %, widened to every short strike: a marker outside the view would be lost.
  const focus = useMemo(() => {
    if (!data) return undefined;
    const drawn = shorts.map((s) => s.drawnAt).filter((k): k is number => k !== null);
    return { from: Math.min(data.stockPrice * 0.85, ...drawn.map((k) => k * 0.99)), to: Math.max(data.stockPrice * 1.15, ...drawn.map((k) => k * 1.01)) };
  }, [data, shorts]);
  const formatValue = useMemo(() => (value: number) => fmtExposure(value, data?.meta.unit ?? 'shares'), [data]);
  if (gex.error) return <p className="muted small pad">No dealers&apos; map for {symbol}: {gex.error.message}</p>;
  if (!data) return <Loading label="Loading GEX…" />;
  return (
    <div className="book-map" data-testid={`map-${symbol}`} data-snapshot-id={data.meta.snapshotId} data-snapshot-time={data.meta.snapshotTime}>
      <StrikeChart series={series} markers={markers} focus={focus} formatValue={formatValue} label={`Net GEX by strike for ${symbol} with your short strikes`} height={260} />
      <ul className="map-legend small" data-testid={`map-shorts-${symbol}`}>
        <li className="muted" data-testid={`map-scope-${symbol}`}>
          Net GEX of {drawn.scope === 'own' ? (drawn.expirations.length === 1 ? scopeText({ scope: 'own', expirations: drawn.expirations }) : `the expirations you hold short (${drawn.expirations.length})`) : scopeText({ scope: drawn.scope, expirations: data.meta.expirations })} in
          the snapshot the marks come from, {fmtDateTime(data.meta.snapshotTime)} · spot {fmtPrice(data.stockPrice)}
          {data.callWall && <> · call wall {fmtPrice(data.callWall.strike)}</>}
          {data.putWall && <> · put wall {fmtPrice(data.putWall.strike)}</>}
          {drawn.scope !== levelsScope && <> ({LEVELS_SCOPE_LABELS[drawn.scope]}: no short option of its own expiration in this snapshot)</>}
        </li>
        {shorts.map((s) => {
          const fromSpot = ((s.strike - data.stockPrice) / data.stockPrice) * 100;
          return (
            <li key={s.key} data-strike={s.strike} data-drawn-at={s.drawnAt ?? ''}>
              <strong>
                Short {fmtPrice(s.strike)}
                {s.right} ×{fmtInt(s.contracts)}
              </strong>{' '}
              {Math.abs(fromSpot).toFixed(1)}% {fromSpot >= 0 ? 'above' : 'below'} spot
              {s.drawnAt === null ? (
                <span className="warn-text"> · not on this chain</span>
              ) : s.drawnAt !== s.strike ? (
                <span className="warn-text"> · not listed in this snapshot: drawn at {fmtPrice(s.drawnAt)}</span>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
