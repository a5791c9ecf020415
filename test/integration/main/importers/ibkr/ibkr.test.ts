import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileHead } from '../../../../../src-main/importers/common/table';
import {
  ibkrActivityImporter,
  ibkrFlexImporter,
  ibkrImporter,
  parseIbkrActivity,
  parseIbkrFlex,
  parseIbkrOptionSymbol,
} from '../../../../../src-main/importers/ibkr';
import type { ParseResult, ParsedRow } from '../../../../../src-main/importers/types';
import { BROKER_FIXTURES_LOCAL as local, BROKER_FIXTURES_SHARED as shared } from '../../../../paths';
import { rowIds, sumAmounts } from '../file-totals';

const read = (dir: string, name: string): string => readFileSync(path.join(dir, name), 'utf8');
const lineOf = (text: string, fragment: string): number => text.split(/\r?\n/).findIndex((line) => line.includes(fragment)) + 1;

function countByType(result: ParseResult): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of result.transactions) counts[row.transaction.type] = (counts[row.transaction.type] ?? 0) + 1;
  return counts;
}

function find(result: ParseResult, predicate: (row: ParsedRow) => boolean): ParsedRow {
  const row = result.transactions.find(predicate);
  if (!row) throw new Error('row not found');
  return row;
}

describe('IBKR option symbols', () => {
  it('turns the statement form into OCC', () => {
    expect(parseIbkrOptionSymbol('KWEB 17DEC21 30 P')?.symbol, 'root KWEB, 2021-12-17, put, 30 × 1000 in 8 digits').toBe(
      'KWEB211217P00030000',
    );
    expect(parseIbkrOptionSymbol('MFC 03DEC21 24.5 P')?.symbol, 'strike 24.5 → 00024500').toBe('MFC211203P00024500');
    expect(parseIbkrOptionSymbol('KWEB 17DEC21 30'), 'a symbol without right is not an option').toBeNull();
  });
});

