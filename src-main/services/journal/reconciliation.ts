/**
 * Reconciliation with the broker's own figures, in the journal worker (DESIGN §5 "Reconciliation", docs/journal.md
 * §Reconciliation):
 * - at an import, after the insert and in its write turn, each figure its file states about itself (a total line, a
 *   realized P&L, the positions at its end) beside the journal's figure for the same scope and instant; kept with the
 *   import so that it is checked again whenever the journal changes (a later import, a manual opening, an undo);
 * - a broker's positions file beside the book at an instant (POST /journal/reconcile), each difference with its fix;
 *   saved, a balance assertion, which an import that breaks it is flagged for (the file's side in
 *   balance-assertions.ts; the assertions' states are cached here with the imports').
 */
import type { Database } from 'better-sqlite3';
import { buildLedger, type OpenPosition } from '../../../src-shared/journal/index';
import { asMinor, ZERO_MINOR } from '../../../src-shared/money';
import { parseOccSymbol, type Transaction } from '../../../src-shared/journal/model';
import {
  cashTotalMinor,
  commissionsMinor,
  differingFirst,
  inStatementScope,
  reconciliationRow,
  rowsOfKind,
  statementPeriodMs,
  QUANTITY_TOLERANCE,
  type ReconciliationRow,
  type ScopedRow,
} from '../../../src-shared/journal/reconciliation';
import { STATEMENT_KINDS, STATEMENT_ROWS, type FileStatement } from '../../../src-shared/journal/statements';
import { dateInZone } from '../../../src-shared/zone';
import { ReconciliationRepository } from '../../db/reconciliation';
import type { WriteTx } from '../../db/writes';
import type { PositionsFile } from '../../importers/positions/index';
import type { Result } from '../result';
import { BalanceAssertions, type AssertionState, type ReconcileAnswer, type ReconcileRequest } from './balance-assertions';
import type { JournalBook } from './book';
import { accountIdFor } from './ids';
import type { JournalIndex } from './ledger-index';

/** What `read`, `reconcile` and `assertions` take and give (the positions file's side is balance-assertions.ts's). */
export type { AssertionState, ReconcileAnswer, ReconcileRequest } from './balance-assertions';

/** A statement as kept with its import: for a cash total, Σ of the file's own rows in scope (they do not change). */
export interface KeptStatement extends FileStatement {
  fileCashMinor?: number;
}

/** What an import keeps to be checked again (table import_statements). */
export interface KeptStatements {
  source: string;
  /** The import's accounts: a statement of no account covers them together. */
  accounts: Array<{ id: string; name: string }>;
  statements: KeptStatement[];
  /** Balance assertions that held before this import and not after it. */
  brokenAssertions: number[];
}

export type ImportStatus = 'ready' | 'differs' | 'acknowledged';

export interface ImportReconciliation {
  status: ImportStatus;
  rows: ReconciliationRow[];
  acknowledgedAt: string | null;
}

/** A difference listed under needsAttention (kind `reconciliation`): which import, which figure. */
export interface ReconciliationItem {
  importId: number;
  accountId: string;
  row: ReconciliationRow;
}

/** The journal's facts the money figures read: rows by account, and what each row realized. */
interface Facts {
  rows: Map<string, Transaction[]>;
  realizedByTx: ReadonlyMap<string, number>;
  unmatchedByTx: ReadonlyMap<string, number>;
  /** Per account, realized P&L before commissions and fees (built on first use: a statement `grossOfCosts`). */
  grossRealized: Map<string, ReadonlyMap<string, number>>;
}

/**
 * What each row of an account realized before commissions and fees: the ledger of its rows with their costs taken
 * out of the cash (a buy's cash is −gross − costs, a sell's gross − costs: the cash plus the costs is the gross either
 * way), so every lot's realized P&L is the gross of both legs.
 */
