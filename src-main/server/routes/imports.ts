import type { IncomingMessage } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errorCodes, type FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { unwrap } from '../problems';
import { withOpenedBeforeHistory } from '../../services/journal/import-attention';
import { presentImport } from '../presenters/imports';
import { importerIdOf } from '../../importers/index';
import { clientGone, UPLOAD_CONTENT_TYPES, UPLOAD_LIMIT_BYTES, type V1 } from '../route-kit';
import { serve } from '../route-table';

/**
 * Reads an upload into one buffer as it arrives: one small copy per chunk, into memory sized from Content-Length.
 * Fastify's own buffer parser copies the whole body at the end, which for a 25 MB file kept the event loop busy for
 * a quarter of a second. The result owns its memory whole, so it can be moved to the journal worker uncopied.
 */
export function collectUpload(request: FastifyRequest, payload: IncomingMessage, done: (error: Error | null, body?: Uint8Array) => void): void {
  const limit = request.routeOptions.bodyLimit ?? UPLOAD_LIMIT_BYTES;
  const declared = Number(request.headers['content-length']);
  const known = Number.isInteger(declared) && declared >= 0;
  if (known && declared > limit) {
    done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    return;
  }
  let bytes = new Uint8Array(known ? declared : 64 * 1024);
  let length = 0;
  let finished = false;
  const finish = (error: Error | null, body?: Uint8Array) => {
    if (finished) return;
    finished = true;
    payload.removeAllListeners('data');
    done(error, body);
  };
  payload.on('data', (chunk: Buffer) => {
    if (length + chunk.length > limit) {
      finish(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      payload.resume();
      return;
    }
    if (length + chunk.length > bytes.length) {
      // Without Content-Length (chunked), the buffer grows by doubling.
      const grown = new Uint8Array(Math.min(limit, Math.max(bytes.length * 2, length + chunk.length)));
      grown.set(bytes.subarray(0, length));
      bytes = grown;
    }
    bytes.set(chunk, length);
    length += chunk.length;
  });
  payload.on('end', () => {
    if (known && length !== declared) finish(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
    else finish(null, length === bytes.length ? bytes : bytes.subarray(0, length));
  });
  payload.on('error', (error) => finish(error));
}

/**
 * Routes that take a raw upload (an import, a chain file), in a scope of their own whose one body parser keeps the
 * bytes as they came (collectUpload), to be moved to a worker.
 */
export function uploadRoutes(v1: V1, routes: (uploads: V1) => void): void {
  void v1.register(async (uploads) => {
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser([...UPLOAD_CONTENT_TYPES], collectUpload);
    routes(uploads.withTypeProvider<TypeBoxTypeProvider>());
  });
}

export function registerImportRoutes(v1: V1, ctx: AppContext): void {
  // The upload stays bytes on the event loop and is moved (not copied) to the journal worker, which decodes and
  // parses it: a 50 MB file decoded or cloned here would stall every other request for a good part of a second.
  uploadRoutes(v1, (uploads) => {
    serve(
      uploads,
      'POST /imports',
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
      { bodyLimit: UPLOAD_LIMIT_BYTES },
    );
  });
  serve(v1, 'GET /imports', async (request) => {
    const { imports, pagination } = await ctx.journal.listImports(request.query);
    return { imports: imports.map(presentImport), pagination };
  });
  serve(v1, 'POST /imports/{id}/acknowledge', async (request) => unwrap(await ctx.journal.acknowledgeImport(request.params.id)));
  serve(v1, 'DELETE /imports/{id}', async (request) => {
    // A backup first (services/backups.ts): an undo deletes the import's rows; a backup that fails stops it.
    unwrap(await ctx.backups.before('undo'));
    return unwrap(await ctx.journal.undoImport(request.params.id));
  });
}
