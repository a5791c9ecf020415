/**
 * Exact money: integer minor units of 1/10,000 of a currency unit (enough for broker fee decimals).
 * Parsing goes through strings, never through floats, so "0.1" + "0.2" is exactly 3,000 minor units.
 * `Minor` and `Cents` are branded: a figure of one unit does not compile where the other is expected. The
 * functions of this file are the only places that make them from a plain number (`as Minor`), besides the
 * database's row mapping (docs/conventions.md §Money).
 */
import type { Nominal } from './nominal';

export const MINOR_PER_UNIT = 10_000;

/** Money in integer minor units of 1/10,000 of its currency unit: what is stored, summed and compared. */
export type Minor = Nominal<number, 'Minor'>;

/** Money as the API shows it: currency units rounded to the cent (12.34), a JSON number made once, in a presenter. */
export type Cents = Nominal<number, 'Cents'>;

export const ZERO_MINOR = 0 as Minor;

export type ParseMoneyResult = { ok: true; minor: Minor } | { ok: false; error: string };

/**
 * Parses a broker money cell: "1,234.56", "-$1,234.56", "$-12.5", "(12.50)", "+3", "1.2345".
 * An empty cell is zero. More than four decimals are rounded half away from zero on the fifth.
 */
export function parseMoneyMinor(raw: string): ParseMoneyResult {
  // Most cells are plain decimals with at most four places: no symbols, commas or rounding to handle.
  const plain = plainDecimalMinor(raw);
  if (!Number.isNaN(plain)) return { ok: true, minor: plain };
  let text = raw.trim();
  if (text === '' || text === '--' || text === '-') return { ok: true, minor: ZERO_MINOR };
  let negative = false;
  if (text.startsWith('(') && text.endsWith(')')) {
    negative = true;
    text = text.slice(1, -1).trim();
  }
  text = text.replace(/^([+-]?)\s*\$\s*/, '$1').replace(/^\$/, '');
  if (text.startsWith('-')) {
    negative = !negative;
    text = text.slice(1);
  } else if (text.startsWith('+')) {
    text = text.slice(1);
  }
  text = text.replace(/^\$/, '').replace(/,/g, '').trim();
  const match = /^(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[1] === '' && (match[2] ?? '') === '')) {
    return { ok: false, error: `not a number: "${raw}"` };
  }
  const whole = match[1] === '' ? 0 : Number(match[1]);
  const fraction = (match[2] ?? '').padEnd(5, '0');
  let minor = whole * MINOR_PER_UNIT + Number(fraction.slice(0, 4));
  if (Number(fraction[4]) >= 5) minor += 1;
  if (!Number.isSafeInteger(minor)) return { ok: false, error: `amount out of range: "${raw}"` };
  return { ok: true, minor: (negative && minor !== 0 ? -minor : minor) as Minor };
}

/**
 * A plain decimal (`-?` 1–15 digits, then at most four decimals: `1234.5`, `-0.0325`) in minor units, exactly (below
 * 2^53); NaN for any other text. Read by hand, without a regular expression or an object: money cells of 100k-row
 * imports.
 */
export function plainDecimalMinor(raw: string): Minor {
  const length = raw.length;
  const negative = raw.charCodeAt(0) === 45; /* - */
  let i = negative ? 1 : 0;
  let whole = 0;
  const wholeFrom = i;
  for (; i < length; i += 1) {
    const digit = raw.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) break;
    whole = whole * 10 + digit;
  }
  if (i === wholeFrom || i - wholeFrom > 15) return Number.NaN as Minor;
  let fraction = 0;
  if (i < length) {
    if (raw.charCodeAt(i) !== 46 /* . */ || i + 1 === length || length - i - 1 > 4) return Number.NaN as Minor;
    let scale = MINOR_PER_UNIT / 10;
    for (i += 1; i < length; i += 1) {
      const digit = raw.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) return Number.NaN as Minor;
      fraction += digit * scale;
      scale /= 10;
    }
  }
  const minor = whole * MINOR_PER_UNIT + fraction;
  // 13 digits and more can exceed 2^53 in minor units: the general path refuses them ("amount out of range").
  if (!Number.isSafeInteger(minor)) return Number.NaN as Minor;
  return (negative && minor !== 0 ? -minor : minor) as Minor;
}

/** Converts a float (a price computed elsewhere) to minor units, rounding half away from zero. */
export function toMinor(units: number): Minor {
  const scaled = Math.abs(units) * MINOR_PER_UNIT;
  const rounded = Math.round(Number(scaled.toPrecision(15)));
  return (units < 0 ? -rounded : rounded) as Minor;
}

/**
 * A figure already in minor units that integer arithmetic made out of `Minor`s: the running totals of a hot loop
 * kept `number` (FIFO lots, a walk over rows), branded once where they leave it. Not for a figure read from
 * outside (a file, a request, the database): those come from the parsers above or the row mapping.
 */
export function asMinor(minor: number): Minor {
  return minor as Minor;
}

/** a + b (+ c ...), branded. */
export function addMinor(a: Minor, b: Minor, ...more: Minor[]): Minor {
  let total = a + b;
  for (const value of more) total += value;
  return total as Minor;
}

/** a − b, branded. */
export function subMinor(a: Minor, b: Minor): Minor {
  return (a - b) as Minor;
}

/** −a, branded. */
export function negMinor(a: Minor): Minor {
  return -a as Minor;
}

/** |a|, branded. */
export function absMinor(a: Minor): Minor {
  return Math.abs(a) as Minor;
}

/**
 * T with its money fields (those named `…Minor`) branded: the type of a figure a hot loop summed as plain numbers
 * (the ledger's day buckets, a walk's totals), as it leaves the module that built it. `minorFields` hands it out.
 */
export type MinorFields<T> = { [K in keyof T]: K extends `${string}Minor` ? BrandedMinor<T[K]> : T[K] };
type BrandedMinor<V> = V extends number ? Minor : V extends readonly number[] ? Minor[] : V;

/** The brand of `MinorFields` on an object of sums kept `number` inside a hot loop (no copy: types only). */
export function minorFields<T extends object>(value: T): MinorFields<T> {
  return value as unknown as MinorFields<T>;
}

/** `minorFields` of each object of a list (no copy). */
export function minorFieldsAll<T extends object>(values: T[]): Array<MinorFields<T>> {
  return values as unknown as Array<MinorFields<T>>;
}

/** `asMinor` of a figure that may be unknown (null stays null). */
export function asMinorOrNull(minor: number | null): Minor | null {
  return minor as Minor | null;
}

/** The larger of two minor figures (`maxMinor(ZERO_MINOR, negMinor(commission))`: a charge booked negative, unsigned). */
export function maxMinor(a: Minor, b: Minor): Minor {
  return Math.max(a, b) as Minor;
}

/** Minor units to a JSON number rounded to cents (half away from zero), as the API shows money. */
export function minorToCents(minor: Minor): Cents {
  const cents = Math.round(Math.abs(minor) / 100);
  return ((minor < 0 ? -cents : cents) / 100) as Cents;
}

/** `minorToCents` of a figure that may be unknown (null stays null). */
export function centsOrNull(minor: Minor | null): Cents | null {
  return minor === null ? null : minorToCents(minor);
}

/** Minor units as text in currency units with `decimals` places (`-12.50`), for messages. */
export function formatMinor(minor: Minor, decimals = 2): string {
  return (minor / MINOR_PER_UNIT).toFixed(decimals);
}

/** Minor units to an exact decimal number of currency units (4 decimals), for prices. */
export function minorToUnits(minor: Minor): number {
  return minor / MINOR_PER_UNIT;
}
