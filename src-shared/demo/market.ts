/**
 * The demo market (docs/architecture.md §Running): a seeded, deterministic simulator of one trading day (2026-11-20, a
 * monthly-expiration Friday) for an index (SPX), an ETF (SPY) and two stocks (AAPL, TSLA). Snapshots every
 * 30 minutes from 09:30 to 16:00 New York, expirations out to about 60 days, skewed smiles, open interest
 * clustered on round strikes (puts below spot, calls above), and a midday sell-off with a partial recovery
 * that makes the near-term books flip to negative gamma and move their walls. Everything is generated: no
 * third-party data. Each snapshot has `source: 'demo'`.
 */
import type { ChainSnapshot, OptionContract } from '../exposure/model';
import { normCdf } from '../exposure/greeks';
import { addDays, dayOfWeek, daysBetween, isoInstant } from '../calendar';
import { expiryInstantMs, settlementOf, yearsToExpiry } from '../exposure/time';
import { NEW_YORK, zonedTimeToMs } from '../zone';
import { gaussian, seededRandom } from './random';

export const DEMO_DATE = '2026-11-20';
export const DEMO_SEED = 20261120;
const RATE = 0.04;

interface TickerSpec {
  symbol: string;
  spot: number;
  /** At-the-money volatility at 30 days. */
  vol: number;
  /** Reaction of the ticker to the market path (beta). */
  beta: number;
  /** Strike spacing near spot and far from it, and the width (fraction of spot) of the near band. */
  step: number;
  farStep: number;
  nearBand: number;
  /** Strikes cover spot × (1 ± range). */
  range: number;
  /** Round-number spacings that attract open interest, strongest first. */
  round: number[];
  /** Typical open interest of an at-the-money strike of the front month. */
  oi: number;
  weeklyRoot: string;
  monthlyRoot: string;
  /** Extra Monday/Wednesday expirations in the first two weeks (index products). */
  dailies: boolean;
}

const TICKERS: TickerSpec[] = [
  { symbol: 'SPX', spot: 5950, vol: 0.14, beta: 1, step: 10, farStep: 50, nearBand: 0.04, range: 0.16, round: [100, 50, 25], oi: 2500, weeklyRoot: 'SPXW', monthlyRoot: 'SPX', dailies: true },
  { symbol: 'SPY', spot: 593.4, vol: 0.14, beta: 1, step: 1, farStep: 5, nearBand: 0.03, range: 0.16, round: [10, 5], oi: 9000, weeklyRoot: 'SPY', monthlyRoot: 'SPY', dailies: true },
  { symbol: 'AAPL', spot: 228.6, vol: 0.25, beta: 1.2, step: 2.5, farStep: 5, nearBand: 0.12, range: 0.3, round: [10, 5], oi: 6000, weeklyRoot: 'AAPL', monthlyRoot: 'AAPL', dailies: false },
  { symbol: 'TSLA', spot: 342.2, vol: 0.55, beta: 1.9, step: 5, farStep: 10, nearBand: 0.15, range: 0.45, round: [50, 25, 10], oi: 4000, weeklyRoot: 'TSLA', monthlyRoot: 'TSLA', dailies: false },
];



interface Expiry {
  expiration: string;
  root: string;
}

/** Third Friday of the month of `date`. */
function isThirdFriday(date: string): boolean {
  const day = Number(date.slice(8, 10));
  return dayOfWeek(date) === 5 && day >= 15 && day <= 21;
}

/** Market holidays inside the window: an expiration on one of them moves to the previous business day. */
const HOLIDAYS = new Set(['2026-11-26', '2026-12-25', '2027-01-01']);

