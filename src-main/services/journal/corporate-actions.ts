/**
 * Corporate actions entered by hand (docs/journal.md §Corporate actions): checked, stored one per import of broker
 * `manual` (so that the Import page undoes one like any import), changed and deleted one by one; the rows the ledger
 * reads for them (one per account they apply to); and the list of every action the journal applies — a file's SPLIT /
 * SYMBOL_CHANGE rows and those entered by hand — with what each did. Runs in the journal worker, on its connection.
 */
import type { Database } from 'better-sqlite3';
import { HandChanges } from './hand-changes';
import { storedTicker, asTicker } from '../../../src-shared/ids';
import { CORPORATE_ACTION_OUTCOMES, MANUAL_ACTION_SOURCE, MANUAL_SOURCE, type CorporateActionOutcome } from '../../../src-shared/api/constants';
import { MANUAL_ACTIONS_MAX, type CorporateActionInputT } from '../../../src-shared/api/corporate-action-schemas';
import { actionOf } from '../../../src-shared/journal/corporate-actions';
import type { Account, CorporateActionTerms, Transaction } from '../../../src-shared/journal/model';
import { ZERO_MINOR, toMinor } from '../../../src-shared/money';
import { nowIso, type Clock } from '../../clock';
import { AccountsRepository } from '../../db/accounts';
import { CorporateActionsRepository, termsOfRow, type CorporateActionRow, type NewCorporateActionRow } from '../../db/corporate-actions';
import { ImportsRepository } from '../../db/imports';
import { toTransaction, TransactionsRepository } from '../../db/transactions';
import type { WriteTx } from '../../db/writes';
import { dayToUtc, localToUtc } from '../../importers/common/dates';
import { NEW_YORK } from '../../../src-shared/zone';
import { failure, ok, type Result } from '../result';
import type { ImportRecord, Pagination } from './values';
import { pageOf } from './values';

const YEAR_MIN = 1900;
const YEAR_MAX = 2200;

/** An action that passed every check: its columns (the import and the time are the store's). */
export type CheckedAction = Omit<NewCorporateActionRow, 'import_id' | 'created_at'>;

/** One action of the list, in domain units (the presenter turns cash into currency units). */
export interface ListedAction {
  id: number | null;
  source: 'manual' | 'file';
  importId: number;
  transactionId: string | null;
  accountId: string | null;
  accountName: string | null;
  date: string;
  terms: CorporateActionTerms;
  note: string;
  outcome: CorporateActionOutcome;
  appliedTo: string[];
}

/** The id of the row the ledger reads for an action entered by hand, in one account. */
export function actionRowId(id: number, accountId: string): string {
  return `cact_${id}_${accountId}`;
}

/**
 * The rows the ledger reads for the actions entered by hand: one per account it applies to (every account of the
 * journal when it names none), a SPLIT or SYMBOL_CHANGE of source `manual-action` carrying the terms, dated the
 * action's day (order.ts counts it from the start of that day, before the day's other rows).
 */
export function actionTransactions(rows: readonly CorporateActionRow[], accounts: readonly Account[], currency: string): Transaction[] {
  const out: Transaction[] = [];
  for (const row of rows) {
    const terms = termsOfRow(row);
    const moves = terms.type === 'symbol_change' || terms.type === 'merger';
    const ticker = storedTicker(moves && terms.newSymbol !== null ? terms.newSymbol : terms.symbol);
    // The start of the day in New York: a book at an instant of that day has it applied (and order.ts puts it before
    // the day's rows in any zone: its trade day is the action's date).
    const tradeDate = localToUtc(row.date, '0:00', NEW_YORK) ?? `${row.date}T05:00:00.000Z`;
    for (const account of accounts) {
      if (row.account_id !== null && account.id !== row.account_id) continue;
      const tx: Transaction = {
        id: actionRowId(row.id, account.id),
        importId: row.import_id,
        accountId: account.id,
        accountName: account.name,
        brokerRowId: `manual-action:${row.id}`,
        type: moves ? 'SYMBOL_CHANGE' : 'SPLIT',
        symbol: ticker,
        underlying: ticker,
        isOption: false,
        expiration: null,
        strike: null,
        right: null,
        quantity: row.quantity ?? 0,
        priceMinor: ZERO_MINOR,
        multiplier: 1,
        amountMinor: ZERO_MINOR,
        commissionMinor: ZERO_MINOR,
        feesMinor: ZERO_MINOR,
        currency,
        tradeDate,
        tradeDay: row.date,
        orderId: null,
        description: row.note,
        source: MANUAL_ACTION_SOURCE,
        corporateAction: terms,
      };
      if (moves) tx.previousSymbol = terms.symbol;
      out.push(tx);
    }
  }
  return out;
}

