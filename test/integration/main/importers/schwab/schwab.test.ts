import { describe, expect, it } from 'vitest';
import { fileHead } from '../../../../../src-main/importers/common/table';
import { parseCsv } from '../../../../../src-main/importers/common/csv';
import { schwabImporter } from '../../../../../src-main/importers/schwab/index';
import { tastytradeImporter } from '../../../../../src-main/importers/tastytrade/index';
import type { ParseResult } from '../../../../../src-main/importers/types';
import { brokerFixture, minorOf, rowAtLine, sumAmounts, expectDetectedClean, expectRefusedAt } from '../file-totals';

const load = brokerFixture;
const parse = (text: string, accountName?: string): ParseResult => schwabImporter.parse(text, accountName ? { accountName } : {});


/** Σ of the Amount column over data rows (not the header, title or Transactions Total rows). */
function rawAmountSum(text: string): number {
  return parseCsv(text)
    .records.filter((r) => r.cells.length >= 8 && r.cells[0] !== 'Date' && r.cells[0] !== 'Transactions Total')
    .reduce((s, r) => s + minorOf(r.cells[7] ?? ''), 0);
}

const at = rowAtLine;


describe('Schwab importer: stock-only export (capital-gains-calculator)', () => {
  const text = load('schwab_transactions_stock_kapji.csv');
  const result = parse(text);

  it('parses 7 rows: one transfer, three buys, three sells', () => {
    expectDetectedClean(schwabImporter, text, result);
    expect(result.transactions.map((r) => r.transaction.type)).toEqual(['DEPOSIT', 'BUY', 'SELL', 'BUY', 'SELL', 'BUY', 'SELL']);
  });

  it('pins line 3 (Buy 300 BAR @ $135.0075, $1.34, -$40503.61)', () => {
    const tx = at(result, 3);
    expect(tx.symbol).toBe('BAR');
    expect(tx.quantity).toBe(300);
    expect(tx.priceMinor, 'four decimals kept').toBe(1_350_075);
    expect(tx.commissionMinor, 'Fees & Comm').toBe(13_400);
    expect(tx.amountMinor).toBe(-405_036_100);
    expect(tx.tradeDate, 'a bare date is 16:00 New York (EDT) = 20:00 UTC').toBe('2023-10-09T20:00:00.000Z');
    expect(tx.accountName, 'no account in the file').toBe('Schwab');
  });

  it('ends with the cash balance capital-gains-calculator expects (1019826.86 USD)', () => {
    expect(sumAmounts(result), 'EXPECTED.txt: Final balance Charles Schwab: 1019826.86 (USD)').toBe(10_198_268_600);
  });

  it('uses the account name given for files that carry none', () => {
    expect(parse(text, 'Roth IRA').transactions[0]?.transaction.accountName).toBe('Roth IRA');
  });
});

describe('Schwab importer: corporate actions sample (Export-To-Ghostfolio)', () => {
  const text = load('schwab_transactions_corpactions_ghostfolio.csv');
  const result = parse(text);

  it('parses all 119 data rows; the journaled shares that leave are OTHER with a warning', () => {
    expect(result.errors).toEqual([]);
    expect(result.rows, '121 lines − header − Transactions Total').toBe(119);
    expect(result.skipped).toEqual([]);
    // 4 corporate actions come as added/removed pairs (reverse split, merger, name change, conversion).
    expect(result.transactions).toHaveLength(119 - 4);
    expect([at(result, 62).type, at(result, 62).quantity], 'Journaled Shares DGLRX -877: out of the account').toEqual(['OTHER', 877]);
    expect(result.warnings.some((w) => w.line === 62 && /left the account/.test(w.message))).toBe(true);
  });

  it('dates an "as of" row by its as-of date', () => {
    const split = at(result, 108);
    expect([split.type, split.symbol, split.quantity]).toEqual(['SPLIT', 'AVGO', 9]);
    expect(split.tradeDate, '"07/15/2024 as of 07/12/2024" → 07/12 16:00 EDT').toBe('2024-07-12T20:00:00.000Z');
  });

  it('pairs reverse splits and name changes', () => {
    const reverse = at(result, 111);
    expect([reverse.type, reverse.symbol, reverse.quantity], '+1 new − 1 old share').toEqual(['SPLIT', 'TNXP', 0]);
    expect(result.transactions.some((r) => r.line === 112)).toBe(false);
    const renamed = at(result, 116);
    expect([renamed.type, renamed.symbol, renamed.previousSymbol, renamed.quantity]).toEqual(['SYMBOL_CHANGE', 'NEWH', '09070K200', 1000]);
    expect(result.warnings.some((w) => w.line === 116 && w.message.includes('CUSIP'))).toBe(true);
  });

  it('maps dividend variants, interest, fees and transfers', () => {
    const type = (line: number): string => at(result, line).type;
    expect(type(3), 'Reinvest Dividend').toBe('DIVIDEND');
    expect(type(2), 'Reinvest Shares').toBe('BUY');
    expect(type(8), 'Credit Interest').toBe('INTEREST');
    expect(type(33), 'Advisor Fee').toBe('FEE');
    expect(type(101), 'Wire Sent').toBe('WITHDRAWAL');
    expect(type(105), 'ADR Mgmt Fee').toBe('FEE');
    expect([type(106), at(result, 106).amountMinor], 'Foreign Tax Paid is withholding: negative DIVIDEND').toEqual(['DIVIDEND', -13_000]);
    expect(type(120), 'Cash In Lieu').toBe('OTHER');
  });

  it('Σ amountMinor equals Σ of the Amount column (the sample’s own footer, -$26,582.91, does not add up)', () => {
    expect(sumAmounts(result)).toBe(rawAmountSum(text));
  });
});

