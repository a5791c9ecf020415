/**
 * Reconciliation with the broker's own figures (DESIGN §5 "Reconciliation", docs/journal.md §Reconciliation): what a
 * file states about itself (statements.ts) set beside what the journal computes for the same scope and instant, and a
 * broker's positions set beside the book at an instant, each difference with the fix that removes it. Pure: the
 * service hands in the journal's rows and positions.
 */

export * from './reconciliation-figures';
export * from './reconciliation-types';
export { cleanRatio } from './reconciliation-fixes';
import { MONEY_TOLERANCE_MINOR, QUANTITY_TOLERANCE } from './reconciliation-figures';
import { pairRenames, quantityFix } from './reconciliation-fixes';
import type { BookPosition, BrokerPosition, CompareOptions, DifferenceKind, Instrument, PositionDifference, PositionsComparison } from './reconciliation-types';

const keyOf = (p: Pick<Instrument, 'currency' | 'symbol'>) => `${p.currency}|${p.symbol}`;

/**
 * The broker's positions against the book's at one instant: per instrument (and currency), summed over the accounts in
 * scope. Each difference carries its fix: an opening the history lacks, a closing it lacks (or an expiration, for an
 * option past its expiry), a corporate action (quantities in a clean ratio, or one ticker held by the journal and
 * another by the broker in such a ratio), or, for cost alone, what to check.
 */
export function comparePositions(brokerFile: readonly BrokerPosition[], book: readonly BookPosition[], options: CompareOptions): PositionsComparison {
  // A ticker the file spells in another case (aapl, 4GLDD) is the journal's (AAPL, 4GLDd).
  const spelling = new Map(book.map((p) => [`${p.currency}|${p.symbol.toUpperCase()}`, p.symbol]));
  const broker = brokerFile.map((p) => {
    const symbol = spelling.get(`${p.currency}|${p.symbol.toUpperCase()}`);
    return symbol === undefined || symbol === p.symbol ? p : { ...p, symbol, underlying: p.isOption ? p.underlying : symbol };
  });
  const brokerBy = new Map<string, { position: BrokerPosition; quantity: number; costMinor: number | null; accounts: Set<string> }>();
  for (const p of broker) {
    const key = keyOf(p);
    const known = brokerBy.get(key);
    if (known === undefined) brokerBy.set(key, { position: p, quantity: p.quantity, costMinor: p.costMinor, accounts: new Set(p.account === null ? [] : [p.account]) });
    else {
      known.quantity += p.quantity;
      known.costMinor = known.costMinor === null || p.costMinor === null ? null : known.costMinor + p.costMinor;
      if (p.account !== null) known.accounts.add(p.account);
    }
  }
  const bookBy = new Map<string, { position: BookPosition; quantity: number; costMinor: number; accountIds: Set<string> }>();
  for (const p of book) {
    const key = keyOf(p);
    const known = bookBy.get(key);
    if (known === undefined) bookBy.set(key, { position: p, quantity: p.quantity, costMinor: p.costMinor, accountIds: new Set([p.accountId]) });
    else {
      known.quantity += p.quantity;
      known.costMinor += p.costMinor;
      known.accountIds.add(p.accountId);
    }
  }
  const accountOf = (key: string): { id: string; name: string } | null => {
    const id =
      options.accountId ??
      only([...(bookBy.get(key)?.accountIds ?? [])]) ??
      only([...(brokerBy.get(key)?.accounts ?? [])].flatMap((name) => options.accounts.filter((a) => sameAccount(a.name, name)).map((a) => a.id))) ??
      (options.accounts.length === 1 ? (options.accounts[0]?.id ?? null) : null);
    if (id === null) return null;
    return { id, name: options.accounts.find((a) => a.id === id)?.name ?? id };
  };
  const asOfDate = options.asOfDay ?? options.asOf.slice(0, 10);
  const openingDate = (key: string, accountId: string | null): string => {
    const first = accountId === null ? undefined : options.firstUnmatched?.get(`${accountId}|${key}`);
    if (first === undefined || Date.parse(first) > Date.parse(options.asOf)) return options.asOf;
    return new Date(Date.parse(first) - 60_000).toISOString();
  };

  const differences: PositionDifference[] = [];
  let matched = 0;
  const keys = [...new Set([...brokerBy.keys(), ...bookBy.keys()])].sort();
  for (const key of keys) {
    const b = brokerBy.get(key);
    const j = bookBy.get(key);
    const brokerQty = b?.quantity ?? 0;
    const journalQty = j?.quantity ?? 0;
    const instrument: Instrument = instrumentOf(b?.position ?? j?.position);
    const account = accountOf(key);
    const base = {
      ...instrument,
      accountId: account?.id ?? null,
      accountName: account?.name ?? null,
      broker: b === undefined || Math.abs(brokerQty) <= QUANTITY_TOLERANCE ? null : { quantity: brokerQty, costMinor: b.costMinor },
      journal: j === undefined || Math.abs(journalQty) <= QUANTITY_TOLERANCE ? null : { quantity: journalQty, costMinor: j.costMinor },
    };
    const quantityDiffers = Math.abs(brokerQty - journalQty) > QUANTITY_TOLERANCE;
    if (!quantityDiffers) {
      if (base.broker === null && base.journal === null) continue;
      const costDiffers = b?.costMinor !== null && b?.costMinor !== undefined && j !== undefined && Math.abs(Math.abs(b.costMinor) - Math.abs(j.costMinor)) > MONEY_TOLERANCE_MINOR;
      if (!costDiffers) {
        matched += 1;
        continue;
      }
      differences.push({
        ...base,
        kind: 'cost',
        fix: {
          kind: 'review',
          label: 'Check the cost',
          detail:
            'The quantities agree; the cost differs. Brokers fold the premium of an assigned option into the shares’ cost and adjust for wash sales; the journal keeps the shares at the strike and the premium in option P&L. A difference beyond those is an opening entered at another price.',
          accountId: base.accountId,
          transactions: [],
          needsPrice: false,
          corporateAction: null,
        },
      });
      continue;
    }
    const kind: DifferenceKind = base.journal === null ? 'missing_in_journal' : base.broker === null ? 'missing_at_broker' : 'quantity';
    differences.push({ ...base, kind, fix: quantityFix(instrument, brokerQty, journalQty, b?.costMinor ?? null, base.accountId, openingDate(key, base.accountId), options.asOf, asOfDate) });
  }
  pairRenames(differences, options.asOf, asOfDate);
  return { matched, differences };
}

