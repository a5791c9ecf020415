/**
 * Manual entries (docs/journal.md, "Manual entries"): `POST /journal/transactions` stores neutral transactions sent as
 * JSON as one import of kind `manual` (`POST /journal/expirations` books options past expiry expired worthless, likewise); `PUT` and `DELETE /journal/transactions/{id}` change manual rows only (an
 * imported row is 409 IMPORTED_ROW: undo its import instead). The rows go through the journal worker and the write
 * queue like an import.
 */
import {
  ExpiredByHandRequest,
  ExpiredByHandResponse,
  ManualDeleteResponse,
  ManualTransaction,
  ManualTransactionResponse,
  ManualTransactionsRequest,
  ManualTransactionsResponse,
  NoQuery,
  TransactionIdParams,
} from '../../../src-shared/api/schemas';
import type { AppContext } from '../context';
import { unwrap } from '../problems';
import { BODY_LIMIT_BYTES, problemResponses, type V1 } from '../route-kit';
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
  v1.post(
    '/journal/transactions',
    {
      ...jsonBody,
      schema: {
        summary: 'Add transactions by hand (JSON, the generic CSV’s fields): one import of kind manual, all rows or none',
        tags: ['journal'],
        querystring: NoQuery,
        body: ManualTransactionsRequest,
        response: { 201: ManualTransactionsResponse, ...problemResponses },
      },
    },
    async (request, reply) => reply.code(201).send(unwrap(await ctx.journal.addTransactions(request.body.transactions))),
  );
  v1.put(
    '/journal/transactions/:id',
    {
      ...jsonBody,
      schema: {
        summary: 'Replace a manual transaction (its id and import stay); an imported row is 409 IMPORTED_ROW',
        tags: ['journal'],
        querystring: NoQuery,
        params: TransactionIdParams,
        body: ManualTransaction,
        response: { 200: ManualTransactionResponse, ...problemResponses },
      },
    },
    async (request) => unwrap(await ctx.journal.replaceTransaction(request.params.id, request.body)),
  );
  v1.post(
    '/journal/expirations',
    {
      ...jsonBody,
      schema: {
        summary: 'Book options past their expiration that no row or snapshot settled as expired worthless: manual EXPIRATION rows, one import (undoable)',
        tags: ['journal'],
        querystring: NoQuery,
        body: ExpiredByHandRequest,
        response: { 201: ExpiredByHandResponse, ...problemResponses },
      },
    },
    async (request, reply) => reply.code(201).send(unwrap(await ctx.journal.bookExpirations(request.body.items))),
  );
  v1.delete(
    '/journal/transactions/:id',
    {
      schema: {
        summary: 'Delete a manual transaction (an import left empty goes with it); an imported row is 409 IMPORTED_ROW',
        tags: ['journal'],
        querystring: NoQuery,
        params: TransactionIdParams,
        response: { 200: ManualDeleteResponse, ...problemResponses },
      },
    },
    async (request) => {
      // A backup first (services/backups.ts); a backup that fails stops the delete.
      unwrap(await ctx.backups.before('delete'));
      return unwrap(await ctx.journal.deleteTransaction(request.params.id));
    },
  );
}
