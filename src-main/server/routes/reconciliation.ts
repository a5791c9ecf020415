/**
 * Reconciliation with the broker's figures (docs/journal.md §Reconciliation): POST /journal/reconcile takes a broker's
 * positions file (raw bytes, like an import: CSV or JSON) and answers its differences with the book;
 * GET /journal/reconciliations lists the balance assertions saved. The file goes to the journal worker undecoded.
 */
import { NoQuery, ReconcileQuery, ReconcileResponse, ReconciliationsResponse } from '../../../src-shared/api/schemas';
import type { AppContext } from '../context';
import { presentAssertions, presentReconcile } from '../presenters/reconciliation';
import { unwrap } from '../problems';
import { dateOrDateTime, problemResponses, queryRules, readSchema, uploadRoutes, type V1 } from '../route-kit';
import { MAX_POSITIONS_FILE_BYTES } from '../../services/journal/reconciliation';

export function registerReconciliationRoutes(v1: V1, ctx: AppContext): void {
  uploadRoutes(v1, (uploads) => {
    uploads.post(
      '/journal/reconcile',
      {
        bodyLimit: MAX_POSITIONS_FILE_BYTES,
        schema: {
          summary: "Compare a broker's positions export (Schwab, Fidelity, tastytrade, IBKR, E*TRADE; CSV symbol,quantity[,cost]; JSON {positions}) with the journal's book at asOf; save=true stores it as a balance assertion",
          tags: ['journal'],
          querystring: ReconcileQuery,
          response: { 200: ReconcileResponse, ...problemResponses },
        },
        preHandler: queryRules(dateOrDateTime('asOf')),
      },
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
    );
  });
  v1.get(
    '/journal/reconciliations',
    { schema: readSchema('journal', 'The balance assertions saved (POST /journal/reconcile?save=true), newest first, each with whether it holds now', NoQuery, ReconciliationsResponse) },
    async () => presentAssertions(await ctx.journal.reconciliations()),
  );
}
