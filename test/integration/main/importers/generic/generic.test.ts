import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fileHead } from '../../../../../src-main/importers/common/table';
import { genericImporter } from '../../../../../src-main/importers/generic/index';
import { schwabImporter } from '../../../../../src-main/importers/schwab/index';
import { tastytradeImporter } from '../../../../../src-main/importers/tastytrade/index';
import { thinkorswimImporter } from '../../../../../src-main/importers/thinkorswim/index';
import type { ParseResult } from '../../../../../src-main/importers/types';
import { brokerFixture, minorOf, rowAtLine, expectDetectedClean } from '../file-totals';

const load = brokerFixture;
const text = load('generic_wheel_selfwritten.csv');
const parse = (input: string, accountName?: string): ParseResult => genericImporter.parse(input, accountName ? { accountName } : {});
const HEADER = 'date,type,symbol,quantity,price,amount';

const at = rowAtLine;


describe('generic CSV importer', () => {
  const result = parse(text);

  it('parses the documented format', () => {
    expectDetectedClean(genericImporter, text, result);
    expect(result.warnings).toEqual([]);
    expect(result.rows).toBe(12);
    expect(result.transactions).toHaveLength(12);
  });

  it('builds the OCC symbol from expiration, strike and right, and keeps the rest as written (line 3)', () => {
    const tx = at(result, 3);
    expect(tx.type).toBe('SELL_TO_OPEN');
    expect(tx.symbol).toBe('PFE240119P00028000');
    expect([tx.underlying, tx.expiration, tx.strike, tx.right, tx.multiplier]).toEqual(['PFE', '2024-01-19', 28, 'P', 100]);
    expect([tx.quantity, tx.priceMinor, tx.commissionMinor, tx.feesMinor, tx.amountMinor]).toEqual([1, 5_500, 6_500, 100, 543_400]);
    expect(tx.tradeDate).toBe('2024-01-03T14:35:12.000Z');
    expect([tx.orderId, tx.accountName, tx.currency, tx.brokerRowId]).toEqual(['A100', 'IRA', 'USD', 'id:t-1']);
  });

  it('accepts an OCC symbol directly and converts offsets to UTC (line 4)', () => {
    const tx = at(result, 4);
    expect([tx.type, tx.symbol, tx.strike]).toEqual(['BUY_TO_CLOSE', 'PFE240119P00028000', 28]);
    expect(tx.tradeDate, '18:45:03-05:00').toBe('2024-01-17T23:45:03.000Z');
  });

  it('dates a bare day at 16:00 New York', () => {
    expect(at(result, 2).tradeDate, 'EST: 21:00 UTC').toBe('2024-01-02T21:00:00.000Z');
    expect(at(result, 12).tradeDate, 'EDT from 2024-03-10: 20:00 UTC').toBe('2024-03-18T20:00:00.000Z');
  });

  it('keeps assignment + stock BUY at the strike and a negative dividend (withholding)', () => {
    expect([at(result, 6).type, at(result, 6).symbol]).toEqual(['ASSIGNMENT', 'PFE240216P00028000']);
    expect([at(result, 7).type, at(result, 7).priceMinor, at(result, 7).quantity]).toEqual(['BUY', 280_000, 200]);
    expect([at(result, 10).type, at(result, 10).amountMinor]).toEqual(['DIVIDEND', -126_000]);
  });

  it('Σ amountMinor equals Σ of the amount column', () => {
    const header = (text.split('\n')[0] ?? '').split(',');
    const column = header.indexOf('amount');
    // The description of line 12 is quoted with a comma inside; amounts sit before it, so a plain split works.
    const expected = text
      .trim()
      .split('\n')
      .slice(1)
      .reduce((s, line) => s + minorOf(line.split(',')[column] ?? ''), 0);
    expect(result.transactions.reduce((s, r) => s + r.transaction.amountMinor, 0)).toBe(expected);
  });

  it('uses the id column as the row identity, else content + occurrence', () => {
    const plain = [HEADER, '2024-03-07,DIVIDEND,PFE,0,0,42.00', '2024-03-07,DIVIDEND,PFE,0,0,42.00'].join('\n');
    const first = parse(plain, 'Main');
    const ids = first.transactions.map((r) => r.transaction.brokerRowId);
    expect(ids[0]).not.toBe(ids[1]);
    expect(parse(plain, 'Main').transactions.map((r) => r.transaction.brokerRowId)).toEqual(ids);
    expect(first.transactions[0]?.transaction.accountName, 'no account column: the given name').toBe('Main');
  });

  it('detects only its own header', () => {
    expect(tastytradeImporter.detect(fileHead(text))).toBe(false);
    expect(schwabImporter.detect(fileHead(text))).toBe(false);
    expect(thinkorswimImporter.detect(fileHead(text))).toBe(false);
    expect(genericImporter.detect(fileHead(load('tastytrade_v2_21col_PFE_binnaculum.csv')))).toBe(false);
    expect(genericImporter.detect(fileHead(load('schwab_transactions_stock_kapji.csv')))).toBe(false);
  });

  describe('strict validation: errors name the line and the column', () => {
    const one = (row: string): ParseResult => parse([HEADER, row].join('\n'));
    const cases: Array<[string, string, string]> = [
      ['2024-03-07,DIVIDND,PFE,0,0,42.00', 'type', 'is not one of'],
      ['2024-02-30,DIVIDEND,PFE,0,0,42.00', 'date', 'YYYY-MM-DD'],
      ['2024-03-07T10:00:00,DIVIDEND,PFE,0,0,42.00', 'date', 'with offset'],
      ['2024-03-07,BUY,PFE,100,28.00,2800.00', 'amount', 'must be ≤ 0'],
      ['2024-03-07,SELL_TO_OPEN,PFE,1,0.50,50.00', 'symbol', 'needs an option'],
      ['2024-03-07,BUY,PFE240216P00028000,1,0.50,-50.00', 'type', 'BUY_TO_OPEN'],
      ['2024-03-07,BUY,PFE,-100,28.00,-2800.00', 'quantity', 'must not be negative'],
      ['2024-03-07,BUY,PFE,100,abc,-2800.00', 'price', 'not a number'],
      ['2024-03-07,DEPOSIT,,0,0,', 'amount', 'required'],
      ['2024-03-07,SYMBOL_CHANGE,META,100,0,0', 'previousSymbol', 'required'],
      ['2024-03-07,SELL_SHORT,PFE,100,28.00,-2800.00', 'amount', 'must be ≥ 0'],
      ['2024-03-07,BUY_TO_COVER,PFE,100,27.00,2700.00', 'amount', 'must be ≤ 0'],
      ['2024-03-07,SELL_SHORT,PFE240216P00028000,1,0.50,50.00', 'type', 'is for shares'],
    ];
    for (const [row, column, fragment] of cases) {
      it(`${column}: ${row}`, () => {
        const broken = one(row);
        expect(broken.errors.length, JSON.stringify(broken.errors)).toBeGreaterThan(0);
        expect(broken.errors[0]?.line).toBe(2);
        expect(broken.errors[0]?.message).toContain(`column "${column}"`);
        expect(broken.errors[0]?.message).toContain(fragment);
        expect(broken.transactions).toEqual([]);
      });
    }

    it('reads a stock short sale and its cover (SELL_SHORT, BUY_TO_COVER)', () => {
      const shorted = parse([HEADER, '2024-03-07,SELL_SHORT,PFE,100,28.00,2800.00', '2024-03-08,BUY_TO_COVER,PFE,100,27.00,-2700.00'].join('\n'));
      expect(shorted.errors).toEqual([]);
      expect(shorted.transactions.map(({ transaction: t }) => [t.type, t.symbol, t.isOption, t.quantity, t.amountMinor])).toEqual([
        ['SELL_SHORT', 'PFE', false, 100, 28_000_000],
        ['BUY_TO_COVER', 'PFE', false, 100, -27_000_000],
      ]);
    });

    it('a negative commission is an error', () => {
      const broken = parse(['date,type,symbol,quantity,price,amount,commission', '2024-03-07,BUY,PFE,1,28,-28,-1'].join('\n'));
      expect(broken.errors[0]?.message).toContain('column "commission"');
    });

    it('missing and unknown columns are one error at the header', () => {
      expect(parse('date,type,symbol,quantity,amount\n').errors).toEqual([
        { line: 1, message: 'the header lacks the column price' },
      ]);
      const unknown = parse(`${HEADER},notes\n`);
      expect(unknown.errors).toHaveLength(1);
      expect(unknown.errors[0]?.message).toContain('unknown columns: notes');
    });

    it('a duplicate id is an error on the second line', () => {
      const dup = parse([`${HEADER},id`, '2024-03-07,DIVIDEND,PFE,0,0,42.00,x', '2024-03-08,DIVIDEND,PFE,0,0,42.00,x'].join('\n'));
      expect(dup.errors).toEqual([{ line: 3, message: 'column "id": "x" already used on line 2' }]);
    });

    it('a modified fixture cell is reported on its line; a truncated quote too', () => {
      const broken = parse(text.replace('2024-02-20,IRA,SELL_TO_OPEN,PFE,2,0.44', '2024-02-20,IRA,SELL_TO_OPEN,PFE,2,zero'));
      expect(broken.errors.map((e) => e.line)).toEqual([8]);
      expect(parse(`${text}2024-03-29,IRA,INTEREST,,0,0,0,0,1.00,USD,,"oops`).errors).toHaveLength(1);
    });
  });
});

