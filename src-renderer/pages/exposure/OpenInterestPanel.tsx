import { useCallback, useMemo, useState } from 'react';
import type { GexResponseT } from '../../../src-shared/api/schemas';
import { nearestStrike, spotMarkers, StrikeChart, type StrikeMarker, type StrikeSeries, type TooltipLine, useChartPalette } from '../../components/charts';
import { Panel, Segmented } from '../../components/ui';
import { fmtInt, fmtPrice } from '../../format';
import type { ExpirationDetail } from './KeyNumbers';

/** Contracts on an axis: `12.3k`, `1.20m`, `850` (puts are drawn below zero; the axis shows their size). */
export function fmtContracts(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e6) return `${(abs / 1e6).toFixed(2)}m`;
  if (abs >= 1e4) return `${(abs / 1e3).toFixed(1)}k`;
  return fmtInt(abs);
}

type Measure = 'oi' | 'volume';
const MEASURES = [
  { value: 'oi', label: 'Open interest', title: 'Open contracts at the previous close' },
  { value: 'volume', label: 'Volume', title: 'Contracts traded in the session of the snapshot' },
] as const;

/**
 * Open interest, or the session's volume, by strike over the page's scope (/gex rows): calls above the line, puts
 * below, spot and the nearest expiration's max pain marked. A snapshot without volume keeps the chart on open interest.
 */
export function OpenInterestPanel({ gex, nearest }: { gex: GexResponseT; nearest: ExpirationDetail | undefined }) {
  const palette = useChartPalette();
  const [chosen, setChosen] = useState<Measure>('oi');
  const hasVolume = gex.data.some((r) => r.callVolume !== null);
  const measure: Measure = hasVolume ? chosen : 'oi';
  const series = useMemo<StrikeSeries[]>(
    () =>
      measure === 'oi'
        ? [
            { label: 'Call OI', color: palette.call, values: gex.data.map((r) => ({ strike: r.strike, value: r.callOI })) },
            { label: 'Put OI', color: palette.put, values: gex.data.map((r) => ({ strike: r.strike, value: -r.putOI })) },
          ]
        : [
            { label: 'Call volume', color: palette.call, values: gex.data.map((r) => ({ strike: r.strike, value: r.callVolume ?? 0 })) },
            { label: 'Put volume', color: palette.put, values: gex.data.map((r) => ({ strike: r.strike, value: -(r.putVolume ?? 0) })) },
          ],
    [gex, palette, measure],
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
      const lines: TooltipLine[] = [
        ['Strike', fmtPrice(strike)],
        ['Call OI', fmtInt(r.callOI)],
        ['Put OI', fmtInt(r.putOI)],
      ];
      if (r.callVolume !== null) lines.push(['Call volume', fmtInt(r.callVolume)]);
      if (r.putVolume !== null) lines.push(['Put volume', fmtInt(r.putVolume)]);
      return lines;
    },
    [byStrike],
  );
  const focus = useMemo(() => ({ from: gex.stockPrice * 0.9, to: gex.stockPrice * 1.1 }), [gex.stockPrice]);
  return (
    <Panel
      title={measure === 'oi' ? 'Open interest by strike' : 'Volume by strike'}
      id="oi-chart"
      actions={
        <>
          {hasVolume ? (
            <Segmented label="Open interest or volume" value={measure} options={MEASURES} onChange={setChosen} />
          ) : (
            <span className="muted small" data-testid="no-volume">
              no volume in this snapshot
            </span>
          )}
          <span className="muted small">contracts · calls up, puts down</span>
        </>
      }
    >
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
          <StrikeChart series={series} markers={markers} focus={focus} formatValue={fmtContracts} tooltip={tooltip} label={`${measure === 'oi' ? 'Open interest' : 'Volume'} by strike for ${gex.symbol}`} height={260} />
        </>
      )}
    </Panel>
  );
}
