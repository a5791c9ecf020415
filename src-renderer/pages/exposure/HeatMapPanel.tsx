import { useCallback, useMemo, useState } from 'react';
import type { Formula } from '../../../src-shared/api/constants';
import { HeatMap, type HeatScaleMode } from '../../components/charts';
import { AsyncStatus, Panel, Segmented } from '../../components/ui';
import { fmtCount, fmtExposure, fmtPrice } from '../../format';
import { useApi, useAsync } from '../../hooks';
import { dteOf } from './scope';

const HORIZONS = [
  { value: 'all', label: 'All', title: 'Every unexpired expiration' },
  { value: '7', label: '≤ 7d', title: 'Expirations within 7 days (maxDte=7)' },
  { value: '30', label: '≤ 30d', title: 'Expirations within 30 days (maxDte=30)' },
  { value: '90', label: '≤ 90d', title: 'Expirations within 90 days (maxDte=90)' },
] as const;
type Horizon = (typeof HORIZONS)[number]['value'];

const SCALES = [
  { value: 'grid', label: 'Whole grid', title: 'One colour scale: the largest cell of the grid is the strongest colour' },
  { value: 'row', label: 'Per expiration', title: 'Each row against its own largest cell: where each expiration’s gamma sits' },
] as const;

/**
 * Net GEX per strike × expiration (/v1/gex/grid) on a canvas: the whole chain at once, or the expirations within 7,
 * 30 or 90 days; strikes within ±20 % of spot.
 */
export function HeatMapPanel({ symbol, formula, snapshot, snapshotTime, dteByExpiration }: { symbol: string; formula: Formula; snapshot: number | null; snapshotTime: string; dteByExpiration: ReadonlyMap<string, number> }) {
  const api = useApi();
  const [horizon, setHorizon] = useState<Horizon>('all');
  const [mode, setMode] = useState<HeatScaleMode>('grid');
  const grid = useAsync(
    (signal) => api.call('GET /gex/grid', { query: { symbol, formula, ...(horizon === 'all' ? {} : { maxDte: Number(horizon) }), ...(snapshot === null ? {} : { snapshot }) } }, { signal }),
    [api, symbol, formula, horizon, snapshot, snapshotTime],
  );
  const g = grid.data;
  const unit = g?.unit ?? '';
  const formatValue = useCallback((v: number) => fmtExposure(v, unit), [unit]);
  const rowNote = useCallback(
    (row: number) => {
      const exp = g?.expirations[row] ?? '';
      return `${dteByExpiration.get(exp) ?? dteOf(exp, snapshotTime)} d`;
    },
    [g, dteByExpiration, snapshotTime],
  );
  const marker = useMemo(() => (g ? { at: g.stockPrice, label: `Spot ${fmtPrice(g.stockPrice)}` } : undefined), [g]);
  const largest = useMemo(() => (g ? g.netGEX.reduce((m, row) => row.reduce((n, v) => Math.max(n, Math.abs(v)), m), 0) : 0), [g]);
  return (
    <Panel
      title="Net GEX by strike and expiration"
      id="gex-heatmap"
      actions={
        <>
          <Segmented label="Expirations of the heat map" value={horizon} options={HORIZONS} onChange={setHorizon} />
          <Segmented label="Colour scale" value={mode} options={SCALES} onChange={setMode} />
        </>
      }
    >
      <AsyncStatus state={grid} />
      {g && (g.expirations.length === 0 || g.strikes.length === 0) && (
        <p className="muted pad">{g.expirations.length === 0 ? (horizon === 'all' ? 'No unexpired expiration in this snapshot.' : `No expiration within ${horizon} days in this snapshot: try a longer horizon.`) : 'No open interest within ±20 % of spot.'}</p>
      )}
      {g && g.expirations.length > 0 && g.strikes.length > 0 && (
        <>
          <div className="heat-legend small muted">
            <span className="tnum">{mode === 'grid' ? fmtExposure(-largest, unit) : 'largest −'}</span>
            <span className="heat-ramp" aria-hidden="true" />
            <span className="tnum">{mode === 'grid' ? fmtExposure(largest, unit) : 'largest +'}</span>
            <span>
              {fmtCount(g.expirations.length, 'expiration')} × {fmtCount(g.strikes.length, 'strike')} · {unit} · colour ∝ √|value|{mode === 'row' ? ', each row against its own largest cell' : ''}
            </span>
          </div>
          <HeatMap
            rows={g.expirations}
            rowNote={rowNote}
            columns={g.strikes}
            values={g.netGEX}
            marker={marker}
            mode={mode}
            valueName="Net GEX"
            formatValue={formatValue}
            label={`Net GEX of ${g.symbol} by strike (columns) and expiration (rows)`}
          />
        </>
      )}
    </Panel>
  );
}
