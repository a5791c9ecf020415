import type { BrokerId } from '../../src-shared/api/constants';
import type { ReasonCount, ReportNotes } from '../../src-shared/journal/import-report';
import type { ImportedTransaction, RawTransaction } from '../../src-shared/journal/model';
import type { FileStatement } from '../../src-shared/journal/statements';
import type { CsvRecord } from './common/csv';

/**
 * A built-in broker (`tastytrade`, `schwab`, ...) or a user-defined mapping saved from the Import page
 * (`custom:<id>`, docs/journal.md), which plugs in as one more importer.
 */
export type ImporterId = BrokerId | `custom:${string}`;

/** An importer's problem with one line of the file. Errors abort the import; nothing is stored. */
export interface LineProblem {
  line: number;
  /** What is wrong, without the line (it has its own field): `column "Amount": not an amount: "1x"`. */
  message: string;
}

export interface ParsedRow {
  /** 1-based line of the file the row comes from (the first line of a multi-line record). */
  line: number;
  transaction: ImportedTransaction;
}

/** A row as an importer reads it, before the collector (ResultCollector.add) makes its names Tickers. */
export interface RawRow {
  line: number;
  transaction: RawTransaction;
}

/**
 * What every broker importer returns: errors as data, never thrown. Its notes are the stored report's
 * (import-report.ts), but a skipped row keeps its message as a LineProblem: skipped rows are the first 1,000
 * (docs/importers.md §Bounded), `skippedCount` counts them all, `skippedReasons` by reason (e.g. a Schwab "Journal"
 * between own accounts); warnings (inferred expirations, unknown action mapped to OTHER) the first 1,000; merged
 * rows (a corporate action's two rows) the first MAX_KEPT_NOTES groups, `mergedCount` counting the rows merged away.
 */
export interface ParseResult extends Omit<ReportNotes, 'skipped'> {
  broker: ImporterId;
  /** `tastytrade-csv`, `schwab-csv`, ... (the neutral transaction's `source`). */
  source: string;
  /** Data rows read (not counting headers, titles, totals and blank lines). */
  rows: number;
  transactions: ParsedRow[];
  skipped: LineProblem[];
  /** Any error means the file is not imported. The first 1,000, then one entry counting the rest; `errorCount` counts all. */
  errors: LineProblem[];
  errorCount: number;
  /** What the file states about itself (total lines, positions at its end): the first MAX_STATEMENTS, checked after the insert (statements.ts). */
  statements: FileStatement[];
}

export type { ReasonCount };

export interface ParseOptions {
  /** Account name for files that carry none (the `account` parameter of POST /v1/imports). */
  accountName?: string;
  /**
   * "Now" for importers that infer settlements of positions past their expiration (Webull): expirations after
   * this instant are not settled. Default: the parse time.
   */
  asOf?: Date;
}

/**
 * What detection looks at: the first records of the file (blank ones dropped), parsed once (common/table.ts's
 * fileHead). Declared here, with the importer it is handed to, so that this contract imports nothing of the
 * pipeline that imports it (docs/architecture.md §Layout: no import loops).
 */
export interface FileHead {
  /** The start of the file, BOM removed. */
  text: string;
  records: CsvRecord[];
}

/** One folder per broker exports one of these; the registry (registry.ts) lists them. */
export interface BrokerImporter {
  id: ImporterId;
  /** The name people know the broker or format by (the Import page's broker list, messages). */
  label: string;
  /** The exports it reads, for the Import page, the CLI and docs (`transaction history CSV (current and legacy layouts)`). */
  formats: string;
  /** Looks at the head of the file only (its first records, parsed once by the registry). */
  detect(head: FileHead): boolean;
  parse(text: string, options: ParseOptions): ParseResult;
}
