import type { FastifyReply, FastifyRequest } from 'fastify';
import { ROUTES } from '../../../src-shared/api/routes';
import { tickerList } from '../../../src-shared/ids';
import type { PlannedAnswer } from '../../services/exposure/service';
import type { AnswerCache } from '../answer-cache';
import type { ConnectionBook } from '../connections';
import type { AppContext } from '../context';
import { eventStreams, streamFilter } from '../event-stream';
import { presentDiff, presentEvent, presentExpirations, presentGex, presentGexGrid, presentGexProfile, presentHistory, presentSnapshot, presentSnapshots, presentVanna } from '../presenters/exposure';
import { unwrap } from '../problems';
import { CACHE_CONTROL, clientGone, dateOrDateTime, datesInOrder, JSON_TYPE, numbersInOrder, oneOf, queryRules, type V1 } from '../route-kit';
import { serve } from '../route-table';

export { STREAM_KEY_CHECK_MS } from '../event-stream';

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

  const streams = eventStreams(v1, ctx, connections);
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
  serve(v1, 'GET /gex/grid', async (request, reply) => sendAnswer(request, reply, unwrap(await ctx.exposure.gexGrid(request.query)), presentGexGrid, GRID_SCHEMA), {
    preHandler: queryRules(numbersInOrder('minDte', 'maxDte'), ...selectorRules),
  });
  serve(v1, 'GET /gex/history', async (request, reply) => presentHistory(unwrap(await ctx.exposure.gexHistory(request.query, clientGone(reply)))), {
    preHandler: queryRules(...scopeRules, dateOrDateTime('from'), dateOrDateTime('to'), datesInOrder('from', 'to')),
  });
  serve(v1, 'GET /gex/diff', async (request) => presentDiff(unwrap(await ctx.exposure.gexDiff(request.query))), { preHandler: queryRules(...scopeRules) });
  serve(v1, 'GET /snapshots', async (request) => {
    const listed = unwrap(ctx.exposure.snapshotList(request.query.symbol));
    return presentSnapshots(request.query.symbol, listed);
  });
  serve(v1, 'GET /snapshots/{id}', async (request) => presentSnapshot(unwrap(ctx.exposure.snapshotById(request.params.id))));
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
      const named = tickers === undefined ? undefined : tickerList(tickers);
      const events = ctx.exposure.events({ ...query, ...(named === undefined ? {} : { tickers: named }) });
      return { events: events.map(presentEvent), explanations: ctx.exposure.explanations(named) };
    },
    { preHandler: queryRules(numbersInOrder('minDte', 'maxDte')) },
  );
  serve(
    v1,
    'GET /gex/events/stream',
    async (request, reply) => streams.open(request, reply, streamFilter(request.query)),
  );
}
