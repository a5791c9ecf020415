/**
 * The demo wheel account (docs/architecture.md §Running, DESIGN §2): a year of seeded, simulated wheel trading on the
 * demo market's stock and ETF tickers (AAPL, TSLA, SPY), clearly labelled (source `demo`, account `Demo wheel`).
 *
 * It ends on the day of the demo market the demo loads beside it (`demoMarketDay(today)`), at that market's closing
 * spots, and leaves open what a premium seller holds: a covered call on assigned AAPL shares, a cash-secured TSLA put
 * and a SPY short strangle, on expirations and strikes the demo market lists, so that Positions marks them (fresh
 * marks, greeks, the dealers' map) on first run. Every expiration is an NYSE trading day (src-shared/trading-days.ts).
 * Prices are a seeded simulation and Black–Scholes at a fixed IV: no third-party data.
 */
import type { ImportedTransaction, OptionRight } from '../journal/model';
import { addDays, daysBetween } from '../calendar';
import { isTradingDay } from '../trading-days';
import { DEMO_SEED, demoClosingSpots, demoExpirations, demoMarketDay, demoStrikes } from './market';
import { gaussian, seededRandom } from './random';
import { blackScholes, centsMinor, fridayOnOrAfter, nyInstant, row, type RowInput } from './rows';

export const DEMO_ACCOUNT = 'Demo wheel';
export const DEMO_SOURCE = 'demo';
/** The seed of the demo wheel account that `serve --demo` and the demo button load. */
export const DEMO_JOURNAL_SEED = 7;

/** What a plan holds when the demo is loaded. */
type LastStructure = 'covered_call' | 'short_put' | 'strangle';

interface TickerPlan {
  ticker: string;
  iv: number;
  /** Realized daily noise (mean-reverting), smaller than implied: the seller's edge. */
  dailyVol: number;
  strikeStep: number;
  contracts: number;
  /** Quarterly dividend per share, 0 for none; ex-dates every 13 weeks from `dividendOffsetDays`. */
  dividendPerShare: number;
  dividendOffsetDays: number;
  rollsAllowed: boolean;
  /** Sells the shares when the price falls below this fraction of the assigned strike (0 = never). */
  stopLossFraction: number;
  /** Scripted shape of the year: [fraction of the year, log-return], linear in between; the last day is the market's close. */
  knots: Array<[number, number]>;
  minuteOffset: number;
  last: LastStructure;
  /** The last structure opens this many trading days before the market's day. */
  lastOpenDaysBefore: number;
}

const DEMO_PLANS: TickerPlan[] = [
  // Assigned in the spring dip, covered calls, called away on the recovery; assigned again in the autumn dip and
  // holding the shares under a covered call; pays dividends.
  { ticker: 'AAPL', iv: 0.26, dailyVol: 0.006, strikeStep: 2.5, contracts: 1, dividendPerShare: 0.26, dividendOffsetDays: 40, rollsAllowed: false, stopLossFraction: 0, knots: [[0, 0], [0.18, 0.03], [0.3, -0.12], [0.45, -0.1], [0.62, 0.07], [0.8, 0.06], [0.95, -0.06], [1, -0.05]], minuteOffset: 0, last: 'covered_call', lastOpenDaysBefore: 6 },
  // The losing campaign: assigned before a crash, shares cut at a loss; then tested puts are rolled out (one order, two
  // legs) rather than assigned; a cash-secured put at the end.
  { ticker: 'TSLA', iv: 0.55, dailyVol: 0.014, strikeStep: 5, contracts: 1, dividendPerShare: 0, dividendOffsetDays: 0, rollsAllowed: true, stopLossFraction: 0.85, knots: [[0, 0.1], [0.25, 0.15], [0.4, -0.3], [0.55, -0.27], [0.68, -0.1], [0.74, -0.18], [0.86, -0.05], [1, 0]], minuteOffset: 7, last: 'short_put', lastOpenDaysBefore: 9 },
  // Steady: puts mostly expire worthless or are closed at a quarter of their credit; a strangle at the end.
  { ticker: 'SPY', iv: 0.15, dailyVol: 0.004, strikeStep: 1, contracts: 1, dividendPerShare: 1.75, dividendOffsetDays: 20, rollsAllowed: true, stopLossFraction: 0, knots: [[0, -0.08], [0.3, -0.05], [0.5, -0.03], [0.56, -0.075], [0.62, -0.06], [0.8, 0.01], [1, 0]], minuteOffset: 21, last: 'strangle', lastOpenDaysBefore: 4 },
];

