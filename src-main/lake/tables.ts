/**
 * The four tables of the Parquet lake (docs/research.md): their columns with precise Parquet types, the footer
 * metadata that marks a Strikebook file, and the check of a file's schema against them. The writer builds files
 * from these specs and the reader refuses any file whose schema differs, so the two cannot drift apart.
 */
import type { SchemaElement } from 'hyparquet-writer';

/** Bumped when a column changes; a reader refuses versions it does not know. */
export const LAKE_VERSION = 1;
/** The footer key of every file written by the lake; its value is the file's LakeFileMeta as JSON. */
export const LAKE_META_KEY = 'strikebook.lake';
/** The footer's created_by: constant, so that the same data gives the same bytes on every run and version. */
export const LAKE_CREATED_BY = 'strikebook lake 1';

export type TableName = 'contracts' | 'levels' | 'transactions' | 'trades';

/**
 * How a column is stored. Timestamps are TIMESTAMP(MICROS, UTC) on INT64; dates DATE on INT32; money DECIMAL(18,4) on
 * INT64, whose unscaled value is exactly the journal's minor units (1/10,000); market prices and greeks DOUBLE.
 */
export type ColumnKind = 'int64' | 'int32' | 'double' | 'string' | 'boolean' | 'date' | 'timestamp' | 'money';

export interface ColumnSpec {
  name: string;
  kind: ColumnKind;
  nullable: boolean;
  /** false: no min/max in the footer (values that span their whole range in every file prune nothing). */
  statistics?: false;
}

const column = (name: string, kind: ColumnKind, nullable = false): ColumnSpec => ({ name, kind, nullable });
/** A column whose min/max would prune no file: each snapshot's file spans its whole range. */
const spread = (name: string, kind: ColumnKind, nullable = false): ColumnSpec => ({ name, kind, nullable, statistics: false });

/**
 * One row per stored contract of a snapshot, in the stored order. The first thirteen are DESIGN.md §9's; root and
 * multiplier make a snapshot whole again on import (SPX and SPXW settle differently); dte says which rows the
 * engine uses (null: expired at the quote time or an adjusted root). Greeks are per share at the export's rate r.
 */
export const CONTRACTS: readonly ColumnSpec[] = [
  column('snapshot_id', 'int64'),
  column('quote_time', 'timestamp'),
  column('spot', 'double'),
  column('expiration', 'date'),
  column('strike', 'double'),
  column('right', 'string'),
  spread('open_interest', 'double'),
  spread('iv', 'double'),
  spread('bid', 'double'),
  spread('ask', 'double'),
  spread('volume', 'double', true),
  spread('delta', 'double', true),
  spread('gamma', 'double', true),
  column('root', 'string'),
  column('multiplier', 'double'),
  column('dte', 'int32', true),
];

/** One row per snapshot: its /gex/history point in the default scope (nominal, the nearest three expirations). */
export const LEVELS: readonly ColumnSpec[] = [
  column('snapshot_id', 'int64'),
  column('quote_time', 'timestamp'),
  column('spot', 'double'),
  column('total_gex', 'double'),
  column('gamma_zone', 'string'),
  column('gamma_inflection', 'double', true),
  column('call_wall_strike', 'double', true),
  column('call_wall_gex', 'double', true),
  column('put_wall_strike', 'double', true),
  column('put_wall_gex', 'double', true),
  column('formula', 'string'),
  column('expirations', 'string'),
];

/** The neutral transactions of the journal (docs/journal.md), oldest first; money exact as DECIMAL(18,4). */
export const TRANSACTIONS: readonly ColumnSpec[] = [
  column('id', 'string'),
  column('trade_date', 'timestamp'),
  column('trade_day', 'date'),
  column('account_id', 'string'),
  column('account_name', 'string'),
  column('type', 'string'),
  column('symbol', 'string'),
  column('underlying', 'string'),
  column('is_option', 'boolean'),
  column('expiration', 'date', true),
  column('strike', 'double', true),
  column('right', 'string', true),
  column('quantity', 'double'),
  column('price', 'money'),
  column('multiplier', 'double'),
  column('amount', 'money'),
  column('commission', 'money'),
  column('fees', 'money'),
  column('currency', 'string'),
  column('order_id', 'string', true),
  column('description', 'string'),
  column('source', 'string'),
  column('import_id', 'int64'),
  column('inferred', 'boolean'),
  column('previous_symbol', 'string', true),
];

