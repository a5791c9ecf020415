/**
 * Generated journals. `demoTransactions` is the demo wheel account (wheel.ts: a year of wheel trading on the demo
 * market's tickers). `syntheticTransactions` is a fast, bulk generator for benchmarks and property tests.
 * No third-party data: prices are a seeded simulation, option prices Black–Scholes at a fixed IV.
 */
import type { ImportedTransaction, OptionRight } from '../journal/model';
import { addDays, dayOfWeek } from '../calendar';
import { seededRandom } from './random';
import { centsMinor, fridayOnOrAfter, row, type RowInput } from './rows';

export { DEMO_ACCOUNT, DEMO_JOURNAL_SEED, DEMO_SOURCE, demoTransactions } from './wheel';

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
