/**
 * The app's status line (GET /v1/status; the sidebar shows its first messages): whether the online source answers,
 * the schedule, the watch folder and a backfill, each said in one line where it needs a look (issue 30, item 4: a
 * failure of the source or of a watched file is said in the UI, not only in the server's console).
 */
import type { AppStatusT } from '../../src-shared/api/arrival-schemas';
import type { Clock } from '../clock';
import type { Settings } from '../settings';
import type { ChainBackfill } from './chain-backfill';
import type { ChainRefresh } from './chain-refresh';
import type { RefreshSchedule } from './refresh-schedule';
import type { SourceHealth } from './source-health';
import type { WatchFolder } from './watch-folder';

/** A watched file that failed is in the status line for this long (the Settings page lists the last 50). */
export const FAILURE_SHOWN_MS = 24 * 60 * 60_000;

export interface AppStatusSources {
  readonly settings: Pick<Settings, 'onlineSource' | 'refreshSchedule'>;
  clock: Clock;
  sourceHealth: SourceHealth;
  refresh: Pick<ChainRefresh, 'status'>;
  schedule: Pick<RefreshSchedule, 'status'>;
  watchFolder: Pick<WatchFolder, 'status'>;
  backfill: Pick<ChainBackfill, 'status'>;
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').slice(0, 300);
}

export function appStatus(sources: AppStatusSources): AppStatusT {
  const { settings } = sources;
  const health = sources.sourceHealth.status();
  const configured = settings.onlineSource.baseUrl.trim() !== '';
  const used = settings.onlineSource.enabled || settings.refreshSchedule.length > 0 || health.state !== 'unknown';
  const sourceState = !configured || !used ? 'off' : health.state;
  const pass = sources.refresh.status();
  const schedule = sources.schedule.status();
  const watch = sources.watchFolder.status();
  const job = sources.backfill.status();
  const nowMs = sources.clock.nowMs();
  const failures = watch.files.filter((f) => f.outcome === 'failed' && nowMs - Date.parse(f.at) < FAILURE_SHOWN_MS);
  const latestFailure = failures[0];

  const messages: AppStatusT['messages'] = [];
  if (sourceState === 'unreachable' && health.message !== null) {
    messages.push({ level: 'error', text: `Online source: ${health.message}; tried again with backoff`, page: 'settings' });
  }
  if (watch.problem !== null) messages.push({ level: 'warn', text: `Watch folder: ${watch.problem}`, page: 'settings' });
  if (latestFailure !== undefined) {
    const more = failures.length > 1 ? ` (${failures.length} files failed in the last day)` : '';
    messages.push({ level: 'error', text: `Watch folder: ${latestFailure.name} failed: ${firstLine(latestFailure.reason ?? 'no reason given')}${more}`, page: 'settings' });
  }
  if (job !== null && job.state === 'running') {
    const done = job.phase === 'importing' ? job.counts.imported : job.counts.dated;
    const total = job.phase === 'importing' ? job.counts.toImport : job.counts.files;
    messages.push({ level: 'info', text: `Backfill: ${job.phase === 'importing' ? 'storing' : 'reading'} ${done} of ${total} files`, page: 'settings' });
  } else if (job !== null && job.state === 'interrupted') {
    messages.push({ level: 'warn', text: `Backfill of ${job.path} was interrupted (${job.counts.imported} of ${job.counts.toImport} stored): continue it in Settings`, page: 'settings' });
  }
  if (pass.running) messages.push({ level: 'info', text: 'Refreshing chains from the online source', page: 'exposure' });

  return {
    source: { state: sourceState, host: health.host, message: health.message, since: health.since, retryAt: health.retryAt, lastOkAt: health.lastOkAt },
    refresh: { running: pass.running, startedAt: pass.startedAt, sourceProblem: pass.sourceProblem ?? null },
    schedule,
    watch: {
      watching: watch.watching,
      folder: watch.folder,
      problem: watch.problem,
      lastFailure: latestFailure === undefined ? null : { name: latestFailure.name, at: latestFailure.at, reason: latestFailure.reason ?? '' },
    },
    backfill:
      job === null
        ? null
        : {
            state: job.state,
            phase: job.phase,
            path: job.path,
            done: job.phase === 'dating' || job.phase === 'listing' ? job.counts.dated : job.counts.imported,
            total: job.phase === 'dating' || job.phase === 'listing' ? job.counts.files : job.counts.toImport,
          },
    messages,
  };
}