/** Demo account's treaty withholding on dividends (a non-US resident, as in tastytrade's international exports). */
const WITHHOLDING_RATE = 0.15;

interface OpenOption {
  right: OptionRight;
  strike: number;
  expiration: string;
  contracts: number;
  premiumMinor: number;
  rolls: number;
}

function shapeAt(knots: Array<[number, number]>, fraction: number): number {
  for (let i = 1; i < knots.length; i += 1) {
    const [x1, y1] = knots[i] ?? [1, 0];
    const [x0, y0] = knots[i - 1] ?? [0, 0];
    if (fraction <= x1) return y0 + ((y1 - y0) * (fraction - x0)) / Math.max(x1 - x0, 1e-9);
  }
  return knots[knots.length - 1]?.[1] ?? 0;
}

/** The weekly expiration of the week of `date`: its Friday, or the trading day before a Friday holiday (Good Friday). */
function weeklyExpiration(date: string): string {
  let day = fridayOnOrAfter(date);
  while (!isTradingDay(day)) day = addDays(day, -1);
  return day;
}

/** The NYSE trading days from `from` to `to`, both included when they trade. */
function tradingDaysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) if (isTradingDay(day)) days.push(day);
  return days;
}

/** The listed strike nearest `target` on the side away from spot: at or below for puts, at or above for calls. */
function listedStrike(strikes: readonly number[], target: number, right: OptionRight): number {
  const below = strikes.filter((k) => k <= target);
  const above = strikes.filter((k) => k >= target);
  const pick = right === 'P' ? (below.at(-1) ?? strikes[0]) : (above[0] ?? strikes.at(-1));
  return pick ?? target;
}

/**
 * A year of wheel trading up to the demo market of `today` (a journal date: the caller's today): cash-secured puts,
 * rolls (both legs on one order id), expirations, assignments with the stock at the strike, covered calls, shares
 * called away, dividends with withholding, a losing campaign, commission and fees on every fill; and the open book
 * described above. Deterministic for a given (seed, today).
 */
export function demoTransactions(seed: number, today: string): ImportedTransaction[] {
  return simulate(seed, today).rows;
}

/** A journal opening of the demo: its underlying, instant and spot, where the open interest was built, and its legs. */
export interface DemoEntry {
  symbol: string;
  tradeDate: string;
  spot: number;
  anchorSpot: number;
  legs: Array<{ expiration: string; strike: number }>;
}

/** Trading days before an opening at whose spot the day's open interest sits (about a month: where positions were built). */
const ANCHOR_TRADING_DAYS = 15;

/**
 * The openings of the demo journal of `today` (each sale to open, a roll's new leg included), one per underlying and
 * instant (a strangle's two legs are one): the demo stores a snapshot of each just before it (demo.ts), so that the
 * trades have their levels and delta at entry.
 */
export function demoEntries(seed: number, today: string): DemoEntry[] {
  return simulate(seed, today).entries;
}

