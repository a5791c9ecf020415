import { ChainPostQuery, ChainPostResponse, ChainsResponse, NoQuery } from '../../../src-shared/api/schemas';
import { storeChainUpload } from '../../services/exposure/chain-upload';
import type { AppContext } from '../context';
import { ApiError, unwrap } from '../problems';
import { clientGone, problemResponses, UPLOAD_LIMIT_BYTES, uploadRoutes, type V1 } from '../route-kit';

export function registerChainRoutes(v1: V1, ctx: AppContext): void {
  // As imports: the upload stays bytes here and is moved to the exposure worker, which decodes and parses it.
  uploadRoutes(v1, (uploads) => {
    uploads.post(
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
        const body = request.body instanceof Uint8Array ? request.body : new Uint8Array(0);
        if (body.length === 0) throw new ApiError('IMPORT_FAILED', 'The request body is empty: send the chain file as the raw body.', [{ param: 'body', message: 'empty', line: 1 }]);
        // Stored, with the count of its events (services/exposure/chain-upload.ts; docs/decisions.md §Jobs).
        const answer = unwrap(await storeChainUpload(ctx, body, request.query, clientGone(reply)));
        return reply.code(answer.stored ? 201 : 200).header('Location', `/v1/snapshots/${answer.id}`).send(answer);
      },
    );
  });
  v1.get('/chains', { schema: { summary: 'Symbols with stored snapshots', tags: ['chains'], querystring: NoQuery, response: { 200: ChainsResponse, ...problemResponses } } }, async () => ({ symbols: ctx.exposure.snapshotSummaries() }));
}