/**
 * The journal's trades as /journal/trades answers them (src-shared/journal/trades.ts, docs/journal.md §Trades and
 * strategies: the same build, the inferred expirations and the snapshots at entry included), oldest opened first;
 * money exact as DECIMAL(18,4). The entry's figures (dte, delta, the dealers' levels and zone, where the main strike
 * stood) and the ratios of a closed trade are what /journal/stats groups by; an open trade's ratios are null (the API
 * marks them now, which no repeatable file can). Tags as a JSON array of strings.
 */
export const TRADES: readonly ColumnSpec[] = [
  column('id', 'string'),
  column('account_id', 'string'),
  column('account_name', 'string'),
  column('currency', 'string'),
  column('underlying', 'string'),
  column('strategy', 'string'),
  column('status', 'string'),
  column('outcome', 'string'),
  column('opened_before_history', 'boolean'),
  column('opened_at', 'timestamp', true),
  column('open_day', 'date', true),
  column('closed_at', 'timestamp', true),
  column('close_day', 'date', true),
  column('days_held', 'int32', true),
  column('legs', 'int32'),
  column('rolls', 'int32'),
  column('credit', 'money', true),
  column('max_profit', 'money', true),
  column('max_loss', 'money', true),
  column('collateral', 'money', true),
  column('pnl', 'money', true),
  column('option_pl', 'money', true),
  column('return_on_collateral', 'double', true),
  column('pct_of_max_profit', 'double', true),
  column('dte_at_entry', 'int32', true),
  column('delta_at_entry', 'double', true),
  column('entry_quote_time', 'timestamp', true),
  column('entry_spot', 'double', true),
  column('gamma_zone_at_entry', 'string', true),
  column('put_wall_at_entry', 'double', true),
  column('gamma_flip_at_entry', 'double', true),
  column('call_wall_at_entry', 'double', true),
  column('strike_vs_levels', 'string', true),
  column('campaign_id', 'string', true),
  column('tags', 'string'),
];

export const TABLES: Record<TableName, readonly ColumnSpec[]> = { contracts: CONTRACTS, levels: LEVELS, transactions: TRANSACTIONS, trades: TRADES };

/** Money columns: DECIMAL(18,4), up to 10^14 currency units. */
export const MONEY_PRECISION = 18;
export const MONEY_SCALE = 4;

/** The Parquet schema element of a column (converted types written beside the logical ones for older readers). */
export function schemaElement(spec: ColumnSpec): SchemaElement {
  const repetition_type = spec.nullable ? 'OPTIONAL' : 'REQUIRED';
  const name = spec.name;
  switch (spec.kind) {
    case 'int64':
      return { name, repetition_type, type: 'INT64' };
    case 'int32':
      return { name, repetition_type, type: 'INT32' };
    case 'double':
      return { name, repetition_type, type: 'DOUBLE' };
    case 'boolean':
      return { name, repetition_type, type: 'BOOLEAN' };
    case 'string':
      return { name, repetition_type, type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } };
    case 'date':
      return { name, repetition_type, type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } };
    case 'timestamp':
      return { name, repetition_type, type: 'INT64', converted_type: 'TIMESTAMP_MICROS', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' } };
    case 'money':
      return {
        name,
        repetition_type,
        type: 'INT64',
        converted_type: 'DECIMAL',
        scale: MONEY_SCALE,
        precision: MONEY_PRECISION,
        logical_type: { type: 'DECIMAL', scale: MONEY_SCALE, precision: MONEY_PRECISION },
      };
  }
}

export function tableSchema(columns: readonly ColumnSpec[]): SchemaElement[] {
  return [{ name: 'schema', num_children: columns.length }, ...columns.map(schemaElement)];
}

/** A schema element as a reader gives it (hyparquet's, or the writer's copy of its types). */
interface ReadElement {
  name: string;
  type?: string;
  repetition_type?: string;
  num_children?: number;
  logical_type?: { type: string; unit?: string; isAdjustedToUTC?: boolean; precision?: number; scale?: number };
}

