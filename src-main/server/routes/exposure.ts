import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  EventsQuery,
  EventsResponse,
  EventsStreamQuery,
  ExpirationsQuery,
  ExpirationsResponse,
  GexQuery,
  GexResponse,
  VannaQuery,
  VannaResponse,
  type ExposureEventJson,
} from '../../../src-shared/api/schemas';
import type { AppContext } from '../context';
import { ApiError } from '../problems';
import type { CachedAnswer } from '../../services/exposure';
import { problemResponses, type V1 } from './health';

/** Sends a cached answer and remembers the URL the router dispatched here, for the fast path (fast-path.ts). */
function sendCached(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, answer: CachedAnswer): FastifyReply {
  ctx.exposure.rememberUrl(request.url, answer, request.routeOptions.config.access ?? 'key');
  reply.header('ETag', answer.etag).header('Cache-Control', CACHE_CONTROL);
  if (request.headers['if-none-match'] === answer.etag) return reply.code(304).send();
  return reply.type(JSON_TYPE).send(answer.bytes);
}

export const CACHE_CONTROL = 'private, no-cache';
export const JSON_TYPE = 'application/json; charset=utf-8';

/** How often open streams look for keys revoked by another process (the CLI), through `data_version`. */
export const STREAM_KEY_CHECK_MS = 1000;

export function registerExposureRoutes(v1: V1, ctx: AppContext): void {
  // Open SSE streams, each with the key that opened it: a stream ends when its key is revoked or rotated away.
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
  v1.get(
    '/gex',
    {
      schema: {
        summary: 'Dealer gamma exposure by strike with walls, zone and gamma flip',
        tags: ['exposure'],
        querystring: GexQuery,
        response: { 200: GexResponse, 304: { type: 'null', description: 'Not modified (If-None-Match)' }, ...problemResponses },
      },
    },
    async (request, reply) =>
      sendCached(ctx, request, reply, ctx.exposure.gex(request.query, reply.compileSerializationSchema(GexResponse as unknown as Record<string, unknown>, '200') as (v: unknown) => string)),
  );
  v1.get(
    '/vanna',
    {
      schema: {
        summary: 'Dealer vanna and charm exposure with key levels (0–45 dte aggregate or one expiration)',
        tags: ['exposure'],
        querystring: VannaQuery,
        response: { 200: VannaResponse, 304: { type: 'null', description: 'Not modified (If-None-Match)' }, ...problemResponses },
      },
    },
    async (request, reply) =>
      sendCached(ctx, request, reply, ctx.exposure.vanna(request.query, reply.compileSerializationSchema(VannaResponse as unknown as Record<string, unknown>, '200') as (v: unknown) => string)),
  );
  v1.get(
    '/expirations',
    { schema: { summary: 'Unexpired expirations of the latest snapshot', tags: ['exposure'], querystring: ExpirationsQuery, response: { 200: ExpirationsResponse, ...problemResponses } } },
    async (request) => ctx.exposure.expirations(request.query.symbol),
  );
  v1.get(
    '/gex/events',
    {
      schema: {
        summary: 'Flip and wall events, newest first (limit default 50, clamped to 200)',
        tags: ['exposure'],
        querystring: EventsQuery,
        response: { 200: EventsResponse, ...problemResponses },
      },
    },
    async (request) => ctx.exposure.events(request.query),
  );
  v1.get(
    '/gex/events/stream',
    {
      config: { access: 'key-or-token' },
      schema: {
        summary: 'Server-sent events: each new flip or wall event as `event: flip|wall`, `data: <event JSON>`. EventSource may pass the key as ?access_token=.',
        tags: ['exposure'],
        querystring: { ...EventsStreamQuery, properties: { ...EventsStreamQuery.properties, access_token: { type: 'string', maxLength: 512 } } },
        response: { 200: { type: 'string', description: 'text/event-stream' }, ...problemResponses },
      },
    },
    async (request, reply) => {
      const query = request.query as { tickers?: string; eventType?: 'all' | 'flip' | 'wall' };
      const tickers = query.tickers === undefined ? null : new Set(query.tickers.split(',').map((t) => t.toUpperCase()));
      const type = query.eventType ?? 'all';
      const keyId = request.keyId;
      // The gate admitted this route only with a key; without one the stream could not end on its revocation.
      if (keyId === null) throw new ApiError('UNAUTHORIZED', 'The event stream needs a key.');
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
      raw.write(': connected\n\n');
      const send = (event: ExposureEventJson) => {
        if (tickers !== null && !tickers.has(event.ticker)) return;
        if (type !== 'all' && event.eventType !== type) return;
        raw.write(`id: ${event.id}\nevent: ${event.eventType}\ndata: ${JSON.stringify(event)}\n\n`);
      };
      const unsubscribe = ctx.exposure.onEvent(send);
      streams.set(raw, keyId);
      watch();
      const heartbeat = setInterval(() => raw.write(': ping\n\n'), 15_000);
      heartbeat.unref();
      const stop = () => {
        clearInterval(heartbeat);
        unsubscribe();
        streams.delete(raw);
        watch();
      };
      request.raw.on('close', stop);
      raw.on('close', stop);
    },
  );
}
