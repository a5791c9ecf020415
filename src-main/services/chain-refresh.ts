/**
 * "Refresh now" (docs/exposure.md §Refresh what you hold): one pass over the online source's watchlist, the open
 * positions' underlyings included, started on request whether the periodic poller runs or not. Two symbols are
 * fetched at a time, each under the poller's size cap and time limit, and stored through the same ingest path
 * (events, SSE, one write turn each). A failure is the symbol's alone and says why. The latest pass stays readable.
 */
import type { Clock } from '../clock';
import type { Settings } from '../settings';
import type { ExposureService } from './exposure/service';
import type { JournalApi } from './journal/client';
import { fetchAndStoreChain, MAX_RESPONSE_BYTES, REQUEST_TIMEOUT_MS, type FetchLimits } from './online-source';
import { createSourceFetch, type SourceFetch } from './source-fetch';
import { failure, ok, type Result } from './result';
import { SourceUnreachableError, type SourceHealth } from './source-health';
import { watchlistOf } from './watchlist';

/** Symbols fetched at once: CBOE is a public CDN and the exposure worker plans one file at a time anyway. */
export const REFRESH_CONCURRENCY = 2;

/** `skipped`: not fetched because the source itself could not be reached (the pass's `sourceProblem` says why, once). */
export type RefreshState = 'queued' | 'fetching' | 'stored' | 'failed' | 'skipped';

export interface RefreshSymbol {
  symbol: string;
  origin: 'watchlist' | 'position';
  state: RefreshState;
  /** The stored snapshot (stored), also when it was already stored before (`unchanged`). */
  snapshotId?: number;
  quoteTime?: string;
  contracts?: number;
  unchanged?: boolean;
  /** Why the symbol failed: HTTP status, the time limit, the size cap, or the file's problems with their lines. */
  error?: string;
}

export interface RefreshPass {
  /** null: no pass has run since the server started. */
  startedAt: string | null;
  /** null while the pass runs. */
  finishedAt: string | null;
  running: boolean;
  symbols: RefreshSymbol[];
  /** Symbols past the watchlist's cap of 50, not fetched. */
  omitted: string[];
  /** Why the open positions could not be added (the pass then fetches the setting's list alone), else absent. */
  positionsProblem?: string;
  /**
   * The source could not be reached (no network, DNS, refused, timeout): one line for the whole pass, the symbols not
   * fetched are `skipped` (issue 30: 23 rows of "fetch failed" said nothing).
   */
  sourceProblem?: string;
  /** When the source is tried again (the poller and the schedule wait until then), with sourceProblem. */
  retryAt?: string;
  /** What started the pass: a request (Refresh now, a script) or the schedule (refreshSchedule). */
  trigger?: 'request' | 'schedule';
}

export interface ChainRefreshContext {
  readonly settings: Pick<Settings, 'onlineSource' | 'watchlistIncludesPositions'>;
  clock: Clock;
  exposure: ExposureService;
  journal: Pick<JournalApi, 'positions'>;
  /** Whether the source answers (source-health.ts): told of each symbol's outcome. */
  sourceHealth?: SourceHealth;
}

export class ChainRefresh {
  private latest: RefreshPass | null = null;
  private current: Promise<void> | null = null;
  private readonly stopper = new AbortController();

  constructor(
    private readonly ctx: ChainRefreshContext,
    private readonly log?: (line: string) => void,
    private readonly fetchImpl: SourceFetch = createSourceFetch(),
    /** The poller's limits (tests shorten the time limit). */
    private readonly limits: FetchLimits = { timeoutMs: REQUEST_TIMEOUT_MS, maxBytes: MAX_RESPONSE_BYTES },
  ) {}

  /** The latest pass (a copy); before the first, an empty one with no start. */
  status(): RefreshPass {
    return this.latest === null ? { startedAt: null, finishedAt: null, running: false, symbols: [], omitted: [] } : copyPass(this.latest);
  }

