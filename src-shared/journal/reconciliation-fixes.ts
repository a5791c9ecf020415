/**
 * The fix of each difference of a positions comparison (reconciliation.ts): the manual row that brings the journal to
 * the broker's quantity (an opening, a closing, an expiration), and the pair of differences a rename or a split explains.
 */
import type { TransactionType } from './constants';
import { parseOccSymbol } from './model';
import { MONEY_TOLERANCE_MINOR, QUANTITY_TOLERANCE } from './reconciliation-figures';
import type { Fix, FixRow, Instrument, PositionDifference } from './reconciliation-types';

/**
 * A ratio a corporate action gives (new shares per old): p/q in lowest terms with the smaller of p and q at most 4 and
 * the larger at most 100 (2-for-1, 3-for-2, 1-for-10, 1-for-25), never 1. 10 more shares on 100 (11/10) is a trade.
 */
export function cleanRatio(ratio: number): boolean {
  if (!(ratio > 0) || Math.abs(ratio - 1) < 1e-9) return false;
  const [big, small] = ratio >= 1 ? [ratio, 1] : [1, ratio];
  for (let q = 1; q <= 4; q += 1) {
    const p = (big / small) * q;
    if (Math.abs(p - Math.round(p)) < 1e-6 && Math.round(p) <= 100) return true;
  }
  return false;
}

export const round4 = (value: number) => Math.round(value * 10_000) / 10_000;
/** A quantity without the float residue of a subtraction (fractional shares keep their digits). */
export const units = (value: number) => Number(value.toFixed(9));

export function openingType(p: Instrument, long: boolean): TransactionType {
  if (p.isOption) return long ? 'BUY_TO_OPEN' : 'SELL_TO_OPEN';
  return long ? 'BUY' : 'SELL_SHORT';
}

export function closingType(p: Instrument, long: boolean): TransactionType {
  if (p.isOption) return long ? 'SELL_TO_CLOSE' : 'BUY_TO_CLOSE';
  return long ? 'SELL' : 'BUY_TO_COVER';
}

/**
 * The instrument's fields of a manual row: an OCC symbol says the contract itself; another option (a future's, an
 * adjusted one) is given by its root (the symbol less its OCC tail) and its parts.
 */
export function instrumentFields(p: Instrument): Pick<FixRow, 'symbol' | 'underlying' | 'multiplier' | 'currency' | 'expiration' | 'strike' | 'right'> {
  const base = { ...(p.underlying !== '' && p.underlying !== p.symbol ? { underlying: p.underlying } : {}), ...(p.isOption || p.multiplier !== 1 ? { multiplier: p.multiplier } : {}), currency: p.currency };
  if (!p.isOption || p.expiration === null || p.strike === null || p.right === null || parseOccSymbol(p.symbol) !== null) return { symbol: p.symbol, ...base };
  const tail = `${p.expiration.slice(2, 4)}${p.expiration.slice(5, 7)}${p.expiration.slice(8, 10)}${p.right}${String(Math.round(p.strike * 1000)).padStart(8, '0')}`;
  const root = p.symbol.endsWith(tail) ? p.symbol.slice(0, -tail.length) : p.symbol;
  return { symbol: root, ...base, expiration: p.expiration, strike: p.strike, right: p.right };
}

