/**
 * RFC 4180 CSV reader that keeps line numbers: each record knows the 1-based line it starts on, so that
 * importer errors can name it. Handles a BOM, CRLF/LF/CR, quoted cells with commas, doubled quotes and
 * line breaks (Robinhood descriptions), and blank lines (returned as records with one empty cell).
 * Cells are cut with slice() rather than built a character at a time: imports read 100k-row files.
 */
export interface CsvRecord {
  /** 1-based line number where the record starts. */
  line: number;
  cells: string[];
}

export interface CsvParseResult {
  records: CsvRecord[];
  /** Set when a quoted cell is never closed: the file is truncated or corrupt. */
  error: { line: number; message: string } | null;
}

import { checkpoint } from '../../checkpoint';

const QUOTE = 34;
const CR = 13;
const LF = 10;

function countLineBreaks(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i += 1) {
    const code = text.charCodeAt(i);
    if (code === LF || (code === CR && text.charCodeAt(i + 1) !== LF)) count += 1;
  }
  return count;
}

/**
 * The records of a CSV text one at a time (records that are not kept die young: no garbage collection of a whole
 * file's cells). The generator's return value is the error that stopped it (a quoted cell never closed), or null.
 */
export function* csvRecords(text: string, delimiter = ','): Generator<CsvRecord, CsvParseResult['error'], undefined> {
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const separator = delimiter.charCodeAt(0);
  const length = input.length;
  let index = 0;
  let line = 1;
  let cells: string[] = [];
  let recordLine = 1;
  while (index < length) {
    // Skip spaces before an opening quote, as the character-wise reader did (` "x"` is the quoted cell x).
    let start = index;
    while (start < length && input.charCodeAt(start) === 32) start += 1;
    let cell: string;
    if (start < length && input.charCodeAt(start) === QUOTE) {
      const openLine = line;
      let value = '';
      let from = start + 1;
      for (;;) {
        const close = input.indexOf('"', from);
        if (close === -1) return { line: openLine, message: 'a quoted cell is never closed (truncated or corrupt file)' };
        value += input.slice(from, close);
        line += countLineBreaks(input, from, close);
        if (input.charCodeAt(close + 1) === QUOTE) {
          value += '"';
          from = close + 2;
          continue;
        }
        index = close + 1;
        break;
      }
      // Characters between the closing quote and the separator are kept, as lenient readers do.
      let end = index;
      while (end < length) {
        const code = input.charCodeAt(end);
        if (code === separator || code === LF || code === CR) break;
        end += 1;
      }
      cell = value + input.slice(index, end);
      index = end;
    } else {
      let end = index;
      while (end < length) {
        const code = input.charCodeAt(end);
        if (code === separator || code === LF || code === CR) break;
        end += 1;
      }
      cell = input.slice(index, end);
      index = end;
    }
    cells.push(cell);
    if (index >= length) break;
    const code = input.charCodeAt(index);
    if (code === separator) {
      index += 1;
      if (index >= length) cells.push('');
      continue;
    }
    checkpoint();
    yield { line: recordLine, cells };
    cells = [];
    index += code === CR && input.charCodeAt(index + 1) === LF ? 2 : 1;
    line += 1;
    recordLine = line;
  }
  if (cells.length > 0) yield { line: recordLine, cells };
  return null;
}

/**
 * Records a whole-file read keeps at most (thinkorswim statements, IBKR flex queries and activity statements, which are
 * read whole for their sections). A record costs about 300 bytes however short its line: 49 MB of `x,y` lines were
 * twelve million records and 3 GB; 300,000 are under 100 MB, and more lines than a real statement holds
 * (docs/importers.md §Bounded).
 */
export const MAX_WHOLE_FILE_RECORDS = 300_000;

