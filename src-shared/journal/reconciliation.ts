/**
 * Reconciliation with the broker's own figures (DESIGN §5 "Reconciliation", docs/journal.md §Reconciliation): what a
 * file states about itself (statements.ts) set beside what the journal computes for the same scope and instant, and a
 * broker's positions set beside the book at an instant, each difference with the fix that removes it. Pure: the
 * service hands in the journal's rows and positions.
 */
import type { TransactionType } from './constants';
import { FILLS, parseOccSymbol } from './model';
import type { FileStatement, StatementKind, StatementPlace, StatementRows } from './statements';

/** A money figure agrees within 0.01 of its currency (100 minor units); quantities are exact. */
export const MONEY_TOLERANCE_MINOR = 100;
/** Fractional shares summed in another order differ in the 15th digit: below this a quantity is the same. */
export const QUANTITY_TOLERANCE = 1e-9;

const SETTLEMENTS: ReadonlySet<TransactionType> = new Set<TransactionType>(['EXPIRATION', 'ASSIGNMENT', 'EXERCISE']);

/** The fields of a row a money statement looks at. */
export interface ScopedRow {
  type: TransactionType;
  isOption: boolean;
  symbol: string;
  currency: string;
  tradeDate: string;
  amountMinor: number;
  commissionMinor: number;
  feesMinor: number;
  inferred?: boolean;
}

/** Trade rows: fills and settlements (a statement's Trades section); `options` and `stocks` split them by instrument. */
export function rowsOfKind(tx: Pick<ScopedRow, 'type' | 'isOption'>, rows: StatementRows): boolean {
  if (rows === 'all') return true;
  const trade = FILLS.has(tx.type) || SETTLEMENTS.has(tx.type);
  if (!trade) return false;
  return rows === 'trades' || (rows === 'options') === tx.isOption;
}

/** The instants a money statement covers: from its `from` (or the beginning) to its `asOf`, both included. */
export function statementPeriodMs(statement: Pick<FileStatement, 'from' | 'asOf'>): { fromMs: number; toMs: number } {
  return { fromMs: statement.from === null ? -Infinity : Date.parse(statement.from), toMs: Date.parse(statement.asOf) };
}

/** Whether a row counts in a money statement (its currency, rows, instrument and period; the account is the caller's). */
export function inStatementScope(tx: ScopedRow, statement: FileStatement, period = statementPeriodMs(statement)): boolean {
  if (tx.currency !== statement.currency || !rowsOfKind(tx, statement.rows)) return false;
  if (statement.symbol !== null && tx.symbol !== statement.symbol) return false;
  const ms = Date.parse(tx.tradeDate);
  return ms >= period.fromMs && ms <= period.toMs;
}

/** Σ amount of the file's own rows in scope (a total line adds the cash of the rows the file lists; rows the importer inferred are not the file's). */
export function cashTotalMinor(rows: Iterable<ScopedRow>, statement: FileStatement): number {
  const period = statementPeriodMs(statement);
  let sum = 0;
  for (const tx of rows) if (tx.inferred !== true && inStatementScope(tx, statement, period)) sum += tx.amountMinor;
  return sum;
}

/** Σ commissions and fees charged on the rows in scope, as a positive cost. */
export function commissionsMinor(rows: Iterable<ScopedRow>, statement: FileStatement): number {
  const period = statementPeriodMs(statement);
  let sum = 0;
  for (const tx of rows) if (inStatementScope(tx, statement, period)) sum += Math.abs(tx.commissionMinor) + Math.abs(tx.feesMinor);
  return sum;
}

/** One figure of the file (or of a balance assertion: `line` null) beside the journal's. */
export interface ReconciliationRow extends StatementPlace {
  /** The journal's account of the figure (null: several, or none yet). */
  accountId: string | null;
  symbol: string | null;
  /** Money kinds in minor units; `position` in units (shares, contracts), signed. */
  broker: number;
  journal: number;
  difference: number;
  ok: boolean;
  /** Why the journal's figure may fall short, where the journal cannot know better (closes of positions opened before its history). */
  note: string | null;
  /** A balance assertion this row checks (null: the file's own figure). */
  assertionId: number | null;
}

