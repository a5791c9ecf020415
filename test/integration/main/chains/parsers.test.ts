import { describe, expect, it } from 'vitest';
import { detectChainFormat, parseChainFile, parseCboeDateLine, parseOccSymbol, underlyingOfRoot, type ChainParseResult } from '../../../../src-main/chains/index';
import { parseNumberCell } from '../../../../src-main/chains/common';
import { availableExpirations, prepareChain } from '../../../../src-shared/exposure/index';

const CBOE_HEADER =
  'Expiration Date,Calls,Last Sale,Net,Bid,Ask,Volume,IV,Delta,Gamma,Open Interest,Strike,Puts,Last Sale,Net,Bid,Ask,Volume,IV,Delta,Gamma,Open Interest';
const cboeRow = (date: string, symbolCall: string, strike: string, symbolPut: string, callIv = '0.1375', putOi = '812') =>
  `${date},${symbolCall},60.1,0.5,59.8,60.4,12,${callIv},0.62,0.0041,1520,${strike},${symbolPut},12.3,-0.4,12.1,12.5,40,0.1402,-0.38,0.0041,${putOi}`;
const cboe = (rows: string[], date = '"Date: January 7, 2024 at 10:52 AM EST",Bid: 4645.23,Ask: 4753.8999,Size: 1*1,Volume: 0') =>
  ['', 'S&P 500 INDEX,Last: 4697.2402,Change:  8.5602', date, CBOE_HEADER, ...rows].join('\n');
const GOOD_ROWS = [
  cboeRow('Fri Jan 19 2024', 'SPXW240119C04650000', '4650.00', 'SPXW240119P04650000'),
  cboeRow('Fri Jan 19 2024', 'SPX240119C04650000', '4650.00', 'SPX240119P04650000'),
  cboeRow('Fri Jan 19 2024', 'SPXW240119C04700000', '4700.00', 'SPXW240119P04700000', '0', '0'),
];

function errorsOf(result: ChainParseResult) {
  if (result.ok) throw new Error('expected the parse to fail');
  return result.errors;
}