/** The whole file's records; past `maxRecords` the read stops with an error at that line (the file is not read on). */
export function parseCsv(text: string, delimiter = ',', maxRecords = Number.POSITIVE_INFINITY): CsvParseResult {
  const records: CsvRecord[] = [];
  const reader = csvRecords(text, delimiter);
  for (let next = reader.next(); ; next = reader.next()) {
    if (next.done === true) return { records, error: next.value };
    if (records.length >= maxRecords) {
      return { records: [], error: { line: next.value.line, message: `more than ${maxRecords.toLocaleString('en-US')} lines: this format is read whole, and no real export has that many; export a shorter period` } };
    }
    // Kept, each record's cells are copied to an array of their own length (a growing array holds room for 17).
    records.push({ line: next.value.line, cells: next.value.cells.slice() });
  }
}

/** True for a record that is empty or holds only empty cells. */
export function isBlankRecord(record: CsvRecord): boolean {
  return record.cells.every((cell) => cell.trim() === '');
}

/** Maps header names (trimmed, case-insensitive) to column indexes. */
export function headerIndex(header: string[]): Map<string, number> {
  const map = new Map<string, number>();
  header.forEach((name, index) => {
    const key = name.trim().toLowerCase();
    if (!map.has(key)) map.set(key, index);
  });
  return map;
}

/**
 * The records of a CSV text read into one reused array of cells (`cells[0..count)`), for a hot loop that looks at each
 * record once and keeps only what it copies out: no array and no record object per record, no generator to resume
 * (issue 32: a 100k-row import spent more in them and in collecting them than in reading the cells). The grammar is
 * csvRecords' exactly (test/unit/main/importers/common/csv-scanner.test.ts compares the two record for record).
 */
export class CsvScanner {
  /** The record's cells; entries from `count` on are left over from longer records before it. */
  readonly cells: string[] = [];
  count = 0;
  /** 1-based line the record starts on. */
  line = 1;
  /** Set when the text ends inside a quoted cell (the record that holds it is not returned). */
  error: CsvParseResult['error'] = null;
  private readonly input: string;
  private readonly separator: number;
  private index = 0;
  /** The line the next record starts on. */
  private nextLine = 1;

  constructor(text: string, delimiter = ',') {
    this.input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    this.separator = delimiter.charCodeAt(0);
  }

  /** Reads the next record into `cells`; false at the end of the text or at an unclosed quote (then `error`). */
  next(): boolean {
    const input = this.input;
    const length = input.length;
    const separator = this.separator;
    const cells = this.cells;
    let index = this.index;
    if (index >= length || this.error !== null) return false;
    let line = this.nextLine;
    let count = 0;
    for (;;) {
      // Spaces before an opening quote are skipped (` "x"` is the quoted cell x), as csvRecords does.
      let start = index;
      while (start < length && input.charCodeAt(start) === 32) start += 1;
      let cell: string;
      if (start < length && input.charCodeAt(start) === QUOTE) {
        const openLine = line;
        let value = '';
        let from = start + 1;
        for (;;) {
          const close = input.indexOf('"', from);
          if (close === -1) {
            this.error = { line: openLine, message: 'a quoted cell is never closed (truncated or corrupt file)' };
            this.index = length;
            this.count = 0;
            return false;
          }
          value += input.slice(from, close);
          line += countLineBreaks(input, from, close);
          if (input.charCodeAt(close + 1) === QUOTE) {
            value += '"';
            from = close + 2;
            continue;
          }
          index = close + 1;
          break;
        }
        let end = index;
        while (end < length) {
          const code = input.charCodeAt(end);
          if (code === separator || code === LF || code === CR) break;
          end += 1;
        }
        cell = end === index ? value : value + input.slice(index, end);
        index = end;
      } else {
        let end = index;
        while (end < length) {
          const code = input.charCodeAt(end);
          if (code === separator || code === LF || code === CR) break;
          end += 1;
        }
        cell = input.slice(index, end);
        index = end;
      }
      cells[count] = cell;
      count += 1;
      if (index >= length) break;
      const code = input.charCodeAt(index);
      if (code === separator) {
        index += 1;
        if (index >= length) {
          cells[count] = '';
          count += 1;
          break;
        }
        continue;
      }
      index += code === CR && input.charCodeAt(index + 1) === LF ? 2 : 1;
      line += 1;
      break;
    }
    checkpoint();
    this.line = this.nextLine;
    this.nextLine = line;
    this.index = index;
    this.count = count;
    return true;
  }
}