describe('Schwab importer: options wheel (self-written fixture)', () => {
  const text = load('schwab_transactions_pfe_wheel_selfwritten.csv');
  const result = parse(text);

  it('skips the title row and the Transactions Total footer', () => {
    expect(schwabImporter.detect(fileHead(text))).toBe(true);
    expect(tastytradeImporter.detect(fileHead(text))).toBe(false);
    expect(result.errors).toEqual([]);
    expect(result.rows, '18 rows between the header and the footer').toBe(18);
    expect(result.transactions, 'every row: the journaled shares that leave are OTHER').toHaveLength(18);
  });

  it('maps the put assignment to ASSIGNMENT + BUY 100 at the strike, dated by the as-of date', () => {
    const option = at(result, 15);
    expect(option.type).toBe('ASSIGNMENT');
    expect(option.symbol, '"PFE 01/17/2025 26.00 P"').toBe('PFE250117P00026000');
    expect([option.quantity, option.priceMinor, option.amountMinor]).toEqual([1, 0, 0]);
    expect(option.tradeDate, 'as of 01/17/2025, 16:00 EST').toBe('2025-01-17T21:00:00.000Z');
    const stock = at(result, 16);
    expect([stock.type, stock.symbol, stock.quantity, stock.priceMinor, stock.amountMinor]).toEqual(['BUY', 'PFE', 100, 260_000, -26_000_000]);
    expect(stock.tradeDate).toBe(option.tradeDate);
  });

  it('maps option trades, the roll, the expiration and the call assignment', () => {
    const sto = at(result, 19);
    expect([sto.type, sto.symbol, sto.quantity, sto.priceMinor, sto.multiplier]).toEqual(['SELL_TO_OPEN', 'PFE241220P00026000', 1, 5_500, 100]);
    expect([sto.amountMinor, sto.commissionMinor], '$54.34 net of $0.66').toEqual([543_400, 6_600]);
    expect([at(result, 18).type, at(result, 17).type], 'roll on 12/18').toEqual(['BUY_TO_CLOSE', 'SELL_TO_OPEN']);
    expect([at(result, 11).type, at(result, 11).symbol]).toEqual(['EXPIRATION', 'PFE250228C00027000']);
    expect(at(result, 6).type).toBe('ASSIGNMENT');
    expect([at(result, 7).type, at(result, 7).priceMinor, at(result, 7).amountMinor]).toEqual(['SELL', 270_000, 26_999_800]);
  });

  it('keeps the NRA withholding as a negative DIVIDEND and the cash journal as a WITHDRAWAL', () => {
    expect([at(result, 8).type, at(result, 8).amountMinor, at(result, 8).description]).toEqual(['DIVIDEND', -129_000, 'PFIZER INC']);
    expect([at(result, 9).type, at(result, 9).amountMinor]).toEqual(['DIVIDEND', 430_000]);
    expect(at(result, 4).type).toBe('WITHDRAWAL');
    expect([at(result, 3).type, result.warnings.map((w) => w.line)], 'Journaled Shares out: OTHER with a warning').toEqual(['OTHER', [3]]);
  });

  it('Σ amountMinor equals Σ of the Amount column and the file’s footer', () => {
    expect(sumAmounts(result)).toBe(rawAmountSum(text));
    expect(sumAmounts(result), 'Transactions Total $4,316.58').toBe(43_165_800);
  });

  it('re-parsing gives identical, unique brokerRowIds; extra rows on top do not change them', () => {
    const ids = result.transactions.map((r) => r.transaction.brokerRowId);
    expect(new Set(ids).size).toBe(ids.length);
    const lines = text.split('\n');
    lines.splice(2, 0, '"03/27/2025","Credit Interest","","SCHWAB1 INT","","","","$0.10"');
    const newer = parse(lines.join('\n'));
    const newerIds = newer.transactions.map((r) => r.transaction.brokerRowId);
    expect(newerIds.slice(1)).toEqual(ids);
  });

  it('reports garbage with its line and column, an unknown action as OTHER with a warning, missing columns at the header', () => {
    const garbage = parse(text.replace('"$0.42","$0.66","$41.34"', '"$0.42","$0.66","lots"'));
    expectRefusedAt(garbage, 10, 'Amount');
    const badDate = parse(text.replace('"02/10/2025"', '"02/30/2025"'));
    expect(badDate.errors.map((e) => e.line)).toEqual([12]);
    const unknown = parse(text.replace('"Credit Interest"', '"Mystery Credit"'));
    expect(at(unknown, 5).type).toBe('OTHER');
    expect(unknown.warnings.map((w) => w.line)).toEqual([3, 5]);
    const missing = parse(text.replace('"Fees & Comm",', '"Fees & Comm","Extra",').replace('"Price",', ''));
    expect(missing.errors).toEqual([{ line: 2, message: 'the header lacks the column Price' }]);
    const truncated = parse(`${text}\n"03/29/2025","Buy","PFE","PFIZER`);
    expect(truncated.errors).toHaveLength(1);
  });
});
