/**
 * The chain sources of issue 21 on self-written documents that follow each source's fields: Schwab / TD Ameritrade
 * API chain JSON and yfinance option_chain CSV dumps; volume in every source; and what POST /v1/chains and the CLI do
 * for files that lack a symbol, a spot or a quote time (the messages name the parameter or the option).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectChainFormat, parseChainFile, type ChainParseResult } from '../../../../src-main/chains/index';
import { lastTradeMs } from '../../../../src-main/chains/yfinance-csv';
import { runCli } from '../../../cli';
import { useTestApp } from '../../../helper';

function okOf(result: ChainParseResult) {
  if (!result.ok) throw new Error(`expected a parse: ${JSON.stringify(result.errors.slice(0, 3))}`);
  return result;
}
function errorsOf(result: ChainParseResult) {
  if (result.ok) throw new Error('expected the parse to fail');
  return result.errors;
}

/** A Schwab option: the fields the parser reads and some it does not, as the API sends them. */
const option = (fields: Record<string, unknown>): Record<string, unknown> => ({
  exchangeName: 'OPR',
  last: 1.23,
  mark: 1.25,
  bidSize: 10,
  askSize: 12,
  delta: 0.5,
  gamma: 0.01,
  theoreticalVolatility: 29,
  optionDeliverablesList: [{ symbol: 'SPY', assetType: 'STOCK', deliverableUnits: 100 }],
  expirationType: 'W',
  settlementType: 'P',
  nonStandard: false,
  ...fields,
});
// 2025-05-16 15:59:58.500 New York (EDT) = 19:59:58.500Z; the newest quote of the chain.
const NEWEST_QUOTE_MS = Date.UTC(2025, 4, 16, 19, 59, 58, 500);
const SCHWAB = {
  symbol: 'SPY',
  status: 'SUCCESS',
  underlying: null,
  strategy: 'SINGLE',
  isDelayed: false,
  interestRate: 4.5,
  underlyingPrice: 589.25,
  volatility: 29,
  numberOfContracts: 5,
  callExpDateMap: {
    '2025-05-19:3': {
      '590.0': [
        option({ putCall: 'CALL', symbol: 'SPY   250519C00590000', bid: 3.1, ask: 3.15, totalVolume: 18250, volatility: 14.52, openInterest: 12011, strikePrice: 590, multiplier: 100, optionRoot: 'SPY', quoteTimeInLong: NEWEST_QUOTE_MS - 2000 }),
      ],
      '600.0': [option({ putCall: 'CALL', symbol: 'SPY   250519C00600000', bid: 0.41, ask: 0.43, totalVolume: 9100, volatility: -999, openInterest: 20400, strikePrice: 600, multiplier: 100, optionRoot: 'SPY', quoteTimeInLong: NEWEST_QUOTE_MS })],
    },
  },
  putExpDateMap: {
    '2025-05-19:3': {
      '590.0': [option({ putCall: 'PUT', symbol: 'SPY   250519P00590000', bid: 3.85, ask: 3.9, totalVolume: 21000, volatility: 15.9, openInterest: 9400, strikePrice: 590, multiplier: 100, optionRoot: 'SPY', quoteTimeInLong: NEWEST_QUOTE_MS - 800 })],
      '580.0': [option({ putCall: 'PUT', symbol: 'SPY   250519P00580000', bid: 1.2, ask: 1.23, totalVolume: 7000, volatility: 'NaN', openInterest: 15000, strikePrice: 580, multiplier: 100, optionRoot: 'SPY', quoteTimeInLong: 0 })],
    },
    '2025-06-20:35': {
      '560.0': [option({ putCall: 'PUT', symbol: 'SPY   250620P00560000', bid: 4.4, ask: 4.5, totalVolume: 1500, volatility: 19.25, openInterest: 50210, strikePrice: 560, multiplier: 100, optionRoot: 'SPY', quoteTimeInLong: NEWEST_QUOTE_MS - 60_000 })],
    },
  },
};

