import type { Database } from 'better-sqlite3';
import type { Ledger } from '../../../src-shared/journal/index';
import { LiveLedger } from '../../../src-shared/journal/ledger';
import type { Account, Transaction } from '../../../src-shared/journal/model';
import { firstWhere } from '../../../src-shared/journal/checkpoints';
import { AccountsRepository } from '../../db/accounts';
import { Generations } from '../../db/generations';
import { dataVersionReader } from '../../db/open';
import { toTransaction, TransactionsRepository, type LedgerRow } from '../../db/transactions';
import { CorporateActionsRepository } from '../../db/corporate-actions';
import { actionTransactions } from './corporate-actions';

/** A write that only added rows: those of this import (a file's, or manual entries'). */
export interface AddedRows {
  importId: number;
}

/** The manual corporate actions' rows as the ledger walks them (any change: a build from the first row). */
function actionsKey(actions: ReadonlyMap<string, Transaction>): string {
  return JSON.stringify([...actions.values()]);
}

/** One shared copy per distinct string (currencies, symbols, account ids repeat on every row). */
function interner(): (text: string) => string {
  const seen = new Map<string, string>();
  return (text) => {
    const known = seen.get(text);
    if (known !== undefined) return known;
    seen.set(text, text);
    return text;
  };
}

/**
 * Rows between two checkpoints of a ledger build (at least; each waits for the next day boundary): the book at a past
 * instant replays at most about this many (docs/journal.md §Checkpoints).
 */
export const CHECKPOINT_EVERY = 1_000;

/** Extensions remembered for the trades (a trades read comes after a few imports at most; older ones build again). */
const MAX_EXTENSIONS = 16;

/**
 * The ledger with the stored row of each checkpointed position (`rowids` by input index): the book replays a stretch
 * by rowid ranges (journal-book.ts); the input order is dropped.
 */
export function withRowids(ledger: Ledger, rowidsByInput: readonly number[]): Ledger {
  const checkpoints = ledger.checkpoints;
  if (checkpoints?.order !== undefined) {
    const order = checkpoints.order;
    // A rowid past 32 bits (never, for rows SQLite numbered itself) is read by id instead.
    checkpoints.rowids = Int32Array.from(order, (input) => {
      const rowid = rowidsByInput[input] ?? -1;
      return rowid <= 0x7fffffff ? rowid : -1;
    });
    delete checkpoints.order;
  }
  return ledger;
}

/** The first index in [0, length) where `predicate` holds, for a predicate that is false then true. */
export const firstIndex = firstWhere;

/** The columns a transactions list sorts or filters by, per position of the newest-first index. */
export interface SortKeys {
  types: string[];
  symbols: string[];
  quantity: Float64Array;
  price: Float64Array;
  amount: Float64Array;
}

/**
 * What reads need, kept compact: for 100k transactions a few MB instead of 100k full objects. Positions are
 * indexes into the newest-first order; a page's rows are read from SQLite by id.
 */
/** An account of the journal and what it holds (GET /journal/accounts). */
export interface AccountSummary extends Account {
  transactions: number;
  firstTradeDay: string;
  lastTradeDay: string;
}

export interface JournalSnapshot {
  ids: string[];
  days: string[];
  underlyings: string[];
  accountIds: string[];
  /** The accounts holding transactions, by name, with their count and first and last trade days. */
  accounts: AccountSummary[];
  /** Whether the journal holds the demo's transactions. */
  demo: boolean;
}

type Holding = { transactions: number; firstTradeDay: string; lastTradeDay: string };

/** One more row of an account in the index: its count and the days of its first and last rows. */
function countHolding(held: Map<string, Holding>, accountId: string, tradeDay: string): void {
  const account = held.get(accountId);
  if (account === undefined) held.set(accountId, { transactions: 1, firstTradeDay: tradeDay, lastTradeDay: tradeDay });
  else {
    account.transactions += 1;
    if (tradeDay < account.firstTradeDay) account.firstTradeDay = tradeDay;
    if (tradeDay > account.lastTradeDay) account.lastTradeDay = tradeDay;
  }
}

/**
 * The journal in memory: the newest-first index and the ledger of src-shared/journal, built lazily and dropped
 * when the journal changes (a write of ours, or one of another connection: data_version says that something was
 * committed, the journal's generation whether it was the journal).
 */
