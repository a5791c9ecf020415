import type { IncomingMessage } from 'node:http';
import { makeProblem, type Problem } from '../../src-shared/api/errors';
import type { AppContext } from './context';
import { RateLimiter } from './rate-limit';
import type { Access } from './route-kit';
import type { StreamTickets } from './stream-tickets';

export type Admission = { ok: true; keyId: string | null } | { ok: false; problem: Problem; headers: Record<string, string> };

/** Methods and headers a configured origin may use (the preflight's answer). */
const CORS_METHODS = 'GET, HEAD, POST, PUT, DELETE';
const CORS_HEADERS = 'Authorization, Content-Type, If-None-Match';
const CORS_EXPOSED = 'ETag, Retry-After, WWW-Authenticate';
const CORS_MAX_AGE_SECONDS = '600';

export interface Gate {
  readonly limiter: RateLimiter;
  /** Host (400 absent or repeated, 421 foreign), then the key (401), then the rate limit (429), for a request dispatched to a route of `access`. */
  admit(request: IncomingMessage, access: Access): Admission;
  /** True for `127.0.0.1:<port>` and `localhost:<port>` (lower case). */
  hostAllowed(host: string): boolean;
  /** The CORS headers for the request's Origin, or null (CORS off, no Origin, or an origin not listed exactly). */
  corsHeaders(request: IncomingMessage): Record<string, string> | null;
  /** A preflight from a listed origin: answered without a key. */
  preflightHeaders(request: IncomingMessage): Record<string, string> | null;
}

interface Credentials {
  host: string | undefined;
  authorization: string | undefined;
  /** A header that must appear once appeared twice: the request is ambiguous. */
  duplicate: 'host' | 'authorization' | null;
}

/** rawHeaders, not headers: Node builds the headers object lazily, and the fast path never needs it. */
function readCredentials(request: IncomingMessage): Credentials {
  const found: Credentials = { host: undefined, authorization: undefined, duplicate: null };
  const raw = request.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    if (name.length === 4 && name.toLowerCase() === 'host') {
      if (found.host !== undefined) found.duplicate = 'host';
      found.host = raw[i + 1];
    } else if (name.length === 13 && name.toLowerCase() === 'authorization') {
      if (found.authorization !== undefined) found.duplicate ??= 'authorization';
      found.authorization = raw[i + 1];
    }
  }
  return found;
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

const BEARER = /^Bearer\s+(\S{1,512})\s*$/i;
const MAX_TOKEN_LENGTH = 512;

/** Why a request has no usable key, in the words that lead to one. */
function unauthorizedDetail(request: IncomingMessage, credentials: Credentials, access: Access): string {
  const plain = 'Missing or unknown API key: send "Authorization: Bearer <key>" (the key is in the api-key file of the data folder).';
  if (access !== 'key-or-ticket' || credentials.authorization !== undefined) return plain;
  const url = request.url ?? '';
  // The key in a URL was accepted here until issue 18: it leaks into logs and history, so it is refused by name.
  if (/[?&]access_token=/.test(url)) return 'The stream does not take the key in its URL (access_token): send "Authorization: Bearer <key>", or open it with ?ticket= from POST /v1/gex/events/stream-ticket.';
  if (/[?&]ticket=/.test(url)) return 'Unknown, used or expired stream ticket: a ticket opens one stream within 60 s; get a new one from POST /v1/gex/events/stream-ticket.';
  return 'Missing API key: send "Authorization: Bearer <key>", or open the stream with ?ticket= from POST /v1/gex/events/stream-ticket.';
}