describe('Schwab / TD Ameritrade API chain JSON', () => {
  const text = JSON.stringify(SCHWAB, null, 2);

  it('is detected and read: IV from percent, volume, root, spot, the newest quoteTimeInLong', () => {
    expect(detectChainFormat(text)).toBe('schwab-json');
    const { snapshot, warnings } = okOf(parseChainFile(text));
    expect(snapshot).toMatchObject({ symbol: 'SPY', spot: 589.25, quoteTime: '2025-05-16T19:59:58.500Z', source: 'schwab-json' });
    expect(warnings).toEqual([]);
    expect(snapshot.contracts).toHaveLength(5);
    expect(snapshot.contracts[0], '14.52% → 0.1452').toEqual({ root: 'SPY', expiration: '2025-05-19', strike: 590, right: 'C', openInterest: 12011, iv: 0.1452, bid: 3.1, ask: 3.15, multiplier: 100, volume: 18250 });
    expect(snapshot.contracts.map((c) => c.iv), '−999 and "NaN" are the API’s "no volatility": IV 0, the contract kept').toEqual([0.1452, 0, 0.159, 0, 0.1925]);
  });

  it('reads the TD Ameritrade spellings: $SPX.X, SPXW_011924C4700 symbols without optionRoot, expirationDate in ms', () => {
    const tda = {
      symbol: '$SPX.X',
      status: 'SUCCESS',
      underlyingPrice: 4697.24,
      callExpDateMap: { '2024-01-19:12': { '4700.0': [{ putCall: 'CALL', symbol: 'SPXW_011924C4700', bid: 48.1, ask: 48.9, totalVolume: 3320, volatility: 11.87, openInterest: 5621, strikePrice: 4700.0, expirationDate: 1705698000000, multiplier: 100.0, quoteTimeInLong: 1704489304000 }] } },
      putExpDateMap: { '2024-01-19:12': { '4700.0': [{ putCall: 'PUT', symbol: 'SPX_011924P4700', bid: 45.9, ask: 46.6, totalVolume: 4410, volatility: 12.13, openInterest: 7032, strikePrice: 4700.0, multiplier: 100.0, quoteTimeInLong: 1704489300000 }] } },
    };
    const { snapshot } = okOf(parseChainFile(JSON.stringify(tda)));
    expect(snapshot.symbol).toBe('SPX');
    expect(snapshot.contracts.map((c) => c.root), 'SPXW settles PM, SPX AM: the root decides').toEqual(['SPXW', 'SPX']);
    expect(snapshot.quoteTime).toBe('2024-01-05T21:15:04Z');
  });

  it('refuses what it cannot read, naming the place in the document', () => {
    const broken = structuredClone(SCHWAB) as typeof SCHWAB & Record<string, unknown>;
    const calls = broken.callExpDateMap['2025-05-19:3'];
    calls['590.0'] = [option({ putCall: 'PUT', bid: 1, ask: 1.1, volatility: 10, openInterest: 1, strikePrice: 590 })];
    calls['600.0'] = [option({ putCall: 'CALL', bid: 'n/a', ask: 0.43, volatility: 20, strikePrice: 600 })];
    (broken.putExpDateMap as Record<string, unknown>)['2025-13-01:9'] = {};
    expect(errorsOf(parseChainFile(JSON.stringify(broken))).map((e) => e.message)).toEqual([
      'callExpDateMap["2025-05-19:3"]["590.0"][0]: putCall "PUT" in callExpDateMap',
      'callExpDateMap["2025-05-19:3"]["600.0"][0]: missing or non-numeric bid, openInterest',
      'putExpDateMap["2025-13-01:9"]: bad date: the key does not start with YYYY-MM-DD',
    ]);
    const negative = structuredClone(SCHWAB);
    const first = negative.putExpDateMap['2025-06-20:35']['560.0'][0];
    if (first !== undefined) first.volatility = -5;
    expect(errorsOf(parseChainFile(JSON.stringify(negative))).map((e) => e.message)).toEqual(['putExpDateMap["2025-06-20:35"]["560.0"][0]: negative volatility']);
    expect(errorsOf(parseChainFile(JSON.stringify({ symbol: 'SPY', status: 'FAILED', callExpDateMap: {}, putExpDateMap: {} }))).map((e) => e.message)).toContain(
      'the chain request failed (status FAILED): the document holds no contracts',
    );
  });

  it('accepts one side with a warning, and asks for quoteTime when no contract has a quote time', () => {
    const callsOnly = { ...SCHWAB, putExpDateMap: {} };
    expect(okOf(parseChainFile(JSON.stringify(callsOnly))).warnings[0]).toMatch(/^only calls in the chain/);
    const stripped = JSON.parse(text.replace(/"quoteTimeInLong": \d+/g, '"quoteTimeInLong": 0')) as unknown;
    const errors = errorsOf(parseChainFile(JSON.stringify(stripped)));
    expect(errors).toEqual([{ line: null, message: 'no quote time: the file gives none (pass quoteTime)', param: 'quoteTime' }]);
    expect(errorsOf(parseChainFile(JSON.stringify(stripped), { names: { symbol: '--symbol', spot: '--spot', quoteTime: '--quote-time' } }))[0]?.message).toBe('no quote time: the file gives none (pass --quote-time)');
  });
});