export class JournalIndex {
  private readonly transactions: TransactionsRepository;
  private readonly accounts: AccountsRepository;
  private readonly corporateActions: CorporateActionsRepository;
  private readonly generations: Generations;
  private readonly readDataVersion: () => number;
  private dataVersion = -1;
  private generation = -1;
  /** The open build of the last ledger, the manual corporate actions it walked, and the rows added since (written). */
  private live: { live: LiveLedger; ledger: Ledger; actions: string; added: AddedRows[] } | null = null;
  /** The index before writes that only added rows (these imports'): the next one puts their rows in front (extendSnapshot). */
  private appended: { snapshot: JournalSnapshot; imports: number[] } | null = null;
  /** The last ledgers walked on from another, with the rows each walked (the trades walk on with them: rowsSince). */
  private readonly extensions: Array<{ from: Ledger; to: Ledger; rows: Transaction[] }> = [];
  private cache: {
    snapshot: JournalSnapshot;
    ledger: Ledger | null;
    groups: Map<'underlying' | 'accountId', Map<string, number[]>>;
    sortKeys: SortKeys | null;
    /** The rows the ledger reads for the corporate actions entered by hand (corporate-actions.ts), by id. */
    actions: Map<string, Transaction>;
    otherCash?: ReturnType<TransactionsRepository['otherCashRows']>;
  } | null = null;

  constructor(
    db: Database,
    private readonly reportingCurrency: () => string,
  ) {
    this.transactions = new TransactionsRepository(db);
    this.accounts = new AccountsRepository(db);
    this.corporateActions = new CorporateActionsRepository(db);
    this.generations = new Generations(db);
    this.readDataVersion = dataVersionReader(db);
  }

  invalidate(): void {
    this.cache = null;
    this.live = null;
  }

  /**
   * After a write of ours (which raised the generation in its transaction): drop the caches, note the new value. A
   * write that only added rows says which (`added`: the rows of one import), so that the next
   * ledger walks on from the open build with them when they all come after it (docs/journal.md §Staying current);
   * any other write (an undo, an edit, a delete, superseded manual openings) leaves it to a build from the first row.
   */
  written(added?: AddedRows): void {
    if (added === undefined) {
      this.live = null;
      this.appended = null;
    } else {
      this.live?.added.push(added);
      if (this.appended !== null) this.appended.imports.push(added.importId);
      else if (this.cache !== null) this.appended = { snapshot: this.cache.snapshot, imports: [added.importId] };
    }
    this.cache = null;
    this.generation = this.generations.journal();
  }

  private load(): NonNullable<JournalIndex['cache']> {
    const version = this.readDataVersion();
    if (version !== this.dataVersion) {
      this.dataVersion = version;
      const generation = this.generations.journal();
      if (generation !== this.generation) {
        // Another connection wrote: what it changed is unknown.
        this.generation = generation;
        this.cache = null;
        this.live = null;
        this.appended = null;
      }
    }
    if (this.cache) return this.cache;
    const appended = this.appended;
    this.appended = null;
    const extended = appended === null ? null : this.extendSnapshot(appended.snapshot, appended.imports);
    if (extended !== null) {
      const actions = actionTransactions(this.corporateActions.all(), extended.accounts, this.reportingCurrency());
      this.cache = { snapshot: extended, ledger: null, groups: new Map(), sortKeys: null, actions: new Map(actions.map((tx) => [tx.id, tx])) };
      return this.cache;
    }
    const intern = interner();
    const snapshot: JournalSnapshot = { ids: [], days: [], underlyings: [], accountIds: [], accounts: [], demo: this.transactions.hasSource('demo') };
    const held = new Map<string, Holding>();
    for (const row of this.transactions.indexNewestFirst()) {
      snapshot.ids.push(row.id);
      snapshot.days.push(intern(row.trade_day));
      snapshot.underlyings.push(intern(row.underlying));
      snapshot.accountIds.push(intern(row.account_id));
      countHolding(held, row.account_id, row.trade_day);
    }
    for (const account of this.accounts.inUse()) {
      const holding = held.get(account.id);
      if (holding !== undefined) snapshot.accounts.push({ ...account, ...holding });
    }
    const actions = actionTransactions(this.corporateActions.all(), snapshot.accounts, this.reportingCurrency());
    this.cache = { snapshot, ledger: null, groups: new Map(), sortKeys: null, actions: new Map(actions.map((tx) => [tx.id, tx])) };
    return this.cache;
  }

