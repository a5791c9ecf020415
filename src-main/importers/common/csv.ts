/**
 * RFC 4180 CSV reader that keeps line numbers: each record knows the 1-based line it starts on, so that
 * importer errors can name it. Handles a BOM, CRLF/LF/CR, quoted cells with commas, doubled quotes and
 * line breaks (Robinhood descriptions), and blank lines (returned as records with one empty cell).
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

export function parseCsv(text: string, delimiter = ','): CsvParseResult {
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let recordLine = 1;
  let inQuotes = false;
  let quoteStartLine = 0;
  let index = 0;
  const length = input.length;
  while (index < length) {
    const char = input[index];
    if (inQuotes) {
      if (char === '"') {
        if (input[index + 1] === '"') {
          cell += '"';
          index += 2;
          continue;
        }
        inQuotes = false;
        index += 1;
        continue;
      }
      if (char === '\n' || (char === '\r' && input[index + 1] !== '\n')) line += 1;
      cell += char;
      index += 1;
      continue;
    }
    if (char === '"' && cell.trim() === '') {
      inQuotes = true;
      quoteStartLine = line;
      cell = '';
      index += 1;
      continue;
    }
    if (char === delimiter) {
      cells.push(cell);
      cell = '';
      index += 1;
      continue;
    }
    if (char === '\r' || char === '\n') {
      cells.push(cell);
      records.push({ line: recordLine, cells });
      cells = [];
      cell = '';
      index += char === '\r' && input[index + 1] === '\n' ? 2 : 1;
      line += 1;
      recordLine = line;
      continue;
    }
    cell += char;
    index += 1;
  }
  if (inQuotes) {
    return { records, error: { line: quoteStartLine, message: 'a quoted cell is never closed (truncated or corrupt file)' } };
  }
  if (cell !== '' || cells.length > 0) {
    cells.push(cell);
    records.push({ line: recordLine, cells });
  }
  return { records, error: null };
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
