/**
 * User-defined formats (docs/importers.md, "User-defined formats"), checked independently: a real broker file whose
 * header is renamed (so that no importer recognises it), mapped by hand as a user would on the Import page, must
 * give the built-in importer's transactions on the same rows, to the cent.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImportFormatDraftT } from '../../../../../src-shared/api/schemas';
import type { ImportedTransaction } from '../../../../../src-shared/journal/model';
import { customImporter, formatInstant, formatProblems, parseWithFormat, type SavedFormat } from '../../../../../src-main/importers/custom/index';
import { parseImport } from '../../../../../src-main/importers/index';
import { parseCsv } from '../../../../../src-main/importers/common/csv';
import type { ParseResult } from '../../../../../src-main/importers/types';
import { REPO_ROOT } from '../../../../paths';
import { allTime, ledgerOf, stored } from '../../../../journal-helpers';

const fixture = (name: string) => readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'brokers', name), 'utf8');
const ACCOUNT = { accountName: 'Mine', asOf: new Date('2026-01-01T00:00:00Z') };

/**
 * The fields a user-defined format must reproduce (its row ids and source are its own, and so is the event order:
 * a place among the rows of the rewritten file, which keeps fewer rows than the original).
 */
function comparable(tx: ImportedTransaction): Omit<ImportedTransaction, 'brokerRowId' | 'source' | 'sequence'> {
  const { brokerRowId: _id, source: _source, sequence: _sequence, ...rest } = tx;
  return rest;
}

/** The file's lines (as CSV records) whose cell `column` passes `keep`, with the header renamed by `rename`. */
function rewrite(text: string, rename: Record<string, string>, keep: (cells: string[], header: string[]) => boolean): { text: string; lines: number[] } {
  const records = parseCsv(text.replace(/^\uFEFF/, '')).records;
  const header = records[0]?.cells ?? [];
  const quote = (cell: string) => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
  const out = [header.map((cell) => quote(rename[cell] ?? cell)).join(',')];
  const lines: number[] = [];
  for (const record of records.slice(1)) {
    if (record.cells.every((cell) => cell.trim() === '') || !keep(record.cells, header)) continue;
    out.push(record.cells.map(quote).join(','));
    lines.push(record.line);
  }
  return { text: `${out.join('\n')}\n`, lines };
}

function builtIn(text: string): ParseResult {
  const parsed = parseImport(text, 'auto', ACCOUNT);
  if (!parsed.ok) throw new Error(parsed.detail);
  return parsed.result;
}

