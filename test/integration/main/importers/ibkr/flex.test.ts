/**
 * An IBKR Flex Query whose Trades fields leave out Symbol and name each security by ISIN (issue 28, item 4): read,
 * shares taking the ticker the file gives beside their ISIN (an option's UnderlyingSecurityID and UnderlyingSymbol,
 * a dividend's `AAPL(US0378331005)`), options read from their Description; a query that names a security by
 * nothing at all is refused with what is missing. Figures written out by hand from the rows.
 */
import { describe, expect, it } from 'vitest';
import { parseImport } from '../../../../../src-main/importers/index';
import type { ParseResult } from '../../../../../src-main/importers/types';
import { brokerFixture, ledgerFor } from '../file-totals';

const text = brokerFixture('ibkr_flex_isin_selfwritten.csv');

function parsed(input: string): ParseResult {
  const outcome = parseImport(input, 'auto', {});
  if (!outcome.ok) throw new Error(outcome.detail);
  return outcome.result;
}

describe('IBKR Flex Query keyed by ISIN, without a Symbol column', () => {
  const result = parsed(text);

  it('is read: options from their Description, AAPL shares by the ticker beside their ISIN, SAP by its ISIN', () => {
    expect(result.broker).toBe('ibkr');
    expect(result.errors).toEqual([]);
    expect(result.transactions.map((row) => [row.transaction.type, row.transaction.symbol])).toEqual([
      ['SELL_TO_OPEN', 'AAPL240119P00180000'],
      ['ASSIGNMENT', 'AAPL240119P00180000'],
      ['BUY', 'AAPL'],
      ['SELL', 'AAPL'],
      ['BUY', 'DE0007164600'],
      ['SELL', 'DE0007164600'],
      ['DIVIDEND', 'AAPL'],
    ]);
    expect(result.warnings.map((w) => w.message)).toEqual([
      'the Flex query has no Symbol column: shares of 1 security are named by ISIN (DE0007164600), apart from options on them; add Symbol to the query\'s Trades fields for tickers',
    ]);
  });

  it('books the wheel and the EUR round trip by hand, and ends flat', () => {
    const ledger = ledgerFor(result);
    expect(ledger.positions).toEqual([]);
    expect(ledger.unmatched).toEqual([]);
    const usd = result.transactions.filter((row) => row.transaction.currency === 'USD').map((row) => row.transaction.brokerRowId);
    const realized = (ids: readonly string[]): number =>
      [...ledger.realizedByTx.entries()].filter(([id]) => ids.some((own) => id.includes(own))).reduce((sum, [, pnl]) => sum + pnl, 0);
    // The put: 430 − 1.3046 = 428.6954, assigned. The shares: 37,900 − 0.70 − 1.02 − 36,000 = 1,898.28.
    expect(realized(usd)).toBe(4_286_954 + 18_982_800);
    // SAP: 858 − 3 − (695.10 + 3) = 156.90 EUR.
    expect(realized(['2318821006'])).toBe(1_569_000);
  });

  it('names what is missing when nothing names a security', () => {
    const outcome = parseImport(text.replace('"ISIN"', '"Exchange"'), 'auto', {});
    if (!outcome.ok) throw new Error(outcome.detail);
    expect(outcome.result.errors).toEqual([{ line: 1, message: 'the Flex trades header lacks the column Symbol or ISIN or SecurityID or CUSIP' }]);
  });

  it('refuses a share row whose ISIN is empty, at its line', () => {
    const outcome = parseImport(text.replace('"STK","DE0007164600","SAP SE","","","","","","1","20240108"', '"STK","","SAP SE","","","","","","1","20240108"'), 'auto', {});
    if (!outcome.ok) throw new Error(outcome.detail);
    expect(outcome.result.errors.map((e) => e.line)).toEqual([6]);
    expect(outcome.result.errors[0]?.message).toContain('nothing names the security');
  });
});
