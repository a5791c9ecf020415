import type { AppContext } from '../context';
import { ApiError, unwrap } from '../problems';
import { storeChainUpload } from '../../services/exposure/chain-upload';
import { clientGone, type V1 } from '../route-kit';
import { serve, serveUpload } from '../route-table';

export function registerChainRoutes(v1: V1, ctx: AppContext): void {
  // As imports: the upload stays bytes here and is moved to the exposure worker, which decodes and parses it.
  serveUpload(v1, 'POST /chains', async (body, request, reply) => {
    if (body.length === 0) throw new ApiError('IMPORT_FAILED', 'The request body is empty: send the chain file as the raw body.', [{ param: 'body', message: 'empty', line: 1 }]);
    // Stored, with the count of its events (services/exposure/chain-upload.ts; docs/decisions.md §Jobs).
    const answer = unwrap(await storeChainUpload(ctx, body, request.query, clientGone(reply)));
    return reply.code(answer.stored ? 201 : 200).header('Location', `/v1/snapshots/${answer.id}`).send(answer);
  });
  serve(v1, 'GET /chains', async () => ({ symbols: ctx.exposure.snapshotSummaries() }));
}
