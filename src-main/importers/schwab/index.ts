import { parseMoney } from '../common/cells';
import { ResultCollector, RowIdentity, accountFor } from '../common/result';
import { latestTradeDate, moneyStatement } from '../common/statements';
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
  let total: { line: number; cell: string } | null = null;
  const readers = tableReaders(out, text, {
    isHeader,
    required: REQUIRED,
    what: 'a Schwab transactions export',
    headerHint: '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"',
    onTotals: (record, columns) => {
      total = { line: record.line, cell: record.cells[columns.index('Amount') ?? -1] ?? '' };
    },
  });
  for (const reader of readers) {
    const row = readRow(reader, identity);
    if (row) rows.push(row);
  }
  if (out.errors.length > 0) return out.result();
  const accountName = accountFor(null, options, 'Schwab');
  const mapped = mapRows(rows, {
    accountName,
    warn: (line, message) => out.warn(line, message),
    skip: (problem) => out.skip(problem.line, problem.message),
    merge: (lines, reason) => out.merge(lines, reason),
  });
  for (const parsed of mapped) out.add(parsed.line, parsed.transaction);
  if (total !== null) stateTotal(out, total, accountName);
  return out.result();
}

/**
 * The trailing `"Transactions Total",...,"-$26,582.91"`: the net cash of every row listed (docs/importers.md
 * §Reconciliation), at the file's latest row.
 */
function stateTotal(out: ResultCollector, total: { line: number; cell: string }, accountName: string): void {
  const value = parseMoney(total.cell);
  const asOf = latestTradeDate(out.transactions);
  if (!value.ok || value.value === null) {
    out.warn(total.line, `"Transactions Total" is not an amount ("${total.cell}"): the file's total is not checked`);
    return;
  }
  if (asOf === null) return;
  out.state(moneyStatement({ what: 'cash_total', label: 'Transactions Total', line: total.line, asOf, currency: 'USD', accountName, valueMinor: value.value }));
}

export const schwabImporter: BrokerImporter = {
  id: 'schwab',
  label: BROKER_LABELS.schwab,
  formats: 'transactions CSV (title row, "Transactions Total", "as of" dates, options)',
  detect: headerNear(isHeader),
  parse: parseSchwab,
};
