/**
 * CBOE delayed-quotes JSON for tests of the online source (docs/exposure.md §Refresh what you hold): a real quotedata
 * download rewritten in the delayed-quotes layout by the test's own reader, and a small made-up chain.
 */
import { CHAIN_TABLE, rawContracts, readChain, type RawContract } from './quotedata';

const occ = (c: RawContract) => `${c.root}${c.expiration.slice(2, 4)}${c.expiration.slice(5, 7)}${c.expiration.slice(8, 10)}${c.right}${String(Math.round(c.strike * 1000)).padStart(8, '0')}`;

/** A quotedata download as CBOE's JSON (DESIGN §4): `data.options[]` of OCC symbols, `data.current_price`, UTC `timestamp`. */
export function delayedQuotesFromQuotedata(file: string): string {
  const fixture = CHAIN_TABLE.find((row) => row.file === file);
  if (fixture === undefined) throw new Error(`${file} is not in the fixtures table`);
  const options = rawContracts(readChain(file)).map((c) => ({ option: occ(c), bid: c.bid, ask: c.ask, iv: c.iv, open_interest: c.openInterest, volume: c.volume }));
  const timestamp = fixture.quoteTime.replace('T', ' ').replace(/(\.\d+)?Z$/, '');
  return JSON.stringify({ timestamp, data: { symbol: fixture.symbol, current_price: fixture.spot, options } });
}

/** A small chain around 100 (five strikes, calls and puts, expiring 2099-12-17), quoted at `timestamp` (UTC). */
export function smallChain(symbol: string, root = symbol, timestamp = '2099-11-20 15:00:00'): string {
  const options = [90, 95, 100, 105, 110].flatMap((strike) =>
    (['C', 'P'] as const).map((right) => ({ option: `${root}991217${right}${String(strike * 1000).padStart(8, '0')}`, iv: 0.3, open_interest: 500 + strike, bid: 2, ask: 2.2, volume: 10 + strike })),
  );
  return JSON.stringify({ timestamp, data: { symbol, current_price: 100, options } });
}