function expirationsFor(spec: TickerSpec): Expiry[] {
  const out: Expiry[] = [];
  const seen = new Set<string>();
  const push = (date: string, root: string) => {
    let d = date;
    while (HOLIDAYS.has(d)) d = addDays(d, -1);
    const key = `${d}|${root}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ expiration: d, root });
  };
  for (let offset = 0; offset <= 62; offset += 1) {
    const date = addDays(DEMO_DATE, offset);
    const wd = dayOfWeek(date);
    if (wd === 5) {
      push(date, spec.weeklyRoot);
      if (isThirdFriday(date) && spec.monthlyRoot !== spec.weeklyRoot) push(date, spec.monthlyRoot);
    } else if (spec.dailies && offset <= 7 && (wd === 1 || wd === 3)) {
      push(date, spec.weeklyRoot);
    }
  }
  if (spec.dailies) push('2026-12-31', spec.weeklyRoot);
  return out.sort((a, b) => (a.expiration < b.expiration ? -1 : a.expiration > b.expiration ? 1 : a.root < b.root ? -1 : 1));
}

function strikesFor(spec: TickerSpec): number[] {
  const strikes: number[] = [];
  const low = spec.spot * (1 - spec.range);
  const high = spec.spot * (1 + spec.range);
  for (let k = Math.ceil(low / spec.farStep) * spec.farStep; k <= high; k += spec.step) {
    const near = Math.abs(k / spec.spot - 1) <= spec.nearBand;
    const onFar = Math.abs(k / spec.farStep - Math.round(k / spec.farStep)) < 1e-9;
    if (near || onFar) strikes.push(Math.round(k * 100) / 100);
  }
  return strikes;
}

function roundness(strike: number, round: number[]): number {
  const weights = [3.2, 1.9, 1.35];
  for (let i = 0; i < round.length; i += 1) {
    const unit = round[i] ?? 1;
    if (Math.abs(strike / unit - Math.round(strike / unit)) < 1e-9) return weights[i] ?? 1.2;
  }
  return 1;
}

/**
 * Market path as a log-return from the open: a slow drift, then a sell-off from late morning to early
 * afternoon and a partial recovery into the close (slot = half hours since 09:30, 0…13).
 */
function marketPath(slot: number): number {
  const shape = [0, 0.002, 0.001, -0.004, -0.009, -0.015, -0.021, -0.026, -0.024, -0.019, -0.014, -0.011, -0.008, -0.006];
  return shape[slot] ?? 0;
}

/** One strike of one expiration: both sides share the smile and the theoretical prices. */
interface StrikeBase {
  root: string;
  expiration: string;
  strike: number;
  callOI: number;
  putOI: number;
  /** Per-side IV noise, so that call and put IVs differ a little as on a real board. */
  callNoise: number;
  putNoise: number;
}

/** Open interest of the day (fixed, as exchanges publish it once a day) for one ticker. */
function baseBook(spec: TickerSpec, random: () => number): StrikeBase[] {
  const book: StrikeBase[] = [];
  const strikes = strikesFor(spec);
  for (const { expiration, root } of expirationsFor(spec)) {
    const days = Math.max(daysBetween(DEMO_DATE, expiration), 0.3);
    const monthly = isThirdFriday(expiration) || expiration === '2026-12-31';
    // Longer books hold more open interest spread over a wider range of strikes.
    const width = spec.vol * Math.sqrt(Math.max(days, 3) / 365) * 1.6;
    const size = spec.oi * (monthly ? 2.2 : 1) * (0.6 + Math.min(days, 40) / 40) * (root === spec.monthlyRoot && root !== spec.weeklyRoot ? 1.3 : 1);
    for (const strike of strikes) {
      const moneyness = Math.log(strike / spec.spot);
      const oi = (right: 'C' | 'P'): number => {
        // Calls cluster above spot (overwriting), puts below (hedges and cash-secured puts), puts heavier.
        const centre = right === 'C' ? 0.35 * width : -0.9 * width;
        const spread = right === 'C' ? width : 1.2 * width;
        const bell = Math.exp(-0.5 * ((moneyness - centre) / spread) ** 2);
        const sideSize = right === 'P' ? 1.1 : 1;
        const value = Math.round(size * sideSize * bell * roundness(strike, spec.round) * Math.exp(0.45 * gaussian(random)));
        return value < 3 ? 0 : value;
      };
      const callOI = oi('C');
      const putOI = oi('P');
      book.push({ root, expiration, strike, callOI, putOI, callNoise: 0.006 * gaussian(random), putNoise: 0.006 * gaussian(random) });
    }
  }
  return book;
}

function smileIv(spec: TickerSpec, spot: number, strike: number, tYears: number, marketReturn: number, noise: number): number {
  const atm = spec.vol * (1 - 4.5 * marketReturn) * (1 + 0.08 * Math.log(Math.max(tYears, 1 / 365) * 12) * -0.5);
  const k = Math.log(strike / spot) / Math.sqrt(Math.max(tYears, 2 / 365));
  const skew = spec.symbol === 'TSLA' ? -0.06 : -0.16;
  const iv = atm * (1 + skew * k + 0.05 * k * k) + noise;
  return Math.min(Math.max(iv, 0.04), 3);
}

/** Black–Scholes call and put (the put by parity) at one strike. */
function prices(spot: number, strike: number, tYears: number, sigma: number): { call: number; put: number } {
  const forward = spot * Math.exp(RATE * tYears);
  const sd = sigma * Math.sqrt(tYears);
  const d1 = (Math.log(forward / strike) + 0.5 * sd * sd) / sd;
  const discount = Math.exp(-RATE * tYears);
  const call = discount * (forward * normCdf(d1) - strike * normCdf(d1 - sd));
  return { call, put: Math.max(call - discount * (forward - strike), 0) };
}

function bidAsk(theo: number, tick: number): { bid: number; ask: number } {
  const halfSpread = Math.max(tick, theo * 0.015);
  return { bid: theo - halfSpread < tick ? 0 : quote(theo - halfSpread, tick), ask: quote(theo + halfSpread, tick) || tick };
}

function quote(value: number, tick: number): number {
  return Math.max(Math.round(value / tick) * tick, 0);
}

/**
 * The demo market: for each ticker 14 snapshots (09:30, 10:00, …, 16:00 New York on 2026-11-20), ordered by
 * quote time then ticker. Same seed, same market.
 */
export function demoMarket(seed: number = DEMO_SEED): ChainSnapshot[] {
  const random = seededRandom(seed);
  const books = TICKERS.map((spec) => ({ spec, book: baseBook(spec, random), idio: Array.from({ length: 14 }, () => gaussian(random)) }));
  const snapshots: ChainSnapshot[] = [];
  const openMs = zonedTimeToMs(DEMO_DATE, { hour: 9, minute: 30 }, NEW_YORK);
  for (let slot = 0; slot < 14; slot += 1) {
    const quoteMs = openMs + slot * 30 * 60_000;
    const quoteIso = isoInstant(quoteMs, { compact: true });
    for (const { spec, book, idio } of books) {
      let walk = 0;
      for (let s = 1; s <= slot; s += 1) walk += (idio[s] ?? 0) * 0.0012 * spec.vol / 0.14;
      const marketReturn = spec.beta * marketPath(slot) + (spec.symbol === 'SPX' || spec.symbol === 'SPY' ? 0 : walk);
      const spot = Math.round(spec.spot * Math.exp(marketReturn) * 100) / 100;
      const contracts: OptionContract[] = [];
      const tick = spec.spot > 1000 ? 0.05 : 0.01;
      const tCache = new Map<string, number>();
      for (const base of book) {
        const key = `${base.expiration}|${base.root}`;
        let tYears = tCache.get(key);
        if (tYears === undefined) {
          const expiryMs = expiryInstantMs(base.expiration, settlementOf(base.root));
          tYears = expiryMs > quoteMs ? yearsToExpiry(expiryMs, quoteMs) : -1;
          tCache.set(key, tYears);
        }
        if (tYears < 0) continue; // expired during the day (the AM-settled monthly, or 0DTE at the close)
        const smile = smileIv(spec, spot, base.strike, tYears, marketReturn, 0);
        const theo = prices(spot, base.strike, tYears, smile);
        const sides = [
          { right: 'C' as const, openInterest: base.callOI, noise: base.callNoise, value: theo.call },
          { right: 'P' as const, openInterest: base.putOI, noise: base.putNoise, value: theo.put },
        ];
        for (const side of sides) {
          const iv = Math.round(Math.min(Math.max(smile + side.noise, 0.04), 3) * 10000) / 10000;
          const { bid, ask } = bidAsk(side.value, tick);
          contracts.push({ root: base.root, expiration: base.expiration, strike: base.strike, right: side.right, openInterest: side.openInterest, iv, bid, ask, multiplier: 100 });
        }
      }
      snapshots.push({ symbol: spec.symbol, spot, quoteTime: quoteIso, source: 'demo', contracts });
    }
  }
  return snapshots;
}
