/** Option contracts as the importers hand them to the neutral model (OCC symbol without padding, docs/journal.md). */
import { chainUnderlying } from '../../../src-shared/exposure/roots';
import type { ImportedTransaction, OptionRight } from '../../../src-shared/journal/model';
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
export function withOption(tx: ImportedTransaction, option: OptionFields, multiplier = 100): ImportedTransaction {
  return { ...tx, ...option, isOption: true, multiplier };
}

/** The option columns of a transaction: the contract's, or none (stock and cash rows). */
export function contractColumns(option: { expiration: string; strike: number; right: OptionRight } | null): Pick<ImportedTransaction, 'isOption' | 'expiration' | 'strike' | 'right'> {
  return option === null ? { isOption: false, expiration: null, strike: null, right: null } : { isOption: true, expiration: option.expiration, strike: option.strike, right: option.right };
}

/**
 * The row with its underlying as the chain names it (docs/importers.md §Underlying roots): an SPXW option's underlying
 * is SPX, an adjusted AMD1's AMD (the symbol keeps the root: it says which contract, and `adjusted`). Every importer's
 * rows pass here (ResultCollector.add), and the manual rows (services/journal/manual-row.ts).
 */
export function withChainUnderlying<T extends ImportedTransaction>(tx: T): T {
  const underlying = chainUnderlying(tx);
  return underlying === tx.underlying ? tx : { ...tx, underlying };
}
