/**
 * Reconciliation with the broker's figures (docs/journal.md §Reconciliation): POST /journal/reconcile takes a broker's
 * positions file (raw bytes, like an import: CSV or JSON) and answers its differences with the book;
 * GET /journal/reconciliations lists the balance assertions saved. The file goes to the journal worker undecoded.
 */
import type { AppContext } from '../context';
import { presentAssertions, presentReconcile } from '../presenters/reconciliation';
import { unwrap } from '../problems';
import { dateOrDateTime, queryRules, type V1 } from '../route-kit';
import { serve, serveUpload } from '../route-table';
import { MAX_POSITIONS_FILE_BYTES } from '../../services/journal/balance-assertions';

export function registerReconciliationRoutes(v1: V1, ctx: AppContext): void {
  serveUpload(
    v1,
    'POST /journal/reconcile',
    async (body, request) => {
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
  serve(v1, 'GET /journal/reconciliations', async () => presentAssertions(await ctx.journal.reconciliations()));
}
