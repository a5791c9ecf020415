/**
 * "Refresh now" (docs/ui.md §Refresh now), on the Exposure and Positions pages: one pass of the online source over the watchlist and the open positions'
 * underlyings (POST /v1/chains/refresh), followed by polling GET /v1/chains/refresh until every symbol is stored or
 * failed. A pass already running (another window, a script) is followed, not started twice.
 */
import { useEffect, useRef, useState } from 'react';
import type { RefreshPassT } from '../../src-shared/api/schemas';
import { ApiError } from '../api/client';
import { Badge, colClass, DataTable, ErrorBanner, Panel } from './ui';
import { fmtCount, fmtDateTime, fmtInt } from '../format';
import { asApiError, navigate, useAlive, useApi, useFollow } from '../hooks';
import { statusChanged } from './StatusLine';

const POLL_MS = 500;

type RefreshSymbol = RefreshPassT['symbols'][number];

const STATE_TONES = { queued: 'neutral', fetching: 'info', stored: 'pos', failed: 'neg', skipped: 'warn' } as const;

function resultOf(s: RefreshSymbol): string {
  if (s.state === 'failed') return s.error ?? 'failed';
  if (s.state === 'skipped') return 'not fetched: the source could not be reached';
  if (s.state === 'stored') return `${fmtInt(s.contracts ?? 0)} contracts at ${s.quoteTime === undefined ? '?' : fmtDateTime(s.quoteTime)}${s.unchanged === true ? ' (already stored)' : ''}`;
  return s.state === 'fetching' ? 'fetching…' : 'waiting';
}

function summaryOf(pass: RefreshPassT): string {
  const count = (state: RefreshSymbol['state']) => pass.symbols.filter((s) => s.state === state).length;
  const done = count('stored') + count('failed') + count('skipped');
  if (pass.running) return `${done} of ${fmtCount(pass.symbols.length, 'symbol')} done`;
  if (pass.sourceProblem !== undefined && count('stored') === 0) return `nothing fetched · finished ${pass.finishedAt === null ? '' : fmtDateTime(pass.finishedAt)}`;
  const failed = count('failed');
  return `${fmtInt(count('stored'))} stored${failed > 0 ? `, ${fmtInt(failed)} failed` : ''} · finished ${pass.finishedAt === null ? '' : fmtDateTime(pass.finishedAt)}`;
}

/** The button, for the page's toolbar; the progress panel renders where `RefreshProgress` is placed. */
export function useRefreshNow(onStored: () => void) {
  const api = useApi();
  const [pass, setPass] = useState<RefreshPassT | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [starting, setStarting] = useState(false);
  const alive = useAlive();
  const storedRef = useRef(onStored);
  storedRef.current = onStored;

  useEffect(() => {
    // A pass started elsewhere and still running is shown and followed.
    const controller = new AbortController();
    api.call('GET /chains/refresh', {}, { signal: controller.signal }).then(
      (latest) => alive.current && latest.running && setPass(latest),
      () => undefined,
    );
    return () => controller.abort();
  }, [api, alive]);

  useFollow(pass, {
    isRunning: (current) => current.running,
    poll: (_current, signal) => api.call('GET /chains/refresh', {}, { signal }),
    onNext: (next) => {
      setPass(next);
      if (!next.running) statusChanged();
      // New snapshots change the symbols and the newest chain: the page reloads its chains once per pass.
      if (!next.running && next.symbols.some((s) => s.state === 'stored' && s.unchanged !== true)) storedRef.current();
    },
    onError: setError,
    failure: 'Refresh status failed',
    everyMs: POLL_MS,
  });

  const start = async () => {
    setError(null);
    setStarting(true);
    try {
      setPass(await api.call('POST /chains/refresh'));
    } catch (caught) {
      if (caught instanceof ApiError && caught.code === 'REFRESH_RUNNING') {
        // Someone else's pass: follow it.
        setPass(await api.call('GET /chains/refresh').catch(() => null));
      } else {
        setError(asApiError(caught, 'Refresh failed'));
      }
    } finally {
      if (alive.current) setStarting(false);
    }
  };

  const running = starting || pass?.running === true;
  const button = (
    <button type="button" className="btn" onClick={() => void start()} disabled={running} data-testid="refresh-now" title="Fetch the online source once for the watchlist and the underlyings of open positions">
      {running ? 'Refreshing…' : 'Refresh now'}
    </button>
  );
  const progress = <RefreshProgress pass={pass} error={error} onClose={() => {
    setPass(null);
    setError(null);
  }} />;
  return { button, progress };
}

function RefreshProgress({ pass, error, onClose }: { pass: RefreshPassT | null; error: ApiError | null; onClose: () => void }) {
  if (error !== null) {
    return (
      <div className="refresh-error" data-testid="refresh-error">
        <ErrorBanner error={error} />
        {error.code === 'SOURCE_NOT_CONFIGURED' && (
          <button type="button" className="btn btn-link" onClick={() => navigate('settings')}>
            Open Settings
          </button>
        )}
      </div>
    );
  }
  if (pass === null) return null;
  // The source could not be reached: one line says so (issue 30), the symbols it left are named once, not row by row.
  const skipped = pass.symbols.filter((s) => s.state === 'skipped');
  const rows = pass.sourceProblem === undefined ? pass.symbols : pass.symbols.filter((s) => s.state !== 'skipped');
  return (
    <Panel
      title="Refresh now"
      id="refresh-progress"
      actions={
        <>
          <span className="muted small" data-testid="refresh-summary" role="status" aria-live="polite">
            {summaryOf(pass)}
          </span>
          {!pass.running && (
            <button type="button" className="btn btn-small" onClick={onClose}>
              Close
            </button>
          )}
        </>
      }
    >
      {pass.sourceProblem !== undefined && (
        <div className="alert alert-error source-problem" role="alert" data-testid="refresh-source-problem">
          <strong>{pass.sourceProblem}</strong>
          <span className="small">
            {pass.retryAt === undefined ? 'Try again when the connection is back.' : `The poller and the schedule try again at ${fmtDateTime(pass.retryAt)}, then less often while it lasts.`}
          </span>
        </div>
      )}
      {pass.sourceProblem !== undefined && skipped.length > 0 && (
        <p className="muted small pad" data-testid="refresh-skipped">
          Not fetched: {skipped.map((s) => s.symbol).join(', ')}.
        </p>
      )}
      {pass.symbols.length === 0 ? (
        <p className="muted pad">The watchlist is empty and no position is open: add symbols in Settings.</p>
      ) : rows.length === 0 ? null : (
        <DataTable columns={['Symbol', { label: 'Why', hide: 'lo' }, 'State', 'Result']} testId="refresh-table">
          {rows.map((s) => (
            <tr key={s.symbol} data-state={s.state}>
              <td>{s.symbol}</td>
              <td className={colClass('lo', 'muted')}>{s.origin === 'position' ? 'open position' : 'watchlist'}</td>
              <td>
                <Badge tone={STATE_TONES[s.state]}>{s.state}</Badge>
              </td>
              <td className={s.state === 'failed' ? 'neg' : undefined}>{resultOf(s)}</td>
            </tr>
          ))}
        </DataTable>
      )}
      {pass.omitted.length > 0 && <p className="muted small pad">Not fetched (over the 50-symbol cap): {pass.omitted.join(', ')}.</p>}
      {pass.positionsProblem !== undefined && <p className="muted small pad">Open positions could not be read ({pass.positionsProblem}): the watchlist alone was fetched.</p>}
    </Panel>
  );
}
