/**
 * From CSV records to a table: the head of a file for detection, the header found by its column names wherever
 * it sits (below titles, account lines, blank or comma-padded rows), and the data rows without the rows that
 * are not data — blank and all-empty rows, one-cell prose (titles, disclaimers, "Date downloaded ..."), and
 * totals rows (`Transactions Total`, `,,,,TOTAL,...`).
 */
import { Columns, RowReader } from './cells';
import { csvRecords, CsvScanner, isBlankRecord, MAX_WHOLE_FILE_RECORDS, parseCsv, type CsvRecord } from './csv';
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
  const requiredWidth = requiredWidthOf(columns, spec);
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

/** isProse over the first `count` cells (a CsvScanner's reused array). */
function isProseCells(cells: readonly string[], count: number): boolean {
  let only = '';
  for (let i = 0; i < count; i += 1) {
    const text = (cells[i] ?? '').trim();
    if (text === '') continue;
    if (only !== '') return false;
    only = text;
  }
  return only === '' || (/[A-Z]{2}/i.test(only) && !/^\d{1,4}[/-]\d{1,2}[/-]\d{1,4}$/.test(only));
}

/**
 * isTotalsRow over the first `count` cells. A cell that starts with a letter or digit TOTALS cannot begin with is
 * not tested (a data row's cells almost all are): TOTALS starts with \s or one of t, o, g, a in either case, and a
 * case-insensitive regex without the u flag never folds a non-ASCII character onto those.
 */
function isTotalsCells(cells: readonly string[], count: number): boolean {
  for (let i = 0; i < count; i += 1) {
    const cell = cells[i] ?? '';
    if (cell.length < 5 || cell.length > 40) continue;
    const folded = cell.charCodeAt(0) | 0x20;
    if (folded >= 0x30 && folded <= 0x39) continue;
    if (folded >= 0x61 && folded <= 0x7a && folded !== 0x74 && folded !== 0x6f && folded !== 0x67 && folded !== 0x61) continue;
    if (TOTALS.test(cell)) return true;
  }
  return false;
}

/**
 * The data rows of a single-table file read one at a time into a reused array (`next()`, then `cells[0..count)` and
 * `line`), with readTable's rules: prose and totals rows passed over, every other row counted in `out.rows`, a row
 * with more filled cells than the header or too few to reach a required column an error at its line.
 */
export class TableRows {
  readonly cells: string[];
  count = 0;
  line = 0;

  constructor(
    private readonly scanner: CsvScanner,
    private readonly out: ResultCollector,
    private readonly columns: Columns,
    private readonly spec: TableSpec,
    private readonly width: number,
    private readonly requiredWidth: number,
  ) {
    this.cells = scanner.cells;
  }

  next(): boolean {
    const { scanner, out, cells, width } = this;
    for (;;) {
      if (!scanner.next()) {
        // A quoted cell never closed: the file is cut off there. The rows before it were read as usual.
        if (scanner.error !== null) out.error(scanner.error.line, scanner.error.message);
        return false;
      }
      const count = scanner.count;
      if (isProseCells(cells, count)) continue;
      if (isTotalsCells(cells, count)) {
        this.spec.onTotals?.({ line: scanner.line, cells: cells.slice(0, count) }, this.columns);
        continue;
      }
      out.rows += 1;
      let extra = 0;
      for (let i = width; i < count; i += 1) if ((cells[i] ?? '').trim() !== '') extra += 1;
      if (extra > 0) {
        if (out.keepsErrors) out.error(scanner.line, `${count} cells where the header has ${width} (a comma inside an unquoted cell?)`);
        else out.countError(scanner.line);
        continue;
      }
      if (count < this.requiredWidth) {
        if (out.keepsErrors) out.error(scanner.line, `${count} cells where the header has ${width} (a truncated row: is the file cut off?)`);
        else out.countError(scanner.line);
        continue;
      }
      this.count = count;
      this.line = scanner.line;
      return true;
    }
  }
}

export interface ScannedTable {
  header: CsvRecord;
  columns: Columns;
  rows: TableRows;
  preamble: CsvRecord[];
}

/**
 * readTable for a hot loop (the generic importer): the same header search, checks and rows, the rows read into one
 * reused array instead of a record each (test/integration/main/importers/generic/generic.fused.test.ts holds the
 * generic importer on it to what it gave over readTable).
 */
export function scanTable(out: ResultCollector, text: string, spec: TableSpec): ScannedTable | null {
  const scanner = new CsvScanner(text);
  const head: CsvRecord[] = [];
  let header: CsvRecord | undefined;
  let seen = 0;
  let more = scanner.next();
  for (; more && seen < HEADER_SEARCH; more = scanner.next()) {
    const record = { line: scanner.line, cells: scanner.cells.slice(0, scanner.count) };
    head.push(record);
    if (isBlankRecord(record)) continue;
    seen += 1;
    if (spec.isHeader(nameSet(record.cells))) {
      header = record;
      break;
    }
  }
  if (!more && scanner.error !== null) {
    out.error(scanner.error.line, scanner.error.message);
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
  const rows = new TableRows(scanner, out, columns, spec, header.cells.length, requiredWidthOf(columns, spec));
  return { header, columns, rows, preamble: head.slice(0, -1) };
}

/** The cells a row needs to reach every required column (the nearest of each list of alternatives). */
function requiredWidthOf(columns: Columns, spec: TableSpec): number {
  return Math.max(
    0,
    ...spec.required.map((entry) => {
      const indexes = (typeof entry === 'string' ? [entry] : entry).map((name) => columns.index(name)).filter((at): at is number => at !== undefined);
      return Math.min(...indexes) + 1;
    }),
  );
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
