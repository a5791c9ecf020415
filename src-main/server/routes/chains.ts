import { ChainPostQuery, ChainPostResponse, ChainsResponse } from '../../../src-shared/api/schemas';
import type { AppContext } from '../context';
import { ApiError } from '../problems';
import { UPLOAD_LIMIT_BYTES } from '../app';
import { problemResponses, type V1 } from './health';

export function registerChainRoutes(v1: V1, ctx: AppContext): void {
  v1.post(
    '/chains',
    {
      bodyLimit: UPLOAD_LIMIT_BYTES,
      schema: {
        summary: 'Store an option-chain snapshot (raw CBOE quotedata CSV, CBOE delayed-quotes JSON, or the generic CSV/JSON)',
        tags: ['chains'],
        querystring: ChainPostQuery,
        response: { 201: ChainPostResponse, 200: ChainPostResponse, ...problemResponses },
      },
    },
    async (request, reply) => {
      const text = typeof request.body === 'string' ? request.body : '';
      if (text.trim() === '') throw new ApiError('IMPORT_FAILED', 'The request body is empty: send the chain file as the raw body.', [{ param: 'body', message: 'empty', line: 1 }]);
      const result = await ctx.writes.run(() => ctx.exposure.ingestText(text, request.query));
      return reply.code(result.stored ? 201 : 200).send(result);
    },
  );
  v1.get('/chains', { schema: { summary: 'Symbols with stored snapshots', tags: ['chains'], response: { 200: ChainsResponse, ...problemResponses } } }, async () => ctx.exposure.chainsList());
}
