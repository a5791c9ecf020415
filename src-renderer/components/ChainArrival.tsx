/**
 * Settings → chains that arrive by themselves (docs/ui.md §Settings, issue 30): what the watch folder did with each
 * file (a failed one with its reason, not only in the server's console), when the schedule fetches next, and a
 * backfill of a folder of historical chain files with its progress (continued when it was interrupted).
 */
import { useEffect, useState } from 'react';
import type { AppStatusT, BackfillJobT, WatchStatusT } from '../../src-shared/api/schemas';
import { ApiError } from '../api/client';
import { fmtCount, fmtDateTime, fmtInt } from '../format';
import { asApiError, useAlive, useApi, useFollow } from '../hooks';
import { statusChanged } from './StatusLine';
import { Badge, DataTable, ErrorBanner, Panel } from './ui';

const WATCH_POLL_MS = 2000;
const BACKFILL_POLL_MS = 500;

const OUTCOME_TONES = { imported: 'pos', 'already-stored': 'neutral', failed: 'neg', retry: 'warn' } as const;
const OUTCOME_WORDS = { imported: 'imported', 'already-stored': 'already stored', failed: 'failed', retry: 'will retry' } as const;

/** The watch folder's state, looked at again every two seconds while the page is open. */
export function WatchFolderStatus({ saved }: { saved: string }) {
  const api = useApi();
  const [status, setStatus] = useState<WatchStatusT | null>(null);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const controller = new AbortController();
    const poll = () => {
      api.call('GET /chains/watch', {}, { signal: controller.signal }).then(
        (next) => {
          if (stopped) return;
          setStatus(next);
          timer = setTimeout(poll, WATCH_POLL_MS);
        },
        () => {
          if (!stopped) timer = setTimeout(poll, WATCH_POLL_MS * 5);
        },
      );
    };
    poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
      controller.abort();
    };
  }, [api, saved]);

  if (status === null || status.folder === null) {
    return <p className="muted small arrival-line">No watch folder: chain files arrive by hand (Import), by a backfill below, or from the online source.</p>;
  }
  const failed = status.files.filter((f) => f.outcome === 'failed').length;
  return (
    <div data-testid="watch-status">
      {status.problem !== null ? (
        <p className="alert alert-warn arrival-line" role="alert">
          Not watched: {status.problem}
        </p>
      ) : (
        <p className="small arrival-line" role="status">
          <Badge tone={status.watching ? 'pos' : 'neutral'}>{status.watching ? 'watching' : 'starting'}</Badge> <code>{status.folder}</code>
          {' · '}
          {status.files.length === 0 ? 'no file yet' : `${fmtCount(status.files.length, 'file')} handled${failed > 0 ? `, ${fmtInt(failed)} failed` : ''}`}
          {status.waiting.length > 0 && ` · waiting for ${status.waiting.join(', ')} to stop growing`}
        </p>
      )}
      {status.links.length > 0 && <p className="muted small">Symbolic links skipped (never followed): {status.links.join(', ')}</p>}
      {status.files.length > 0 && (
        <DataTable columns={['File', 'Outcome', 'What happened']} testId="watch-files" className="table table-cards arrival-files">
          {status.files.slice(0, 12).map((file) => (
            <tr key={`${file.name}@${file.at}`} data-outcome={file.outcome}>
              <td>
                <code>{file.name}</code>
                <div className="muted small">{fmtDateTime(file.at)}</div>
              </td>
              <td>
                <Badge tone={OUTCOME_TONES[file.outcome]}>{OUTCOME_WORDS[file.outcome]}</Badge>
              </td>
              <td>
                {file.outcome === 'imported' || file.outcome === 'already-stored' ? (
                  <span className="small">
                    {file.symbol} · {fmtInt(file.contracts ?? 0)} contracts at {file.quoteTime === undefined ? '?' : fmtDateTime(file.quoteTime)}
                    {file.movedTo !== null && (
                      <>
                        {' '}
                        → <code>{file.movedTo}</code>
                      </>
                    )}
                  </span>
                ) : (
                  <div className={`reason ${file.outcome === 'failed' ? 'neg' : ''}`}>
                    {file.reason}
                    {file.movedTo !== null && (
                      <div className="muted">
                        Moved to <code>{file.movedTo}</code>, beside <code>{file.movedTo}.reason.txt</code>.
                      </div>
                    )}
                  </div>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </div>
  );
}

/** When the schedule runs next, and what its last run did (from the status line's answer). */
export function ScheduleStatus({ status }: { status: AppStatusT | undefined }) {
  if (status === undefined) return null;
  const { schedule, source } = status;
  return (
    <div className="small arrival-line" data-testid="schedule-status">
      {schedule.times.length === 0 ? (
        <span className="muted">No scheduled refresh.</span>
      ) : (
        <span>
          Next refresh {schedule.nextRunAt === null ? '—' : fmtDateTime(schedule.nextRunAt)} (trading days only)
          {schedule.lastRunAt !== null && (
            <>
              {' · last '}
              {fmtDateTime(schedule.lastRunAt)}: {schedule.lastOutcome ?? ''}
            </>
          )}
        </span>
      )}
      {source.state === 'unreachable' && source.message !== null && (
        <p className="neg source-problem" role="alert" data-testid="source-problem">
          <strong>{source.message}</strong>
          {source.retryAt !== null && <span className="muted">tried again at {fmtDateTime(source.retryAt)}</span>}
        </p>
      )}
    </div>
  );
}

function phaseWords(job: BackfillJobT): string {
  const c = job.counts;
  switch (job.phase) {
    case 'listing':
      return 'Listing the folder…';
    case 'dating':
      return `Reading and dating ${fmtInt(c.dated)} of ${fmtCount(c.files, 'file')}`;
    case 'importing':
      return `Storing ${fmtInt(c.imported)} of ${fmtInt(c.toImport)}, oldest first`;
    case 'finished':
      return job.state === 'interrupted' ? `Interrupted: ${fmtInt(c.imported)} of ${fmtInt(c.toImport)} stored` : job.state === 'failed' ? 'Stopped' : 'Done';
  }
}

/** Settings → Backfill: a folder of historical chain files, stored oldest first. */
export function BackfillPanel() {
  const api = useApi();
  const alive = useAlive();
  const [path, setPath] = useState('');
  const [job, setJob] = useState<BackfillJobT | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    api.call('GET /chains/backfill', {}, { signal: controller.signal }).then(
      ({ backfill }) => {
        if (!alive.current || backfill === null) return;
        setJob((current) => current ?? backfill);
        setPath((current) => (current === '' ? backfill.path : current));
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [api, alive]);

  useFollow(job, {
    isRunning: (current) => current.state === 'running',
    poll: async (_current, signal) => {
      const { backfill } = await api.call('GET /chains/backfill', {}, { signal });
      if (backfill === null) throw new ApiError(0, 'BACKFILL_GONE', 'The backfill is no longer known', '');
      return backfill;
    },
    onNext: (next) => {
      setJob(next);
      if (next.state !== 'running') statusChanged();
    },
    onError: setError,
    failure: 'Backfill status failed',
    everyMs: BACKFILL_POLL_MS,
  });

  const start = async (folder: string) => {
    setError(null);
    try {
      setJob(await api.call('POST /chains/backfill', { body: { path: folder.trim() } }));
      statusChanged();
    } catch (caught) {
      setError(asApiError(caught, 'Backfill refused'));
    }
  };

  const running = job?.state === 'running';
  const c = job?.counts;
  const total = job === null ? 1 : job.phase === 'importing' || job.phase === 'finished' ? job.counts.toImport : job.counts.files;
  const done = job === null ? 0 : job.phase === 'importing' || job.phase === 'finished' ? job.counts.imported : job.counts.dated;
  return (
    <Panel title="Backfill a folder of chains" id="backfill">
      <p className="muted small">
        Stores a folder of historical chain files (CBOE quotedata CSV or JSON, Schwab JSON, yfinance CSV, the generic formats; subfolders too), or a Parquet lake written by
        Export for research (its snapshots are stored as the chain files they came from), oldest first, so that events
        come out as they did and trades already in the journal get their levels at entry, marks and expiry evidence. Files stored before are skipped by their bytes: start it
        again to continue one that was interrupted. <code>strikebook chain backfill DIR</code> does the same from a terminal.
      </p>
      <form
        className="form-grid"
        onSubmit={(event) => {
          event.preventDefault();
          void start(path);
        }}
      >
        <label className="field">
          <span>Folder of chain files or a lake (an absolute path on the machine that runs Strikebook)</span>
          <input type="text" value={path} onChange={(e) => setPath(e.target.value)} placeholder="/home/me/chains/spx" spellCheck={false} data-testid="backfill-path" />
        </label>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={running || path.trim() === ''} data-testid="backfill-start">
            {running ? 'Backfilling…' : job?.state === 'interrupted' && job.path === path.trim() ? 'Continue backfill' : 'Start backfill'}
          </button>
        </div>
      </form>
      {error && <ErrorBanner error={error} />}
      {job !== null && c !== undefined && (
        <div className="progress-block" aria-live="polite" data-testid="backfill-progress">
          <div className="small">
            <Badge tone={job.state === 'done' ? 'pos' : job.state === 'running' ? 'info' : job.state === 'interrupted' ? 'warn' : 'neg'}>{job.state}</Badge> <code>{job.path}</code> · {phaseWords(job)}
            {job.current !== null && running && <span className="muted"> · {job.current}</span>}
          </div>
          <progress className="progress" max={Math.max(1, total)} value={done} />
          <div className="arrival-counts">
            <span>
              <strong>{fmtInt(c.files)}</strong> files{c.lakeFiles > 0 && <span className="muted"> ({fmtInt(c.lakeFiles)} of a lake)</span>}
            </span>
            <span>
              <strong>{fmtInt(c.stored)}</strong> stored
            </span>
            <span>
              <strong>{fmtInt(c.alreadyStored)}</strong> already stored
            </span>
            <span className={c.failed > 0 ? 'neg' : undefined}>
              <strong>{fmtInt(c.failed)}</strong> failed
            </span>
            <span>
              <strong>{fmtInt(c.events)}</strong> events
            </span>
            {job.oldest !== null && (
              <span className="muted">
                {fmtDateTime(job.oldest)} → {fmtDateTime(job.newest ?? job.oldest)}
              </span>
            )}
          </div>
          {job.retention.length > 0 && (
            <p className="small warn-text">
              {fmtCount(c.beyondRetention, 'older snapshot')} not read: the retention keeps fewer ({job.retention.map((r) => `${r.symbol} ${fmtInt(r.keep)}`).join(', ')}). Raise
              snapshotRetentionBySymbol to keep them, then continue.
            </p>
          )}
          {c.lakeOther > 0 && <p className="muted small">{fmtCount(c.lakeOther, 'lake file')} without a chain (levels, transactions, trades): not stored.</p>}
          {c.links > 0 && <p className="muted small">{fmtCount(c.links, 'symbolic link')} not followed.</p>}
          {job.error !== null && <p className="neg small">Stopped: {job.error}</p>}
          {job.failures.length > 0 && (
            <DataTable columns={['File', 'Why it failed']} testId="backfill-failures" className="table table-cards arrival-files">
              {job.failures.slice(0, 10).map((f) => (
                <tr key={f.file}>
                  <td>
                    <code>{f.file}</code>
                  </td>
                  <td className="reason neg">{f.reason}</td>
                </tr>
              ))}
            </DataTable>
          )}
        </div>
      )}
    </Panel>
  );
}
