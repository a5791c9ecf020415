/**
 * Generated journals. `demoTransactions` is the demo wheel account (docs/architecture.md §Running): a year of seeded,
 * simulated wheel trading on four tickers, clearly labelled (source `demo`, account `Demo wheel`).
 * `syntheticTransactions` is a fast, bulk generator for benchmarks and property tests.
 * No third-party data: prices are a seeded simulation, option prices Black–Scholes at a fixed IV.
 */
import { occSymbol, type ImportedTransaction, type OptionRight, type TransactionType } from '../journal/model';
import { addDays, dayOfWeek, isoInstant } from '../calendar';
import { NEW_YORK, zonedTimeToMs } from '../zone';
import { gaussian, seededRandom } from './random';

// ---------------------------------------------------------------- randomness and pricing



/** Standard normal CDF (Abramowitz–Stegun 26.2.17, |error| < 7.5e-8). */
function normCdf(x: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(x));
  const poly = t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  const tail = Math.exp((-x * x) / 2) / Math.sqrt(2 * Math.PI) * poly;
  return x >= 0 ? 1 - tail : tail;
}

function blackScholes(right: OptionRight, spot: number, strike: number, tYears: number, iv: number, rate = 0.04): number {
  if (tYears <= 0) return Math.max(0, right === 'C' ? spot - strike : strike - spot);
  const sqrtT = Math.sqrt(tYears);
  const d1 = (Math.log(spot / strike) + (rate + (iv * iv) / 2) * tYears) / (iv * sqrtT);
  const d2 = d1 - iv * sqrtT;
  const df = Math.exp(-rate * tYears);
  return right === 'C' ? spot * normCdf(d1) - strike * df * normCdf(d2) : strike * df * normCdf(-d2) - spot * normCdf(-d1);
}

/** Price → minor units, on the cent grid. */
function centsMinor(units: number): number {
  return Math.round(units * 100) * 100;
}

// ---------------------------------------------------------------- row building

interface RowInput {
  type: TransactionType;
  ticker: string;
  option?: { expiration: string; strike: number; right: OptionRight };
  quantity: number;
  priceMinor: number;
  commissionMinor: number;
  feesMinor: number;
  tradeDate: string;
  orderId: string | null;
  description: string;
  amountMinor?: number;
}

const CASH_SIGN: Partial<Record<TransactionType, number>> = {
  SELL_TO_OPEN: 1,
  SELL_TO_CLOSE: 1,
  SELL: 1,
  BUY_TO_OPEN: -1,
  BUY_TO_CLOSE: -1,
  BUY: -1,
};

function row(account: string, source: string, currency: string, id: string, input: RowInput): ImportedTransaction {
  const multiplier = input.option ? 100 : 1;
  const gross = Math.round(input.priceMinor * input.quantity * multiplier);
  const sign = CASH_SIGN[input.type] ?? 0;
  return {
    accountName: account,
    brokerRowId: id,
    type: input.type,
    symbol: input.option ? occSymbol(input.ticker, input.option.expiration, input.option.right, input.option.strike) : input.ticker,
    underlying: input.ticker,
    isOption: input.option !== undefined,
    expiration: input.option?.expiration ?? null,
    strike: input.option?.strike ?? null,
    right: input.option?.right ?? null,
    quantity: input.quantity,
    priceMinor: input.priceMinor,
    multiplier,
    amountMinor: input.amountMinor ?? sign * gross - input.commissionMinor - input.feesMinor,
    commissionMinor: input.commissionMinor,
    feesMinor: input.feesMinor,
    currency,
    tradeDate: input.tradeDate,
    orderId: input.orderId,
    description: input.description,
    source,
  };
}

// ---------------------------------------------------------------- the demo wheel

export const DEMO_ACCOUNT = 'Demo wheel';
export const DEMO_SOURCE = 'demo';

interface TickerPlan {
  ticker: string;
  spot0: number;
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
  /** Scripted shape of the year: [fraction of the year, log-return from spot0], linear in between. */
  knots: Array<[number, number]>;
  minuteOffset: number;
}

