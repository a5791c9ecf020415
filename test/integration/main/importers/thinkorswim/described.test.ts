/**
 * Older TD Ameritrade statements (issue 28, item 4): no Account Trade History, so every option fill is only a Cash
 * Balance description — `SOLD -1 VERTICAL SPY 100 16 JAN 15 205/200 PUT @.95`, `BOT +1 SPY 100 (Weeklys) 9 JAN 15 200
 * CALL @1.05`, an iron condor, a strangle — and every expiration a `REMOVAL OF OPTION DUE TO EXPIRATION [quantity]`
 * that names no option. They were kept as OTHER with a warning each, and their P&L was nowhere. The statement states
 * its own end (Options empty: flat), its P/L (OVERALL TOTALS) and its cash (TOTAL): the journal must make each.
 */
import { describe, expect, it } from 'vitest';
import { thinkorswimImporter } from '../../../../../src-main/importers/thinkorswim/index';
import type { ParseResult } from '../../../../../src-main/importers/types';
import { amountSum, brokerFixture, expectStableIds, ledgerFor, minorOf, tableRows } from '../file-totals';

const text = brokerFixture('thinkorswim_statement_old_tda_options_selfwritten.csv');
const parse = (input: string): ParseResult => thinkorswimImporter.parse(input, {});

/** `[type, symbol, quantity]` of each transaction made from a line. */
function legsAt(result: ParseResult, line: number): Array<[string, string, number]> {
  return result.transactions.filter((row) => row.line === line).map((row) => [row.transaction.type, row.transaction.symbol, row.transaction.quantity]);
}

