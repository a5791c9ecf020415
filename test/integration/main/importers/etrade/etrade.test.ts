import { describe, expect, it } from 'vitest';
import { etradeImporter, parseEtrade, parseEtradeOption } from '../../../../../src-main/importers/etrade';
import { brokerFixture, lineOf as lineIn, rowAt, sumAmounts, expectDetectedClean, expectStableIds } from '../file-totals';

// Self-written from E*TRADE's documented transaction-history download: no public sample exists.
const text = brokerFixture('etrade_transactions_selfwritten.csv');
const lineOf = (fragment: string): number => lineIn(text, fragment);

describe('E*TRADE transaction history (self-written fixture)', () => {
  const result = parseEtrade(text, {});
  const at = (fragment: string) => rowAt(result, text, fragment);

  it('is detected below its account lines, and takes the account from "For Account:"', () => {
    expectDetectedClean(etradeImporter, text, result);
    expect(result.rows).toBe(14);
    expect(new Set(result.transactions.map((row) => row.transaction.accountName))).toEqual(new Set(['#####4821']));
  });

  it('parses the option description', () => {
    expect(parseEtradeOption('PUT AAPL 01/19/24 180.000')?.symbol, 'AAPL 2024-01-19 put 180').toBe('AAPL240119P00180000');
    expect(parseEtradeOption('APPLE INC ASSIGNED PUT')).toBeNull();
  });

  it('pins trades, the assignment chain and the implied regulatory fees', () => {
    const open = at('12/04/23,Sold Short');
    expect([open.type, open.symbol, open.quantity, open.priceMinor, open.commissionMinor, open.feesMinor, open.amountMinor]).toEqual([
      'SELL_TO_OPEN', 'AAPL240119P00180000', 2, 21_500, 10_000,
      600, // 430.00 gross − 1.00 commission − 428.94 net = 0.06
      4_289_400,
    ]);
    expect(open.tradeDate, '12/04/23 at 16:00 New York (EST)').toBe('2023-12-04T21:00:00.000Z');
    expect(at('Bought To Cover').type).toBe('BUY_TO_CLOSE');
    expect(at('01/19/24,Option Assignment').symbol).toBe('AAPL240119P00180000');
    const shares = at('APPLE INC ASSIGNED PUT');
    expect([shares.type, shares.quantity, shares.priceMinor, shares.amountMinor]).toEqual(['BUY', 100, 1_800_000, -180_000_000]);
    expect(at('Option Expiration').type).toBe('EXPIRATION');
    expect(at('02/16/24,Option Assignment').symbol).toBe('AAPL240216C00190000');
    expect(at('APPLE INC ASSIGNED CALL').type).toBe('SELL');
  });

  it('infers open/close for a plain "Bought" option, with one warning, and keeps unknown types as OTHER', () => {
    const bought = at('01/10/24,Bought,OPTN');
    expect([bought.type, bought.quantity, bought.amountMinor]).toEqual(['BUY_TO_OPEN', 2, -12_810_400]);
    expect(result.warnings.map((warning) => warning.line), 'line warnings, then the summary').toEqual([lineOf('Margin Rebate Adjustment'), null]);
    expect(at('Margin Rebate Adjustment').type).toBe('OTHER');
    expect(at('Online Transfer').type).toBe('DEPOSIT');
  });

  it('Σ amount equals the Amount column added by hand', () => {
    // 0 + 18999.95 + 24 + 179.47 + 0 − 18000 + 0 − 1281.04 + 2.11 − 95.52 + 409.47 + 428.94 + 25000 + 0.35 = 25667.73
    expect(sumAmounts(result)).toBe(256_677_300);
  });

  it('keeps ids on re-parse and reports a corrupted cell and a truncated row by line', () => {
    expectStableIds(result, parseEtrade(text, {}));
    const bad = parseEtrade(text.replace('-1,409.47,4.1', '-1,409.47,4.x1'), {});
    expect(bad.errors).toEqual([expect.objectContaining({ line: lineOf('12/05/23,Sold Short') })]);
    expect(bad.errors[0]?.message).toMatch(/Price/);
    const cut = parseEtrade(text.slice(0, text.indexOf('12/01/23,Margin') + 20), {});
    expect(cut.errors[0]?.line).toBe(lineOf('12/01/23,Margin'));
    expect(cut.errors[0]?.message).toMatch(/truncated/);
    const noHeader = parseEtrade('For Account:,#####4821\n', {});
    expect(noHeader.errors[0]?.message).toMatch(/header/);
  });
});
