import { RowReader } from '../common/cells';
import { ResultCollector, RowIdentity, accountFor } from '../common/result';
import { nameSet, readTable } from '../common/table';
import type { BrokerImporter, ParseOptions, ParseResult } from '../types';
import { SOURCE, mapRows } from './mapper';
import type { SchwabRow } from './schema';
import { REQUIRED, isHeader, readRow } from './schema';

export function parseSchwab(text: string, options: ParseOptions): ParseResult {
  const out = new ResultCollector('schwab', SOURCE);
  const table = readTable(out, text, {
    isHeader,
    required: REQUIRED,
    what: 'a Schwab transactions export',
    headerHint: '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"',
  });
  if (table === null) return out.result();
  const identity = new RowIdentity();
  const rows: SchwabRow[] = [];
  for (const record of table.rows) {
    const row = readRow(new RowReader(record, table.columns, out), identity);
    if (row) rows.push(row);
  }
  if (out.errors.length > 0) return out.result();
  const mapped = mapRows(rows, {
    accountName: accountFor(null, options, 'Schwab'),
    warn: (line, message) => out.warn(line, message),
    skip: (problem) => out.skip(problem.line, problem.message),
  });
  for (const parsed of mapped) out.add(parsed.line, parsed.transaction);
  return out.result();
}

export const schwabImporter: BrokerImporter = {
  id: 'schwab',
  label: 'Charles Schwab',
  formats: 'transactions CSV (title row, "Transactions Total", "as of" dates, options)',
  detect: (head) => head.records.slice(0, 5).some((record) => isHeader(nameSet(record.cells))),
  parse: parseSchwab,
};
