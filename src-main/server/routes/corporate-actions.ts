/**
 * Corporate actions (DESIGN §5 "Corporate actions", docs/journal.md §Corporate actions): `GET /journal/corporate-actions`
 * lists every action the journal applies (a file's and those entered by hand) with what each did; `POST` enters one
 * (an import of its own: undone with DELETE /imports/{importId}); `PUT` and `DELETE /journal/corporate-actions/{id}`
 * change one entered by hand. Writes go through the journal worker and the write queue, as manual entries do.
 */
import type { AppContext } from '../context';
import { unwrap } from '../problems';
import { presentCorporateActions } from '../presenters/corporate-actions';
import { BODY_LIMIT_BYTES, type V1 } from '../route-kit';
import { serve } from '../route-table';
import { parseJsonBody, strictBodyCompiler } from '../validation';

export function registerCorporateActionRoutes(v1: V1, ctx: AppContext): void {
  // JSON bodies arrive as text (app.ts): parsed here, refusing prototype keys, then validated without coercion.
  const jsonBody = {
    bodyLimit: BODY_LIMIT_BYTES,
    preValidation: async (request: { body: unknown }) => {
      request.body = parseJsonBody(request.body);
    },
    validatorCompiler: strictBodyCompiler,
  };
  serve(v1, 'GET /journal/corporate-actions', async (request) => presentCorporateActions(await ctx.journal.corporateActions(request.query)));
  serve(v1, 'POST /journal/corporate-actions', async (request, reply) => reply.code(201).send(unwrap(await ctx.journal.addCorporateAction(request.body))), jsonBody);
  serve(v1, 'PUT /journal/corporate-actions/{id}', async (request) => unwrap(await ctx.journal.replaceCorporateAction(request.params.id, request.body)), jsonBody);
  serve(v1, 'DELETE /journal/corporate-actions/{id}', async (request) => unwrap(await ctx.journal.deleteCorporateAction(request.params.id)));
}
