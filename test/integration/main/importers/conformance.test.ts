/**
 * Conformance: every importer of the registry reads its format the same way whatever the file's cosmetics —
 * a BOM, CRLF line ends, blank and all-empty rows, title, disclaimer and totals rows, columns in another order
 * (where the format is read by name) — and one bad cell is exactly one error, at its line, naming its column.
 * The transformations work on parsed records and write them back as RFC 4180 CSV, so multi-line cells survive.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv, type CsvRecord } from '../../../../src-main/importers/common/csv';
import { parseImport } from '../../../../src-main/importers/index';
import { IMPORTERS } from '../../../../src-main/importers/registry';
import type { BrokerImporter, ImporterId, ParseResult } from '../../../../src-main/importers/types';
import { customImporter } from '../../../../src-main/importers/custom/index';
import { REPO_ROOT } from '../../../paths';
import { genericColumnsMapping } from '../../../generic-mapping';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'brokers');
const AS_OF = new Date('2026-03-09T00:00:00Z');

interface Sample {
  importer: ImporterId;
  file: string;
  /** Read by column name (so a shuffled file must read the same): false for the sectioned statements. */
  byName: boolean;
  /** A header record of the file (a file may have several: one per section). */
  isHeader(cells: readonly string[]): boolean;
  /** The data row to break and the column whose cell becomes garbage. */
  bad: { row(cells: readonly string[]): boolean; column: string };
  /** User-defined formats the file is read with (docs/importers.md, "User-defined formats"). */
  extra?: readonly BrokerImporter[];
}

/** The generic fixture's columns as a user would map them: a saved format goes through the same pipeline. */
const MAPPED_GENERIC = customImporter({
  id: 'conf',
  name: 'Generic, mapped by hand',
  header: 'date,account,type,symbol,quantity,price,commission,fees,amount,currency,orderId,description,expiration,strike,right,multiplier,id'.split(','),
  mapping: genericColumnsMapping('new-york', true),
});

const has = (name: string) => (cells: readonly string[]): boolean => cells.some((cell) => cell.trim() === name);

const SAMPLES: Sample[] = [
  { importer: 'tastytrade', file: 'tastytrade_v2_21col_PFE_binnaculum.csv', byName: true, isHeader: has('Sub Type'), bad: { row: has('Trade'), column: 'Value' } },
  { importer: 'tastytrade', file: 'tastytrade_tastyworks_2021_layout_selfwritten.csv', byName: true, isHeader: has('Instrument Type'), bad: { row: has('Trade'), column: 'Value' } },
  { importer: 'tastytrade', file: 'tastytrade_futures_mark_to_market_selfwritten.csv', byName: true, isHeader: has('Sub Type'), bad: { row: has('Trade'), column: 'Total' } },
  { importer: 'tastytrade', file: 'tastytrade_legacy_tastyworks_selfwritten.csv', byName: true, isHeader: has('Transaction Code'), bad: { row: has('Trade'), column: 'Amount' } },
  { importer: 'schwab', file: 'schwab_transactions_pfe_wheel_selfwritten.csv', byName: true, isHeader: has('Fees & Comm'), bad: { row: has('Sell to Open'), column: 'Amount' } },
  { importer: 'thinkorswim', file: 'thinkorswim_statement_pfe_wheel_selfwritten.csv', byName: false, isHeader: has('REF #'), bad: { row: has('TRD'), column: 'AMOUNT' } },
  { importer: 'thinkorswim', file: 'thinkorswim_statement_old_tda_selfwritten.csv', byName: false, isHeader: has('Commissions & Fees'), bad: { row: has('TRD'), column: 'AMOUNT' } },
  { importer: 'thinkorswim', file: 'thinkorswim_statement_old_tda_options_selfwritten.csv', byName: false, isHeader: has('Commissions & Fees'), bad: { row: has('TRD'), column: 'AMOUNT' } },
  { importer: 'thinkorswim', file: 'tdameritrade_transactions_selfwritten.csv', byName: true, isHeader: has('TRANSACTION ID'), bad: { row: (cells) => cells.some((cell) => cell.startsWith('Sold 1 SPY')), column: 'AMOUNT' } },
  { importer: 'ibkr', file: 'ibkr_activity_statement_selfwritten.csv', byName: false, isHeader: has('Header'), bad: { row: (cells) => cells[0] === 'Trades' && cells[1] === 'Data' && cells[2] === 'Order', column: 'Proceeds' } },
  { importer: 'ibkr', file: 'ibkr_flex_query_selfwritten.csv', byName: true, isHeader: has('ClientAccountID'), bad: { row: has('OPT'), column: 'TradePrice' } },
  { importer: 'ibkr', file: 'ibkr_trade_confirmation_flex_selfwritten.csv', byName: true, isHeader: has('ClientAccountID'), bad: { row: has('ExchTrade'), column: 'Price' } },
  { importer: 'fidelity', file: 'fidelity_accounts_history_selfwritten.csv', byName: true, isHeader: has('Run Date'), bad: { row: (cells) => /OPENING/.test(cells.join()), column: 'Amount ($)' } },
  { importer: 'fidelity', file: 'fidelity_all_accounts_options_selfwritten.csv', byName: true, isHeader: has('Run Date'), bad: { row: (cells) => /OPENING/.test(cells.join()), column: 'Amount' } },
  { importer: 'robinhood', file: 'robinhood_activity_small_optionstradingtracker.csv', byName: true, isHeader: has('Trans Code'), bad: { row: has('STO'), column: 'Amount' } },
  { importer: 'etrade', file: 'etrade_transactions_selfwritten.csv', byName: true, isHeader: has('TransactionDate'), bad: { row: has('Sold'), column: 'Amount' } },
  { importer: 'etrade', file: 'etrade_all_transactions_selfwritten.csv', byName: true, isHeader: has('Activity Type'), bad: { row: has('Sold Short'), column: 'Amount $' } },
  { importer: 'webull', file: 'webull_orders_selfwritten.csv', byName: true, isHeader: has('Avg Price'), bad: { row: has('Filled'), column: 'Avg Price' } },
  { importer: 'generic', file: 'generic_wheel_selfwritten.csv', byName: true, isHeader: has('orderId'), bad: { row: has('SELL_TO_OPEN'), column: 'amount' } },
  { importer: 'custom:conf', file: 'generic_wheel_selfwritten.csv', byName: true, isHeader: has('orderId'), bad: { row: has('SELL_TO_OPEN'), column: 'amount' }, extra: [MAPPED_GENERIC] },
];