/** What a column's element says, reduced to what the lake decides (a reader's own field order is no difference). */
function signature(element: ReadElement): string {
  const logical = element.logical_type;
  const logicalText =
    logical === undefined
      ? ''
      : logical.type === 'TIMESTAMP'
        ? `TIMESTAMP(${logical.unit ?? ''},${String(logical.isAdjustedToUTC)})`
        : logical.type === 'DECIMAL'
          ? `DECIMAL(${logical.precision ?? ''},${logical.scale ?? ''})`
          : logical.type;
  return `${element.type ?? 'group'} ${element.repetition_type ?? ''} ${logicalText}`.trim();
}

/** Differences between a file's schema and a table's, each a sentence naming the column; empty when they agree. */
export function schemaProblems(table: TableName, schema: readonly ReadElement[]): string[] {
  const expected = TABLES[table];
  const columns = schema.slice(1);
  const problems: string[] = [];
  if (schema[0]?.num_children !== columns.length || columns.some((c) => c.num_children !== undefined)) problems.push('nested columns (a lake file is flat)');
  const byName = new Map(columns.map((c) => [c.name, c]));
  for (const spec of expected) {
    const found = byName.get(spec.name);
    const wanted = signature(schemaElement(spec));
    if (found === undefined) problems.push(`column ${spec.name} is missing`);
    else if (signature(found) !== wanted) problems.push(`column ${spec.name} is ${signature(found)}, expected ${wanted}`);
  }
  const known = new Set(expected.map((spec) => spec.name));
  for (const c of columns) if (!known.has(c.name)) problems.push(`column ${c.name} is not a ${table} column`);
  return problems;
}

/** The footer metadata of a snapshot's file (contracts or levels). */
export interface SnapshotFileMeta {
  version: number;
  table: 'contracts' | 'levels';
  symbol: string;
  snapshotId: number;
  quoteTime: string;
  spot: number;
  source: string;
  /** The snapshot's content digest in the data folder it came from (what makes an export incremental). */
  digest: string;
  /** The rate r the greeks were computed at. */
  rate: number;
  rows: number;
}

/** The footer metadata of a lake file. */
export type LakeFileMeta = SnapshotFileMeta | { version: number; table: 'transactions' | 'trades'; rows: number };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The footer metadata read back and checked field by field, or the sentence saying what is wrong with it. */
export function parseLakeMeta(text: string): LakeFileMeta | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return `its ${LAKE_META_KEY} metadata is not JSON`;
  }
  if (!isRecord(parsed)) return `its ${LAKE_META_KEY} metadata is not an object`;
  const { version, table, rows } = parsed;
  if (version !== LAKE_VERSION) return `it is lake version ${String(version)}; this Strikebook reads version ${LAKE_VERSION}`;
  if (typeof rows !== 'number' || !Number.isSafeInteger(rows) || rows < 0) return 'its row count is missing';
  if (table === 'transactions' || table === 'trades') return { version, table, rows };
  if (table !== 'contracts' && table !== 'levels') return `its table "${String(table)}" is not one of contracts, levels, transactions, trades`;
  const { symbol, snapshotId, quoteTime, spot, source, digest, rate } = parsed;
  if (typeof symbol !== 'string' || !/^[A-Z0-9.^/_-]{1,32}$/.test(symbol)) return 'its symbol is missing or not a ticker';
  if (typeof snapshotId !== 'number' || !Number.isSafeInteger(snapshotId) || snapshotId < 1) return 'its snapshotId is not a positive integer';
  if (typeof quoteTime !== 'string' || !Number.isFinite(Date.parse(quoteTime))) return 'its quoteTime is not an instant';
  if (typeof spot !== 'number' || !(spot > 0) || !Number.isFinite(spot)) return 'its spot is not a positive number';
  if (typeof source !== 'string') return 'its source is missing';
  if (typeof digest !== 'string' || !/^[0-9a-f]{64}$/.test(digest)) return 'its digest is not a SHA-256';
  if (typeof rate !== 'number' || !Number.isFinite(rate)) return 'its rate is not a number';
  return { version, table, symbol, snapshotId, quoteTime, spot, source, digest, rate, rows };
}
