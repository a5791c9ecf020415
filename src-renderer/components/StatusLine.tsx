/**
 * The app's status line (docs/ui.md §Status line, issue 30): what needs a look — the online source that cannot be
 * reached, a watched file that failed, a watch folder that is gone, a backfill under way or interrupted — from GET
 * /v1/status, in the sidebar's foot (and as a dot with its first words in the narrow window's top bar). Each message
 * opens the page that says more. Quiet when all is well: then only the next scheduled refresh, if any.
 */
import { useEffect, useState } from 'react';
import type { AppStatusT } from '../../src-shared/api/schemas';
import { fmtDateTime } from '../format';
import { navigate, useApi } from '../hooks';

/** Polled this often; faster while a backfill or a refresh runs. */
const QUIET_MS = 15_000;
const BUSY_MS = 3_000;

export function useAppStatus(): AppStatusT | null {
  const api = useApi();
  const [status, setStatus] = useState<AppStatusT | null>(null);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let controller: AbortController | null = null;
    const poll = () => {
      controller = new AbortController();
      api.call('GET /status', {}, { signal: controller.signal }).then(
        (next) => {
          if (stopped) return;
          setStatus(next);
          const busy = next.refresh.running || next.backfill?.state === 'running';
          timer = setTimeout(poll, busy ? BUSY_MS : QUIET_MS);
        },
        () => {
          // A server that does not answer is said by the page that asked; the line tries again later.
          if (!stopped) timer = setTimeout(poll, QUIET_MS);
        },
      );
    };
    poll();
    // The page that changed something (Settings, Refresh now) asks for a fresh look.
    const onChanged = () => {
      clearTimeout(timer);
      controller?.abort();
      poll();
    };
    window.addEventListener('strikebook:status', onChanged);
    return () => {
      stopped = true;
      clearTimeout(timer);
      controller?.abort();
      window.removeEventListener('strikebook:status', onChanged);
    };
  }, [api]);
  return status;
}

/** Tells the status line to look again now (after a save, a refresh, a backfill started). */
export function statusChanged(): void {
  window.dispatchEvent(new Event('strikebook:status'));
}

const LEVEL_WORDS = { error: 'Problem', warn: 'Warning', info: 'Working' } as const;

export function StatusLine({ status }: { status: AppStatusT | null }) {
  if (status === null) return null;
  const messages = status.messages.slice(0, 3);
  if (messages.length === 0) {
    const next = status.schedule.nextRunAt;
    return (
      <div className="status-line status-quiet" data-testid="status-line" role="status">
        <span className="status-dot status-ok" aria-hidden="true" />
        <span>{next === null ? 'Chains: nothing needs a look' : `Next refresh ${fmtDateTime(next)}`}</span>
      </div>
    );
  }
  return (
    <ul className="status-line" data-testid="status-line" aria-label="Status" aria-live="polite">
      {messages.map((message) => (
        <li key={message.text}>
          <button type="button" className={`status-message status-${message.level}`} onClick={() => navigate(message.page ?? 'settings')} title={`${message.text} — open ${message.page ?? 'settings'}`}>
            <span className={`status-dot status-${message.level}`} aria-hidden="true" />
            <span className="visually-hidden">{LEVEL_WORDS[message.level]}: </span>
            <span className="status-text">{message.text}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The narrow window's top bar: the first message's dot and words, or nothing. */
export function StatusBadge({ status }: { status: AppStatusT | null }) {
  const first = status?.messages.find((m) => m.level !== 'info') ?? status?.messages[0];
  if (first === undefined) return null;
  return (
    <button type="button" className={`status-badge status-${first.level}`} onClick={() => navigate(first.page ?? 'settings')} title={first.text} data-testid="status-badge">
      <span className={`status-dot status-${first.level}`} aria-hidden="true" />
      <span className="status-text">{first.text}</span>
    </button>
  );
}