const YF_HEADER = ',contractSymbol,lastTradeDate,strike,lastPrice,bid,ask,change,percentChange,volume,openInterest,impliedVolatility,inTheMoney,contractSize,currency';
/** `calls.to_csv(f)` then `puts.to_csv(f, mode='a')`: two frames, the header twice, NaN cells empty. */
const YF_CALLS = [
  YF_HEADER,
  '0,SPY250519C00585000,2025-05-16 19:59:41+00:00,585.0,5.9,5.85,5.95,0.4,7.27,4120.0,8804,0.15870,True,REGULAR,USD',
  '1,SPY250519C00590000,2025-05-16 19:59:58+00:00,590.0,3.12,3.1,3.15,0.21,7.2,18250.0,12011,0.14520,False,REGULAR,USD',
  '2,SPY250519C00595000,2025-05-16 19:58:12+00:00,595.0,1.44,1.43,1.45,0.1,7.4,,9310,0.13911,False,REGULAR,USD',
];
const YF_PUTS = [
  YF_HEADER,
  '0,SPY250519P00585000,2025-05-16 19:59:50+00:00,585.0,2.4,2.38,2.41,-0.3,-11.1,15002.0,11020,0.16703,False,REGULAR,USD',
  '1,SPY250519P00590000,2025-05-16 19:59:44+00:00,590.0,3.87,3.85,3.9,-0.4,-9.4,21000.0,9400,0.15900,True,REGULAR,USD',
  '2,SPY250620P00560000,2025-05-15 17:02:03+00:00,560.0,4.45,4.4,4.5,0.0,0.0,1500.0,,,False,REGULAR,USD',
];

