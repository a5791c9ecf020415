import { useCallback, useMemo } from 'react';
import type { GexResponseT } from '../../../src-shared/api/schemas';
import { chartPalette, nearestStrike, spotMarkers, StrikeChart, type StrikeMarker, type StrikeSeries, type TooltipLine } from '../../components/charts';
import { Panel } from '../../components/ui';
import { fmtInt, fmtPrice } from '../../format';
import { useTheme } from '../../hooks';
import type { ExpirationDetail } from './KeyNumbers';

/** Contracts on an axis: `12.3k`, `1.20m`, `850` (puts are drawn below zero; the axis shows their size). */
export function fmtContracts(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e6) return `${(abs / 1e6).toFixed(2)}m`;
  if (abs >= 1e4) return `${(abs / 1e3).toFixed(1)}k`;
  return fmtInt(abs);
}

/**
 * Open interest by strike over the page's scope (/gex rows): calls above the line, puts below, spot and the nearest
 * expiration's max pain marked. Volume comes per expiration only (/v1/expirations): it is in the table.
 */
export function OpenInterestPanel({ gex, nearest }: { gex: GexResponseT; nearest: ExpirationDetail | undefined }) {
  const theme = useTheme();
  const palette = useMemo(() => chartPalette(theme), [theme]);
  const series = useMemo<StrikeSeries[]>(
    () => [
      { label: 'Call OI', color: palette.call, values: gex.data.map((r) => ({ strike: r.strike, value: r.callOI })) },
      { label: 'Put OI', color: palette.put, values: gex.data.map((r) => ({ strike: r.strike, value: -r.putOI })) },
    ],
    [gex, palette],
  );
  const markers = useMemo<StrikeMarker[]>(() => {
    const strikes = gex.data.map((r) => r.strike);
    const list = spotMarkers(strikes, gex.stockPrice, palette);
    const pain = nearest?.maxPain ?? null;
    const at = pain === null ? null : nearestStrike(strikes, pain);
    if (pain !== null && at !== null) list.push({ strike: at, label: `Max pain ${fmtPrice(pain)}`, color: palette.muted, edge: 'top' });
    return list;
  }, [gex, palette, nearest]);
  const byStrike = useMemo(() => new Map(gex.data.map((r) => [r.strike, r])), [gex]);
  const tooltip = useCallback(
    (strike: number): TooltipLine[] | null => {
      const r = byStrike.get(strike);
      if (!r) return null;
      return [
        ['Strike', fmtPrice(strike)],
        ['Call OI', fmtInt(r.callOI)],
        ['Put OI', fmtInt(r.putOI)],
      ];
    },
    [byStrike],
  );
  const focus = useMemo(() => ({ from: gex.stockPrice * 0.9, to: gex.stockPrice * 1.1 }), [gex.stockPrice]);
  return (
    <Panel title="Open interest by strike" id="oi-chart" actions={<span className="muted small">contracts · calls up, puts down</span>}>
      {gex.data.length === 0 ? (
        <p className="muted pad">No open interest in the chosen expirations.</p>
      ) : (
        <>
          <div className="legend legend-static">
            <span className="legend-item legend-call">
              <span className="swatch" aria-hidden="true" />
              Calls
            </span>
            <span className="legend-item legend-put">
              <span className="swatch" aria-hidden="true" />
              Puts
            </span>
          </div>
          <StrikeChart series={series} markers={markers} focus={focus} formatValue={fmtContracts} tooltip={tooltip} label={`Open interest by strike for ${gex.symbol}`} height={260} />
        </>
      )}
    </Panel>
  );
}
