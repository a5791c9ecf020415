/**
 * Issue 17, broker variants seen in real exports (self-written fixtures in each broker's columns; the real files
 * stay private): Robinhood's newest-first days and rounded share prices, old thinkorswim statements, E*TRADE
 * bills and bonds, IBKR adjusted options. Each file is imported with auto-detection and its figures pinned by
 * hand.
 */
import { describe, expect, it } from 'vitest';
import { parseImport } from '../../../src-main/importers/index';
import type { ParseResult } from '../../../src-main/importers/types';
import { allTime } from '../../unit/journal/helpers';
import { brokerFixture, figures, ledgerFor, minorOf, sumAmounts, tableRows } from './file-totals';

function detected(text: string, broker: string): ParseResult {
  const outcome = parseImport(text, 'auto', {});
  if (!outcome.ok) throw new Error(`${outcome.detail} ${JSON.stringify(outcome.errors)}`);
  expect(outcome.result.broker).toBe(broker);
  expect(outcome.result.errors).toEqual([]);
  return outcome.result;
}

describe('Robinhood: newest first, and a share lot costs its cash amount', () => {
  const text = brokerFixture('robinhood_newest_first_selfwritten.csv');
  const result = detected(text, 'robinhood');
  const byType = (type: string) => {
    const found = result.transactions.find((row) => row.transaction.type === type);
    if (found === undefined) throw new Error(`no ${type}`);
    return found.transaction;
  };

  it('reads the six rows; the disclaimer and the empty row are not rows', () => {
    expect(result.rows).toBe(6);
    expect(result.transactions).toHaveLength(6);
  });

  it('reads one day bottom-up: bought, sold to close, then sold to open (sequence)', () => {
    const seq = (type: string) => byType(type).sequence ?? -1;
    expect(seq('BUY_TO_OPEN')).toBeLessThan(seq('SELL_TO_CLOSE'));
    expect(seq('SELL_TO_CLOSE')).toBeLessThan(seq('SELL_TO_OPEN'));
  });

  it('keeps the 575.00 opening sale open: +99.69 realized on the long, a short of 5 calls left', () => {
    const ledger = ledgerFor(result);
    // Sold to close for 5 × 1.20 × 100 = 600.00 − 0.16, bought for 500.00 + 0.15: 99.69.
    expect(allTime(ledger).summary.optionsPL).toBe(99.69);
    const open = ledger.positions.filter((p) => p.isOption);
    expect(open.map((p) => [p.symbol, p.quantity, p.entryGrossMinor]), 'the sale to open: 5 × 1.15 × 100 = 575.00').toEqual([['OPEN251121C00009000', -5, 5_750_000]]);
  });

  it('prices the share lot from its Amount (12.3498, not the rounded 12.35): 64.99 realized, not 64.97', () => {
    const buy = byType('BUY');
    expect([buy.priceMinor, buy.feesMinor, buy.amountMinor]).toEqual([123_498, 0, -12_349_800]);
    const sell = byType('SELL');
    expect([sell.priceMinor, sell.feesMinor], 'the 0.03 under 100 × 13.00 is a fee').toEqual([130_000, 300]);
    // 1,299.97 received − 1,234.98 paid.
    expect(figures(ledgerFor(result)).stockPL).toBe(649_900);
  });

  it('Σ amount = Σ Amount of the file', () => {
    expect(sumAmounts(result)).toBe(tableRows(text, 'Trans Code').reduce((sum, row) => sum + minorOf(row.Amount ?? ''), 0));
  });
});
