import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../../../src-main/importers/common/csv';
import { parseRobinhood, parseRobinhoodOption, robinhoodImporter } from '../../../../../src-main/importers/robinhood';
import type { ParseResult, ParsedRow } from '../../../../../src-main/importers/types';
import { BROKER_FIXTURES_SHARED as shared } from '../../../../paths';
import { rowIds, sumAmounts, expectDetectedClean } from '../file-totals';

const lineOf = (text: string, fragment: string): number => text.split(/\r?\n/).findIndex((line) => line.includes(fragment)) + 1;

function find(result: ParseResult, predicate: (row: ParsedRow) => boolean): ParsedRow {
  const row = result.transactions.find(predicate);
  if (!row) throw new Error('row not found');
  return row;
}

/** The test's own reading of a Robinhood money cell, in cents: "$1,234.56", "($10.00)". */
function cents(cell: string): number {
  const match = /^(\()?\$([\d,]+)\.(\d{2})\)?$/.exec(cell.trim());
  if (!match) return 0;
  const value = Number((match[2] ?? '0').replace(/,/g, '')) * 100 + Number(match[3]);
  return match[1] ? -value : value;
}

describe('Robinhood option descriptions', () => {
  it('reads the contract from the description', () => {
    expect(parseRobinhoodOption('TSLA 7/16/2021 Put $600.00')?.symbol, 'TSLA, 2021-07-16, put, strike 600').toBe('TSLA210716P00600000');
    expect(parseRobinhoodOption('Option Expiration for OPEN 10/17/2025 Call $9.00')?.symbol).toBe('OPEN251017C00009000');
    expect(parseRobinhoodOption('ACH Deposit')).toBeNull();
  });
});

describe('Robinhood activity (real, greatmindsinside/OptionsTradingTracker)', () => {
  const text = existsSync(shared) ? readFileSync(path.join(shared, 'robinhood_activity_wheel_real_optionstradingtracker.csv'), 'utf8') : '';
  const result = parseRobinhood(text, {});

  it('is detected and parses without errors; the trailing disclaimer is not a row', () => {
    expectDetectedClean(robinhoodImporter, text, result);
    const records = parseCsv(text).records;
    const dataRecords = records.slice(1).filter((record) => record.cells.length === 9);
    expect(result.rows, 'every 9-cell record after the header').toBe(dataRecords.length);
    expect(result.rows).toBe(483);
  });

  it('counts per type follow the Trans Code column', () => {
    const records = parseCsv(text).records.slice(1).filter((record) => record.cells.length === 9);
    const codes: Record<string, number> = {};
    for (const record of records) codes[record.cells[5] ?? ''] = (codes[record.cells[5] ?? ''] ?? 0) + 1;
    const counts: Record<string, number> = {};
    for (const row of result.transactions) counts[row.transaction.type] = (counts[row.transaction.type] ?? 0) + 1;
    expect(counts.SELL_TO_OPEN, 'STO').toBe(codes.STO);
    expect(counts.BUY_TO_CLOSE, 'BTC').toBe(codes.BTC);
    expect(counts.EXPIRATION, 'OEXP').toBe(codes.OEXP);
    expect(counts.ASSIGNMENT, 'OASGN').toBe(codes.OASGN);
    expect(counts.DIVIDEND, 'CDIV').toBe(codes.CDIV);
    expect(counts.BUY, 'Buy').toBe(codes.Buy);
    expect(counts.SELL, 'Sell').toBe(codes.Sell);
    // ACH, round-ups (XENT_RWR) and the one transfer out (XENT, negative) are cash movements.
    expect((counts.DEPOSIT ?? 0) + (counts.WITHDRAWAL ?? 0)).toBe((codes.ACH ?? 0) + (codes.XENT_RWR ?? 0) + (codes.XENT ?? 0));
    expect(counts.WITHDRAWAL, 'the "Transfer from Brokerage to Spending" ($50.00)').toBe(1);
    expect([codes.STO, codes.OEXP, codes.OASGN], 'pinned by hand from the file').toEqual([105, 57, 16]);
  });

  it('pins an STO, an expiration and an assignment with its stock leg', () => {
    const sto = find(result, (row) => row.line === 17).transaction;
    expect([sto.type, sto.symbol, sto.quantity, sto.priceMinor, sto.amountMinor, sto.feesMinor, sto.commissionMinor]).toEqual([
      'SELL_TO_OPEN', 'ASTS251024P00080000', 1, 15_000, 1_499_500,
      500, // 1 × 1.50 × 100 = 150.00 gross, 149.95 net: 0.05 of fees
      0,
    ]);
    expect(sto.tradeDate, '10/20/2025, no time: 16:00 New York (EDT) = 20:00Z').toBe('2025-10-20T20:00:00.000Z');
    const expired = find(result, (row) => row.line === 2).transaction;
    expect([expired.type, expired.symbol, expired.quantity, expired.amountMinor]).toEqual(['EXPIRATION', 'APLD251024P00032000', 1, 0]);
    const assigned = find(result, (row) => row.transaction.type === 'ASSIGNMENT' && row.transaction.symbol === 'ASTS251017C00060000');
    expect(assigned.transaction.quantity).toBe(2);
    const called = find(result, (row) => row.line === lineOf(text, '"10/17/2025","10/17/2025","10/20/2025","ASTS","AST SpaceMobile')).transaction;
    expect(called.type).toBe('SELL');
    expect(called.quantity, '2 contracts × 100').toBe(200);
    expect(called.priceMinor, 'at the 60 strike').toBe(600_000);
    expect(called.amountMinor, '$11,999.97').toBe(119_999_700);
    expect(called.feesMinor, '200 × 60 = 12,000.00 − 11,999.97').toBe(300);
    expect(called.description, 'the three-line description, joined').toBe('AST SpaceMobile / CUSIP: 00217D100 / 2 ASTS Options Assigned');
  });

  it('Σ amount equals the Amount column summed independently (8,908.36)', () => {
    const records = parseCsv(text).records.slice(1).filter((record) => record.cells.length === 9);
    const expectedCents = records.reduce((acc, record) => acc + cents(record.cells[8] ?? ''), 0);
    expect(expectedCents).toBe(890_836);
    expect(sumAmounts(result)).toBe(expectedCents * 100);
  });

  it('gives identical rows distinct ids, and the same ids on re-parse', () => {
    const ids = rowIds(result);
    expect(new Set(ids).size, 'BTC OPEN 9/5/2025 appears three times, identical').toBe(ids.length);
    expect(rowIds(parseRobinhood(text, {}))).toEqual(ids);
    // A later export with a new row on top keeps the ids of the old rows.
    const header = text.slice(0, text.indexOf('\n') + 1);
    const newer = header + '"10/27/2025","10/27/2025","10/28/2025","","ACH Deposit","ACH","","","$100.00"\n' + text.slice(header.length);
    const newerIds = new Set(rowIds(parseRobinhood(newer, {})));
    expect(ids.every((id) => newerIds.has(id))).toBe(true);
  });

  it('reports a corrupted amount with its line and column', () => {
    const bad = parseRobinhood(text.replace('"$1.50","$149.95"', '"$1.50","$14x9.95"'), {});
    expect(bad.errors).toHaveLength(1);
    expect(bad.errors[0]?.line).toBe(17);
    expect(bad.errors[0]?.message).toMatch(/Amount/);
  });
});