export function makeGate(ctx: AppContext, port: number, tickets: StreamTickets): Gate {
  const allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const limiter = new RateLimiter(() => ctx.settings.rateLimit, () => ctx.clock.monotonicMs());

  /** A query parameter of the request's target, or null (the fast path never parses the query otherwise). */
  function queryParam(request: IncomingMessage, name: string): string | null {
    const url = request.url ?? '';
    const queryStart = url.indexOf('?');
    if (queryStart === -1) return null;
    return new URLSearchParams(url.slice(queryStart + 1)).get(name);
  }

  /**
   * The key id a request presents: its Bearer key, or on the event stream (`key-or-ticket`) a stream ticket, good
   * once (stream-tickets.ts; a HEAD does not use it up) and only while its key is.
   */
  function presentedKeyId(request: IncomingMessage, credentials: Credentials, access: Access): string | null {
    if (credentials.duplicate === 'authorization') return null;
    if (credentials.authorization !== undefined) {
      const key = BEARER.exec(credentials.authorization)?.[1];
      return key === undefined ? null : ctx.keys.verify(key);
    }
    if (access !== 'key-or-ticket') return null;
    const ticket = queryParam(request, 'ticket');
    if (ticket === null || ticket.length > MAX_TOKEN_LENGTH) return null;
    // HEAD opens no stream: it looks at the ticket without spending it (issue 29).
    const keyId = request.method === 'HEAD' ? tickets.peek(ticket) : tickets.redeem(ticket);
    if (keyId === null) return null;
    // The live keys, as the stream opens: a key revoked by another process (the CLI) since the last look counts.
    return ctx.keys.isLive(keyId) ? keyId : null;
  }

  function refuse(problem: Problem, headers: Record<string, string> = {}): Admission {
    return { ok: false, problem, headers };
  }

  function listedOrigin(request: IncomingMessage): string | null {
    const origins = ctx.settings.corsOrigins;
    if (origins.length === 0) return null;
    const origin = header(request, 'origin');
    return origin !== undefined && origins.includes(origin) ? origin : null;
  }

  return {
    limiter,
    hostAllowed: (host) => allowedHosts.has(host),
    admit(request, access) {
      const credentials = readCredentials(request);
      // RFC 9112 §3.2: a request without a Host, or with two, is malformed (Node's own answer to it was a bare 400).
      if (credentials.host === undefined || credentials.duplicate === 'host') {
        return refuse(makeProblem('MALFORMED_REQUEST', `The request ${credentials.host === undefined ? 'has no Host header' : 'has more than one Host header'}; send one: Host: 127.0.0.1:${port}.`));
      }
      const host = credentials.host.toLowerCase();
      if (!allowedHosts.has(host)) {
        // DNS rebinding: a page on another origin that resolves to 127.0.0.1 still sends its own Host.
        return refuse(makeProblem('MISDIRECTED', `Host "${host.slice(0, 100)}" is not served here; use 127.0.0.1:${port} or localhost:${port}.`));
      }
      if (access === 'public') return { ok: true, keyId: null };
      const keyId = presentedKeyId(request, credentials, access);
      if (keyId === null) {
        return refuse(makeProblem('UNAUTHORIZED', unauthorizedDetail(request, credentials, access)), { 'WWW-Authenticate': 'Bearer realm="strikebook"' });
      }
      const waitSeconds = limiter.take(keyId);
      if (waitSeconds > 0) {
        const { perSecond, burst } = ctx.settings.rateLimit;
        return refuse(makeProblem('RATE_LIMITED', `Rate limit of ${perSecond} requests/s (burst ${burst}) exceeded for this key.`), { 'Retry-After': String(waitSeconds) });
      }
      return { ok: true, keyId };
    },
    corsHeaders(request) {
      const origin = listedOrigin(request);
      return origin === null ? null : { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': CORS_EXPOSED, Vary: 'Origin' };
    },
    preflightHeaders(request) {
      if (request.method !== 'OPTIONS' || header(request, 'access-control-request-method') === undefined) return null;
      const origin = listedOrigin(request);
      if (origin === null) return null;
      return {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': CORS_METHODS,
        'Access-Control-Allow-Headers': CORS_HEADERS,
        'Access-Control-Max-Age': CORS_MAX_AGE_SECONDS,
        Vary: 'Origin',
      };
    },
  };
}
