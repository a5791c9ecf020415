/**
 * Whether the online source can be reached (issue 30, item 4; docs/exposure.md §Chains that arrive by themselves): a
 * failure of the network — no network, a name that does not resolve, a refused connection, no answer in time, a bad
 * certificate — is the source's, not a symbol's. It is said once, as one line naming the host and the reason, and
 * the source is tried again with backoff (30 s, doubling, at most 30 minutes) by the poller and the schedule, which
 * skip their rounds until then. The status line (GET /v1/status) and the page that asked show the one line.
 */
import type { Clock } from '../clock';

/** Why the source cannot be reached, in the words the line uses; `address`: its address breaks the setting's rules. */
export type UnreachableReason = 'no-network' | 'dns' | 'refused' | 'timeout' | 'reset' | 'tls' | 'address';

export interface SourceProblem {
  host: string;
  reason: UnreachableReason;
  /** `cannot reach <host>: <why>`: the one line. */
  message: string;
}

/** The fetch of the source failed before any answer, for a reason that is the source's, not a symbol's. */
export class SourceUnreachableError extends Error {
  constructor(readonly problem: SourceProblem) {
    super(problem.message);
    this.name = 'SourceUnreachableError';
  }
}

/** The first retry after the source was found unreachable; each failure doubles it... */
export const FIRST_RETRY_MS = 30_000;
/** ...up to this. */
export const MAX_RETRY_MS = 30 * 60_000;

const NO_NETWORK = new Set(['ENETUNREACH', 'EHOSTUNREACH', 'ENETDOWN', 'EHOSTDOWN', 'EADDRNOTAVAIL']);
const TIMEOUT = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);
const RESET = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET']);

/** The system error codes of an error and of its causes (fetch and undici wrap them). */
function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url.slice(0, 100);
  }
}

function portOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.port !== '' ? parsed.port : parsed.protocol === 'https:' ? '443' : '80';
  } catch {
    return '?';
  }
}

/**
 * The source-wide problem an error of the fetch stands for, or null when it is something else (an HTTP status, a file
 * that does not parse, a connected server slow to answer: the symbol's own). `timedOutMs`: the time limit ended it.
 */
export function unreachableProblem(error: unknown, sourceUrl: string, timedOutMs?: number): SourceProblem | null {
  const host = hostOf(sourceUrl);
  const say = (reason: UnreachableReason, why: string): SourceProblem => ({ host, reason, message: `cannot reach ${host}: ${why}` });
  for (const code of codesOf(error)) {
    // The time limit ended a request whose connection was never made (source-fetch.ts); one that connected and was
    // not answered in time is the symbol's (a slow chain), not the source's.
    if (code === 'ETIMEDOUT' && timedOutMs !== undefined) return say('timeout', `no connection within ${Math.round(timedOutMs / 1000)} s`);
    if (code === 'ENOTFOUND') return say('dns', 'the name does not resolve (DNS lookup failed)');
    // A lookup that could not be made at all: the usual sign of no network (or no DNS server).
    if (code === 'EAI_AGAIN' || code === 'EAI_FAIL') return say('no-network', 'no network (the name could not be looked up)');
    if (code === 'ECONNREFUSED') return say('refused', `connection refused (nothing answers on port ${portOf(sourceUrl)})`);
    if (NO_NETWORK.has(code)) return say('no-network', 'no network');
    if (TIMEOUT.has(code)) return say('timeout', 'the connection timed out');
    if (RESET.has(code)) return say('reset', 'the connection was closed before an answer');
    if (code.startsWith('ERR_TLS') || code.includes('CERT') || code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code.startsWith('ERR_SSL')) return say('tls', `the secure connection failed (${code})`);
  }
  return null;
}

export type SourceState = 'unknown' | 'ok' | 'unreachable';

export interface SourceHealthStatus {
  state: SourceState;
  /** While unreachable: the one line. */
  message: string | null;
  host: string | null;
  reason: UnreachableReason | null;
  /** When it was first found unreachable (this time). */
  since: string | null;
  /** Failed attempts in a row. */
  failures: number;
  /** When the poller and the schedule try again. */
  retryAt: string | null;
  /** The last answer the source gave (any HTTP answer counts: the network works). */
  lastOkAt: string | null;
}

export class SourceHealth {
  private state: SourceState = 'unknown';
  private problem: SourceProblem | null = null;
  private sinceMs: number | null = null;
  private failures = 0;
  private retryAtMs: number | null = null;
  private lastOkMs: number | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly log?: (line: string) => void,
  ) {}

  /** The source answered (even with an error status): the network works. Logged once when it comes back. */
  reachable(): void {
    if (this.state === 'unreachable') this.log?.(`[online] ${this.problem?.host ?? 'the source'} answers again`);
    this.state = 'ok';
    this.problem = null;
    this.sinceMs = null;
    this.failures = 0;
    this.retryAtMs = null;
    this.lastOkMs = this.clock.nowMs();
  }

  /** The source could not be reached: one log line when the reason changes, the next try pushed back. */
  unreachable(problem: SourceProblem): void {
    const now = this.clock.nowMs();
    const changed = this.state !== 'unreachable' || this.problem?.message !== problem.message;
    if (this.state !== 'unreachable') this.sinceMs = now;
    this.state = 'unreachable';
    this.problem = problem;
    this.failures += 1;
    const waitMs = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (this.failures - 1));
    this.retryAtMs = now + waitMs;
    if (changed) this.log?.(`[online] ${problem.message}; trying again with backoff (next in ${Math.round(waitMs / 1000)} s)`);
  }

  /** While unreachable and before the retry time: rounds of the poller and the schedule wait. */
  waiting(): boolean {
    return this.state === 'unreachable' && this.retryAtMs !== null && this.clock.nowMs() < this.retryAtMs;
  }

  /** The retry time in epoch ms, while unreachable. */
  retryAtEpochMs(): number | null {
    return this.state === 'unreachable' ? this.retryAtMs : null;
  }

  status(): SourceHealthStatus {
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return {
      state: this.state,
      message: this.problem?.message ?? null,
      host: this.problem?.host ?? null,
      reason: this.problem?.reason ?? null,
      since: iso(this.sinceMs),
      failures: this.failures,
      retryAt: iso(this.state === 'unreachable' ? this.retryAtMs : null),
      lastOkAt: iso(this.lastOkMs),
    };
  }
}
