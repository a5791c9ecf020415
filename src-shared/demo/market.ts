/**
 * The demo market (docs/architecture.md §Running): a seeded, deterministic simulator of one trading day for an index
 * (SPX), an ETF (SPY) and two stocks (AAPL, TSLA). The day is the caller's: the demo loads the last NYSE trading day
 * before its today (`demoMarketDay`), so that its marks are fresh; the tests use DEMO_DATE (2026-11-20, a
 * monthly-expiration Friday). Snapshots every 30 minutes from 09:30 to 16:00 New York, expirations out to about 60
 * days on NYSE trading days, skewed smiles, open interest clustered on round strikes (puts below spot, calls above),
 * and a midday sell-off with a partial recovery that makes the near-term books flip to negative gamma and move their
 * walls. Everything is generated: no third-party data. Each snapshot has `source: 'demo'`.
 */
import type { ChainSnapshot, OptionContract } from '../exposure/model';
import { normCdf } from '../exposure/greeks';
import { addDays, dayOfWeek, daysBetween, isoInstant } from '../calendar';
import { isTradingDay } from '../trading-days';
import { expiryInstantMs, settlementOf, yearsToExpiry } from '../exposure/time';
import { dateInZone, NEW_YORK, zonedTimeToMs } from '../zone';
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

/** The demo market's tickers, in the order the simulator draws them. */
export const DEMO_SYMBOLS = ['SPX', 'SPY', 'AAPL', 'TSLA'] as const;

const TICKERS: TickerSpec[] = [
  { symbol: 'SPX', spot: 5950, vol: 0.14, beta: 1, step: 10, farStep: 50, nearBand: 0.04, range: 0.16, round: [100, 50, 25], oi: 2500, weeklyRoot: 'SPXW', monthlyRoot: 'SPX', dailies: true },
  { symbol: 'SPY', spot: 593.4, vol: 0.14, beta: 1, step: 1, farStep: 5, nearBand: 0.03, range: 0.16, round: [10, 5], oi: 9000, weeklyRoot: 'SPY', monthlyRoot: 'SPY', dailies: true },
  { symbol: 'AAPL', spot: 228.6, vol: 0.25, beta: 1.2, step: 2.5, farStep: 5, nearBand: 0.12, range: 0.3, round: [10, 5], oi: 6000, weeklyRoot: 'AAPL', monthlyRoot: 'AAPL', dailies: false },
  { symbol: 'TSLA', spot: 342.2, vol: 0.55, beta: 1.9, step: 5, farStep: 10, nearBand: 0.15, range: 0.45, round: [50, 25, 10], oi: 4000, weeklyRoot: 'TSLA', monthlyRoot: 'TSLA', dailies: false },
];


/** The last NYSE trading day before `today`: the day of the demo market the demo loads on `today`. */
export function demoMarketDay(today: string): string {
  let day = addDays(today, -1);
  while (!isTradingDay(day)) day = addDays(day, -1);
  return day;
}

/** An expiration of the demo's chains: a trading day, its root, and whether it is a monthly (or quarterly) one. */
export interface DemoExpiry {
  expiration: string;
  root: string;
  monthly: boolean;
}

/** Third Friday of the month of `date`. */
function isThirdFriday(date: string): boolean {
  const day = Number(date.slice(8, 10));
  return dayOfWeek(date) === 5 && day >= 15 && day <= 21;
}

/** The last trading day of a quarter (March, June, September, December): the index products' quarterly expiration. */
function isQuarterEnd(date: string): boolean {
  if (!['03', '06', '09', '12'].includes(date.slice(5, 7)) || !isTradingDay(date)) return false;
  for (let next = addDays(date, 1); next.slice(5, 7) === date.slice(5, 7); next = addDays(next, 1)) if (isTradingDay(next)) return false;
  return true;
}

