import { headerIndex, isBlankRecord, parseCsv } from '../common/csv';
import { RowIdentity, emptyResult, firstLines, missingColumns } from '../common/rows';
import type { BrokerImporter, ParseOptions, ParseResult } from '../types';
import { SOURCE, mapRows } from './mapper';
import type { SchwabRow } from './schema';
import { REQUIRED, isHeader, readRow } from './schema';

/** The header may follow a title row; look at the first few records only. */
const HEADER_SEARCH = 5;

export function parseSchwab(text: string, options: ParseOptions): ParseResult {
  const result = emptyResult('schwab', SOURCE);
  const csv = parseCsv(text);
  if (csv.error) {
    result.errors.push(csv.error);
    return result;
  }
  const headerAt = csv.records.slice(0, HEADER_SEARCH).findIndex((record) => isHeader(record.cells));
  const header = csv.records[headerAt];
  if (headerAt < 0 || !header) {
    result.errors.push({ line: 1, message: 'not a Schwab transactions export: no "Date","Action",...,"Fees & Comm","Amount" header in the first lines' });
    return result;
  }
  const columns = headerIndex(header.cells);
  const missing = missingColumns(columns, REQUIRED);
  if (missing.length > 0) {
    result.errors.push({ line: header.line, message: `missing columns: ${missing.join(', ')}` });
    return result;
  }
  const identity = new RowIdentity();
  const rows: SchwabRow[] = [];
  for (const record of csv.records.slice(headerAt + 1)) {
    if (isBlankRecord(record)) continue;
    if (/^transactions\s+total$/i.test((record.cells[0] ?? '').trim())) continue;
    result.rows += 1;
    const row = readRow(record, columns, result.errors, identity);
    if (row) rows.push(row);
  }
  if (result.errors.length > 0) return result;
  result.transactions = mapRows(rows, {
    accountName: options.accountName ?? 'Schwab',
    warn: (line, message) => result.warnings.push({ line, message }),
    skip: (problem) => result.skipped.push(problem),
  });
  return result;
}

export const schwabImporter: BrokerImporter = {
  id: 'schwab',
  label: 'Charles Schwab',
  detect(text: string): boolean {
    return firstLines(text, 3).some((line) => {
      const cells = line.split(',').map((cell) => cell.trim().replace(/^"|"$/g, ''));
      return isHeader(cells);
    });
  },
  parse: parseSchwab,
};
