/**
 * Reconciliation with the broker's figures (docs/journal.md §Reconciliation): POST /journal/reconcile takes a broker's
 * positions file (raw bytes, like an import: CSV or JSON) and answers its differences with the book;
 * GET /journal/reconciliations lists the balance assertions saved. The file goes to the journal worker undecoded.
 */
import type { AppContext } from '../context';
import { presentAssertions, presentReconcile } from '../presenters/reconciliation';
import { unwrap } from '../problems';
import { dateOrDateTime, queryRules, uploadRoutes, type V1 } from '../route-kit';
import { serve } from '../route-table';
import { MAX_POSITIONS_FILE_BYTES } from '../../services/journal/reconciliation';

export function registerReconciliationRoutes(v1: V1, ctx: AppContext): void {
  uploadRoutes(v1, (uploads) => {
    serve(
      uploads,
      'POST /journal/reconcile',
      async (request) => {
        const body = request.body instanceof Uint8Array ? request.body : new Uint8Array(0);
        const { asOf, accountId, save, filename } = request.query;
        const answer = await ctx.journal.reconcile({
          text: body,
          ...(asOf === undefined ? {} : { asOf }),
          ...(accountId === undefined ? {} : { accountId }),
          save: save === 'true',
          filename: filename ?? null,
        });
        return presentReconcile(unwrap(answer));
      },
      { bodyLimit: MAX_POSITIONS_FILE_BYTES, preHandler: queryRules(dateOrDateTime('asOf')) },
    );
  });
  serve(v1, 'GET /journal/reconciliations', async () => presentAssertions(await ctx.journal.reconciliations()));
}