function expirationsFor(spec: TickerSpec, day: string): DemoExpiry[] {
  const out: DemoExpiry[] = [];
  const seen = new Map<string, DemoExpiry>();
  const push = (date: string, root: string, monthly: boolean) => {
    // An expiration on a market holiday moves to the trading day before it.
    let d = date;
    while (!isTradingDay(d)) d = addDays(d, -1);
    const key = `${d}|${root}`;
    const known = seen.get(key);
    // A Friday holiday's Thursday can also be a quarter's last day: it is then the bigger (quarterly) expiration.
    if (known !== undefined) known.monthly ||= monthly;
    else {
      const expiry = { expiration: d, root, monthly };
      seen.set(key, expiry);
      out.push(expiry);
    }
  };
  for (let offset = 0; offset <= 62; offset += 1) {
    const date = addDays(day, offset);
    const wd = dayOfWeek(date);
    if (wd === 5) {
      push(date, spec.weeklyRoot, isThirdFriday(date));
      if (isThirdFriday(date) && spec.monthlyRoot !== spec.weeklyRoot) push(date, spec.monthlyRoot, true);
    } else if (spec.dailies && offset <= 7 && (wd === 1 || wd === 3)) {
      push(date, spec.weeklyRoot, false);
    }
  }
  for (let offset = 0; offset <= 62 && spec.dailies; offset += 1) {
    const date = addDays(day, offset);
    if (isQuarterEnd(date)) push(date, spec.weeklyRoot, true);
  }
  return out.sort((a, b) => (a.expiration < b.expiration ? -1 : a.expiration > b.expiration ? 1 : a.root < b.root ? -1 : 1));
}

function specOf(symbol: string): TickerSpec {
  const spec = TICKERS.find((t) => t.symbol === symbol);
  if (spec === undefined) throw new Error(`${symbol} is not a ticker of the demo market`);
  return spec;
}

/** The expirations the demo market lists for `symbol` on `day` (the demo journal opens its last positions on them). */
export function demoExpirations(symbol: string, day: string = DEMO_DATE): DemoExpiry[] {
  return expirationsFor(specOf(symbol), day);
}