function grossRealizedByTx(rows: readonly Transaction[], reportingCurrency: string): ReadonlyMap<string, number> {
  const gross = rows.map((tx) => {
    const costs = Math.abs(tx.commissionMinor) + Math.abs(tx.feesMinor);
    if (costs === 0 || !rowsOfKind(tx, 'trades')) return tx;
    return { ...tx, amountMinor: asMinor(tx.amountMinor + costs), commissionMinor: ZERO_MINOR, feesMinor: ZERO_MINOR };
  });
  return buildLedger(gross, { reportingCurrency }).realizedByTx;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Stored JSON read back field by field (it is data, not a type): a malformed entry is dropped. */
function readKept(json: string): KeptStatements | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return null;
  }
  if (!isObject(parsed) || typeof parsed.source !== 'string' || !Array.isArray(parsed.statements)) return null;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const statements: KeptStatement[] = [];
  for (const s of parsed.statements) {
    if (!isObject(s)) continue;
    const what = STATEMENT_KINDS.find((k) => k === s.what);
    const rows = STATEMENT_ROWS.find((r) => r === s.rows);
    const asOf = text(s.asOf);
    const currency = text(s.currency);
    if (what === undefined || rows === undefined || asOf === null || currency === null) continue;
    const fileCashMinor = num(s.fileCashMinor);
    statements.push({
      what,
      rows,
      asOf,
      currency,
      label: text(s.label) ?? '',
      line: num(s.line),
      from: text(s.from),
      accountName: text(s.accountName),
      valueMinor: num(s.valueMinor),
      symbol: text(s.symbol),
      quantity: num(s.quantity),
      costMinor: num(s.costMinor),
      ...(fileCashMinor === null ? {} : { fileCashMinor }),
      ...(s.grossOfCosts === true ? { grossOfCosts: true } : {}),
    });
  }
  const accounts = Array.isArray(parsed.accounts) ? parsed.accounts.filter(isObject).map((a) => ({ id: text(a.id) ?? '', name: text(a.name) ?? '' })) : [];
  const brokenAssertions = Array.isArray(parsed.brokenAssertions) ? parsed.brokenAssertions.filter((id): id is number => Number.isSafeInteger(id)) : [];
  return { source: parsed.source, accounts, statements, brokenAssertions };
}

export class JournalReconciliation {
  private readonly repo: ReconciliationRepository;
  /** Positions files against the book, and the saved balance assertions' states. */
  private readonly positions: BalanceAssertions;
  /** The imports' reconciliations and the assertions' states of one journal state (the ledger's identity). */
  private cache: { ledger: object; imports: Map<number, ImportReconciliation>; assertions: AssertionState[] } | null = null;
  private factsCache: { ledger: object; facts: Facts } | null = null;

  constructor(
    db: Database,
    private readonly index: JournalIndex,
    private readonly book: JournalBook,
    private readonly timeZone: () => string,
  ) {
    this.repo = new ReconciliationRepository(db);
    this.positions = new BalanceAssertions(this.repo, index, book, timeZone);
  }

  /** The journal's rows and realized P&L now (read once per journal state, only when a money figure needs them). */
  private facts(): Facts {
    const ledger = this.index.ledger();
    if (this.factsCache?.ledger === ledger) return this.factsCache.facts;
    const complete = this.book.ledgerAt(Number.POSITIVE_INFINITY);
    const rows = new Map<string, Transaction[]>();
    const push = (tx: Transaction) => {
      const list = rows.get(tx.accountId);
      if (list === undefined) rows.set(tx.accountId, [tx]);
      else list.push(tx);
    };
    for (const tx of this.index.readTransactions(() => true)) push(tx);
    for (const item of complete.inferred) push(item.transaction);
    const facts = { rows, realizedByTx: complete.ledger.realizedByTx, unmatchedByTx: complete.ledger.unmatchedByTx, grossRealized: new Map<string, ReadonlyMap<string, number>>() };
    this.factsCache = { ledger, facts };
    return facts;
  }

  /** Realized before costs of the rows of these accounts (each account's ledger built once per journal state). */
  private grossRealized(facts: Facts, accountIds: ReadonlySet<string>): ReadonlyMap<string, number> {
    const merged = new Map<string, number>();
    for (const id of accountIds) {
      let byTx = facts.grossRealized.get(id);
      if (byTx === undefined) {
        byTx = grossRealizedByTx(facts.rows.get(id) ?? [], this.index.ledger().reportingCurrency);
        facts.grossRealized.set(id, byTx);
      }
      for (const [tx, value] of byTx) merged.set(tx, value);
    }
    return merged;
  }

  /** The book's positions at an instant (all accounts). */
  private positionsAt(asOf: string): readonly OpenPosition[] {
    const ms = Date.parse(asOf);
    return Number.isFinite(ms) ? this.book.bookAt(ms).ledger.positions : [];
  }

  /** The journal's rows for one statement: figures, one row each (a positions section's completeness: one per position it leaves out). */
  private rowsFor(kept: KeptStatements, statement: KeptStatement, all: readonly KeptStatement[]): ReconciliationRow[] {
    const accountIds = new Set(statement.accountName === null ? kept.accounts.map((a) => a.id) : [accountIdFor(kept.source, statement.accountName)]);
    const accountId = accountIds.size === 1 ? ([...accountIds][0] ?? null) : null;
    return this.figureRows(kept, statement, all, accountIds).map((row) => ({ ...row, accountId }));
  }