/** Several outcomes of one action (one per account) as one: applied anywhere, else the most telling. */
function combined(outcomes: readonly CorporateActionOutcome[]): CorporateActionOutcome {
  for (const outcome of ['applied', 'duplicate', 'nothing_held'] as const) if (outcomes.includes(outcome)) return outcome;
  return 'not_applied';
}

export class ManualCorporateActions {
  private readonly actions: CorporateActionsRepository;
  private readonly accounts: AccountsRepository;
  private readonly imports: ImportsRepository;
  private readonly transactions: TransactionsRepository;
  private readonly changes: HandChanges;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    /** After a commit: the journal's in-memory index and ledger follow (JournalIndex.written). */
    private readonly written: () => void,
  ) {
    this.actions = new CorporateActionsRepository(db);
    this.accounts = new AccountsRepository(db);
    this.imports = new ImportsRepository(db);
    this.transactions = new TransactionsRepository(db);
    this.changes = new HandChanges(db, () => this.written());
  }

  /** Every action entered by hand (the journal index reads them with the transactions). */
  all(): CorporateActionRow[] {
    return this.actions.all();
  }

  /** The fields of an action, each rule a schema cannot state checked and named (`ratio`, `newSymbol`, ...). Writes nothing. */
  check(input: CorporateActionInputT): Result<CheckedAction> {
    const problems: Array<{ param: string; message: string }> = [];
    const fail = (param: string, message: string) => {
      if (!problems.some((p) => p.param === param)) problems.push({ param, message });
    };
    const year = Number(input.date.slice(0, 4));
    if (year < YEAR_MIN || year > YEAR_MAX || dayToUtc(input.date) === null) fail('date', `must be a real day in ${YEAR_MIN}–${YEAR_MAX}: "${input.date}"`);
    if (input.accountId !== undefined && this.accounts.byId(input.accountId) === null) fail('accountId', `names no account of the journal: "${input.accountId}"`);
    const symbol = asTicker(input.symbol);
    const newSymbol = input.newSymbol === undefined ? undefined : asTicker(input.newSymbol);
    const { type, ratio, cashPerShare, costFraction, quantity } = input;
    const refuse = (field: 'newSymbol' | 'ratio' | 'cashPerShare' | 'costFraction' | 'quantity', value: unknown) => {
      if (value !== undefined) fail(field, `not taken by a ${type.replace('_', ' ')}`);
    };
    const need = (field: string, value: unknown, what: string) => {
      if (value === undefined) fail(field, `required for a ${type.replace('_', ' ')}: ${what}`);
    };
    if (newSymbol !== undefined && newSymbol === symbol) fail('newSymbol', 'must differ from symbol');
    switch (type) {
      case 'split':
        need('ratio', ratio, 'new shares per old (2 for 2-for-1, 0.1 for 1-for-10)');
        if (ratio === 1 && newSymbol === undefined) fail('ratio', 'a split of 1 changes nothing');
        refuse('costFraction', costFraction);
        refuse('quantity', quantity);
        break;
      case 'symbol_change':
        need('newSymbol', newSymbol, 'the new ticker');
        refuse('costFraction', costFraction);
        refuse('quantity', quantity);
        break;
      case 'merger':
        if (newSymbol === undefined && cashPerShare === undefined) fail('newSymbol', 'a merger needs the new ticker, the cash per share, or both');
        if (newSymbol === undefined && ratio !== undefined) fail('ratio', 'a merger for cash alone takes no ratio');
        if (costFraction !== undefined && (cashPerShare === undefined || newSymbol === undefined)) fail('costFraction', 'only a merger for shares and cash splits the basis');
        refuse('quantity', quantity);
        break;
      case 'stock_dividend':
        need('ratio', ratio, 'shares received per share held (0.05 for 5%)');
        refuse('newSymbol', newSymbol);
        refuse('costFraction', costFraction);
        refuse('quantity', quantity);
        break;
      case 'spinoff':
        need('newSymbol', newSymbol, 'the new company’s ticker');
        need('ratio', ratio, 'new shares per share held');
        need('costFraction', costFraction, 'the part of the basis the new shares take (the issuer’s tax notice states it)');
        refuse('quantity', quantity);
        break;
      case 'free_shares':
        need('quantity', quantity, 'the shares received');
        need('accountId', input.accountId, 'the account that received them');
        refuse('newSymbol', newSymbol);
        refuse('ratio', ratio);
        refuse('cashPerShare', cashPerShare);
        refuse('costFraction', costFraction);
        break;
    }
    if (problems.length > 0) return failure({ kind: 'invalid-request', what: 'corporate action', problems });
    return ok({
      account_id: input.accountId ?? null,
      date: input.date,
      type,
      symbol,
      new_symbol: newSymbol ?? null,
      ratio: ratio ?? null,
      cash_per_share_minor: cashPerShare === undefined ? null : toMinor(cashPerShare),
      cost_fraction: costFraction ?? null,
      quantity: quantity ?? null,
      note: input.note?.trim() ?? '',
    });
  }

  /** Stores a checked action as a new import of its own (undone as one). */
  add(turn: WriteTx, action: CheckedAction): Result<{ id: number; importId: number }> {
    return this.changes.make(
      turn,
      () => {
        if (this.actions.all().length >= MANUAL_ACTIONS_MAX) {
          return failure({ kind: 'conflict', param: 'type', detail: `The journal keeps at most ${MANUAL_ACTIONS_MAX.toLocaleString('en-US')} corporate actions entered by hand: delete some first.` });
        }
        const createdAt = nowIso(this.clock);
        const importId = this.imports.insert(turn, { broker: MANUAL_SOURCE, source: MANUAL_ACTION_SOURCE, filename: null, created_at: createdAt, rows: 1, imported: 1, duplicates: 0, report_json: '{}' });
        const id = this.actions.insert(turn, { ...action, import_id: importId, created_at: createdAt });
        this.recordImport(turn, importId, createdAt, action.account_id);
        return ok({ id, importId });
      },
    );
  }

  /** An action entered by hand, by id (404 otherwise). */
  lookup(id: number): Result<CorporateActionRow> {
    const row = this.actions.byId(id);
    return row === null ? failure({ kind: 'not-found', what: 'corporate action', id }) : ok(row);
  }

  /** Replaces an action entered by hand: its id and import stay. */
  replace(turn: WriteTx, id: number, action: CheckedAction): Result<{ id: number; importId: number }> {
    return this.changes.makeTo(
      turn,
      () => this.lookup(id),
      ({ import_id: importId, created_at: createdAt }) => {
        this.actions.replace(turn, { ...action, id, import_id: importId, created_at: createdAt });
        this.recordImport(turn, importId, createdAt, action.account_id);
        return { id, importId };
      },
    );
  }

  /** Deletes an action entered by hand; its import goes with it when it holds nothing else. */
  remove(turn: WriteTx, id: number): Result<{ id: number; importId: number; importRemoved: boolean }> {
    return this.changes.makeTo(
      turn,
      () => this.lookup(id),
      ({ import_id: importId }) => {
        this.actions.delete(turn, id);
        const importRemoved = this.actions.countOfImport(importId) === 0 && this.transactions.ofImport(importId).rows === 0;
        if (importRemoved) this.imports.delete(turn, importId);
        return { id, importId, importRemoved };
      },
    );
  }

  /** The import's stored report: one row, the action's account. */
  private recordImport(turn: WriteTx, importId: number, createdAt: string, accountId: string | null): void {
    const account = accountId === null ? null : this.accounts.byId(accountId);
    const record: ImportRecord = {
      id: importId,
      broker: MANUAL_SOURCE,
      source: MANUAL_ACTION_SOURCE,
      filename: null,
      createdAt,
      accounts: account === null ? [] : [{ id: account.id, name: account.name }],
      rows: 1,
      imported: 1,
      duplicates: 0,
      skipped: [],
      skippedCount: 0,
      skippedReasons: [],
      warnings: [],
      warningCount: 0,
      merged: [],
      mergedCount: 0,
      supersededManual: [],
      supersededManualCount: 0,
    };
    this.imports.finish(turn, { id: importId, imported: 1, duplicates: 0, report_json: JSON.stringify(record) });
  }

  /**
   * Every action the journal applies, newest effective date first, a page at a time: a file's SPLIT / SYMBOL_CHANGE
   * rows of shares and those entered by hand, each with what it did in the ledger (`outcomes`, by row id).
   */
  list(query: { page?: number; limit?: number }, accounts: readonly Account[], outcomes: ReadonlyMap<string, CorporateActionOutcome>): { actions: ListedAction[]; pagination: Pagination } {
    const names = new Map<string, string>(accounts.map((a) => [a.id, a.name]));
    const listed: ListedAction[] = [];
    for (const row of this.actions.all()) {
      const perAccount = accounts.filter((a) => row.account_id === null || a.id === row.account_id).map((a) => ({ accountId: a.id, outcome: outcomes.get(actionRowId(row.id, a.id)) ?? 'not_applied' }));
      listed.push({
        id: row.id,
        source: 'manual',
        importId: row.import_id,
        transactionId: null,
        accountId: row.account_id,
        accountName: row.account_id === null ? null : (names.get(row.account_id) ?? null),
        date: row.date,
        terms: termsOfRow(row),
        note: row.note,
        outcome: combined(perAccount.map((a) => a.outcome)),
        appliedTo: perAccount.filter((a) => a.outcome === 'applied').map((a) => a.accountId),
      });
    }
    const accountNames = new Map(accounts.map((a) => [a.id, a.name]));
    for (const stored of this.transactions.corporateActionRows()) {
      const tx = toTransaction(stored, accountNames);
      const terms = actionOf(tx);
      if (terms === null) continue;
      const outcome = outcomes.get(tx.id) ?? 'not_applied';
      listed.push({
        id: null,
        source: 'file',
        importId: tx.importId,
        transactionId: tx.id,
        accountId: tx.accountId,
        accountName: names.get(tx.accountId) ?? null,
        date: tx.tradeDay,
        terms,
        note: tx.description,
        outcome: CORPORATE_ACTION_OUTCOMES.includes(outcome) ? outcome : 'not_applied',
        appliedTo: outcome === 'applied' ? [tx.accountId] : [],
      });
    }
    // Newest first; on one day those entered by hand first (they apply first: order.ts), then by id.
    listed.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : Number(a.id === null) - Number(b.id === null) || (a.id ?? 0) - (b.id ?? 0) || (a.transactionId ?? '').localeCompare(b.transactionId ?? '')));
    const { offset, limit, pagination } = pageOf(query.page, query.limit, listed.length);
    return { actions: listed.slice(offset, offset + limit), pagination };
  }
}
