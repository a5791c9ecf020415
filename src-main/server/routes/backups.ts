/**
 * Backups of the journal (services/backups.ts): `GET /v1/backups` lists them (the newest is the last backup Settings
 * shows), `POST /v1/backups` takes one now, `POST /v1/backups/restore` checks one and stages it to replace the journal
 * at the next start. A request names a backup of the list, never a path.
 */
import { BackupSchema, BackupsResponse, NoQuery, RestoreRequestBody, RestoreResponse, type BackupJson } from '../../../src-shared/api/schemas';
import type { BackupFile } from '../../db/backups';
import type { AppContext } from '../context';
import { unwrap } from '../problems';
import { problemResponses, type V1 } from '../route-kit';
import { parseJsonBody, strictBodyCompiler } from '../validation';

function present(backup: BackupFile): BackupJson {
  return { name: backup.name, createdAt: backup.createdAt, reason: backup.reason, bytes: backup.bytes };
}

export function registerBackupRoutes(v1: V1, ctx: AppContext): void {
  v1.get('/backups', { schema: { summary: 'Backups of the journal, newest first, and a restore staged for the next start', tags: ['backups'], querystring: NoQuery, response: { 200: BackupsResponse, ...problemResponses } } }, async () => {
    const listing = ctx.backups.list();
    const backups = listing.backups.map(present);
    return { folder: listing.folder, keep: listing.keep, last: backups[0] ?? null, backups, pendingRestore: listing.pendingRestore };
  });
  v1.post(
    '/backups',
    { schema: { summary: 'Back up the journal now (SQLite VACUUM INTO, in a worker thread)', tags: ['backups'], querystring: NoQuery, response: { 201: BackupSchema, ...problemResponses } } },
    async (_request, reply) => reply.code(201).send(present(unwrap(await ctx.backups.backup('manual')))),
  );
  v1.post(
    '/backups/restore',
    {
      preValidation: async (request) => {
        request.body = parseJsonBody(request.body) as typeof request.body;
      },
      validatorCompiler: strictBodyCompiler,
      schema: {
        summary: 'Check a backup (integrity, schema version) and stage it to replace the journal at the next start (202)',
        tags: ['backups'],
        querystring: NoQuery,
        body: RestoreRequestBody,
        response: { 202: RestoreResponse, ...problemResponses },
      },
    },
    async (request, reply) => {
      const staged = unwrap(await ctx.backups.stageRestore(request.body.name));
      return reply.code(202).send({
        pendingRestore: staged.pendingRestore,
        detail: `${staged.name} passed its check and replaces the journal when Strikebook next starts (the journal it replaces is backed up first). Quit and start Strikebook again to finish.`,
      });
    },
  );
}
