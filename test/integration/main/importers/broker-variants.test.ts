/**
 * Issue 17, broker variants seen in real exports (self-written fixtures in each broker's columns; the real files
 * stay private): Robinhood's newest-first days and rounded share prices, old thinkorswim statements, E*TRADE
 * bills and bonds, IBKR adjusted options. Each file is imported with auto-detection and its figures pinned by
 * hand.
 */
import { describe, expect, it } from 'vitest';
import { parseImport } from '../../../../src-main/importers/index';
import type { ParseResult } from '../../../../src-main/importers/types';
import { allTime } from '../../../journal-helpers';
import { brokerFixture, figures, ledgerFor, minorOf, rowAt, sumAmounts, tableRows } from './file-totals';

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

describe('thinkorswim: an older TD Ameritrade statement (no REF # or Misc Fees; removals that name no option)', () => {
  const text = brokerFixture('thinkorswim_statement_old_tda_selfwritten.csv');
  const result = detected(text, 'thinkorswim');
  const at = (line: number) => {
    const row = result.transactions.find((candidate) => candidate.line === line);
    if (row === undefined) throw new Error(`no transaction at line ${line}`);
    return row.transaction;
  };

  it('reads it without the two columns: 9 cash rows and 5 fills, each fill on its cash row', () => {
    expect(result.rows).toBe(14);
    expect(result.transactions).toHaveLength(9);
    expect(result.warnings).toEqual([]);
    expect(result.transactions.map((row) => row.transaction.orderId), 'no REF # column: no order ids').toEqual(Array(9).fill(null));
    expect([at(25).type, at(25).commissionMinor, at(25).amountMinor], 'SPY put (Trade History line 25): 170.00 less 3.80').toEqual(['SELL_TO_OPEN', 38_000, 1_662_000]);
  });

  it('places each removal by its date and quantity on the option the statement holds', () => {
    // Line 13 removes 2: the two SPY puts (the SPY call is 1 contract), expired Friday 1/19 and booked Monday 1/22.
    expect([at(13).type, at(13).symbol, at(13).quantity, at(13).multiplier]).toEqual(['EXPIRATION', 'SPY180119P00260000', 2, 100]);
    expect([at(14).type, at(14).symbol, at(14).quantity]).toEqual(['EXPIRATION', 'SPY180119C00285000', 1]);
    // Line 16 says no quantity: the AAPL put is the only option left, expired 2/16, booked 2/20.
    expect([at(16).type, at(16).symbol, at(16).quantity]).toEqual(['EXPIRATION', 'AAPL180216P00160000', 1]);
  });

  it('a short sale and its cover are SELL_SHORT and BUY_TO_COVER', () => {
    expect([at(21).type, at(22).type]).toEqual(['BUY_TO_COVER', 'SELL_SHORT']);
  });

  it('realizes 351.40 on options and 36.10 on shares; Σ cash = the balance change, 387.92', () => {
    const { optionsPL, stockPL } = figures(ledgerFor(result));
    // 170 − 3.80 + 40 − 2.40 + 150 − 2.40, all three expired.
    expect(optionsPL).toBe(3_514_000);
    // Short 50 XYZ at 20.00, covered at 19.00: 1,000 − 6.95 − (950 + 6.95).
    expect(stockPL).toBe(361_000);
    expect(sumAmounts(result)).toBe(minorOf('10,387.92') - minorOf('10,000.00'));
    expect(ledgerFor(result).positions, 'nothing left open').toEqual([]);
  });

  it('a removal that no position fits is kept as OTHER with one warning', () => {
    const broken = text.replace('REMOVAL OF OPTION DUE TO EXPIRATION 1,', 'REMOVAL OF OPTION DUE TO EXPIRATION 3,');
    const parsed = detected(broken, 'thinkorswim');
    expect(parsed.transactions.find((row) => row.line === 14)?.transaction.type).toBe('OTHER');
    expect(parsed.warnings.map((w) => w.line)).toEqual([14]);
    expect(parsed.warnings[0]?.message).toContain('names no option');
  });
});

