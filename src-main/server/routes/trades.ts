/**
 * Trades (docs/journal.md §Trades and strategies, §Annotations): `GET /journal/trades`, one trade with its timeline
 * `GET /journal/trades/{id}`, `GET /journal/stats?groupBy=`,
 * and notes and tags on a trade or a campaign, `GET`/`PUT /journal/trades/{id}/annotation` and
 * `GET`/`PUT /journal/chains/{id}/annotation`, written through the journal worker's write lane like a manual entry.
 */
import type { AnnotationKind } from '../../db/annotations';
import type { AppContext } from '../context';
import { presentAnnotation, presentStats, presentTradeDetail, presentTrades } from '../presenters/trades';
import { presentRolls } from '../presenters/manage';
import { ROLL_DEFAULTS } from '../../../src-shared/journal/roll-candidates';
import { unwrap } from '../problems';
import { BODY_LIMIT_BYTES, calendarDates, datesInOrder, queryRules, journalAnswer, type V1 } from '../route-kit';
import { serve } from '../route-table';
import { parseJsonBody, strictBodyCompiler } from '../validation';

export function registerTradeRoutes(v1: V1, ctx: AppContext): void {
  serve(v1, 'GET /journal/trades', async (request) => journalAnswer(await ctx.journal.trades(request.query), presentTrades), {
    preHandler: queryRules(calendarDates('from', 'to'), datesInOrder('from', 'to')),
  });
  serve(v1, 'GET /journal/trades/{id}', async (request) => journalAnswer(await ctx.journal.trade(request.params.id, request.query.levelsScope), presentTradeDetail));
  serve(v1, 'GET /journal/trades/{id}/rolls', async (request) => {
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
  });
  serve(v1, 'GET /journal/stats', async (request) => journalAnswer(await ctx.journal.tradeStats({ ...request.query, groupBy: request.query.groupBy ?? 'strategy' }), presentStats), {
    preHandler: queryRules(calendarDates('from', 'to'), datesInOrder('from', 'to')),
  });
  // JSON bodies arrive as text (app.ts): parsed here, refusing prototype keys, then validated without coercion.
  const jsonBody = {
    bodyLimit: BODY_LIMIT_BYTES,
    preValidation: async (request: { body: unknown }) => {
      request.body = parseJsonBody(request.body);
    },
    validatorCompiler: strictBodyCompiler,
  };
  for (const [read, write, kind] of [
    ['GET /journal/trades/{id}/annotation', 'PUT /journal/trades/{id}/annotation', 'trade'],
    ['GET /journal/chains/{id}/annotation', 'PUT /journal/chains/{id}/annotation', 'campaign'],
  ] as const satisfies ReadonlyArray<readonly [string, string, AnnotationKind]>) {
    serve(v1, read, async (request) => presentAnnotation(unwrap(await ctx.journal.annotation(kind, request.params.id))));
    serve(v1, write, async (request) => presentAnnotation(unwrap(await ctx.journal.annotate(kind, request.params.id, request.body))), jsonBody);
  }
}
