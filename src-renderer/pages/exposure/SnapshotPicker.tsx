/** The snapshot picker: the stored snapshots of the symbol (newest first, the newest by default), with Delete. */
import { useState } from 'react';
import type { SnapshotsResponseT } from '../../../src-shared/api/schemas';
import { Options } from '../../components/ui';
import { fmtCount, fmtDateTime, fmtPrice } from '../../format';
import { useApi } from '../../hooks';

export type Snapshot = SnapshotsResponseT['snapshots'][number];

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
      await api.call('DELETE /snapshots/{id}', { params: { id: snapshot.id } });
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