describe('E*TRADE: bills and bonds priced in percent of par, short sales', () => {
  const text = brokerFixture('etrade_bills_bonds_selfwritten.csv');
  const result = detected(text, 'etrade');
  it('reads the quantity as face value (bill: × 0.01) or as bonds of 1,000 face (note: × 10), from the cash', () => {
    const bill = rowAt(result, text, '03/01/24,Bought');
    // 99.5 % of 10,000 face = 9,950.00: the basis, not 99.5 × 10,000 = 995,000.
    expect([bill.type, bill.quantity, bill.priceMinor, bill.multiplier]).toEqual(['BUY', 10_000, 995_000, 0.01]);
    const note = rowAt(result, text, '02/01/24,Bought');
    expect([note.quantity, note.priceMinor, note.multiplier], '99.8 × 5 × 10 = 4,990.00').toEqual([5, 998_000, 10]);
    const redemption = rowAt(result, text, 'Redemption');
    expect([redemption.type, redemption.quantity, redemption.multiplier]).toEqual(['SELL', 10_000, 0.01]);
    expect(result.warnings).toEqual([]);
  });

  it('a short sale and its cover are SELL_SHORT and BUY_TO_COVER', () => {
    expect([rowAt(result, text, 'Sold Short').type, rowAt(result, text, 'Bought To Cover').type]).toEqual(['SELL_SHORT', 'BUY_TO_COVER']);
  });

  it('realizes 112.48: the bill 50.00, the note 22.50, the short 39.98', () => {
    // Bill: 10,000.00 at maturity − 9,950.00. Note: 5,012.50 − 4,990.00. XYZ: 999.98 − 960.00.
    expect(figures(ledgerFor(result)).stockPL).toBe(1_124_800);
    expect(figures(ledgerFor(result, (tx) => tx.symbol === '912797GL5')).stockPL).toBe(500_000);
    expect(ledgerFor(result).positions).toEqual([]);
  });
});

describe('IBKR Activity Statement: adjusted options carry the statement\'s own multiplier; short sales', () => {
  const text = brokerFixture('ibkr_activity_adjusted_options_selfwritten.csv');
  const result = detected(text, 'ibkr');

  it('takes OPEN1 at 50 from Financial Instrument Information, XYZ1 at 10 from its own proceeds', () => {
    const open1 = result.transactions.filter((row) => row.transaction.symbol.startsWith('OPEN1')).map((row) => row.transaction);
    expect(open1.map((tx) => [tx.type, tx.symbol, tx.underlying, tx.multiplier, tx.quantity, tx.priceMinor])).toEqual([
      ['SELL_TO_OPEN', 'OPEN1251017C00009000', 'OPEN', 50, 2, 15_000],
      ['EXPIRATION', 'OPEN1251017C00009000', 'OPEN', 50, 2, 0],
    ]);
    const xyz1 = result.transactions.filter((row) => row.transaction.symbol.startsWith('XYZ1')).map((row) => row.transaction);
    // 20.00 of proceeds for 1 contract at 2.00: 10 shares a contract.
    expect(xyz1.map((tx) => [tx.type, tx.multiplier, tx.underlying])).toEqual([['BUY_TO_OPEN', 10, 'XYZ'], ['SELL_TO_CLOSE', 10, 'XYZ']]);
  });

  it('a sale coded O and a buy coded C on shares are SELL_SHORT and BUY_TO_COVER', () => {
    expect(result.transactions.filter((row) => !row.transaction.isOption).map((row) => row.transaction.type)).toEqual(['SELL_SHORT', 'BUY_TO_COVER']);
  });

  it("realizes 155.80 on options (IBKR's own Realized P/L) and 48.00 on shares", () => {
    const { optionsPL, stockPL } = figures(ledgerFor(result));
    // OPEN1: 2 × 1.50 × 50 = 150.00 − 2.10, expired: 147.90 (read at 100 it was 297.90). XYZ1: 30 − 1.05 − 21.05 = 7.90.
    expect(optionsPL).toBe(1_558_000);
    expect(stockPL).toBe(480_000);
  });
});

