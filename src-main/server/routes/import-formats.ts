/**
 * User-defined import formats (docs/importers.md, "User-defined formats"): `GET /import-formats` (the importers
 * of the registry and the saved formats), `POST` (create), `PUT /:id` (replace), `DELETE /:id`, and
 * `POST /import-formats/preview` (the mapping step: parses the text sent with a format, stores nothing).
 */
import { IMPORT_FORMAT_LIMITS } from '../../../src-shared/api/constants';
import { importerList } from '../../importers/index';
import { customImporter } from '../../importers/custom/index';
import type { AppContext } from '../context';
import { unwrap } from '../problems';
import { presentFormatPreview } from '../presenters/imports';
import type { V1 } from '../route-kit';
import { serve } from '../route-table';
import { parseJsonBody, strictBodyCompiler } from '../validation';

export function registerImportFormatRoutes(v1: V1, ctx: AppContext): void {
  const formats = ctx.importFormats;
  // JSON bodies arrive as text (app.ts): parsed here, refusing prototype keys, then validated without coercion.
  const jsonBody = {
    preValidation: async (request: { body: unknown }) => {
      request.body = parseJsonBody(request.body);
    },
    validatorCompiler: strictBodyCompiler,
  };

  serve(v1, 'GET /import-formats', async () => {
    const saved = formats.list();
    return { importers: importerList(saved.map((format) => customImporter(format))), formats: saved, limit: IMPORT_FORMAT_LIMITS.formats };
  });
  serve(v1, 'POST /import-formats', async (request, reply) => reply.code(201).send(unwrap(await formats.create(request.body))), jsonBody);
  serve(v1, 'PUT /import-formats/{id}', async (request) => unwrap(await formats.replace(request.params.id, request.body)), jsonBody);
  serve(v1, 'DELETE /import-formats/{id}', async (request) => unwrap(await formats.delete(request.params.id)));
  serve(v1, 'POST /import-formats/preview', async (request) => presentFormatPreview(unwrap(await ctx.journal.previewFormat(request.body))), jsonBody);
}
