/**
 * Imported values outside sane ranges are line errors (docs/importers.md §Sane ranges; issue 16, finding 8): the
 * importers took years 0000 and 9999, a strike of 1e300 and a quantity of 1e-320, and the chain parsers alike.
 */
import { describe, expect, it } from 'vitest';
import { parseChainFile } from '../../../../../src-main/chains/index';
import { parseImport } from '../../../../../src-main/importers/index';

const OPTIONS = { accountName: 'Mine', asOf: new Date('2026-01-01T00:00:00Z') };
const HEADER = 'date,type,symbol,quantity,price,amount,expiration,strike,right,account';

function lineErrors(rows: string[]): Array<{ line: number; message: string }> {
  const parsed = parseImport(`${HEADER}\n${rows.join('\n')}\n`, 'generic', OPTIONS);
  if (!parsed.ok) throw new Error(parsed.detail);
  return parsed.result.errors;
}

describe('broker files: every importer hands its transactions through the same check', () => {
  it('refuses years outside 1900–2200, strikes ≤ 0 or > 1e7, quantities not 0 nor within 1e-9..1e12, each at its line', () => {
    const errors = lineErrors([
      '0000-01-02,BUY,PFE,1,1,-1,,,,',
      '9999-01-02,BUY,PFE,1,1,-1,,,,',
      '2024-01-02,SELL_TO_OPEN,PFE,1,1,100,2024-02-16,1e300,P,',
      '2024-01-02,BUY,PFE,1e-320,1,-1,,,,',
      '2024-01-02,BUY,PFE,1e13,1,-1,,,,',
      '2024-01-02,SELL_TO_OPEN,PFE,1,1,100,9999-02-16,28,P,',
      '2024-01-02,BUY,PFE,1,1,-1,,,,' + 'A'.repeat(300),
      '2024-01-02,BUY,PFE,1,1,-1,,,,ok',
    ]);
    expect(errors).toEqual([
      { line: 2, message: 'the date 0000-01-02 is outside the years 1900–2200' },
      { line: 3, message: 'the date 9999-01-02 is outside the years 1900–2200' },
      { line: 4, message: 'the strike 1e+300 is not above 0 and at most 10,000,000' },
      { line: 5, message: 'the quantity 1e-320 is not 0 or between 1e-9 and 1,000,000,000,000' },
      { line: 6, message: 'the quantity 10000000000000 is not 0 or between 1e-9 and 1,000,000,000,000' },
      { line: 7, message: 'the expiration 9999-02-16 is outside the years 1900–2200' },
      { line: 8, message: 'the accountName is 300 characters long (at most 200)' },
    ]);
  });

  it('refuses money beyond 100 billion a cell (sums of such values would no longer be exact)', () => {
    expect(lineErrors(['2024-01-02,DEPOSIT,,0,0,1e14,,,,'])).toEqual([{ line: 2, message: 'column "amount": amount out of range: "1e14"' }]);
    expect(lineErrors(['2024-01-02,DEPOSIT,,0,0,200000000000,,,,'])).toEqual([{ line: 2, message: 'the amount is beyond 100,000,000,000 (or not a number)' }]);
    expect(lineErrors(['2024-01-02,DEPOSIT,,0,0,99999999999.99,,,,']), 'just under the bound').toEqual([]);
  });
});

describe('chain files: strikes, open interest, IV, spot and dates within bounds', () => {
  const chain = (spot: string, rows: string[], quoteTime = '2024-01-05T16:00') =>
    parseChainFile(`# symbol: SPX\n# spot: ${spot}\n# quoteTime: ${quoteTime}\nexpiration,strike,right,openInterest,iv\n${rows.join('\n')}\n`);

  it('refuses each bad contract at its line', () => {
    const parsed = chain('100', ['2024-01-19,1e300,C,1,0.2', '9999-01-19,100,C,1,0.2', '2024-01-19,100,P,1e300,0.2', '2024-01-19,105,P,1,1000', '2024-01-19,110,P,1,0.2']);
    if (parsed.ok) throw new Error('expected a refusal');
    expect(parsed.errors.map((e) => [e.line, e.message.replace(/^.*?: /, '')])).toEqual([
      [5, 'the strike is not above 0 and at most 10,000,000'],
      [6, 'the expiration is outside the years 1900–2200'],
      [7, 'the open interest 1e+300 is not between 0 and 1,000,000,000'],
      [8, 'the IV 1000 is not between 0 and 100 (a decimal: 0.25 for 25%)'],
    ]);
  });

  it('refuses a spot above 1e7 and a quote time outside 1900–2200', () => {
    const spot = chain('1e300', ['2024-01-19,100,C,1,0.2']);
    expect(spot.ok ? [] : spot.errors.map((e) => e.message)).toEqual(['the spot 1e+300 is above 10,000,000']);
    const year = chain('100', ['2024-01-19,100,C,1,0.2'], '2999-01-05T16:00');
    expect(year.ok ? [] : year.errors.map((e) => e.message)).toEqual(['the quote time 2999-01-05T21:00:00Z is outside the years 1900–2200']);
  });

  it('refuses a symbol that is no ticker, as every route would (issue 29: `../../../ETC` was listed and unreachable)', () => {
    const named = (symbol: string) => parseChainFile(`# symbol: ${symbol}\n# spot: 100\n# quoteTime: 2024-01-05T16:00\nexpiration,strike,right,openInterest,iv\n2024-01-19,100,C,1,0.2\n`);
    const dots = named('../../../ETC');
    expect(dots.ok ? [] : dots.errors.map((e) => [e.param, e.message])).toEqual([['symbol', 'the symbol "/../../ETC" is not a ticker (a letter or digit, then up to 15 letters, digits or . _ / ^ -)']]);
    const long = named('A'.repeat(17));
    expect(long.ok ? [] : long.errors.map((e) => e.param)).toEqual(['symbol']);
    expect(named('BRK/B').ok, 'a class share is a ticker').toBe(true);
  });
});
