/**
 * Corporate actions (DESIGN §5 "Corporate actions", docs/journal.md §Corporate actions): `GET /journal/corporate-actions`
 * lists every action the journal applies (a file's and those entered by hand) with what each did; `POST` enters one
 * (an import of its own: undone with DELETE /imports/{importId}); `PUT` and `DELETE /journal/corporate-actions/{id}`
 * change one entered by hand. Writes go through the journal worker and the write queue, as manual entries do.
 */
import {
  CorporateActionDeleteResponse,
  CorporateActionIdParams,
  CorporateActionInput,
  CorporateActionsQuery,
  CorporateActionsResponse,
  CorporateActionWriteResponse,
  NoQuery,
} from '../../../src-shared/api/schemas';
import type { AppContext } from '../context';
import { unwrap } from '../problems';
import { presentCorporateActions } from '../presenters/corporate-actions';
import { BODY_LIMIT_BYTES, problemResponses, readSchema, type V1 } from '../route-kit';
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
  v1.get(
    '/journal/corporate-actions',
    { schema: readSchema('journal', 'Corporate actions the journal applies — read from files and entered by hand — with what each did, newest first, paginated', CorporateActionsQuery, CorporateActionsResponse) },
    async (request) => presentCorporateActions(await ctx.journal.corporateActions(request.query)),
  );
  v1.post(
    '/journal/corporate-actions',
    {
      ...jsonBody,
      schema: {
        summary: 'Enter a corporate action by hand (split, symbol change, merger, stock dividend, spin-off, free shares): an import of its own',
        tags: ['journal'],
        querystring: NoQuery,
        body: CorporateActionInput,
        response: { 201: CorporateActionWriteResponse, ...problemResponses },
      },
    },
    async (request, reply) => reply.code(201).send(unwrap(await ctx.journal.addCorporateAction(request.body))),
  );
  v1.put(
    '/journal/corporate-actions/:id',
    {
      ...jsonBody,
      schema: {
        summary: 'Replace a corporate action entered by hand (its id and import stay)',
        tags: ['journal'],
        querystring: NoQuery,
        params: CorporateActionIdParams,
        body: CorporateActionInput,
        response: { 200: CorporateActionWriteResponse, ...problemResponses },
      },
    },
    async (request) => unwrap(await ctx.journal.replaceCorporateAction(request.params.id, request.body)),
  );
  v1.delete(
    '/journal/corporate-actions/:id',
    {
      schema: {
        summary: 'Delete a corporate action entered by hand (its import goes with it)',
        tags: ['journal'],
        querystring: NoQuery,
        params: CorporateActionIdParams,
        response: { 200: CorporateActionDeleteResponse, ...problemResponses },
      },
    },
    async (request) => unwrap(await ctx.journal.deleteCorporateAction(request.params.id)),
  );
}
