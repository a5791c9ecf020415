/** The key numbers of the scope and its exposure by strike. */
import { useMemo, useState } from 'react';
import type { GexResponseT } from '../../../src-shared/api/schemas';
import { chartPalette, nearestStrike, spotMarkers, StrikeChart, useExposureTooltip, type StrikeMarker, type StrikeSeries } from '../../components/charts';
import { Badge, Panel, Stat } from '../../components/ui';
import { fmtCount, fmtExposure, fmtInt, fmtNumber, fmtPrice } from '../../format';
import { useTheme } from '../../hooks';

export function GexPanel({ gex }: { gex: GexResponseT }) {
  const theme = useTheme();
  const unit = gex.meta.unit;
  const palette = useMemo(() => chartPalette(theme), [theme]);
  const [visible, setVisible] = useState({ call: true, put: true, net: true });
  const series = useMemo<StrikeSeries[]>(() => {
    const list: StrikeSeries[] = [];
    if (visible.call) list.push({ label: 'Call GEX', color: palette.call, values: gex.data.map((r) => ({ strike: r.strike, value: r.callGEX })) });
    if (visible.put) list.push({ label: 'Put GEX', color: palette.put, values: gex.data.map((r) => ({ strike: r.strike, value: r.putGEX })) });
    if (visible.net) list.push({ label: 'Net GEX', color: palette.net, values: gex.data.map((r) => ({ strike: r.strike, value: r.netGEX })) });
    return list;
  }, [gex, visible, palette]);
  const markers = useMemo<StrikeMarker[]>(() => {
    if (series.length === 0) return [];
    const strikes = gex.data.map((r) => r.strike);
    // Spot and flip stand on rows of their own at the bottom, the walls hang from rows at the top (StrikeMarker).
    const list = spotMarkers(strikes, gex.stockPrice, palette);
    if (gex.gammaInflection !== null) {
      const flip = nearestStrike(strikes, gex.gammaInflection);
      if (flip !== null) list.push({ strike: flip, label: `Flip ${fmtPrice(gex.gammaInflection)}`, color: palette.warn, edge: 'bottom' });
    }
    if (gex.callWall) list.push({ strike: gex.callWall.strike, label: `Call wall ${fmtPrice(gex.callWall.strike)}`, color: palette.pos, edge: 'top' });
    if (gex.putWall) list.push({ strike: gex.putWall.strike, label: `Put wall ${fmtPrice(gex.putWall.strike)}`, color: palette.neg, edge: 'top' });
    return list;
  }, [gex, series.length, palette]);
  const focus = useMemo(() => ({ from: gex.stockPrice * 0.9, to: gex.stockPrice * 1.1 }), [gex.stockPrice]);
  const { formatValue, tooltip } = useExposureTooltip(gex.data, unit, (r) => [
    ['Calls', fmtExposure(r.callGEX, unit)],
    ['Puts', fmtExposure(r.putGEX, unit)],
    ['Net', fmtExposure(r.netGEX, unit)],
    ['OI', `calls ${fmtInt(r.callOI)} · puts ${fmtInt(r.putOI)}`],
  ]);

  return (
    <>
      <div className="stats-grid stats-grid-6" data-testid="gex-key-numbers">
        <Stat label="Spot" value={fmtPrice(gex.stockPrice)} sub={fmtCount(gex.meta.contracts, 'contract')} />
        <Stat
          label="Total GEX"
          value={<span className={gex.totalGEX >= 0 ? 'pos' : 'neg'}>{fmtExposure(gex.totalGEX, unit)}</span>}
          sub={
            <Badge tone={gex.gammaZone === 'positive' ? 'pos' : 'neg'} title={gex.gammaZone === 'positive' ? 'Dealers long gamma: they dampen moves' : 'Dealers short gamma: they amplify moves'}>
              {gex.gammaZone} gamma
            </Badge>
          }
        />
        <Stat
          label="Gamma flip"
          value={fmtPrice(gex.gammaInflection)}
          sub={gex.gammaInflection !== null ? `${fmtNumber(((gex.gammaInflection - gex.stockPrice) / gex.stockPrice) * 100, 2)}% from spot` : 'no sign change within ±20%'}
        />
        <Stat label="Call wall" tone="tone-pos" value={gex.callWall ? fmtPrice(gex.callWall.strike) : '—'} sub={gex.callWall ? fmtExposure(gex.callWall.gex, unit) : 'no calls'} title="Largest call GEX: resistance / pin magnet" />
        <Stat label="Put wall" tone="tone-neg" value={gex.putWall ? fmtPrice(gex.putWall.strike) : '—'} sub={gex.putWall ? fmtExposure(gex.putWall.gex, unit) : 'no puts'} title="Most negative put GEX: support / acceleration point" />
        <Stat label="Expirations" value={fmtInt(gex.meta.expirations.length)} sub={gex.meta.expirations.length <= 3 ? gex.meta.expirations.join(', ') : `${gex.meta.expirations[0]} … ${gex.meta.expirations[gex.meta.expirations.length - 1]}`} />
      </div>
      <Panel
        title="Gamma exposure by strike"
        id="gex-chart"
        actions={
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
        }
      >
        {gex.data.length === 0 ? (
          <p className="muted pad">No open interest in the chosen expirations.</p>
        ) : (
          <StrikeChart series={series} markers={markers} focus={focus} formatValue={formatValue} tooltip={tooltip} label={`Gamma exposure by strike for ${gex.symbol}`} height={360} />
        )}
      </Panel>
    </>
  );
}
