import { ChainPostQuery, ChainPostResponse, ChainsResponse, NoQuery } from '../../../src-shared/api/schemas';
import type { AppContext } from '../context';
import { ApiError, unwrap } from '../problems';
import { problemResponses, UPLOAD_LIMIT_BYTES, type V1 } from '../route-kit';

export function registerChainRoutes(v1: V1, ctx: AppContext): void {
  v1.post(
    '/chains',
    {
      bodyLimit: UPLOAD_LIMIT_BYTES,
      schema: {
        summary: 'Store an option-chain snapshot (raw CBOE quotedata CSV, CBOE delayed-quotes JSON, Schwab / TD Ameritrade API chain JSON, a yfinance option_chain CSV, or the generic CSV/JSON); Location names the snapshot',
        tags: ['chains'],
        querystring: ChainPostQuery,
        response: { 201: ChainPostResponse, 200: ChainPostResponse, ...problemResponses },
      },
    },
    async (request, reply) => {
      const text = typeof request.body === 'string' ? request.body : '';
      if (text.trim() === '') throw new ApiError('IMPORT_FAILED', 'The request body is empty: send the chain file as the raw body.', [{ param: 'body', message: 'empty', line: 1 }]);
      // Parsed, prepared and evaluated in the exposure worker; stored in a write turn (services/exposure.ts, ingestFile).
      const result = unwrap(await ctx.exposure.ingestFile(text, request.query, ctx.writes));
      return reply.code(result.stored ? 201 : 200).header('Location', `/v1/snapshots/${result.id}`).send(result);
    },
  );
  v1.get('/chains', { schema: { summary: 'Symbols with stored snapshots', tags: ['chains'], querystring: NoQuery, response: { 200: ChainsResponse, ...problemResponses } } }, async () => ({ symbols: ctx.exposure.chainsList() }));
}