describe('helpers', () => {
  it('reads OCC symbols and maps roots to underlyings', () => {
    expect(parseOccSymbol('SPXW240119C04700000')).toEqual({ root: 'SPXW', expiration: '2024-01-19', right: 'C', strike: 4700 });
    expect(parseOccSymbol('AMD1230825P00102500')).toEqual({ root: 'AMD1', expiration: '2023-08-25', right: 'P', strike: 102.5 });
    expect(parseOccSymbol('SPY   250117P00450000'), 'the padded 21-character form').toEqual({ root: 'SPY', expiration: '2025-01-17', right: 'P', strike: 450 });
    expect(parseOccSymbol('SPXW240231C04700000'), 'February 31st').toBeNull();
    expect(['SPXW', 'SPX', 'NDXP', 'NDX', 'RUTW', 'AMD1', 'SPY'].map(underlyingOfRoot)).toEqual(['SPX', 'SPX', 'NDX', 'NDX', 'RUT', 'AMD', 'SPY']);
  });
  it('reads the CBOE Date: line in every spelling of the issue and docs/exposure.md', () => {
    // EST = UTC−5, EDT = UTC−4. The day-first and French lines are from real downloads (fixtures/README.md).
    const cases: Array<[string, string]> = [
      ['Date: January 7, 2024 at 10:52 AM EST', '2024-01-07T15:52:00Z'],
      ['Date: February 5 2022, 8:26 PM EST', '2022-02-06T01:26:00Z'],
      ['Date: September 14, 2023 at 4:31 PM EDT', '2023-09-14T20:31:00Z'],
      ['Date: 9 June 2023, 1:40 PM EDT', '2023-06-09T17:40:00Z'],
      ['Date: 26 May 2023, 5:18 PM EDT,Bid: 0,Ask: 0,Size: 0*0,Volume: 0', '2023-05-26T21:18:00Z'],
      ['Date: 24 September 2023,1:46 PM EDT', '2023-09-24T17:46:00Z'],
      ['Date: 10 novembre 2023 à 18:55 UTC\u22125,Bid: 213.87,Ask: 213.9,Size: 7*3,Volume: 130\u202f859\u202f611', '2023-11-10T23:55:00Z'],
      ['"Date: January 7, 2024 at 10:52 AM EST",Bid: 4645.23,Ask: 4753.8999', '2024-01-07T15:52:00Z'],
    ];
    for (const [line, expected] of cases) expect(parseCboeDateLine(line), line).toBe(expected);
  });

  it('reads a time without a zone as New York time, on both sides of a daylight-saving change', () => {
    expect(parseCboeDateLine('Date: January 7, 2024 at 10:52 AM'), 'EST').toBe('2024-01-07T15:52:00Z');
    expect(parseCboeDateLine('Date: 9 June 2023, 1:40 PM'), 'EDT').toBe('2023-06-09T17:40:00Z');
  });

  it('reads the line as the CBOE page writes it in other locales (the page formats with the browser locale)', () => {
    // The French download shows the page uses the browser's Intl long date with a short zone name; Node's Intl
    // writes the same strings, so each case is the page's output for that locale, at a winter and a summer instant.
    const options: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short', timeZone: 'America/New_York' };
    const locales = ['en-US', 'en-GB', 'en-CA', 'en-AU', 'fr-FR', 'de-DE', 'de-CH', 'es-ES', 'es-MX', 'pt-BR', 'nl-NL', 'ja-JP'];
    for (const instant of ['2023-11-10T23:55:00Z', '2023-06-09T17:40:00Z', '2024-01-07T15:52:00Z']) {
      for (const locale of locales) {
        const written = new Date(instant).toLocaleString(locale, options);
        expect(parseCboeDateLine(`Date: ${written},Bid: 1`), `${locale}: "${written}"`).toBe(instant.replace('.000Z', 'Z'));
      }
    }
    expect(new Date('2023-11-10T23:55:00Z').toLocaleString('de-DE', options), 'the German line really is localised').toBe('10. November 2023 um 18:55 GMT-5');
    expect(new Date('2023-11-10T23:55:00Z').toLocaleString('es-ES', options)).toBe('10 de noviembre de 2023 a las 18:55 GMT-5');
  });

  it('refuses a line it can only half read rather than guessing', () => {
    expect(parseCboeDateLine('Date: Smarch 14, 2023 at 4:31 PM EDT'), 'no month').toBeNull();
    expect(parseCboeDateLine('Date: Someday at noon'), 'no date').toBeNull();
    expect(parseCboeDateLine('Date: September 14 at 4:31 PM EDT'), 'no year').toBeNull();
    expect(parseCboeDateLine('Date: September 14, 2023'), 'no time').toBeNull();
    // fr-CA writes "18 h 55": chrono reads the hour but not the minute; never 18:00, it is read by hand as 18:55 HNE (EST).
    expect(parseCboeDateLine('Date: 10 novembre 2023 à 18 h 55 HNE'), 'the minute read').toBe('2023-11-10T23:55:00Z');
  });

  it('reads numbers with thousands separators only where they separate groups of three digits', () => {
    expect(parseNumberCell('4697.2402')).toBe(4697.2402);
    expect(parseNumberCell('1,234')).toBe(1234);
    expect(parseNumberCell(' 14,694.3506 ')).toBe(14694.3506);
    expect(parseNumberCell('130\u202f859\u202f611'), 'narrow no-break spaces (the French page)').toBe(130859611);
    expect(parseNumberCell('130 859 611')).toBe(130859611);
    expect(parseNumberCell('$1,005.25')).toBe(1005.25);
    expect(parseNumberCell('4700')).toBe(4700);
    expect(parseNumberCell('1.5E-04')).toBe(0.00015);
    expect(parseNumberCell('0,1064'), 'a decimal comma in a comma file is not 1064').toBeNull();
    expect(parseNumberCell('12,34,567')).toBeNull();
    expect(parseNumberCell('n/a')).toBeNull();
    expect(parseNumberCell('')).toBeNull();
    expect(parseNumberCell('0,1064', ','), 'a semicolon file from a decimal-comma spreadsheet').toBe(0.1064);
    expect(parseNumberCell('4.697,2402', ',')).toBe(4697.2402);
    expect(parseNumberCell('4 697,24', ',')).toBe(4697.24);
    expect(parseNumberCell('1.5', ','), 'a dot there groups thousands, and 1.5 is not a group of three').toBeNull();
  });
});

