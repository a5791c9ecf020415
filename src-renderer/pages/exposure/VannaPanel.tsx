/** Vanna and charm: the key levels and the two-pane chart by strike (/vanna). */
import { useCallback, useMemo, useState } from 'react';
import type { VannaResponseT } from '../../../src-shared/api/schemas';
import { nearestStrike, spotMarkers, StrikeChart, type StrikeMarker, type StrikeSeries, useChartPalette } from '../../components/charts';
import { AsyncStatus, Badge, Options, Panel, Stat } from '../../components/ui';
import { fmtCount, fmtExposure, fmtNumber, fmtPrice } from '../../format';
import { useApi, useAsync } from '../../hooks';
import { dteOf } from './scope';
import { FIGURE_WORDS as W } from './figure-words';

export function VannaPanel({ symbol, snapshotTime, snapshot }: { symbol: string; snapshotTime: string; snapshot: number | null }) {
  const api = useApi();
  const palette = useChartPalette();
  const [expiration, setExpiration] = useState('');
  const vanna = useAsync(
    (signal) => api.call('GET /vanna', { query: { symbol, ...(expiration === '' ? {} : { expiration }), ...(snapshot === null ? {} : { snapshot }) } }, { signal }),
    [api, symbol, expiration, snapshotTime, snapshot],
  );
  const v: VannaResponseT | undefined = vanna.data;
  const series = useMemo<StrikeSeries[]>(
    () =>
      v
        ? [
            { label: 'Vanna', color: palette.net, values: v.data.map((r) => ({ strike: r.strike, value: r.vanna })) },
            { label: 'Charm', color: palette.warn, values: v.data.map((r) => ({ strike: r.strike, value: r.charm })), pane: 1 },
          ]
        : [],
    [v, palette],
  );
  const markers = useMemo<StrikeMarker[]>(() => {
    if (!v) return [];
    const strikes = v.data.map((r) => r.strike);
    const list = spotMarkers(strikes, v.stockPrice, palette);
    const add = (level: number | null, label: string, color: string, edge: 'top' | 'bottom') => {
      if (level === null) return;
      const k = nearestStrike(strikes, level);
      if (k !== null) list.push({ strike: k, label: `${label} ${fmtPrice(level)}`, color, edge });
    };
    add(v.keyLevels.vannaFlip, 'Vanna flip', palette.warn, 'bottom');
    add(v.keyLevels.bullDriftTarget, 'Bull target', palette.pos, 'top');
    add(v.keyLevels.bearMaxDanger, 'Bear danger', palette.neg, 'top');
    return list;
  }, [v, palette]);
  const focus = useMemo(() => (v ? { from: v.stockPrice * 0.9, to: v.stockPrice * 1.1 } : undefined), [v]);
  const fmtUsd = useCallback((x: number) => fmtExposure(x, 'USD', false), []);

  return (
    <Panel
      title="Vanna & charm"
      id="vanna"
      actions={
        <label className="field-inline">
          Scope
          <select value={expiration} onChange={(e) => setExpiration(e.target.value)} data-testid="vanna-scope">
            <option value="">0–45 DTE aggregate</option>
            <Options items={v?.availableExpirations} label={(exp) => `${exp} (${dteOf(exp, snapshotTime)}d)`} />
          </select>
        </label>
      }
    >
      <AsyncStatus state={vanna} />
      {v && (
        <>
          <div className="stats-grid stats-grid-fixed4 inner" data-testid="vanna-levels">
            <Stat
              label="Vanna regime"
              value={<Badge tone={v.keyLevels.vannaRegime === 'positive' ? 'pos' : 'neg'}>{v.keyLevels.vannaRegime}</Badge>}
              sub={`${v.mode === 'aggregate' ? `${v.minDte}–${v.maxDte} DTE` : `${v.expiration ?? ''} (${v.minDte}d)`} · ${fmtCount(v.meta.contracts, 'contract')}`}
              title={W.vannaRegime.long}
              explain={W.vannaRegime.short}
            />
            <Stat label="Total vanna" value={<span className={v.totalVanna >= 0 ? 'pos' : 'neg'}>{fmtExposure(v.totalVanna, 'USD')}</span>} sub={W.totalVanna.short} title={W.totalVanna.long} testId="total-vanna" />
            <Stat label="Total charm" value={<span className={v.totalCharm >= 0 ? 'pos' : 'neg'}>{fmtExposure(v.totalCharm, 'USD')}</span>} sub={W.totalCharm.short} title={W.totalCharm.long} testId="total-charm" />
            <Stat label="Vanna flip" value={fmtPrice(v.keyLevels.vannaFlip)} sub={W.vannaFlip.short} title={W.vannaFlip.long} />
            <Stat label="Bull drift target" tone="tone-pos" value={fmtPrice(v.keyLevels.bullDriftTarget)} sub={W.bullDriftTarget.short} title={W.bullDriftTarget.long} />
            <Stat label="Bear max danger" tone="tone-neg" value={fmtPrice(v.keyLevels.bearMaxDanger)} sub={W.bearMaxDanger.short} title={W.bearMaxDanger.long} />
            <Stat label="Bear deceleration" value={fmtPrice(v.keyLevels.bearDeceleration)} sub={W.bearDeceleration.short} title={W.bearDeceleration.long} />
            <Stat label="Bull / bear ratio" value={v.keyLevels.bullBearRatio === null ? '—' : fmtNumber(v.keyLevels.bullBearRatio, 2)} sub={W.bullBearRatio.short} title={W.bullBearRatio.long} />
          </div>
          {v.data.length > 0 ? (
            <>
              <div className="legend legend-static">
                <span className="legend-item legend-net">
                  <span className="swatch" aria-hidden="true" />
                  Vanna ($ of dealer Δ per +1 vol point)
                </span>
                <span className="legend-item legend-charm">
                  <span className="swatch" aria-hidden="true" />
                  Charm ($ of dealer Δ per day, lower pane)
                </span>
              </div>
              <StrikeChart series={series} markers={markers} focus={focus} formatValue={fmtUsd} formatPane2={fmtUsd} label={`Vanna and charm by strike for ${v.symbol}`} height={380} pane2Height={150} />
            </>
          ) : (
            <p className="muted pad">No contracts in this scope.</p>
          )}
        </>
      )}
    </Panel>
  );
}
