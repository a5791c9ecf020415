/**
 * Exact money: integer minor units of 1/10,000 of a currency unit (enough for broker fee decimals).
 * Parsing goes through strings, never through floats, so "0.1" + "0.2" is exactly 3,000 minor units.
 */
export const MINOR_PER_UNIT = 10_000;

export type ParseMoneyResult = { ok: true; minor: number } | { ok: false; error: string };

/**
 * Parses a broker money cell: "1,234.56", "-$1,234.56", "$-12.5", "(12.50)", "+3", "1.2345".
 * An empty cell is zero. More than four decimals are rounded half away from zero on the fifth.
 */
export function parseMoneyMinor(raw: string): ParseMoneyResult {
  // Most cells are plain decimals with at most four places: no symbols, commas or rounding to handle.
  const plain = plainDecimalMinor(raw);
  if (!Number.isNaN(plain)) return { ok: true, minor: plain };
  let text = raw.trim();
  if (text === '' || text === '--' || text === '-') return { ok: true, minor: 0 };
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
  return { ok: true, minor: negative && minor !== 0 ? -minor : minor };
}

/**
 * A plain decimal (`-?` 1–15 digits, then at most four decimals: `1234.5`, `-0.0325`) in minor units; NaN for any
 * other text. Read by hand, without a regular expression or an object: money cells of 100k-row imports.
 */
export function plainDecimalMinor(raw: string): number {
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
  if (i === wholeFrom || i - wholeFrom > 15) return Number.NaN;
  let fraction = 0;
  if (i < length) {
    if (raw.charCodeAt(i) !== 46 /* . */ || i + 1 === length || length - i - 1 > 4) return Number.NaN;
    let scale = MINOR_PER_UNIT / 10;
    for (i += 1; i < length; i += 1) {
      const digit = raw.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) return Number.NaN;
      fraction += digit * scale;
      scale /= 10;
    }
  }
  const minor = whole * MINOR_PER_UNIT + fraction;
  return negative && minor !== 0 ? -minor : minor;
}

/** Converts a float (a price computed elsewhere) to minor units, rounding half away from zero. */
export function toMinor(units: number): number {
  const scaled = Math.abs(units) * MINOR_PER_UNIT;
  const rounded = Math.round(Number(scaled.toPrecision(15)));
  return units < 0 ? -rounded : rounded;
}

/** Minor units to a JSON number rounded to cents (half away from zero), as the API shows money. */
export function minorToCents(minor: number): number {
  const cents = Math.round(Math.abs(minor) / 100);
  return (minor < 0 ? -cents : cents) / 100;
}

/** `minorToCents` of a figure that may be unknown (null stays null). */
export function centsOrNull(minor: number | null): number | null {
  return minor === null ? null : minorToCents(minor);
}

/** Minor units to an exact decimal number of currency units (4 decimals), for prices. */
export function minorToUnits(minor: number): number {
  return minor / MINOR_PER_UNIT;
}
