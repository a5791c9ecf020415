/**
 * The online source fetched by itself (the `refreshSchedule` setting; docs/exposure.md §Chains that arrive by
 * themselves): at each New York time of the schedule, on trading days, one "Refresh now" pass (chain-refresh.ts) over
 * the watchlist and the open positions' underlyings. A pass that found the source unreachable is tried again at the
 * source's backoff time (source-health.ts) until it gets through or the next time of the schedule comes. Looked at
 * every TICK_MS (a timer started with the server, stopped with it): a machine that slept through a time runs the
 * pass once when it wakes. `tick()` is one look (tests move their clock and call it).
 */
import { nextScheduledRun } from '../../src-shared/refresh-schedule';
import type { Clock } from '../clock';
import type { Settings } from '../settings';
import type { ChainRefresh } from './chain-refresh';
import { describeError } from './result';
import type { SourceHealth } from './source-health';

/** How often the schedule looks at the clock. */
export const TICK_MS = 15_000;

export interface ScheduleStatus {
  times: string[];
  /** The next time of the schedule (a trading day in New York), or null without one. */
  nextRunAt: string | null;
  /** A pass that found the source unreachable is tried again then (before nextRunAt), else null. */
  retryAt: string | null;
  lastRunAt: string | null;
  /** What the last scheduled pass did, in a sentence. */
  lastOutcome: string | null;
}

export interface RefreshScheduleContext {
  readonly settings: Pick<Settings, 'refreshSchedule' | 'onlineSource'>;
  clock: Clock;
  refresh: Pick<ChainRefresh, 'start' | 'settled' | 'status'>;
  sourceHealth?: SourceHealth;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export class RefreshSchedule {
  private timer: NodeJS.Timeout | null = null;
  private timesKey: string | null = null;
  private nextMs: number | null = null;
  private retryMs: number | null = null;
  private lastRunMs: number | null = null;
  private lastOutcome: string | null = null;
  private ticking: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly ctx: RefreshScheduleContext,
    private readonly log?: (line: string) => void,
  ) {}

  start(everyMs = TICK_MS): void {
    if (this.timer !== null || this.stopped) return;
    this.timer = setInterval(() => void this.tick(), everyMs);
    this.timer.unref();
    void this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
  }

  status(): ScheduleStatus {
    this.follow(this.ctx.clock.nowMs());
    return { times: [...this.ctx.settings.refreshSchedule], nextRunAt: iso(this.nextMs), retryAt: iso(this.retryMs), lastRunAt: iso(this.lastRunMs), lastOutcome: this.lastOutcome };
  }

  /** The schedule of the settings as they are now: a changed list starts over from now. */
  private follow(nowMs: number): void {
    const times = this.ctx.settings.refreshSchedule;
    const key = times.join(',');
    if (key === this.timesKey) return;
    this.timesKey = key;
    this.nextMs = nextScheduledRun(nowMs, times);
    this.retryMs = null;
  }

  /** One look at the clock: runs a pass when a time of the schedule (or a retry) has come; resolves when it ended. */
  tick(): Promise<void> {
    if (this.ticking !== null) return this.ticking;
    this.ticking = this.look().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }

  private async look(): Promise<void> {
    if (this.stopped) return;
    const now = this.ctx.clock.nowMs();
    this.follow(now);
    if (this.nextMs === null) return;
    const scheduled = now >= this.nextMs;
    const retry = this.retryMs !== null && now >= this.retryMs;
    if (!scheduled && !retry) return;
    if (scheduled) this.nextMs = nextScheduledRun(now, this.ctx.settings.refreshSchedule);
    this.retryMs = null;
    this.lastRunMs = now;
    if (this.ctx.settings.onlineSource.baseUrl.trim() === '') {
      this.lastOutcome = 'not run: the online source has no base URL (Settings → Online chain source)';
      return;
    }
    const started = await this.ctx.refresh.start('schedule');
    if (!started.ok) {
      // A pass is already running (Refresh now, a script): it does what the schedule would.
      this.lastOutcome = `not started: ${describeError(started.error)}`;
      return;
    }
    await this.ctx.refresh.settled();
    const pass = this.ctx.refresh.status();
    const stored = pass.symbols.filter((s) => s.state === 'stored').length;
    const failed = pass.symbols.filter((s) => s.state === 'failed').length;
    if (pass.sourceProblem !== undefined) {
      const retryAt = this.ctx.sourceHealth?.retryAtEpochMs() ?? null;
      // Tried again with the source's backoff, as long as that comes before the next time of the schedule.
      this.retryMs = retryAt !== null && (this.nextMs === null || retryAt < this.nextMs) ? retryAt : null;
      this.lastOutcome = `${pass.sourceProblem}${this.retryMs === null ? '' : `; tried again at ${iso(this.retryMs) ?? ''}`}`;
      return;
    }
    this.lastOutcome = `${stored} of ${pass.symbols.length} symbols stored${failed > 0 ? `, ${failed} failed` : ''}`;
    this.log?.(`[schedule] refresh: ${this.lastOutcome}`);
  }
}