describe('yfinance option_chain CSV', () => {
  const text = [...YF_CALLS, ...YF_PUTS].join('\n');

  it('is detected and read, both frames; empty (NaN) cells are no volume, no open interest and no IV', () => {
    expect(detectChainFormat(text)).toBe('yfinance-csv');
    const { snapshot } = okOf(parseChainFile(text, { spot: 589.25, quoteTime: '2025-05-16T16:00' }));
    expect(snapshot).toMatchObject({ symbol: 'SPY', spot: 589.25, quoteTime: '2025-05-16T20:00:00Z', source: 'yfinance-csv' });
    expect(snapshot.contracts).toHaveLength(6);
    expect(snapshot.contracts[1]).toEqual({ root: 'SPY', expiration: '2025-05-19', strike: 590, right: 'C', openInterest: 12011, iv: 0.1452, bid: 3.1, ask: 3.15, multiplier: 100, volume: 18250 });
    expect(snapshot.contracts[2]?.volume, 'an empty volume cell').toBeUndefined();
    expect(snapshot.contracts[5]).toMatchObject({ openInterest: 0, iv: 0, volume: 1500 });
  });

  it('needs the spot (the message names spot=, or --spot in the CLI); without quoteTime the newest lastTradeDate stands in, with a warning', () => {
    expect(errorsOf(parseChainFile(text))).toEqual([{ line: null, message: 'no spot price: the file gives no underlying price (pass spot)', param: 'spot' }]);
    expect(errorsOf(parseChainFile(text, { names: { symbol: '--symbol', spot: '--spot', quoteTime: '--quote-time' } }))[0]?.message).toBe('no spot price: the file gives no underlying price (pass --spot)');
    const { snapshot, warnings } = okOf(parseChainFile(text, { spot: 589.25 }));
    expect(snapshot.quoteTime, '19:59:58 UTC, the newest trade').toBe('2025-05-16T19:59:58Z');
    expect(warnings).toEqual(['the file has no quote time: the newest lastTradeDate (2025-05-16T19:59:58Z) stands for it; pass quoteTime to set it']);
  });

  it('accepts one frame alone with a warning; reads pandas’ naive times as UTC and index=False dumps', () => {
    const calls = okOf(parseChainFile(YF_CALLS.join('\n'), { spot: 589.25, quoteTime: '2025-05-16T16:00' }));
    expect(calls.warnings).toEqual(['only calls in the file (one option_chain frame): exposure, the parity forward and the ATM figures see one side']);
    expect(lastTradeMs('2025-05-16 19:59:58')).toBe(Date.UTC(2025, 4, 16, 19, 59, 58));
    expect(lastTradeMs('2025-05-16 15:59:58-04:00')).toBe(Date.UTC(2025, 4, 16, 19, 59, 58));
    const noIndex = YF_PUTS.map((line) => line.slice(line.indexOf(',') + 1)).join('\r\n');
    expect(okOf(parseChainFile(noIndex, { spot: 589.25, quoteTime: '2025-05-16T16:00' })).snapshot.contracts).toHaveLength(3);
  });

  it('refuses rows it cannot read, by line', () => {
    const bad = [YF_HEADER, '0,SPY250519C00585000,2025-05-16 19:59:41+00:00,586.0,5.9,5.85,5.95,0.4,7.27,4120.0,8804,0.1587,True,REGULAR,USD', '1,SPY250519C00590000,,590.0,3.12,x,3.15,0,0,1,-3,0.1452,False,REGULAR,USD', '2,NOTASYMBOL,,1,1,1,1,0,0,1,1,1,False,REGULAR,USD'];
    expect(errorsOf(parseChainFile(bad.join('\n'), { spot: 589.25, quoteTime: '2025-05-16T16:00' }))).toEqual([
      { line: 2, message: 'strike "586.0" does not match SPY250519C00585000' },
      { line: 3, message: 'non-numeric bid' },
      { line: 4, message: 'contractSymbol "NOTASYMBOL" is not an OCC option symbol (root + YYMMDD + C/P + strike×1000)' },
    ]);
    expect(errorsOf(parseChainFile([YF_HEADER, '0,SPY250519C00585000,,585.0,1,1,1,0,0,1,-3,0.1,False,REGULAR,USD'].join('\n'), { spot: 1, quoteTime: '2025-05-16T16:00' }))).toEqual([{ line: 2, message: 'negative openInterest' }]);
  });
});

describe('volume in the CBOE JSON and the generic formats', () => {
  it('is read where given and absent where not', () => {
    const generic = ['# symbol: XYZ', '# spot: 100', '# quoteTime: 2026-02-02T16:00', 'expiration,strike,right,openInterest,iv,volume', '2026-02-20,100,C,10,0.3,25', '2026-02-20,100,P,10,0.3,'].join('\n');
    const { snapshot } = okOf(parseChainFile(generic));
    expect(snapshot.contracts.map((c) => c.volume)).toEqual([25, undefined]);
    expect(errorsOf(parseChainFile(generic.replace(',25', ',-1')))).toEqual([{ line: 5, message: 'volume "-1" is not a number ≥ 0' }]);
    const json = { symbol: 'XYZ', spot: 100, quoteTime: '2026-02-02T16:00', contracts: [{ expiration: '2026-02-20', strike: 100, right: 'C', openInterest: 1, iv: 0.3, volume: 7 }, { expiration: '2026-02-20', strike: 100, right: 'P', openInterest: 1, iv: 0.3 }] };
    expect(okOf(parseChainFile(JSON.stringify(json))).snapshot.contracts.map((c) => c.volume)).toEqual([7, undefined]);
  });
});

