import { appendBounded, boundedBody, boundedBytes } from '../../src-shared/bytes';
import type { Clock } from '../clock';
import type { Settings } from '../settings';
import type { ExposureService, IngestResult } from './exposure/service';
import { describeError } from './result';
import { watchlistOf, type WatchlistContext } from './watchlist';
import { createSourceFetch, fetchFromSource, SourceAddressError, type SourceFetch } from './source-fetch';
import { SourceUnreachableError, unreachableProblem, type SourceHealth, type SourceProblem } from './source-health';
import { asTicker } from '../../src-shared/ids';

/** The host of the source's address, or the start of what was written when it is no URL. */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl.slice(0, 100);
  }
}

/** A failure of the fetch that is the whole source's (the network, or an address its rules refuse), else null. */
function sourceProblemOf(error: unknown, baseUrl: string, timedOutMs: number | undefined): SourceProblem | null {
  if (error instanceof SourceAddressError) {
    return { host: hostOf(baseUrl), reason: 'address', message: error.message };
  }
  return unreachableProblem(error, baseUrl, timedOutMs);
}

/** How far a quote time may lie after the poll (clocks of two machines) before the snapshot is refused. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * The largest response read (docs/architecture.md §Reliability): CBOE's whole SPX chain is about 10 MB; a server
 * that sent more (or without end) once took the process from 135 to 1,303 MB in one poll.
 */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** A poll that has not been answered whole by then is given up (connect, headers and body). */
export const REQUEST_TIMEOUT_MS = 20_000;

/**
 * The body of a response, read up to `maxBytes` (then the transfer is cancelled), into memory that owns itself
 * (src-shared/bytes.ts): a 30 MB chain is not held as its chunks and their copy at once.
 */
async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new Error(`the response is ${declared} bytes, more than the ${maxBytes / 1024 / 1024} MB read`);
  }
  const reader = response.body?.getReader();
  if (reader === undefined) return new Uint8Array(0);
  const buffer = boundedBytes(maxBytes, declared);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!appendBounded(buffer, value)) {
      await reader.cancel();
      throw new Error(`the response is longer than the ${maxBytes / 1024 / 1024} MB read`);
    }
  }
  // A copy of its own when the buffer grew past the body: what is kept (the poller's snapshot text) holds no spare half.
  const body = boundedBody(buffer);
  return body.byteLength === body.buffer.byteLength ? body : body.slice();
}

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
}

/**
 * Fetches one symbol's delayed-quotes JSON and stores it through the exposure ingest path (the poller and the refresh
 * alike: events, SSE, the same write turn). Throws an Error whose message names what failed (HTTP status, time limit,
 * size cap, the file's problems with their lines).
 */
export async function fetchAndStoreChain(
  ctx: Pick<OnlineSourceContext, 'clock' | 'exposure'>,
  baseUrl: string,
  symbol: string,
  fetchImpl: SourceFetch,
  limits: FetchLimits,
  /** Aborted when the server stops: the transfer and the file's parse are given up. */
  stop?: AbortSignal,
): Promise<IngestResult> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = stop === undefined ? timeout : AbortSignal.any([timeout, stop]);
  const timedOut = (error: unknown) => {
    if (stop?.aborted === true) throw new Error('the server stopped before the answer');
    throw timeout.aborted ? new Error(`no whole answer within ${limits.timeoutMs / 1000} s`) : error;
  };
  // Only where the setting points: its address rules, the addresses its host resolves to, redirects within its origin (source-fetch.ts).
  // No answer at all (no network, DNS, refused, no headers in time) is the source's failure, said once (source-health.ts).
  const response = await fetchFromSource(baseUrl, chainUrl(baseUrl, symbol), fetchImpl, signal).catch((error: unknown) => {
    if (stop?.aborted === true) throw new Error('the server stopped before the answer');
    const problem = sourceProblemOf(error, baseUrl, timeout.aborted ? limits.timeoutMs : undefined);
    if (problem !== null) throw new SourceUnreachableError(problem);
    return timedOut(error);
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`HTTP ${response.status}`);
  }
  const body = await readCapped(response, limits.maxBytes).catch(timedOut);
  // Parsed, prepared and evaluated in the exposure worker (the bytes moved there), like POST /v1/chains; a quote
  // time after the poll is refused there (exposure/compute.ts, planChainFile).
  const stored = await ctx.exposure.ingest({ file: body, options: { format: 'cboe-json', symbol, source: 'online', polled: { atMs: ctx.clock.nowMs(), skewMs: MAX_CLOCK_SKEW_MS } } }, stop);
  if (!stored.ok) throw new Error(describeError(stored.error));
  return stored.value;
}

/** CBOE serves index chains under a leading underscore (`_SPX.json`), equities without (`SPY.json`). */
const INDEX_SYMBOLS = new Set(['SPX', 'NDX', 'RUT', 'VIX', 'XSP', 'DJX', 'OEX', 'XEO', 'MRUT']);

