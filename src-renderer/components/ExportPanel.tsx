/**
 * Settings → Export for research (docs/research.md): the stored chains and the journal as a Parquet lake. The
 * server exports in a worker thread; this panel starts it and follows its progress. In the desktop app the folder is
 * chosen with the system's dialog (the preload's chooseExportFolder); a browser cannot choose one, so the headless
 * server writes into its data folder's exports/.
 */
import { useEffect, useState } from 'react';
import { ApiError, type ExportJobJson } from '../api/client';
import { fmtCount, fmtInt } from '../format';
import { asApiError, useAlive, useApi, useFollow } from '../hooks';
import { ErrorBanner, Panel } from './ui';

const POLL_MS = 400;

interface ChosenFolder {
  folder: string;
  path: string;
}

function describeDone(job: ExportJobJson): string {
  const summary = job.summary;
  if (summary === null) return 'Export finished.';
  const { snapshots, rows } = summary;
  if (snapshots.written === 0 && summary.transactions !== 'written') {
    return `Nothing new: ${snapshots.total === 1 ? 'the snapshot' : `all ${fmtInt(snapshots.total)} snapshots`}${summary.transactions === 'unchanged' ? ' and the journal' : ''} were there already.`;
  }
  const journal = summary.transactions === 'written' ? `the journal (${fmtCount(rows.transactions, 'transaction')})` : summary.transactions === 'unchanged' ? 'the journal unchanged' : 'no journal';
  const mb = summary.bytes / 1e6;
  return `${fmtCount(snapshots.written, 'snapshot')} written (${fmtInt(rows.contracts)} contract rows), ${fmtInt(snapshots.skipped)} already there; ${journal}; ${fmtCount(summary.files, 'file')}, ${mb < 0.1 && summary.bytes > 0 ? '< 0.1' : mb.toFixed(1)} MB.`;
}

export function ExportPanel({ dataDir }: { dataDir: string }) {
  const api = useApi();
  const choose = window.strikebook?.chooseExportFolder;
  const [chosen, setChosen] = useState<ChosenFolder | null>(null);
  const [symbol, setSymbol] = useState('');
  const [job, setJob] = useState<ExportJobJson | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const alive = useAlive();

  // An export started before this page was opened (another window, a script) is followed too.
  useEffect(() => {
    const controller = new AbortController();
    api.call('GET /exports', {}, { signal: controller.signal }).then(
      ({ exports }) => {
        const newest = exports[0];
        if (alive.current && newest?.state === 'running') setJob((current) => current ?? newest);
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [api, alive]);

  // Follows a running export until it is done or failed.
  useFollow(job, {
    isRunning: (current) => current.state === 'running',
    poll: (current, signal) => api.call('GET /exports/{id}', { params: { id: current.id } }, { signal }),
    onNext: setJob,
    onError: setError,
    failure: 'Export status failed',
    everyMs: POLL_MS,
  });

  const start = async () => {
    setError(null);
    try {
      const trimmed = symbol.trim().toUpperCase();
      setJob(await api.call('POST /exports', { body: { ...(trimmed === '' ? {} : { symbol: trimmed }), ...(chosen === null ? {} : { folder: chosen.folder }) } }));
    } catch (caught) {
      setError(asApiError(caught, 'Export failed'));
    }
  };

  const pickFolder = async () => {
    if (choose === undefined) return;
    const picked = await choose();
    if (picked !== null) setChosen(picked);
  };

  const running = job?.state === 'running';
  const total = job?.progress.snapshotsTotal ?? null;
  const folder = chosen?.path ?? `${dataDir}/exports`;

  return (
    <Panel title="Export for research" id="export">
      <p className="muted small">
        Every stored snapshot (each contract with its delta and gamma, and the levels of <code>/gex/history</code>) and the journal, as a Parquet lake that DuckDB,
        Spark, Polars and pandas read: one file per snapshot under <code>symbol=</code> and <code>date=</code> folders. Exporting again writes only what is new. The
        layout and example queries are in Strikebook&apos;s research guide (<code>docs/research.md</code> of its source, not a file of this computer);{' '}
        <code>strikebook export --out DIR</code> does the same from a terminal.
      </p>
      <div className="form-grid">
        <div className="field">
          <span>Folder</span>
          <div className="key-row">
            <code className="path" data-testid="export-folder">
              {folder}
            </code>
            {choose !== undefined && (
              <button type="button" className="btn btn-small" onClick={() => void pickFolder()} disabled={running}>
                Choose folder…
              </button>
            )}
          </div>
          {choose === undefined && <small className="muted">The server writes into its data folder; a browser page cannot choose another.</small>}
        </div>
        <label className="field">
          <span>Symbol</span>
          <input type="text" value={symbol} onChange={(e) => setSymbol(e.target.value)} placeholder="All symbols" spellCheck={false} className="input-symbol" maxLength={16} />
        </label>
      </div>
      <div className="form-actions">
        <button type="button" className="btn btn-primary" onClick={() => void start()} disabled={running} data-testid="export-start">
          {running ? 'Exporting…' : 'Export for research'}
        </button>
      </div>
      {running && job && (
        <div className="progress-block" aria-live="polite">
          <div className="small">
            {total === null ? 'Listing snapshots…' : `${fmtInt(job.progress.snapshotsDone)} of ${fmtCount(total, 'snapshot')} · ${fmtInt(job.progress.rowsWritten)} contract rows written`}
          </div>
          <progress className="progress" max={Math.max(1, total ?? 1)} value={job.progress.snapshotsDone} data-testid="export-progress" />
        </div>
      )}
      {job?.state === 'done' && (
        <div className="report" role="status" data-testid="export-report">
          <strong>Exported to {job.out}</strong>
          <span className="small">{describeDone(job)}</span>
        </div>
      )}
      {job?.state === 'failed' && <ErrorBanner error={new ApiError(0, 'EXPORT_FAILED', 'The export stopped', job.error ?? '')} />}
      {error && <ErrorBanner error={error} />}
    </Panel>
  );
}
