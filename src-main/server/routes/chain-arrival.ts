/**
 * Chains that arrive by themselves (docs/exposure.md §Chains that arrive by themselves, issue 30): the watch folder's
 * state, a backfill of a folder (started, followed) and the app's status line.
 */
import { appStatus } from '../../services/app-status';
import type { AppContext } from '../context';
import { unwrap } from '../problems';
import type { V1 } from '../route-kit';
import { serve } from '../route-table';
import { parseJsonBody, strictBodyCompiler } from '../validation';

export function registerChainArrivalRoutes(v1: V1, ctx: AppContext): void {
  serve(v1, 'GET /chains/watch', async () => ctx.watchFolder.status());
  serve(
    v1,
    'POST /chains/backfill',
    async (request, reply) => {
      const job = unwrap(await ctx.backfill.start(request.body.path));
      return reply.code(202).header('Location', '/v1/chains/backfill').send(job);
    },
    {
      preValidation: async (request) => {
        request.body = parseJsonBody(request.body);
      },
      validatorCompiler: strictBodyCompiler,
    },
  );
  serve(v1, 'GET /chains/backfill', async () => ({ backfill: ctx.backfill.status() }));
  serve(v1, 'GET /status', async () => appStatus(ctx));
}