describe('a user-defined format against the built-in importer, on a real file', () => {
  it('tastytrade TSLL wheel (binnaculum, 211 rows): trades, expirations and dividends equal, to the cent', () => {
    const original = fixture('tastytrade_v2_21col_TSLL_wheel_binnaculum.csv');
    const expected = builtIn(original);
    expect(expected.broker).toBe('tastytrade');
    // The Special Dividend pairs are one SYMBOL_CHANGE made of two rows: a rule of that importer, not a mapping.
    const { text, lines } = rewrite(original, { 'Sub Type': 'Kind', Date: 'When' }, (cells, header) => cells[header.indexOf('Sub Type')] !== 'Special Dividend');
    expect(parseImport(text, 'auto', ACCOUNT).ok, 'the renamed header is recognised by no importer').toBe(false);
    const format: SavedFormat = {
      id: 'tt',
      name: 'My tastytrade copy',
      header: text.split('\n')[0]?.split(',') ?? [],
      mapping: {
        date: { column: 'When', layout: 'YYYY-MM-DD', zone: 'new-york' },
        type: {
          column: 'Kind',
          words: [
            { word: 'Buy to Open', type: 'BUY_TO_OPEN' },
            { word: 'Sell to Open', type: 'SELL_TO_OPEN' },
            { word: 'Buy to Close', type: 'BUY_TO_CLOSE' },
            { word: 'Sell to Close', type: 'SELL_TO_CLOSE' },
            { word: 'Expiration', type: 'EXPIRATION' },
            { word: 'Dividend', type: 'DIVIDEND' },
          ],
        },
        symbol: 'Symbol',
        quantity: 'Quantity',
        multiplier: 'Multiplier',
        commission: 'Commissions',
        fees: 'Fees',
        amount: { column: 'Total', sign: 'as-written' },
        currency: 'Currency',
        description: 'Description',
        orderId: 'Order #',
      },
    };
    expect(formatProblems(format)).toEqual([]);
    const mapped = parseWithFormat(format, text, ACCOUNT);
    expect(mapped.errors).toEqual([]);
    const wanted = new Set(lines);
    const expectedRows = expected.transactions.filter((row) => wanted.has(row.line));
    expect(expectedRows.length).toBe(lines.length);
    // Without a price column the price is the net amount's gross per share; tastytrade's Total sometimes differs by
    // a cent from Value + Commissions + Fees (docs/importers.md, tastytrade), which the built-in prices from: the
    // prices agree to that cent over the row's shares, everything else exactly.
    const withoutPrice = (tx: ImportedTransaction) => ({ ...comparable(tx), priceMinor: 0 });
    expect(mapped.transactions.map((row) => withoutPrice(row.transaction))).toEqual(expectedRows.map((row) => withoutPrice(row.transaction)));
    mapped.transactions.forEach((row, index) => {
      const want = expectedRows[index]?.transaction;
      const got = row.transaction;
      expect(Math.abs((got.priceMinor - (want?.priceMinor ?? 0)) * got.quantity * got.multiplier), `line ${row.line}`).toBeLessThanOrEqual(100);
    });
    // One row: the 20-share TSLL buy of 2025-06-20, whose Total is a cent off Value + Fees.
    const apart = mapped.transactions.filter((row, index) => row.transaction.priceMinor !== expectedRows[index]?.transaction.priceMinor);
    expect(apart.map((row) => [row.transaction.symbol, row.transaction.quantity, row.transaction.tradeDate])).toEqual([['TSLL', 20, '2025-06-20T19:55:52.000Z']]);
    // The independent part: the file's own Total column adds up to the same cash, to the minor unit.
    const totalMinor = mapped.transactions.reduce((sum, row) => sum + row.transaction.amountMinor, 0);
    expect(totalMinor).toBe(expectedRows.reduce((sum, row) => sum + row.transaction.amountMinor, 0));
  });

  it('Schwab stock history (kapji): MM/DD/YYYY dates, $-amounts, Fees & Comm as commission, equal to the cent', () => {
    const original = fixture('schwab_transactions_stock_kapji.csv');
    const expected = builtIn(original);
    const { text, lines } = rewrite(original, { Action: 'What' }, (cells) => cells[1] === 'Buy' || cells[1] === 'Sell');
    const format: SavedFormat = {
      id: 'sw',
      name: 'Schwab by hand',
      header: ['Date', 'What', 'Symbol', 'Description', 'Quantity', 'Price', 'Fees & Comm', 'Amount'],
      mapping: {
        date: { column: 'Date', layout: 'MM/DD/YYYY', zone: 'new-york' },
        type: { column: 'What', words: [{ word: 'buy', type: 'BUY' }, { word: 'SELL', type: 'SELL' }] },
        symbol: 'Symbol',
        quantity: 'Quantity',
        price: 'Price',
        commission: 'Fees & Comm',
        amount: { column: 'Amount', sign: 'as-written' },
        description: 'Description',
      },
    };
    const mapped = parseWithFormat(format, text, ACCOUNT);
    expect(mapped.errors).toEqual([]);
    const expectedRows = expected.transactions.filter((row) => lines.includes(row.line));
    expect(expectedRows.length).toBe(6);
    expect(mapped.transactions.map((row) => comparable(row.transaction))).toEqual(expectedRows.map((row) => comparable(row.transaction)));
  });
});

