/**
 * Rows kept as OTHER that carry cash (issue 28, item 5): an older TD statement's option trades sat as OTHER, their P&L
 * nowhere, while the import said "Ready". The pipeline says so in one warning per currency with the total and the
 * lines; rows an importer knows and keeps as OTHER on purpose (a futures mark-to-market) are not counted.
 */
import { describe, expect, it } from 'vitest';
import { parseImport } from '../../../../src-main/importers/index';
import { brokerFixture } from '../../../integration/main/importers/file-totals';

describe('warnOtherCash', () => {
  it('sums the cash of the rows kept as OTHER that the importer did not read, with their lines', () => {
    const text = brokerFixture('thinkorswim_statement_old_tda_options_selfwritten.csv')
      .replace('SOLD -1 STRANGLE SPY 100 30 JAN 15 212/195 CALL/PUT @1.20,-1.50,120.00', 'SOLD -1/2 BACKRATIO SPY 100 30 JAN 15 212/215 CALL @1.20,-1.50,120.00')
      .replace('SOLD -1 SPY 100 (Weeklys) 9 JAN 15 200 CALL @1.65,-0.75,165.00', 'SOLD -1 COMBO SPY 100 (Weeklys) 9 JAN 15 200 CALL/PUT @1.65,-0.75,165.00');
    const outcome = parseImport(text, 'auto', {});
    if (!outcome.ok) throw new Error(outcome.detail);
    // 120.00 − 1.50 (line 15) and 165.00 − 0.75 (line 11): 282.75 of cash in no P&L figure.
    expect(outcome.result.warnings.filter((w) => w.line === null).map((w) => w.message)).toEqual([
      "2 rows kept as OTHER carry 282.75 USD of cash (lines 11, 15): counted in the account's cash, in no P&L figure; check what they are",
    ]);
  });

  it('says nothing when every row was read', () => {
    const outcome = parseImport(brokerFixture('thinkorswim_statement_old_tda_options_selfwritten.csv'), 'auto', {});
    if (!outcome.ok) throw new Error(outcome.detail);
    expect(outcome.result.warnings).toEqual([]);
  });

  it('leaves out rows an importer keeps as OTHER on purpose (tastytrade futures mark-to-market)', () => {
    const outcome = parseImport(brokerFixture('tastytrade_futures_mark_to_market_selfwritten.csv'), 'auto', {});
    if (!outcome.ok) throw new Error(outcome.detail);
    expect(outcome.result.transactions.some((row) => row.transaction.type === 'OTHER' && row.transaction.amountMinor !== 0)).toBe(true);
    expect(outcome.result.warnings).toEqual([]);
  });
});
