import { ImportDeleteResponse, ImportIdParams, ImportQuery, ImportReportSchema, ImportsQuery, ImportsResponse } from '../../../src-shared/api/schemas';
import type { AppContext } from '../context';
import { ApiError } from '../problems';
import { UPLOAD_LIMIT_BYTES } from '../app';
import { problemResponses, type V1 } from './health';

export function registerImportRoutes(v1: V1, ctx: AppContext): void {
  v1.post(
    '/imports',
    {
      bodyLimit: UPLOAD_LIMIT_BYTES,
      schema: {
        summary: 'Import a broker CSV (raw body, text/csv); all rows or none',
        tags: ['imports'],
        querystring: ImportQuery,
        response: { 201: ImportReportSchema, ...problemResponses },
      },
    },
    async (request, reply) => {
      const text = typeof request.body === 'string' ? request.body : '';
      if (text === '') throw new ApiError('IMPORT_FAILED', 'The request body is empty: send the CSV file as the raw body (Content-Type: text/csv).', [{ param: 'body', message: 'empty', line: 1 }]);
      // Parsed and stored by the journal worker: the event loop only waits for the report.
      const report = await ctx.journal.importFile({
        text,
        broker: request.query.broker ?? 'auto',
        ...(request.query.account === undefined ? {} : { accountName: request.query.account }),
        filename: request.query.filename ?? null,
      });
      return reply.code(201).send(report);
    },
  );
  v1.get(
    '/imports',
    {
      schema: {
        summary: 'Import history, newest first, paginated (limit clamped to 100)',
        tags: ['imports'],
        querystring: ImportsQuery,
        response: { 200: ImportsResponse, ...problemResponses },
      },
    },
    async (request) => ctx.journal.listImports(request.query),
  );
  v1.delete(
    '/imports/:id',
    { schema: { summary: 'Undo an import', tags: ['imports'], params: ImportIdParams, response: { 200: ImportDeleteResponse, ...problemResponses } } },
    async (request) => ctx.journal.undoImport(request.params.id),
  );
}