const DEMO_PLANS: TickerPlan[] = [
  // Assigned in the spring dip, covered calls, called away on the recovery; pays dividends.
  { ticker: 'KO', spot0: 62, iv: 0.2, dailyVol: 0.005, strikeStep: 1, contracts: 2, dividendPerShare: 0.485, dividendOffsetDays: 40, rollsAllowed: false, stopLossFraction: 0, knots: [[0, 0], [0.18, 0.03], [0.3, -0.1], [0.45, -0.08], [0.62, 0.06], [0.8, 0.05], [1, 0.09]], minuteOffset: 0 },
  // Tested puts are rolled out (one order, two legs) rather than assigned.
  { ticker: 'AMD', spot0: 150, iv: 0.45, dailyVol: 0.012, strikeStep: 5, contracts: 1, dividendPerShare: 0, dividendOffsetDays: 0, rollsAllowed: true, stopLossFraction: 0, knots: [[0, 0], [0.15, 0.08], [0.3, -0.05], [0.42, -0.11], [0.55, 0.02], [0.75, 0.1], [1, 0.14]], minuteOffset: 7 },
  // The losing chain: assigned before a crash, shares cut at a loss.
  { ticker: 'SOFI', spot0: 10, iv: 0.6, dailyVol: 0.015, strikeStep: 0.5, contracts: 5, dividendPerShare: 0, dividendOffsetDays: 0, rollsAllowed: false, stopLossFraction: 0.6, knots: [[0, 0], [0.3, 0.03], [0.45, -0.9], [0.6, -0.8], [1, -0.6]], minuteOffset: 13 },
  // Steady: puts mostly expire worthless or are closed at half their credit.
  { ticker: 'XOM', spot0: 110, iv: 0.25, dailyVol: 0.006, strikeStep: 1, contracts: 1, dividendPerShare: 0.95, dividendOffsetDays: 20, rollsAllowed: true, stopLossFraction: 0, knots: [[0, 0], [0.5, 0.04], [1, 0.06]], minuteOffset: 21 },
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

/** First Friday on or after `date`. */
function fridayOnOrAfter(date: string): string {
  return addDays(date, (5 - dayOfWeek(date) + 7) % 7);
}

function nyInstant(day: string, hour: number, minute: number): string {
  return isoInstant(zonedTimeToMs(day, { hour, minute }, NEW_YORK), { compact: true });
}

/** The seed of the demo wheel account that `serve --demo` and the demo button load. */
export const DEMO_JOURNAL_SEED = 7;

/**
 * A year of wheel trading ending `today` (a journal date: the caller's today) on KO, AMD,
 * SOFI and XOM: cash-secured puts, rolls (both legs on one order id), expirations, assignments with the
 * stock at the strike, covered calls, shares called away, dividends with withholding, a losing chain,
 * commission and fees on every fill. Deterministic for a given (seed, today).
 */
export function demoTransactions(seed: number, today: string): ImportedTransaction[] {
  const random = seededRandom(seed);
  const start = addDays(today, -364);
  const tradingDays: string[] = [];
  for (let day = start; day <= today; day = addDays(day, 1)) {
    const dow = dayOfWeek(day);
    if (dow !== 0 && dow !== 6) tradingDays.push(day);
  }
  const rows: ImportedTransaction[] = [];
  let sequence = 0;
  const nextId = () => `demo-${seed}-${String((sequence += 1)).padStart(5, '0')}`;
  let orderSequence = 0;
  const nextOrder = () => `D${seed}-${String((orderSequence += 1)).padStart(5, '0')}`;
  const push = (input: RowInput) => rows.push(row(DEMO_ACCOUNT, DEMO_SOURCE, 'USD', nextId(), input));
  const optionFees = (contracts: number, opening: boolean) => ({
    // tastytrade-like: $1 a contract to open (capped at $10 a leg), nothing to close; clearing + regulatory fees on every fill.
    commissionMinor: opening ? Math.min(contracts, 10) * 10_000 : 0,
    feesMinor: contracts * 1_200,
  });
  const stockFees = (shares: number) => ({ commissionMinor: 0, feesMinor: 500 + Math.round(shares * 8) });
  const describe = (verb: string, ticker: string, o: OpenOption | { right: OptionRight; strike: number; expiration: string; contracts: number }, priceMinor: number) =>
    `${verb} ${o.contracts} ${ticker} ${o.expiration} ${o.right === 'C' ? 'Call' : 'Put'} ${o.strike.toFixed(2)} @ ${(priceMinor / 10_000).toFixed(2)}`;

  for (const plan of DEMO_PLANS) {
    let noise = 0;
    let option: OpenOption | null = null;
    let shares = 0;
    let assignedStrike = 0;
    let cooldownUntil = '';
    const dividendsDue: Array<{ payDay: string; shares: number }> = [];
    const exDates: string[] = [];
    if (plan.dividendPerShare > 0) {
      for (let day = addDays(start, plan.dividendOffsetDays); day <= today; day = addDays(day, 91)) exDates.push(day);
    }
    let nextExDate = 0;
    const roundStrike = (value: number, up: boolean) => (up ? Math.ceil(value / plan.strikeStep) : Math.floor(value / plan.strikeStep)) * plan.strikeStep;

    tradingDays.forEach((day, index) => {
      noise = 0.85 * noise + plan.dailyVol * gaussian(random);
      const spot = plan.spot0 * Math.exp(shapeAt(plan.knots, index / Math.max(tradingDays.length - 1, 1)) + noise);
      const at = (hour: number, minute: number) => nyInstant(day, hour, minute + plan.minuteOffset);
      const optionPrice = (o: OpenOption, d: string) => {
        const days = (Date.parse(o.expiration) - Date.parse(d)) / 86_400_000;
        return blackScholes(o.right, spot, o.strike, Math.max(days, 0.25) / 365, plan.iv);
      };

      // Dividends: paid two weeks after the ex-date to whoever held the shares on it.
      for (const due of dividendsDue.filter((d) => d.payDay <= day)) {
        const grossMinor = Math.round(plan.dividendPerShare * due.shares * 10_000);
        const withheldMinor = Math.round(grossMinor * WITHHOLDING_RATE);
        push({ type: 'DIVIDEND', ticker: plan.ticker, quantity: 0, priceMinor: 0, commissionMinor: 0, feesMinor: 0, tradeDate: at(9, 0), orderId: null, description: `${plan.ticker} cash dividend ${plan.dividendPerShare.toFixed(3)}/share on ${due.shares} shares`, amountMinor: grossMinor });
        push({ type: 'DIVIDEND', ticker: plan.ticker, quantity: 0, priceMinor: 0, commissionMinor: 0, feesMinor: 0, tradeDate: at(9, 0), orderId: null, description: `${plan.ticker} non-resident tax withheld 15%`, amountMinor: -withheldMinor });
      }
      for (let i = dividendsDue.length - 1; i >= 0; i -= 1) if ((dividendsDue[i]?.payDay ?? '') <= day) dividendsDue.splice(i, 1);
      // An ex-date on a weekend counts on the next trading day's holding (it is the same holding).
      while (nextExDate < exDates.length && (exDates[nextExDate] ?? '') <= day) {
        if (shares > 0) dividendsDue.push({ payDay: addDays(day, 14), shares });
        nextExDate += 1;
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

      // Stop-loss on the shares (the losing chain): buy back the call if any, sell the shares.
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
        const dte = (Date.parse(o.expiration) - Date.parse(day)) / 86_400_000;
        const spec = { expiration: o.expiration, strike: o.strike, right: o.right };
        // Tested: at or within 1% of the strike, but not deep in the money.
        const tested = o.right === 'P' ? spot < o.strike * 1.02 && spot > o.strike * 0.8 : spot > o.strike * 0.98 && spot < o.strike * 1.2;
        if (dte > 7 && valueMinor <= o.premiumMinor / 4) {
          const priceMinor = Math.max(valueMinor, 100);
          push({ type: 'BUY_TO_CLOSE', ticker: plan.ticker, option: spec, quantity: o.contracts, priceMinor, ...optionFees(o.contracts, false), tradeDate: at(11, 0), orderId: nextOrder(), description: describe('Bought', plan.ticker, o, priceMinor) });
          option = null;
        } else if (plan.rollsAllowed && shares === 0 && tested && dte <= 7 && dte > 0 && o.rolls < 3) {
          // Roll out four weeks at the same strike for a credit: one order, two legs.
          const orderId = nextOrder();
          const rolled: OpenOption = { ...o, expiration: addDays(o.expiration, 28), rolls: o.rolls + 1, premiumMinor: 0 };
          const openMinor = centsMinor(optionPrice(rolled, day));
          rolled.premiumMinor = openMinor;
          push({ type: 'BUY_TO_CLOSE', ticker: plan.ticker, option: spec, quantity: o.contracts, priceMinor: valueMinor, ...optionFees(o.contracts, false), tradeDate: at(12, 30), orderId, description: describe('Bought', plan.ticker, o, valueMinor) + ' (roll)' });
          push({ type: 'SELL_TO_OPEN', ticker: plan.ticker, option: { expiration: rolled.expiration, strike: rolled.strike, right: rolled.right }, quantity: rolled.contracts, priceMinor: openMinor, ...optionFees(rolled.contracts, true), tradeDate: at(12, 30), orderId, description: describe('Sold', plan.ticker, rolled, openMinor) + ' (roll)' });
          option = rolled;
        }
        return;
      }

      if (day < cooldownUntil || index >= tradingDays.length - 2) return;
      // Nothing open: a cash-secured put, or a covered call over the shares (never below the assigned strike).
      const expiration = fridayOnOrAfter(addDays(day, 28));
      const right: OptionRight = shares > 0 ? 'C' : 'P';
      const strike = right === 'P' ? roundStrike(spot * 0.95, false) : Math.max(roundStrike(spot * 1.04, true), assignedStrike);
      const fresh: OpenOption = { right, strike, expiration, contracts: shares > 0 ? shares / 100 : plan.contracts, premiumMinor: 0, rolls: 0 };
      const premiumMinor = centsMinor(optionPrice(fresh, day));
      if (premiumMinor < 500) return;
      fresh.premiumMinor = premiumMinor;
      push({ type: 'SELL_TO_OPEN', ticker: plan.ticker, option: { expiration, strike, right }, quantity: fresh.contracts, priceMinor: premiumMinor, ...optionFees(fresh.contracts, true), tradeDate: at(10, 15), orderId: nextOrder(), description: describe('Sold', plan.ticker, fresh, premiumMinor) });
      option = fresh;
    });
  }
  rows.sort((a, b) => (a.tradeDate < b.tradeDate ? -1 : a.tradeDate > b.tradeDate ? 1 : a.brokerRowId < b.brokerRowId ? -1 : 1));
  return rows;
}

// ---------------------------------------------------------------- bulk synthetic journal

const SYNTH_TICKERS = [
  'AAPL', 'MSFT', 'AMD', 'NVDA', 'TSLA', 'KO', 'PEP', 'XOM', 'CVX', 'JPM', 'BAC', 'WFC', 'T', 'VZ', 'INTC', 'F',
  'GM', 'SOFI', 'PLTR', 'DIS', 'NKE', 'SBUX', 'PFE', 'MRK', 'ABBV', 'O', 'MPW', 'SPY', 'QQQ', 'IWM', 'HOOD', 'UBER',
];
const SYNTH_CAD_TICKERS = ['ENB', 'TD', 'RY', 'BNS', 'SU', 'CNQ'];

/**
 * `count` transactions (exactly) of a realistic mix over several years: wheel campaigns on three USD
 * accounts and one CAD account (puts, rolls on one order id, expirations, assignments with stock legs,
 * covered calls, called away), long options and fractional-share stock trades on a fourth account,
 * dividends with withholding, interest and standalone fees. Instants are 14:30–19:59 UTC, so the
 * New York date is always the UTC date (`tradeDate.slice(0, 10)`).
 */
export function syntheticTransactions(count: number, seed = 1): ImportedTransaction[] {
  const random = seededRandom(seed);
  const days: string[] = [];
  for (let day = '2020-01-06'; days.length < 1500; day = addDays(day, 1)) {
    const dow = dayOfWeek(day);
    if (dow !== 0 && dow !== 6) days.push(day);
  }
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const rows: ImportedTransaction[] = [];
  let sequence = 0;
  let orders = 0;
  const instant = (dayIndex: number) => {
    const day = days[Math.min(dayIndex, days.length - 1)] ?? '2020-01-06';
    const minutes = 870 + Math.floor(random() * 329);
    return `${day}T${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:${String(Math.floor(random() * 60)).padStart(2, '0')}.000Z`;
  };
  const add = (account: string, currency: string, input: RowInput) => {
    if (rows.length < count) rows.push(row(account, 'synthetic', currency, `s${seed}-${(sequence += 1)}`, input));
  };
  const fees = (contracts: number, opening: boolean) => ({ commissionMinor: opening ? Math.min(contracts, 10) * 10_000 : 0, feesMinor: contracts * 1_200 });
  const expirationAfter = (dayIndex: number) => {
    const day = days[Math.min(dayIndex, days.length - 1)] ?? '2020-01-10';
    return fridayOnOrAfter(day);
  };
  const dayIndexOf = new Map(days.map((day, i) => [day, i]));

  while (rows.length < count) {
    const roll = random();
    const startIndex = Math.floor(random() * (days.length - 80));
    if (roll < 0.8) {
      // A wheel campaign.
      const cad = random() < 0.12;
      const account = cad ? 'Synthetic CAD' : pick(['Synthetic A', 'Synthetic B', 'Synthetic C']);
      const currency = cad ? 'CAD' : 'USD';
      const ticker = cad ? pick(SYNTH_CAD_TICKERS) : pick(SYNTH_TICKERS);
      const spot = 10 + random() * 290;
      const contracts = 1 + Math.floor(random() * 5);
      let day = startIndex;
      const strike = Math.floor(spot * 0.95);
      let expiration = expirationAfter(day + 25 + Math.floor(random() * 10));
      let premiumMinor = centsMinor(0.2 + random() * spot * 0.03);
      add(account, currency, { type: 'SELL_TO_OPEN', ticker, option: { expiration, strike, right: 'P' }, quantity: contracts, priceMinor: premiumMinor, ...fees(contracts, true), tradeDate: instant(day), orderId: `o${(orders += 1)}`, description: 'synthetic put' });
      if (random() < 0.25) {
        // Roll out (both legs on one order).
        day += 10 + Math.floor(random() * 10);
        const orderId = `o${(orders += 1)}`;
        const closeMinor = centsMinor(0.05 + random() * spot * 0.04);
        add(account, currency, { type: 'BUY_TO_CLOSE', ticker, option: { expiration, strike, right: 'P' }, quantity: contracts, priceMinor: closeMinor, ...fees(contracts, false), tradeDate: instant(day), orderId, description: 'synthetic roll close' });
        expiration = expirationAfter((dayIndexOf.get(expiration) ?? day) + 20);
        premiumMinor = closeMinor + centsMinor(0.05 + random() * 0.5);
        add(account, currency, { type: 'SELL_TO_OPEN', ticker, option: { expiration, strike, right: 'P' }, quantity: contracts, priceMinor: premiumMinor, ...fees(contracts, true), tradeDate: instant(day), orderId, description: 'synthetic roll open' });
      }
      const expiryIndex = dayIndexOf.get(expiration) ?? day + 30;
      const outcome = random();
      if (outcome < 0.3) {
        add(account, currency, { type: 'BUY_TO_CLOSE', ticker, option: { expiration, strike, right: 'P' }, quantity: contracts, priceMinor: centsMinor(0.01 + random() * spot * 0.02), ...fees(contracts, false), tradeDate: instant(Math.max(day + 1, expiryIndex - 5)), orderId: `o${(orders += 1)}`, description: 'synthetic close' });
      } else if (outcome < 0.75) {
        add(account, currency, { type: 'EXPIRATION', ticker, option: { expiration, strike, right: 'P' }, quantity: contracts, priceMinor: 0, commissionMinor: 0, feesMinor: 0, tradeDate: instant(expiryIndex), orderId: null, description: 'synthetic expiration' });
      } else {
        const shares = contracts * 100;
        const at = instant(expiryIndex);
        add(account, currency, { type: 'ASSIGNMENT', ticker, option: { expiration, strike, right: 'P' }, quantity: contracts, priceMinor: 0, commissionMinor: 0, feesMinor: 0, tradeDate: at, orderId: null, description: 'synthetic assignment' });
        add(account, currency, { type: 'BUY', ticker, quantity: shares, priceMinor: strike * 10_000, commissionMinor: 0, feesMinor: 500, tradeDate: at, orderId: null, description: 'synthetic put assignment stock' });
        if (random() < 0.5) {
          const gross = Math.round(shares * spot * 0.01 * 10_000);
          add(account, currency, { type: 'DIVIDEND', ticker, quantity: 0, priceMinor: 0, commissionMinor: 0, feesMinor: 0, tradeDate: instant(expiryIndex + 10), orderId: null, description: 'synthetic dividend', amountMinor: gross });
          add(account, currency, { type: 'DIVIDEND', ticker, quantity: 0, priceMinor: 0, commissionMinor: 0, feesMinor: 0, tradeDate: instant(expiryIndex + 10), orderId: null, description: 'synthetic withholding', amountMinor: -Math.round(gross * 0.15) });
        }
        const callStrike = strike + 1 + Math.floor(random() * 5);
        const callExpiration = expirationAfter(expiryIndex + 25);
        const callIndex = dayIndexOf.get(callExpiration) ?? expiryIndex + 30;
        add(account, currency, { type: 'SELL_TO_OPEN', ticker, option: { expiration: callExpiration, strike: callStrike, right: 'C' }, quantity: contracts, priceMinor: centsMinor(0.2 + random() * 2), ...fees(contracts, true), tradeDate: instant(expiryIndex + 1), orderId: `o${(orders += 1)}`, description: 'synthetic covered call' });
        if (random() < 0.6) {
          const at2 = instant(callIndex);
          add(account, currency, { type: 'ASSIGNMENT', ticker, option: { expiration: callExpiration, strike: callStrike, right: 'C' }, quantity: contracts, priceMinor: 0, commissionMinor: 0, feesMinor: 0, tradeDate: at2, orderId: null, description: 'synthetic call assignment' });
          add(account, currency, { type: 'SELL', ticker, quantity: shares, priceMinor: callStrike * 10_000, commissionMinor: 0, feesMinor: 500, tradeDate: at2, orderId: null, description: 'synthetic called away' });
        } else {
          add(account, currency, { type: 'EXPIRATION', ticker, option: { expiration: callExpiration, strike: callStrike, right: 'C' }, quantity: contracts, priceMinor: 0, commissionMinor: 0, feesMinor: 0, tradeDate: instant(callIndex), orderId: null, description: 'synthetic call expiration' });
          add(account, currency, { type: 'SELL', ticker, quantity: shares, priceMinor: centsMinor(strike * (0.85 + random() * 0.3)), commissionMinor: 0, feesMinor: 500, tradeDate: instant(callIndex + 1), orderId: `o${(orders += 1)}`, description: 'synthetic stock sale' });
        }
      }
    } else if (roll < 0.92) {
      // Fractional-share stock round trip, or a long call.
      const account = 'Synthetic Spec';
      const ticker = pick(SYNTH_TICKERS);
      const spot = 10 + random() * 290;
      if (random() < 0.5) {
        const quantity = Math.round((1 + random() * 50) * 1000) / 1000;
        add(account, 'USD', { type: 'BUY', ticker, quantity, priceMinor: centsMinor(spot), commissionMinor: 0, feesMinor: 10, tradeDate: instant(startIndex), orderId: `o${(orders += 1)}`, description: 'synthetic buy' });
        add(account, 'USD', { type: 'SELL', ticker, quantity, priceMinor: centsMinor(spot * (0.9 + random() * 0.2)), commissionMinor: 0, feesMinor: 10, tradeDate: instant(startIndex + 1 + Math.floor(random() * 40)), orderId: `o${(orders += 1)}`, description: 'synthetic sell' });
      } else {
        const expiration = expirationAfter(startIndex + 20);
        const option = { expiration, strike: Math.round(spot), right: 'C' as OptionRight };
        const contracts = 1 + Math.floor(random() * 3);
        add(account, 'USD', { type: 'BUY_TO_OPEN', ticker, option, quantity: contracts, priceMinor: centsMinor(0.5 + random() * 5), ...fees(contracts, true), tradeDate: instant(startIndex), orderId: `o${(orders += 1)}`, description: 'synthetic long call' });
        add(account, 'USD', { type: 'SELL_TO_CLOSE', ticker, option, quantity: contracts, priceMinor: centsMinor(random() * 8), ...fees(contracts, false), tradeDate: instant(startIndex + 1 + Math.floor(random() * 10)), orderId: `o${(orders += 1)}`, description: 'synthetic long call close' });
      }
    } else {
      const account = pick(['Synthetic A', 'Synthetic B', 'Synthetic C']);
      const kind = random();
      if (kind < 0.5) add(account, 'USD', { type: 'INTEREST', ticker: '', quantity: 0, priceMinor: 0, commissionMinor: 0, feesMinor: 0, tradeDate: instant(startIndex), orderId: null, description: 'synthetic interest', amountMinor: centsMinor(random() * 20) - 50_000 * (random() < 0.2 ? 1 : 0) });
      else if (kind < 0.8) add(account, 'USD', { type: 'FEE', ticker: '', quantity: 0, priceMinor: 0, commissionMinor: 0, feesMinor: 0, tradeDate: instant(startIndex), orderId: null, description: 'synthetic platform fee', amountMinor: -centsMinor(1 + random() * 10) });
      else add(account, 'USD', { type: 'DEPOSIT', ticker: '', quantity: 0, priceMinor: 0, commissionMinor: 0, feesMinor: 0, tradeDate: instant(startIndex), orderId: null, description: 'synthetic deposit', amountMinor: centsMinor(1000 + random() * 10_000) });
    }
  }
  // Oldest first, like a broker export (all instants share one format, so strings sort chronologically).
  rows.sort((a, b) => (a.tradeDate < b.tradeDate ? -1 : a.tradeDate > b.tradeDate ? 1 : 0));
  return rows;
}
