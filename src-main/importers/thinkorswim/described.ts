/**
 * Option fills read from a Cash Balance description, for TRD rows that have no Account Trade History leg (older TD
 * Ameritrade statements have no such section, or leave fills out of it):
 *
 *   SOLD -1 SPY 100 16 JAN 15 205 PUT @.95                      one option
 *   BOT +1 SPY 100 (Weeklys) 9 JAN 15 200 CALL @1.05             a series tag in parentheses
 *   SOLD -1 VERTICAL SPY 100 16 JAN 15 205/210 PUT @.95          spreads: a strike (or expiration) per leg
 *   SOLD -2 IRON CONDOR SPY 100 16 JAN 15 215/220/190/185 CALL/PUT @1.10
 *   BOT +1 CALENDAR SPY 100 20 FEB 15/16 JAN 15 200 CALL @1.40
 *
 * thinkorswim writes a spread from the leg that takes the order's side: the first strike (or expiration) of a
 * VERTICAL, CALENDAR and DIAGONAL is bought when the order buys and sold when it sells, the second the other way;
 * an IRON CONDOR is two such pairs (calls, then puts); a BUTTERFLY is 1, −2, 1; both legs of a STRANGLE or STRADDLE
 * take the order's side. The statement gives one net price for a spread, so the whole of it goes on the first leg
 * and the others have none: the spread's cash and its P&L as a whole are the statement's, the split between its
 * legs is not known. Other strategies (ratios, rolls, covered, combos, custom) are not read (the row stays OTHER
 * with a warning). The description says buy or sell but not open or close: that is decided from the positions
 * (positions.ts).
 *
 * Read word by word, never by one pattern over the whole text (docs/importers.md §Linear time).
 */
import type { OptionRight } from '../../../src-shared/journal/model';
import { dayMonYyToYmd } from '../common/dates';
import { MINOR_PER_UNIT, asMinor, type Minor } from '../../../src-shared/money';

export interface DescribedLeg {
  side: 'BUY' | 'SELL';
  quantity: number;
  root: string;
  multiplier: number;
  expiration: string;
  strike: number;
  right: OptionRight;
  /** The order's net price on the first leg, none on the others. */
  priceMinor: Minor;
}

export interface DescribedOrder {
  /** The strategy as written (`VERTICAL`), '' for one option. */
  strategy: string;
  legs: DescribedLeg[];
}

/** Strategies whose legs the description determines; each knows how many strikes, expirations and rights it has. */
const SHAPES: Record<string, { strikes: number; expirations: number; rights: number }> = {
  '': { strikes: 1, expirations: 1, rights: 1 },
  VERTICAL: { strikes: 2, expirations: 1, rights: 1 },
  STRANGLE: { strikes: 2, expirations: 1, rights: 2 },
  STRADDLE: { strikes: 1, expirations: 1, rights: 2 },
  BUTTERFLY: { strikes: 3, expirations: 1, rights: 1 },
  'IRON CONDOR': { strikes: 4, expirations: 1, rights: 2 },
  CALENDAR: { strikes: 1, expirations: 2, rights: 1 },
  DIAGONAL: { strikes: 2, expirations: 2, rights: 1 },
};

/** Strategy words that name a shape this reader does not split (the row is left to the caller's warning). */
const UNREAD = new Set(['COVERED', 'COMBO', 'CUSTOM', 'BACKRATIO', 'COLLAR', 'UNBALANCED', 'CONDOR', 'DBL', 'VERT', 'IRON']);

const NUMBER = /^(?:\d+(?:\.\d+)?|\.\d+)$/;

function quantityOf(text: string): number | null {
  const clean = text.replace(/^[+-]/, '').replace(/,/g, '');
  return NUMBER.test(clean) ? Number(clean) : null;
}

function rightOfWord(word: string): OptionRight | null {
  return word === 'CALL' ? 'C' : word === 'PUT' ? 'P' : null;
}

/**
 * `16 JAN 15` or, for two expirations, `20 FEB 15/16 JAN 15` starting at `words[at]`: the dates and the index after
 * them; null when the words are no expiration.
 */
function expirationsAt(words: readonly string[], at: number, count: number): { dates: string[]; next: number } | null {
  const first = dayMonYyToYmd(`${words[at] ?? ''} ${words[at + 1] ?? ''} ${(words[at + 2] ?? '').split('/')[0] ?? ''}`);
  if (first === null) return null;
  if (count === 1) return (words[at + 2] ?? '').includes('/') ? null : { dates: [first], next: at + 3 };
  const [, day2 = ''] = (words[at + 2] ?? '').split('/');
  const second = dayMonYyToYmd(`${day2} ${words[at + 3] ?? ''} ${words[at + 4] ?? ''}`);
  return second === null ? null : { dates: [first, second], next: at + 5 };
}