/** The strikes the demo market lists for `symbol` (the same for every expiration and day). */
export function demoStrikes(symbol: string): number[] {
  return strikesFor(specOf(symbol));
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

/**
 * Open interest of the day (fixed, as exchanges publish it once a day) for one ticker; `extra` contracts (a journal's
 * legs) are listed too, their expiration as a weekly and their strike on every expiration, when the grid lacks them.
 */
function baseBook(spec: TickerSpec, day: string, random: () => number, extra: ReadonlyArray<{ expiration: string; strike: number }> = []): StrikeBase[] {
  const book: StrikeBase[] = [];
  const strikes = strikesFor(spec);
  for (const leg of extra) if (!strikes.includes(leg.strike)) strikes.push(leg.strike);
  strikes.sort((a, b) => a - b);
  const expirations = expirationsFor(spec, day);
  for (const leg of extra) {
    if (!expirations.some((e) => e.expiration === leg.expiration && e.root === spec.weeklyRoot)) expirations.push({ expiration: leg.expiration, root: spec.weeklyRoot, monthly: false });
  }
  expirations.sort((a, b) => (a.expiration < b.expiration ? -1 : a.expiration > b.expiration ? 1 : a.root < b.root ? -1 : 1));
  for (const { expiration, root, monthly } of expirations) {
    const days = Math.max(daysBetween(day, expiration), 0.3);
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

/** What the simulator draws for a day before it prices anything: each ticker's open interest and its own walk. */
interface DayPlan {
  spec: TickerSpec;
  book: StrikeBase[];
  idio: number[];
}

function planDay(seed: number, day: string): DayPlan[] {
  const random = seededRandom(seed);
  return TICKERS.map((spec) => ({ spec, book: baseBook(spec, day, random), idio: Array.from({ length: SLOTS }, () => gaussian(random)) }));
}

/** Snapshots a day: 09:30, 10:00, …, 16:00 New York. */
const SLOTS = 14;

/** The ticker's log-return from its base spot at `slot`: the market's path times its beta, plus (stocks) its own walk. */
function returnAt(plan: DayPlan, slot: number): number {
  const { spec, idio } = plan;
  let walk = 0;
  for (let s = 1; s <= slot; s += 1) walk += (idio[s] ?? 0) * 0.0012 * spec.vol / 0.14;
  return spec.beta * marketPath(slot) + (spec.symbol === 'SPX' || spec.symbol === 'SPY' ? 0 : walk);
}

function spotAt(plan: DayPlan, slot: number): number {
  return Math.round(plan.spec.spot * Math.exp(returnAt(plan, slot)) * 100) / 100;
}

/**
 * Each ticker's spot in the day's last snapshot (16:00), as demoMarket(seed, day) quotes it, without pricing the
 * chains: the demo journal's prices end there.
 */
export function demoClosingSpots(seed: number = DEMO_SEED, day: string = DEMO_DATE): Map<string, number> {
  return new Map(planDay(seed, day).map((plan) => [plan.spec.symbol, spotAt(plan, SLOTS - 1)]));
}

/** One ticker's chain at an instant: its book of the day priced at `spot` (the smile moved by the ticker's return). */
function pricedSnapshot(spec: TickerSpec, book: readonly StrikeBase[], spot: number, marketReturn: number, quoteMs: number): ChainSnapshot {
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
  return { symbol: spec.symbol, spot, quoteTime: isoInstant(quoteMs, { compact: true }), source: 'demo', contracts };
}

/**
 * The demo market of `day` (a trading day; default DEMO_DATE): for each ticker 14 snapshots (09:30, 10:00, …, 16:00
 * New York), ordered by quote time then ticker. Same seed and day, same market.
 */
export function demoMarket(seed: number = DEMO_SEED, day: string = DEMO_DATE): ChainSnapshot[] {
  const books = planDay(seed, day);
  const snapshots: ChainSnapshot[] = [];
  const openMs = zonedTimeToMs(day, { hour: 9, minute: 30 }, NEW_YORK);
  for (let slot = 0; slot < SLOTS; slot += 1) {
    const quoteMs = openMs + slot * 30 * 60_000;
    for (const plan of books) snapshots.push(pricedSnapshot(plan.spec, plan.book, spotAt(plan, slot), returnAt(plan, slot), quoteMs));
  }
  return snapshots;
}

/** What an entry snapshot is asked for: the ticker, its instant, the journal's spot then and where its open interest was built. */
export interface DemoEntryQuote {
  symbol: string;
  /** The snapshot's quote time (ISO 8601 UTC). */
  quoteTime: string;
  spot: number;
  /**
   * The spot around which the day's open interest sits (the journal's spot some weeks before): a ticker that fell from
   * there trades among its put open interest, one that rose among its calls, as dealers' books do.
   */
  anchorSpot: number;
  /** The contracts the journal trades at that instant: listed whatever the simulator's grid (an expiration, a strike). */
  legs: ReadonlyArray<{ expiration: string; strike: number }>;
}

/** A number of its own per (seed, ticker, instant): the same entry snapshot on every load. */
function entrySeed(seed: number, text: string): number {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/**
 * One snapshot of a demo ticker at a journal entry (issue 27 item 11): the same simulator as the market day (open
 * interest clustered on round strikes, puts below and calls above, the skewed smile, Black–Scholes quotes), its book
 * built around `anchorSpot` and priced at the journal's `spot`, the entry's contracts listed. Deterministic per (seed,
 * symbol, quote time).
 */
export function demoEntrySnapshot(seed: number, quote: DemoEntryQuote): ChainSnapshot {
  const base = specOf(quote.symbol);
  const spec: TickerSpec = { ...base, spot: quote.anchorSpot, oi: base.oi };
  const quoteMs = Date.parse(quote.quoteTime);
  const day = dateInZone(quoteMs, NEW_YORK);
  const random = seededRandom(entrySeed(seed, `${quote.symbol}|${quote.quoteTime}`));
  const extra = quote.legs.filter((leg) => leg.expiration >= day);
  const book = baseBook(spec, day, random, extra);
  return pricedSnapshot(spec, book, Math.round(quote.spot * 100) / 100, Math.log(quote.spot / quote.anchorSpot), quoteMs);
}

