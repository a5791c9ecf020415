/**
 * An option contract written out in words, as brokers print it in descriptions and instrument columns
 * (docs/importers.md, "Options written out"):
 *
 *   DEF 08/21/2026 100.00 C          root, date, strike, right (Schwab)
 *   SPY 09/23/2022 C 371             root, date, right, strike (Robinhood: `TSLA 7/16/2021 Put $600.00`)
 *   SPY Sep 23 2022 371 Call         root, month name, day, year, strike, right (`TSLA Dec 15 '28 $400 Call`)
 *   PUT AAPL 01/19/24 180.000        right, root, date, strike (E*TRADE)
 *   KWEB 17DEC21 30 P                root, DDMONYY, strike, right (IBKR)
 *   -SPY220923C371                   root, YYMMDD, right, strike in dollars (Fidelity)
 *   SPY220923C00371000               OCC, padded or not
 *
 * also behind an action and a quantity (`Sell to Open DEF 08/21/2026 100.00 C`, `Sold 2 SPY ...`), with a time
 * and zone after the date (Webull's `SPY 09/23/2022 00:00:00 EDT Call $371.00`), or a series tag at the end
 * (`(Weeklys)`). The text is read as words, never by one pattern over the whole string: each word is tested on
 * its own, so the time taken grows with the length of the text and nothing else.
 */
import { mdyToYmd, checkYmd } from './dates';
import { occOption, optionFields, rightOf, type OptionFields } from './options';

