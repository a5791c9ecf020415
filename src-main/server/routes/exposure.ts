import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ROUTES } from '../../../src-shared/api/routes';
import type { ExposureEvent, PlannedAnswer } from '../../services/exposure/service';
import { gexGrid, snapshotById } from '../../services/exposure/reads';
import type { AnswerCache } from '../answer-cache';
import type { ConnectionBook } from '../connections';
import { CONNECTIONS_RETRY_AFTER_SECONDS } from '../listener';
import type { AppContext } from '../context';
import { presentDiff, presentEvent, presentExpirations, presentGex, presentGexGrid, presentGexProfile, presentHistory, presentSnapshot, presentSnapshots, presentVanna } from '../presenters/exposure';
import { ApiError, unwrap } from '../problems';
import { CACHE_CONTROL, clientGone, dateOrDateTime, datesInOrder, JSON_TYPE, numbersInOrder, oneOf, queryRules, type V1 } from '../route-kit';
import { serve } from '../route-table';

/** How often open streams look for keys revoked by another process (the CLI), through `data_version`. */
export const STREAM_KEY_CHECK_MS = 1000;

/**
 * The response schemas as plain objects, for Fastify's serializer compiler (which takes an index-signature type and
 * caches by the object: one object each, for the life of the process).
 */
const GEX_SCHEMA = { ...ROUTES['GET /gex'].response[200] };
const VANNA_SCHEMA = { ...ROUTES['GET /vanna'].response[200] };
const PROFILE_SCHEMA = { ...ROUTES['GET /gex/profile'].response[200] };
const GRID_SCHEMA = { ...ROUTES['GET /gex/grid'].response[200] };

/** The rules of the /gex scope parameters and of the snapshot selector. */
// `expirations` names the scope outright: a count or a dte range beside it would be silently ignored (issue 18).
const scopeRules = [numbersInOrder('minDte', 'maxDte'), oneOf('expirations', 'expirationsCount', 'minDte', 'maxDte')];
const selectorRules = [oneOf('snapshot', 'at'), dateOrDateTime('at')];

/** A comma-separated query value as a list (`tickers=SPX,SPY`). */
function list(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : value.split(',');
}

/** The headers of an event stream (and of a HEAD on it). */
const STREAM_HEADERS = { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' };

export function registerExposureRoutes(v1: V1, ctx: AppContext, answers: AnswerCache, connections: ConnectionBook): void {
  /**
   * Sends the answer from the cache (computing, presenting and serialising it once), honours If-None-Match, and
   * remembers the URL the router dispatched here for the fast path (fast-path.ts).
   */
  function sendAnswer<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    planned: PlannedAnswer<T>,
    present: (value: T) => Record<string, unknown>,
    schema: Record<string, unknown>,
  ): FastifyReply {
    const serialize = reply.compileSerializationSchema(schema, '200');
    const answer = answers.answer(planned, (value) => serialize(present(value)));
    answers.rememberUrl(request.url, answer, request.routeOptions.config.access ?? 'key');
    reply.header('ETag', answer.etag).header('Cache-Control', CACHE_CONTROL);
    if (request.headers['if-none-match'] === answer.etag) return reply.code(304).send();
    return reply.type(JSON_TYPE).send(answer.bytes);
  }

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
  serve(v1, 'GET /gex', async (request, reply) => sendAnswer(request, reply, unwrap(await ctx.exposure.gex(request.query)), presentGex, GEX_SCHEMA), {
    preHandler: queryRules(...scopeRules, ...selectorRules),
  });
  serve(v1, 'GET /vanna', async (request, reply) => sendAnswer(request, reply, unwrap(await ctx.exposure.vanna(request.query)), presentVanna, VANNA_SCHEMA), {
    preHandler: queryRules(...selectorRules),
  });
  serve(v1, 'GET /expirations', async (request) => presentExpirations(unwrap(await ctx.exposure.expirations(request.query))), { preHandler: queryRules(...selectorRules) });
  serve(v1, 'GET /gex/profile', async (request, reply) => sendAnswer(request, reply, unwrap(await ctx.exposure.gexProfile(request.query)), presentGexProfile, PROFILE_SCHEMA), {
    preHandler: queryRules(...scopeRules, ...selectorRules),
  });
  serve(v1, 'GET /gex/grid', async (request, reply) => sendAnswer(request, reply, unwrap(await gexGrid(ctx.exposure, request.query, ctx.clock)), presentGexGrid, GRID_SCHEMA), {
    preHandler: queryRules(numbersInOrder('minDte', 'maxDte'), ...selectorRules),
  });
  serve(v1, 'GET /gex/history', async (request, reply) => presentHistory(unwrap(await ctx.exposure.gexHistory(request.query, clientGone(reply)))), {
    preHandler: queryRules(...scopeRules, dateOrDateTime('from'), dateOrDateTime('to'), datesInOrder('from', 'to')),
  });
  serve(v1, 'GET /gex/diff', async (request) => presentDiff(unwrap(await ctx.exposure.gexDiff(request.query))), { preHandler: queryRules(...scopeRules) });
  serve(v1, 'GET /snapshots', async (request) => {
    const listed = unwrap(ctx.exposure.snapshotList(request.query.symbol));
    return presentSnapshots(request.query.symbol.toUpperCase(), listed);
  });
  serve(v1, 'GET /snapshots/{id}', async (request) => presentSnapshot(unwrap(snapshotById(ctx.exposure, request.params.id))));
  serve(v1, 'DELETE /snapshots/{id}', async (request) => {
    // A backup first (services/backups.ts): a snapshot's contracts and history points go with it; a backup that fails stops it.
    unwrap(await ctx.backups.before('delete'));
    return unwrap(await ctx.exposure.deleteSnapshot(request.params.id));
  });
  serve(
    v1,
    'GET /gex/events',
    async (request) => {
      const { tickers, ...query } = request.query;
      const named = tickers === undefined ? undefined : list(tickers);
      const events = ctx.exposure.events({ ...query, ...(named === undefined ? {} : { tickers: named }) });
      return { events: events.map(presentEvent), explanations: ctx.exposure.eventStore.latestExplanations(named) };
    },
    { preHandler: queryRules(numbersInOrder('minDte', 'maxDte')) },
  );
  serve(
    v1,
    'GET /gex/events/stream',
    async (request, reply) => {
      const tickers = request.query.tickers === undefined ? null : new Set(request.query.tickers.split(',').map((t) => t.toUpperCase()));
      const type = request.query.eventType ?? 'all';
      const scope = request.query.scope ?? 'expiration';
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
      const send = (event: ExposureEvent) => {
        if (tickers !== null && !tickers.has(event.ticker)) return;
        if (type !== 'all' && event.eventType !== type) return;
        if (event.eventType !== 'position' && scope !== 'all' && (event.expiration === 'book') !== (scope === 'book')) return;
        raw.write(`id: ${event.id}\nevent: ${event.eventType}\ndata: ${JSON.stringify(presentEvent(event))}\n\n`);
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
        slot.release();
        watch();
      };
      request.raw.on('close', stop);
      raw.on('close', stop);
    },
  );
}