describe('IBKR Activity Statement 2022 (real, akolodziejski/divstock)', () => {
  const text = existsSync(shared) ? read(shared, 'ibkr_activity_statement_2022_wheel_divstock.csv') : '';
  const result = parseIbkrActivity(text, {});

  it('is detected by its Statement header (with BOM) and parses without errors', () => {
    expect(ibkrActivityImporter.detect(fileHead(text))).toBe(true);
    expect(ibkrImporter.detect(fileHead(text))).toBe(true);
    expect(ibkrFlexImporter.detect(fileHead(text)), 'not a Flex Query').toBe(false);
    expect(result.errors).toEqual([]);
    expect(result.source).toBe('ibkr-activity-csv');
  });

  it('counts rows per type from the Code column and asset category', () => {
    const counts = countByType(result);
    const lines = text.split(/\r?\n/);
    const optionLines = lines.filter((line) => line.startsWith('Trades,Data,Order,Equity and Index Options'));
    expect(counts.ASSIGNMENT, 'option rows coded A;C').toBe(optionLines.filter((line) => line.endsWith(',A;C')).length);
    expect(counts.EXPIRATION, 'option rows coded C;Ep').toBe(optionLines.filter((line) => line.endsWith(',C;Ep')).length);
    expect(counts.ASSIGNMENT, 'five assignments in the file, counted by grep').toBe(5);
    expect(counts.EXPIRATION, 'six expirations, counted by grep').toBe(6);
    const stockLines = lines.filter((line) => line.startsWith('Trades,Data,Order,Stocks'));
    expect((counts.BUY ?? 0) + (counts.SELL ?? 0), 'every stock order is a BUY or SELL').toBe(stockLines.length);
    const forexLines = lines.filter((line) => line.startsWith('Trades,Data,Order,Forex'));
    expect(result.skipped.length, 'Forex conversions are skipped with a reason').toBe(forexLines.length);
    expect(result.skipped[0]?.message).toMatch(/currency conversion/);
  });

  it('keeps each row in its own currency', () => {
    const currencies = new Set(result.transactions.map((row) => row.transaction.currency));
    expect([...currencies].sort(), 'stock and option rows come in CAD, EUR, GBP, HKD, RUB, SGD and USD').toEqual([
      'CAD', 'EUR', 'GBP', 'HKD', 'RUB', 'SGD', 'USD',
    ]);
    const aqn = find(result, (row) => row.transaction.symbol === 'AQN220128P00017500');
    expect(aqn.transaction.currency, 'AQN 28JAN22 17.5 P trades in CAD').toBe('CAD');
  });

  it('maps the KWEB wheel: put sold, assigned at 34, call sold, assigned at 30', () => {
    const kweb = result.transactions
      .map((row) => row.transaction)
      .filter((tx) => tx.underlying === 'KWEB')
      .sort((a, b) => a.tradeDate.localeCompare(b.tradeDate) || (a.isOption ? -1 : 1));
    expect(kweb.map((tx) => `${tx.type} ${tx.symbol}`)).toEqual([
      'SELL_TO_OPEN KWEB220311P00034000',
      'ASSIGNMENT KWEB220311P00034000',
      'BUY KWEB',
      'SELL_TO_OPEN KWEB220401C00030000',
      'ASSIGNMENT KWEB220401C00030000',
      'SELL KWEB',
    ]);
    const [putOpen, putAssigned, shares, callOpen, callAssigned, sold] = kweb;
    // "2022-02-22, 10:07:08" New York (EST, UTC−5) = 15:07:08Z
    expect(putOpen?.tradeDate).toBe('2022-02-22T15:07:08.000Z');
    expect(putOpen?.priceMinor, 'T. Price 1.5').toBe(15_000);
    expect(putOpen?.multiplier).toBe(100);
    // Proceeds 150 + Comm/Fee −0.682095 (rounded to 4 decimals: −0.6821) = 149.3179
    expect(putOpen?.amountMinor, '150 − 0.6821').toBe(1_493_179);
    expect(putOpen?.commissionMinor, '|−0.682095| to 4 decimals').toBe(6_821);
    expect(putAssigned?.quantity).toBe(1);
    expect(putAssigned?.amountMinor, 'an assignment row moves no cash for the option').toBe(0);
    expect(putAssigned?.tradeDate, '16:20 EST on 2022-03-11, before the DST switch of 03-13').toBe('2022-03-11T21:20:00.000Z');
    expect(shares?.priceMinor, 'shares delivered at the put strike 34').toBe(Math.round((putAssigned?.strike ?? 0) * 10_000));
    expect(shares?.quantity, '1 contract × 100').toBe(100);
    expect(shares?.amountMinor, '−100 × 34').toBe(-34_000_000);
    // "2022-03-18, 11:02:11" New York is EDT (UTC−4) after 2022-03-13
    expect(callOpen?.tradeDate).toBe('2022-03-18T15:02:11.000Z');
    expect(callOpen?.amountMinor, '250 − 0.6826').toBe(2_493_174);
    expect(callAssigned?.tradeDate).toBe('2022-04-01T20:20:00.000Z');
    expect(sold?.priceMinor, 'shares called away at the call strike 30').toBe(Math.round((callAssigned?.strike ?? 0) * 10_000));
    expect(sold?.amountMinor, '3000 − 0.0283').toBe(29_999_717);
    expect((shares?.quantity ?? 0) - (sold?.quantity ?? 0), 'the wheel ends flat in KWEB').toBe(0);
  });

  it('reads the lone EPD put buy (no O/C code) as a close of last year\'s short put', () => {
    const epd = find(result, (row) => row.transaction.symbol === 'EPD220204P00021000');
    expect(epd.transaction.type, 'EPD 04FEB22 21 P was sold in 2021 and expired inside this period, so +1 closes').toBe('BUY_TO_CLOSE');
  });

  // Σ per currency against the file's own Total rows: test/integration/main/importers/real-files.test.ts.

  it('gives stable, unique brokerRowIds on re-parse', () => {
    const again = parseIbkrActivity(text, {});
    const ids = rowIds(result);
    expect(rowIds(again)).toEqual(ids);
    expect(new Set(ids).size, 'no two rows share an id').toBe(ids.length);
  });

  it('reports a corrupted price with its line and column', () => {
    const line = lineOf(text, 'Trades,Data,Order,Stocks,USD,KWEB,"2022-03-11');
    expect(line, 'the KWEB delivery row, found by text search').toBe(62);
    const corrupted = text.replace('"2022-03-11, 16:20:00",100,34,', '"2022-03-11, 16:20:00",100,3x4,');
    const bad = parseIbkrActivity(corrupted, {});
    expect(bad.errors).toHaveLength(1);
    expect(bad.errors[0]?.line).toBe(line);
    expect(bad.errors[0]?.message).toMatch(/T\. Price/);
  });

  it('reports a bad date and a truncated file as errors, never throwing', () => {
    const badDate = parseIbkrActivity(text.replace('"2022-03-11, 16:20:00",100,34', '"2022-13-11, 16:20:00",100,34'), {});
    expect(badDate.errors[0]?.line).toBe(62);
    expect(badDate.errors[0]?.message).toMatch(/Date\/Time/);
    const cut = text.slice(0, text.indexOf('"2022-04-01, 16:20:00",-100') + 8);
    const truncated = parseIbkrActivity(cut, {});
    expect(truncated.errors.length, 'an unclosed quote ends the file').toBeGreaterThan(0);
    expect(truncated.errors[0]?.line).toBe(63);
    const cutAfterComma = text.slice(0, text.indexOf('-100,30,3000') + 8);
    expect(parseIbkrActivity(cutAfterComma, {}).errors[0]?.message).toMatch(/truncated/);
  });

  it('names missing header columns at the header line', () => {
    const broken = text.replace('Symbol,Date/Time,Quantity,T. Price,Proceeds,Comm/Fee,Code', 'Symbol,When,Quantity,T. Price,Proceeds,Comm/Fee,Code');
    const bad = parseIbkrActivity(broken, {});
    expect(bad.errors[0]?.line, 'the first Trades header is line 7').toBe(7);
    expect(bad.errors[0]?.message).toMatch(/Date\/Time/);
  });
});

