import { useMemo, useState } from 'react';
import type { Formula } from '../../../src-shared/api/constants';
import { StrikeChart, type StrikeSeries, useChartPalette, useExposureTooltip } from '../../components/charts';
import { ErrorBanner, Loading, Options, Panel, Stat } from '../../components/ui';
import { fmtDateTime, fmtExposure, fmtInt, fmtPrice } from '../../format';
import { useApi, useAsync } from '../../hooks';
import type { ScopeQuery } from './scope';
import { snapshotLabel, type Snapshot } from './SnapshotPicker';

/** "Compare with" another stored snapshot: the change of net GEX per strike (this snapshot minus the other). */
export function ComparePanel({ symbol, formula, scope, snapshots, current, unit }: { symbol: string; formula: Formula; scope: ScopeQuery; snapshots: readonly Snapshot[]; current: number; unit: string }) {
  const api = useApi();
  const palette = useChartPalette();
  const [other, setOther] = useState<number | null>(null);
  const others = snapshots.filter((s) => s.id !== current);
  const base = other !== null && others.some((s) => s.id === other) ? other : null;
  const key = JSON.stringify(scope);
  const diff = useAsync((signal) => (base === null ? Promise.resolve(undefined) : api.call('GET /gex/diff', { query: { symbol, formula, ...scope, from: base, to: current } }, { signal })), [api, symbol, formula, key, base, current]);
  const d = diff.data;
  const series = useMemo<StrikeSeries[]>(() => (d ? [{ label: 'Change in net GEX', color: palette.net, values: d.data.map((r) => ({ strike: r.strike, value: r.netGEX })) }] : []), [d, palette]);
  const { formatValue, tooltip } = useExposureTooltip(d?.data, unit, (r) => [
    ['Net change', fmtExposure(r.netGEX, unit)],
    ['Before → now', `${fmtExposure(r.fromNetGEX, unit)} → ${fmtExposure(r.toNetGEX, unit)}`],
    ['OI change', `calls ${fmtInt(r.callOI)} · puts ${fmtInt(r.putOI)}`],
  ]);
  const focus = useMemo(() => (d ? { from: d.to.spot * 0.9, to: d.to.spot * 1.1 } : undefined), [d]);
  return (
    <Panel
      title="Compare with another snapshot"
      id="gex-compare"
      actions={
        <label className="field-inline">
          Compare with
          <select className="compare-select" value={base ?? ''} onChange={(e) => setOther(e.target.value === '' ? null : Number(e.target.value))} data-testid="compare-select" disabled={others.length === 0}>
            <option value="">{others.length === 0 ? 'no other snapshot' : 'choose a snapshot…'}</option>
            <Options items={others} value={(s) => s.id} label={snapshotLabel} />
          </select>
        </label>
      }
    >
      {diff.error && <ErrorBanner error={diff.error} onRetry={diff.reload} />}
      {base === null && <p className="muted pad">Choose another stored snapshot to see how net GEX changed at each strike.</p>}
      {base !== null && !d && !diff.error && <Loading />}
      {d && (
        <>
          <div className="stats-grid stats-grid-fixed4 inner" data-testid="compare-stats">
            <Stat label="Then" value={fmtDateTime(d.from.quoteTime)} sub={`spot ${fmtPrice(d.from.spot)}`} />
            <Stat label="Now" value={fmtDateTime(d.to.quoteTime)} sub={`spot ${fmtPrice(d.to.spot)}`} />
            <Stat label="Total GEX then → now" value={`${fmtExposure(d.from.totalGEX, unit)} → ${fmtExposure(d.to.totalGEX, unit)}`} />
            <Stat label="Change" value={<span className={d.to.totalGEX - d.from.totalGEX >= 0 ? 'pos' : 'neg'}>{fmtExposure(d.to.totalGEX - d.from.totalGEX, unit)}</span>} />
          </div>
          <StrikeChart series={series} markers={[]} focus={focus} formatValue={formatValue} tooltip={tooltip} label={`Change of net GEX per strike for ${symbol}`} height={300} />
        </>
      )}
    </Panel>
  );
}
