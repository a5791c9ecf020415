import { describe, expect, it } from 'vitest';
import { fileHead } from '../../../../../src-main/importers/common/table';
import { schwabImporter } from '../../../../../src-main/importers/schwab/index';
import { tastytradeImporter } from '../../../../../src-main/importers/tastytrade/index';
import { thinkorswimImporter } from '../../../../../src-main/importers/thinkorswim/index';
import type { ParseResult } from '../../../../../src-main/importers/types';
import { brokerFixture, minorOf, rowAtLine, expectStableIds, expectRefusedAt } from '../file-totals';

const text = brokerFixture('thinkorswim_statement_pfe_wheel_selfwritten.csv');
const parse = (input: string): ParseResult => thinkorswimImporter.parse(input, {});

const at = rowAtLine;


describe('thinkorswim importer: account statement (self-written fixture)', () => {
  const result = parse(text);

  it('detects it (and the other importers do not)', () => {
    expect(thinkorswimImporter.detect(fileHead(text))).toBe(true);
    expect(tastytradeImporter.detect(fileHead(text))).toBe(false);
    expect(schwabImporter.detect(fileHead(text))).toBe(false);
    expect(result.errors).toEqual([]);
    expect(result.warnings, 'the statement names its zone (CST) and every trade has its cash row').toEqual([]);
  });

  it('reads 13 cash rows and 8 trade legs into 14 transactions', () => {
    expect(result.rows, '13 Cash Balance rows (BAL and TOTAL excluded) + 8 Trade History legs').toBe(21);
    const counts: Record<string, number> = {};
    for (const row of result.transactions) counts[row.transaction.type] = (counts[row.transaction.type] ?? 0) + 1;
    // 8 legs replace their 7 TRD cash rows (the vertical has two legs); the assignment delivery has no leg.
    expect(counts).toEqual({
      SELL_TO_OPEN: 3,
      BUY_TO_OPEN: 1,
      BUY_TO_CLOSE: 2,
      BUY: 2,
      SELL: 1,
      EXPIRATION: 1,
      ASSIGNMENT: 1,
      DEPOSIT: 1,
      DIVIDEND: 1,
      INTEREST: 1,
    });
  });

  it('pins the first put sale (Trade History line 51 with Cash Balance line 8)', () => {
    const tx = at(result, 51);
    expect(tx.type, 'SELL + TO OPEN').toBe('SELL_TO_OPEN');
    expect(tx.symbol).toBe('PFE240119P00028000');
    expect([tx.expiration, tx.strike, tx.right]).toEqual(['2024-01-19', 28, 'P']);
    expect(tx.quantity).toBe(1);
    expect(tx.priceMinor, '.55').toBe(5_500);
    expect(tx.commissionMinor, 'Commissions & Fees -0.65').toBe(6_500);
    expect(tx.feesMinor, 'Misc Fees -0.01').toBe(100);
    expect(tx.amountMinor, '55.00 − 0.65 − 0.01 (the balance moves 10,000 → 10,054.34)').toBe(543_400);
    expect(tx.orderId, 'REF # ="5102334871"').toBe('5102334871');
    expect(tx.tradeDate, '09:35:12 CST = 15:35:12 UTC').toBe('2024-01-03T15:35:12.000Z');
    expect(tx.accountName).toBe('12345678SCHW');
  });

  it('splits the vertical’s cash over its two legs so that they add up to the cash row', () => {
    const short = at(result, 48);
    const long = at(result, 49);
    expect([short.type, short.symbol, short.priceMinor]).toEqual(['SELL_TO_OPEN', 'PFE240216P00028000', 6_100]);
    expect([long.type, long.symbol, long.priceMinor]).toEqual(['BUY_TO_OPEN', 'PFE240216P00027000', 2_300]);
    expect(short.amountMinor + long.amountMinor, '76.00 − 2.60 − 0.03').toBe(733_700);
    expect(short.commissionMinor + long.commissionMinor).toBe(26_000);
    expect(short.feesMinor + long.feesMinor).toBe(300);
    expect(short.orderId).toBe(long.orderId);
  });

  it('maps the assignment to ASSIGNMENT + BUY 200 at the strike, and the long put to EXPIRATION', () => {
    const assigned = at(result, 13);
    expect([assigned.type, assigned.symbol, assigned.quantity, assigned.amountMinor]).toEqual(['ASSIGNMENT', 'PFE240216P00028000', 2, 0]);
    const stock = at(result, 14);
    expect([stock.type, stock.symbol, stock.quantity, stock.priceMinor, stock.amountMinor]).toEqual(['BUY', 'PFE', 200, 280_000, -56_000_000]);
    expect([at(result, 12).type, at(result, 12).symbol]).toEqual(['EXPIRATION', 'PFE240216P00027000']);
  });

  it('maps the dividend, the funding and the interest adjustment', () => {
    expect([at(result, 16).type, at(result, 16).symbol, at(result, 16).amountMinor]).toEqual(['DIVIDEND', 'PFE', 840_000]);
    expect([at(result, 9).type, at(result, 9).amountMinor]).toEqual(['DEPOSIT', 20_000_000]);
    expect([at(result, 20).type, at(result, 20).symbol]).toEqual(['INTEREST', '']);
  });

  it('Σ amountMinor equals the last BALANCE minus the opening balance', () => {
    const lines = text.split('\n');
    const cash = lines.slice(lines.indexOf('Cash Balance') + 2, lines.findIndex((l) => l.startsWith('TOTAL')));
    const balance = (line: string): number => minorOf(line.slice(line.lastIndexOf(',"') + 1));
    const opening = balance(cash[0] ?? '');
    const closing = balance(cash[cash.length - 1] ?? '');
    expect(opening).toBe(100_000_000);
    expect(result.transactions.reduce((s, r) => s + r.transaction.amountMinor, 0), '12,374.77 − 10,000.00').toBe(closing - opening);
  });

  it('re-parsing gives identical, unique brokerRowIds', () => {
    expectStableIds(result, parse(text));
  });

  it('reports a garbage cell with its line and column', () => {
    const broken = parse(text.replace(',3/14/24 11:20:09,SINGLE,BUY,+2,', ',3/14/24 11:20:09,SINGLE,BUY,two,'));
    expectRefusedAt(broken, 46, 'Qty');
  });

  it('reports missing columns at the section header', () => {
    const broken = parse(text.replace(',Exec Time,Spread,Side,Qty,Pos Effect', ',Exec Time,Spread,Side,Quantity,Pos Effect'));
    expect(broken.errors).toEqual([{ line: 43, message: 'Account Trade History: the header lacks the column Qty' }]);
  });

  it('warns and reads New York time when the statement names no zone', () => {
    const noZone = parse(text.replace('02.01 CST', '02.01'));
    expect(noZone.warnings.map((w) => w.message)).toEqual(['the statement names no time zone: times read as New York time']);
    expect(at(noZone, 51).tradeDate, '09:35:12 EST').toBe('2024-01-03T14:35:12.000Z');
  });

  it('keeps a trade without its cash row, with a warning', () => {
    const lines = text.split('\n').filter((line) => !line.includes('5110998871'));
    const partial = parse(lines.join('\n'));
    const tx = partial.transactions.find((r) => r.transaction.symbol === 'PFE240315C00029000' && r.transaction.type === 'BUY_TO_CLOSE');
    expect(tx?.transaction.amountMinor, 'price × qty × 100, no fees known').toBe(-100_000);
    expect(partial.warnings).toHaveLength(1);
  });
});