describe('IBKR Flex Query: an adjusted option keeps its own root; short sales', () => {
  const text = [
    '"ClientAccountID","CurrencyPrimary","AssetClass","Symbol","UnderlyingSymbol","Strike","Expiry","Put/Call","Multiplier","DateTime","Quantity","TradePrice","Proceeds","IBCommission","NetCash","Buy/Sell","Open/CloseIndicator","TransactionID"',
    '"U1","USD","OPT","OPEN1 17OCT25 9 C","OPEN","9","20251017","C","50","20251001;094510","-2","1.5","150","-2.1","147.9","SELL","O","9001"',
    '"U1","USD","STK","XYZ","","","","","1","20251006;101230","-100","20","2000","-1","1999","SELL","O","9002"',
    '"U1","USD","STK","XYZ","","","","","1","20251009;144002","100","19.5","-1950","-1","-1951","BUY","C","9003"',
  ].join('\n');
  const result = detected(text, 'ibkr');

  it('OPEN1 is not the standard OPEN contract: root OPEN1, underlying OPEN, 50 a contract', () => {
    const tx = result.transactions[0]?.transaction;
    expect([tx?.symbol, tx?.underlying, tx?.multiplier, tx?.type]).toEqual(['OPEN1251017C00009000', 'OPEN', 50, 'SELL_TO_OPEN']);
  });

  it('STK sold to open and bought to close are SELL_SHORT and BUY_TO_COVER; 48.00 realized', () => {
    expect(result.transactions.slice(1).map((row) => row.transaction.type)).toEqual(['SELL_SHORT', 'BUY_TO_COVER']);
    expect(figures(ledgerFor(result)).stockPL).toBe(480_000);
  });
});

describe('short sales and covers of shares (Schwab, Fidelity, Webull): SELL_SHORT and BUY_TO_COVER', () => {
  const cases: Array<{ broker: string; text: string }> = [
    {
      broker: 'schwab',
      text: [
        '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"',
        '"03/14/2024","Buy to Cover","XYZ","XYZ CORP","20","$48.00","","-$960.00"',
        '"02/20/2024","Sell Short","XYZ","XYZ CORP","20","$50.00","$0.02","$999.98"',
      ].join('\n'),
    },
    {
      broker: 'fidelity',
      text: [
        'Run Date,Action,Symbol,Description,Type,Quantity,Price ($),Commission ($),Fees ($),Accrued Interest ($),Amount ($),Settlement Date',
        '03/14/2024,"YOU BOUGHT SHORT COVER XYZ CORP (XYZ) (Short)",XYZ,XYZ CORP,Short,20,48,,,,-960.00,03/15/2024',
        '02/20/2024,"YOU SOLD SHORT SALE XYZ CORP (XYZ) (Short)",XYZ,XYZ CORP,Short,-20,50,,0.02,,999.98,02/21/2024',
      ].join('\n'),
    },
    {
      broker: 'webull',
      text: [
        'Name,Symbol,Side,Status,Filled,Total Qty,Price,Avg Price,Time-in-Force,Placed Time,Filled Time',
        'Xyz Corp,XYZ,Buy,Filled,20,20,48.00,48.00,DAY,03/14/2024 10:00:00 EDT,03/14/2024 10:00:00 EDT',
        'Xyz Corp,XYZ,Short,Filled,20,20,50.00,50.00,DAY,02/20/2024 10:00:00 EST,02/20/2024 10:00:00 EST',
      ].join('\n'),
    },
  ];
  for (const { broker, text } of cases) {
    it(`${broker}: the short sale, then its cover`, () => {
      const result = detected(text, broker);
      const byTime = [...result.transactions].sort((a, b) => a.transaction.tradeDate.localeCompare(b.transaction.tradeDate));
      expect(byTime.map((row) => row.transaction.type)).toEqual(['SELL_SHORT', 'BUY_TO_COVER']);
      // Sold 20 at 50.00 and bought them back at 48.00: 40.00, less the sale's fee where the file has one.
      expect(figures(ledgerFor(result)).stockPL).toBe(broker === 'webull' ? 400_000 : 399_800);
    });
  }
});
