/**
 * TD Ameritrade's website `transactions.csv` (issue 28, item 4): a layout of the thinkorswim importer. The file
 * states no total of its own in its current layout (the older one's NET CASH BALANCE is checked below); its figures
 * are written out by hand from its rows.
 */
import { describe, expect, it } from 'vitest';
import { parseImport } from '../../../../../src-main/importers/index';
import { thinkorswimImporter } from '../../../../../src-main/importers/thinkorswim/index';
import type { ParseResult } from '../../../../../src-main/importers/types';
import { fileHead } from '../../../../../src-main/importers/common/table';
import { amountSum, brokerFixture, expectStableIds, ledgerFor, minorOf, rowAt } from '../file-totals';

const text = brokerFixture('tdameritrade_transactions_selfwritten.csv');

function imported(input: string): ParseResult {
  const outcome = parseImport(input, 'auto', {});
  if (!outcome.ok) throw new Error(outcome.detail);
  return outcome.result;
}

function realizedMinor(result: ParseResult): number {
  return [...ledgerFor(result).realizedByTx.values()].reduce((sum, pnl) => sum + pnl, 0);
}

/** The rows listed newest first, as a download of the other order would be. */
function newestFirst(input: string): string {
  const lines = input.trimEnd().split('\n');
  return [lines[0], ...lines.slice(1, -1).reverse(), lines.at(-1)].join('\n');
}

describe('TD Ameritrade transactions.csv', () => {
  const result = imported(text);

  it('is detected (by its header) and read by the thinkorswim importer, the footer dropped', () => {
    expect(thinkorswimImporter.detect(fileHead(text))).toBe(true);
    expect(result.broker).toBe('thinkorswim');
    expect(result.source).toBe('tdameritrade-csv');
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.rows, 'thirteen rows; ***END OF FILE*** is none').toBe(13);
  });

  it('types each row from its description, options opening or closing by the running position', () => {
    const types = result.transactions.map((row) => [row.line, row.transaction.type, row.transaction.symbol]);
    expect(types).toEqual([
      [2, 'DEPOSIT', ''],
      [3, 'BUY', 'AAPL'],
      [4, 'SELL_TO_OPEN', 'SPY210115P00375000'],
      [5, 'SELL_TO_OPEN', 'SPY210129P00370000'],
      [6, 'BUY_TO_CLOSE', 'SPY210115P00375000'],
      [7, 'DIVIDEND', 'AAPL'],
      [8, 'SELL_SHORT', 'XYZ'],
      [9, 'BUY_TO_COVER', 'XYZ'],
      [10, 'BUY', '912796ZV4'],
      [11, 'EXPIRATION', 'SPY210129P00370000'],
      [12, 'INTEREST', ''],
      [13, 'SELL', 'AAPL'],
      [14, 'SELL', '912796ZV4'],
    ]);
  });

  it('keeps a three-decimal fee to the minor unit (REG FEE 0.013) and the cash as booked', () => {
    const put = rowAt(result, text, 'Sold 2 SPY Jan 29 2021 370.0 Put');
    expect([put.commissionMinor, put.feesMinor, put.amountMinor, put.priceMinor, put.multiplier]).toEqual([13_000, 130, 2_186_900, 11_000, 100]);
  });

  it('prices the bill in percent of par: 10,000 face at 99.5 costs 9,950.00, and its sale at 99.9 makes 40.00', () => {
    const bought = rowAt(result, text, 'Bought 10000 912796ZV4');
    expect([bought.multiplier, bought.priceMinor, bought.quantity]).toEqual([0.01, 995_000, 10_000]);
    const sold = rowAt(result, text, 'Sold 10000 912796ZV4');
    const realized = ledgerFor(result).realizedByTx;
    expect(sold.multiplier).toBe(0.01);
    expect([...realized.entries()].find(([id]) => id.includes('31000000013'))?.[1]).toBe(400_000);
  });

  it('books the P&L written out by hand and ends flat', () => {
    // AAPL 13,500.43 − 12,941.00 = 559.43; the 375 put 214.33 − 55.65 = 158.68; the 370 puts expired 218.69; XYZ short
    // 1,999.98 − 1,950.00 = 49.98; the bill 9,990.00 − 9,950.00 = 40.00.
    expect(realizedMinor(result)).toBe(5_594_300 + 1_586_800 + 2_186_900 + 499_800 + 400_000);
    const ledger = ledgerFor(result);
    expect(ledger.positions).toEqual([]);
    expect(ledger.unmatched).toEqual([]);
    expect(amountSum(result), 'Σ AMOUNT').toBe(210_474_000);
  });

  it('reads the same listed newest first', () => {
    const reversed = imported(newestFirst(text));
    expect(reversed.transactions.map((row) => row.transaction.type).sort()).toEqual(result.transactions.map((row) => row.transaction.type).sort());
    expect(realizedMinor(reversed)).toBe(realizedMinor(result));
  });

  it('states the older download’s NET CASH BALANCE as the file’s cash, which is the journal’s', () => {
    let running = 0;
    const lines = text.trimEnd().split('\n').map((line, index, all) => {
      const cells = line.split(',');
      if (index === 0) cells.splice(8, 0, 'NET CASH BALANCE');
      else if (index < all.length - 1) {
        running += minorOf(cells[7] ?? '');
        cells.splice(8, 0, (running / 10_000).toFixed(2));
      }
      return cells.join(',');
    });
    const older = imported(lines.join('\n'));
    const stated = older.statements.filter((s) => s.what === 'cash_total');
    expect(stated.map((s) => s.valueMinor)).toEqual([running]);
    expect(amountSum(older)).toBe(running);
  });

  it('re-parsing gives identical, unique brokerRowIds', () => {
    expectStableIds(result, imported(text));
  });
});
