/**
 * Chains that arrive by themselves (docs/exposure.md §Chains that arrive by themselves, issue 30): the watch folder's
 * state, a backfill of a folder (started, followed) and the app's status line.
 */
import { AppStatusSchema, BackfillBody, BackfillJobSchema, BackfillStatusSchema, NoQuery, WatchStatusSchema } from '../../../src-shared/api/schemas';
import { appStatus } from '../../services/app-status';
import type { AppContext } from '../context';
import { unwrap } from '../problems';
import { problemResponses, type V1 } from '../route-kit';
import { parseJsonBody, strictBodyCompiler } from '../validation';

export function registerChainArrivalRoutes(v1: V1, ctx: AppContext): void {
  v1.get(
    '/chains/watch',
    {
      schema: {
        summary: 'The watch folder (setting watchFolder): watched or why not, files still growing, and the last 50 files handled (imported, already stored, failed with the reason)',
        tags: ['chains'],
        querystring: NoQuery,
        response: { 200: WatchStatusSchema, ...problemResponses },
      },
    },
    async () => ctx.watchFolder.status(),
  );
  v1.post(
    '/chains/backfill',
    {
      preValidation: async (request) => {
        request.body = parseJsonBody(request.body) as typeof request.body;
      },
      validatorCompiler: strictBodyCompiler,
      schema: {
        summary: 'Store a folder of historical chain files oldest first (202 with the backfill; 409 CONFLICT while one runs; files stored before are skipped by their bytes, so the same path continues an interrupted one)',
        tags: ['chains'],
        querystring: NoQuery,
        body: BackfillBody,
        response: { 202: BackfillJobSchema, ...problemResponses },
      },
    },
    async (request, reply) => {
      const job = unwrap(await ctx.backfill.start(request.body.path));
      return reply.code(202).header('Location', '/v1/chains/backfill').send(job);
    },
  );
  v1.get(
    '/chains/backfill',
    {
      schema: {
        summary: 'The running or latest backfill with its progress (null before the first); interrupted when the server stopped during it',
        tags: ['chains'],
        querystring: NoQuery,
        response: { 200: BackfillStatusSchema, ...problemResponses },
      },
    },
    async () => ({ backfill: ctx.backfill.status() }),
  );
  v1.get(
    '/status',
    {
      schema: {
        summary: 'The status line: whether the online source answers (one line when it cannot be reached), the schedule, the watch folder and a backfill',
        tags: ['chains'],
        querystring: NoQuery,
        response: { 200: AppStatusSchema, ...problemResponses },
      },
    },
    async () => appStatus(ctx),
  );
}