export function quantityFix(p: Instrument, brokerQty: number, journalQty: number, brokerCostMinor: number | null, accountId: string | null, openingAt: string, asOf: string, asOfDate: string): Fix {
  const account = accountId === null ? {} : { accountId };
  const change = brokerQty - journalQty;
  const none = { accountId, corporateAction: null };
  // Shares in a clean ratio on the same side: a split the journal has not seen.
  if (!p.isOption && brokerQty * journalQty > 0 && cleanRatio(brokerQty / journalQty)) {
    const ratio = brokerQty / journalQty;
    return {
      kind: 'corporate_action',
      label: `Enter a ${ratio > 1 ? 'split' : 'reverse split'} (${fmtRatio(ratio)})`,
      detail: `The broker holds ${round4(ratio)} times the journal's shares: a ${fmtRatio(ratio)} split the files do not record. It is dated ${asOfDate} here (the latest it can be): set the split's own date.`,
      accountId,
      transactions: [{ ...account, ...instrumentFields(p), type: 'SPLIT', quantity: units(change), date: asOf, description: `Split ${fmtRatio(ratio)} (reconciliation)` }],
      needsPrice: false,
      corporateAction: { type: 'split', symbol: p.symbol, newSymbol: null, ratio, date: asOfDate },
    };
  }
  // An option the journal still holds past its expiration, which the broker no longer holds: it expired.
  if (p.isOption && p.expiration !== null && p.expiration <= asOfDate && Math.abs(brokerQty) <= QUANTITY_TOLERANCE) {
    return {
      ...none,
      kind: 'mark_expired',
      label: 'Mark expired',
      detail: `Expired on ${p.expiration} with no closing row in the files (if it was assigned or exercised instead, import the broker's row).`,
      transactions: [{ ...account, ...instrumentFields(p), type: 'EXPIRATION', quantity: Math.abs(journalQty), date: p.expiration, description: 'Expired (reconciliation)' }],
      needsPrice: false,
    };
  }
  // More at the broker on the same side (or nothing in the journal): an opening the history lacks.
  if (brokerQty * journalQty >= 0 && Math.abs(brokerQty) > Math.abs(journalQty)) {
    const long = brokerQty > 0;
    const quantity = units(Math.abs(change));
    // The broker's cost of the whole position, prorated to the units missing: its per-unit average as the price, and
    // the cost itself as the cash (the lot's cost is the row's cash, exact where a 4-decimal price is not).
    const costMinor = brokerCostMinor === null || brokerQty === 0 ? null : Math.round((Math.abs(brokerCostMinor) * quantity) / Math.abs(brokerQty));
    const price = costMinor === null ? undefined : round4(costMinor / 10_000 / quantity / p.multiplier);
    const cash = costMinor === null ? {} : { amount: (long ? -costMinor : costMinor) / 10_000 };
    return {
      ...none,
      kind: 'add_opening',
      label: 'Add opening position',
      detail:
        price === undefined
          ? 'The broker holds more than the journal: an opening before the imported history. Give the price it was opened at.'
          : `The broker holds more than the journal: an opening before the imported history, at the broker's average cost ${price}.`,
      transactions: [{ ...account, ...instrumentFields(p), type: openingType(p, long), quantity, ...(price === undefined ? {} : { price }), ...cash, date: openingAt, description: 'Opening position (reconciliation with the broker)' }],
      needsPrice: price === undefined,
    };
  }
  // Less at the broker on the same side: a sale or close the journal lacks.
  if (brokerQty * journalQty >= 0) {
    const long = journalQty > 0;
    return {
      ...none,
      kind: 'add_closing',
      label: p.isOption ? 'Add the closing trade' : 'Add the sale',
      detail: 'The journal holds more than the broker: a close, sale or transfer the imported files do not have. Import the file that has it, or enter it with its price.',
      transactions: [{ ...account, ...instrumentFields(p), type: closingType(p, long), quantity: units(Math.abs(change)), date: asOf, description: 'Closed (reconciliation with the broker)' }],
      needsPrice: true,
    };
  }
  return {
    ...none,
    kind: 'review',
    label: 'Check the side',
    detail: 'The broker and the journal hold this on opposite sides: a short sale read as a sale, or a close read as an open. Check the rows of this instrument.',
    transactions: [],
    needsPrice: false,
  };
}

export function fmtRatio(ratio: number): string {
  if (ratio >= 1) return `${round4(ratio)}-for-1`;
  return `1-for-${round4(1 / ratio)}`;
}

/**
 * A ticker only the journal holds and another only the broker holds, in the same currency and a clean ratio (or the
 * same number of shares), one such pair each: a symbol change or a merger. Both differences get the fix that renames.
 */
