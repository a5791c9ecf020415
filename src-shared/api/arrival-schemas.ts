/**
 * Chains that arrive by themselves (docs/exposure.md §Chains that arrive by themselves, issue 30): the watch folder
 * (GET /v1/chains/watch), a backfill (POST and GET /v1/chains/backfill) and the app's status line (GET /v1/status:
 * the online source, the schedule, the watch folder and a backfill at a glance).
 */
import { Type, type Static } from 'typebox';
import { Nullable, OneOf } from './schema-kit';

export const WATCH_OUTCOMES = ['imported', 'already-stored', 'failed', 'retry'] as const;

export const WatchOutcomeSchema = Type.Object({
  name: Type.String({ description: 'The file, as named in the watch folder' }),
  outcome: OneOf(WATCH_OUTCOMES, { description: 'imported (a new snapshot), already-stored, failed (moved to failed/ with <name>.reason.txt), retry (left in place: a busy database or a full disk; tried again)' }),
  at: Type.String(),
  movedTo: Nullable(Type.String({ description: 'Where it went, relative to the watch folder (imported/… or failed/…); null: left in place' })),
  snapshotId: Type.Optional(Type.Integer()),
  symbol: Type.Optional(Type.String()),
  quoteTime: Type.Optional(Type.String()),
  contracts: Type.Optional(Type.Integer()),
  reason: Type.Optional(Type.String({ description: 'Why it failed: the file\'s problems with their lines (the first 2,000 characters; the reason file has them all)' })),
});

export const WatchStatusSchema = Type.Object({
  watching: Type.Boolean({ description: 'The folder is watched (set, a folder, no symbolic link)' }),
  folder: Nullable(Type.String({ description: 'The watchFolder setting; null when empty' })),
  problem: Nullable(Type.String({ description: 'Why the folder is not watched (missing, a link, not a folder...)' })),
  waiting: Type.Array(Type.String(), { description: 'Files seen that have not stopped growing for 2 s yet (the first 20)' }),
  links: Type.Array(Type.String(), { description: 'Symbolic links in the folder, skipped, never followed (the first 20)' }),
  files: Type.Array(WatchOutcomeSchema, { description: 'The last 50 files handled, newest first' }),
});
export type WatchStatusT = Static<typeof WatchStatusSchema>;

export const BACKFILL_STATES = ['running', 'done', 'failed', 'interrupted'] as const;
export const BACKFILL_PHASES = ['listing', 'dating', 'importing', 'finished'] as const;

export const BackfillBody = Type.Object(
  { path: Type.String({ minLength: 1, maxLength: 1000, description: 'An absolute path to a folder of chain files or a Parquet lake (`strikebook export`; subfolders included) on this machine' }) },
  { additionalProperties: false },
);
export type BackfillBodyT = Static<typeof BackfillBody>;

export const BackfillJobSchema = Type.Object({
  id: Type.Integer(),
  path: Type.String(),
  state: OneOf(BACKFILL_STATES, { description: 'interrupted: the server stopped during it; POST the same path to continue (files stored are skipped by their bytes)' }),
  phase: OneOf(BACKFILL_PHASES, { description: 'listing → dating (each file read and dated) → importing (oldest first) → finished' }),
  startedAt: Type.String(),
  finishedAt: Nullable(Type.String()),
  current: Nullable(Type.String({ description: 'The file being read or stored' })),
  counts: Type.Object({
    files: Type.Integer({ description: 'Chain files found (.csv, .json, a lake\'s .parquet; subfolders included)' }),
    dated: Type.Integer({ description: 'Files read and dated so far' }),
    toImport: Type.Integer({ description: 'Files to store (not stored before, within retention)' }),
    imported: Type.Integer({ description: 'Of toImport, handled so far' }),
    stored: Type.Integer({ description: 'New snapshots' }),
    alreadyStored: Type.Integer({ description: 'Stored before: the same bytes (skipped unread) or the same chain' }),
    failed: Type.Integer(),
    beyondRetention: Type.Integer({ description: 'Older than the symbol\'s retention keeps: not read (raise snapshotRetentionBySymbol)' }),
    events: Type.Integer({ description: 'Flip and wall events the stored snapshots produced' }),
    links: Type.Integer({ description: 'Symbolic links met, not followed' }),
    omitted: Type.Integer({ description: 'Files past the 50,000 listed' }),
    lakeFiles: Type.Integer({ description: 'Of files, a Parquet lake\'s (each contracts file is a snapshot)' }),
    lakeOther: Type.Integer({ description: 'Lake files holding no chain (levels, transactions, trades): read, not stored' }),
  }),
  failures: Type.Array(Type.Object({ file: Type.String(), reason: Type.String() }), { description: 'The first 50 files that failed, with why' }),
  retention: Type.Array(Type.Object({ symbol: Type.String(), keep: Type.Integer(), left: Type.Integer() }), { description: 'Symbols whose retention left older snapshots out' }),
  oldest: Nullable(Type.String({ description: 'Quote time of the oldest file to store' })),
  newest: Nullable(Type.String()),
  error: Nullable(Type.String({ description: 'Why it stopped before its end (failed)' })),
});
export type BackfillJobT = Static<typeof BackfillJobSchema>;

export const BackfillStatusSchema = Type.Object({ backfill: Nullable(BackfillJobSchema) });
export type BackfillStatusT = Static<typeof BackfillStatusSchema>;

export const STATUS_LEVELS = ['error', 'warn', 'info'] as const;

export const AppStatusSchema = Type.Object({
  source: Type.Object({
    state: OneOf(['off', 'unknown', 'ok', 'unreachable'] as const, { description: 'off: no base URL, no polling and no schedule' }),
    host: Nullable(Type.String()),
    message: Nullable(Type.String({ description: 'While unreachable: one line, "cannot reach <host>: <why>"' })),
    since: Nullable(Type.String()),
    retryAt: Nullable(Type.String({ description: 'When the poller and the schedule try again (backoff)' })),
    lastOkAt: Nullable(Type.String()),
  }),
  refresh: Type.Object({ running: Type.Boolean(), startedAt: Nullable(Type.String()), sourceProblem: Nullable(Type.String()) }),
  schedule: Type.Object({
    times: Type.Array(Type.String()),
    nextRunAt: Nullable(Type.String()),
    retryAt: Nullable(Type.String()),
    lastRunAt: Nullable(Type.String()),
    lastOutcome: Nullable(Type.String()),
  }),
  watch: Type.Object({
    watching: Type.Boolean(),
    folder: Nullable(Type.String()),
    problem: Nullable(Type.String()),
    lastFailure: Nullable(Type.Object({ name: Type.String(), at: Type.String(), reason: Type.String() })),
  }),
  backfill: Nullable(Type.Object({ state: OneOf(BACKFILL_STATES), phase: OneOf(BACKFILL_PHASES), path: Type.String(), done: Type.Integer(), total: Type.Integer() })),
  messages: Type.Array(
    Type.Object({
      level: OneOf(STATUS_LEVELS),
      text: Type.String(),
      page: Type.Optional(Type.String({ description: 'The UI page that says more (settings, exposure)' })),
    }),
    { description: 'The status line: what needs a look first, most urgent first' },
  ),
});
export type AppStatusT = Static<typeof AppStatusSchema>;
