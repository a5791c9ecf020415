/**
 * Every source's reading of the same contracts gives the same figures: a real quotedata file, converted by this test
 * (from its rows, read by the test's own reader) to the Schwab API JSON and to a yfinance option_chain CSV dump, is
 * posted three times under three symbols; /gex, /gex/profile, /gex/grid, /vanna and /expirations agree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../helper';
import { CHAIN_TABLE, rawContracts, readChain, type RawContract } from '../../../../quotedata';

const FILE = 'SPY_quotedata_2023-09-14_carlos.csv';
const fixture = CHAIN_TABLE.find((row) => row.file === FILE);

/** OCC symbol without padding (CBOE, yfinance) or padded to 21 characters (Schwab). */
function occ(c: RawContract, padded: boolean): string {
  const date = c.expiration.slice(2).replaceAll('-', '');
  const strike = String(Math.round(c.strike * 1000)).padStart(8, '0');
  return `${padded ? c.root.padEnd(6, ' ') : c.root}${date}${c.right}${strike}`;
}

/** The Schwab API's layout: maps by "date:dte" and strike, IV in percent (−999 for none), quote times in ms. */
function toSchwab(rows: readonly RawContract[], spot: number, quoteMs: number): string {
  const maps: Record<'C' | 'P', Record<string, Record<string, unknown[]>>> = { C: {}, P: {} };
  for (const c of rows) {
    const key = `${c.expiration}:${Math.round((Date.parse(c.expiration) - quoteMs) / 86_400_000)}`;
    const byStrike = (maps[c.right][key] ??= {});
    (byStrike[c.strike.toFixed(1)] ??= []).push({
      putCall: c.right === 'C' ? 'CALL' : 'PUT',
      symbol: occ(c, true),
      bid: c.bid,
      ask: c.ask,
      totalVolume: c.volume,
      volatility: c.iv > 0 ? c.iv * 100 : -999,
      openInterest: c.openInterest,
      strikePrice: c.strike,
      multiplier: 100,
      optionRoot: c.root,
      // Quotes a few seconds apart; the newest is the file's quote time.
      quoteTimeInLong: quoteMs - (c.strike % 7) * 1000,
    });
  }
  return JSON.stringify({ symbol: 'SPY', status: 'SUCCESS', underlyingPrice: spot, callExpDateMap: maps.C, putExpDateMap: maps.P });
}

/** Two pandas frames appended to one file (the header twice), IV as a decimal, NaN cells empty. */
function toYfinance(rows: readonly RawContract[]): string {
  const header = ',contractSymbol,lastTradeDate,strike,lastPrice,bid,ask,change,percentChange,volume,openInterest,impliedVolatility,inTheMoney,contractSize,currency';
  const frame = (right: 'C' | 'P') => [
    header,
    ...rows.filter((c) => c.right === right).map((c, index) => `${index},${occ(c, false)},2023-09-14 19:59:00+00:00,${c.strike.toFixed(1)},1.0,${c.bid},${c.ask},0.0,0.0,${c.volume.toFixed(1)},${c.openInterest},${c.iv},False,REGULAR,USD`),
  ];
  return [...frame('C'), ...frame('P')].join('\n');
}

/** Numbers equal to 1e−9 relative (IV in percent and back may move the last bit), everything else equal. */
function expectSame(a: unknown, b: unknown, path: string): void {
  if (typeof a === 'number' && typeof b === 'number') {
    expect(Math.abs(a - b), path).toBeLessThanOrEqual(1e-9 * Math.max(Math.abs(a), Math.abs(b)));
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    expect(a.length, `${path}.length`).toBe(b.length);
    a.forEach((item, index) => expectSame(item, b[index], `${path}[${index}]`));
    return;
  }
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    expect(Object.keys(a).sort(), `${path} keys`).toEqual(Object.keys(b).sort());
    for (const [key, value] of Object.entries(a)) expectSame(value, (b as Record<string, unknown>)[key], `${path}.${key}`);
    return;
  }
  expect(a, path).toEqual(b);
}

/** The parts of an answer that name the source or the time of the request. */
function figures(body: Record<string, unknown>): Record<string, unknown> {
  const { asOf: _asOf, symbol: _symbol, meta: _meta, ...rest } = body;
  return rest;
}

describe(`${FILE} as CBOE quotedata, Schwab API JSON and a yfinance dump`, () => {
  let t: TestApp;
  const symbols = ['SPY', 'SPYSCHWAB', 'SPYYF'];
  beforeAll(async () => {
    t = await buildTestApp();
    const { spot, quoteTime } = fixture ?? { spot: 0, quoteTime: '' };
    const rows = rawContracts(readChain(FILE));
    const quoteMs = Date.parse(quoteTime);
    const uploads = [
      { query: '', type: 'text/csv', payload: readChain(FILE), source: 'cboe-csv' },
      { query: '?symbol=SPYSCHWAB', type: 'application/json', payload: toSchwab(rows, spot, quoteMs), source: 'schwab-json' },
      { query: `?symbol=SPYYF&spot=${spot}&quoteTime=${encodeURIComponent(quoteTime)}`, type: 'text/csv', payload: toYfinance(rows), source: 'yfinance-csv' },
    ];
    for (const upload of uploads) {
      const response = await t.request({ method: 'POST', url: `/v1/chains${upload.query}`, headers: { 'content-type': upload.type }, payload: upload.payload });
      expect(response.statusCode, response.body.slice(0, 400)).toBe(201);
      expect(response.json(), upload.source).toMatchObject({ source: upload.source, contracts: rows.length, quoteTime: new Date(quoteMs).toISOString(), spot });
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    '/v1/gex?symbol=%s&minDte=0&formula=per_1pct',
    '/v1/gex?symbol=%s',
    '/v1/gex/profile?symbol=%s&minDte=0',
    '/v1/gex/grid?symbol=%s',
    '/v1/vanna?symbol=%s',
    '/v1/expirations?symbol=%s',
  ])('%s: the same figures from each source', async (template) => {
    const [cboe, ...others] = await Promise.all(symbols.map(async (symbol) => (await t.get<Record<string, unknown>>(template.replace('%s', symbol))).body));
    if (cboe === undefined) throw new Error('no answer');
    for (const [index, other] of others.entries()) expectSame(figures(other), figures(cboe), `${symbols[index + 1] ?? ''} ${template}`);
  });

  it('volume and the statistics are there to compare', async () => {
    const details = (await t.get<{ details: Array<{ callVolume: number | null; skew25: number | null; straddle: number | null }> }>('/v1/expirations?symbol=SPYYF')).body.details;
    expect(details.every((d) => d.callVolume !== null)).toBe(true);
    expect(details.filter((d) => d.skew25 !== null && d.straddle !== null).length).toBeGreaterThan(10);
  });
});
