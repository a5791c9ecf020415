/**
 * From CSV records to a table: the head of a file for detection, the header found by its column names wherever
 * it sits (below titles, account lines, blank or comma-padded rows), and the data rows without the rows that
 * are not data — blank and all-empty rows, one-cell prose (titles, disclaimers, "Date downloaded ..."), and
 * totals rows (`Transactions Total`, `,,,,TOTAL,...`).
 */
import { Columns } from './cells';
import { isBlankRecord, parseCsv, type CsvRecord } from './csv';
import type { ResultCollector } from './result';

/** What detection looks at: the first records of the file (blank ones dropped), parsed once. */
export interface FileHead {
  /** The start of the file, BOM removed. */
  text: string;
  records: CsvRecord[];
}

/** Detection reads at most this much of a file (headers sit in the first lines; files can be 100k rows). */
const HEAD_CHARS = 64 * 1024;
const HEAD_RECORDS = 40;

export function fileHead(text: string): FileHead {
  const body = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).slice(0, HEAD_CHARS);
  const records = parseCsv(body).records.filter((record) => !isBlankRecord(record)).slice(0, HEAD_RECORDS);
  return { text: body, records };
}

/** The normalised names of a record's cells, for header tests (`names.has('run date')`). */
export function nameSet(cells: readonly string[]): Set<string> {
  return new Set(cells.map((cell) => cell.trim().replace(/\s+/g, ' ').toLowerCase()).filter((name) => name !== ''));
}

/** A title, disclaimer or footer: at most one filled cell, and it holds words (a lone number or date is data). */
export function isProse(record: CsvRecord): boolean {
  // Runs on every row of 100k-row files: count without building arrays.
  let only = '';
  for (const cell of record.cells) {
    const text = cell.trim();
    if (text === '') continue;
    if (only !== '') return false;
    only = text;
  }
  return only === '' || (/[A-Za-z]{2}/.test(only) && !/^\d{1,4}[/-]\d{1,2}[/-]\d{1,4}$/.test(only));
}

const TOTALS = /^\s*(?:transactions?\s+|overall\s+|grand\s+|account\s+)?totals?:?\s*$/i;

/** A totals row (`"Transactions Total",...`, `,,,,TOTAL,$0.51,...`, `,OVERALL TOTALS,...`): a sum, not a transaction. */
export function isTotalsRow(record: CsvRecord): boolean {
  return record.cells.some((cell) => cell.length >= 5 && cell.length <= 40 && TOTALS.test(cell));
}

export interface TableSpec {
  /** Is this record the header? Tested on the first records of the file. */
  isHeader(names: Set<string>): boolean;
  /** Columns the rows need (a list gives alternatives); their absence is one error at the header line. */
  required: ReadonlyArray<string | readonly string[]>;
  aliases?: Readonly<Record<string, readonly string[]>>;
  /** How the Import page would name the file (`a Fidelity accounts history`), for messages. */
  what: string;
  /** The header as the user would recognise it, for the "no header" message. */
  headerHint: string;
}

export interface Table {
  header: CsvRecord;
  columns: Columns;
  /** The data rows, in file order (already counted in `out.rows`). */
  rows: CsvRecord[];
  /** Records above the header (titles, account lines). */
  preamble: CsvRecord[];
}

/** How far down a header may sit below titles and account lines (non-blank records). */
const HEADER_SEARCH = 40;

/** Index of the first record, among the first HEADER_SEARCH non-blank ones, that is a header; -1 if none. */
export function findHeader(records: readonly CsvRecord[], isHeader: (names: Set<string>) => boolean): number {
  let seen = 0;
  for (let index = 0; index < records.length && seen < HEADER_SEARCH; index += 1) {
    const record = records[index];
    if (record === undefined || isBlankRecord(record)) continue;
    seen += 1;
    if (isHeader(nameSet(record.cells))) return index;
  }
  return -1;
}

/**
 * Reads a single-table file: finds the header, checks its columns, and returns the data rows. A row with more
 * filled cells than the header has columns (an unquoted comma) or too few to reach a required column (a cut-off
 * file) is an error at its line. Returns null after one error when the file cannot be read as such a table.
 */
export function readTable(out: ResultCollector, text: string, spec: TableSpec): Table | null {
  const parsed = parseCsv(text);
  if (parsed.error) {
    out.error(parsed.error.line, parsed.error.message);
    return null;
  }
  const records = parsed.records;
  const headerAt = findHeader(records, spec.isHeader);
  const header = records[headerAt];
  if (headerAt < 0 || header === undefined) {
    out.error(records.find((record) => !isBlankRecord(record))?.line ?? 1, `not ${spec.what}: no header row (${spec.headerHint}) in the first lines`);
    return null;
  }
  const columns = new Columns(header.cells, 0, spec.aliases ?? {});
  const missing = columns.missing(spec.required);
  if (missing.length > 0) {
    out.error(header.line, `the header lacks the column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`);
    return null;
  }
  const requiredWidth = Math.max(
    0,
    ...spec.required.map((entry) => {
      const indexes = (typeof entry === 'string' ? [entry] : entry).map((name) => columns.index(name)).filter((at): at is number => at !== undefined);
      return Math.min(...indexes) + 1;
    }),
  );
  const rows: CsvRecord[] = [];
  for (const record of records.slice(headerAt + 1)) {
    if (isProse(record) || isTotalsRow(record)) continue;
    out.rows += 1;
    const extra = record.cells.slice(header.cells.length).filter((cell) => cell.trim() !== '').length;
    if (extra > 0) {
      out.error(record.line, `${record.cells.length} cells where the header has ${header.cells.length} (a comma inside an unquoted cell?)`);
      continue;
    }
    if (record.cells.length < requiredWidth) {
      out.error(record.line, `${record.cells.length} cells where the header has ${header.cells.length} (a truncated row: is the file cut off?)`);
      continue;
    }
    rows.push(record);
  }
  return { header, columns, rows, preamble: records.slice(0, headerAt) };
}
