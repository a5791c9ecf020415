/**
 * Manual entries (docs/journal.md, "Manual entries"): `POST /journal/transactions` stores neutral transactions sent as
 * JSON as one import of kind `manual` (`POST /journal/expirations` books options past expiry expired worthless, likewise); `PUT` and `DELETE /journal/transactions/{id}` change manual rows only (an
 * imported row is 409 IMPORTED_ROW: undo its import instead). The rows go through the journal worker and the write
 * queue like an import.
 */
import type { AppContext } from '../context';
import { unwrap } from '../problems';
import { BODY_LIMIT_BYTES, type V1 } from '../route-kit';
import { serve } from '../route-table';
import { parseJsonBody, strictBodyCompiler } from '../validation';

export function registerManualRoutes(v1: V1, ctx: AppContext): void {
  // JSON bodies arrive as text (app.ts): parsed here, refusing prototype keys, then validated without coercion.
  const jsonBody = {
    bodyLimit: BODY_LIMIT_BYTES,
    preValidation: async (request: { body: unknown }) => {
      request.body = parseJsonBody(request.body);
    },
    validatorCompiler: strictBodyCompiler,
  };
  serve(v1, 'POST /journal/transactions', async (request, reply) => reply.code(201).send(unwrap(await ctx.journal.addTransactions(request.body.transactions))), jsonBody);
  serve(v1, 'PUT /journal/transactions/{id}', async (request) => unwrap(await ctx.journal.replaceTransaction(request.params.id, request.body)), jsonBody);
  serve(v1, 'POST /journal/expirations', async (request, reply) => reply.code(201).send(unwrap(await ctx.journal.bookExpirations(request.body.items))), jsonBody);
  serve(v1, 'DELETE /journal/transactions/{id}', async (request) => {
    // A backup first (services/backups.ts); a backup that fails stops the delete.
    unwrap(await ctx.backups.before('delete'));
    return unwrap(await ctx.journal.deleteTransaction(request.params.id));
  });
}
