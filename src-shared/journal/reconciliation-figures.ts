/**
 * A file's stated figures beside the journal's (reconciliation.ts): the rows a statement counts (its kind, period and
 * scope), the journal's total over them, and the row that sets the two side by side within the tolerances.
 */
import type { TransactionType } from './constants';
import { FILLS } from './model';
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