describe('IBKR Activity Statement 2021 (real)', () => {
  const text = existsSync(shared) ? read(shared, 'ibkr_activity_statement_2021_wheel_divstock.csv') : '';
  const result = parseIbkrActivity(text, {});

  it('maps the VTRS put assignment and the MFC CAD put assignment with their stock legs', () => {
    expect(result.errors).toEqual([]);
    const vtrsPut = find(result, (row) => row.transaction.symbol === 'VTRS211210P00014000' && row.transaction.type === 'ASSIGNMENT');
    const vtrsStock = find(result, (row) => row.transaction.symbol === 'VTRS' && row.transaction.tradeDate === vtrsPut.transaction.tradeDate);
    expect(vtrsStock.transaction.type).toBe('BUY');
    expect(vtrsStock.transaction.priceMinor, 'at the 14 strike').toBe(140_000);
    const mfc = find(result, (row) => row.transaction.symbol === 'MFC' && row.transaction.currency === 'CAD' && row.transaction.priceMinor === 245_000);
    expect(mfc.transaction.amountMinor, '−100 × 24.5 CAD').toBe(-24_500_000);
    expect(mfc.transaction.tradeDate, '2021-11-30 16:20 EST').toBe('2021-11-30T21:20:00.000Z');
  });

  it('infers opens and closes for uncoded option trades (GOLD put sold then bought back)', () => {
    const gold = result.transactions.filter((row) => row.transaction.underlying === 'GOLD').map((row) => row.transaction.type);
    expect(gold).toEqual(['SELL_TO_OPEN', 'BUY_TO_CLOSE']);
    expect(result.warnings.some((warning) => /no O\/C code/.test(warning.message))).toBe(true);
    const expired = result.transactions.filter((row) => row.transaction.type === 'EXPIRATION').length;
    expect(expired, 'three C;Ep rows in 2021 (EPD ×3)').toBe(text.split('\n').filter((line) => line.includes(',C;Ep')).length);
  });
});

