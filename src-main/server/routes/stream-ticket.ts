import type { AppContext } from '../context';
import { ApiError } from '../problems';
import type { V1 } from '../route-kit';
import { serve } from '../route-table';
import type { StreamTickets } from '../stream-tickets';

/** `POST /v1/gex/events/stream-ticket`: the key (in the header) traded for a one-stream ticket (stream-tickets.ts). */
export function registerStreamTicketRoutes(v1: V1, ctx: AppContext, tickets: StreamTickets): void {
  serve(v1, 'POST /gex/events/stream-ticket', async (request) => {
    // The gate admitted this route with a key (its access is `key`): the ticket stands for that key.
    if (request.keyId === null) throw new ApiError('UNAUTHORIZED', 'A stream ticket needs a key.');
    const { ticket, ttlMs } = tickets.issue(request.keyId);
    return { ticket, expiresAt: new Date(ctx.clock.nowMs() + ttlMs).toISOString() };
  });
}
