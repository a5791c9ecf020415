import { AcknowledgeResponse, ImportDeleteResponse, ImportIdParams, ImportQuery, ImportReportSchema, ImportsQuery, ImportsResponse, NoQuery } from '../../../src-shared/api/schemas';
import type { AppContext } from '../context';
import { unwrap } from '../problems';
import { withOpenedBeforeHistory } from '../../services/journal/import-attention';
import { presentImport } from '../presenters/imports';
import { importerIdOf } from '../../importers/index';
import { clientGone, problemResponses, UPLOAD_LIMIT_BYTES, uploadRoutes, type V1 } from '../route-kit';

export function registerImportRoutes(v1: V1, ctx: AppContext): void {
  // The upload stays bytes on the event loop and is moved (not copied) to the journal worker, which decodes and
  // parses it: a 50 MB file decoded or cloned here would stall every other request for a good part of a second.
  uploadRoutes(v1, (uploads) => {
    uploads.post(
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
        const body = request.body instanceof Uint8Array ? request.body : new Uint8Array(0);
        // An empty body is an empty file: the importers name it so, in the words of the Import page (and with the
        // broker's name when one is given), like any other file they refuse.
        // Parsed in the journal worker outside any write turn, stopped if the client goes away (docs/decisions.md §Jobs).
        const report = await ctx.journal.importFile(
          {
            text: body,
            broker: importerIdOf(request.query.broker),
            ...(request.query.account === undefined ? {} : { accountName: request.query.account }),
            filename: request.query.filename ?? null,
          },
          clientGone(reply),
        );
        const record = unwrap(report);
        // Its closes without an opening, from the ledger built now (the next journal read takes the same one).
        const found = await ctx.journal.openedBeforeHistory([record.id]);
        return reply.code(201).send(presentImport(withOpenedBeforeHistory(record, found.get(record.id))));
      },
    );
  });
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
    async (request) => {
      const { imports, pagination } = await ctx.journal.listImports(request.query);
      return { imports: imports.map(presentImport), pagination };
    },
  );
  v1.post(
    '/imports/:id/acknowledge',
    {
      schema: {
        summary: "Acknowledge an import's differences from its broker's figures: its status says acknowledged, needsAttention stops listing them",
        tags: ['imports'],
        params: ImportIdParams,
        querystring: NoQuery,
        response: { 200: AcknowledgeResponse, ...problemResponses },
      },
    },
    async (request) => unwrap(await ctx.journal.acknowledgeImport(request.params.id)),
  );
  v1.delete(
    '/imports/:id',
    { schema: { summary: 'Undo an import', tags: ['imports'], params: ImportIdParams, response: { 200: ImportDeleteResponse, ...problemResponses } } },
    async (request) => {
      // A backup first (services/backups.ts): an undo deletes the import's rows; a backup that fails stops it.
      unwrap(await ctx.backups.before('undo'));
      return unwrap(await ctx.journal.undoImport(request.params.id));
    },
  );
}
