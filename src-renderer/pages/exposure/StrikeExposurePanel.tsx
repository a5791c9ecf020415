/**
 * Exposure by strike: gamma (GEX) or delta (DEX) of the scope, calls, puts and net, with spot, the flip (and a dashed
 * line at each other crossing), the walls, the nearest expiration's max pain and its expected-move band marked.
 */
import { useMemo, useState } from 'react';
import type { GexResponseT } from '../../../src-shared/api/schemas';
import { nearestStrike, spotMarkers, type StrikeBand, StrikeChart, type StrikeLine, type StrikeMarker, type StrikeSeries, useChartPalette, useExposureTooltip } from '../../components/charts';
import { Panel, Segmented } from '../../components/ui';
import { fmtExposure, fmtInt, fmtNumber, fmtPrice } from '../../format';
import { listOfLevels } from './flip-words';
import { DEX_UNIT, fmtMove, fmtMovePct, type ExpirationDetail } from './KeyNumbers';

type Measure = 'gex' | 'dex';
const MEASURES = [
  { value: 'gex', label: 'Gamma', title: 'GEX: dealer gamma per strike, in the formula’s unit' },
  { value: 'dex', label: 'Delta', title: 'DEX: the open interest’s delta per strike, in shares (not scaled by the formula)' },
] as const;