describe('the rules of a user-defined format', () => {
  const base: ImportFormatDraftT = {
    name: 'Plain',
    header: ['Day', 'Side', 'Ticker', 'Qty', 'Px', 'Comm', 'Acct'],
    mapping: {
      date: { column: 'Day', layout: 'DD/MM/YYYY', zone: 'utc' },
      type: { column: 'Side', words: [{ word: 'B', type: 'BUY' }, { word: 'S', type: 'SELL' }, { word: 'BO', type: 'BUY_TO_OPEN' }] },
      symbol: 'Ticker',
      quantity: 'Qty',
      price: 'Px',
      commission: 'Comm',
      amount: { sign: 'by-type' },
      account: 'Acct',
    },
  };
  const format: SavedFormat = { ...base, id: 'p1' };

  it('computes the amount from price × quantity × multiplier with the sign of the type, less commission (hand figures)', () => {
    const text = 'Day,Side,Ticker,Qty,Px,Comm,Acct\n15/03/2024 14:30,B,SPY,10,512.34,1.00,IRA\n16/03/2024,S,SPY,-4,$513.00,1,\n';
    const result = parseWithFormat(format, text, ACCOUNT);
    expect(result.errors).toEqual([]);
    const [buy, sell] = result.transactions.map((row) => row.transaction);
    // Buy: −(10 × 512.34) − 1.00 = −5,124.40. Sell: 4 × 513.00 − 1.00 = 2,051.00 (the sign of the quantity dropped).
    expect(buy).toMatchObject({ type: 'BUY', symbol: 'SPY', quantity: 10, priceMinor: 5_123_400, amountMinor: -51_244_000, commissionMinor: 10_000, accountName: 'IRA', tradeDate: '2024-03-15T14:30:00.000Z' });
    // A bare date is 16:00 New York (EDT on 16 March 2024: 20:00 UTC); no account in the row: the import's.
    expect(sell).toMatchObject({ type: 'SELL', quantity: 4, amountMinor: 20_510_000, accountName: 'Mine', tradeDate: '2024-03-16T20:00:00.000Z' });
  });

  it('a word the table lacks, a bad date: one error per row, at its line, naming the column; nothing imported', () => {
    const text = 'Day,Side,Ticker,Qty,Px,Comm,Acct\n15/03/2024,B,SPY,1,1,0,\n15/03/2024,Bought,SPY,1,1,0,\n31/02/2024,S,SPY,1,1,0,\n';
    const result = parseWithFormat(format, text, ACCOUNT);
    expect(result.transactions.map((row) => row.line)).toEqual([2]);
    // The journal refuses a file with any error whole (JournalService.parse); the good rows are for the preview.
    expect(result.errors).toEqual([
      { line: 3, message: 'column "Side": "Bought" is not one of the format\'s words: map it to a transaction type' },
      { line: 4, message: 'column "Day": not a date written DD/MM/YYYY (15/03/2024, a time may follow): "31/02/2024"' },
    ]);
  });

  it('a trade without its quantity is an error at its line; a dividend needs none', () => {
    const text = 'Day,Side,Ticker,Qty,Px,Comm,Acct\n15/03/2024,B,SPY,,1,0,\n';
    expect(parseWithFormat(format, text, ACCOUNT).errors).toEqual([{ line: 2, message: 'column "Qty": empty: a BUY needs its quantity' }]);
    const dividend = parseWithFormat({ ...format, mapping: { ...base.mapping, type: { column: 'Side', words: [{ word: 'D', type: 'DIVIDEND' }] }, amount: { column: 'Px', sign: 'as-written' } } }, 'Day,Side,Ticker,Qty,Px,Comm,Acct\n15/03/2024,D,SPY,,1.25,,\n', ACCOUNT);
    expect(dividend.errors).toEqual([]);
    expect(dividend.transactions[0]?.transaction).toMatchObject({ type: 'DIVIDEND', quantity: 0, amountMinor: 12_500 });
  });

  it('an option type on a stock row is the stock trade; an OCC symbol in the symbol column is an option', () => {
    const text = 'Day,Side,Ticker,Qty,Px,Comm,Acct\n15/03/2024,BO,SPY,1,2.5,0,\n15/03/2024,BO,SPY   240419P00500000,2,2.5,0,\n';
    const [stock, option] = parseWithFormat(format, text, ACCOUNT).transactions.map((row) => row.transaction);
    expect(stock).toMatchObject({ type: 'BUY', isOption: false, multiplier: 1, amountMinor: -25_000 });
    // 2 contracts × 2.50 × 100 = 500.00 paid.
    expect(option).toMatchObject({ type: 'BUY_TO_OPEN', symbol: 'SPY240419P00500000', underlying: 'SPY', strike: 500, right: 'P', expiration: '2024-04-19', multiplier: 100, amountMinor: -5_000_000 });
  });

  it('names each field whose column the header lacks, a word given twice, option parts given in part', () => {
    const problems = formatProblems({
      ...base,
      mapping: {
        ...base.mapping,
        price: 'Price',
        type: { column: 'Side', words: [{ word: 'B', type: 'BUY' }, { word: ' b ', type: 'SELL' }] },
        option: { strike: 'Px' },
      },
    });
    expect(problems).toEqual([
      { param: 'mapping.price', message: '"Price" is not a column of the header' },
      { param: 'mapping.type.words.1.word', message: '" b " is given twice' },
      { param: 'mapping.option.expiration', message: 'an option by its parts needs expiration, strike and right (expiration, right missing)' },
    ]);
  });

  it('is detected by its header names in any order, before the built-in importers, and read by name', () => {
    const shuffled = 'Acct,Qty,Ticker,Side,Day,Px,Comm\nX,3,AAPL,B,01/02/2024,10,0\n';
    const parsed = parseImport(shuffled, 'auto', ACCOUNT, [customImporter(format)]);
    expect(parsed.ok && parsed.result.broker).toBe('custom:p1');
    expect(parsed.ok && parsed.result.transactions[0]?.transaction).toMatchObject({ symbol: 'AAPL', quantity: 3, amountMinor: -300_000, tradeDate: '2024-02-01T21:00:00.000Z' });
  });

  it("a mapped row id is the row's identity (unique within the file); without one, the content keyed by column name", () => {
    const withId: SavedFormat = { ...format, header: [...base.header, 'Ref'], mapping: { ...base.mapping, rowId: 'Ref' } };
    const ids = parseWithFormat(withId, 'Day,Side,Ticker,Qty,Px,Comm,Acct,Ref\n15/03/2024,B,SPY,1,1,0,,T1\n15/03/2024,B,SPY,1,1,0,,T1\n16/03/2024,S,SPY,1,2,0,,T2\n', ACCOUNT);
    expect(ids.transactions.map((row) => row.transaction.brokerRowId)).toEqual(['id:T1', 'id:T1#2', 'id:T2']);
    const shuffled = parseWithFormat(format, 'Qty,Day,Side,Ticker,Px,Comm,Acct\n1,15/03/2024,B,SPY,1,0,\n', ACCOUNT);
    const ordered = parseWithFormat(format, 'Day,Side,Ticker,Qty,Px,Comm,Acct\n15/03/2024,B,SPY,1,1,0,\n', ACCOUNT);
    expect(shuffled.transactions[0]?.transaction.brokerRowId).toBe(ordered.transactions[0]?.transaction.brokerRowId);
  });

  it('reads dates with times, offsets and zones', () => {
    expect(formatInstant('2025-10-03T20:55:09+0100', null, 'YYYY-MM-DD', 'new-york')).toBe('2025-10-03T19:55:09.000Z');
    expect(formatInstant('2025-10-03T20:55:09', null, 'YYYY-MM-DD', 'new-york')).toBe('2025-10-04T00:55:09.000Z');
    expect(formatInstant('2025-02-30T20:55:09Z', null, 'YYYY-MM-DD', 'utc')).toBeNull();
    expect(formatInstant('03/15/2024', '2:30 PM', 'MM/DD/YYYY', 'new-york')).toBe('2024-03-15T18:30:00.000Z');
    expect(formatInstant('15.03.2024 14:30:05Z', null, 'DD/MM/YYYY', 'new-york')).toBe('2024-03-15T14:30:05.000Z');
    expect(formatInstant('2024-03-15', null, 'MM/DD/YYYY', 'utc')).toBeNull();
    expect(formatInstant('03/15/2024 25:00', null, 'MM/DD/YYYY', 'utc')).toBeNull();
  });
});

