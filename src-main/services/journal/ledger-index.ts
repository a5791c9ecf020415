import type { Database } from 'better-sqlite3';
import type { Ledger } from '../../../src-shared/journal/index';
import { LiveLedger } from '../../../src-shared/journal/ledger';
import type { Account, Transaction } from '../../../src-shared/journal/model';
import { firstWhere, type LedgerCheckpoints } from '../../../src-shared/journal/checkpoints';
import { AccountsRepository } from '../../db/accounts';
import { Generations } from '../../db/generations';
import { dataVersionReader } from '../../db/open';
import { toTransaction, TransactionsRepository, type LedgerRow } from '../../db/transactions';
import { CorporateActionsRepository } from '../../db/corporate-actions';
import { actionTransactions } from './corporate-actions';
import { drive, type Steps } from '../../../src-shared/journal/pieces';

/** A write that only added rows: those of this import (a file's, or manual entries'). */
export interface AddedRows {
  importId: number;
}

/** A write that changed rows of `fromDay` or later only (an undo, a manual row edited or removed). */
export interface ChangedRows {
  fromDay: string;
}

/** What a write changed, when it can say (docs/journal.md §Staying current); a write that cannot says nothing. */
export type JournalChange = AddedRows | ChangedRows;

/** The earlier of two days (null: none). */
const earlier = (a: string | null, b: string | null): string | null => (a === null ? b : b === null || a <= b ? a : b);

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