describe('Robinhood edge cases (inline)', () => {
  const header = '"Activity Date","Process Date","Settle Date","Instrument","Description","Trans Code","Quantity","Price","Amount"\n';

  it('keeps an unknown code as OTHER with a warning, and a GOLD fee as FEE', () => {
    const text =
      header +
      '"3/1/2024","3/1/2024","3/1/2024","","Gold Subscription Fee","GOLD","","","($5.00)"\n' +
      '"3/2/2024","3/2/2024","3/2/2024","XYZ","Something new","ZZZ","","","$1.00"\n';
    const result = parseRobinhood(text, { accountName: 'RH main' });
    expect(result.transactions.map((row) => row.transaction.type)).toEqual(['FEE', 'OTHER']);
    expect(result.transactions[0]?.transaction.amountMinor).toBe(-50_000);
    expect(result.transactions[0]?.transaction.accountName).toBe('RH main');
    expect(result.warnings).toEqual([expect.objectContaining({ line: 3 })]);
  });

  it('names a missing column at the header, a bad date by line, and an unclosed quote', () => {
    const noAmount = parseRobinhood(header.replace(',"Amount"', ''), {});
    expect(noAmount.errors[0]).toMatchObject({ line: 1 });
    expect(noAmount.errors[0]?.message).toMatch(/Amount/);
    const badDate = parseRobinhood(header + '"13/45/2024","","","AAPL","Apple","Buy","1","$1.00","($1.00)"\n', {});
    expect(badDate.errors[0]).toMatchObject({ line: 2 });
    expect(badDate.errors[0]?.message).toMatch(/Activity Date/);
    const cut = parseRobinhood(header + '"3/1/2024","3/1/2024","3/2/2024","AAPL","Apple\nCUSIP: 0378', {});
    expect(cut.errors[0]?.line, 'the quoted description opened on line 2 never closes').toBe(2);
  });
});
