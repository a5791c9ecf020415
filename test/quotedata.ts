/**
 * The real CBOE quotedata downloads of ../shared/fixtures/chains, described by the fixtures README, and a reader
 * of their rows written for the tests alone (fixed columns of the README layout, OCC symbols cut by hand), so
 * that the tests' figures come from the files, not from the parser under test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { CHAIN_FIXTURES } from './paths';

export const chainFiles = readdirSync(CHAIN_FIXTURES).filter((f) => f.endsWith('.csv')).sort();
export const readChain = (file: string): string => readFileSync(join(CHAIN_FIXTURES, file), 'utf8');

export interface ChainFixture {
  file: string;
  symbol: string;
  spot: number;
  /** The README's New York quote time, in UTC (EST = UTC−5, EDT = UTC−4). */
  quoteTime: string;
  contracts: number;
}

/** fixtures/README.md, one row per file. */
export const CHAIN_TABLE: readonly ChainFixture[] = [
  { file: 'SPX_quotedata_2024-01-05close_phammings.csv', symbol: 'SPX', spot: 4697.2402, quoteTime: '2024-01-07T15:52:00Z', contracts: 21038 },
  { file: 'NDX_quotedata_2022-02-04close_luca.csv', symbol: 'NDX', spot: 14694.3506, quoteTime: '2022-02-06T01:26:00Z', contracts: 18386 },
  { file: 'SPX_quotedata_2022-02-04close_luca.csv', symbol: 'SPX', spot: 4500.5298, quoteTime: '2022-02-06T01:09:00Z', contracts: 20514 },
  { file: 'SPX_quotedata_2023-09-14_carlos.csv', symbol: 'SPX', spot: 4505.1001, quoteTime: '2023-09-14T20:31:00Z', contracts: 19920 },
  { file: 'SPY_quotedata_2023-09-14_carlos.csv', symbol: 'SPY', spot: 450.81, quoteTime: '2023-09-14T20:31:00Z', contracts: 7292 },
  { file: 'XSP_quotedata_2023-09-14_carlos.csv', symbol: 'XSP', spot: 450.51, quoteTime: '2023-09-14T20:30:00Z', contracts: 10882 },
  { file: 'AMD_quotedata_2023-08-18close_aryaman.csv', symbol: 'AMD', spot: 105.6, quoteTime: '2023-08-21T02:35:00Z', contracts: 1738 },
  { file: 'SPX_quotedata_2025-01-06_20rows_dorel.csv', symbol: 'SPX', spot: 5975.3799, quoteTime: '2025-01-07T01:57:00Z', contracts: 40 },
  // "Date: 26 May 2023, 5:18 PM EDT" (day-first, not quoted).
  { file: 'NDX_quotedata_2023-05-26_ayour.csv', symbol: 'NDX', spot: 14298.4092, quoteTime: '2023-05-26T21:18:00Z', contracts: 21852 },
  { file: 'SPY_quotedata_2025-05-16_photon1c.csv', symbol: 'SPY', spot: 589.25, quoteTime: '2025-05-16T23:23:00Z', contracts: 3160 },
  // Median IV 1.01, one IV 5.18.
  { file: 'TSLA_quotedata_2023-08-20_aryaman.csv', symbol: 'TSLA', spot: 218.8, quoteTime: '2023-08-21T02:38:00Z', contracts: 236 },
  // "Date: 10 novembre 2023 à 18:55 UTC−5", 29 IVs above 5.
  { file: 'TSLA_quotedata_2023-11-10_frlocale_hicham.csv', symbol: 'TSLA', spot: 213.88, quoteTime: '2023-11-10T23:55:00Z', contracts: 680 },
];

export interface RawContract {
  root: string;
  expiration: string;
  right: 'C' | 'P';
  strike: number;
  bid: number;
  ask: number;
  iv: number;
  openInterest: number;
  volume: number;
}

/** Column positions of the README layout (22 columns): symbol, bid, ask, volume, IV, open interest per side. */
const SIDES = [
  { right: 'C' as const, symbol: 1, bid: 4, ask: 5, volume: 6, iv: 7, oi: 10 },
  { right: 'P' as const, symbol: 12, bid: 15, ask: 16, volume: 17, iv: 18, oi: 21 },
];
const STRIKE = 11;