describe('CBOE quotedata CSV', () => {
  it('parses rows into contracts with roots kept', () => {
    const result = parseChainFile(cboe(GOOD_ROWS));
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(detectChainFormat(cboe(GOOD_ROWS))).toBe('cboe-csv');
    expect(result.snapshot).toMatchObject({ symbol: 'SPX', spot: 4697.2402, quoteTime: '2024-01-07T15:52:00Z', source: 'cboe-csv' });
    expect(result.snapshot.contracts).toHaveLength(6);
    expect(result.snapshot.contracts[0], 'the call side of the row, its Volume 12 carried').toEqual({ root: 'SPXW', expiration: '2024-01-19', strike: 4650, right: 'C', openInterest: 1520, iv: 0.1375, bid: 59.8, ask: 60.4, multiplier: 100, volume: 12 });
    expect(result.snapshot.contracts[1]?.volume, 'the put side: its own Volume column').toBe(40);
    expect(result.snapshot.contracts[3]).toMatchObject({ root: 'SPX', right: 'P', openInterest: 812, iv: 0.1402 });
    expect(result.snapshot.contracts[5], 'IV = 0 and OI = 0 are kept').toMatchObject({ strike: 4700, right: 'P', openInterest: 0 });
    expect(result.snapshot.contracts[4], 'IV = 0 is kept').toMatchObject({ strike: 4700, right: 'C', iv: 0 });
  });
  it('applies the symbol and quoteTime options', () => {
    const result = parseChainFile(cboe(GOOD_ROWS), { symbol: 'spx', quoteTime: '2024-01-05T16:15' });
    if (!result.ok) throw new Error('parse failed');
    expect(result.snapshot.symbol).toBe('SPX');
    expect(result.snapshot.quoteTime, 'an ISO time without offset is New York time').toBe('2024-01-05T21:15:00Z');
  });
  it('names the line of each problem', () => {
    const errors = errorsOf(
      parseChainFile(
        cboe([
          GOOD_ROWS[0] ?? '',
          cboeRow('Fri Jan 19 2024', 'SPXW240119C04660000', '4660.00', 'SPXW240119P04660000').replace('0.1375', 'n/a'),
          cboeRow('Fri Jan 19 2024', 'SPXW240119C04650000', '4650.00', 'SPXW240119P04650000'),
          cboeRow('Fri Jan 99 2024', 'SPXW240119C04670000', '4670.00', 'SPXW240119P04670000'),
          'Fri Jan 19 2024,SPXW240119C04680000,1,2',
        ]),
      ),
    );
    expect(errors).toEqual([
      { line: 6, message: 'non-numeric IV "n/a" (call)' },
      { line: 8, message: expect.stringContaining('bad date') },
      { line: 9, message: 'expected 22 columns, found 4' },
      { line: 7, message: 'duplicated contract SPXW 2024-01-19 4650 C (first on line 5)' },
      { line: 7, message: 'duplicated contract SPXW 2024-01-19 4650 P (first on line 5)' },
    ]);
  });
  it('reports missing columns on the header line, a missing spot and a bad Date: line', () => {
    const noIv = cboe(GOOD_ROWS).replace(CBOE_HEADER, CBOE_HEADER.replace(',IV,', ',Implied,'));
    expect(errorsOf(parseChainFile(noIv))).toEqual([{ line: 4, message: 'missing columns: IV (calls)' }]);
    const noSpot = cboe(GOOD_ROWS).replace('Last: 4697.2402,', '');
    expect(errorsOf(parseChainFile(noSpot)).map((e) => e.message)).toContain('no spot price: the file gives no underlying price (pass spot)');
    const badDate = cboe(GOOD_ROWS, '"Date: Someday at noon",Bid: 1');
    const dateErrors = errorsOf(parseChainFile(badDate));
    expect(dateErrors, 'one error for the line, not a second "no quote time"').toHaveLength(1);
    const [dateError] = dateErrors;
    expect(dateError?.line).toBe(3);
    expect(dateError?.message, 'says what it read').toContain('cannot read the quote time "Someday at noon"');
    expect(dateError?.message, 'says what was expected').toContain('"January 7, 2024 at 10:52 AM EST"');
    expect(dateError?.message, 'says the way out').toContain('quoteTime=');
    const given = parseChainFile(badDate, { quoteTime: '2024-01-07T10:52' });
    expect(given.ok && given.snapshot.quoteTime, 'quoteTime= replaces an unreadable line').toBe('2024-01-07T15:52:00Z');
  });
  it('takes the quotedata IV as a decimal however high: a volatile chain is never refused', () => {
    // TSLA-like: median IV 1.01 (101%), one contract at 5.18 (518%). The old "percent" guess refused such files.
    const rows = [200, 210, 220].map((k) =>
      cboeRow('Fri Jan 19 2024', `TSLA240119C00${k}000`, `${k}.00`, `TSLA240119P00${k}000`, k === 200 ? '5.1842' : '1.0078').replace('0.1402', '1.0143'),
    );
    const result = parseChainFile(cboe(rows).replace('Last: 4697.2402', 'Last: 218.8'));
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.snapshot.contracts.map((c) => c.iv)).toEqual([5.1842, 1.0143, 1.0078, 1.0143, 1.0078, 1.0143]);
  });
  it('rejects an empty file', () => {
    expect(errorsOf(parseChainFile(''))).toEqual([{ line: null, message: 'empty file' }]);
    expect(errorsOf(parseChainFile('\n\n  \n'))).toEqual([{ line: null, message: 'empty file' }]);
  });
});