function instrumentOf(p: Instrument | undefined): Instrument {
  if (p === undefined) throw new Error('reconciliation: a key with no position');
  const { symbol, underlying, isOption, expiration, strike, right, multiplier, currency } = p;
  return { symbol, underlying, isOption, expiration, strike, right, multiplier, currency };
}

function only<T>(list: readonly T[]): T | null {
  const distinct = [...new Set(list)];
  return distinct.length === 1 ? (distinct[0] ?? null) : null;
}

const isDigit = (code: number) => code >= 48 && code <= 57;

/** An account of the file and one of the journal are the same: the same name, or the same last digits of a masked number (`XXXX-1234`, `Individual ...234`). */
export function sameAccount(journalName: string, fileName: string): boolean {
  const a = journalName.trim().toLowerCase();
  const b = fileName.trim().toLowerCase();
  if (a === b) return true;
  const digits = (text: string) => {
    // The last run of digits, scanned from the end (a pattern anchored at the end retries at every digit of a long run).
    let end = text.length;
    while (end > 0 && !isDigit(text.charCodeAt(end - 1))) end -= 1;
    let start = end;
    while (start > 0 && isDigit(text.charCodeAt(start - 1))) start -= 1;
    return end - start >= 3 ? text.slice(start, end) : '';
  };
  const da = digits(a);
  const db = digits(b);
  if (da === '' || db === '') return false;
  const n = Math.min(da.length, db.length, 4);
  return n >= 3 && da.slice(-n) === db.slice(-n);
}

