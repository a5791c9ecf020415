import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  EventsQuery,
  EventsResponse,
  EventsStreamQuery,
  ExpirationsQuery,
  ExpirationsResponse,
  GexDiffQuery,
  GexDiffResponse,
  GexGridQuery,
  GexGridResponse,
  GexHistoryQuery,
  GexHistoryResponse,
  GexProfileQuery,
  GexProfileResponse,
  GexQuery,
  GexResponse,
  NoQuery,
  SnapshotDeleteResponse,
  SnapshotIdParams,
  SnapshotResponse,
  SnapshotsQuery,
  SnapshotsResponse,
  VannaQuery,
  VannaResponse,
} from '../../../src-shared/api/schemas';
import { tickerList } from '../../../src-shared/ids';
import type { PlannedAnswer } from '../../services/exposure/service';
import type { AnswerCache } from '../answer-cache';
import type { ConnectionBook } from '../connections';
import type { AppContext } from '../context';
import { eventStreams, streamFilter } from '../event-stream';
import { presentDiff, presentEvent, presentExpirations, presentGex, presentGexGrid, presentGexProfile, presentHistory, presentSnapshot, presentSnapshots, presentVanna } from '../presenters/exposure';
import { unwrap } from '../problems';
import { CACHE_CONTROL, clientGone, dateOrDateTime, datesInOrder, JSON_TYPE, numbersInOrder, oneOf, problemResponses, queryRules, readSchema, type V1 } from '../route-kit';

export { STREAM_KEY_CHECK_MS } from '../event-stream';

/**
 * The response schemas as plain objects, for Fastify's serializer compiler (which takes an index-signature type and
 * caches by the object: one object each, for the life of the process).
 */
const GEX_SCHEMA = { ...GexResponse };
const VANNA_SCHEMA = { ...VannaResponse };
const PROFILE_SCHEMA = { ...GexProfileResponse };
const GRID_SCHEMA = { ...GexGridResponse };

/** The rules of the /gex scope parameters and of the snapshot selector. */
// `expirations` names the scope outright: a count or a dte range beside it would be silently ignored (issue 18).
const scopeRules = [numbersInOrder('minDte', 'maxDte'), oneOf('expirations', 'expirationsCount', 'minDte', 'maxDte')];
const selectorRules = [oneOf('snapshot', 'at'), dateOrDateTime('at')];

