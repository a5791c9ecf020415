import { NoQuery, RefreshPassSchema } from '../../../src-shared/api/schemas';
import type { AppContext } from '../context';
import { unwrap } from '../problems';
import { problemResponses, type V1 } from '../route-kit';

/** "Refresh now" (docs/exposure.md §Refresh what you hold): start a pass, follow it. */
export function registerChainRefreshRoutes(v1: V1, ctx: AppContext): void {
  v1.post(
    '/chains/refresh',
    {
      schema: {
        summary: 'Fetch the online source once for the watchlist and the open positions’ underlyings (202; 409 REFRESH_RUNNING while a pass runs, SOURCE_NOT_CONFIGURED without a base URL)',
        tags: ['chains'],
        querystring: NoQuery,
        response: { 202: RefreshPassSchema, ...problemResponses },
      },
    },
    async (_request, reply) => {
      const pass = unwrap(await ctx.refresh.start());
      return reply.code(202).header('Location', '/v1/chains/refresh').send(pass);
    },
  );
  v1.get(
    '/chains/refresh',
    { schema: { summary: 'The latest refresh pass: each symbol queued, fetching, stored or failed (with the reason); startedAt null before the first', tags: ['chains'], querystring: NoQuery, response: { 200: RefreshPassSchema, ...problemResponses } } },
    async () => ctx.refresh.status(),
  );
}