/** Records back to CSV text, quoting where RFC 4180 needs it. */
function serialize(records: readonly string[][], eol = '\n'): string {
  const cell = (text: string): string => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  return records.map((cells) => cells.map(cell).join(',')).join(eol) + eol;
}

function recordsOf(text: string): CsvRecord[] {
  return parseCsv(text).records;
}

const TRANSFORMS: Array<{ name: string; byNameOnly?: boolean; apply(records: string[][], sample: Sample): string }> = [
  { name: 'as written back (RFC 4180)', apply: (records) => serialize(records) },
  { name: 'with a BOM', apply: (records) => `\uFEFF${serialize(records)}` },
  { name: 'with CRLF line ends', apply: (records) => serialize(records, '\r\n') },
  {
    name: 'with blank and all-empty rows between the rows',
    // After each row: an empty line, a row of commas, or a row of empty quoted cells ("","",...).
    apply: (records) => records.map((cells, index) => serialize([cells]) + ['\n', `${cells.map(() => '').join(',')}\n`, `${cells.map(() => '""').join(',')}\n`][index % 3]).join(''),
  },
  {
    name: 'with a title above, and a disclaimer and a totals row below',
    apply: (records) => serialize([['Transaction history exported on 03/01/2024 for all accounts'], ...records, [], ['Transactions Total', '', '', '1.00'], ['The data provided is for informational purposes only.']]),
  },
  {
    name: 'with its columns in another order',
    byNameOnly: true,
    apply: (records, sample) => {
      let order: number[] | null = null;
      let width = -1;
      return serialize(
        records.map((cells) => {
          if (sample.isHeader(cells)) {
            width = cells.length;
            order = cells.map((_, index) => index).reverse();
          }
          return order !== null && cells.length === width ? order.map((index) => cells[index] ?? '') : cells;
        }),
      );
    },
  },
];

/** What must not change: every field of every transaction, in order (not the line). */
function content(result: ParseResult): unknown[] {
  return result.transactions.map((row) => row.transaction);
}

function parse(text: string, extra: readonly BrokerImporter[] = []): ParseResult {
  const outcome = parseImport(text, 'auto', { asOf: AS_OF }, extra);
  if (!outcome.ok) throw new Error(outcome.detail);
  return outcome.result;
}

describe('conformance: every importer, every file cosmetic', () => {
  it('covers every importer of the registry', () => {
    expect(new Set(SAMPLES.map((sample) => sample.importer).filter((id) => !id.startsWith('custom:')))).toEqual(new Set(IMPORTERS.map((importer) => importer.id)));
  });

  for (const sample of SAMPLES) {
    describe(`${sample.importer}: ${sample.file}`, () => {
      const text = readFileSync(join(FIXTURES, sample.file), 'utf8');
      const original = parse(text, sample.extra);
      const records = recordsOf(text).map((record) => record.cells);

      it('reads the fixture without errors, auto-detected', () => {
        expect(original.errors).toEqual([]);
        expect(original.broker).toBe(sample.importer);
        expect(original.transactions.length).toBeGreaterThan(0);
      });

      for (const transform of TRANSFORMS) {
        if (transform.byNameOnly && !sample.byName) continue;
        it(`reads the same transactions ${transform.name}`, () => {
          const result = parse(transform.apply(records, sample), sample.extra);
          expect(result.errors).toEqual([]);
          expect(result.broker).toBe(sample.importer);
          expect(content(result)).toEqual(content(original));
          expect([result.rows, result.skipped.length]).toEqual([original.rows, original.skipped.length]);
        });
      }

      it('reports one bad cell as exactly one error, at its line, naming its column', () => {
        const header = records.find((cells) => sample.isHeader(cells) && cells.some((cell) => cell.trim() === sample.bad.column)) ?? [];
        const column = header.findIndex((cell) => cell.trim() === sample.bad.column);
        const at = records.findIndex((cells) => cells !== header && cells.length >= header.length && sample.bad.row(cells));
        expect([column >= 0, at >= 0], 'the sample names a column and a row').toEqual([true, true]);
        const broken = records.map((cells, index) => (index === at ? cells.map((cell, i) => (i === column ? '12x.5' : cell)) : cells));
        const brokenText = serialize(broken);
        const line = recordsOf(brokenText)[at]?.line;
        const outcome = parseImport(brokenText, 'auto', { asOf: AS_OF }, sample.extra);
        const errors = outcome.ok ? outcome.result.errors : [{ line: 0, message: outcome.detail }];
        expect(errors).toEqual([{ line, message: `column "${sample.bad.column}": not a number: "12x.5"` }]);
      });
    });
  }
});