describe('IBKR Activity Statement with every section (self-written)', () => {
  const text = read(local, 'ibkr_activity_statement_selfwritten.csv');
  const result = parseIbkrActivity(text, {});
  const tx = (predicate: (row: ParsedRow) => boolean) => find(result, predicate).transaction;

  it('reads the account from Account Information', () => {
    expect(result.errors).toEqual([]);
    expect(new Set(result.transactions.map((row) => row.transaction.accountName))).toEqual(new Set(['U9876543']));
  });

  it('maps Dividends, Withholding Tax, Deposits & Withdrawals, Fees and Interest, skipping Total rows', () => {
    expect(countByType(result)).toEqual({
      BUY: 2, SELL: 1, SELL_TO_OPEN: 3, ASSIGNMENT: 1, EXPIRATION: 1, BUY_TO_CLOSE: 1, BUY_TO_OPEN: 1, SELL_TO_CLOSE: 1,
      DIVIDEND: 4, INTEREST: 3, DEPOSIT: 1, WITHDRAWAL: 1, FEE: 2,
    });
    const sapDividend = tx((row) => row.transaction.type === 'DIVIDEND' && row.transaction.amountMinor > 0 && row.transaction.symbol === 'SAP');
    expect(sapDividend.currency).toBe('EUR');
    expect(sapDividend.amountMinor, '20 shares × EUR 1.85').toBe(370_000);
    const sapTax = tx((row) => row.transaction.type === 'DIVIDEND' && row.transaction.amountMinor < 0 && row.transaction.symbol === 'SAP');
    expect(sapTax.amountMinor, 'German withholding −9.76 EUR is a negative dividend').toBe(-97_600);
    const interestTax = tx((row) => row.line === lineOf(text, 'Withholding @ 30% on Credit Interest'));
    expect(interestTax.type, 'withholding on credit interest reduces interest').toBe('INTEREST');
    const dividends = result.transactions.filter((row) => row.transaction.type === 'DIVIDEND' && row.transaction.currency === 'USD');
    expect(dividends.reduce((acc, row) => acc + row.transaction.amountMinor, 0), 'KWEB 12 − 1.20 withheld').toBe(108_000);
    const fees = result.transactions.filter((row) => row.transaction.type === 'FEE').map((row) => row.transaction.brokerRowId);
    expect(fees[0], 'identical fee rows are told apart by their occurrence').not.toBe(fees[1]);
    const withdrawal = tx((row) => row.transaction.type === 'WITHDRAWAL');
    expect(withdrawal.amountMinor).toBe(-15_000_000);
    expect(withdrawal.tradeDate, 'date-only rows are stamped 16:00 New York (EST)').toBe('2021-12-20T21:00:00.000Z');
  });

  it('ignores ClosedLot detail rows and keeps Code O/C over the running position', () => {
    const kwebStock = result.transactions.filter((row) => row.transaction.symbol === 'KWEB' && row.transaction.quantity > 0);
    expect(kwebStock.map((row) => `${row.transaction.type} ${row.transaction.quantity}`)).toEqual(['BUY 100', 'SELL 40']);
    expect(tx((row) => row.transaction.symbol === 'QQQ220121C00420000' && row.transaction.type === 'SELL_TO_CLOSE').amountMinor, '490 − 1.0534').toBe(
      4_889_466,
    );
  });

  it('sums options cash to the Trades Total row: 935 − 8.4177', () => {
    const options = result.transactions.filter((row) => row.transaction.isOption);
    expect(options.reduce((acc, row) => acc + row.transaction.amountMinor, 0)).toBe(9_350_000 - 84_177);
  });
});

describe('IBKR Transaction History (real, KapJI/capital-gains-calculator)', () => {
  const text = existsSync(shared) ? read(shared, 'ibkr_transaction_history_kapji.csv') : '';
  const result = parseIbkrActivity(text, {});

  it('matches the published dividends: VT 20.00 less 3.00, IBKR 1.00 less 0.15 (GBP)', () => {
    expect(result.errors).toEqual([]);
    expect(result.source).toBe('ibkr-history-csv');
    const bySymbol = (symbol: string) =>
      result.transactions.filter((row) => row.transaction.type === 'DIVIDEND' && row.transaction.symbol === symbol).map((row) => row.transaction.amountMinor);
    expect(bySymbol('VT'), 'EXPECTED.txt: VT 20.00, excluding 3.0 taxed at source').toEqual([200_000, -30_000]);
    expect(bySymbol('IBKR'), 'EXPECTED.txt: IBKR 1.00, excluding 0.15 taxed at source').toEqual([10_000, -1_500]);
    expect(new Set(result.transactions.map((row) => row.transaction.currency))).toEqual(new Set(['GBP']));
  });

  it('nets to the published final balance 3027.40 GBP (the −0.00026 forex component is skipped)', () => {
    const sum = sumAmounts(result);
    expect(Math.round(sum / 100) / 100, 'EXPECTED.txt "Final balance 3027.40 (GBP)"').toBe(3027.4);
    expect(result.skipped).toHaveLength(1);
    const sell = find(result, (row) => row.transaction.type === 'SELL').transaction;
    expect([sell.symbol, sell.quantity, sell.priceMinor, sell.amountMinor, sell.commissionMinor]).toEqual(['CNX1', 2, 10_010_000, 19_990_000, 30_000]);
    expect(sell.accountName).toBe('U***00000');
  });
});