describe('generic CSV row identity without an id column', () => {
  // Strikebook 0.1 identified such a row by SHA-256 of its cells in file order (trimmed, joined by U+001F), first
  // 32 hex digits, then "#<occurrence>". Recomputed here from that rule, independently of the importer.
  const v01RowId = (cells: string[], occurrence = 1): string =>
    `${createHash('sha256').update(cells.map((cell) => cell.trim()).join('\u001f')).digest('hex').slice(0, 32)}#${occurrence}`;
  const header = ['date', 'account', 'type', 'symbol', 'quantity', 'price', 'commission', 'fees', 'amount', 'currency', 'description'];
  const rows = [
    ['2024-01-02', 'IRA', 'SELL_TO_OPEN', 'SPY240119P00450000', '1', '2.50', '1.00', '0.12', '248.88', 'USD', 'STO put'],
    ['2024-01-19', 'IRA', 'EXPIRATION', 'SPY240119P00450000', '1', '0', '0', '0', '0', 'USD', 'expired'],
  ];
  const csv = (order: number[]): string => [order.map((i) => header[i]), ...rows.map((row) => order.map((i) => row[i]))].map((r) => r.join(',')).join('\n');
  const documented = header.map((_, i) => i);

  it('keeps the ids of 0.1 for a file in the documented column order (an upgrade re-import adds nothing twice)', () => {
    const result = parse(csv(documented));
    expect(result.errors).toEqual([]);
    expect(result.transactions.map((r) => r.transaction.brokerRowId)).toEqual(rows.map((row) => v01RowId(row)));
  });

  it('gives the same ids whatever the order of the columns', () => {
    const shuffled = [...documented].reverse();
    const ids = (order: number[]) => parse(csv(order)).transactions.map((r) => r.transaction.brokerRowId);
    expect(ids(shuffled)).toEqual(ids(documented));
  });
});
