/**
 * Issue 17, tastytrade variants seen in real exports (self-written fixtures in their columns, docs/importers.md):
 * the tastyworks 2021–2023 layout (no Sub Type, Total or Currency) and futures, whose Value is the day's
 * mark-to-market cash. Every file is imported with auto-detection; figures are pinned by hand.
 */
import { describe, expect, it } from 'vitest';
import { parseImport } from '../../../../../src-main/importers/index';
import type { ParseResult } from '../../../../../src-main/importers/types';
import { brokerFixture, figures, ledgerFor, lineOf, minorOf, rowAt, sumAmounts, tableRows } from '../file-totals';

function detected(text: string): ParseResult {
  const outcome = parseImport(text, 'auto', {});
  if (!outcome.ok) throw new Error(outcome.detail);
  expect(outcome.result.broker).toBe('tastytrade');
  expect(outcome.result.errors).toEqual([]);
  return outcome.result;
}

describe('tastyworks 2021–2023 layout: Date,Type,Action,Symbol,Instrument Type,... (18 columns)', () => {
  const text = brokerFixture('tastytrade_tastyworks_2021_layout_selfwritten.csv');
  const result = detected(text);

  it('is detected without a broker named and reads every row, with no warning', () => {
    expect(result.rows).toBe(14);
    expect(result.transactions).toHaveLength(14);
    expect(result.skipped).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  it('reads the sub type from the description: expiration, assignment, dividend, interest, fee, wire', () => {
    const typeOf = (fragment: string) => rowAt(result, text, fragment).type;
    expect(typeOf('due to expiration')).toBe('EXPIRATION');
    expect(typeOf('due to assignment')).toBe('ASSIGNMENT');
    expect(typeOf('Buy to Open 100 QRS')).toBe('BUY');
    expect(typeOf('QRS INDUSTRIES')).toBe('DIVIDEND');
    expect(typeOf('INTEREST ON CREDIT BALANCE')).toBe('INTEREST');
    expect(typeOf('Regulatory fee adjustment')).toBe('FEE');
    expect(typeOf('Wire Funds Received')).toBe('DEPOSIT');
    expect(typeOf('Sold 1 QRS 12/17/21 Call')).toBe('SELL_TO_OPEN');
    expect(typeOf('Bought 1 QRS 12/23/21 Call')).toBe('BUY_TO_CLOSE');
  });

  it('a short sale and its cover are SELL_SHORT and BUY_TO_COVER', () => {
    expect(rowAt(result, text, 'Sold 10 XYZ').type).toBe('SELL_SHORT');
    expect(rowAt(result, text, 'Bought 10 XYZ').type).toBe('BUY_TO_COVER');
  });

  it('pins the 12/06 call by hand: 0.75 × 100 = 75.00 less 1.00 and 0.132, in USD, at 14:39 UTC', () => {
    const tx = rowAt(result, text, 'Sold 1 QRS 12/17/21 Call');
    expect([tx.symbol, tx.quantity, tx.priceMinor, tx.multiplier, tx.commissionMinor, tx.feesMinor, tx.amountMinor, tx.currency, tx.tradeDate]).toEqual([
      'QRS211217C00021000', 1, 7_500, 100, 10_000, 1_320, 738_680, 'USD', '2021-12-06T14:39:00.000Z',
    ]);
  });

  it('cash: Σ amount = Σ (Value − |Commissions| − |Fees|) of the file = 5,181.404 by hand', () => {
    const fromFile = tableRows(text, 'Value').reduce((sum, row) => sum + minorOf(row.Value ?? '') - Math.abs(minorOf(row.Commissions ?? '')) - Math.abs(minorOf(row.Fees ?? '')), 0);
    expect(sumAmounts(result)).toBe(fromFile);
    // 5,000 + 33.868 − 2,105 + 73.868 + 0.05 − 0.04 + 4.868 − 1.12 + 2,149.95 + 5 + 499.98 − 480.02
    expect(sumAmounts(result)).toBe(51_814_040);
  });

  it('realizes 111.48 on options and 64.91 on shares (hand-computed)', () => {
    const { optionsPL, stockPL, dividends } = figures(ledgerFor(result));
    // Put 35 − 1.132 (assigned: kept) + call 75 − 1.132 (expired) + call 6 − 1.132 bought back for 1.12 = 111.484,
    // which the summary gives to the cent.
    expect(optionsPL).toBe(1_114_800);
    // QRS: 2,150 − 0.05 − (2,100 + 5.00) = 44.95; XYZ short: 500 − 0.02 − (480 + 0.02) = 19.96.
    expect(stockPL).toBe(649_100);
    expect(dividends).toBe(50_000);
  });

  it('keeps the same row ids when re-read', () => {
    expect(detected(text).transactions.map((row) => row.transaction.brokerRowId)).toEqual(result.transactions.map((row) => row.transaction.brokerRowId));
  });
});

describe('tastytrade futures: Value is the mark-to-market cash, the trade is price × quantity × multiplier', () => {
  const text = brokerFixture('tastytrade_futures_mark_to_market_selfwritten.csv');
  const result = detected(text);

  it('reads the fill price from the description and the multiplier from the contract (/MES 5, /MNQ 2)', () => {
    const buy = rowAt(result, text, 'Bought 2 /MESZ5');
    expect([buy.type, buy.symbol, buy.quantity, buy.priceMinor, buy.multiplier, buy.amountMinor]).toEqual(['BUY', '/MESZ5', 2, 60_000_000, 5, -30_700]);
    const sell = rowAt(result, text, 'Sold 2 /MESZ5');
    expect([sell.type, sell.priceMinor, sell.multiplier, sell.amountMinor]).toEqual(['SELL', 59_840_000, 5, -1_630_700]);
    const short = rowAt(result, text, 'Sold 1 /MNQZ5');
    expect([short.type, short.priceMinor, short.multiplier]).toEqual(['SELL_SHORT', 250_000_000, 2]);
    expect(rowAt(result, text, 'Bought 1 /MNQZ5').type).toBe('BUY_TO_COVER');
    expect(result.warnings, 'the mark-to-market row is a known one').toEqual([]);
    expect(rowAt(result, text, 'Mark to market').type).toBe('OTHER');
  });

  it('the round trip that lost 166.14 realizes −166.14 (it read +153.86 from Value); the short one +97.76', () => {
    // /MES: (5,984 − 6,000) × 2 × 5 = −160.00, less 2 × (1.50 + 1.57) = 6.14 → −166.14.
    // /MNQ short: (25,000 − 24,950) × 1 × 2 = 100.00, less 2 × (0.75 + 0.37) = 2.24 → 97.76.
    const mes = figures(ledgerFor(result, (tx) => tx.symbol === '/MESZ5'));
    expect(mes.stockPL).toBe(-1_661_400);
    const mnq = figures(ledgerFor(result, (tx) => tx.symbol === '/MNQZ5'));
    expect(mnq.stockPL).toBe(977_600);
  });

  it("the realized figures equal the futures' cash (Total column) over each flat round trip", () => {
    const totalOf = (symbol: string) => tableRows(text, 'Total').filter((row) => row.Symbol === symbol).reduce((sum, row) => sum + minorOf(row.Total ?? ''), 0);
    expect(totalOf('/MESZ5')).toBe(-1_661_400);
    expect(totalOf('/MNQZ5')).toBe(977_600);
    expect(sumAmounts(result)).toBe(totalOf('/MESZ5') + totalOf('/MNQZ5'));
    expect(lineOf(text, 'Mark to market')).toBe(3);
  });
});