// A small sample of https://cdn.cboe.com/api/global/delayed_quotes/options/_SPX.json (fields trimmed), taken
// 2024-01-05 after the close: `timestamp` is UTC (21:15:04Z = 16:15:04 EST), the `last_trade_time`s are New York.
const CBOE_JSON = JSON.stringify({
  timestamp: '2024-01-05 21:15:04',
  data: {
    symbol: '_SPX',
    current_price: 4697.24,
    price_change: 8.56,
    last_trade_time: '2024-01-05T16:14:59',
    options: [
      { option: 'SPXW240119C04700000', bid: 48.1, ask: 48.9, iv: 0.1187, open_interest: 5621, volume: 3320, delta: 0.5122, gamma: 0.0041, theo: 48.5, last_trade_time: '2024-01-05T16:14:52' },
      { option: 'SPXW240119P04700000', bid: 45.9, ask: 46.6, iv: 0.1213, open_interest: 7032, volume: 4410, delta: -0.4878, gamma: 0.0041, theo: 46.25, last_trade_time: '2024-01-05T16:14:58' },
      { option: 'SPX240119C04800000', bid: 8.1, ask: 8.6, iv: 0.1015, open_interest: 21877, volume: 1200, delta: 0.1802, gamma: 0.0024, theo: 8.35, last_trade_time: '2024-01-05T15:59:41' },
      { option: 'SPX240119P04600000', bid: 14.2, ask: 14.8, iv: 0.1432, open_interest: 26110, volume: 2500, delta: -0.2481, gamma: 0.0026, theo: 14.5, last_trade_time: '2024-01-05T16:02:13' },
      { option: 'SPXW240105C04700000', bid: 0, ask: 0.05, iv: 0, open_interest: 0, volume: 0, delta: 0, gamma: 0, theo: 0, last_trade_time: '2024-01-05T15:59:59' },
    ],
  },
});

