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
import type { CachedAnswer } from '../../services/exposure';
import { problemResponses, type V1 } from './health';

function sendCached(request: FastifyRequest, reply: FastifyReply, answer: CachedAnswer, remember: (url: string, answer: CachedAnswer) => void): FastifyReply {
  remember(request.url, answer);
  reply.header('ETag', answer.etag).header('Cache-Control', CACHE_CONTROL);
  if (request.headers['if-none-match'] === answer.etag) return reply.code(304).send();
  return reply.type(JSON_TYPE).send(answer.bytes);
}

export const CACHE_CONTROL = 'private, no-cache';
export const JSON_TYPE = 'application/json; charset=utf-8';

export function registerExposureRoutes(v1: V1, ctx: AppContext): void {
  // Open SSE responses never go idle: end them when the server closes so that shutdown does not hang.
  const streams = new Set<ServerResponse>();
  v1.addHook('preClose', async () => {
    for (const stream of streams) stream.end();
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
      sendCached(request, reply, ctx.exposure.gex(request.query, reply.compileSerializationSchema(GexResponse as unknown as Record<string, unknown>, '200') as (v: unknown) => string), (url, answer) => ctx.exposure.rememberUrl(url, answer)),
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
      sendCached(request, reply, ctx.exposure.vanna(request.query, reply.compileSerializationSchema(VannaResponse as unknown as Record<string, unknown>, '200') as (v: unknown) => string), (url, answer) => ctx.exposure.rememberUrl(url, answer)),
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
      streams.add(raw);
      const heartbeat = setInterval(() => raw.write(': ping\n\n'), 15_000);
      heartbeat.unref();
      const stop = () => {
        clearInterval(heartbeat);
        unsubscribe();
        streams.delete(raw);
      };
      request.raw.on('close', stop);
      raw.on('close', stop);
    },
  );
}
