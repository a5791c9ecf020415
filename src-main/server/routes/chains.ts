import type { AppContext } from '../context';
import { ApiError, unwrap } from '../problems';
import { clientGone, UPLOAD_LIMIT_BYTES, type V1 } from '../route-kit';
import { serve } from '../route-table';
import { uploadRoutes } from './imports';

export function registerChainRoutes(v1: V1, ctx: AppContext): void {
  // As imports: the upload stays bytes here and is moved to the exposure worker, which decodes and parses it.
  uploadRoutes(v1, (uploads) => {
    serve(
      uploads,
      'POST /chains',
      async (request, reply) => {
        const body = request.body instanceof Uint8Array ? request.body : new Uint8Array(0);
        if (body.length === 0) throw new ApiError('IMPORT_FAILED', 'The request body is empty: send the chain file as the raw body.', [{ param: 'body', message: 'empty', line: 1 }]);
        // Parsed, prepared and evaluated in the exposure worker outside any write turn, stopped if the client goes away;
        // stored in a write turn (services/exposure/ingest.ts, ingest; docs/decisions.md §Jobs).
        const result = unwrap(await ctx.exposure.ingest({ file: body, options: request.query }, clientGone(reply)));
        // The events the Events page lists for it: its flips and walls, and the position events its commit raised. Those
        // need the journal's open positions: while the journal worker is busy (a large import's parse) the answer does
        // not wait for it past POSITION_EVENTS_WAIT_MS, and says the count is not known yet (null).
        const position = result.stored ? await settledWithin(ctx.positionAlerts.createdFor(result.id), POSITION_EVENTS_WAIT_MS) : 0;
        const answer = { ...result, events: result.events + (position ?? 0), eventsByScope: { ...result.eventsByScope, position } };
        return reply.code(result.stored ? 201 : 200).header('Location', `/v1/snapshots/${result.id}`).send(answer);
      },
      { bodyLimit: UPLOAD_LIMIT_BYTES },
    );
  });
  serve(v1, 'GET /chains', async () => ({ symbols: ctx.exposure.snapshotSummaries() }));
}

/** How long a chain's answer waits for its position events (the journal's open positions) before it leaves without them. */
const POSITION_EVENTS_WAIT_MS = 2_000;

/** The promise's value, or null when it has not settled within `ms`. */
function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
