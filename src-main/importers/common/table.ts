/**
 * From CSV records to a table: the head of a file for detection, the header found by its column names wherever
 * it sits (below titles, account lines, blank or comma-padded rows), and the data rows without the rows that
 * are not data — blank and all-empty rows, one-cell prose (titles, disclaimers, "Date downloaded ..."), and
 * totals rows (`Transactions Total`, `,,,,TOTAL,...`).
 */
import { Columns, RowReader } from './cells';
import { csvRecords, isBlankRecord, MAX_WHOLE_FILE_RECORDS, parseCsv, type CsvRecord } from './csv';
import type { FileHead } from '../types';
import type { ResultCollector } from './result';

export type { FileHead };

/** Detection reads at most this much of a file (headers sit in the first lines; files can be 100k rows). */
const HEAD_CHARS = 64 * 1024;
export const HEAD_RECORDS = 40;

export function fileHead(text: string): FileHead {
  const body = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).slice(0, HEAD_CHARS);
  const records = parseCsv(body).records.filter((record) => !isBlankRecord(record)).slice(0, HEAD_RECORDS);
  return { text: body, records };
}

/** The normalised names of a record's cells, for header tests (`names.has('run date')`). */
export function nameSet(cells: readonly string[]): Set<string> {
  return new Set(cells.map((cell) => cell.trim().replace(/\s+/g, ' ').toLowerCase()).filter((name) => name !== ''));
}

/** A `detect` of the registry: a header `isHeader` accepts among the first `records` of the file's head (all of it: `HEAD_RECORDS`). */
export function headerNear(isHeader: (names: Set<string>) => boolean, records = 5): (head: FileHead) => boolean {
  return (head) => head.records.slice(0, records).some((record) => isHeader(nameSet(record.cells)));
}

/** Parses the whole file as CSV; on a CSV error (an unclosed quote), reports it at its line and returns null. */
export function readCsv(out: ResultCollector, text: string): CsvRecord[] | null {
  const parsed = parseCsv(text, ',', MAX_WHOLE_FILE_RECORDS);
  if (!parsed.error) return parsed.records;
  out.error(parsed.error.line, parsed.error.message);
  return null;
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
  return only === '' || (/[A-Z]{2}/i.test(only) && !/^\d{1,4}[/-]\d{1,2}[/-]\d{1,4}$/.test(only));
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
  /** A totals row below the header (not data): the importers that state the file's totals read it (docs/importers.md §Reconciliation). */
  onTotals?(record: CsvRecord, columns: Columns): void;
}

export interface Table {
  header: CsvRecord;
  columns: Columns;
  /**
   * The data rows in file order, read from the text as they are iterated (once): each is counted in `out.rows`
   * then, and a row that cannot be data of the table is reported instead. Nothing holds the whole file's records,
   * so the cells of rows already mapped die young (imports of 100k rows spent more in the collector than in parsing).
   */
  rows: Iterable<CsvRecord>;
  /** Records above the header (titles, account lines). */
  preamble: CsvRecord[];
}

/** How far down a header may sit below titles and account lines (non-blank records). */
const HEADER_SEARCH = 40;

/**
 * Reads a single-table file: finds the header, checks its columns, and returns the data rows. A row with more
 * filled cells than the header has columns (an unquoted comma) or too few to reach a required column (a cut-off
 * file) is an error at its line. Returns null after one error when the file cannot be read as such a table.
 */
export function readTable(out: ResultCollector, text: string, spec: TableSpec): Table | null {
  const records = csvRecords(text);
  // The header among the first HEADER_SEARCH non-blank records, reading no further into the file.
  const head: CsvRecord[] = [];
  let header: CsvRecord | undefined;
  let seen = 0;
  let next = records.next();
  for (; next.done !== true && seen < HEADER_SEARCH; next = records.next()) {
    head.push(next.value);
    if (isBlankRecord(next.value)) continue;
    seen += 1;
    if (spec.isHeader(nameSet(next.value.cells))) {
      header = next.value;
      break;
    }
  }
  if (next.done === true && next.value !== null) {
    // The file ends inside a quoted cell before (or at) its header.
    out.error(next.value.line, next.value.message);
    return null;
  }
  if (header === undefined) {
    out.error(head.find((record) => !isBlankRecord(record))?.line ?? 1, `not ${spec.what}: no header row (${spec.headerHint}) in the first lines`);
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
  const width = header.cells.length;
  function* rows(): Generator<CsvRecord> {
    for (;;) {
      const step = records.next();
      if (step.done === true) {
        // A quoted cell never closed: the file is cut off there. The rows before it were read as usual.
        if (step.value !== null) out.error(step.value.line, step.value.message);
        return;
      }
      const record = step.value;
      if (isProse(record)) continue;
      if (isTotalsRow(record)) {
        spec.onTotals?.(record, columns);
        continue;
      }
      out.rows += 1;
      let extra = 0;
      for (let i = width; i < record.cells.length; i += 1) if ((record.cells[i] ?? '').trim() !== '') extra += 1;
      if (extra > 0) {
        if (out.keepsErrors) out.error(record.line, `${record.cells.length} cells where the header has ${width} (a comma inside an unquoted cell?)`);
        else out.countError(record.line);
        continue;
      }
      if (record.cells.length < requiredWidth) {
        if (out.keepsErrors) out.error(record.line, `${record.cells.length} cells where the header has ${width} (a truncated row: is the file cut off?)`);
        else out.countError(record.line);
        continue;
      }
      yield record;
    }
  }
  return { header, columns, rows: rows(), preamble: head.slice(0, -1) };
}

/**
 * The data rows of a single-table file, each as a reader over the table's columns; none when the file cannot be
 * read as that table (the error is then in `out`).
 */
export function* tableReaders(out: ResultCollector, text: string, spec: TableSpec): Generator<RowReader> {
  const table = readTable(out, text, spec);
  if (table === null) return;
  for (const record of table.rows) yield new RowReader(record, table.columns, out);
}