const MONTHS: Record<string, string> = {
  JAN: '01', FEB: '02', MAR: '03', APR: '04', MAY: '05', JUN: '06',
  JUL: '07', AUG: '08', SEP: '09', OCT: '10', NOV: '11', DEC: '12',
};
const MONTH_NAMES = ['JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'MAY', 'JUNE', 'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER'];

const ROOT = /^\/?[A-Z][A-Z0-9.]{0,9}$/;
const STRIKE = /^\$?\d+(?:\.\d+)?$/;
const SLASH_DATE = /^\d{1,2}\/\d{1,2}\/(?:\d{2}|\d{4})$/;
const DAY_MON_YY = /^(\d{1,2})([A-Z]{3})(\d{2})$/;
const TIME = /^\d{1,2}:\d{2}(?::\d{2})?$/;
const ZONE = /^(?:EDT|EST|ET|CDT|CST|UTC|GMT|AM|PM)$/;
/** Fidelity's `-SPY220923C371` (strike in dollars) and OCC's `SPY220923C00371000` in one word. */
const COMPACT = /^-?(\/?[A-Z][A-Z0-9.]{0,5})(\d{2})(\d{2})(\d{2})([CP])(\d+(?:\.\d+)?)$/;
const OCC_TAIL = /^\d{6}[CP]\d{8}$/;

/** A month word (`SEP`, `Sept`, `September`) → `09`. */
function monthOf(word: string): string | undefined {
  const month = MONTHS[word.slice(0, 3)];
  if (month === undefined) return undefined;
  return word.length === 3 || word === 'SEPT' || MONTH_NAMES.includes(word) ? month : undefined;
}

function strikeOf(word: string | undefined): number | null {
  if (word === undefined || !STRIKE.test(word)) return null;
  const strike = Number(word.replace('$', ''));
  return strike > 0 ? strike : null;
}

function yearOf(word: string): string | null {
  const digits = word.replace(/^'/, '');
  if (/^\d{4}$/.test(digits)) return digits;
  return /^\d{2}$/.test(digits) ? `20${digits}` : null;
}

interface DateAt {
  ymd: string;
  /** Index of the first word after the date (and any time and zone written after it). */
  next: number;
}

/** A date that starts at word `i`: `08/21/2026`, `Sep 23 2022`, `17DEC21`; null when none does. */
function dateAt(words: readonly string[], i: number): DateAt | null {
  const word = words[i] ?? '';
  let ymd: string | null = null;
  let next = i + 1;
  if (SLASH_DATE.test(word)) {
    ymd = mdyToYmd(word);
  } else if (DAY_MON_YY.test(word)) {
    const [, day = '', mon = '', yy = ''] = DAY_MON_YY.exec(word) ?? [];
    const month = MONTHS[mon];
    ymd = month === undefined ? null : checkYmd(`20${yy}-${month}-${day.padStart(2, '0')}`);
  } else {
    const month = monthOf(word);
    const day = words[i + 1] ?? '';
    const year = yearOf(words[i + 2] ?? '');
    if (month !== undefined && /^\d{1,2}$/.test(day) && year !== null) {
      ymd = checkYmd(`${year}-${month}-${day.padStart(2, '0')}`);
      next = i + 3;
    }
  }
  if (ymd === null) return null;
  while (next < words.length && (TIME.test(words[next] ?? '') || ZONE.test(words[next] ?? ''))) next += 1;
  return { ymd, next };
}

/** The words a contract is read from: upper case, commas and a series tag in parentheses dropped. */
function wordsOf(text: string): string[] {
  return text
    .toUpperCase()
    .replace(/\([^()]*\)/g, ' ')
    .replace(/,/g, ' ')
    .split(/\s+/)
    .filter((word) => word !== '');
}

function compactOption(word: string): OptionFields | null {
  const match = COMPACT.exec(word);
  if (match === null) return null;
  const [, root = '', yy = '', mm = '', dd = '', right = '', strikeText = ''] = match;
  const expiration = checkYmd(`20${yy}-${mm}-${dd}`);
  // Eight digits are OCC's strike × 1000; anything else is the strike in dollars (Fidelity).
  const strike = /^\d{8}$/.test(strikeText) ? Number(strikeText) / 1000 : Number(strikeText);
  return expiration === null ? null : optionFields(root, expiration, right === 'C' ? 'C' : 'P', strike);
}

/**
 * The option a text names, in any of the layouts above; null when it names none (a ticker, a company name, a
 * sentence). The root is the word just before the date (or after the right, for `PUT AAPL 01/19/24 180`).
 */
export function optionFromText(text: string): OptionFields | null {
  const words = wordsOf(text);
  if (words.length === 0) return null;
  const last = words[words.length - 1] ?? '';
  const compact = compactOption(last);
  if (compact !== null) return compact;
  if (words.length >= 2 && OCC_TAIL.test(last)) {
    const padded = occOption(`${words[words.length - 2] ?? ''} ${last}`);
    if (padded !== null) return padded;
  }
  for (let i = 1; i < words.length; i += 1) {
    const date = dateAt(words, i);
    if (date === null) continue;
    const before = words[i - 1] ?? '';
    const [a, b] = [words[date.next], words[date.next + 1]];
    if (ROOT.test(before)) {
      // Root, date, then strike and right in either order (the root may itself read as a right: Citigroup is C).
      const strikeFirst = strikeOf(a);
      const rightSecond = rightOf(b ?? '');
      if (strikeFirst !== null && rightSecond !== null) return optionFields(before, date.ymd, rightSecond, strikeFirst);
      const rightFirst = rightOf(a ?? '');
      const strikeSecond = strikeOf(b);
      if (rightFirst !== null && strikeSecond !== null) return optionFields(before, date.ymd, rightFirst, strikeSecond);
      // `PUT AAPL 01/19/24 180.000`: the right, the root, the date, the strike.
      const rightAhead = i >= 2 ? rightOf(words[i - 2] ?? '') : null;
      if (rightAhead !== null && strikeFirst !== null) return optionFields(before, date.ymd, rightAhead, strikeFirst);
    }
  }
  return null;
}

/**
 * Does an action word say an option opens or closes (`Sell to Open`, `BTC`, `Bought To Close`, `STO`)? Such a row
 * read without a contract would be stored as shares: the custom formats warn about it (docs/importers.md).
 */
export function saysOptionEffect(text: string): boolean {
  const words = wordsOf(text);
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] ?? '';
    if (word === 'STO' || word === 'BTO' || word === 'STC' || word === 'BTC') return true;
    if (word === 'TO' && (words[i + 1] === 'OPEN' || words[i + 1] === 'CLOSE')) return true;
    if (/^(?:BUY|SELL)_TO_(?:OPEN|CLOSE)$/.test(word)) return true;
  }
  return false;
}