/** Whether two figures of a kind agree: money within 0.01 of the currency, quantities exactly. */
export function agrees(what: StatementKind, difference: number): boolean {
  return what === 'position' ? Math.abs(difference) <= QUANTITY_TOLERANCE : Math.abs(difference) <= MONEY_TOLERANCE_MINOR;
}

/** The row of a statement once the journal's figure is known: difference = journal − broker. */
export function reconciliationRow(statement: FileStatement, journal: number, note: string | null = null, assertionId: number | null = null): ReconciliationRow {
  const broker = statement.what === 'position' ? (statement.quantity ?? 0) : (statement.valueMinor ?? 0);
  const raw = journal - broker;
  // Quantities of fractional shares keep their float residue out of the difference.
  const difference = statement.what === 'position' ? (Math.abs(raw) <= QUANTITY_TOLERANCE ? 0 : raw) : raw;
  return {
    what: statement.what,
    label: statement.label,
    line: statement.line,
    asOf: statement.asOf,
    from: statement.from,
    currency: statement.currency,
    accountName: statement.accountName,
    accountId: null,
    symbol: statement.symbol,
    broker,
    journal,
    difference,
    ok: agrees(statement.what, difference),
    note,
    assertionId,
  };
}

/** Differing rows first (in file order), then the agreeing ones: a bounded report keeps what matters. */
export function differingFirst(rows: readonly ReconciliationRow[]): ReconciliationRow[] {
  return [...rows.filter((row) => !row.ok), ...rows.filter((row) => row.ok)];
}

// ---------------------------------------------------------------- positions files (POST /journal/reconcile)

/** The instrument of a position, as the neutral transaction names it. */
export interface Instrument {
  symbol: string;
  underlying: string;
  isOption: boolean;
  expiration: string | null;
  strike: number | null;
  right: 'C' | 'P' | null;
  multiplier: number;
  currency: string;
}

/** A position as the broker's file lists it. */
export interface BrokerPosition extends Instrument {
  /** The file's line (null: a JSON body). */
  line: number | null;
  /** The account the file names for it (null: none). */
  account: string | null;
  /** Signed: + long, − short. */
  quantity: number;
  /** Its cost in minor units when the file gives one (brokers sign a short's cost either way: compared by size). */
  costMinor: number | null;
}

/** A position of the journal's book. */
export interface BookPosition extends Instrument {
  accountId: string;
  accountName: string;
  quantity: number;
  costMinor: number;
}

export const DIFFERENCE_KINDS = ['missing_in_journal', 'missing_at_broker', 'quantity', 'cost'] as const;
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number];
export const FIX_KINDS = ['add_opening', 'add_closing', 'mark_expired', 'corporate_action', 'review'] as const;
export type FixKind = (typeof FIX_KINDS)[number];

/**
 * A manual row as POST /v1/journal/transactions takes it: the journal's shape, which api/manual-schemas.ts's
 * ManualTransaction is checked against (each assignable to the other), so that the domain imports no schema.
 */
export interface ManualRow {
  accountId?: string;
  account?: string;
  date: string;
  time?: string;
  type: TransactionType;
  symbol?: string;
  underlying?: string;
  expiration?: string;
  strike?: number;
  right?: 'C' | 'P' | 'CALL' | 'PUT';
  quantity?: number;
  price?: number;
  multiplier?: number;
  amount?: number;
  commission?: number;
  fees?: number;
  currency?: string;
  orderId?: string;
  description?: string;
  previousSymbol?: string;
}

/** A manual row the fix would add (POST /v1/journal/transactions), prefilled; `price` absent where the user must give it. */
export type FixRow = Omit<ManualRow, 'price'> & { price?: number };

/** What removes a difference: the rows to add (one click when nothing is missing), or what to look at. */
export interface Fix {
  kind: FixKind;
  /** What the button says. */
  label: string;
  /** Why, and what to check before applying it. */
  detail: string;
  /** The account of the rows (null: the file and the journal do not say which: reconcile one account, ?accountId=). */
  accountId: string | null;
  /** The rows to add; a row without `price` needs the user's price first. */
  transactions: FixRow[];
  needsPrice: boolean;
  /** A corporate action (DESIGN §5 "Corporate actions"), as POST /v1/journal/corporate-actions takes it; its rows above do the same today. */
  corporateAction: { type: 'split' | 'symbol_change'; symbol: string; newSymbol: string | null; ratio: number; date: string } | null;
}