/**
 * The option legs of a TRD description; null when it is not an option fill this reader understands (a stock fill,
 * an unread strategy, a futures option, a ratio).
 */
export function describedOrder(description: string): DescribedOrder | null {
  const words = description.toUpperCase().trim().split(/\s+/);
  const verb = words.findIndex((word) => word === 'BOT' || word === 'SOLD');
  if (verb < 0) return null;
  const side: 'BUY' | 'SELL' = words[verb] === 'BOT' ? 'BUY' : 'SELL';
  const quantity = quantityOf(words[verb + 1] ?? '');
  if (quantity === null || !(quantity > 0)) return null;
  let at = verb + 2;
  let strategy = '';
  if (words[at] === 'IRON' && words[at + 1] === 'CONDOR') {
    strategy = 'IRON CONDOR';
    at += 2;
  } else if (SHAPES[words[at] ?? ''] !== undefined && words[at] !== '') {
    strategy = words[at] ?? '';
    at += 1;
  } else if (UNREAD.has(words[at] ?? '')) {
    return null;
  }
  const shape = SHAPES[strategy];
  if (shape === undefined) return null;
  const root = words[at] ?? '';
  const multiplier = quantityOf(words[at + 1] ?? '');
  if (!/^[A-Z][A-Z0-9.]*$/.test(root) || multiplier === null || !(multiplier > 0)) return null;
  at += 2;
  // Series tags: `(Weeklys)`, `(Quarterlys)`, `(AM)`, a tag of several words.
  while ((words[at] ?? '').startsWith('(')) {
    while (at < words.length && !(words[at] ?? '').endsWith(')')) at += 1;
    at += 1;
  }
  const expirations = expirationsAt(words, at, shape.expirations);
  if (expirations === null) return null;
  at = expirations.next;
  const strikes = (words[at] ?? '').split('/').map((text) => (NUMBER.test(text) ? Number(text) : NaN));
  const rights = (words[at + 1] ?? '').split('/').map(rightOfWord);
  if (strikes.length !== shape.strikes || strikes.some((strike) => !(strike > 0))) return null;
  if (rights.length !== shape.rights || rights.some((right) => right === null)) return null;
  const priceWord = words[at + 2] ?? '';
  const priceText = priceWord.startsWith('@') ? priceWord.slice(1) : '';
  if (!NUMBER.test(priceText)) return null;
  const priceMinor = asMinor(Math.round(Number(priceText) * MINOR_PER_UNIT));
  const other: 'BUY' | 'SELL' = side === 'BUY' ? 'SELL' : 'BUY';
  const [e1 = '', e2 = e1] = expirations.dates;
  const [k1 = 0, k2 = 0, k3 = 0, k4 = 0] = strikes;
  const [r1 = 'C', r2 = r1] = rights as OptionRight[];
  const leg = (legSide: 'BUY' | 'SELL', expiration: string, strike: number, right: OptionRight, size = 1): DescribedLeg => ({
    side: legSide,
    quantity: quantity * size,
    root,
    multiplier,
    expiration,
    strike,
    right,
    priceMinor: asMinor(0),
  });
  let legs: DescribedLeg[];
  switch (strategy) {
    case 'VERTICAL':
      legs = [leg(side, e1, k1, r1), leg(other, e1, k2, r1)];
      break;
    case 'STRANGLE':
      legs = [leg(side, e1, k1, r1), leg(side, e1, k2, r2)];
      break;
    case 'STRADDLE':
      legs = [leg(side, e1, k1, r1), leg(side, e1, k1, r2)];
      break;
    case 'BUTTERFLY':
      legs = [leg(side, e1, k1, r1), leg(other, e1, k2, r1, 2), leg(side, e1, k3, r1)];
      break;
    case 'IRON CONDOR':
      legs = [leg(side, e1, k1, r1), leg(other, e1, k2, r1), leg(side, e1, k3, r2), leg(other, e1, k4, r2)];
      break;
    case 'CALENDAR':
      legs = [leg(side, e1, k1, r1), leg(other, e2, k1, r1)];
      break;
    case 'DIAGONAL':
      legs = [leg(side, e1, k1, r1), leg(other, e2, k2, r1)];
      break;
    default:
      legs = [leg(side, e1, k1, r1)];
  }
  const first = legs[0];
  if (first !== undefined) first.priceMinor = priceMinor;
  return { strategy, legs };
}