/** Every contract of a quotedata file, in file order. The rows of the real files have no quoted cells. */
export function rawContracts(text: string): RawContract[] {
  const lines = text.split(/\r?\n/);
  const header = lines.findIndex((line) => line.startsWith('Expiration Date,'));
  const out: RawContract[] = [];
  for (const line of lines.slice(header + 1)) {
    if (line.trim() === '') continue;
    const cells = line.split(',');
    for (const side of SIDES) {
      const symbol = cells[side.symbol] ?? '';
      if (symbol === '') continue;
      // OCC without padding: root, then YYMMDD, C/P and the strike × 1000 in the last 15 characters.
      const tail = symbol.slice(-15);
      out.push({
        root: symbol.slice(0, -15),
        expiration: `20${tail.slice(0, 2)}-${tail.slice(2, 4)}-${tail.slice(4, 6)}`,
        right: side.right,
        strike: Number(cells[STRIKE]),
        bid: Number(cells[side.bid]),
        ask: Number(cells[side.ask]),
        iv: Number(cells[side.iv]),
        openInterest: Number(cells[side.oi]),
        volume: Number(cells[side.volume]),
      });
    }
  }
  return out;
}

/** docs/exposure.md: 09:30 New York for the AM-settled roots SPX, NDX, RUT, VIX; 16:00 for every other root. */
export function expiryMs(contract: RawContract): number {
  const clock = ['SPX', 'NDX', 'RUT', 'VIX'].includes(contract.root) ? '09:30' : '16:00';
  const key = `${contract.expiration}T${clock}`;
  let ms = expiryCache.get(key);
  if (ms === undefined) {
    ms = DateTime.fromISO(key, { zone: 'America/New_York' }).toMillis();
    expiryCache.set(key, ms);
  }
  return ms;
}
const expiryCache = new Map<string, number>();

/** An adjusted root ends in a digit (AMD1). */
export const isAdjusted = (contract: RawContract): boolean => /\d$/.test(contract.root);

/** The contracts exposure uses: unexpired at the quote time, standard roots. */
export function liveContracts(contracts: readonly RawContract[], quoteTime: string): RawContract[] {
  const quoteMs = Date.parse(quoteTime);
  return contracts.filter((c) => expiryMs(c) > quoteMs && !isAdjusted(c));
}

/**
 * The Cboe VIX-method forward of docs/exposure.md for one settlement group: strikes where both sides have bid > 0 and
 * ask ≥ bid; K* minimises |C_mid − P_mid| (the lower strike on a tie); F = K* + e^{rT}(C_mid − P_mid), or S·e^{rT}
 * when there is none or F is outside [0.9S, 1.1S].
 */
export function parityForward(group: readonly RawContract[], spot: number, rate: number, tYears: number): number {
  const mids = (right: 'C' | 'P') => {
    const byStrike = new Map<number, number>();
    for (const c of group) if (c.right === right && c.bid > 0 && c.ask >= c.bid && !byStrike.has(c.strike)) byStrike.set(c.strike, (c.bid + c.ask) / 2);
    return byStrike;
  };
  const calls = mids('C');
  let best: { strike: number; diff: number } | null = null;
  for (const [strike, put] of [...mids('P')].sort(([a], [b]) => a - b)) {
    const call = calls.get(strike);
    if (call === undefined) continue;
    const diff = call - put;
    if (best === null || Math.abs(diff) < Math.abs(best.diff)) best = { strike, diff };
  }
  const growth = Math.exp(rate * tYears);
  const forward = best === null ? Number.NaN : best.strike + growth * best.diff;
  return forward >= 0.9 * spot && forward <= 1.1 * spot ? forward : spot * growth;
}

/** T of docs/exposure.md: years of 365 × 24 × 60 minutes, at least 15 minutes. */
export function yearsBetween(quoteTime: string, expiry: number): number {
  return Math.max((expiry - Date.parse(quoteTime)) / 60_000, 15) / (365 * 24 * 60);
}

/** One settlement group of an expiration (AM and PM roots settle at different instants), with its T and parity forward. */
export interface SettlementGroup {
  contracts: RawContract[];
  tYears: number;
  forward: number;
}

/** The settlement groups of one expiration of the live contracts, each with T from the quote time and F by parity. */
export function settlementGroups(live: readonly RawContract[], expiration: string, spot: number, rate: number, quoteTime: string): SettlementGroup[] {
  const ofExpiration = live.filter((c) => c.expiration === expiration);
  return [...new Set(ofExpiration.map(expiryMs))].map((settlementExpiry) => {
    const contracts = ofExpiration.filter((c) => expiryMs(c) === settlementExpiry);
    const tYears = yearsBetween(quoteTime, settlementExpiry);
    return { contracts, tYears, forward: parityForward(contracts, spot, rate, tYears) };
  });
}