export interface PositionDifference extends Instrument {
  kind: DifferenceKind;
  accountId: string | null;
  accountName: string | null;
  broker: { quantity: number; costMinor: number | null } | null;
  journal: { quantity: number; costMinor: number } | null;
  fix: Fix;
}

export interface PositionsComparison {
  matched: number;
  differences: PositionDifference[];
}

export interface CompareOptions {
  /** The instant compared (ISO 8601 UTC): fixes are dated at it (or before the first unmatched close of their instrument). */
  asOf: string;
  /** Its date in the journal's zone (default: its UTC date): an option expired by then, a corporate action's day. */
  asOfDay?: string;
  /** The account reconciled (null: the whole journal). */
  accountId: string | null;
  /** The journal's accounts, to name the account of a fix. */
  accounts: ReadonlyArray<{ id: string; name: string }>;
  /** The first close the history lacks an opening for, by `accountId|currency|symbol` (an opening must come before it). */
  firstUnmatched?: ReadonlyMap<string, string>;
}

const keyOf = (p: Pick<Instrument, 'currency' | 'symbol'>) => `${p.currency}|${p.symbol}`;

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

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;
/** A quantity without the float residue of a subtraction (fractional shares keep their digits). */
const units = (value: number) => Number(value.toFixed(9));

function openingType(p: Instrument, long: boolean): TransactionType {
  if (p.isOption) return long ? 'BUY_TO_OPEN' : 'SELL_TO_OPEN';
  return long ? 'BUY' : 'SELL_SHORT';
}

function closingType(p: Instrument, long: boolean): TransactionType {
  if (p.isOption) return long ? 'SELL_TO_CLOSE' : 'BUY_TO_CLOSE';
  return long ? 'SELL' : 'BUY_TO_COVER';
}

/**
 * The instrument's fields of a manual row: an OCC symbol says the contract itself; another option (a future's, an
 * adjusted one) is given by its root (the symbol less its OCC tail) and its parts.
 */
function instrumentFields(p: Instrument): Pick<FixRow, 'symbol' | 'underlying' | 'multiplier' | 'currency' | 'expiration' | 'strike' | 'right'> {
  const base = { ...(p.underlying !== '' && p.underlying !== p.symbol ? { underlying: p.underlying } : {}), ...(p.isOption || p.multiplier !== 1 ? { multiplier: p.multiplier } : {}), currency: p.currency };
  if (!p.isOption || p.expiration === null || p.strike === null || p.right === null || parseOccSymbol(p.symbol) !== null) return { symbol: p.symbol, ...base };
  const tail = `${p.expiration.slice(2, 4)}${p.expiration.slice(5, 7)}${p.expiration.slice(8, 10)}${p.right}${String(Math.round(p.strike * 1000)).padStart(8, '0')}`;
  const root = p.symbol.endsWith(tail) ? p.symbol.slice(0, -tail.length) : p.symbol;
  return { symbol: root, ...base, expiration: p.expiration, strike: p.strike, right: p.right };
}

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

function quantityFix(p: Instrument, brokerQty: number, journalQty: number, brokerCostMinor: number | null, accountId: string | null, openingAt: string, asOf: string, asOfDate: string): Fix {
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

function fmtRatio(ratio: number): string {
  if (ratio >= 1) return `${round4(ratio)}-for-1`;
  return `1-for-${round4(1 / ratio)}`;
}

/**
 * A ticker only the journal holds and another only the broker holds, in the same currency and a clean ratio (or the
 * same number of shares), one such pair each: a symbol change or a merger. Both differences get the fix that renames.
 */
function pairRenames(differences: PositionDifference[], asOf: string, asOfDate: string): void {
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
function bestPartner(self: PositionDifference, candidates: readonly PositionDifference[], ratioOf: (a: PositionDifference, b: PositionDifference) => number | null): PositionDifference | null {
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

function renamedRatio(old: PositionDifference, renamed: PositionDifference): number | null {
  const from = old.journal?.quantity ?? 0;
  const to = renamed.broker?.quantity ?? 0;
  if (from * to <= 0) return null;
  const ratio = to / from;
  return Math.abs(ratio - 1) < 1e-9 || cleanRatio(ratio) ? ratio : null;
}
