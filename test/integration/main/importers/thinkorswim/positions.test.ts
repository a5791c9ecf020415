/**
 * Short sales written as plain sales (issue 28, item 4): a thinkorswim statement whose stock fills have no Account
 * Trade History leg books them from Cash Balance as `SOLD -500 XYZ @20.00` — a plain sale, which never opens a short
 * (docs/journal.md §Unmatched closes). The statement's own end says the account was short: its Equities section
 * (ABC −200; XYZ not listed, so flat) and its Profits and Losses (XYZ's Mark Value 0, ABC's negative). Every figure
 * below is read from the file or written out by hand.
 */
import { describe, expect, it } from 'vitest';
import { thinkorswimImporter } from '../../../../../src-main/importers/thinkorswim/index';
import type { ParseResult } from '../../../../../src-main/importers/types';
import { brokerFixture, ledgerFor, minorOf, tableRows } from '../file-totals';

const text = brokerFixture('thinkorswim_statement_short_sales_selfwritten.csv');
const parse = (input: string): ParseResult => thinkorswimImporter.parse(input, {});

/** The stock positions the journal holds after the import, symbol → signed shares. */
function stockPositions(result: ParseResult): Record<string, number> {
  return Object.fromEntries(ledgerFor(result).positions.filter((p) => !p.isOption).map((p) => [p.symbol, p.quantity]));
}

/** Realized P&L of every row that closed something, in minor units (the summaries round to cents). */
function realizedMinor(result: ParseResult): number {
  return [...ledgerFor(result).realizedByTx.values()].reduce((sum, pnl) => sum + pnl, 0);
}

/** The rows of a section as name → cell maps: from its header (the line after its title) to the next blank line. */
function sectionRows(input: string, title: string): Array<Record<string, string>> {
  const lines = input.split('\n');
  const start = lines.indexOf(title);
  const end = lines.indexOf('', start);
  const body = lines.slice(start + 1, end).join('\n');
  return tableRows(body, (lines[start + 1] ?? '').split(',')[0] ?? '');
}

/** Drops a section (its title line to the next blank line). */
function withoutSection(input: string, title: string): string {
  const lines = input.split('\n');
  const start = lines.indexOf(title);
  const end = lines.indexOf('', start);
  return [...lines.slice(0, start), ...lines.slice(end + 1)].join('\n');
}

describe('thinkorswim: short sales written as plain sales, read from the statement’s end', () => {
  const result = parse(text);
  const overall = tableRows(text, 'P/L YTD').find((row) => row.Description === 'OVERALL TOTALS') ?? {};
  const statedRealizedGross = minorOf(overall['P/L YTD'] ?? '') - minorOf(overall['P/L Open'] ?? '');

  it('holds what the Equities section holds: ABC −200, XYZ flat (not a phantom long of 500 and 100)', () => {
    expect(result.errors).toEqual([]);
    const equities = sectionRows(text, 'Equities').filter((row) => row.Symbol !== '');
    expect(equities.map((row) => [row.Symbol, Number(row.Qty)])).toEqual([['ABC', -200]]);
    expect(stockPositions(result)).toEqual({ ABC: -200 });
    expect(ledgerFor(result).unmatched, 'no sale is left without its opening').toEqual([]);
  });

  it('types the sales beyond the holding SELL_SHORT and the buys that bring them back BUY_TO_COVER', () => {
    const types = result.transactions.map((row) => [row.transaction.symbol, row.transaction.type, row.transaction.quantity]);
    expect(types.filter(([symbol]) => symbol === 'XYZ' || symbol === 'ABC')).toEqual([
      ['XYZ', 'SELL_SHORT', 500],
      ['XYZ', 'BUY_TO_COVER', 500],
      ['ABC', 'SELL_SHORT', 300],
      ['ABC', 'BUY_TO_COVER', 100],
    ]);
  });

  it('books the realized P&L the statement states: P/L YTD 480.00 − P/L Open 180.00 = 300.00 before costs', () => {
    expect(statedRealizedGross).toBe(3_000_000);
    // By hand: XYZ 500 × (20.00 − 19.80) − 0.23 (the sale's fee) = 99.77; ABC 100 × (50.00 − 48.00) less the open
    // sale's 0.41 fee prorated to the 100 shares covered (0.1367) = 199.8633.
    const realized = realizedMinor(result);
    expect(realized).toBe(997_700 + 1_998_633);
    // The statement's P/L is before commissions and fees: the journal's plus the costs of the lots it closed.
    expect(realized + 2_300 + 1_367).toBe(statedRealizedGross);
  });

  it('reads the same from the Profits and Losses section alone (XYZ Mark Value 0: flat; ABC negative: short)', () => {
    const reread = parse(withoutSection(text, 'Equities'));
    expect(stockPositions(reread)).toEqual({ ABC: -200 });
    expect(realizedMinor(reread)).toBe(997_700 + 1_998_633);
  });

  it('keeps a sale of shares held before the statement a sale (Equities shows ABC long 100 at the end)', () => {
    const reread = parse(text.replace('ABC,ABC CORP COM,-200,50.00,49.10,"($9,820.00)"', 'ABC,ABC CORP COM,+100,48.00,49.10,"$4,910.00"'));
    // Held before = 100 at the end less the statement's −200: 300, all sold (an unmatched close), then 100 bought.
    const abc = reread.transactions.map((row) => row.transaction).filter((tx) => tx.symbol === 'ABC');
    expect(abc.map((tx) => tx.type)).toEqual(['SELL', 'BUY']);
    expect(stockPositions(reread).ABC).toBe(100);
  });

  it('without a statement of the end, a sale beyond the holding stays an unmatched close (docs/journal.md)', () => {
    const bare = parse(withoutSection(withoutSection(text, 'Equities'), 'Profits and Losses'));
    expect(bare.transactions.map((row) => row.transaction.type).filter((type) => type !== 'INTEREST')).toEqual(['SELL', 'BUY', 'SELL', 'BUY']);
    const ledger = ledgerFor(bare);
    expect(ledger.unmatched.map((u) => [u.symbol, u.quantity])).toEqual([['XYZ', 500], ['ABC', 300]]);
  });

  it('splits a sale that is partly of shares held and partly short, its cash prorated exactly', () => {
    // ABC held 100 before the statement (the end shows −100 after −200 of the statement's own): 100 sold, 200 short.
    const reread = parse(text.replace('ABC,ABC CORP COM,-200,50.00,49.10,"($9,820.00)"', 'ABC,ABC CORP COM,-100,50.00,49.10,"($4,910.00)"'));
    const abc = reread.transactions.filter((row) => row.transaction.symbol === 'ABC');
    expect(abc.map((row) => [row.transaction.type, row.transaction.quantity, row.line])).toEqual([
      ['SELL', 100, 10],
      ['SELL_SHORT', 200, 10],
      ['BUY_TO_COVER', 100, 11],
    ]);
    const [sold, short] = abc.map((row) => row.transaction);
    expect((sold?.amountMinor ?? 0) + (short?.amountMinor ?? 0), 'the two parts add up to the row: 15,000.00 − 0.41').toBe(149_995_900);
    expect(sold?.feesMinor, '0.41 × 100/300').toBe(1_367);
    expect(new Set(reread.transactions.map((row) => row.transaction.brokerRowId)).size).toBe(reread.transactions.length);
    expect(stockPositions(reread)).toEqual({ ABC: -100 });
  });
});
