/**
 * Bills and bonds priced in percent of par (issue 28, item 4): whichever importer reads them, a lot costs what the
 * row paid, not price × quantity read as shares (99.5 × 10,000 face = 995,000 for a bill that cost 9,950.00).
 */
import { describe, expect, it } from 'vitest';
import { priceAtParFromCash } from '../../../../../src-main/importers/common/amounts';
import { transaction } from '../../../../../src-main/importers/common/result';
import { parseImport } from '../../../../../src-main/importers/index';
import type { RawTransaction, TransactionType } from '../../../../../src-shared/journal/model';
import { asMinor } from '../../../../../src-shared/money';

function fill(type: TransactionType, symbol: string, quantity: number, price: number, amount: number, commission = 0): { transaction: RawTransaction } {
  return {
    transaction: transaction({
      accountName: 'A',
      brokerRowId: `${symbol}-${type}-${quantity}`,
      type,
      tradeDate: '2024-01-02T21:00:00.000Z',
      source: 'test',
      symbol,
      underlying: symbol,
      quantity,
      priceMinor: asMinor(Math.round(price * 10_000)),
      amountMinor: asMinor(Math.round(amount * 10_000)),
      commissionMinor: asMinor(Math.round(commission * 10_000)),
    }),
  };
}

describe('priceAtParFromCash', () => {
  it('gives a bill counted in face value the multiplier 0.01 (10,000 × 99.5 × 0.01 = 9,950.00)', () => {
    const rows = [fill('BUY', '912796ZV4', 10_000, 99.5, -9_950)];
    priceAtParFromCash(rows);
    expect(rows[0]?.transaction.multiplier).toBe(0.01);
    expect(rows[0]?.transaction.priceMinor).toBe(995_000);
  });

  it('gives bonds counted in 1,000 face the multiplier 10 (10 × 101.25 × 10 = 10,125.00 plus a 1.00 commission)', () => {
    const rows = [fill('BUY', '91282CJL6', 10, 101.25, -10_126, 1)];
    priceAtParFromCash(rows);
    expect(rows[0]?.transaction.multiplier).toBe(10);
  });

  it('gives a redemption whose price is blank the multiplier found before, its price from the cash', () => {
    const rows = [fill('BUY', '912796ZV4', 10_000, 99.5, -9_950), fill('SELL', '912796ZV4', 10_000, 0, 10_000)];
    priceAtParFromCash(rows);
    expect([rows[1]?.transaction.multiplier, rows[1]?.transaction.priceMinor]).toEqual([0.01, 1_000_000]);
  });

  it('leaves shares whose price × quantity is their cash, and options, as they are', () => {
    const rows = [fill('BUY', 'AAPL', 100, 129.41, -12_941), { transaction: { ...fill('SELL_TO_OPEN', 'SPY', 1, 2.15, 214.33).transaction, isOption: true, multiplier: 100 } }];
    priceAtParFromCash(rows);
    expect(rows.map((row) => row.transaction.multiplier)).toEqual([1, 100]);
  });

  it('applies to every importer: a bill in a Schwab history costs its cash', () => {
    const schwab = [
      '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"',
      '"05/20/2024","Sell","912797GL5","US TREASURY BILL 0% 06/20/24","10,000","$99.61","","$9,961.00"',
      '"03/21/2024","Buy","912797GL5","US TREASURY BILL 0% 06/20/24","10,000","$98.7654","","-$9,876.54"',
      '"03/20/2024","MoneyLink Transfer","","Tfr BANK","","","","$10,000.00"',
    ].join('\n');
    const outcome = parseImport(schwab, 'auto', {});
    if (!outcome.ok) throw new Error(outcome.detail);
    const bill = outcome.result.transactions.map((row) => row.transaction).filter((tx) => tx.symbol === '912797GL5');
    expect(bill.map((tx) => [tx.type, tx.multiplier])).toEqual([['SELL', 0.01], ['BUY', 0.01]]);
  });
});