describe('options written out in a mapped file (issue 17: "custom formats lie")', () => {
  const text = fixture('custom_instrument_written_out_selfwritten.csv');
  const format = (symbol: string): SavedFormat => ({
    id: 'wo',
    name: 'Written out',
    header: ['Trade Date', 'Action', 'Instrument', 'Qty', 'Price', 'Commission', 'Fees', 'Net Amount'],
    mapping: {
      date: { column: 'Trade Date', layout: 'MM/DD/YYYY', zone: 'new-york' },
      type: {
        column: 'Action',
        words: [
          { word: 'Sell to Open', type: 'SELL_TO_OPEN' },
          { word: 'Buy to Close', type: 'BUY_TO_CLOSE' },
          { word: 'Buy', type: 'BUY' },
        ],
      },
      symbol,
      quantity: 'Qty',
      price: 'Price',
      commission: 'Commission',
      fees: 'Fees',
      amount: { column: 'Net Amount', sign: 'as-written' },
    },
  });

  it('reads the contract from "Sell to Open DEF 08/21/2026 100.00 C" and realizes +148.80', () => {
    const result = parseWithFormat(format('Instrument'), text, ACCOUNT);
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.optionActionsWithoutOption).toBe(0);
    const options = result.transactions.map((row) => row.transaction).filter((tx) => tx.isOption);
    expect(options.map((tx) => [tx.type, tx.symbol, tx.underlying, tx.expiration, tx.strike, tx.right, tx.multiplier, tx.quantity])).toEqual([
      ['BUY_TO_CLOSE', 'DEF260821C00100000', 'DEF', '2026-08-21', 100, 'C', 100, 3],
      ['SELL_TO_OPEN', 'DEF260821C00100000', 'DEF', '2026-08-21', 100, 'C', 100, 3],
    ]);
    const stock = result.transactions.find((row) => !row.transaction.isOption)?.transaction;
    expect([stock?.symbol, stock?.multiplier], 'a plain ticker stays a stock').toEqual(['DEF', 1]);
    // By hand: sold 3 × 0.60 × 100 = 180.00 less 1.95 + 0.15 = 177.90; bought back 3 × 0.09 × 100 = 27.00 plus
    // 1.95 + 0.15 = 29.10; realized 177.90 − 29.10 = 148.80.
    const ledger = ledgerOf(stored(result.transactions.map((row) => row.transaction)));
    expect(allTime(ledger).summary.optionsPL).toBe(148.8);
  });

  it('finds the contract in the description column when the symbol column holds the ticker', () => {
    const { symbol: _symbol, ...mapping } = format('Action').mapping;
    const withDescription: SavedFormat = { ...format('Action'), mapping: { ...mapping, description: 'Instrument' } };
    const result = parseWithFormat(withDescription, text, ACCOUNT);
    expect(result.transactions.filter((row) => row.transaction.isOption).map((row) => row.transaction.symbol)).toEqual(['DEF260821C00100000', 'DEF260821C00100000']);
  });

  it('warns and is not ready when the actions open and close but no option is mapped', () => {
    // The symbol column mapped to the action words: no contract anywhere the format looks.
    const result = parseWithFormat(format('Action'), text, ACCOUNT);
    expect(result.errors).toEqual([]);
    expect(result.optionActionsWithoutOption, 'the Buy to Close and Sell to Open rows').toBe(2);
    expect(result.warnings).toEqual([{ line: 2, message: expect.stringMatching(/^2 rows say in "Action" that an option opens or closes, but the format finds no option on them: they would be stored as shares/) }]);
  });
});
