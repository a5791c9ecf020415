import type { Database } from 'better-sqlite3';
import type { Ledger } from '../../../src-shared/journal/index';
import { LiveLedger } from '../../../src-shared/journal/ledger';
import type { Transaction } from '../../../src-shared/journal/model';
import { firstWhere, type LedgerCheckpoints } from '../../../src-shared/journal/checkpoints';
import { AccountsRepository } from '../../db/accounts';
import { Generations } from '../../db/generations';
import { dataVersionReader } from '../../db/open';
import { toTransaction, TransactionsRepository, type LedgerRow } from '../../db/transactions';
import { CorporateActionsRepository } from '../../db/corporate-actions';
import { actionTransactions } from './corporate-actions';
import { drive, type Steps } from '../../../src-shared/journal/pieces';
import { earlier, LedgerExtensions, MAX_EXTENSIONS, type AddedRows, type JournalChange } from './ledger-extensions';

export type { AddedRows, ChangedRows, JournalChange } from './ledger-extensions';
import { extendSnapshot, interner, leanRows, patchSnapshot, readSnapshot, readSortKeys, type JournalSnapshot, type SortKeys } from './index-snapshot';

export type { AccountSummary, JournalSnapshot, SortKeys } from './index-snapshot';

/** The manual corporate actions' rows as the ledger walks them (any change: a build from the first row). */
function actionsKey(actions: ReadonlyMap<string, Transaction>): string {
  return JSON.stringify([...actions.values()]);
}

/**
 * Rows between two checkpoints of a ledger build (at least; each waits for the next day boundary): the book at a past
 * instant replays at most about this many (docs/journal.md §Checkpoints).
 */
export const CHECKPOINT_EVERY = 1_000;

/** Growth of the checkpoints' codec allowed beyond twice its size after a build from the first row (LiveLedger.resume packs again). */
const CODEC_SLACK_BYTES = 1 << 20;

/** The first index in [0, length) where `predicate` holds, for a predicate that is false then true. */
export const firstIndex = firstWhere;

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
  private readonly extensions = new LedgerExtensions();
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
    let extended = appended === null || appended.fromDay !== null ? null : extendSnapshot(this.transactions, this.accounts, appended.snapshot, appended.imports);
    if (appended !== null && extended === null) {
      const day = this.firstChangedDay(appended.imports, appended.fromDay);
      if (day !== null) extended = patchSnapshot(this.transactions, this.accounts, appended.snapshot, day);
    }
    if (extended !== null) {
      const actions = actionTransactions(this.corporateActions.all(), extended.accounts, this.reportingCurrency());
      this.cache = { snapshot: extended, ledger: null, groups: new Map(), sortKeys: null, actions: new Map(actions.map((tx) => [tx.id, tx])) };
      return this.cache;
    }
    const snapshot = readSnapshot(this.transactions, this.accounts);
    const actions = actionTransactions(this.corporateActions.all(), snapshot.accounts, this.reportingCurrency());
    this.cache = { snapshot, ledger: null, groups: new Map(), sortKeys: null, actions: new Map(actions.map((tx) => [tx.id, tx])) };
    return this.cache;
  }

  /** The first day these imports' rows and `fromDay` name (null: none). */
  private firstChangedDay(imports: readonly number[], fromDay: string | null): string | null {
    let day = fromDay;
    for (const importId of imports) day = earlier(day, this.transactions.firstDayOfImport(importId));
    return day;
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
        this.extensions.remember({ from: live.ledger, to: ledger, rows, fromDay: null });
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
    this.extensions.remember({ from: live.ledger, to: resumed.ledger, rows, fromDay: checkpoint.day });
    this.resumes.push({ position: checkpoint.position, rows: rows.length });
    if (this.resumes.length > MAX_EXTENSIONS) this.resumes.shift();
    return resumed.ledger;
  }

  /** The checkpoints of the open build's last ledger (kept when the book drops them from the ledger: book.ts). */
  liveCheckpoints(): LedgerCheckpoints | undefined {
    return this.live?.checkpoints;
  }

  /** The rows walked from ledger `from` to ledger `to` by extensions alone (LedgerExtensions.rowsSince). */
  rowsSince(from: Ledger, to: Ledger): Transaction[] | null {
    return this.extensions.rowsSince(from, to);
  }

  /** The first day whose rows may differ between ledger `from` and ledger `to` (LedgerExtensions.changeSince). */
  changeSince(from: Ledger, to: Ledger): { fromDay: string; rows: Transaction[] | null } | null {
    return this.extensions.changeSince(from, to);
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
    this.extensions.clear();
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
    return leanRows(this.load().snapshot, rows, keep, shareIds, rowids);
  }

  /** The sort columns by position (newest first), read on the first sorted or type-filtered list. */
  sortKeys(): SortKeys {
    const cache = this.load();
    cache.sortKeys ??= readSortKeys(this.transactions, cache.snapshot.ids.length);
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
