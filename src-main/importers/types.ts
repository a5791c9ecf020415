import type { BrokerId } from '../../src-shared/api/schemas';
import type { ImportedTransaction } from '../../src-shared/journal/model';

/** An importer's problem with one line of the file. Errors abort the import; nothing is stored. */
export interface LineProblem {
  line: number;
  message: string;
}

export interface ParsedRow {
  /** 1-based line of the file the row comes from (the first line of a multi-line record). */
  line: number;
  transaction: ImportedTransaction;
}

/** What every broker importer returns: errors as data, never thrown. */
export interface ParseResult {
  broker: BrokerId;
  /** `tastytrade-csv`, `schwab-csv`, ... (the neutral transaction's `source`). */
  source: string;
  /** Data rows read (not counting headers, titles, totals and blank lines). */
  rows: number;
  transactions: ParsedRow[];
  /** Rows that are not transactions we keep, with the reason (e.g. a Schwab "Journal" between own accounts). */
  skipped: LineProblem[];
  /** Things the user should know that do not stop the import (inferred expirations, unknown action mapped to OTHER). */
  warnings: Array<{ line: number | null; message: string }>;
  /** Any error means the file is not imported. */
  errors: LineProblem[];
}

export interface ParseOptions {
  /** Account name for files that carry none (the `account` parameter of POST /v1/imports). */
  accountName?: string;
}

/** One folder per broker exports one of these. */
export interface BrokerImporter {
  id: BrokerId;
  label: string;
  /** Looks at the first lines (header) only. */
  detect(text: string): boolean;
  parse(text: string, options: ParseOptions): ParseResult;
}
