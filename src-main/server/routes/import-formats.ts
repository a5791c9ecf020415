/**
 * User-defined import formats (docs/importers.md, "User-defined formats"): `GET /import-formats` (the importers
 * of the registry and the saved formats), `POST` (create), `PUT /:id` (replace), `DELETE /:id`, and
 * `POST /import-formats/preview` (the mapping step: parses the text sent with a format, stores nothing).
 */
import {
  ImportFormatDeleteResponse,
  ImportFormatDraft,
  ImportFormatIdParams,
  ImportFormatPreviewRequest,
  ImportFormatPreviewResponse,
  ImportFormatSchema,
  ImportFormatsResponse,
  NoQuery,
} from '../../../src-shared/api/schemas';
import { IMPORT_FORMAT_LIMITS } from '../../../src-shared/api/constants';
import { importerList } from '../../importers/index';
import { customImporter } from '../../importers/custom/index';
import type { AppContext } from '../context';
import { unwrap } from '../problems';
import { presentFormatPreview } from '../presenters/imports';
import { problemResponses, type V1 } from '../route-kit';
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

  v1.get(
    '/import-formats',
    { schema: { summary: 'The importers (built-in brokers, then saved formats) and the saved formats', tags: ['imports'], querystring: NoQuery, response: { 200: ImportFormatsResponse, ...problemResponses } } },
    async () => {
      const saved = formats.list();
      return { importers: importerList(saved.map((format) => customImporter(format))), formats: saved, limit: IMPORT_FORMAT_LIMITS.formats };
    },
  );
  v1.post(
    '/import-formats',
    { ...jsonBody, schema: { summary: 'Save a format (a column mapping for one header)', tags: ['imports'], querystring: NoQuery, body: ImportFormatDraft, response: { 201: ImportFormatSchema, ...problemResponses } } },
    async (request, reply) => reply.code(201).send(unwrap(await formats.create(request.body))),
  );
  v1.put(
    '/import-formats/:id',
    { ...jsonBody, schema: { summary: 'Replace a saved format (its id stays)', tags: ['imports'], querystring: NoQuery, params: ImportFormatIdParams, body: ImportFormatDraft, response: { 200: ImportFormatSchema, ...problemResponses } } },
    async (request) => unwrap(await formats.replace(request.params.id, request.body)),
  );
  v1.delete(
    '/import-formats/:id',
    { schema: { summary: 'Delete a saved format (its past imports stay)', tags: ['imports'], querystring: NoQuery, params: ImportFormatIdParams, response: { 200: ImportFormatDeleteResponse, ...problemResponses } } },
    async (request) => unwrap(await formats.delete(request.params.id)),
  );
  v1.post(
    '/import-formats/preview',
    {
      ...jsonBody,
      schema: {
        summary: "A file's columns and, with a format, the transactions it would import (nothing is stored)",
        tags: ['imports'],
        querystring: NoQuery,
        body: ImportFormatPreviewRequest,
        response: { 200: ImportFormatPreviewResponse, ...problemResponses },
      },
    },
    async (request) => presentFormatPreview(unwrap(await ctx.journal.previewFormat(request.body))),
  );
}