export function pairRenames(differences: PositionDifference[], asOf: string, asOfDate: string): void {
  const gone = differences.filter((d) => d.kind === 'missing_at_broker' && !d.isOption && d.journal !== null);
  const come = differences.filter((d) => d.kind === 'missing_in_journal' && !d.isOption && d.broker !== null);
  const sameScope = (a: PositionDifference, b: PositionDifference) => a.currency === b.currency && (a.accountId === b.accountId || a.accountId === null || b.accountId === null);
  for (const old of gone) {
    const renamed = bestPartner(
      old,
      come.filter((d) => sameScope(old, d)),
      (o, n) => renamedRatio(o, n),
    );
    if (renamed === null) continue;
    // The same pairing seen from the new ticker's side: no other old ticker fits it better.
    if (bestPartner(renamed, gone.filter((d) => sameScope(d, renamed)), (n, o) => renamedRatio(o, n)) !== old) continue;
    const ratio = renamedRatio(old, renamed) ?? 1;
    const accountId = old.accountId ?? renamed.accountId;
    const account = accountId === null ? {} : { accountId };
    const oldQty = old.journal?.quantity ?? 0;
    const newQty = renamed.broker?.quantity ?? 0;
    const rows: FixRow[] = [{ ...account, symbol: renamed.symbol, currency: renamed.currency, previousSymbol: old.symbol, type: 'SYMBOL_CHANGE', quantity: Math.abs(oldQty), date: asOf, description: `${old.symbol} became ${renamed.symbol} (reconciliation)` }];
    // The ledger moves the lots under the new name; a ratio other than 1 changes the shares a second later.
    if (Math.abs(ratio - 1) > 1e-9) rows.push({ ...account, symbol: renamed.symbol, currency: renamed.currency, type: 'SPLIT', quantity: units(newQty - oldQty), date: new Date(Date.parse(asOf) + 1000).toISOString(), description: `${fmtRatio(ratio)} in the exchange (reconciliation)` });
    const fix: Fix = {
      kind: 'corporate_action',
      label: `Enter ${old.symbol} → ${renamed.symbol}`,
      detail: `The journal holds ${old.symbol}, the broker ${renamed.symbol}${ratio === 1 ? ' (as many shares)' : ` (${fmtRatio(ratio)})`}: a symbol change or a merger the files do not record. It is dated at the reconciled instant: set its own date.`,
      accountId,
      transactions: rows,
      needsPrice: false,
      corporateAction: { type: 'symbol_change', symbol: old.symbol, newSymbol: renamed.symbol, ratio, date: asOfDate },
    };
    old.fix = fix;
    renamed.fix = fix;
  }
}

/**
 * The one candidate that fits `self` best: a merger keeps the basis, so the same cost first (both known, within 0.01),
 * then as many shares, then any clean ratio; null when none fits or two fit equally.
 */
export function bestPartner(self: PositionDifference, candidates: readonly PositionDifference[], ratioOf: (a: PositionDifference, b: PositionDifference) => number | null): PositionDifference | null {
  const fitting = candidates.filter((c) => ratioOf(self, c) !== null);
  const costOf = (d: PositionDifference) => d.journal?.costMinor ?? d.broker?.costMinor ?? null;
  const sameCost = fitting.filter((c) => {
    const a = costOf(self);
    const b = costOf(c);
    return a !== null && b !== null && Math.abs(Math.abs(a) - Math.abs(b)) <= MONEY_TOLERANCE_MINOR;
  });
  const sameShares = fitting.filter((c) => Math.abs((ratioOf(self, c) ?? 0) - 1) < 1e-9);
  for (const tier of [sameCost, sameShares, fitting]) if (tier.length > 0) return tier.length === 1 ? (tier[0] ?? null) : null;
  return null;
}

export function renamedRatio(old: PositionDifference, renamed: PositionDifference): number | null {
  const from = old.journal?.quantity ?? 0;
  const to = renamed.broker?.quantity ?? 0;
  if (from * to <= 0) return null;
  const ratio = to / from;
  return Math.abs(ratio - 1) < 1e-9 || cleanRatio(ratio) ? ratio : null;
}
