import { describe, expect, it } from 'vitest';
import { asOfDate, fidelityImporter, parseFidelity, parseFidelityOption } from '../../../../../src-main/importers/fidelity';
import { brokerFixture, lineOf as lineIn, rowAt, sumAmounts, expectDetectedClean, expectStableIds } from '../file-totals';

// Self-written from Fidelity's documented "Accounts history" layout: no public sample exists.
const text = brokerFixture('fidelity_accounts_history_selfwritten.csv');
const lineOf = (fragment: string): number => lineIn(text, fragment);

describe('Fidelity accounts history (self-written fixture)', () => {
  const result = parseFidelity(text, {});
  const at = (fragment: string) => rowAt(result, text, fragment);

  it('finds the header after the blank lines and ignores the disclaimer', () => {
    expectDetectedClean(fidelityImporter, text, result);
    expect(result.rows, '14 data lines between the header and the disclaimer').toBe(14);
  });

  it('parses option symbols and "as of" dates', () => {
    expect(parseFidelityOption(' -AAPL240119C190')?.symbol, 'AAPL 2024-01-19 call 190').toBe('AAPL240119C00190000');
    expect(parseFidelityOption('-SPY240119P452.5')?.symbol).toBe('SPY240119P00452500');
    expect(asOfDate('ASSIGNED as of Jan-19-2024 PUT (AAPL)')).toBe('2024-01-19');
    expect(asOfDate('YOU BOUGHT ASSIGNED PUTS AS OF 01-19-24 APPLE INC')).toBe('2024-01-19');
  });

  it('pins the opening sale, its partial close and the assignment with its stock leg', () => {
    const open = at('YOU SOLD OPENING TRANSACTION PUT (AAPL)');
    expect([open.type, open.symbol, open.quantity, open.priceMinor, open.commissionMinor, open.feesMinor, open.amountMinor]).toEqual([
      'SELL_TO_OPEN', 'AAPL240119P00180000', 2, 21_500, 13_000, 400,
      4_286_600, // 2 × 2.15 × 100 − 1.30 − 0.04 = 428.66
    ]);
    expect(open.tradeDate, '12/04/2023, no time: 16:00 New York (EST) = 21:00Z').toBe('2023-12-04T21:00:00.000Z');
    const close = at('YOU BOUGHT CLOSING TRANSACTION PUT (AAPL)');
    expect([close.type, close.quantity, close.amountMinor]).toEqual(['BUY_TO_CLOSE', 1, -956_700]);
    const assigned = at('ASSIGNED as of Jan-19-2024 PUT (AAPL)');
    expect([assigned.type, assigned.symbol, assigned.quantity, assigned.amountMinor]).toEqual(['ASSIGNMENT', 'AAPL240119P00180000', 1, 0]);
    expect(assigned.tradeDate, 'the "as of" date (Jan 19), not the run date (01/22)').toBe('2024-01-19T21:00:00.000Z');
    const shares = at('YOU BOUGHT ASSIGNED PUTS');
    expect([shares.type, shares.symbol, shares.quantity, shares.priceMinor, shares.amountMinor]).toEqual(['BUY', 'AAPL', 100, 1_800_000, -180_000_000]);
    expect(shares.tradeDate).toBe(assigned.tradeDate);
    const expired = at('EXPIRED PUT (MSFT)');
    expect([expired.type, expired.symbol, expired.tradeDate]).toEqual(['EXPIRATION', 'MSFT240119P00360000', '2024-01-19T21:00:00.000Z']);
    const called = at('YOU SOLD ASSIGNED CALLS');
    expect([called.type, called.quantity, called.priceMinor, called.feesMinor, called.amountMinor]).toEqual(['SELL', 100, 1_900_000, 400, 189_999_600]);
  });

  it('maps cash rows and keeps an unknown action as OTHER with a warning', () => {
    const counts: Record<string, number> = {};
    for (const row of result.transactions) counts[row.transaction.type] = (counts[row.transaction.type] ?? 0) + 1;
    expect(counts).toEqual({
      SELL: 1, ASSIGNMENT: 2, DIVIDEND: 1, SELL_TO_OPEN: 3, EXPIRATION: 1, BUY: 1, INTEREST: 1, BUY_TO_CLOSE: 1, DEPOSIT: 1, FEE: 1, OTHER: 1,
    });
    expect(result.warnings).toEqual([expect.objectContaining({ line: lineOf('JOURNALED SPP') })]);
  });

  it('Σ amount equals the Amount ($) column added by hand', () => {
    // 18999.96 + 0 + 24 + 179.33 + 0 − 18000 + 0 + 3.17 − 95.67 + 409.33 + 428.66 + 25000 − 20 + 0.50 = 26929.28
    expect(sumAmounts(result)).toBe(269_292_800);
  });

  it('keeps ids on re-parse and reports bad cells, missing columns and truncation by line', () => {
    expectStableIds(result, parseFidelity(text, {}));
    const bad = parseFidelity(text.replace('-1,1.80,0.65,0.02,,179.33', '-1,1.80,0.65,0.02,,17x9.33'), {});
    expect(bad.errors).toEqual([expect.objectContaining({ line: lineOf('YOU SOLD OPENING TRANSACTION CALL (AAPL)') })]);
    expect(bad.errors[0]?.message).toMatch(/Amount/);
    const badDate = parseFidelity(text.replace('12/15/2023,', '12/45/2023,'), {});
    expect(badDate.errors[0]?.line).toBe(lineOf('YOU BOUGHT CLOSING TRANSACTION'));
    const noAmount = parseFidelity(text.replace('Accrued Interest ($),Amount ($)', 'Accrued Interest ($),Total'), {});
    expect(noAmount.errors[0]).toMatchObject({ line: 3 });
    expect(noAmount.errors[0]?.message).toMatch(/Amount/);
    const cut = parseFidelity(text.slice(0, text.indexOf('12/05/2023,') + 30), {});
    expect(cut.errors[0]?.line, 'the cut row starts inside its quoted action').toBe(lineOf('12/05/2023,'));
  });
});
