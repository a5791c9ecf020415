/**
 * What a thinkorswim statement states about itself (issue 28 item 1, DESIGN §5 "Reconciliation"): its Cash Balance
 * TOTAL, its Profits and Losses OVERALL TOTALS, its Account Summary's commissions and its Equities / Options /
 * Futures Options sections, as FileStatements — each checked against the journal's own figure for it (the
 * ledger's cash, realized P&L and positions), the broker's side read from the file's text here, not by the importer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { thinkorswimImporter } from '../../../../../src-main/importers/thinkorswim/index';
import type { ParseResult } from '../../../../../src-main/importers/types';
import type { FileStatement } from '../../../../../src-shared/journal/statements';
import { BROKER_FIXTURES_SHARED } from '../../../../paths';
import { amountSum, brokerFixture, ledgerFor, minorOf, tableRows } from '../file-totals';

const parse = (input: string): ParseResult => thinkorswimImporter.parse(input, {});

function of(result: ParseResult, what: FileStatement['what']): FileStatement[] {
  return result.statements.filter((statement) => statement.what === what);
}

/** The statement's positions, symbol → signed quantity. */
function statedPositions(result: ParseResult): Record<string, number> {
  return Object.fromEntries(of(result, 'position').map((s) => [s.symbol ?? '', s.quantity ?? NaN]));
}

/** The journal's positions for the same symbols (0 when it holds none). */
function journalPositions(result: ParseResult, symbols: readonly string[]): Record<string, number> {
  const open = new Map(ledgerFor(result).positions.map((p) => [p.symbol, p.quantity]));
  return Object.fromEntries(symbols.map((symbol) => [symbol, open.get(symbol) ?? 0]));
}

/** Realized P&L of every row that closed something, in minor units. */
function realizedMinor(result: ParseResult): number {
  return [...ledgerFor(result).realizedByTx.values()].reduce((sum, pnl) => sum + pnl, 0);
}

/** The cells of the row whose first non-empty cell among the first five is `label` (`TOTAL`, `OVERALL TOTALS`). */
function labelledRow(text: string, header: string, label: string): Record<string, string> {
  return tableRows(text, header).find((row) => Object.values(row).slice(0, 5).includes(label)) ?? {};
}

describe('thinkorswim statements: the short-sale statement (Equities ABC −200, P/L OVERALL TOTALS, TOTAL)', () => {
  const text = brokerFixture('thinkorswim_statement_short_sales_selfwritten.csv');
  const result = parse(text);

  it('states the Cash Balance TOTAL as net cash (AMOUNT less both fee columns), which is the journal’s cash', () => {
    const total = labelledRow(text, 'BALANCE', 'TOTAL');
    const net = minorOf(total.AMOUNT ?? '') - Math.abs(minorOf(total['Misc Fees'] ?? '')) - Math.abs(minorOf(total['Commissions & Fees'] ?? ''));
    expect(net, '10,300.35 − 0.64 = 35,299.71 − 25,000.00').toBe(102_997_100);
    const [cash] = of(result, 'cash_total');
    expect(cash).toMatchObject({ valueMinor: net, line: 13, accountName: '87654321', currency: 'USD', rows: 'all' });
    expect(cash?.asOf, 'the end of 3/31/21, New York (EDT)').toBe('2021-04-01T03:59:59.000Z');
    expect(cash?.from, 'the start of 1/4/21 (EST)').toBe('2021-01-04T05:00:00.000Z');
    expect(amountSum(result)).toBe(net);
  });

  it('states the year’s realized P&L before costs (P/L YTD − P/L Open), which the journal’s realized plus the closed lots’ costs make', () => {
    const overall = labelledRow(text, 'P/L YTD', 'OVERALL TOTALS');
    const stated = minorOf(overall['P/L YTD'] ?? '') - minorOf(overall['P/L Open'] ?? '');
    expect(of(result, 'realized_pl')).toEqual([expect.objectContaining({ valueMinor: stated, grossOfCosts: true, from: '2021-01-01T05:00:00.000Z', rows: 'trades' })]);
    // The costs of the lots closed: XYZ's sale fee 0.23 and ABC's 0.41 prorated to the 100 shares covered (0.1367).
    expect(realizedMinor(result) + 2_300 + 1_367).toBe(stated);
  });

  it('states the commissions of the year (Account Summary) and the positions at the end, which the journal holds', () => {
    expect(of(result, 'commissions').map((s) => s.valueMinor)).toEqual([6_400]);
    expect(statedPositions(result)).toEqual({ ABC: -200, XYZ: 0 });
    expect(journalPositions(result, ['ABC', 'XYZ'])).toEqual(statedPositions(result));
  });
});

describe('thinkorswim: fees with three decimals', () => {
  it('keeps Misc Fees of −0.235 to the minor unit (2,350 of 1/10,000), and the TOTAL row’s cash with them', () => {
    const text = brokerFixture('thinkorswim_statement_short_sales_selfwritten.csv')
      .replace('SOLD -500 XYZ @20.00,-0.23,', 'SOLD -500 XYZ @20.00,-0.235,')
      .replace(',,,,TOTAL,($0.64),', ',,,,TOTAL,($0.645),');
    const result = parse(text);
    const sale = result.transactions.find((row) => row.transaction.symbol === 'XYZ' && row.transaction.type === 'SELL_SHORT')?.transaction;
    expect([sale?.feesMinor, sale?.amountMinor], '10,000.00 − 0.235').toEqual([2_350, 99_997_650]);
    expect(of(result, 'cash_total').map((s) => s.valueMinor), '10,300.35 − 0.645').toEqual([102_997_050]);
    expect(amountSum(result)).toBe(102_997_050);
  });
});

