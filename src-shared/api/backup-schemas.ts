/** The /v1 contract of the journal's backups (docs/architecture.md §Reliability and security): list, back up now, restore. */
import { Type, type Static } from 'typebox';
import { Nullable } from './schema-kit';

export const BACKUP_NAME_PATTERN = '^strikebook-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-\\d{3}Z-[a-z]{1,16}\\.db$';

export const BackupSchema = Type.Object({
  name: Type.String({ description: "The file's name in the data folder's backups/" }),
  createdAt: Type.String({ description: 'When it was taken (ISO 8601 UTC)' }),
  reason: Type.Union([Type.Literal('daily'), Type.Literal('manual'), Type.Literal('undo'), Type.Literal('delete'), Type.Literal('migration'), Type.Literal('restore')], {
    description: 'daily; manual (Settings, POST /v1/backups, strikebook backup); before an undo of an import, a delete, a schema upgrade or a restore',
  }),
  bytes: Type.Integer(),
});
export type BackupJson = Static<typeof BackupSchema>;

export const BackupsResponse = Type.Object({
  folder: Type.String({ description: 'Where the backups are' }),
  keep: Type.Integer({ description: 'How many are kept (the setting backupsKept)' }),
  last: Nullable(BackupSchema),
  backups: Type.Array(BackupSchema, { description: 'Newest first' }),
  pendingRestore: Nullable(Type.String({ description: 'A backup that replaces the journal at the next start (POST /v1/backups/restore)' })),
});
export type BackupsResponseT = Static<typeof BackupsResponse>;

export const RestoreRequestBody = Type.Object({ name: Type.String({ pattern: BACKUP_NAME_PATTERN, description: 'A backup of GET /v1/backups' }) }, { additionalProperties: false });
export type RestoreRequestBodyT = Static<typeof RestoreRequestBody>;

export const RestoreResponse = Type.Object({
  pendingRestore: Type.String(),
  detail: Type.String({ description: 'What happens next: the backup replaces the journal when Strikebook next starts' }),
});
export type RestoreResponseT = Static<typeof RestoreResponse>;
