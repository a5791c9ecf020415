import { headerIndex, isBlankRecord, parseCsv } from '../common/csv';
import { RowIdentity, emptyResult, firstLines, missingColumns } from '../common/rows';
import type { BrokerImporter, ParseOptions, ParseResult } from '../types';
import { SOURCE, mapRows } from './mapper';
import type { TastyRow } from './schema';
import { CURRENT_REQUIRED, LEGACY_REQUIRED, layoutOf, readCurrentRow, readLegacyRow } from './schema';

export function parseTastytrade(text: string, options: ParseOptions): ParseResult {
  const result = emptyResult('tastytrade', SOURCE);
  const csv = parseCsv(text);
  if (csv.error) {
    result.errors.push(csv.error);
    return result;
  }
  const headerAt = csv.records.findIndex((record) => !isBlankRecord(record));
  const header = csv.records[headerAt];
  const layout = header ? layoutOf(header.cells) : null;
  if (!header || layout === null) {
    result.errors.push({ line: header?.line ?? 1, message: 'not a tastytrade transactions export: the header does not start with "Date,Type,Sub Type" or "Date/Time,Transaction Code"' });
    return result;
  }
  const columns = headerIndex(header.cells);
  const missing = missingColumns(columns, layout === 'current' ? CURRENT_REQUIRED : LEGACY_REQUIRED);
  if (missing.length > 0) {
    result.errors.push({ line: header.line, message: `missing columns: ${missing.join(', ')}` });
    return result;
  }
  const hasTotal = columns.has('total');
  const identity = new RowIdentity();
  const rows: TastyRow[] = [];
  for (const record of csv.records.slice(headerAt + 1)) {
    if (isBlankRecord(record)) continue;
    result.rows += 1;
    if (record.cells.length !== header.cells.length) {
      result.errors.push({ line: record.line, message: `expected ${header.cells.length} cells, found ${record.cells.length}` });
      continue;
    }
    const row =
      layout === 'current'
        ? readCurrentRow(record, columns, result.errors, identity, hasTotal)
        : readLegacyRow(record, columns, result.errors, identity);
    if (row) rows.push(row);
  }
  if (result.errors.length > 0) return result;
  result.transactions = mapRows(rows, {
    accountName: options.accountName ?? 'tastytrade',
    warn: (line, message) => result.warnings.push({ line, message }),
  });
  return result;
}

export const tastytradeImporter: BrokerImporter = {
  id: 'tastytrade',
  label: 'tastytrade',
  detect(text: string): boolean {
    const [first] = firstLines(text, 1);
    if (first === undefined) return false;
    const cells = first.split(',').map((cell) => cell.replace(/^"|"$/g, ''));
    return layoutOf(cells) !== null;
  },
  parse: parseTastytrade,
};