describe('thinkorswim statements: the PFE wheel statement (empty Equities and Options: flat at its end)', () => {
  const text = brokerFixture('thinkorswim_statement_pfe_wheel_selfwritten.csv');
  const result = parse(text);

  it('states every instrument it traded flat, and so is the journal', () => {
    const stated = statedPositions(result);
    expect(stated).toEqual({ PFE: 0, PFE240119P00028000: 0, PFE240216P00028000: 0, PFE240216P00027000: 0, PFE240315C00029000: 0 });
    expect(journalPositions(result, Object.keys(stated))).toEqual(stated);
  });

  it('states its TOTAL (2,374.77 net) and P/L YTD 296.00 before costs, both the journal’s', () => {
    expect(of(result, 'cash_total').map((s) => s.valueMinor)).toEqual([23_747_700]);
    expect(amountSum(result)).toBe(23_747_700);
    const [realized] = of(result, 'realized_pl');
    expect(realized?.valueMinor).toBe(2_960_000);
    // Every lot is closed, so the costs of the closed lots are every trade row's: 6.50 commissions + 0.30 misc fees.
    const costs = result.transactions.reduce((sum, row) => sum + row.transaction.commissionMinor + row.transaction.feesMinor, 0);
    expect(costs).toBe(68_000);
    expect(realizedMinor(result) + costs).toBe(realized?.valueMinor);
  });
});

describe('thinkorswim statements: an older TD Ameritrade statement (no Misc Fees column, no positions sections)', () => {
  const text = brokerFixture('thinkorswim_statement_old_tda_selfwritten.csv');
  const result = parse(text);

  it('states its TOTAL from the columns it has, the journal’s cash; no positions it does not state', () => {
    expect(of(result, 'cash_total').map((s) => s.valueMinor), '410.42 − 22.50').toEqual([3_879_200]);
    expect(amountSum(result)).toBe(3_879_200);
    expect(of(result, 'position')).toEqual([]);
    expect(of(result, 'realized_pl')).toEqual([]);
  });
});

/** A real file of ../shared/fixtures/brokers (required: test/fixtures-present.ts). */
const shared = (name: string): string => readFileSync(join(BROKER_FIXTURES_SHARED, name), 'utf8');

describe('thinkorswim statements: the real paperMoney statement', () => {
  const text = shared('thinkorswim_statement_futures_options_2022_claytonduffin.csv');
  const result = parse(text);

  it('states its TOTAL 305.94 net, the journal’s cash', () => {
    const total = labelledRow(text, 'BALANCE', 'TOTAL');
    const net = minorOf(total.AMOUNT ?? '') - Math.abs(minorOf(total['Misc Fees'] ?? '')) - Math.abs(minorOf(total['Commissions & Fees'] ?? ''));
    expect(of(result, 'cash_total').map((s) => s.valueMinor)).toEqual([net]);
    expect(amountSum(result)).toBe(net);
  });

  it('states the Futures Options position (+2 /Q4CJ22 13070 puts of 27 April 2022), the journal’s', () => {
    const stated = statedPositions(result);
    expect(stated['/Q4CJ22220427P13070000']).toBe(2);
    expect(journalPositions(result, Object.keys(stated))).toEqual(stated);
  });

  it('states the year’s realized P&L, 15.00 more than the statement’s one day: the days before it are not in the file', () => {
    const overall = labelledRow(text, 'P/L YTD', 'OVERALL TOTALS');
    const yearRealized = minorOf(overall['P/L YTD'] ?? '') - minorOf(overall['P/L Open'] ?? '');
    const dayRealized = minorOf(overall['P/L Day'] ?? '') - minorOf(overall['P/L Open'] ?? '');
    expect(of(result, 'realized_pl').map((s) => s.valueMinor)).toEqual([yearRealized]);
    expect(yearRealized - dayRealized).toBe(150_000);
    // The day's realized before costs is the journal's plus the costs of the closed fills (all but the open lot's two buys).
    const total = labelledRow(text, 'BALANCE', 'TOTAL');
    const closedCosts = Math.abs(minorOf(total['Misc Fees'] ?? '')) + Math.abs(minorOf(total['Commissions & Fees'] ?? '')) - 2 * (5_600 + 22_500);
    expect(realizedMinor(result) + closedCosts).toBe(dayRealized);
    expect(of(result, 'commissions').map((s) => s.valueMinor), 'Total Commissions & Fees YTD').toEqual([3_653_000]);
  });
});

describe('thinkorswim statements: the real example re-saved by a spreadsheet', () => {
  const text = shared('thinkorswim_statement_example_tradenote.csv');
  const result = parse(text);

  it('states its TOTAL as written — 2 cents off its own rows (the example was edited) — and AMZN, PYPL flat as the journal', () => {
    expect(of(result, 'cash_total').map((s) => s.valueMinor), '18.05 − 0.51').toEqual([175_400]);
    expect(amountSum(result), 'its rows: 17.52').toBe(175_200);
    expect(statedPositions(result)).toEqual({ AMZN: 0, PYPL: 0 });
    expect(journalPositions(result, ['AMZN', 'PYPL'])).toEqual({ AMZN: 0, PYPL: 0 });
  });
});
