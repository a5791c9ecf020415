import { describe, expect, it } from 'vitest';
import { parseWebull, parseWebullTime, webullImporter } from '../../../../../src-main/importers/webull';
import type { ParseResult } from '../../../../../src-main/importers/types';
import { brokerFixture, lineOf as lineIn, sumAmounts, expectDetectedClean, expectStableIds } from '../file-totals';

// Self-written from Webull's orders export layout: no public sample exists.
const text = brokerFixture('webull_orders_selfwritten.csv');
const lineOf = (fragment: string): number => lineIn(text, fragment);
const inferred = (result: ParseResult) =>
  result.transactions.filter((row) => row.transaction.inferred === true).map((row) => `${row.transaction.type} ${row.transaction.quantity} ${row.transaction.symbol}`);

describe('Webull orders (self-written fixture)', () => {
  const asOf = new Date('2024-06-01T00:00:00Z');
  const result = parseWebull(text, { asOf });

  it('is detected; cancelled orders are skipped with a reason', () => {
    expectDetectedClean(webullImporter, text, result);
    expect(result.skipped).toEqual([expect.objectContaining({ line: lineOf('Buy,Cancelled') })]);
    expect(parseWebullTime('01/19/2024 15:59:12 EST'), '15:59:12 EST = 20:59:12Z').toBe('2024-01-19T20:59:12.000Z');
  });

  it('infers open/close from the running position (file is newest first)', () => {
    const byLine = (fragment: string) => result.transactions.find((row) => row.line === lineOf(fragment) && row.transaction.inferred !== true)?.transaction;
    const open = byLine('AAPL240119P00180000,Sell');
    expect([open?.type, open?.quantity, open?.priceMinor, open?.amountMinor]).toEqual(['SELL_TO_OPEN', 3, 21_500, 6_450_000]);
    expect(open?.tradeDate, '12/04/2023 10:32:12 EST').toBe('2023-12-04T15:32:12.000Z');
    expect(byLine('AAPL240119P00180000,Buy')?.type, 'a buy against a short position closes').toBe('BUY_TO_CLOSE');
    expect(byLine('SPY240315C00480000,Buy,Filled')?.type).toBe('BUY_TO_OPEN');
    const partial = byLine('Partially Filled');
    expect([partial?.type, partial?.quantity, partial?.priceMinor, partial?.amountMinor], 'a partial fill counts what filled: 5 × 239.98').toEqual([
      'BUY', 5, 2_399_800, -11_999_000,
    ]);
  });

  it('infers assignments where stock trades at the strike, expirations elsewhere, each with a warning', () => {
    // AAPL 180 P: sold 3, bought 1 back → 2 open at expiry 2024-01-19; 200 AAPL bought at 180 on 01/22 → assigned.
    // MSFT 360 P: 1 open, no MSFT stock → expired. AAPL 190 C: 1 open; 100 AAPL sold at 190 on 02/20 → assigned.
    // SPY 480 C: 2 long, expiry 2024-03-15 before the as-of date, no SPY stock → expired.
    expect(inferred(result).sort()).toEqual([
      'ASSIGNMENT 1 AAPL240216C00190000',
      'ASSIGNMENT 2 AAPL240119P00180000',
      'EXPIRATION 1 MSFT240119P00360000',
      'EXPIRATION 2 SPY240315C00480000',
    ]);
    expect(result.warnings).toHaveLength(4);
    const assignment = result.transactions.find((row) => row.transaction.symbol === 'AAPL240119P00180000' && row.transaction.inferred === true)?.transaction;
    expect(assignment?.tradeDate, 'expiration day at 16:00 New York').toBe('2024-01-19T21:00:00.000Z');
    expect(assignment?.amountMinor).toBe(0);
  });

  it('does not infer before an expiration has passed', () => {
    const early = parseWebull(text, { asOf: new Date('2024-03-01T12:00:00Z') });
    expect(inferred(early), 'SPY expires 2024-03-15, after the as-of date').not.toContain('EXPIRATION 2 SPY240315C00480000');
    expect(inferred(early)).toHaveLength(3);
  });

  it('Σ amount is the signed gross of the filled orders', () => {
    // +19000 + 180 − 36000 + 410 − 95 + 645 − 1280 − 1199.90 = −18339.90 (the inferred rows move no cash)
    expect(sumAmounts(result)).toBe(-183_399_000);
  });

  it('keeps ids on re-parse (inferred rows included) and reports a corrupted cell by line', () => {
    expectStableIds(parseWebull(text, {}), parseWebull(text, {}));
    const bad = parseWebull(text.replace('@4.10,4.10', '@4.10,4.1o'), { asOf });
    expect(bad.errors).toEqual([expect.objectContaining({ line: lineOf('MSFT240119P00360000') })]);
    expect(bad.errors[0]?.message).toMatch(/Avg Price/);
    const badTime = parseWebull(text.replace('12/15/2023 14:45:01 EST', '12/15/2023 25:45:01 EST'), { asOf });
    expect(badTime.errors[0]?.message).toMatch(/Filled Time/);
    const noSide = parseWebull(text.replace('Name,Symbol,Side,', 'Name,Symbol,Direction,'), { asOf });
    expect(noSide.errors[0]).toMatchObject({ line: 1 });
    expect(noSide.errors[0]?.message).toMatch(/Side/);
  });
});