/** Responses of a cached-answer route: the answer, or 304 when If-None-Match names its ETag. */
function cachedResponses(answer: Record<string, unknown>) {
  return { 200: answer, 304: { type: 'null', description: 'Not modified (If-None-Match)' }, ...problemResponses };
}

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
  v1.get(
    '/gex',
    {
      schema: {
        summary: 'Dealer gamma exposure by strike with walls, zone and gamma flip',
        tags: ['exposure'],
        querystring: GexQuery,
        response: cachedResponses(GEX_SCHEMA),
      },
      preHandler: queryRules(...scopeRules, ...selectorRules),
    },
    async (request, reply) => sendAnswer(request, reply, unwrap(await ctx.exposure.gex(request.query)), presentGex, GEX_SCHEMA),
  );
  v1.get(
    '/vanna',
    {
      schema: {
        summary: 'Dealer vanna and charm exposure with key levels (0–45 dte aggregate or one expiration)',
        tags: ['exposure'],
        querystring: VannaQuery,
        response: cachedResponses(VANNA_SCHEMA),
      },
      preHandler: queryRules(...selectorRules),
    },
    async (request, reply) => sendAnswer(request, reply, unwrap(await ctx.exposure.vanna(request.query)), presentVanna, VANNA_SCHEMA),
  );
  v1.get(
    '/expirations',
    {
      schema: readSchema('exposure', 'Unexpired expirations of the latest snapshot (or of snapshot= / at=)', ExpirationsQuery, ExpirationsResponse),
      preHandler: queryRules(...selectorRules),
    },
    async (request) => presentExpirations(unwrap(await ctx.exposure.expirations(request.query))),
  );
  v1.get(
    '/gex/profile',
    {
      schema: {
        summary: 'The gamma profile: net GEX at 201 hypothetical spot levels on [0.8S, 1.2S], with the flip',
        tags: ['exposure'],
        querystring: GexProfileQuery,
        response: cachedResponses(PROFILE_SCHEMA),
      },
      preHandler: queryRules(...scopeRules, ...selectorRules),
    },
    async (request, reply) => sendAnswer(request, reply, unwrap(await ctx.exposure.gexProfile(request.query)), presentGexProfile, PROFILE_SCHEMA),
  );
  v1.get(
    '/gex/grid',
    {
      schema: {
        summary: 'Net GEX per expiration × strike (strikes within [0.8S, 1.2S]) for a heat map; default every expiration',
        tags: ['exposure'],
        querystring: GexGridQuery,
        response: cachedResponses(GRID_SCHEMA),
      },
      preHandler: queryRules(numbersInOrder('minDte', 'maxDte'), ...selectorRules),
    },
    async (request, reply) => sendAnswer(request, reply, unwrap(await ctx.exposure.gexGrid(request.query)), presentGexGrid, GRID_SCHEMA),
  );
  v1.get(
    '/gex/history',
    {
      schema: readSchema('exposure', 'Levels over time: spot, total GEX, zone, flip and walls per stored snapshot, oldest first', GexHistoryQuery, GexHistoryResponse),
      preHandler: queryRules(...scopeRules, dateOrDateTime('from'), dateOrDateTime('to'), datesInOrder('from', 'to')),
    },
    async (request, reply) => presentHistory(unwrap(await ctx.exposure.gexHistory(request.query, clientGone(reply)))),
  );
  v1.get(
    '/gex/diff',
    {
      schema: readSchema('exposure', 'The change of GEX per strike from one stored snapshot to another', GexDiffQuery, GexDiffResponse),
      preHandler: queryRules(...scopeRules),
    },
    async (request) => presentDiff(unwrap(await ctx.exposure.gexDiff(request.query))),
  );
  v1.get(
    '/snapshots',
    { schema: readSchema('exposure', 'Stored snapshots of a symbol, newest first', SnapshotsQuery, SnapshotsResponse) },
    async (request) => {
      const listed = unwrap(ctx.exposure.snapshotList(request.query.symbol));
      return presentSnapshots(request.query.symbol, listed);
    },
  );
  v1.get(
    '/snapshots/:id',
    { schema: { summary: 'One stored snapshot, without its contracts', tags: ['exposure'], params: SnapshotIdParams, querystring: NoQuery, response: { 200: SnapshotResponse, ...problemResponses } } },
    async (request) => presentSnapshot(unwrap(ctx.exposure.snapshotById(request.params.id))),
  );
  v1.delete(
    '/snapshots/:id',
    { schema: { summary: 'Delete a stored snapshot (its history points too; events stay)', tags: ['exposure'], params: SnapshotIdParams, response: { 200: SnapshotDeleteResponse, ...problemResponses } } },
    async (request) => {
      // A backup first (services/backups.ts): a snapshot's contracts and history points go with it; a backup that fails stops it.
      unwrap(await ctx.backups.before('delete'));
      return unwrap(await ctx.exposure.deleteSnapshot(request.params.id));
    },
  );
  v1.get(
    '/gex/events',
    {
      schema: readSchema('exposure', 'Flip, wall and position events, newest first (limit default 50, clamped to 200), and the latest comparison of each ticker', EventsQuery, EventsResponse),
      preHandler: queryRules(numbersInOrder('minDte', 'maxDte')),
    },
    async (request) => {
      const { tickers, ...query } = request.query;
      const named = tickers === undefined ? undefined : tickerList(tickers);
      const events = ctx.exposure.events({ ...query, ...(named === undefined ? {} : { tickers: named }) });
      return { events: events.map(presentEvent), explanations: ctx.exposure.explanations(named) };
    },
  );
  v1.get(
    '/gex/events/stream',
    {
      config: { access: 'key-or-ticket' },
      schema: {
        summary: 'Server-sent events: each new flip, wall or position event as `event: flip|wall|position`, `data: <event JSON>` (scope as /gex/events). Key in the header, or ?ticket= from POST /v1/gex/events/stream-ticket (EventSource).',
        tags: ['exposure'],
        querystring: EventsStreamQuery,
        response: { 200: { type: 'string', description: 'text/event-stream' }, ...problemResponses },
      },
    },
    async (request, reply) => streams.open(request, reply, streamFilter(request.query)),
  );
}
