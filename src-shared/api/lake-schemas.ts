/** The /v1 contract of the research export (docs/research.md): start an export, follow its progress. */
import { Type, type Static } from 'typebox';
import { DATETIME_PATTERN, Nullable, Params, SYMBOL_PATTERN } from './schema-kit';

const Bound = (description: string) => Type.String({ pattern: DATETIME_PATTERN, maxLength: 40, description });

export const ExportRequestBody = Type.Object(
  {
    symbol: Type.Optional(Type.String({ pattern: SYMBOL_PATTERN, description: 'Only this symbol’s snapshots (default all)' })),
    from: Type.Optional(Bound('Snapshots quoted from (a date: its New York start; or an ISO 8601 instant)')),
    to: Type.Optional(Bound('Snapshots quoted up to (a date: its New York end; or an ISO 8601 instant)')),
    folder: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_-]{1,64}$',
        description: 'A folder the desktop app’s dialog granted (the preload’s chooseExportFolder); default <data folder>/exports',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ExportRequestBodyT = Static<typeof ExportRequestBody>;

export const ExportIdParams = Params({ id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'The export’s id' }) });

export const ExportJobSchema = Type.Object({
  id: Type.String(),
  state: Type.Union([Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]),
  out: Type.String({ description: 'The lake folder written' }),
  symbol: Nullable(Type.String()),
  from: Nullable(Type.String()),
  to: Nullable(Type.String()),
  startedAt: Type.String(),
  finishedAt: Nullable(Type.String()),
  progress: Type.Object({
    snapshotsDone: Type.Integer(),
    snapshotsTotal: Nullable(Type.Integer({ description: 'null until the snapshots are listed' })),
    rowsWritten: Type.Integer({ description: 'Contract rows written so far' }),
  }),
  summary: Nullable(
    Type.Object({
      snapshots: Type.Object({ total: Type.Integer(), written: Type.Integer(), skipped: Type.Integer() }),
      rows: Type.Object({ contracts: Type.Integer(), levels: Type.Integer(), transactions: Type.Integer(), trades: Type.Integer() }),
      transactions: Type.Union([Type.Literal('written'), Type.Literal('unchanged'), Type.Literal('none')]),
      trades: Type.Union([Type.Literal('written'), Type.Literal('unchanged'), Type.Literal('none')], { description: 'trades.parquet: the trades built from the transactions (none: no trade)' }),
      files: Type.Integer(),
      bytes: Type.Integer(),
    }),
  ),
  error: Nullable(Type.String({ description: 'Why a failed export stopped (the files it wrote are whole)' })),
});
export type ExportJobJson = Static<typeof ExportJobSchema>;

export const ExportsResponse = Type.Object({ exports: Type.Array(ExportJobSchema, { description: 'The newest first; the last 20 are kept' }) });
export type ExportsResponseT = Static<typeof ExportsResponse>;