  /**
   * The index after writes that only added rows, without reading the journal again: when every added row comes before
   * every other in the index's order (newest first), they are put in front of the index before them; null otherwise.
   */
  private extendSnapshot(before: JournalSnapshot, imports: readonly number[]): JournalSnapshot | null {
    const rows = this.transactions.indexRowsOfImports(imports);
    const { newest, count } = this.transactions.newestOutside(imports);
    const oldest = rows[rows.length - 1];
    if (count !== before.ids.length + rows.length) return null;
    if (oldest !== undefined && newest !== null && !(oldest.trade_date > newest.trade_date || (oldest.trade_date === newest.trade_date && oldest.id > newest.id))) return null;
    const held = new Map<string, Holding>(before.accounts.map((a) => [a.id, { transactions: a.transactions, firstTradeDay: a.firstTradeDay, lastTradeDay: a.lastTradeDay }]));
    const snapshot: JournalSnapshot = { ids: [], days: [], underlyings: [], accountIds: [], accounts: [], demo: before.demo || this.transactions.hasSource('demo') };
    for (const row of rows) {
      snapshot.ids.push(row.id);
      snapshot.days.push(row.trade_day);
      snapshot.underlyings.push(row.underlying);
      snapshot.accountIds.push(row.account_id);
      countHolding(held, row.account_id, row.trade_day);
    }
    for (const [key, list] of [['ids', before.ids], ['days', before.days], ['underlyings', before.underlyings], ['accountIds', before.accountIds]] as const) {
      for (const value of list) snapshot[key].push(value);
    }
    for (const account of this.accounts.inUse()) {
      const holding = held.get(account.id);
      if (holding !== undefined) snapshot.accounts.push({ ...account, ...holding });
    }
    return snapshot;
  }

  snapshot(): JournalSnapshot {
    return this.load().snapshot;
  }

  /**
   * Rows kept as OTHER that move cash, per account and currency, up to an instant (needsAttention `other_rows`): what
   * TransactionsRepository.otherCash answers, from the rows read once per version of the journal (every positions
   * read asks; the query reads the whole table: 60 ms on 100k rows).
   */
  otherCash(untilIso: string): ReturnType<TransactionsRepository['otherCash']> {
    const cache = this.load();
    cache.otherCash ??= this.transactions.otherCashRows();
    const sums: ReturnType<TransactionsRepository['otherCash']> = [];
    let last: (typeof sums)[number] | undefined;
    for (const row of cache.otherCash) {
      if (row.trade_date > untilIso) continue;
      if (last === undefined || last.account_id !== row.account_id || last.currency !== row.currency) {
        // Oldest first within an account and currency: the first row met is the earliest.
        last = { account_id: row.account_id, currency: row.currency, rows: 0, cash_minor: 0, first_trade_date: row.trade_date };
        sums.push(last);
      }
      last.rows += 1;
      last.cash_minor += row.amount_minor;
    }
    return sums;
  }

  ledger(): Ledger {
    const cache = this.load();
    if (!cache.ledger) cache.ledger = this.extended(cache) ?? this.build(cache);
    return cache.ledger;
  }

  /**
   * The open build walked on with the rows added since, when every one is dated after its last day and the manual
   * corporate actions are the same (one entered for every account makes rows for a new account: dated before); null
   * otherwise, and the caller builds from the first row.
   */
  private extended(cache: NonNullable<JournalIndex['cache']>): Ledger | null {
    const live = this.live;
    this.live = null;
    if (live === null || live.added.length === 0 || live.actions !== actionsKey(cache.actions)) return null;
    const rowids: number[] = [];
    const rows: Transaction[] = [];
    for (const { importId } of live.added) for (const tx of this.lean(this.transactions.ledgerRowsOfImport(importId), () => true, true, rowids)) rows.push(tx);
    const ledger = live.live.extend(rows, rowids);
    if (ledger === null) return null;
    this.live = { live: live.live, ledger, actions: live.actions, added: [] };
    this.extensions.push({ from: live.ledger, to: ledger, rows });
    if (this.extensions.length > MAX_EXTENSIONS) this.extensions.shift();
    return ledger;
  }

  /** The rows walked from ledger `from` to ledger `to` by extensions alone (null: a build from the first row came between). */
  rowsSince(from: Ledger, to: Ledger): Transaction[] | null {
    let at = this.extensions.findIndex((step) => step.from === from);
    if (at < 0) return null;
    const rows: Transaction[] = [];
    for (; at < this.extensions.length; at += 1) {
      const step = this.extensions[at];
      if (step === undefined) return null;
      for (const tx of step.rows) rows.push(tx);
      if (step.to === to) return rows;
    }
    return null;
  }

  /** The ledger from the first row, its build kept open (LiveLedger) for the rows added later. */
  private build(cache: NonNullable<JournalIndex['cache']>): Ledger {
    // Lean objects exist only while the ledger is built: rows of the columns the analytics read (no descriptions),
    // with the strings repeated on every row shared; row by row, so that each row dies young.
    const intern = interner();
    const accountNames = new Map(cache.snapshot.accounts.map((a) => [a.id, a.name]));
    // The ledger keeps ids (campaign legs, realized P&L per row): the index's own copies, not a second 100k strings.
    const sharedIds = new Map(cache.snapshot.ids.map((id) => [id, id]));
    const transactions: Transaction[] = [];
    const rowids: number[] = [];
    for (const row of this.transactions.ledgerRows()) {
      const tx = toTransaction(row, accountNames, intern);
      tx.id = sharedIds.get(tx.id) ?? tx.id;
      transactions.push(tx);
      rowids.push(row.row_id ?? -1);
    }
    sharedIds.clear();
    for (const tx of cache.actions.values()) {
      transactions.push(tx);
      rowids.push(-1);
    }
    // With checkpoints: the book at a past instant replays a few thousand rows from the nearest (journal-book.ts).
    const { live, ledger } = LiveLedger.build(transactions, { reportingCurrency: this.reportingCurrency(), checkpointEvery: CHECKPOINT_EVERY }, rowids);
    this.live = { live, ledger, actions: actionsKey(cache.actions), added: [] };
    this.extensions.length = 0;
    return ledger;
  }

