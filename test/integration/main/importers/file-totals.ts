/**
 * Figures read straight from a broker file, without the importers: the independent side of the real-file
 * checks. Money is parsed by string arithmetic here (not src-shared/money), so an importer bug cannot cancel
 * itself out.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsv } from '../../../../src-main/importers/common/csv';
import { expect } from 'vitest';
import { fileHead } from '../../../../src-main/importers/common/table';
import type { BrokerImporter, ParseResult } from '../../../../src-main/importers/types';
import type { ImportedTransaction } from '../../../../src-shared/journal/model';
import { REPO_ROOT } from '../../../paths';
import type { Ledger } from '../../../../src-shared/journal/index';
import { allTime, ledgerOf, stored } from '../../../journal-helpers';

/** A self-written or MIT/Apache fixture of test/fixtures/brokers, as text. */
export function brokerFixture(name: string): string {
  return readFileSync(join(REPO_ROOT, 'test/fixtures/brokers', name), 'utf8');
}

/** The 1-based line of the file's first line that contains `fragment` (0 when none does). */
export function lineOf(text: string, fragment: string): number {
  return text.split(/\r?\n/).findIndex((line) => line.includes(fragment)) + 1;
}

/** The transaction parsed from the line of `text` that contains `fragment`. */
export function rowAt(result: ParseResult, text: string, fragment: string): ImportedTransaction {
  return rowAtLine(result, lineOf(text, fragment));
}

/** The transaction parsed from a line of the file. */
export function rowAtLine(result: ParseResult, line: number): ImportedTransaction {
  const row = result.transactions.find((candidate) => candidate.line === line);
  if (!row) throw new Error(`no transaction at line ${line}`);
  return row.transaction;
}

/** The sum of the cash amounts of a parse, in minor units. */
export function sumAmounts(result: ParseResult): number {
  return result.transactions.reduce((sum, row) => sum + row.transaction.amountMinor, 0);
}

/** The broker row ids of a parse, in order (they must survive a re-parse and be unique). */
export function rowIds(result: ParseResult): string[] {
  return result.transactions.map((row) => row.transaction.brokerRowId);
}

/** Ids are unique within the file and the same on a second parse of the same text. */
export function expectStableIds(result: ParseResult, again: ParseResult): void {
  const ids = rowIds(result);
  expect(new Set(ids).size, 'every row has its own id').toBe(ids.length);
  expect(rowIds(again), 'a re-parse gives the same ids').toEqual(ids);
}

/** The file is refused for one error, at `line`, naming `column`; nothing of it is kept. */
export function expectRefusedAt(result: ParseResult, line: number, column: string): void {
  expect(result.errors.map((error) => error.line), 'one error, at its line').toEqual([line]);
  expect(result.errors[0]?.message).toContain(column);
  expect(result.transactions, 'a refused file keeps no row').toEqual([]);
}

/** The importer recognises the file by its head and reads every row without an error. */
export function expectDetectedClean(importer: BrokerImporter, text: string, result: ParseResult): void {
  expect(importer.detect(fileHead(text)), `${importer.id} recognises the file`).toBe(true);
  expect(result.errors).toEqual([]);
}

/** `"$12,374.77"`, `-$3.5`, `($70.56)`, `2.6E-4`, `0.1419999999999999` to minor units (1/10,000, the 5th decimal rounded). */
export function minorOf(cell: string): number {
  let clean = cell.replace(/["$,\s]/g, '');
  if (/^-*$/.test(clean)) return 0;
  let negative = false;
  if (clean.startsWith('(') && clean.endsWith(')')) {
    negative = true;
    clean = clean.slice(1, -1);
  }
  if (/e/i.test(clean)) return Math.round(Number(clean) * 10_000);
  if (clean.startsWith('-')) negative = !negative;
  const [whole = '0', fraction = ''] = clean.replace(/^[-+]/, '').split('.');
  const digits = fraction.padEnd(5, '0');
  const minor = Number(whole || '0') * 10_000 + Number(digits.slice(0, 4)) + (Number(digits[4]) >= 5 ? 1 : 0);
  return negative ? -minor : minor;
}

/** The rows under the first header that has `column`, as name → cell maps (blank rows dropped). */
export function tableRows(text: string, column: string): Array<Record<string, string>> {
  const records = parseCsv(text).records;
  const at = records.findIndex((record) => record.cells.some((cell) => cell.trim() === column));
  const header = records[at]?.cells.map((cell) => cell.trim()) ?? [];
  return records
    .slice(at + 1)
    .filter((record) => record.cells.some((cell) => cell.trim() !== ''))
    .map((record) => Object.fromEntries(header.map((name, index) => [name, (record.cells[index] ?? '').trim()])));
}

/** Σ of a column over the rows `keep` accepts. */
export function columnSum(text: string, column: string, keep: (row: Record<string, string>) => boolean = () => true): number {
  return tableRows(text, column)
    .filter(keep)
    .reduce((sum, row) => sum + minorOf(row[column] ?? ''), 0);
}

/** Σ amountMinor of the parsed transactions `keep` accepts. */
export function amountSum(result: ParseResult, keep: (tx: ParseResult['transactions'][number]['transaction']) => boolean = () => true): number {
  return result.transactions.map((row) => row.transaction).filter(keep).reduce((sum, tx) => sum + tx.amountMinor, 0);
}

/** The parsed transactions through the real ledger, as the store would hand them over. */
export function ledgerFor(result: ParseResult, keep: (tx: ParseResult['transactions'][number]['transaction']) => boolean = () => true, currency = 'USD'): Ledger {
  return ledgerOf(stored(result.transactions.map((row) => row.transaction).filter(keep)), currency);
}

/** All-time figures of a ledger in its reporting currency, in minor units. */
export function figures(ledger: Ledger): { optionsPL: number; stockPL: number; dividends: number } {
  const { summary } = allTime(ledger);
  const minor = (units: number): number => Math.round(units * 10_000);
  return { optionsPL: minor(summary.optionsPL), stockPL: minor(summary.stockPL), dividends: minor(summary.dividends) };
}

/**
 * An IBKR Activity Statement's own per-currency totals of its Trades section (Proceeds + Comm/Fee), keyed
 * `Stocks|CAD`, `Equity and Index Options|USD`, ...: the first Total row after data rows of that currency (the
 * next one is IBKR's conversion into the base currency). Also how many rows each total covers.
 */
export function ibkrTradeTotals(text: string): { totals: Map<string, number>; rows: Map<string, number> } {
  const totals = new Map<string, number>();
  const rows = new Map<string, number>();
  let lastCurrency = '';
  let consumed = false;
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const cells = line.split(',');
    if (cells[0] !== 'Trades') continue;
    const category = cells[3] ?? '';
    if (category === 'Forex') continue;
    if (cells[1] === 'Data' && (cells[2] === 'Order' || cells[2] === 'Trade')) {
      lastCurrency = cells[4] ?? '';
      consumed = false;
      rows.set(`${category}|${lastCurrency}`, (rows.get(`${category}|${lastCurrency}`) ?? 0) + 1);
    }
    if (cells[1] === 'Total' && cells[4] === lastCurrency && !consumed) {
      consumed = true;
      totals.set(`${category}|${lastCurrency}`, minorOf(cells[9] ?? '') + minorOf(cells[10] ?? ''));
    }
  }
  return { totals, rows };
}
