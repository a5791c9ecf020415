import { NEW_YORK } from '../common/dates';
import { parseCsv } from '../common/csv';
import { RowIdentity, emptyResult, firstLines, missingColumns } from '../common/rows';
import type { BrokerImporter, ParseOptions, ParseResult } from '../types';
import type { CashRow, Context } from './mapper';
import { SOURCE, mapStatement, readCashRow, readOrders } from './mapper';
import { CASH_REQUIRED, TRADES_REQUIRED, accountOf, findSection, zoneOf } from './schema';

export function parseThinkorswim(text: string, options: ParseOptions): ParseResult {
  const result = emptyResult('thinkorswim', SOURCE);
  const csv = parseCsv(text);
  if (csv.error) {
    result.errors.push(csv.error);
    return result;
  }
  const cash = findSection(csv.records, 'Cash Balance');
  const trades = findSection(csv.records, 'Account Trade History');
  if (cash === null && trades === null) {
    result.errors.push({ line: 1, message: 'not a thinkorswim account statement: no "Cash Balance" or "Account Trade History" section' });
    return result;
  }
  for (const [section, required] of [
    [cash, CASH_REQUIRED],
    [trades, TRADES_REQUIRED],
  ] as const) {
    if (section === null) continue;
    const missing = section.header ? missingColumns(section.columns, required) : [...required];
    if (missing.length > 0) {
      result.errors.push({ line: section.header?.line ?? section.titleLine, message: `${section.title}: missing columns: ${missing.join(', ')}` });
    }
  }
  if (result.errors.length > 0) return result;

  const balanceLines = (cash?.rows ?? [])
    .filter((record) => (record.cells[cash?.columns.get('type') ?? 2] ?? '').trim().toUpperCase() === 'BAL')
    .map((record) => record.cells.join(' '));
  const zone = zoneOf(balanceLines);
  if (zone === null) result.warnings.push({ line: null, message: 'the statement names no time zone: times read as New York time' });
  const ctx: Context = {
    accountName: accountOf(csv.records) ?? options.accountName ?? 'thinkorswim',
    zone: zone ?? NEW_YORK,
    identity: new RowIdentity(),
    errors: result.errors,
    warn: (line, message) => result.warnings.push({ line, message }),
  };

  const cashRows: CashRow[] = [];
  const typeIndex = cash?.columns.get('type');
  for (const record of cash?.rows ?? []) {
    const first = (record.cells[0] ?? '').trim().toUpperCase();
    const type = typeIndex === undefined ? '' : (record.cells[typeIndex] ?? '').trim().toUpperCase();
    // Opening balances and the TOTAL line are not transactions.
    if (first === 'TOTAL' || type === 'BAL') continue;
    result.rows += 1;
    const row = readCashRow(record, cash?.columns ?? new Map(), ctx);
    if (row) cashRows.push(row);
  }
  result.rows += trades?.rows.length ?? 0;
  const orders = trades ? readOrders(trades.rows, trades.columns, ctx) : [];
  if (result.errors.length > 0) return result;
  result.transactions = mapStatement(orders, cashRows, ctx);
  return result;
}

export const thinkorswimImporter: BrokerImporter = {
  id: 'thinkorswim',
  label: 'thinkorswim (account statement)',
  detect(text: string): boolean {
    const top = firstLines(text, 3).join('\n');
    if (/Account Statement for/i.test(top)) return true;
    return /^\s*(Cash Balance|Account Trade History)\s*$/m.test(text.slice(0, 4000));
  },
  parse: parseThinkorswim,
};