describe('CBOE delayed-quotes JSON', () => {
  it('parses the document', () => {
    expect(detectChainFormat(CBOE_JSON)).toBe('cboe-json');
    const result = parseChainFile(CBOE_JSON);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.snapshot).toMatchObject({ symbol: 'SPX', spot: 4697.24, source: 'cboe-json', quoteTime: '2024-01-05T21:15:04Z' });
    expect(result.snapshot.contracts).toHaveLength(5);
    expect(result.snapshot.contracts[2]).toEqual({ root: 'SPX', expiration: '2024-01-19', strike: 4800, right: 'C', openInterest: 21877, iv: 0.1015, bid: 8.1, ask: 8.6, multiplier: 100, volume: 1200 });
  });
  it('reads the top-level timestamp as UTC: the quotes are minutes after the last trades, not hours', () => {
    const result = parseChainFile(CBOE_JSON);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const quoteMs = Date.parse(result.snapshot.quoteTime);
    // Each option's last_trade_time is New York wall-clock time (EST in January: +5 h to UTC).
    const lastTrades = (JSON.parse(CBOE_JSON) as { data: { options: Array<{ last_trade_time: string }> } }).data.options.map((o) => Date.parse(`${o.last_trade_time}-05:00`));
    const latestTradeMs = Math.max(...lastTrades);
    expect(quoteMs, 'the snapshot is not older than its newest trade').toBeGreaterThanOrEqual(latestTradeMs);
    expect(quoteMs - latestTradeMs, 'and follows it within the 15-minute delay, not 4–5 hours later').toBeLessThanOrEqual(15 * 60_000);
    // A same-day expiration polled during the session is unexpired (read as New York time, 14:15 would become 19:15 EST, after the close).
    const session = CBOE_JSON.replace('2024-01-05 21:15:04', '2024-01-05 19:15:04').replace('"open_interest":0', '"open_interest":310').replace('"iv":0,', '"iv":0.09,');
    const parsed = parseChainFile(session);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    expect(parsed.snapshot.quoteTime).toBe('2024-01-05T19:15:04Z');
    expect(availableExpirations(prepareChain(parsed.snapshot, { rate: 0.04 })), 'the 0DTE SPXW expiration is kept').toEqual(['2024-01-05', '2024-01-19']);
  });
  it('honours an explicit offset in the timestamp, and falls back to data.last_trade_time (New York)', () => {
    const withOffset = parseChainFile(CBOE_JSON.replace('2024-01-05 21:15:04', '2024-01-05T16:15:04-05:00'));
    expect(withOffset.ok && withOffset.snapshot.quoteTime).toBe('2024-01-05T21:15:04Z');
    const without = JSON.parse(CBOE_JSON) as { timestamp?: string };
    delete without.timestamp;
    const fallback = parseChainFile(JSON.stringify(without));
    expect(fallback.ok && fallback.snapshot.quoteTime, 'data.last_trade_time 16:14:59 EST').toBe('2024-01-05T21:14:59Z');
  });
  it('names the bad element and the JSON syntax error line', () => {
    const broken = CBOE_JSON.replace('"option":"SPX240119P04600000"', '"option":"nonsense"');
    expect(errorsOf(parseChainFile(broken))).toEqual([{ line: null, message: 'data.options[3]: option "nonsense" is not an OCC option symbol' }]);
    const truncated = '{\n  "data": {\n    "options": [\n      {"option": "SPXW240119C04700000",\n';
    const errors = errorsOf(parseChainFile(truncated, { format: 'cboe-json' }));
    expect(errors[0]?.message).toMatch(/^not valid JSON/);
    const noSpot = JSON.stringify({ data: { options: JSON.parse(CBOE_JSON).data.options } });
    expect(errorsOf(parseChainFile(noSpot, { quoteTime: '2024-01-05T16:00' })).map((e) => e.message)).toEqual(['no spot price: the file gives no underlying price (pass spot)']);
  });
});

const GENERIC_CSV = [
  '# symbol: XYZ',
  '# spot: 101.25',
  '# quoteTime: 2026-02-02T16:00',
  'expiration,strike,right,openInterest,iv,bid,ask',
  '2026-02-20,100,C,1200,0.31,4.1,4.3',
  '2026-02-20,100,P,900,0.33,2.8,3.0',
  '2026-02-20,105,call,500,0.29,,',
].join('\n');

