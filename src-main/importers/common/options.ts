/** Option contracts as the importers hand them to the neutral model (OCC symbol without padding, docs/journal.md). */
import { chainUnderlying } from '../../../src-shared/exposure/roots';
import type { ImportedTransaction, RawTransaction, OptionRight } from '../../../src-shared/journal/model';
import { asTicker } from '../../../src-shared/ids';
import { occSymbol, parseOccSymbol } from '../../../src-shared/journal/model';

export interface OptionFields {
  symbol: string;
  underlying: string;
  expiration: string;
  strike: number;
  right: OptionRight;
}

/** The contract's fields from its parts; the root is upper-cased and the strike must be positive. */
export function optionFields(root: string, expiration: string, right: OptionRight, strike: number): OptionFields | null {
  const underlying = root.trim().toUpperCase();
  if (underlying === '' || !(strike > 0) || !Number.isFinite(strike)) return null;
  return { symbol: occSymbol(underlying, expiration, right, strike), underlying, expiration, strike, right };
}

/** An OCC symbol, padded (`PFE   260116C00020000`) or not. */
export function occOption(text: string): OptionFields | null {
  const occ = parseOccSymbol(text);
  return occ ? optionFields(occ.root, occ.expiration, occ.right, occ.strike) : null;
}

/** `C`, `CALL`, `Call` → C; `P`, `PUT` → P. */
export function rightOf(text: string): OptionRight | null {
  const upper = text.trim().toUpperCase();
  if (upper === 'C' || upper === 'CALL' || upper === 'CALLS') return 'C';
  if (upper === 'P' || upper === 'PUT' || upper === 'PUTS') return 'P';
  return null;
}

/** Puts the contract on a transaction (multiplier 100 unless the file says otherwise). */
export function withOption(tx: RawTransaction, option: OptionFields, multiplier = 100): RawTransaction {
  return { ...tx, ...option, isOption: true, multiplier };
}

/** The option columns of a transaction: the contract's, or none (stock and cash rows). */
export function contractColumns(option: { expiration: string; strike: number; right: OptionRight } | null): Pick<RawTransaction, 'isOption' | 'expiration' | 'strike' | 'right'> {
  return option === null ? { isOption: false, expiration: null, strike: null, right: null } : { isOption: true, expiration: option.expiration, strike: option.strike, right: option.right };
}

/**
 * The row with its underlying as the chain names it (docs/importers.md §Underlying roots): an SPXW option's underlying
 * is SPX, an adjusted AMD1's AMD (the symbol keeps the root: it says which contract, and `adjusted`). Every importer's
 * rows pass here (ResultCollector.add), and the manual rows (services/journal/manual-row.ts).
 */
export function withChainUnderlying(tx: ImportedTransaction): ImportedTransaction {
  const underlying = chainUnderlying(tx);
  return underlying === tx.underlying ? tx : { ...tx, underlying: asTicker(underlying) };
}

/** JavaScript's `\s` (white space and line terminators), as the OCC pattern's `\s*` reads it. */
function isRegexSpace(code: number): boolean {
  return (code >= 9 && code <= 13) || code === 32 || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

const isDigit = (code: number): boolean => code >= 48 && code <= 57;

/** Expirations made so far (`2025-01-17` from 250117), shared by every row that names one: few per file. */
const EXPIRATIONS = new Map<number, string>();
const MAX_EXPIRATIONS = 20_000;

/**
 * parseOccSymbol without its regex and substrings (issue 32: a third of an import's garbage): the same answer for
 * every text (test/unit/main/importers/common/options.test.ts compares them). The pattern's tail is fixed-width (six
 * digits, C or P, eight digits), so it is the text's last 15 characters; before it, the root (1–6 of A–Z, 0–9, `.`,
 * `/`) and any white space.
 */
export function readOccSymbol(raw: string): { root: string; expiration: string; right: OptionRight; strike: number } | null {
  const text = raw.trim().toUpperCase();
  const tail = text.length - 15;
  if (tail < 1) return null;
  let date = 0;
  for (let i = tail; i < tail + 6; i += 1) {
    const code = text.charCodeAt(i);
    if (!isDigit(code)) return null;
    date = date * 10 + code - 48;
  }
  const rightCode = text.charCodeAt(tail + 6);
  if (rightCode !== 67 /* C */ && rightCode !== 80 /* P */) return null;
  let strikeMilli = 0;
  for (let i = tail + 7; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (!isDigit(code)) return null;
    strikeMilli = strikeMilli * 10 + code - 48;
  }
  let rootEnd = tail;
  while (rootEnd > 0 && isRegexSpace(text.charCodeAt(rootEnd - 1))) rootEnd -= 1;
  if (rootEnd < 1 || rootEnd > 6) return null;
  for (let i = 0; i < rootEnd; i += 1) {
    const code = text.charCodeAt(i);
    // A–Z, 0–9, '.', '/'
    if (!((code >= 65 && code <= 90) || isDigit(code) || code === 46 || code === 47)) return null;
  }
  let expiration = EXPIRATIONS.get(date);
  if (expiration === undefined) {
    expiration = `20${text.slice(tail, tail + 2)}-${text.slice(tail + 2, tail + 4)}-${text.slice(tail + 4, tail + 6)}`;
    if (EXPIRATIONS.size < MAX_EXPIRATIONS) EXPIRATIONS.set(date, expiration);
  }
  return { root: text.slice(0, rootEnd), expiration, right: rightCode === 67 ? 'C' : 'P', strike: strikeMilli / 1000 };
}