describe('thinkorswim: an older TD Ameritrade statement whose options are only written in Cash Balance', () => {
  const result = parse(text);

  it('reads every option fill and removal, with no warning and no OTHER row', () => {
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.transactions.filter((row) => row.transaction.type === 'OTHER')).toEqual([]);
  });

  it('splits each spread into its legs, the first strike taking the order’s side', () => {
    expect(legsAt(result, 8), 'SOLD -1 VERTICAL 205/200 PUT').toEqual([
      ['SELL_TO_OPEN', 'SPY150116P00205000', 1],
      ['BUY_TO_OPEN', 'SPY150116P00200000', 1],
    ]);
    expect(legsAt(result, 9), 'BOT +1 SPY 100 (Weeklys) 9 JAN 15 200 CALL').toEqual([['BUY_TO_OPEN', 'SPY150109C00200000', 1]]);
    expect(legsAt(result, 11), 'the call sold back: it closes').toEqual([['SELL_TO_CLOSE', 'SPY150109C00200000', 1]]);
    expect(legsAt(result, 12), 'SOLD -2 IRON CONDOR 215/220/190/185 CALL/PUT').toEqual([
      ['SELL_TO_OPEN', 'SPY150130C00215000', 2],
      ['BUY_TO_OPEN', 'SPY150130C00220000', 2],
      ['SELL_TO_OPEN', 'SPY150130P00190000', 2],
      ['BUY_TO_OPEN', 'SPY150130P00185000', 2],
    ]);
    expect(legsAt(result, 13), 'BOT +1 VERTICAL 205/200 PUT closes the first').toEqual([
      ['BUY_TO_CLOSE', 'SPY150116P00205000', 1],
      ['SELL_TO_CLOSE', 'SPY150116P00200000', 1],
    ]);
    expect(legsAt(result, 15), 'SOLD -1 STRANGLE 212/195 CALL/PUT').toEqual([
      ['SELL_TO_OPEN', 'SPY150130C00212000', 1],
      ['SELL_TO_OPEN', 'SPY150130P00195000', 1],
    ]);
    expect(legsAt(result, 16), 'BOT +2 VERTICAL 215/220 CALL closes the condor’s calls').toEqual([
      ['BUY_TO_CLOSE', 'SPY150130C00215000', 2],
      ['SELL_TO_CLOSE', 'SPY150130C00220000', 2],
    ]);
  });

  it('puts each spread’s cash and commissions on its legs so that they add up to the row', () => {
    const condor = result.transactions.filter((row) => row.line === 12).map((row) => row.transaction);
    expect(condor.reduce((sum, tx) => sum + tx.amountMinor, 0), '220.00 − 6.00').toBe(2_140_000);
    expect(condor.reduce((sum, tx) => sum + tx.commissionMinor, 0)).toBe(60_000);
    expect(condor[0]?.priceMinor, 'the net price on the first leg').toBe(11_000);
  });

  it('matches each removal that names no option to the leg it removes, by date and quantity', () => {
    expect(legsAt(result, 14), 'the 198 put of 16 JAN, booked Saturday').toEqual([['EXPIRATION', 'SPY150116P00198000', 1]]);
    const removed = [18, 19, 20, 21].flatMap((line) => legsAt(result, line));
    expect(removed.map(([type]) => type)).toEqual(['EXPIRATION', 'EXPIRATION', 'EXPIRATION', 'EXPIRATION']);
    expect(removed.map(([, symbol, quantity]) => `${symbol}×${quantity}`).sort()).toEqual([
      'SPY150130C00212000×1',
      'SPY150130P00185000×2',
      'SPY150130P00190000×2',
      'SPY150130P00195000×1',
    ]);
  });

  it('ends flat, as its Options section says, and books its P/L: 475.00 before costs (OVERALL TOTALS)', () => {
    expect(ledgerFor(result).positions).toEqual([]);
    expect(ledgerFor(result).unmatched).toEqual([]);
    const overall = tableRows(text, 'P/L YTD').find((row) => row.Description === 'OVERALL TOTALS') ?? {};
    const stated = minorOf(overall['P/L YTD'] ?? '') - minorOf(overall['P/L Open'] ?? '');
    // By hand: the put vertical 95 − 40 = 55, the weekly call 165 − 105 = 60, the 198 put 50 expired, the condor 220
    // less 30 for its calls = 190, the strangle 120 expired.
    expect(stated).toBe((55 + 60 + 50 + 190 + 120) * 10_000);
    const realized = [...ledgerFor(result).realizedByTx.values()].reduce((sum, pnl) => sum + pnl, 0);
    const costs = result.transactions.reduce((sum, row) => sum + row.transaction.commissionMinor + row.transaction.feesMinor, 0);
    expect(costs, 'the TOTAL row’s Commissions & Fees').toBe(157_500);
    expect(realized + costs).toBe(stated);
    const positions = result.statements.filter((s) => s.what === 'position');
    expect(positions.length, 'each contract traded, stated flat').toBe(10);
    expect(positions.every((s) => s.quantity === 0)).toBe(true);
  });

  it('keeps the cash of the TOTAL row (475.12 − 15.75 = 5,459.37 − 5,000.00)', () => {
    const cash = tableRows(text, 'BALANCE');
    const opening = minorOf(cash.find((row) => row.TYPE === 'BAL')?.BALANCE ?? '');
    const closing = minorOf(cash.find((row) => row.DESCRIPTION === 'TOTAL')?.BALANCE ?? '');
    expect(amountSum(result)).toBe(closing - opening);
    expect(result.statements.find((s) => s.what === 'cash_total')?.valueMinor).toBe(closing - opening);
  });

  it('re-parsing gives identical, unique brokerRowIds', () => {
    expectStableIds(result, parse(text));
  });

  it('still warns on a strategy it does not split (a ratio spread), keeping the row’s cash as OTHER', () => {
    const ratio = parse(text.replace('SOLD -1 STRANGLE SPY 100 30 JAN 15 212/195 CALL/PUT @1.20', 'SOLD -1/2 BACKRATIO SPY 100 30 JAN 15 212/215 CALL @1.20'));
    expect(ratio.transactions.find((row) => row.line === 15)?.transaction.type).toBe('OTHER');
    expect(ratio.warnings.map((w) => w.line)).toContain(15);
  });
});
