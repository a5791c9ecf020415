/**
 * Settings → Backups (docs/architecture.md §Reliability and security): the journal's backups in the data folder's
 * backups/ (daily, before every undo and delete, before a schema upgrade, and when asked), the last one first; a backup
 * now; a restore, checked by the server and put in place when Strikebook next starts (the running server holds the
 * journal open).
 */
import { useState } from 'react';
import type { ApiError, BackupJson } from '../api/client';
import { fmtCount, fmtDateTime } from '../format';
import { asApiError, useApi, useAsync } from '../hooks';
import { colClass, DataTable, ErrorBanner, Loading, num, Panel } from './ui';

const REASONS: Record<BackupJson['reason'], string> = {
  daily: 'daily',
  manual: 'asked for',
  undo: 'before an undo',
  delete: 'before a delete',
  migration: 'before an upgrade',
  restore: 'before a restore',
};

function size(bytes: number): string {
  const mb = bytes / 1e6;
  return mb < 0.1 ? '< 0.1 MB' : `${mb.toFixed(1)} MB`;
}

export function BackupPanel() {
  const api = useApi();
  const listing = useAsync((signal) => api.call('GET /backups', {}, { signal }), [api]);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  const backupNow = async () => {
    setBusy(true);
    setError(null);
    setMessage(null);
    try {
      const taken = await api.call('POST /backups');
      setMessage(`Backed up: ${taken.name} (${size(taken.bytes)}).`);
      listing.reload();
    } catch (caught) {
      setError(asApiError(caught, 'Backup failed'));
    } finally {
      setBusy(false);
    }
  };

  const restore = async (backup: BackupJson) => {
    if (!window.confirm(`Restore the journal as it was at ${fmtDateTime(backup.createdAt)}? Everything since then is replaced when Strikebook next starts (the journal of now is backed up first).`)) return;
    setBusy(true);
    setError(null);
    setMessage(null);
    try {
      const staged = await api.call('POST /backups/restore', { body: { name: backup.name } });
      setMessage(staged.detail);
      listing.reload();
    } catch (caught) {
      setError(asApiError(caught, 'Restore failed'));
    } finally {
      setBusy(false);
    }
  };

  const data = listing.data;
  const last = data?.last ?? null;
  return (
    <Panel title="Backups" id="backups">
      <p className="muted small">
        Copies of the journal (SQLite&apos;s online backup) in the data folder&apos;s <code>backups/</code>: once a day, before every undo of an import and every delete,
        before a schema upgrade, and when asked. <code>strikebook backup</code> and <code>strikebook restore FILE</code> do the same from a terminal.
      </p>
      {listing.error && <ErrorBanner error={listing.error} onRetry={listing.reload} />}
      {!data && !listing.error && <Loading />}
      {data && (
        <>
          <div className="key-row" data-testid="backup-last">
            <span>
              Last backup: {last === null ? <strong>none yet</strong> : <strong>{fmtDateTime(last.createdAt)}</strong>}
              {last !== null && ` (${REASONS[last.reason]}, ${size(last.bytes)})`} · {fmtCount(data.backups.length, 'backup')} kept of {data.keep}
            </span>
            <button type="button" className="btn btn-small" onClick={() => void backupNow()} disabled={busy} data-testid="backup-now">
              {busy ? 'Working…' : 'Back up now'}
            </button>
          </div>
          {data.pendingRestore !== null && (
            <p className="small" role="status" data-testid="backup-pending">
              <strong>{data.pendingRestore}</strong> replaces the journal when Strikebook next starts: quit and start it again to finish.
            </p>
          )}
          {data.backups.length > 0 && (
            <DataTable columns={['Taken', 'Why', num('Size', undefined, 'mid'), '']} testId="backup-list" className="table table-dense">
              {data.backups.map((backup) => (
                <tr key={backup.name}>
                  <td title={backup.name}>{fmtDateTime(backup.createdAt)}</td>
                  <td>{REASONS[backup.reason]}</td>
                  <td className={colClass('mid', 'num')}>{size(backup.bytes)}</td>
                  <td>
                    <button type="button" className="btn btn-small btn-ghost" onClick={() => void restore(backup)} disabled={busy}>
                      Restore…
                    </button>
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
          <small className="muted">
            In <code className="path">{data.folder}</code>
          </small>
        </>
      )}
      {message !== null && (
        <p className="small" role="status">
          {message}
        </p>
      )}
      {error && <ErrorBanner error={error} />}
    </Panel>
  );
}