  /**
   * Starts a pass; answers once its watchlist is known (the symbols all `queued`). A second pass while one runs is
   * refused rather than joined: its caller learns that what runs was started before its request.
   */
  async start(trigger: 'request' | 'schedule' = 'request'): Promise<Result<RefreshPass>> {
    if (this.stopper.signal.aborted) return failure({ kind: 'refresh-refused', reason: 'running', detail: 'The server is stopping.' });
    if (this.current !== null) return failure({ kind: 'refresh-refused', reason: 'running', detail: `A refresh started at ${this.latest?.startedAt ?? 'a moment ago'} is still running: GET /v1/chains/refresh follows it.` });
    const baseUrl = this.ctx.settings.onlineSource.baseUrl.trim();
    if (baseUrl === '') {
      return failure({ kind: 'refresh-refused', reason: 'no-source', detail: 'The online source has no base URL: set onlineSource.baseUrl in Settings (the CBOE delayed-quotes address) to refresh chains.' });
    }
    const pass: RefreshPass & { startedAt: string } = { startedAt: new Date(this.ctx.clock.nowMs()).toISOString(), finishedAt: null, running: true, symbols: [], omitted: [], trigger };
    // Claimed before the watchlist is read (an await): a second request meanwhile finds the pass running.
    let release = () => undefined as void;
    this.current = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.latest = pass;
    try {
      const watchlist = await watchlistOf(this.ctx);
      pass.symbols = watchlist.symbols.map(({ symbol, origin }) => ({ symbol, origin, state: 'queued' }));
      pass.omitted = watchlist.omitted;
      if (watchlist.positionsProblem !== null) pass.positionsProblem = watchlist.positionsProblem;
    } catch (error) {
      this.finish(pass);
      release();
      throw error;
    }
    void this.run(pass, baseUrl).finally(() => {
      this.finish(pass);
      release();
    });
    return ok(copyPass(pass));
  }

  /** Resolves when the running pass (if any) has ended. */
  async settled(): Promise<void> {
    await this.current;
  }

  /** The server is closing: transfers in flight are cut, queued symbols fail, no pass starts again. */
  async stop(): Promise<void> {
    this.stopper.abort();
    await this.current;
  }

  private finish(pass: RefreshPass): void {
    pass.running = false;
    pass.finishedAt = new Date(this.ctx.clock.nowMs()).toISOString();
    this.current = null;
  }

  private async run(pass: RefreshPass, baseUrl: string): Promise<void> {
    let next = 0;
    const worker = async () => {
      for (;;) {
        const entry = pass.symbols[next];
        next += 1;
        if (entry === undefined) return;
        // The source cannot be reached: the symbols left are not tried one by one, each to fail alike.
        if (pass.sourceProblem !== undefined) {
          entry.state = 'skipped';
          continue;
        }
        await this.refreshSymbol(pass, entry, baseUrl);
      }
    };
    await Promise.all(Array.from({ length: REFRESH_CONCURRENCY }, worker));
  }

  private async refreshSymbol(pass: RefreshPass, entry: RefreshSymbol, baseUrl: string): Promise<void> {
    entry.state = 'fetching';
    try {
      if (this.stopper.signal.aborted) throw new Error('the server stopped before the symbol was fetched');
      const result = await fetchAndStoreChain(this.ctx, baseUrl, entry.symbol, this.fetchImpl, this.limits, this.stopper.signal);
      this.ctx.sourceHealth?.reachable();
      Object.assign(entry, { state: 'stored', snapshotId: result.id, quoteTime: result.quoteTime, contracts: result.contracts, unchanged: !result.stored });
    } catch (error) {
      if (error instanceof SourceUnreachableError) {
        entry.state = 'skipped';
        if (pass.sourceProblem === undefined) {
          pass.sourceProblem = error.problem.message;
          const health = this.ctx.sourceHealth;
          if (health === undefined) this.log?.(`[refresh] ${error.problem.message}`);
          else {
            health.unreachable(error.problem);
            const retryMs = health.retryAtEpochMs();
            if (retryMs !== null) pass.retryAt = new Date(retryMs).toISOString();
          }
        }
        return;
      }
      if (!this.stopper.signal.aborted) this.ctx.sourceHealth?.reachable();
      entry.state = 'failed';
      entry.error = error instanceof Error ? error.message : String(error);
      this.log?.(`[refresh] ${entry.symbol}: ${entry.error}`);
    }
  }
}

function copyPass(pass: RefreshPass): RefreshPass {
  return { ...pass, symbols: pass.symbols.map((s) => ({ ...s })), omitted: [...pass.omitted] };
}
