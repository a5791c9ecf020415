/**
 * Trades (docs/journal.md §Trades and strategies, §Annotations): `GET /journal/trades`, one trade with its timeline
 * `GET /journal/trades/{id}`, `GET /journal/stats?groupBy=`,
 * and notes and tags on a trade or a campaign, `GET`/`PUT /journal/trades/{id}/annotation` and
 * `GET`/`PUT /journal/chains/{id}/annotation`, written through the journal worker's write lane like a manual entry.
 */
import { AnnotationBody, AnnotationParams, AnnotationResponse, NoQuery, RollsQuery, RollsResponse, StatsQuery, StatsResponse, TradeDetailQuery, TradeDetailResponse, TradeParams, TradesQuery, TradesResponse } from '../../../src-shared/api/schemas';
import type { AnnotationKind } from '../../db/annotations';
import type { AppContext } from '../context';
import { presentAnnotation, presentStats, presentTradeDetail, presentTrades } from '../presenters/trades';
import { presentRolls } from '../presenters/manage';
import { ROLL_DEFAULTS } from '../../../src-shared/journal/roll-candidates';
import { unwrap } from '../problems';
import { BODY_LIMIT_BYTES, calendarDates, datesInOrder, problemResponses, queryRules, readSchema, journalAnswer, type V1 } from '../route-kit';
import { parseJsonBody, strictBodyCompiler } from '../validation';

export function registerTradeRoutes(v1: V1, ctx: AppContext): void {
  v1.get(
    '/journal/trades',
    {
      schema: readSchema('journal', 'Trades (legs opened and managed together until flat) with strategy, risk, collateral, P&L, entry figures, note and tags; newest opened first, paginated', TradesQuery, TradesResponse),
      preHandler: queryRules(calendarDates('from', 'to'), datesInOrder('from', 'to')),
    },
    async (request) => journalAnswer(await ctx.journal.trades(request.query), presentTrades),
  );
  v1.get(
    '/journal/trades/:id',
    {
      schema: {
        summary: 'One trade by its stable id, as /journal/trades lists it, with its timeline: each of its rows in order, with price, costs, cash, the structure it belongs to and the realized P&L so far',
        tags: ['journal'],
        params: TradeParams,
        querystring: TradeDetailQuery,
        response: { 200: TradeDetailResponse, ...problemResponses },
      },
    },
    async (request) => journalAnswer(await ctx.journal.trade(request.params.id, request.query.levelsScope), presentTradeDetail),
  );
  v1.get(
    '/journal/trades/:id/rolls',
    {
      schema: {
        summary:
          'The roll assistant: for each short option leg of an open trade, the candidate rolls in a chain snapshot of its underlying (the next expirations × the same strike and strikes further out of the money), each with closing debit and opening credit at mid and natural, net, delta, probability OTM, collateral, return and its place against that expiration’s walls and flip; 409 STALE_SNAPSHOT for a snapshot older than markMaxAgeDays',
        tags: ['journal'],
        params: TradeParams,
        querystring: RollsQuery,
        response: { 200: RollsResponse, ...problemResponses },
      },
    },
    async (request) => {
      const { snapshot, maxDte, expirations, strikes, minNet, net, maxDelta, beyondWall } = request.query;
      const result = await ctx.journal.rolls(request.params.id, {
        ...(snapshot === undefined ? {} : { snapshot }),
        maxDte: maxDte ?? ROLL_DEFAULTS.maxDte,
        expirations: expirations ?? ROLL_DEFAULTS.expirations,
        strikes: strikes ?? ROLL_DEFAULTS.strikes,
        ...(minNet === undefined ? {} : { minNet }),
        ...(net === undefined ? {} : { net }),
        ...(maxDelta === undefined ? {} : { maxDelta }),
        ...(beyondWall === undefined ? {} : { beyondWall: beyondWall === 'true' }),
      });
      return presentRolls(unwrap(result));
    },
  );
  v1.get(
    '/journal/stats',
    {
      schema: readSchema('journal', 'Statistics of the closed trades by strategy, DTE or delta at entry, dealer regime or strike place at entry, underlying, month or tag', StatsQuery, StatsResponse),
      preHandler: queryRules(calendarDates('from', 'to'), datesInOrder('from', 'to')),
    },
    async (request) => journalAnswer(await ctx.journal.tradeStats({ ...request.query, groupBy: request.query.groupBy ?? 'strategy' }), presentStats),
  );
  // JSON bodies arrive as text (app.ts): parsed here, refusing prototype keys, then validated without coercion.
  const annotationRoute = (path: string, kind: AnnotationKind, summary: string) =>
    v1.put(
      path,
      {
        bodyLimit: BODY_LIMIT_BYTES,
        preValidation: async (request: { body: unknown }) => {
          request.body = parseJsonBody(request.body);
        },
        validatorCompiler: strictBodyCompiler,
        schema: { summary, tags: ['journal'], querystring: NoQuery, params: AnnotationParams, body: AnnotationBody, response: { 200: AnnotationResponse, ...problemResponses } },
      },
      async (request) => presentAnnotation(unwrap(await ctx.journal.annotate(kind, request.params.id, request.body))),
    );
  const annotationRead = (path: string, kind: AnnotationKind, summary: string) =>
    v1.get(
      path,
      { schema: { summary, tags: ['journal'], querystring: NoQuery, params: AnnotationParams, response: { 200: AnnotationResponse, ...problemResponses } } },
      async (request) => presentAnnotation(unwrap(await ctx.journal.annotation(kind, request.params.id))),
    );
  annotationRead('/journal/trades/:id/annotation', 'trade', 'The note and tags of a trade (empty when it has none)');
  annotationRead('/journal/chains/:id/annotation', 'campaign', 'The note and tags of a campaign (empty when it has none)');
  annotationRoute('/journal/trades/:id/annotation', 'trade', 'Set the note and tags of a trade (kept by its stable id across re-imports and rebuilds); an empty note without tags removes them');
  annotationRoute('/journal/chains/:id/annotation', 'campaign', 'Set the note and tags of a campaign (kept across re-imports and rebuilds); an empty note without tags removes them');
}
