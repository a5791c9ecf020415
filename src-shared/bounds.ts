/**
 * Sane ranges of what a file may say (docs/importers.md §Sane ranges): a value outside them is a line error of the
 * file, not a number the journal or the engine computes with. Wide enough for any real trade or chain (an index at
 * 100,000, a 10,000-share lot of a $700,000 stock), narrow enough that sums stay exact and dates stay dates: the
 * importers took years 0000 and 9999, a strike of 1e300 and a quantity of 1e-320.
 */
import { MINOR_PER_UNIT } from './money';

/** Calendar years of trade dates, expirations and quote times. */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2200;

/** Strikes (currency units per share): above 0, at most ten million. */
export const MAX_STRIKE = 1e7;

/** Quantities (shares, contracts; signed): 0 (cash rows), or a magnitude between these. */
export const MIN_QUANTITY = 1e-9;
export const MAX_QUANTITY = 1e12;

/**
 * Money of one cell (prices, amounts, commissions, fees) in currency units. In minor units (1/10,000) that is 1e15,
 * so nine such values still sum exactly in a double (2^53 ≈ 9.007e15); no real trade comes near it.
 */
export const MAX_MONEY_UNITS = 1e11;
export const MAX_MONEY_MINOR = MAX_MONEY_UNITS * MINOR_PER_UNIT;

/** Contract multipliers: above 0 (bonds are 0.01), at most a million. */
export const MAX_MULTIPLIER = 1e6;

/** Chain files: spot and bid/ask at most MAX_STRIKE; open interest at most a billion; IV (a decimal) at most 100. */
export const MAX_OPEN_INTEREST = 1e9;
export const MAX_IV = 100;

/** The year of an ISO date or instant (`2024-01-05`, `2024-01-05T16:00:00Z`), NaN when it has none. Read by hand: every imported row asks. */
export function yearOf(iso: string): number {
  if (iso.charCodeAt(4) !== 45 /* - */) return Number.NaN;
  let year = 0;
  for (let i = 0; i < 4; i += 1) {
    const digit = iso.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return Number.NaN;
    year = year * 10 + digit;
  }
  return year;
}

/** True when an ISO date or instant falls in MIN_YEAR..MAX_YEAR. */
export function saneYear(iso: string): boolean {
  const year = yearOf(iso);
  return year >= MIN_YEAR && year <= MAX_YEAR;
}

/** True for a quantity of 0 or of a magnitude within MIN_QUANTITY..MAX_QUANTITY. */
export function saneQuantity(quantity: number): boolean {
  if (quantity === 0) return true;
  const size = Math.abs(quantity);
  return size >= MIN_QUANTITY && size <= MAX_QUANTITY;
}

/** True for a strike above 0 and at most MAX_STRIKE. */
export function saneStrike(strike: number): boolean {
  return strike > 0 && strike <= MAX_STRIKE;
}
