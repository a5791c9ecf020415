/**
 * The Exposure page's view over time (issue 11): the snapshot picker with delete, the gamma profile, the levels
 * across the stored snapshots, the roll-off of gamma per expiration and the change per strike against another
 * snapshot.
 */
import { useCallback, useMemo, useState } from 'react';
import type { Formula } from '../../../src-shared/api/constants';
import type { ExpirationsResponseT, GexQueryT, SnapshotsResponseT } from '../../../src-shared/api/schemas';
import { chartPalette, StrikeChart, useExposureTooltip, type StrikeSeries } from '../../components/charts';
import { LevelsChart, ProfileChart, RollOffBars } from '../../components/charts/ProfileChart';
import { ErrorBanner, Loading, Options, Panel, Stat } from '../../components/ui';
import { fmtCount, fmtDateTime, fmtExposure, fmtInt, fmtPrice } from '../../format';
import { useApi, useAsync, useTheme } from '../../hooks';

/** The scope parameters of the page's /gex request, shared by the profile, the history and the diff. */
export type ScopeQuery = Omit<GexQueryT, 'symbol' | 'formula' | 'snapshot' | 'at'>;

type Snapshot = SnapshotsResponseT['snapshots'][number];

export function snapshotLabel(s: Snapshot): string {
  return `${fmtDateTime(s.quoteTime)} · ${fmtPrice(s.spot)} · ${fmtCount(s.contracts, 'contract')} · ${s.source}`;
}

/** Picks a stored snapshot (newest first; the newest by default) and deletes one. */
export function SnapshotPicker({
  snapshots,
  selected,
  onSelect,
  onDeleted,
}: {
  snapshots: readonly Snapshot[];
  selected: number | null;
  onSelect: (id: number | null) => void;
  onDeleted: () => void;
}) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const current = selected ?? snapshots[0]?.id ?? null;
  const remove = async () => {
    const snapshot = snapshots.find((s) => s.id === current);
    if (!snapshot) return;
    if (!window.confirm(`Delete the snapshot of ${fmtDateTime(snapshot.quoteTime)}? Its events stay.`)) return;
    setBusy(true);
    setError(null);
    try {
      await api.deleteSnapshot(snapshot.id);
      onSelect(null);
      onDeleted();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="snapshot-picker">
      <label className="field-inline">
        Snapshot
        <select value={current ?? ''} onChange={(e) => onSelect(e.target.value === '' || Number(e.target.value) === snapshots[0]?.id ? null : Number(e.target.value))} data-testid="snapshot-select">
          <Options items={snapshots} value={(s) => s.id} label={(s, index) => `${index === 0 ? 'Newest: ' : ''}${snapshotLabel(s)}`} />
        </select>
      </label>
      <span className="muted small">{fmtCount(snapshots.length, 'snapshot')} kept</span>
      <button type="button" className="btn btn-small btn-danger" onClick={() => void remove()} disabled={busy || current === null} data-testid="snapshot-delete">
        Delete
      </button>
      {error && <span className="neg small">{error}</span>}
    </div>
  );
}

export function ProfilePanel({ symbol, formula, scope, snapshot, unit }: { symbol: string; formula: Formula; scope: ScopeQuery; snapshot: number | null; unit: string }) {
  const api = useApi();
  const key = JSON.stringify(scope);
  const profile = useAsync((signal) => api.gexProfile({ symbol, formula, ...scope, ...(snapshot === null ? {} : { snapshot }) }, signal), [api, symbol, formula, key, snapshot]);
  const formatValue = useCallback((v: number) => fmtExposure(v, unit, false), [unit]);
  return (
    <Panel title="Gamma profile" id="gex-profile" actions={<span className="muted small">net GEX if spot were x · {unit}</span>}>
      {profile.error && <ErrorBanner error={profile.error} onRetry={profile.reload} />}
      {!profile.data && !profile.error && <Loading />}
      {profile.data && <ProfileChart profile={profile.data} formatValue={formatValue} />}
    </Panel>
  );
}

export function HistoryPanel({ symbol, formula, scope, version }: { symbol: string; formula: Formula; scope: ScopeQuery; version: string }) {
  const api = useApi();
  const key = JSON.stringify(scope);
  const history = useAsync((signal) => api.gexHistory({ symbol, formula, ...scope }, signal), [api, symbol, formula, key, version]);
  const h = history.data;
  const first = h?.points[0];
  const last = h?.points[h.points.length - 1];
  return (
    <Panel title="Levels over time" id="gex-history" actions={<span className="muted small">{h ? fmtCount(h.points.length, 'snapshot') : ''}</span>}>
      {history.error && <ErrorBanner error={history.error} onRetry={history.reload} />}
      {!h && !history.error && <Loading />}
      {h && h.points.length < 2 && <p className="muted pad">One snapshot stored: import or poll another one of {symbol} to see the levels move.</p>}
      {h && h.points.length >= 2 && first && last && (
        <>
          <div className="legend legend-static">
            <span className="legend-item legend-spot">
              <span className="swatch" aria-hidden="true" />
              Spot {fmtPrice(first.spot)} → {fmtPrice(last.spot)}
            </span>
            <span className="legend-item legend-flip">
              <span className="swatch" aria-hidden="true" />
              Flip {fmtPrice(first.gammaInflection)} → {fmtPrice(last.gammaInflection)}
            </span>
            <span className="legend-item legend-callwall">
              <span className="swatch" aria-hidden="true" />
              Call wall {fmtPrice(first.callWall?.strike)} → {fmtPrice(last.callWall?.strike)}
            </span>
            <span className="legend-item legend-putwall">
              <span className="swatch" aria-hidden="true" />
              Put wall {fmtPrice(first.putWall?.strike)} → {fmtPrice(last.putWall?.strike)}
            </span>
          </div>
          <LevelsChart history={h} />
        </>
      )}
    </Panel>
  );
}

export function RollOffPanel({ expirations }: { expirations: ExpirationsResponseT | undefined }) {
  return (
    <Panel title="Gamma roll-off" id="gex-rolloff" actions={<span className="muted small">share of the book’s absolute gamma per expiration</span>}>
      {expirations ? <RollOffBars details={expirations.details} /> : <Loading />}
    </Panel>
  );
}

/** "Compare with" another stored snapshot: the change of net GEX per strike (this snapshot minus the other). */
export function ComparePanel({ symbol, formula, scope, snapshots, current, unit }: { symbol: string; formula: Formula; scope: ScopeQuery; snapshots: readonly Snapshot[]; current: number; unit: string }) {
  const api = useApi();
  const theme = useTheme();
  const palette = useMemo(() => chartPalette(theme), [theme]);
  const [other, setOther] = useState<number | null>(null);
  const others = snapshots.filter((s) => s.id !== current);
  const base = other !== null && others.some((s) => s.id === other) ? other : null;
  const key = JSON.stringify(scope);
  const diff = useAsync((signal) => (base === null ? Promise.resolve(undefined) : api.gexDiff({ symbol, formula, ...scope, from: base, to: current }, signal)), [api, symbol, formula, key, base, current]);
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