export function StrikeExposurePanel({ gex, nearest }: { gex: GexResponseT; nearest: ExpirationDetail | undefined }) {
  const palette = useChartPalette();
  const [measure, setMeasure] = useState<Measure>('gex');
  const [visible, setVisible] = useState({ call: true, put: true, net: true });
  const unit = measure === 'gex' ? gex.meta.unit : DEX_UNIT;
  const series = useMemo<StrikeSeries[]>(() => {
    const pick = measure === 'gex' ? (['callGEX', 'putGEX', 'netGEX'] as const) : (['callDEX', 'putDEX', 'netDEX'] as const);
    const name = measure === 'gex' ? 'GEX' : 'DEX';
    const list: StrikeSeries[] = [];
    if (visible.call) list.push({ label: `Call ${name}`, color: palette.call, values: gex.data.map((r) => ({ strike: r.strike, value: r[pick[0]] })) });
    if (visible.put) list.push({ label: `Put ${name}`, color: palette.put, values: gex.data.map((r) => ({ strike: r.strike, value: r[pick[1]] })) });
    if (visible.net) list.push({ label: `Net ${name}`, color: palette.net, values: gex.data.map((r) => ({ strike: r.strike, value: r[pick[2]] })) });
    return list;
  }, [gex, visible, palette, measure]);
  const markers = useMemo<StrikeMarker[]>(() => {
    if (series.length === 0) return [];
    const strikes = gex.data.map((r) => r.strike);
    // Spot and flip stand on rows of their own at the bottom; the walls and max pain hang from rows at the top.
    const list = spotMarkers(strikes, gex.stockPrice, palette);
    if (gex.gammaInflection !== null) {
      const flip = nearestStrike(strikes, gex.gammaInflection);
      const label = gex.flipStatus === 'multiple' ? `Flip ${fmtPrice(gex.gammaInflection)} (1 of ${gex.flipRoots.length})` : `Flip ${fmtPrice(gex.gammaInflection)}`;
      if (flip !== null) list.push({ strike: flip, label, color: palette.warn, edge: 'bottom' });
    }
    if (gex.callWall) list.push({ strike: gex.callWall.strike, label: `Call wall ${fmtPrice(gex.callWall.strike)}`, color: palette.pos, edge: 'top' });
    if (gex.putWall) list.push({ strike: gex.putWall.strike, label: `Put wall ${fmtPrice(gex.putWall.strike)}`, color: palette.neg, edge: 'top' });
    const pain = nearest?.maxPain ?? null;
    if (pain !== null) {
      const at = nearestStrike(strikes, pain);
      if (at !== null) list.push({ strike: at, label: `Max pain ${fmtPrice(pain)}`, color: palette.muted, edge: 'top' });
    }
    return list;
  }, [gex, series.length, palette, nearest]);
  const band = useMemo<StrikeBand | undefined>(
    () => (nearest?.expectedMove == null ? undefined : { from: gex.stockPrice - nearest.expectedMove, to: gex.stockPrice + nearest.expectedMove }),
    [gex.stockPrice, nearest],
  );
  // The flip named has its marker; the other crossings (flipStatus multiple) are dashed lines.
  const others = useMemo(() => gex.flipRoots.filter((root) => root !== gex.gammaInflection), [gex.flipRoots, gex.gammaInflection]);
  const lines = useMemo<StrikeLine[]>(() => others.map((at) => ({ at, color: palette.warn })), [others, palette]);
  const focus = useMemo(() => ({ from: gex.stockPrice * 0.9, to: gex.stockPrice * 1.1 }), [gex.stockPrice]);
  const { formatValue, tooltip } = useExposureTooltip(
    gex.data,
    unit,
    (r) =>
      measure === 'gex'
        ? [
            ['Calls', fmtExposure(r.callGEX, unit)],
            ['Puts', fmtExposure(r.putGEX, unit)],
            ['Net', fmtExposure(r.netGEX, unit)],
            ['OI', `calls ${fmtInt(r.callOI)} · puts ${fmtInt(r.putOI)}`],
          ]
        : [
            ['Calls Δ', fmtExposure(r.callDEX, unit)],
            ['Puts Δ', fmtExposure(r.putDEX, unit)],
            ['Net Δ', fmtExposure(r.netDEX, unit)],
            ['OI', `calls ${fmtInt(r.callOI)} · puts ${fmtInt(r.putOI)}`],
          ],
    measure,
  );
  const title = measure === 'gex' ? 'Gamma exposure by strike' : 'Delta exposure by strike';

  return (
    <Panel
      title={title}
      id="gex-chart"
      actions={
        <>
          <Segmented label="Measure" value={measure} options={MEASURES} onChange={setMeasure} />
          <div className="legend" role="group" aria-label="Series">
            {(['call', 'put', 'net'] as const).map((key) => (
              <label key={key} className={`legend-item legend-${key}`}>
                <input type="checkbox" checked={visible[key]} onChange={(e) => setVisible({ ...visible, [key]: e.target.checked })} />
                <span className="swatch" aria-hidden="true" />
                {key === 'call' ? 'Calls' : key === 'put' ? 'Puts' : 'Net'}
              </label>
            ))}
            <span className="muted small">{unit}</span>
          </div>
        </>
      }
    >
      {gex.data.length === 0 ? (
        <p className="muted pad">No open interest in the chosen expirations.</p>
      ) : (
        <>
          <div className="legend legend-static" data-testid="strike-levels">
            {nearest && band && (
              <span className="legend-item legend-band" data-testid="expected-move-band">
                <span className="swatch" aria-hidden="true" />
                Expected move to {nearest.expiration}: {fmtMove(nearest)} ({fmtMovePct(nearest)}), {fmtNumber(band.from, 2)}–{fmtNumber(band.to, 2)}
              </span>
            )}
            {nearest?.maxPain != null && (
              <span className="legend-item legend-pain">
                <span className="swatch" aria-hidden="true" />
                Max pain {fmtPrice(nearest.maxPain)} ({nearest.expiration})
              </span>
            )}
            {others.length > 0 && (
              <span className="legend-item legend-flip">
                <span className="swatch swatch-dashed" aria-hidden="true" />
                {others.length === 1 ? 'Other crossing' : 'Other crossings'} {listOfLevels(others)}
              </span>
            )}
          </div>
          <StrikeChart
            series={series}
            markers={markers}
            focus={focus}
            formatValue={formatValue}
            tooltip={tooltip}
            band={band}
            lines={lines}
            label={`${title} for ${gex.symbol}`}
            height={360}
          />
        </>
      )}
    </Panel>
  );
}