function simulate(seed: number, today: string): { rows: ImportedTransaction[]; entries: DemoEntry[] } {
  const marketDay = demoMarketDay(today);
  const closing = demoClosingSpots(DEMO_SEED, marketDay);
  const random = seededRandom(seed);
  const tradingDays = tradingDaysBetween(addDays(today, -364), marketDay);
  const rows: ImportedTransaction[] = [];
  let sequence = 0;
  const nextId = () => `demo-${seed}-${String((sequence += 1)).padStart(5, '0')}`;
  let orderSequence = 0;
  const nextOrder = () => `D${seed}-${String((orderSequence += 1)).padStart(5, '0')}`;
  const push = (input: RowInput) => rows.push(row(DEMO_ACCOUNT, DEMO_SOURCE, 'USD', nextId(), input));
  const entries: DemoEntry[] = [];
  const entered = (symbol: string, tradeDate: string, spot: number, anchorSpot: number, leg: { expiration: string; strike: number }) => {
    const known = entries.find((e) => e.symbol === symbol && e.tradeDate === tradeDate);
    if (known) known.legs.push({ expiration: leg.expiration, strike: leg.strike });
    else entries.push({ symbol, tradeDate, spot, anchorSpot, legs: [{ expiration: leg.expiration, strike: leg.strike }] });
  };
  const optionFees = (contracts: number, opening: boolean) => ({
    // tastytrade-like: $1 a contract to open (capped at $10 a leg), nothing to close; clearing + regulatory fees on every fill.
    commissionMinor: opening ? Math.min(contracts, 10) * 10_000 : 0,
    feesMinor: contracts * 1_200,
  });
  const stockFees = (shares: number) => ({ commissionMinor: 0, feesMinor: 500 + Math.round(shares * 8) });
  const describe = (verb: string, ticker: string, o: { right: OptionRight; strike: number; expiration: string; contracts: number }, priceMinor: number) =>
    `${verb} ${o.contracts} ${ticker} ${o.expiration} ${o.right === 'C' ? 'Call' : 'Put'} ${o.strike.toFixed(2)} @ ${(priceMinor / 10_000).toFixed(2)}`;

  for (const plan of DEMO_PLANS) {
    // The price path: the scripted shape plus mean-reverting noise, scaled to end at the market's closing spot.
    const last = tradingDays.length - 1;
    let noise = 0;
    const logPath = tradingDays.map((_, index) => {
      noise = 0.85 * noise + plan.dailyVol * gaussian(random);
      return shapeAt(plan.knots, index / Math.max(last, 1)) + noise;
    });
    const endSpot = closing.get(plan.ticker) ?? 100;
    const spotOf = (index: number) => endSpot * Math.exp((logPath[index] ?? 0) - (logPath[last] ?? 0));
    const lastOpenIndex = Math.max(last - plan.lastOpenDaysBefore, 0);
    const anchorOf = (index: number) => spotOf(Math.max(index - ANCHOR_TRADING_DAYS, 0));
    const lastOpenDay = tradingDays[lastOpenIndex] ?? marketDay;

    let option: OpenOption | null = null;
    let shares = 0;
    let assignedStrike = 0;
    let cooldownUntil = '';
    const dividendsDue: Array<{ payDay: string; shares: number }> = [];
    const exDates: string[] = [];
    if (plan.dividendPerShare > 0) {
      for (let day = addDays(tradingDays[0] ?? marketDay, plan.dividendOffsetDays); day <= marketDay; day = addDays(day, 91)) exDates.push(day);
    }
    let nextExDate = 0;
    const roundStrike = (value: number, up: boolean) => (up ? Math.ceil(value / plan.strikeStep) : Math.floor(value / plan.strikeStep)) * plan.strikeStep;

    /**
     * The structure the demo leaves open, on an expiration and strikes of the demo market (so it is marked): a covered
     * call over the shares held (a put when the year left none), a cash-secured put (a covered call when the year left
     * shares), or a strangle on one order.
     */
    const openLast = (p: TickerPlan, spot: number, day: string, tradeDate: string): void => {
      const listed = demoExpirations(p.ticker, marketDay).filter((e) => e.root === p.ticker);
      const monthly = listed.find((e) => e.monthly && daysBetween(marketDay, e.expiration) >= 20) ?? listed.at(-1);
      const weekly = listed.find((e) => daysBetween(marketDay, e.expiration) >= 14) ?? listed.at(-1);
      const strikes = demoStrikes(p.ticker);
      const legs: Array<{ right: OptionRight; strike: number; expiration: string; contracts: number }> = [];
      if (shares > 0 && p.last !== 'strangle') {
        legs.push({ right: 'C', strike: listedStrike(strikes, Math.max(spot * 1.04, Math.min(assignedStrike, spot * 1.12)), 'C'), expiration: monthly?.expiration ?? marketDay, contracts: shares / 100 });
      } else if (p.last === 'strangle') {
        const expiration = monthly?.expiration ?? marketDay;
        legs.push({ right: 'P', strike: listedStrike(strikes, spot * 0.96, 'P'), expiration, contracts: p.contracts });
        legs.push({ right: 'C', strike: listedStrike(strikes, spot * 1.03, 'C'), expiration, contracts: p.contracts });
      } else {
        legs.push({ right: 'P', strike: listedStrike(strikes, spot * (p.iv > 0.4 ? 0.9 : 0.95), 'P'), expiration: weekly?.expiration ?? marketDay, contracts: p.contracts });
      }
      const orderId = nextOrder();
      for (const leg of legs) {
        const priceMinor = Math.max(centsMinor(blackScholes(leg.right, spot, leg.strike, Math.max(daysBetween(day, leg.expiration), 0.25) / 365, p.iv)), 500);
        push({ type: 'SELL_TO_OPEN', ticker: p.ticker, option: { expiration: leg.expiration, strike: leg.strike, right: leg.right }, quantity: leg.contracts, priceMinor, ...optionFees(leg.contracts, true), tradeDate, orderId, description: describe('Sold', p.ticker, leg, priceMinor) });
        entered(p.ticker, tradeDate, spot, anchorOf(lastOpenIndex), leg);
      }
    };

    tradingDays.forEach((day, index) => {
      const spot = spotOf(index);
      const at = (hour: number, minute: number) => nyInstant(day, hour, minute + plan.minuteOffset);
      const optionPrice = (o: Pick<OpenOption, 'right' | 'strike' | 'expiration'>, d: string) =>
        blackScholes(o.right, spot, o.strike, Math.max(daysBetween(d, o.expiration), 0.25) / 365, plan.iv);

      // Dividends: paid two weeks after the ex-date to whoever held the shares on it.
      for (const due of dividendsDue.filter((d) => d.payDay <= day)) {
        const grossMinor = Math.round(plan.dividendPerShare * due.shares * 10_000);
        const withheldMinor = Math.round(grossMinor * WITHHOLDING_RATE);
        push({ type: 'DIVIDEND', ticker: plan.ticker, quantity: 0, priceMinor: 0, commissionMinor: 0, feesMinor: 0, tradeDate: at(9, 0), orderId: null, description: `${plan.ticker} cash dividend ${plan.dividendPerShare.toFixed(3)}/share on ${due.shares} shares`, amountMinor: grossMinor });
        push({ type: 'DIVIDEND', ticker: plan.ticker, quantity: 0, priceMinor: 0, commissionMinor: 0, feesMinor: 0, tradeDate: at(9, 0), orderId: null, description: `${plan.ticker} non-resident tax withheld 15%`, amountMinor: -withheldMinor });
      }
      for (let i = dividendsDue.length - 1; i >= 0; i -= 1) if ((dividendsDue[i]?.payDay ?? '') <= day) dividendsDue.splice(i, 1);
      // An ex-date on a weekend or holiday counts on the next trading day's holding (it is the same holding).
      while (nextExDate < exDates.length && (exDates[nextExDate] ?? '') <= day) {
        if (shares > 0) dividendsDue.push({ payDay: addDays(day, 14), shares });
        nextExDate += 1;
      }

      // The book the demo leaves open: held from its day on, untouched.
      if (index > lastOpenIndex) return;
      if (index === lastOpenIndex) {
        openLast(plan, spot, day, at(10, 15));
        return;
      }

      // Expiration day: worthless, or assigned with the stock delivered at the strike.
      if (option && option.expiration === day) {
        const o: OpenOption = option;
        const itm = o.right === 'P' ? spot < o.strike : spot > o.strike;
        const spec = { expiration: o.expiration, strike: o.strike, right: o.right };
        if (!itm) {
          push({ type: 'EXPIRATION', ticker: plan.ticker, option: spec, quantity: o.contracts, priceMinor: 0, commissionMinor: 0, feesMinor: 0, tradeDate: at(16, 30), orderId: null, description: describe('Expired', plan.ticker, o, 0) });
        } else {
          const strikeMinor = Math.round(o.strike * 10_000);
          const stockQty = o.contracts * 100;
          push({ type: 'ASSIGNMENT', ticker: plan.ticker, option: spec, quantity: o.contracts, priceMinor: 0, commissionMinor: 0, feesMinor: 0, tradeDate: at(16, 30), orderId: null, description: describe('Assigned', plan.ticker, o, 0) });
          if (o.right === 'P') {
            push({ type: 'BUY', ticker: plan.ticker, quantity: stockQty, priceMinor: strikeMinor, ...stockFees(stockQty), tradeDate: at(16, 30), orderId: null, description: `Bought ${stockQty} ${plan.ticker} @ ${o.strike.toFixed(2)} (put assignment)` });
            shares += stockQty;
            assignedStrike = o.strike;
          } else {
            push({ type: 'SELL', ticker: plan.ticker, quantity: stockQty, priceMinor: strikeMinor, ...stockFees(stockQty), tradeDate: at(16, 30), orderId: null, description: `Sold ${stockQty} ${plan.ticker} @ ${o.strike.toFixed(2)} (called away)` });
            shares -= stockQty;
          }
        }
        option = null;
        return;
      }

      // Stop-loss on the shares (the losing campaign): buy back the call if any, sell the shares.
      if (shares > 0 && plan.stopLossFraction > 0 && spot < plan.stopLossFraction * assignedStrike) {
        const orderId = nextOrder();
        if (option) {
          const closeMinor = Math.max(centsMinor(optionPrice(option, day)), 100);
          push({ type: 'BUY_TO_CLOSE', ticker: plan.ticker, option: { expiration: option.expiration, strike: option.strike, right: option.right }, quantity: option.contracts, priceMinor: closeMinor, ...optionFees(option.contracts, false), tradeDate: at(10, 5), orderId, description: describe('Bought', plan.ticker, option, closeMinor) });
          option = null;
        }
        const priceMinor = centsMinor(spot);
        push({ type: 'SELL', ticker: plan.ticker, quantity: shares, priceMinor, ...stockFees(shares), tradeDate: at(10, 5), orderId, description: `Sold ${shares} ${plan.ticker} @ ${(priceMinor / 10_000).toFixed(2)} (stop-loss)` });
        shares = 0;
        cooldownUntil = addDays(day, 30);
        return;
      }

      if (option) {
        const o: OpenOption = option;
        const valueMinor = centsMinor(optionPrice(o, day));
        const dte = daysBetween(day, o.expiration);
        const spec = { expiration: o.expiration, strike: o.strike, right: o.right };
        // Tested: at or within 2% of the strike, but not deep in the money.
        const tested = o.right === 'P' ? spot < o.strike * 1.02 && spot > o.strike * 0.8 : spot > o.strike * 0.98 && spot < o.strike * 1.2;
        const rolledExpiration = weeklyExpiration(addDays(o.expiration, 28));
        if (dte > 7 && valueMinor <= o.premiumMinor / 4) {
          const priceMinor = Math.max(valueMinor, 100);
          push({ type: 'BUY_TO_CLOSE', ticker: plan.ticker, option: spec, quantity: o.contracts, priceMinor, ...optionFees(o.contracts, false), tradeDate: at(11, 0), orderId: nextOrder(), description: describe('Bought', plan.ticker, o, priceMinor) });
          option = null;
        } else if (plan.rollsAllowed && shares === 0 && tested && dte <= 14 && dte > 0 && o.rolls < 3 && rolledExpiration < lastOpenDay) {
          // Roll out four weeks at the same strike for a credit: one order, two legs.
          const orderId = nextOrder();
          const rolled: OpenOption = { ...o, expiration: rolledExpiration, rolls: o.rolls + 1, premiumMinor: 0 };
          const openMinor = centsMinor(optionPrice(rolled, day));
          rolled.premiumMinor = openMinor;
          push({ type: 'BUY_TO_CLOSE', ticker: plan.ticker, option: spec, quantity: o.contracts, priceMinor: valueMinor, ...optionFees(o.contracts, false), tradeDate: at(12, 30), orderId, description: describe('Bought', plan.ticker, o, valueMinor) + ' (roll)' });
          push({ type: 'SELL_TO_OPEN', ticker: plan.ticker, option: { expiration: rolled.expiration, strike: rolled.strike, right: rolled.right }, quantity: rolled.contracts, priceMinor: openMinor, ...optionFees(rolled.contracts, true), tradeDate: at(12, 30), orderId, description: describe('Sold', plan.ticker, rolled, openMinor) + ' (roll)' });
          entered(plan.ticker, at(12, 30), spot, anchorOf(index), rolled);
          option = rolled;
        }
        return;
      }

      if (day < cooldownUntil) return;
      // Nothing open: a cash-secured put, or a covered call over the shares (never below the assigned strike). Only
      // what settles before the last structure opens, so the demo ends with that structure alone.
      const expiration = weeklyExpiration(addDays(day, 28));
      const right: OptionRight = shares > 0 ? 'C' : 'P';
      // Before a covered call, the shares: a put at the money in the last month, to be assigned in the dip.
      const acquiring = plan.last === 'covered_call' && right === 'P' && index >= lastOpenIndex - 30;
      const fresh: OpenOption = {
        right,
        strike: right === 'P' ? roundStrike(spot * (acquiring ? 1.03 : 0.95), acquiring) : Math.max(roundStrike(spot * 1.04, true), assignedStrike),
        expiration: acquiring ? weeklyExpiration(addDays(day, 14)) : expiration,
        contracts: shares > 0 ? shares / 100 : plan.contracts,
        premiumMinor: 0,
        rolls: 0,
      };
      if (fresh.expiration >= lastOpenDay) return;
      const premiumMinor = centsMinor(optionPrice(fresh, day));
      if (premiumMinor < 500) return;
      fresh.premiumMinor = premiumMinor;
      push({ type: 'SELL_TO_OPEN', ticker: plan.ticker, option: { expiration: fresh.expiration, strike: fresh.strike, right: fresh.right }, quantity: fresh.contracts, priceMinor: premiumMinor, ...optionFees(fresh.contracts, true), tradeDate: at(10, 15), orderId: nextOrder(), description: describe('Sold', plan.ticker, fresh, premiumMinor) });
      entered(plan.ticker, at(10, 15), spot, anchorOf(index), fresh);
      option = fresh;
    });

  }
  rows.sort((a, b) => (a.tradeDate < b.tradeDate ? -1 : a.tradeDate > b.tradeDate ? 1 : a.brokerRowId < b.brokerRowId ? -1 : 1));
  entries.sort((a, b) => (a.tradeDate < b.tradeDate ? -1 : a.tradeDate > b.tradeDate ? 1 : a.symbol < b.symbol ? -1 : 1));
  return { rows, entries };
}