  /** The transactions that pass `keep`, read again from the file (whole ledgers of an account, of a past instant, with inferred expirations). */
  readTransactions(keep: (tx: Transaction) => boolean, rowids?: number[]): Transaction[] {
    const transactions = this.lean(this.transactions.ledgerRows(), keep, true, rowids);
    for (const tx of this.load().actions.values()) {
      if (!keep(tx)) continue;
      transactions.push(tx);
      rowids?.push(-1);
    }
    return transactions;
  }

  /** The row the ledger reads for a corporate action entered by hand, by its id (a checkpoint's replay). */
  actionRow(id: string): Transaction | undefined {
    return this.load().actions.get(id);
  }

  /**
   * The transactions of these rowids, each checked against the id expected at its place (null when one is not: the
   * file was rewritten under the index, and the caller reads by id instead).
   */
  ledgerTransactionsAt(rowids: readonly number[], ids: readonly string[]): Transaction[] | null {
    if (rowids.length === 0) return [];
    const transactions = this.lean(this.transactions.ledgerRowsByRowids(rowids), () => true);
    if (transactions.length !== ids.length) return null;
    const wanted = new Set(ids);
    return transactions.every((tx) => wanted.has(tx.id)) ? transactions : null;
  }

  /** The transactions of these ids (the rows a checkpoint's replay needs), in no particular order. */
  ledgerTransactions(ids: readonly string[]): Transaction[] {
    return ids.length === 0 ? [] : this.lean(this.transactions.ledgerRowsByIds(ids), () => true);
  }

  /** Rows as lean transactions: shared strings, and the index's own copy of each id (ledgers keep ids). */
  private lean(rows: Iterable<LedgerRow>, keep: (tx: Transaction) => boolean, shareIds = false, rowids?: number[]): Transaction[] {
    const intern = interner();
    const snapshot = this.load().snapshot;
    const accountNames = new Map(snapshot.accounts.map((a) => [a.id, a.name]));
    const sharedIds = shareIds ? new Map(snapshot.ids.map((id) => [id, id])) : null;
    const transactions: Transaction[] = [];
    for (const row of rows) {
      const tx = toTransaction(row, accountNames, intern);
      if (sharedIds !== null) tx.id = sharedIds.get(tx.id) ?? tx.id;
      if (!keep(tx)) continue;
      transactions.push(tx);
      rowids?.push(row.row_id ?? -1);
    }
    return transactions;
  }

  /** The sort columns by position (newest first), read on the first sorted or type-filtered list. */
  sortKeys(): SortKeys {
    const cache = this.load();
    if (!cache.sortKeys) {
      const intern = interner();
      const count = cache.snapshot.ids.length;
      const keys: SortKeys = { types: [], symbols: [], quantity: new Float64Array(count), price: new Float64Array(count), amount: new Float64Array(count) };
      let position = 0;
      for (const row of this.transactions.sortRowsNewestFirst()) {
        if (position >= count) break;
        keys.types.push(intern(row.type));
        keys.symbols.push(intern(row.symbol));
        keys.quantity[position] = row.quantity;
        keys.price[position] = row.price_minor;
        keys.amount[position] = row.amount_minor;
        position += 1;
      }
      cache.sortKeys = keys;
    }
    return cache.sortKeys;
  }

  /** Positions (newest first) grouped by a key, built on first use. */
  grouped(key: 'underlying' | 'accountId'): Map<string, number[]> {
    const cache = this.load();
    let groups = cache.groups.get(key);
    if (!groups) {
      const built = new Map<string, number[]>();
      const values = key === 'underlying' ? cache.snapshot.underlyings : cache.snapshot.accountIds;
      values.forEach((value, position) => {
        const group = built.get(value);
        if (group) group.push(position);
        else built.set(value, [position]);
      });
      cache.groups.set(key, built);
      groups = built;
    }
    return groups;
  }

  /** Full rows for the given ids, in that order. */
  byIds(ids: readonly string[]): Transaction[] {
    const accountNames = new Map(this.snapshot().accounts.map((a) => [a.id, a.name]));
    const byId = new Map(this.transactions.byIds(ids).map((row) => [row.id, toTransaction(row, accountNames)]));
    return ids.map((id) => byId.get(id)).filter((tx): tx is Transaction => tx !== undefined);
  }
}