  private figureRows(kept: KeptStatements, statement: KeptStatement, all: readonly KeptStatement[], accountIds: ReadonlySet<string>): ReconciliationRow[] {
    if (statement.what === 'cash_total') return [reconciliationRow(statement, statement.fileCashMinor ?? 0)];
    if (statement.what === 'commissions' || statement.what === 'realized_pl') {
      const facts = this.facts();
      const rows = [...accountIds].flatMap((id) => facts.rows.get(id) ?? []);
      if (statement.what === 'commissions') return [reconciliationRow(statement, commissionsMinor(rows, statement))];
      const period = statementPeriodMs(statement);
      const realizedOf = statement.grossOfCosts === true ? this.grossRealized(facts, accountIds) : facts.realizedByTx;
      let realized = 0;
      let unknown = 0;
      for (const tx of rows) {
        if (!inStatementScope(tx, statement, period)) continue;
        realized += realizedOf.get(tx.id) ?? 0;
        if (facts.unmatchedByTx.has(tx.id)) unknown += 1;
      }
      const note = unknown === 0 ? null : `${unknown} close${unknown === 1 ? '' : 's'} in scope found no opening in the journal: their P&L is unknown (enter the openings: Positions, Needs attention)`;
      return [reconciliationRow(statement, realized, note)];
    }
    const held = this.positionsAt(statement.asOf).filter((p) => accountIds.has(p.accountId) && p.currency === statement.currency);
    if (statement.symbol !== null) {
      const quantity = held.filter((p) => p.symbol === statement.symbol).reduce((sum, p) => sum + p.quantity, 0);
      return [reconciliationRow(statement, quantity)];
    }
    // The section lists every position: what else the journal holds there differs (the broker's figure is 0).
    const listed = new Set(all.filter((s) => s.what === 'position' && s.symbol !== null && s.asOf === statement.asOf && s.accountName === statement.accountName && s.currency === statement.currency).map((s) => s.symbol));
    const extra = held.filter((p) => !listed.has(p.symbol) && Math.abs(p.quantity) > QUANTITY_TOLERANCE && rowsOfKind({ type: 'BUY', isOption: p.isOption }, statement.rows));
    if (extra.length === 0) return [reconciliationRow(statement, 0)];
    return extra.map((p) => reconciliationRow({ ...statement, symbol: p.symbol, quantity: 0 }, p.quantity));
  }

  /** An assertion's rows for the import that broke it: each quantity that differs now (one agreeing row once it holds again). */
  private assertionRows(state: AssertionState | undefined, id: number): ReconciliationRow[] {
    if (state === undefined) return [];
    const label = `Balance assertion #${id} of ${dateInZone(Date.parse(state.asOf), this.timeZone())}`;
    const base = { what: 'position' as const, line: null, asOf: state.asOf, from: null, note: null, assertionId: id };
    const differences = state.differences.filter((d) => d.kind !== 'cost');
    if (differences.length === 0) return [{ ...base, label: `${label}: every position agrees`, currency: 'USD', accountName: null, accountId: state.accountId, symbol: null, broker: 0, journal: 0, difference: 0, ok: true }];
    return differences.map((d) => {
      const broker = d.broker?.quantity ?? 0;
      const journal = d.journal?.quantity ?? 0;
      return { ...base, label, currency: d.currency, accountName: d.accountName, accountId: d.accountId, symbol: d.symbol, broker, journal, difference: journal - broker, ok: false, note: d.fix.label };
    });
  }

  /** One import's rows now. */
  private reconcileKept(kept: KeptStatements, assertions: ReadonlyMap<number, AssertionState>): ReconciliationRow[] {
    const rows = kept.statements.flatMap((statement) => this.rowsFor(kept, statement, kept.statements));
    for (const id of kept.brokenAssertions) rows.push(...this.assertionRows(assertions.get(id), id));
    return differingFirst(rows);
  }

  /** Every import's reconciliation and every assertion's state, for the journal as it is (cached until it changes). */
  private current(): { imports: Map<number, ImportReconciliation>; assertions: AssertionState[] } {
    const ledger = this.index.ledger();
    if (this.cache?.ledger === ledger) return this.cache;
    const assertions = this.repo.assertions().map((row) => this.positions.stateOf(row));
    const byId = new Map(assertions.map((a) => [a.id, a]));
    const imports = new Map<number, ImportReconciliation>();
    for (const row of this.repo.allStatements()) {
      const kept = readKept(row.statements_json);
      if (kept === null) continue;
      const rows = this.reconcileKept(kept, byId);
      imports.set(row.import_id, { rows, acknowledgedAt: row.acknowledged_at, status: statusOf(rows, row.acknowledged_at) });
    }
    this.cache = { ledger, imports, assertions };
    return this.cache;
  }

