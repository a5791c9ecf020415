/**
 * Backups of the journal (services/backups.ts): `GET /v1/backups` lists them (the newest is the last backup Settings
 * shows), `POST /v1/backups` takes one now, `POST /v1/backups/restore` checks one and stages it to replace the journal
 * at the next start. A request names a backup of the list, never a path.
 */
import type { BackupJson } from '../../../src-shared/api/schemas';
import type { BackupFile } from '../../db/backups';
import type { AppContext } from '../context';
import { unwrap } from '../problems';
import type { V1 } from '../route-kit';
import { serve } from '../route-table';
import { parseJsonBody, strictBodyCompiler } from '../validation';

function present(backup: BackupFile): BackupJson {
  return { name: backup.name, createdAt: backup.createdAt, reason: backup.reason, bytes: backup.bytes };
}

export function registerBackupRoutes(v1: V1, ctx: AppContext): void {
  serve(v1, 'GET /backups', async () => {
    const listing = ctx.backups.list();
    const backups = listing.backups.map(present);
    return { folder: listing.folder, keep: listing.keep, last: backups[0] ?? null, backups, pendingRestore: listing.pendingRestore };
  });
  serve(v1, 'POST /backups', async (_request, reply) => reply.code(201).send(present(unwrap(await ctx.backups.backup('manual')))));
  serve(
    v1,
    'POST /backups/restore',
    async (request, reply) => {
      const staged = unwrap(await ctx.backups.stageRestore(request.body.name));
      return reply.code(202).send({
        pendingRestore: staged.pendingRestore,
        detail: `${staged.name} passed its check and replaces the journal when Strikebook next starts (the journal it replaces is backed up first). Quit and start Strikebook again to finish.`,
      });
    },
    {
      preValidation: async (request) => {
        request.body = parseJsonBody(request.body);
      },
      validatorCompiler: strictBodyCompiler,
    },
  );
}