/** What the poller needs of the running app (its context has all of it). */
export interface OnlineSourceContext extends WatchlistContext {
  readonly settings: Pick<Settings, 'onlineSource' | 'watchlistIncludesPositions'>;
  clock: Clock;
  exposure: ExposureService;
  /** Whether the source answers: a round waits while it is unreachable (source-health.ts). */
  sourceHealth?: SourceHealth;
}

export function chainUrl(baseUrl: string, symbol: string): string {
  const ticker = asTicker(symbol);
  const name = INDEX_SYMBOLS.has(ticker) ? `_${ticker}` : ticker;
  let end = baseUrl.length;
  while (end > 0 && baseUrl.charAt(end - 1) === '/') end -= 1;
  return `${baseUrl.slice(0, end)}/${name}.json`;
}

export interface PollStatus {
  symbol: string;
  ok: boolean;
  message: string;
  at: string;
}

/**
 * Optional online source (off by default): polls the CBOE delayed-quotes JSON for the watchlist. On an
 * error a symbol backs off (doubling, up to 30 minutes) and the API keeps serving its last good snapshot.
 */
export class OnlineSource {
  private timer: NodeJS.Timeout | null = null;
  private readonly backoffUntilMs = new Map<string, number>();
  private readonly failures = new Map<string, number>();
  readonly status = new Map<string, PollStatus>();
  private running = false;

  constructor(
    private readonly ctx: OnlineSourceContext,
    private readonly log: ((line: string) => void) | undefined,
    private readonly fetchImpl: SourceFetch = createSourceFetch(),
    /** The request's time limit and the body's cap (tests shorten them). */
    private readonly limits: FetchLimits = { timeoutMs: REQUEST_TIMEOUT_MS, maxBytes: MAX_RESPONSE_BYTES },
  ) {}

  private nowMs(): number {
    return this.ctx.clock.nowMs();
  }

  start(): void {
    if (this.timer !== null) return;
    const tick = () => {
      void this.pollOnce().finally(() => {
        if (this.timer === null) return;
        this.timer = setTimeout(tick, Math.max(15, this.ctx.settings.onlineSource.intervalSeconds) * 1000);
        this.timer.unref();
      });
    };
    this.timer = setTimeout(tick, 1000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** One round over the watchlist; does nothing while the source is disabled. */
  async pollOnce(): Promise<PollStatus[]> {
    const source = this.ctx.settings.onlineSource;
    if (!source.enabled || source.baseUrl.trim() === '' || this.running) return [];
    // Unreachable a moment ago: the round waits for the retry time rather than fail once per symbol.
    if (this.ctx.sourceHealth?.waiting() === true) return [];
    this.running = true;
    const results: PollStatus[] = [];
    try {
      // The setting's symbols and, when the setting says so, the open positions' underlyings (watchlist.ts).
      const { symbols } = await watchlistOf(this.ctx);
      for (const { symbol } of symbols) {
        if ((this.backoffUntilMs.get(symbol) ?? 0) > this.nowMs()) continue;
        const status = await this.pollSymbol(source.baseUrl, symbol);
        if (status === null) break;
        results.push(status);
      }
    } finally {
      this.running = false;
    }
    return results;
  }

  /** One symbol's poll; null when the source itself cannot be reached (said once by the health, the round ends). */
  private async pollSymbol(baseUrl: string, symbol: string): Promise<PollStatus | null> {
    const at = new Date(this.nowMs()).toISOString();
    let status: PollStatus;
    try {
      const result = await fetchAndStoreChain(this.ctx, baseUrl, symbol, this.fetchImpl, this.limits);
      this.ctx.sourceHealth?.reachable();
      this.failures.delete(symbol);
      this.backoffUntilMs.delete(symbol);
      status = { symbol, ok: true, message: `${result.contracts} contracts at ${result.quoteTime}${result.stored ? '' : ' (unchanged)'}`, at };
    } catch (error) {
      if (error instanceof SourceUnreachableError && this.ctx.sourceHealth !== undefined) {
        this.ctx.sourceHealth.unreachable(error.problem);
        return null;
      }
      if (!(error instanceof SourceUnreachableError)) this.ctx.sourceHealth?.reachable();
      const failures = (this.failures.get(symbol) ?? 0) + 1;
      this.failures.set(symbol, failures);
      const waitMs = Math.min(30 * 60_000, 2 ** failures * 15_000);
      this.backoffUntilMs.set(symbol, this.nowMs() + waitMs);
      status = { symbol, ok: false, message: `${error instanceof Error ? error.message : String(error)}; retry in ${Math.round(waitMs / 1000)} s`, at };
      this.log?.(`[online] ${symbol}: ${status.message}`);
    }
    this.status.set(symbol, status);
    return status;
  }
}