/** Growth of the checkpoints' codec allowed beyond twice its size after a build from the first row (LiveLedger.resume packs again). */
const CODEC_SLACK_BYTES = 1 << 20;

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
  /**
   * The open build of the last ledger, the manual corporate actions it walked, the rows added since and the first day
   * other writes changed since (written), and what its checkpoints' codec held after the last build from the first row.
   */
  private live: { live: LiveLedger; ledger: Ledger; checkpoints: LedgerCheckpoints | undefined; actions: string; added: AddedRows[]; fromDay: string | null; codecBytes: number } | null = null;
  /**
   * The index before writes that said what they changed: these imports' rows, rows from `fromDay` on. The next one puts
   * the added rows in front (extendSnapshot) or reads again only the rows from the first changed day on (patchSnapshot).
   */
  private appended: { snapshot: JournalSnapshot; imports: number[]; fromDay: string | null } | null = null;
  /**
   * The last ledgers made from another without a build from the first row: walked on with `rows` (`fromDay` null), or
   * resumed at the checkpoint of `fromDay` with `rows`, every row from that day on (the trades follow: rowsSince, changeSince).
   */
  private readonly extensions: Array<{ from: Ledger; to: Ledger; rows: Transaction[]; fromDay: string | null }> = [];
  /** Rows between two checkpoints of the ledger and the trades (CHECKPOINT_EVERY; a test's small journals take fewer). */
  checkpointEvery = CHECKPOINT_EVERY;
  /** Ledgers resumed at a checkpoint, and the rows each walked again (a test's and the bench's counter). */
  readonly resumes: Array<{ position: number; rows: number }> = [];
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

  /** A published version answers from its caches alone: it reads no journal version and builds nothing (published). */
  private frozen = false;

  /**
   * This version as it stands, for the reads a build answers meanwhile (docs/journal.md §Reads during a build): a copy
   * that shares its caches and never reads the journal's version again; it holds no open build (what it builds, if a
   * read needs a cache it lacks, is its own).
   */
  published(): JournalIndex {
    const copy = Object.assign(Object.create(JournalIndex.prototype) as JournalIndex, this);
    copy.live = null;
    copy.appended = null;
    copy.frozen = true;
    return copy;
  }

  /** Whether another connection committed a change of the journal since this index last looked (nothing is dropped here). */
  changedElsewhere(): boolean {
    return this.readDataVersion() !== this.dataVersion && this.generations.journal() !== this.generation;
  }

  /**
   * After a write of ours (which raised the generation in its transaction): drop the caches, note the new value. A
   * write that only added rows says which (the rows of one import), one that changed rows of some days the first of
   * them (an undo, a manual row edited or removed), so that the next ledger walks on from the open build with rows
   * that all come after it, or resumes at the checkpoint before the first changed day (docs/journal.md §Staying
   * current); a write that says nothing (superseded manual openings, corporate actions, a new zone) leaves it to a
   * build from the first row.
   */
  written(change?: JournalChange): void {
    if (change === undefined) {
      this.live = null;
      this.appended = null;
    } else {
      const importId = 'importId' in change ? change.importId : null;
      const fromDay = 'fromDay' in change ? change.fromDay : null;
      if (this.live !== null) {
        if (importId !== null) this.live.added.push({ importId });
        this.live.fromDay = earlier(this.live.fromDay, fromDay);
      }
      if (this.appended !== null) {
        if (importId !== null) this.appended.imports.push(importId);
        this.appended.fromDay = earlier(this.appended.fromDay, fromDay);
      } else if (this.cache !== null) this.appended = { snapshot: this.cache.snapshot, imports: importId === null ? [] : [importId], fromDay };
    }
    this.cache = null;
    this.generation = this.generations.journal();
  }

  private load(): NonNullable<JournalIndex['cache']> {
    if (this.frozen && this.cache !== null) return this.cache;
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
    let extended = appended === null || appended.fromDay !== null ? null : this.extendSnapshot(appended.snapshot, appended.imports);
    if (appended !== null && extended === null) {
      const day = this.firstChangedDay(appended.imports, appended.fromDay);
      if (day !== null) extended = this.patchSnapshot(appended.snapshot, day);
    }
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

  /** The first day these imports' rows and `fromDay` name (null: none). */
  private firstChangedDay(imports: readonly number[], fromDay: string | null): string | null {
    let day = fromDay;
    for (const importId of imports) day = earlier(day, this.transactions.firstDayOfImport(importId));
    return day;
  }

  /**
   * The index after writes that changed rows of `day` and later only, reading only those rows: they come first in the
   * index (newest first), before the rows of the days before, which are `before`'s last ones. Null when the index's
   * order does not keep the days apart (trade dates written with other offsets) or the counts do not add up.
   */
  private patchSnapshot(before: JournalSnapshot, day: string): JournalSnapshot | null {
    let cut = 0;
    while (cut < before.days.length && (before.days[cut] ?? '') >= day) cut += 1;
    for (let i = cut; i < before.days.length; i += 1) if ((before.days[i] ?? '') >= day) return null;
    const rows = this.transactions.indexRowsFromDay(day);
    const { newest, count } = this.transactions.newestBeforeDay(day);
    const oldest = rows[rows.length - 1];
    if (count !== rows.length + before.ids.length - cut) return null;
    if (oldest !== undefined && newest !== null && !(oldest.trade_date > newest.trade_date || (oldest.trade_date === newest.trade_date && oldest.id > newest.id))) return null;
    const intern = interner();
    const snapshot: JournalSnapshot = { ids: [], days: [], underlyings: [], accountIds: [], accounts: [], demo: this.transactions.hasSource('demo') };
    for (const row of rows) {
      snapshot.ids.push(row.id);
      snapshot.days.push(intern(row.trade_day));
      snapshot.underlyings.push(intern(row.underlying));
      snapshot.accountIds.push(intern(row.account_id));
    }
    for (let i = cut; i < before.ids.length; i += 1) {
      snapshot.ids.push(before.ids[i] ?? '');
      snapshot.days.push(before.days[i] ?? '');
      snapshot.underlyings.push(before.underlyings[i] ?? '');
      snapshot.accountIds.push(before.accountIds[i] ?? '');
    }
    const held = new Map<string, Holding>();
    for (let i = 0; i < snapshot.ids.length; i += 1) countHolding(held, snapshot.accountIds[i] ?? '', snapshot.days[i] ?? '');
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
    return drive(this.ledgerSteps());
  }

  /** The ledger as `ledger` builds it, a piece at a time (pieces.ts: the worker answers reads between pieces). */
  *ledgerSteps(): Steps<Ledger> {
    const cache = this.load();
    if (!cache.ledger) cache.ledger = (yield* this.extended(cache)) ?? (yield* this.build(cache));
    return cache.ledger;
  }

  /**
   * The open build walked on with the rows added since, when every one is dated after its last day, else resumed at
   * the checkpoint before the first changed day; both need the manual corporate actions unchanged. Null otherwise, and
   * the caller builds from the first row.
   */
  private *extended(cache: NonNullable<JournalIndex['cache']>): Steps<Ledger | null> {
    const live = this.live;
    this.live = null;
    if (live === null || (live.added.length === 0 && live.fromDay === null) || live.actions !== actionsKey(cache.actions)) return null;
    if (live.fromDay === null) {
      const rowids: number[] = [];
      const rows: Transaction[] = [];
      for (const { importId } of live.added) for (const tx of this.lean(this.transactions.ledgerRowsOfImport(importId), () => true, true, rowids)) rows.push(tx);
      const ledger = live.live.extend(rows, rowids);
      if (ledger !== null) {
        this.live = { ...live, ledger, checkpoints: ledger.checkpoints, added: [] };
        this.remember({ from: live.ledger, to: ledger, rows, fromDay: null });
        return ledger;
      }
    }
    return yield* this.resumed(cache, live);
  }

  /**
   * The open build resumed at the latest checkpoint at or before the first day the writes since changed, with every
   * row from the checkpoint's day on read again (docs/journal.md §Staying current). Null when there is none (a write
   * on the first days, corporate actions), when the checkpoints' codec has grown past twice its size after the last build
   * from the first row (each resume packs its checkpoints again), or when the rows do not add up to the journal's.
   */
  private *resumed(cache: NonNullable<JournalIndex['cache']>, live: NonNullable<JournalIndex['live']>): Steps<Ledger | null> {
    const day = this.firstChangedDay(live.added.map((a) => a.importId), live.fromDay);
    // The checkpoints as published (the book drops them from the ledger it hands out when it builds its own: book.ts).
    const checkpoints = live.checkpoints;
    if (day === null || checkpoints === undefined || checkpoints.codec.bytes > 2 * live.codecBytes + CODEC_SLACK_BYTES) return null;
    const previous: Ledger = { ...live.ledger, checkpoints };
    const at = LiveLedger.resumePoint(previous, day);
    const checkpoint = checkpoints.checkpoints[at];
    if (checkpoint === undefined) return null;
    const rowids: number[] = [];
    const rows = this.lean(this.transactions.ledgerRowsFromDay(checkpoint.day), () => true, checkpoint.day, rowids);
    for (const tx of cache.actions.values()) {
      if (tx.tradeDay < checkpoint.day) continue;
      rows.push(tx);
      rowids.push(-1);
    }
    const resumed = yield* live.live.resumeSteps(previous, at, rows, rowids);
    if (resumed === null || resumed.ledger.transactionCount !== cache.snapshot.ids.length + cache.actions.size) return null;
    this.live = { ...live, live: resumed.live, ledger: resumed.ledger, checkpoints: resumed.ledger.checkpoints, added: [], fromDay: null };
    this.remember({ from: live.ledger, to: resumed.ledger, rows, fromDay: checkpoint.day });
    this.resumes.push({ position: checkpoint.position, rows: rows.length });
    if (this.resumes.length > MAX_EXTENSIONS) this.resumes.shift();
    return resumed.ledger;
  }

  /** The checkpoints of the open build's last ledger (kept when the book drops them from the ledger: book.ts). */
  liveCheckpoints(): LedgerCheckpoints | undefined {
    return this.live?.checkpoints;
  }

  private remember(step: JournalIndex['extensions'][number]): void {
    this.extensions.push(step);
    if (this.extensions.length > MAX_EXTENSIONS) this.extensions.shift();
  }

  /** The rows walked from ledger `from` to ledger `to` by extensions alone (null: a build from the first row or a resume came between). */
  rowsSince(from: Ledger, to: Ledger): Transaction[] | null {
    let at = this.extensions.findIndex((step) => step.from === from);
    if (at < 0) return null;
    const rows: Transaction[] = [];
    for (; at < this.extensions.length; at += 1) {
      const step = this.extensions[at];
      if (step === undefined || step.fromDay !== null) return null;
      for (const tx of step.rows) rows.push(tx);
      if (step.to === to) return rows;
    }
    return null;
  }

  /**
   * The first day whose rows may differ between ledger `from` and ledger `to` (made from it by extensions and resumes),
   * with every row from that day on when one resume alone made `to` (null: a build from the first row came between).
   */
  changeSince(from: Ledger, to: Ledger): { fromDay: string; rows: Transaction[] | null } | null {
    const first = this.extensions.findIndex((step) => step.from === from);
    const last = this.extensions.findIndex((step) => step.to === to);
    if (first < 0 || last < first) return null;
    const steps = this.extensions.slice(first, last + 1);
    const [only] = steps;
    if (steps.length === 1 && only !== undefined && only.fromDay !== null) return { fromDay: only.fromDay, rows: only.rows };
    let day: string | null = null;
    for (const step of steps) {
      day = earlier(day, step.fromDay);
      for (const tx of step.rows) day = earlier(day, tx.tradeDay);
    }
    return day === null ? null : { fromDay: day, rows: null };
  }

  /** The ledger from the first row, its build kept open (LiveLedger) for the rows added later. */
  private *build(cache: NonNullable<JournalIndex['cache']>): Steps<Ledger> {
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
    yield;
    const { live, ledger } = yield* LiveLedger.buildSteps(transactions, { reportingCurrency: this.reportingCurrency(), checkpointEvery: this.checkpointEvery }, rowids);
    this.live = { live, ledger, checkpoints: ledger.checkpoints, actions: actionsKey(cache.actions), added: [], fromDay: null, codecBytes: ledger.checkpoints?.codec.bytes ?? 0 };
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

  /** Every transaction of `day` and later, read again from the file (a walk resumed at a checkpoint of that day). */
  transactionsFromDay(day: string, rowids?: number[]): Transaction[] {
    const transactions = this.lean(this.transactions.ledgerRowsFromDay(day), () => true, day, rowids);
    for (const tx of this.load().actions.values()) {
      if (tx.tradeDay < day) continue;
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
  private lean(rows: Iterable<LedgerRow>, keep: (tx: Transaction) => boolean, shareIds: boolean | string = false, rowids?: number[]): Transaction[] {
    const intern = interner();
    const snapshot = this.load().snapshot;
    const accountNames = new Map(snapshot.accounts.map((a) => [a.id, a.name]));
    let sharedIds: Map<string, string> | null = null;
    if (shareIds === true) sharedIds = new Map(snapshot.ids.map((id) => [id, id]));
    else if (shareIds !== false) {
      // Rows of a day and later: the index's first ones (newest first), not the whole journal's.
      sharedIds = new Map();
      for (let i = 0; i < snapshot.ids.length && (snapshot.days[i] ?? '') >= shareIds; i += 1) sharedIds.set(snapshot.ids[i] ?? '', snapshot.ids[i] ?? '');
    }
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
