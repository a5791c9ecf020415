import type { AppContext } from '../context';
import { unwrap } from '../problems';
import { withOpenedBeforeHistory } from '../../services/journal/import-attention';
import { presentImport } from '../presenters/imports';
import { importerIdOf } from '../../importers/index';
import { clientGone, type V1 } from '../route-kit';
import { serve, serveUpload } from '../route-table';

export function registerImportRoutes(v1: V1, ctx: AppContext): void {
  // The upload stays bytes on the event loop and is moved (not copied) to the journal worker, which decodes and
  // parses it: a 50 MB file decoded or cloned here would stall every other request for a good part of a second.
  serveUpload(v1, 'POST /imports', async (body, request, reply) => {
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
  });
  serve(v1, 'GET /imports', async (request) => {
    const { imports, pagination } = await ctx.journal.listImports(request.query);
    return { imports: imports.map(presentImport), pagination };
  });
  serve(v1, 'GET /imports/{id}', async (request) => presentImport(unwrap(await ctx.journal.importById(request.params.id))));
  serve(v1, 'POST /imports/{id}/acknowledge', async (request) => unwrap(await ctx.journal.acknowledgeImport(request.params.id)));
  serve(v1, 'DELETE /imports/{id}', async (request) => {
    // A backup first (services/backups.ts): an undo deletes the import's rows; a backup that fails stops it.
    unwrap(await ctx.backups.before('undo'));
    return unwrap(await ctx.journal.undoImport(request.params.id));
  });
}