describe('IBKR Flex Query (self-written)', () => {
  const text = read(local, 'ibkr_flex_query_selfwritten.csv');
  const result = parseIbkrFlex(text, {});

  it('is detected by its column names and dispatched by the combined importer', () => {
    expect(ibkrFlexImporter.detect(fileHead(text))).toBe(true);
    expect(ibkrActivityImporter.detect(fileHead(text))).toBe(false);
    expect(ibkrImporter.parse(text, {}).source).toBe('ibkr-flex-csv');
    expect(result.errors).toEqual([]);
  });

  it('maps trades by name, with TransactionID as row id and IBOrderID as order id', () => {
    const open = find(result, (row) => row.transaction.brokerRowId === '2318811001').transaction;
    expect([open.type, open.symbol, open.quantity, open.priceMinor, open.amountMinor, open.commissionMinor, open.orderId]).toEqual([
      'SELL_TO_OPEN', 'AAPL240119P00180000', 2, 21_500, 4_286_954, 13_046, '512340001',
    ]);
    expect(open.tradeDate, '20231204;103212 New York (EST)').toBe('2023-12-04T15:32:12.000Z');
    const assigned = find(result, (row) => row.transaction.brokerRowId === '2318811003').transaction;
    expect(assigned.type, 'Notes/Codes A').toBe('ASSIGNMENT');
    expect(assigned.orderId, 'IBOrderID 0 is no order').toBeNull();
    const stock = find(result, (row) => row.transaction.brokerRowId === '2318811004').transaction;
    expect([stock.type, stock.quantity, stock.priceMinor, stock.amountMinor]).toEqual(['BUY', 100, 1_800_000, -180_000_000]);
    expect(find(result, (row) => row.transaction.brokerRowId === '2318811006').transaction.type, 'Notes/Codes Ep').toBe('EXPIRATION');
    expect(find(result, (row) => row.transaction.brokerRowId === '2318811010').transaction.currency).toBe('EUR');
    expect(result.skipped.map((problem) => problem.line), 'the CASH (forex) row').toEqual([lineOf(text, '"CASH","EUR.USD"')]);
  });

  it('maps the Cash Transactions section and sums NetCash', () => {
    expect(countByType(result)).toEqual({
      SELL_TO_OPEN: 2, BUY_TO_CLOSE: 1, ASSIGNMENT: 1, BUY: 2, EXPIRATION: 1, BUY_TO_OPEN: 1, SELL_TO_CLOSE: 1,
      DEPOSIT: 1, DIVIDEND: 2, INTEREST: 1, FEE: 1, WITHDRAWAL: 1,
    });
    // USD NetCash of the trades, then the cash rows (20000 + 24 − 2.4 + 12.34 − 10 − 2500), in minor units.
    const trades = 4_286_954 - 956_523 + 0 - 180_000_000 + 1_793_477 + 0 - 6_406_500 + 9_093_488;
    const cash = 200_000_000 + 240_000 - 24_000 + 123_400 - 100_000 - 25_000_000;
    const usd = result.transactions.filter((row) => row.transaction.currency === 'USD').reduce((acc, row) => acc + row.transaction.amountMinor, 0);
    expect(usd).toBe(trades + cash);
  });

  it('re-parses to the same ids and reports a corrupted cell by line', () => {
    expect(rowIds(parseIbkrFlex(text, {}))).toEqual(
      rowIds(result),
    );
    const bad = parseIbkrFlex(text.replace('"-1","1.8","180"', '"-1","1.8x","180"'), {});
    expect(bad.errors.map((problem) => problem.line)).toEqual([lineOf(text, '"2318811005"')]);
    expect(bad.errors[0]?.message).toMatch(/TradePrice/);
    const noQuantity = parseIbkrFlex(text.replace('"Quantity","TradePrice"', '"Qty","TradePrice"'), {});
    expect(noQuantity.errors[0]).toMatchObject({ line: 1 });
    expect(noQuantity.errors[0]?.message).toMatch(/Quantity/);
  });
});
