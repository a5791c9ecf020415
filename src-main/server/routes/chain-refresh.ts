import type { AppContext } from '../context';
import { unwrap } from '../problems';
import type { V1 } from '../route-kit';
import { serve } from '../route-table';

/** "Refresh now" (docs/exposure.md §Refresh what you hold): start a pass, follow it. */
export function registerChainRefreshRoutes(v1: V1, ctx: AppContext): void {
  serve(v1, 'POST /chains/refresh', async (_request, reply) => {
    const pass = unwrap(await ctx.refresh.start());
    return reply.code(202).header('Location', '/v1/chains/refresh').send(pass);
  });
  serve(v1, 'GET /chains/refresh', async () => ctx.refresh.status());
}
