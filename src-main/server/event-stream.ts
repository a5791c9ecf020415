/**
 * The exposure event stream (`GET /v1/gex/events/stream`, server-sent events): each open stream with the key that
 * opened it, the filter of its query, its heartbeat, and its end when that key is revoked or rotated away (in this
 * process at once; by another process, the CLI, within STREAM_KEY_CHECK_MS) or when the server closes. The route
 * (routes/exposure.ts) declares it; this module holds the connections.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EventScope, EventTypeFilter } from '../../src-shared/api/constants';
import { tickerList } from '../../src-shared/ids';
import type { ExposureEvent } from '../services/exposure/service';
import type { ConnectionBook } from './connections';
import type { AppContext } from './context';
import { CONNECTIONS_RETRY_AFTER_SECONDS } from './listener';
import { presentEvent } from './presenters/exposure';
import { ApiError } from './problems';
import type { V1 } from './route-kit';

/** How often open streams look for keys revoked by another process (the CLI), through `data_version`. */
export const STREAM_KEY_CHECK_MS = 1000;
/** A comment line on every open stream this often, so that proxies and clients see it alive. */
const HEARTBEAT_MS = 15_000;

/** The headers of an event stream (and of a HEAD on it). */
const STREAM_HEADERS = { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' };

/** What a stream sends: the tickers named (all without), one event type or all, a scope (position events always). */
export interface StreamFilter {
  tickers: ReadonlySet<string> | null;
  eventType: EventTypeFilter;
  scope: EventScope;
}

export function streamFilter(query: { tickers?: string; eventType?: EventTypeFilter; scope?: EventScope }): StreamFilter {
  return {
    tickers: query.tickers === undefined ? null : new Set(tickerList(query.tickers)),
    eventType: query.eventType ?? 'all',
    scope: query.scope ?? 'expiration',
  };
}

function passes(filter: StreamFilter, event: ExposureEvent): boolean {
  if (filter.tickers !== null && !filter.tickers.has(event.ticker)) return false;
  if (filter.eventType !== 'all' && event.eventType !== filter.eventType) return false;
  return event.eventType === 'position' || filter.scope === 'all' || (event.expiration === 'book') === (filter.scope === 'book');
}

/**
 * The open streams of a /v1 app: `open` answers a stream request (hijacking its reply). Registered once per app: its
 * hooks end the streams on close and stop listening for key changes.
 */
export function eventStreams(v1: V1, ctx: AppContext, connections: ConnectionBook): { open: (request: FastifyRequest, reply: FastifyReply, filter: StreamFilter) => FastifyReply | undefined } {
  const streams = new Map<ServerResponse, string>();
  const endRevoked = () => {
    for (const [stream, keyId] of streams) if (!ctx.keys.isActive(keyId)) stream.end(': the key of this stream was revoked\n\n');
  };
  // Revocations in this process (rotation, Settings) reload the keys at once; another process's are seen by the
  // timer, which runs only while a stream is open.
  const unsubscribeKeys = ctx.keys.onChange(endRevoked);
  let keyCheck: NodeJS.Timeout | null = null;
  const watch = () => {
    if (streams.size > 0 && keyCheck === null) {
      keyCheck = setInterval(() => ctx.keys.refresh(), STREAM_KEY_CHECK_MS);
      keyCheck.unref();
    } else if (streams.size === 0 && keyCheck !== null) {
      clearInterval(keyCheck);
      keyCheck = null;
    }
  };
  // Open SSE responses never go idle: end them when the server closes so that shutdown does not hang.
  v1.addHook('preClose', async () => {
    for (const stream of streams.keys()) stream.end();
  });
  v1.addHook('onClose', async () => {
    unsubscribeKeys();
  });

  function open(request: FastifyRequest, reply: FastifyReply, filter: StreamFilter): FastifyReply | undefined {
    const keyId = request.keyId;
    // The gate admitted this route only with a key; without one the stream could not end on its revocation.
    if (keyId === null) throw new ApiError('UNAUTHORIZED', 'The event stream needs a key.');
    // HEAD: the stream's headers and no body, at once; a response that never ended held the connection (issue 29).
    if (request.method === 'HEAD') return reply.code(200).headers(STREAM_HEADERS).send('');
    // Per key and in all, counted apart from the connection cap (connections.ts).
    const slot = connections.openStream(request.raw.socket, keyId);
    if (!slot.ok) throw new ApiError('TOO_MANY_STREAMS', slot.detail, undefined, { headers: { 'Retry-After': String(CONNECTIONS_RETRY_AFTER_SECONDS * 5) } });
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, { ...STREAM_HEADERS, Connection: 'keep-alive' });
    raw.write(': connected\n\n');
    const unsubscribe = ctx.exposure.onEvent((event) => {
      if (passes(filter, event)) raw.write(`id: ${event.id}\nevent: ${event.eventType}\ndata: ${JSON.stringify(presentEvent(event))}\n\n`);
    });
    streams.set(raw, keyId);
    watch();
    const heartbeat = setInterval(() => raw.write(': ping\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    const stop = () => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(raw);
      slot.release();
      watch();
    };
    request.raw.on('close', stop);
    raw.on('close', stop);
    return undefined;
  }

  return { open };
}