describe('generic CSV and JSON', () => {
  it('parses the documented CSV', () => {
    const result = parseChainFile(GENERIC_CSV);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.snapshot).toMatchObject({ symbol: 'XYZ', spot: 101.25, quoteTime: '2026-02-02T21:00:00Z', source: 'generic' });
    expect(result.snapshot.contracts[2]).toEqual({ root: 'XYZ', expiration: '2026-02-20', strike: 105, right: 'C', openInterest: 500, iv: 0.29, bid: 0, ask: 0, multiplier: 100 });
  });
  it('takes spot, symbol and time from the options when the file has no # lines', () => {
    const bare = GENERIC_CSV.split('\n').slice(3).join('\n');
    expect(errorsOf(parseChainFile(bare)).map((e) => e.message)).toEqual([
      'no spot price: the file gives no underlying price (pass spot)',
      'no quote time: the file gives none (pass quoteTime)',
      'no underlying symbol: pass symbol',
    ]);
    const result = parseChainFile(bare, { format: 'generic-csv', spot: 101.25, symbol: 'XYZ', quoteTime: '2026-02-02T21:00:00Z' });
    expect(result.ok).toBe(true);
  });
  it('names lines of bad rows and missing columns', () => {
    const bad = GENERIC_CSV.replace('2026-02-20,100,P,900,0.33', '2026-02-20,100,X,900,0.33').replace('2026-02-20,105,call,500', '2026-13-20,105,call,500');
    expect(errorsOf(parseChainFile(bad))).toEqual([
      { line: 6, message: 'right "X" is not C or P' },
      { line: 7, message: 'bad date: expiration "2026-13-20" is not YYYY-MM-DD' },
    ]);
    const noIv = GENERIC_CSV.replace(',iv,', ',vol,');
    expect(errorsOf(parseChainFile(noIv))).toEqual([{ line: 4, message: expect.stringContaining('missing columns: iv') }]);
    const text = GENERIC_CSV.replace('1200,0.31', 'lots,0.31');
    expect(errorsOf(parseChainFile(text))).toEqual([{ line: 5, message: 'non-numeric openInterest "lots"' }]);
  });
  it('refuses IV written in percent in the generic formats, but not a high-volatility chain', () => {
    const percent = [
      '# symbol: XYZ',
      '# spot: 101.25',
      '# quoteTime: 2026-02-02T16:00',
      'expiration,strike,right,openInterest,iv',
      '2026-02-20,100,C,1200,31.5',
      '2026-02-20,100,P,900,33.1',
      '2026-02-20,105,C,500,0',
    ].join('\n');
    const errors = errorsOf(parseChainFile(percent));
    expect(errors.map((e) => e.line)).toEqual([5, 6]);
    expect(errors[0]?.message).toMatch(/^IV looks like percent \(31\.5; typical IV in this file is 33\.1\)/);
    // Median 1.01 (101%) with one IV at 5.18: real for a meme stock; 5.18 simply contributes nothing.
    const volatile = percent.replace(',31.5', ',1.01').replace(',33.1', ',1.02').replace('105,C,500,0', '105,C,500,5.18');
    expect(parseChainFile(volatile).ok).toBe(true);
  });
  it('parses the ChainSnapshot JSON shape', () => {
    const json = JSON.stringify({
      symbol: 'XYZ',
      spot: 101.25,
      quoteTime: '2026-02-02T21:00:00Z',
      contracts: [
        { expiration: '2026-02-20', strike: 100, right: 'C', openInterest: 1200, iv: 0.31, bid: 4.1, ask: 4.3 },
        { root: 'XYZ1', expiration: '2026-02-20', strike: 100, right: 'P', openInterest: 900, iv: 0.33, multiplier: 50 },
      ],
    });
    expect(detectChainFormat(json)).toBe('generic-json');
    const result = parseChainFile(json);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.snapshot.contracts).toEqual([
      { root: 'XYZ', expiration: '2026-02-20', strike: 100, right: 'C', openInterest: 1200, iv: 0.31, bid: 4.1, ask: 4.3, multiplier: 100 },
      { root: 'XYZ1', expiration: '2026-02-20', strike: 100, right: 'P', openInterest: 900, iv: 0.33, bid: 0, ask: 0, multiplier: 50 },
    ]);
    const dup = JSON.parse(json);
    dup.contracts.push(dup.contracts[0]);
    expect(errorsOf(parseChainFile(JSON.stringify(dup)))).toEqual([{ line: null, message: 'duplicated contract XYZ 2026-02-20 100 C' }]);
  });
});