describe('POST /v1/chains: overrides, the snapshot id and its Location', () => {
  const t = useTestApp();
  const yfinance = [...YF_CALLS, ...YF_PUTS].join('\n');
  const post = (query: string, payload: string, type = 'text/csv') => t.request({ method: 'POST', url: `/v1/chains${query}`, headers: { 'content-type': type }, payload });

  it('a yfinance dump without spot: 422 naming spot; with spot= and quoteTime= it is stored, Location names the snapshot', async () => {
    const refused = await post('', yfinance);
    expect(refused.statusCode).toBe(422);
    expect(refused.json<{ errors: Array<{ param: string; message: string }> }>().errors).toEqual([{ param: 'spot', message: 'no spot price: the file gives no underlying price (pass spot)' }]);
    const stored = await post('?spot=589.25&quoteTime=2025-05-16T16:00', yfinance);
    expect(stored.statusCode).toBe(201);
    const body = stored.json<{ id: number; symbol: string; spot: number; quoteTime: string; source: string; warnings: string[] }>();
    expect(body).toMatchObject({ symbol: 'SPY', spot: 589.25, quoteTime: '2025-05-16T20:00:00.000Z', source: 'yfinance-csv', warnings: [] });
    expect(stored.headers.location).toBe(`/v1/snapshots/${body.id}`);
    const listed = await t.get<{ id: number; symbol: string; quoteTime: string; contracts: number }>(String(stored.headers.location));
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ id: body.id, symbol: 'SPY', quoteTime: '2025-05-16T20:00:00.000Z', spot: 589.25, contracts: 6, expirations: 2, source: 'yfinance-csv' });
    const again = await post('?spot=589.25&quoteTime=2025-05-16T16:00', yfinance);
    expect(again.statusCode, 'the same snapshot again').toBe(200);
    expect(again.json<{ id: number; stored: boolean }>()).toMatchObject({ id: body.id, stored: false });
    expect(again.headers.location).toBe(`/v1/snapshots/${body.id}`);
    expect((await t.get(`/v1/snapshots/${body.id + 1000}`)).status).toBe(404);
  });

  it('symbol= and spot= override the file; the answer carries the parser’s warnings', async () => {
    const response = await post('?symbol=spyx&spot=590', YF_CALLS.join('\n'));
    expect(response.statusCode).toBe(201);
    const body = response.json<{ symbol: string; spot: number; quoteTime: string; warnings: string[] }>();
    expect(body).toMatchObject({ symbol: 'SPYX', spot: 590, quoteTime: '2025-05-16T19:59:58.000Z' });
    expect(body.warnings).toHaveLength(2);
    const schwab = await post('', JSON.stringify(SCHWAB), 'application/json');
    expect(schwab.statusCode).toBe(201);
    expect(schwab.json()).toMatchObject({ symbol: 'SPY', source: 'schwab-json', quoteTime: '2025-05-16T19:59:58.500Z', contracts: 5 });
    expect((await t.request({ method: 'POST', url: '/v1/chains?spot=-1', headers: { 'content-type': 'text/csv' }, payload: yfinance })).statusCode, 'spot must be positive').toBe(400);
  });
});

describe('strikebook chain import: --spot, --quote-time, --symbol', () => {
  const dir = mkdtempSync(join(tmpdir(), 'strikebook-sources-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('names the options in its messages and stores with them', () => {
    const file = join(dir, 'spy-yfinance.csv');
    writeFileSync(file, [...YF_CALLS, ...YF_PUTS].join('\n'));
    const dataDir = join(dir, 'data');
    const refused = runCli(['chain', 'import', file, '--data-dir', dataDir]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('no spot price: the file gives no underlying price (pass --spot)');
    const stored = runCli(['chain', 'import', file, '--spot', '589.25', '--symbol', 'SPY', '--data-dir', dataDir]);
    expect(stored.status, stored.stderr).toBe(0);
    expect(stored.stdout).toContain('SPY @ 589.25, 2025-05-16T19:59:58.000Z, 6 contracts, 2 expirations, 0 events (snapshot #1)');
    expect(stored.stdout).toContain('warning: the file has no quote time: the newest lastTradeDate (2025-05-16T19:59:58Z) stands for it; pass --quote-time to set it');
    expect(runCli(['chain', 'import', file, '--spot', 'abc', '--data-dir', dataDir]).stderr).toContain('--spot must be a positive number, got abc');
  }, 120_000);
});