  /** An import's reconciliation now (null: its file stated nothing). */
  ofImport(importId: number): ImportReconciliation | null {
    // An import whose file stated nothing needs no ledger (the import history is listed without building one).
    if (this.repo.statementsOf(importId) === null) return null;
    return this.current().imports.get(importId) ?? null;
  }

  /** The differences of imports not acknowledged, for needsAttention. */
  attention(): ReconciliationItem[] {
    const items: ReconciliationItem[] = [];
    if (this.repo.statementsCount() === 0) return items;
    for (const [importId, state] of this.current().imports) {
      if (state.status !== 'differs') continue;
      for (const row of state.rows) if (!row.ok) items.push({ importId, accountId: row.accountId ?? '', row });
    }
    return items;
  }

  /**
   * At an import, after its rows are inserted (in its write turn): keeps what its file states, with the cash its own
   * rows add up to, and the assertions it broke (`holdingBefore`: those that held before it); returns its rows.
   */
  checkImport(turn: WriteTx, importId: number, source: string, accounts: Array<{ id: string; name: string }>, fileRows: ReadonlyArray<ScopedRow & { accountName: string }>, statements: readonly FileStatement[], holdingBefore: ReadonlySet<number>): ImportReconciliation | null {
    this.cache = null;
    const kept: KeptStatements = {
      source,
      accounts,
      statements: statements.map((statement) => {
        if (statement.what !== 'cash_total') return statement;
        const own = statement.accountName === null ? fileRows : fileRows.filter((tx) => tx.accountName === statement.accountName);
        return { ...statement, fileCashMinor: cashTotalMinor(own, statement) };
      }),
      brokenAssertions: [],
    };
    const now = this.current();
    kept.brokenAssertions = now.assertions.filter((a) => holdingBefore.has(a.id) && !a.holds).map((a) => a.id);
    if (kept.statements.length === 0 && kept.brokenAssertions.length === 0) return null;
    this.repo.putStatements(turn, { import_id: importId, statements_json: JSON.stringify(kept) });
    const rows = this.reconcileKept(kept, new Map(now.assertions.map((a) => [a.id, a])));
    this.cache = null;
    return { rows, acknowledgedAt: null, status: statusOf(rows, null) };
  }

  /** The assertions that hold now (asked before an import, to tell which it breaks); empty without any. */
  holdingNow(): Set<number> {
    if (this.repo.assertions().length === 0) return new Set();
    return new Set(this.current().assertions.filter((a) => a.holds).map((a) => a.id));
  }

  /** Marks an import's differences as seen (they leave needsAttention; its status says `acknowledged`). */
  acknowledge(turn: WriteTx, importId: number, at: string): { id: number; acknowledgedAt: string | null; status: ImportStatus } {
    // An import whose file stated nothing has nothing to acknowledge: it stays ready.
    if (!this.repo.acknowledge(turn, importId, at)) return { id: importId, acknowledgedAt: null, status: 'ready' };
    this.cache = null;
    return { id: importId, acknowledgedAt: at, status: this.ofImport(importId)?.status ?? 'ready' };
  }

  /** The saved assertions, newest first. */
  assertions(): AssertionState[] {
    return [...this.current().assertions].reverse();
  }

  /** Reads a positions file (nothing written: a refusal needs no turn). */
  read(request: ReconcileRequest): Result<PositionsFile> {
    return this.positions.read(request);
  }

  /** The differences of a positions file with the book at `asOf`; stored as an assertion when `turn` is given (save=true). */
  reconcile(file: PositionsFile, request: ReconcileRequest, nowMs: number, save: { turn: WriteTx; createdAt: string } | null): Result<ReconcileAnswer> {
    const answer = this.positions.reconcile(file, request, nowMs, save);
    if (answer.ok && answer.value.assertionId !== null) this.cache = null;
    return answer;
  }

}

function statusOf(rows: readonly ReconciliationRow[], acknowledgedAt: string | null): ImportStatus {
  if (rows.every((row) => row.ok)) return 'ready';
  return acknowledgedAt === null ? 'differs' : 'acknowledged';
}

/** The underlying of a reconciliation row's symbol (an option's root), for the needsAttention filters. */
export function underlyingOf(symbol: string | null): string {
  if (symbol === null) return '';
  return parseOccSymbol(symbol)?.root ?? symbol;
}
