import { ResultCollector, RowIdentity, accountFor } from '../common/result';
import { headerNear, tableReaders } from '../common/table';
import type { BrokerImporter, ParseOptions, ParseResult } from '../types';
import { SOURCE, mapRows } from './mapper';
import type { SchwabRow } from './schema';
import { REQUIRED, isHeader, readRow } from './schema';
import { BROKER_LABELS } from '../../../src-shared/api/constants';

export function parseSchwab(text: string, options: ParseOptions): ParseResult {
  const out = new ResultCollector('schwab', SOURCE, 'newest-first');
  const identity = new RowIdentity();
  const rows: SchwabRow[] = [];
  const readers = tableReaders(out, text, {
    isHeader,
    required: REQUIRED,
    what: 'a Schwab transactions export',
    headerHint: '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"',
  });
  for (const reader of readers) {
    const row = readRow(reader, identity);
    if (row) rows.push(row);
  }
  if (out.errors.length > 0) return out.result();
  const mapped = mapRows(rows, {
    accountName: accountFor(null, options, 'Schwab'),
    warn: (line, message) => out.warn(line, message),
    skip: (problem) => out.skip(problem.line, problem.message),
    merge: (lines, reason) => out.merge(lines, reason),
  });
  for (const parsed of mapped) out.add(parsed.line, parsed.transaction);
  return out.result();
}

export const schwabImporter: BrokerImporter = {
  id: 'schwab',
  label: BROKER_LABELS.schwab,
  formats: 'transactions CSV (title row, "Transactions Total", "as of" dates, options)',
  detect: headerNear(isHeader),
  parse: parseSchwab,
};
