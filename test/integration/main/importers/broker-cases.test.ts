/**
 * The broker cases of issue 9, one test each, through the public entry point (`parseImport`, auto-detection)
 * and, for the messages, through the real HTTP server. Each failed before its fix.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseImport, type ParseImportOutcome } from '../../../../src-main/importers/index';
import type { ParseOptions, ParseResult } from '../../../../src-main/importers/types';
import type { ImportedTransaction } from '../../../../src-shared/journal/model';
import { useTestApp } from '../../../helper';
import { BROKER_FIXTURES_SHARED, REPO_ROOT } from '../../../paths';
import { amountSum, figures, ledgerFor, minorOf, tableRows } from './file-totals';

const LOCAL = join(REPO_ROOT, 'test', 'fixtures', 'brokers');
const local = (file: string): string => readFileSync(join(LOCAL, file), 'utf8');
const shared = (file: string): string => readFileSync(join(BROKER_FIXTURES_SHARED, file), 'utf8');

function parsed(text: string, options: ParseOptions = {}, broker: Parameters<typeof parseImport>[1] = 'auto'): ParseResult {
  const outcome = parseImport(text, broker, options);
  if (!outcome.ok) throw new Error(outcome.detail);
  expect(outcome.result.errors).toEqual([]);
  return outcome.result;
}

const txs = (result: ParseResult): ImportedTransaction[] => result.transactions.map((row) => row.transaction);

describe('thinkorswim account statements', () => {
  it('a TOTAL row (TOTAL in the DESCRIPTION column) ends the Cash Balance instead of failing the file', () => {
    const text = shared('thinkorswim_statement_example_tradenote.csv');
    expect(text).toMatch(/^,,,,TOTAL,/m);
    const result = parsed(text);
    expect(result.broker).toBe('thinkorswim');
    expect(result.transactions).toHaveLength(11);
  });

  it('futures-option legs (/Q4CJ22 on /NQM22) are mapped: multiplier 20, expiration from "(Wednesday) (Wk5)"', () => {
    const result = parsed(shared('thinkorswim_statement_futures_options_2022_claytonduffin.csv'));
    const first = txs(result).find((tx) => tx.type === 'BUY_TO_OPEN' && tx.strike === 13450);
    // Wk5 of April 2022 is the calendar row 24–30 April; its Wednesday is the 27th (CME's Q4C: 4th Wednesday).
    expect([first?.symbol, first?.underlying, first?.multiplier, first?.expiration]).toEqual(['/Q4CJ22220427C13450000', '/NQM22', 20, '2022-04-27']);
    // 1 × 140.50 × 20 = 2,810.00, less 2.25 commission and 0.56 misc fees: the cash row's own figures.
    expect([first?.priceMinor, first?.amountMinor, first?.commissionMinor, first?.feesMinor]).toEqual([1_405_000, -28_128_100, 22_500, 5_600]);
  });

  // Cash Balance books each fill with seconds; Trade History here has minutes only (a spreadsheet re-save).
  const minutes = [
    'Account Statement for 12345678SCHW (margin) since 11/12/22 through 11/12/22',
    '',
    'Cash Balance',
    'DATE,TIME,TYPE,REF #,DESCRIPTION,Misc Fees,Commissions & Fees,AMOUNT,BALANCE',
    '11/12/2022,01:00:00,BAL,,Cash balance at the start of business day 12.11 EST,,,,"10,000.00"',
    '11/12/2022,11:27:19,TRD,5886617769,SOLD -12 PYPL @13.33,-0.01,,159.96,"10,159.95"',
    '11/12/2022,11:27:19,TRD,5886618869,SOLD -288 PYPL @13.33,-0.13,,"3,839.04","13,998.86"',
    '11/12/2022,10:31:44,TRD,5886333124,BOT +300 PYPL @13.39,,,"-4,017.00","9,981.86"',
    '',
    'Account Trade History',
    ',Exec Time,Spread,Side,Qty,Pos Effect,Symbol,Exp,Strike,Type,Price,Net Price,Order Type',
    ',11/12/2022 11:27,STOCK,SELL,-288,TO CLOSE,PYPL,,,STOCK,13.33,13.33,LMT',
    ',11/12/2022 11:27,STOCK,SELL,-12,TO CLOSE,PYPL,,,STOCK,13.33,13.33,LMT',
    ',11/12/2022 10:31,STOCK,BUY,300,TO OPEN,PYPL,,,STOCK,13.39,13.39,LMT',
  ].join('\n');

  it('a fill in both Cash Balance and Trade History is imported once when Trade History has no seconds', () => {
    const result = parsed(minutes);
    expect(txs(result).map((tx) => `${tx.type} ${tx.quantity} ${tx.orderId}`).sort()).toEqual(['BUY 300 5886333124', 'SELL 12 5886617769', 'SELL 288 5886618869']);
    // (159.96 + 3,839.04 − 4,017.00) − 0.14 fees = −18.14 = the balance change 10,000.00 → 9,981.86.
    expect(amountSum(result)).toBe(-181_400);
    expect(figures(ledgerFor(result)).stockPL, '300 × (13.33 − 13.39) − 0.14').toBe(-181_400);
    expect(txs(result).find((tx) => tx.quantity === 12)?.tradeDate, 'the cash row’s exact time, 11:27:19 EST').toBe('2022-11-12T16:27:19.000Z');
  });

  it('"Account Statement for * (Virtual Account)" names no account: the import’s account, else thinkorswim', () => {
    const masked = minutes.replace('12345678SCHW (margin)', '* (Virtual Account)');
    expect(new Set(txs(parsed(masked)).map((tx) => tx.accountName))).toEqual(new Set(['thinkorswim']));
    expect(new Set(txs(parsed(masked, { accountName: 'paper' })).map((tx) => tx.accountName))).toEqual(new Set(['paper']));
    expect(new Set(txs(parsed(minutes, { accountName: 'paper' })).map((tx) => tx.accountName)), 'a real account number wins').toEqual(new Set(['12345678SCHW']));
  });
});

describe('Fidelity', () => {
  it('the all-accounts export is recognised and keeps its accounts apart', () => {
    const result = parsed(shared('fidelity_all_accounts_2025_reds.csv'));
    expect(result.broker).toBe('fidelity');
    expect([...new Set(txs(result).map((tx) => tx.accountName))].sort()).toEqual(['529 555555555', 'Brokerage 333333333', 'CMA 444444444', 'HSA 222222222', 'IRA Account 111111111']);
  });

  it('options in the all-accounts layout (self-written): a wheel in one account, a long call in another', () => {
    const result = parsed(local('fidelity_all_accounts_options_selfwritten.csv'));
    const individual = figures(ledgerFor(result, (tx) => tx.accountName === 'Individual 111111111'));
    const roth = figures(ledgerFor(result, (tx) => tx.accountName === 'ROTH IRA 222222222'));
    // Put 2.15 assigned: 215 − 0.67; call 1.10 expired: 110 − 0.67. Long call: 2 × (9.85 − 5.40) × 100 − 2.69.
    expect([individual.optionsPL, roth.optionsPL]).toEqual([3_236_600, 8_873_100]);
    expect(txs(result).find((tx) => tx.type === 'ASSIGNMENT')?.tradeDate, 'as of Jan-19-2024').toBe('2024-01-19T21:00:00.000Z');
  });
});

describe('Webull orders', () => {
  const text = shared('webull_options_orders_multileg_2026_nkhanhtrn.csv');

  it('strategy parent rows ("GLD Vertical", no Symbol) are skipped; their legs are the trades', () => {
    const result = parsed(text, { asOf: new Date('2026-03-09T00:00:00Z') });
    expect(txs(result).filter((tx) => tx.symbol === '')).toEqual([]);
    const parents = text.split('\n').filter((line) => /^[^,]+,,/.test(line) && !/,Cancelled,0,/.test(line)).length;
    expect(result.skipped.filter((skip) => /strategy order/.test(skip.message))).toHaveLength(parents + text.split('\n').filter((line) => /^[^,]+,,.*,Cancelled,0,/.test(line)).length);
    const vertical = txs(result).filter((tx) => tx.tradeDate === '2026-03-06T15:38:29.000Z');
    expect(vertical.map((tx) => `${tx.type} ${tx.quantity} ${tx.symbol}`).sort()).toEqual(['BUY_TO_OPEN 100 GLD260320P00452000', 'SELL_TO_OPEN 100 GLD260320P00457000']);
  });

  it('a cancelled order with 20 of 100 filled is a fill of 20', () => {
    const result = parsed(text, { asOf: new Date('2026-03-09T00:00:00Z') });
    const partial = txs(result).filter((tx) => tx.tradeDate === '2026-03-02T16:45:58.000Z');
    expect(partial.map((tx) => `${tx.quantity} ${tx.symbol} ${tx.amountMinor}`).sort()).toEqual(['20 VIXW260303C00019000 -38600000', '20 VIXW260303C00020000 22200000']);
  });

  it('options written out ("SPY 09/23/2022 00:00:00 EDT Call $371.00", in Symbol or in Name) are options ×100', () => {
    const result = parsed(local('webull_options_written_out_selfwritten.csv'));
    const calls = txs(result).filter((tx) => tx.symbol === 'SPY220923C00371000');
    expect(calls.map((tx) => [tx.type, tx.multiplier])).toEqual([['SELL_TO_CLOSE', 100], ['BUY_TO_OPEN', 100]]);
    // (4.10 − 2.35) × 2 × 100 + (1.50 − 0.40) × 100 + (3.20 − 1.05) × 100; stock (381.00 − 380.50) × 10.
    expect(figures(ledgerFor(result))).toMatchObject({ optionsPL: 6_750_000, stockPL: 50_000 });
  });

  it('a Symbol that is neither a ticker nor a contract is an error, never a silent stock trade', () => {
    const outcome = parseImport(local('webull_options_written_out_selfwritten.csv').replace('SPY 09/23/2022 00:00:00 EDT Call $371.00,SPY 09/23/2022', 'SPY 09/23/2022 00:00:00 EDT Cal $371.00,SPY 09/23/2022 Cal'), 'auto', {});
    expect(outcome.ok && outcome.result.errors.map((e) => [e.line, e.message])).toEqual([[3, 'column "Symbol": neither a ticker nor an option contract: "SPY 09/23/2022 Cal 00:00:00 EDT Call $371.00"']]);
  });
});

describe('E*TRADE', () => {
  it('a reinvested dividend is the dividend as received plus a BUY of the shares', () => {
    const result = parsed(shared('etrade_txnhistory_2021_jwatts62.csv'));
    const reinvest = txs(result).find((tx) => tx.symbol === 'CSWC' && tx.type === 'BUY');
    // "REIN @ 25.0299": 5.81305 shares for 145.50.
    expect([reinvest?.quantity, reinvest?.priceMinor, reinvest?.amountMinor]).toEqual([5.81305, 250_299, -1_455_000]);
    expect(figures(ledgerFor(result)).dividends, 'PROVENANCE: 1,994.05 received, 11.17 withheld').toBe(19_828_800);
    expect(txs(result).find((tx) => /ADR CUSTODY FEE/.test(tx.description))?.type).toBe('FEE');
  });

  it('the newer "All Transactions" layout (self-written from public parsers), options and a lone reinvestment', () => {
    const text = local('etrade_all_transactions_selfwritten.csv');
    const result = parsed(text);
    expect(result.broker).toBe('etrade');
    expect(new Set(txs(result).map((tx) => tx.accountName))).toEqual(new Set(['Individual Brokerage -4821']));
    const total = minorOf(/^Total:,(.*)$/m.exec(text)?.[1] ?? '');
    expect(amountSum(result, (tx) => tx.inferred !== true), 'the file’s "Total:" line').toBe(total);
    // Put 212.49 assigned; call 149.49 bought back for 40.51; call 119.49 expired.
    expect(figures(ledgerFor(result))).toMatchObject({ optionsPL: 4_409_600, dividends: 475_200 });
    expect(txs(result).find((tx) => /ADR CUSTODY FEE/.test(tx.description))?.type, 'ADR fee filed as Adjustment').toBe('FEE');
    expect(result.warnings.map((w) => w.line)).toEqual([8]);
  });
});

describe('Interactive Brokers Flex', () => {
  it('a Trade Confirmation Flex query (Price, Commission, Tax, Code, TradeID) is read as trades', () => {
    const result = parsed(local('ibkr_trade_confirmation_flex_selfwritten.csv'));
    expect([result.broker, result.source]).toEqual(['ibkr', 'ibkr-flex-csv']);
    expect(txs(result).map((tx) => `${tx.type} ${tx.quantity} ${tx.symbol} ${tx.brokerRowId} ${tx.orderId}`)).toEqual([
      'SELL_TO_OPEN 2 KWEB240119P00025000 3101 5101',
      'BUY 10 AAPL 3102 5102',
      'BUY_TO_CLOSE 2 KWEB240119P00025000 3103 5103',
    ]);
    // The SYMBOL_SUMMARY row repeats the sale; the cancelled AAPL execution and its cancellation are skipped.
    expect(result.skipped.map((skip) => skip.line)).toEqual([4, 5]);
    expect(figures(ledgerFor(result)).optionsPL, '2 × (0.85 − 0.20) × 100 − 2.10 − 2.06').toBe(1_258_400);
    expect(amountSum(result)).toBe(-17_741_600);
  });

  it('columns in another order, unknown columns and "HEADER"/"DATA" line descriptors change nothing', () => {
    const text = local('ibkr_trade_confirmation_flex_selfwritten.csv');
    const plain = txs(parsed(text));
    const lines = text.trim().split('\n').map((line) => line.split('","').map((cell) => cell.replace(/^"|"$/g, '')));
    const order = lines[0]?.map((_, index) => index).reverse() ?? [];
    const shuffled = lines.map((cells, row) => [row === 0 ? 'HEADER' : 'DATA', 'TCNF', ...order.map((index) => cells[index] ?? ''), row === 0 ? 'Mystery' : 'x']);
    const again = txs(parsed(shuffled.map((cells) => cells.map((cell) => `"${cell}"`).join(',')).join('\n')));
    expect(again).toEqual(plain);
  });
});

describe('Robinhood', () => {
  it('a row of empty cells before the disclaimer is not a row', () => {
    const text = local('robinhood_activity_small_optionstradingtracker.csv').replace(/\n*$/, '\n');
    const padded = `${text}"","","","","","","","",""\n"","","","","","","","","","The data provided is for informational purposes only."\n`;
    expect(txs(parsed(padded))).toEqual(txs(parsed(text)));
  });
});

describe('Schwab', () => {
  const shares = [
    '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"',
    '"03/03/2025","Sell","V","VISA INC CLASS A","184","$340.00","$0.40","$62559.60"',
    '"02/12/2025","Journaled Shares","META","META PLATFORMS INC CLASS A","248","$722.695","",""',
    '"02/11/2025","Security Transfer","V","VISA INC CLASS A","184","","",""',
  ].join('\n');

  it('Security Transfer and Journaled Shares in come at zero basis with a warning: the later sale opens no phantom short', () => {
    const result = parsed(shares);
    expect(txs(result).map((tx) => `${tx.type} ${tx.quantity} ${tx.symbol} ${tx.priceMinor}`)).toEqual(['SELL 184 V 3400000', 'BUY 248 META 0', 'BUY 184 V 0']);
    expect(result.warnings.map((w) => w.line)).toEqual([3, 4]);
    const ledger = ledgerFor(result);
    expect(ledger.positions.filter((position) => position.symbol === 'V'), 'the sale closes the transferred shares').toEqual([]);
    expect(figures(ledger).stockPL, 'zero basis: the sale realizes its proceeds').toBe(625_596_000);
  });

  it('shares moved between the file’s own accounts (TD Ameritrade → Schwab) keep their lots', () => {
    const result = parsed(shared('schwab_transactions_2021-2025_wescules.csv'));
    // The 8 PLTR bought on 09/15/2021 at 26.795 went out and back in on 05/30/2023; Schwab's realized gains
    // sell them on 02/04/2025 against that basis (214.36), not at zero.
    const realized = tableRows(shared('schwab_realized_gains_2025_wescules.EXPECTED.csv'), 'Gain/Loss ($)')
      .filter((row) => row.Symbol === 'PLTR' && row['Closed Date'] === '02/04/2025')
      .reduce((sum, row) => sum + minorOf(row['Gain/Loss ($)'] ?? ''), 0);
    const ledger = ledgerFor(result, (tx) => tx.underlying === 'PLTR' && tx.tradeDate < '2025-02-05');
    expect(figures(ledger).stockPL).toBe(realized);
  });
});

describe('messages a person reads', () => {
  const cases: Array<[string, string | Uint8Array, RegExp]> = [
    ['an empty file', '', /^The file is empty/],
    ['a file of blank lines', '\n \r\n\n', /^The file is empty/],
    ['a PNG screenshot', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]), /^This is a PNG image, not a CSV export\./],
    ['a JPEG photo', new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]), /^This is a JPEG image, not a CSV export\./],
    ['a GIF', 'GIF89a\u0001\u0000\u0001\u0000', /^This is a GIF image/],
    ['a PDF statement', '%PDF-1.7\n%\u00e2\u00e3\n1 0 obj', /^This is a PDF document, not a CSV export\. A statement PDF cannot be read/],
    ['an Excel workbook', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 20, 0, 6, 0, 8, 0, ...Array.from('[Content_Types].xml xl/workbook.xml', (c) => c.charCodeAt(0))]), /^This is an Excel workbook \(\.xlsx\), not a CSV export\./],
    ['a zip archive', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 20, 0, 0, 0, 8, 0, ...Array.from('export.csv', (c) => c.charCodeAt(0))]), /^This is a zip archive, not a CSV export\. Unzip it/],
    ['an old Excel file', new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]), /^This is an Excel 97-2003 workbook \(\.xls\)/],
    ['an HTML "Excel" download', '<html><body><table><tr><td>Date</td></tr></table></body></html>', /^This is a web page \(HTML\)/],
    ['a UTF-16 "Unicode Text" save', new Uint8Array([0xff, 0xfe, ...Buffer.from('Run Date,Action,Symbol\r\n', 'utf16le')]), /^This is UTF-16 text, not a CSV export\. Save it as "CSV UTF-8/],
    ['another binary file', new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0x3e, 0]), /^This is a binary file, not a CSV export\./],
  ];
  const decode = (body: string | Uint8Array): string => (typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));

  for (const [what, body, detail] of cases) {
    it(`${what} is named as such`, () => {
      const outcome: ParseImportOutcome = parseImport(decode(body), 'auto', {});
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect(outcome.detail).toMatch(detail);
    });
  }

  it('with the broker’s name when it is known', () => {
    const outcome = parseImport(decode(cases[2]?.[1] ?? ''), 'schwab', {});
    expect(!outcome.ok && outcome.detail).toMatch(/^This is a PNG image, not a Charles Schwab CSV export\./);
    const empty = parseImport('', 'tastytrade', {});
    expect(!empty.ok && empty.detail).toBe('The tastytrade file is empty: there is nothing to import.');
    const headerOnly = parseImport('"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"\n', 'auto', {});
    expect(!headerOnly.ok && headerOnly.detail).toBe('The Charles Schwab file has its header but no transactions: there is nothing to import.');
  });

  it('an error message never repeats its line (the line is a field of its own)', () => {
    for (const [file, broken] of [
      ['fidelity_accounts_history_selfwritten.csv', (text: string) => text.replace('179.33', '179.3x')],
      ['etrade_transactions_selfwritten.csv', (text: string) => text.replace('18999.95', '18999.9x')],
      ['robinhood_activity_small_optionstradingtracker.csv', (text: string) => text.replace('$149.95', '$149.9x')],
      ['webull_orders_selfwritten.csv', (text: string) => text.replace('@1.80,1.80', '@1.80,1.8o')],
      ['ibkr_flex_query_selfwritten.csv', (text: string) => text.replace('"2.15","430"', '"2.1x","430"')],
    ] as const) {
      const outcome = parseImport(broken(local(file)), 'auto', {});
      const errors = outcome.ok ? outcome.result.errors : [];
      expect(errors, file).toHaveLength(1);
      expect(errors[0]?.message, file).toMatch(/^column "[^"]+": not a number: "[^"]+"$/);
    }
  });
});

describe('messages through the server', () => {
  const t = useTestApp();
  const post = (payload: string | Buffer, query = '') => t.request({ method: 'POST', url: `/v1/imports${query}`, headers: { 'content-type': 'text/csv' }, payload });

  it('a bad row: 422 whose detail says the line once', async () => {
    const response = await post(local('fidelity_accounts_history_selfwritten.csv').replace('179.33', '179.3x'));
    expect(response.statusCode).toBe(422);
    const problem = response.json<{ code: string; detail: string; errors: Array<{ line: number; message: string }> }>();
    expect(problem.code).toBe('IMPORT_FAILED');
    expect(problem.detail).toMatch(/\(first: line \d+: column "Amount \(\$\)": not a number: "179\.3x"\)/);
    expect(problem.detail.match(/line \d+/g)).toHaveLength(1);
  });

  it('a screenshot dropped as a broker file: 422 naming it, nothing stored', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    const response = await post(png, '?broker=webull');
    expect(response.statusCode).toBe(422);
    expect(response.json<{ code: string; detail: string }>()).toMatchObject({ code: 'UNSUPPORTED_FORMAT', detail: expect.stringMatching(/^This is a PNG image, not a Webull CSV export\./) });
    expect((t.ctx.db.prepare('SELECT COUNT(*) AS n FROM imports').get() as { n: number }).n).toBe(0);
  });
});
