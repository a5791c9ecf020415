import type { Database } from 'better-sqlite3';
import { performance, yearSummary, type Ledger, type PerformanceResult, type YearResult } from '../../../src-shared/journal/index';
import type { AccountDividends } from '../../../src-shared/journal/ledger';
import { nowDate, nowIso, type Clock } from '../../clock';
import { AccountsRepository } from '../../db/accounts';
import { Generations } from '../../db/generations';
import { ImportsRepository } from '../../db/imports';
import { TransactionsRepository } from '../../db/transactions';
import type { Settings } from '../../settings';
import { dateOfQuery, makeDayOf, todayIn } from '../../../src-shared/zone';
import { JournalBook } from './book';
import { JournalMarks } from './marks';
import { JournalBookReads } from './positions';
import { ManualEntries } from './manual-entries';
import { ManualCorporateActions, type ListedAction } from './corporate-actions';
import { expirationEntries, type BookedExpiration, type ExpirationItem } from './expirations';
import type { CheckedEntry } from './manual-entries';
import { JournalTrades } from './trades';
import { JournalManage } from './manage';
import { JournalRolls } from './rolls';
import { JournalIndex, type AccountSummary, type JournalChange } from './ledger-index';
import type { Steps } from '../../../src-shared/journal/pieces';
import type { AccountId } from '../../../src-shared/ids';
import { transactionsPage } from './transactions';
import { failure, ok, type Result } from '../result';
import { type FormatPreview } from './import-formats';
import { underlyingOfRoot } from '../../../src-shared/exposure/roots';
import { JournalReconciliation, underlyingOf, type ReconcileAnswer, type ReconcileRequest } from './reconciliation';
import type { ImportFormatDraftT } from '../../../src-shared/api/schemas';
import { type OpenedBeforeHistory } from './import-attention';
import type { BookRequest, CampaignsRequest, CampaignDetail, CampaignsResult, ImportRecord, ImportRequest, Pagination, ParsedImport, PerformanceRequest, PositionsResult, TransactionFilter, TransactionsPage, WithJournal } from './values';
import type { WriteTx } from '../../db/writes';


import { JournalImports, type StoreArgs } from './store';
import { reconciliationAttention } from './import-attention';
export type * from './values';

/** What the journal reads of the settings (the worker gets these with every call). */
export type JournalSettings = Pick<Settings, 'timeZone' | 'reportingCurrency' | 'rate' | 'markMaxAgeDays'>;

export { accountIdFor, importText, transactionIdFor } from './ids';

/**
 * The journal: imports (one SQLite transaction each: all rows or none), undo, and the reads. Reads come from the
 * in-memory index and ledger (journal-index.ts), rebuilt lazily after an import or an undo.
 */
/** The parts of one version of the journal's reads: the index and ledger, the book, the trades and what reads them. */
interface JournalParts {
  index: JournalIndex;
  book: JournalBook;
  reads: JournalBookReads;
  trades: JournalTrades;
  reconciliation: JournalReconciliation;
  manage: JournalManage;
  rolls: JournalRolls;
}

export class JournalService {
  private readonly transactionRows: TransactionsRepository;
  private readonly accountRows: AccountsRepository;
  private readonly importRows: ImportsRepository;
  private readonly generations: Generations;
  /** The version writes change and builds build. */
  private readonly parts: JournalParts;
  /**
   * The last version built whole (prepare), kept from the first write after it while the next is built a piece at a
   * time (startBuild, step): reads answer from it meanwhile, saying `building` (docs/journal.md §Reads during a build).
   */
  private previous: JournalParts | null = null;
  /** Whether `parts` is built whole (prepare ran since the last change). */
  private prepared = false;
  /** The build under way, stepped by the worker (null: none). */
  private steps: Steps<void> | null = null;

  constructor(
    private readonly db: Database,
    private readonly settings: () => JournalSettings,
    private readonly clock: Clock,
  ) {
    const index = new JournalIndex(db, () => this.settings().reportingCurrency);
    this.transactionRows = new TransactionsRepository(db);
    this.accountRows = new AccountsRepository(db);
    this.importRows = new ImportsRepository(db);
    this.generations = new Generations(db);
    const book = new JournalBook(index, new JournalMarks(db, () => this.settings().rate), this.generations, () => this.settings());
    this.manual = new ManualEntries(db, () => this.settings(), clock, (added) => this.written(added));
    this.corporateActions = new ManualCorporateActions(db, clock, () => this.written());
    const trades = new JournalTrades(db, index, book, () => this.settings(), () => this.clock.nowMs());
    this.parts = this.around(index, book, trades, new JournalReconciliation(db, index, book, () => this.settings().timeZone));
    this.imports = new JournalImports(db, settings, clock, this.manual, () => this.v, (change) => this.written(change));
  }

  /** A version's parts around its index, book, trades and reconciliation. */
  private around(index: JournalIndex, book: JournalBook, trades: JournalTrades, reconciliation: JournalReconciliation): JournalParts {
    const reads = new JournalBookReads(index, book, () => this.settings(), () => this.clock.nowMs());
    const manage = new JournalManage(index, book, trades, () => this.settings(), () => this.clock.nowMs());
    const rolls = new JournalRolls(trades, book.marks, () => this.settings(), () => this.clock.nowMs());
    return { index, book, reads, trades, reconciliation, manage, rolls };
  }

  /** The version reads answer from: the previous one while a build is under way, else the current one. */
  private get v(): JournalParts {
    return this.steps !== null && this.previous !== null ? this.previous : this.parts;
  }

  private get index(): JournalIndex {
    return this.v.index;
  }

  private get book(): JournalBook {
    return this.v.book;
  }

  private get reads(): JournalBookReads {
    return this.v.reads;
  }

  /** The broker's figures against the journal's (reconciliation.ts). */
  get reconciliation(): JournalReconciliation {
    return this.v.reconciliation;
  }

  /** Trades, their stats and the notes on trades and campaigns (trades.ts). */
  get trades(): JournalTrades {
    return this.v.trades;
  }

  /** The management rules' list of what to manage (manage.ts). */
  get manage(): JournalManage {
    return this.v.manage;
  }

  /** The roll assistant (rolls.ts). */
  get rolls(): JournalRolls {
    return this.v.rolls;
  }

  readonly manual: ManualEntries;
  /** Imports: parsed, stored, listed (store.ts). */
  private readonly imports: JournalImports;
  /** Corporate actions entered by hand, and the list of all (corporate-actions.ts). */
  readonly corporateActions: ManualCorporateActions;

  /** Drops every version and any build under way (a setting the ledger depends on changed). */
  invalidate(): void {
    this.steps?.return();
    this.steps = null;
    this.previous = null;
    this.prepared = false;
    this.parts.index.invalidate();
  }

  /** After a write of ours: the version built whole is kept for the reads of the build to come (JournalIndex.written). */
  private written(change?: JournalChange): void {
    this.keepPrevious();
    this.parts.index.written(change);
  }

  private keepPrevious(): void {
    if (!this.prepared) return;
    const { index, book, trades, reconciliation } = this.parts;
    const publishedIndex = index.published();
    const publishedBook = book.published(publishedIndex);
    this.previous = this.around(publishedIndex, publishedBook, trades.published(publishedIndex, publishedBook), reconciliation.published(publishedIndex, publishedBook));
    this.prepared = false;
  }

  /** Everything the reads need, built a piece at a time (pieces.ts): the ledger, the complete book, the trades, the index's columns. */
  private *prepare(): Steps<void> {
    const { index, trades } = this.parts;
    yield* index.ledgerSteps();
    yield* trades.tradeBookSteps();
    index.grouped('underlying');
    index.grouped('accountId');
    // Read from the file in the index's order: a published version must not read them again over newer rows.
    index.sortKeys();
    index.otherCash('');
    this.prepared = true;
    this.previous = null;
  }

  /**
   * Starts a build when the journal changed since the last one (ours, or another connection's); true while one is under
   * way. The worker steps it (step) between the messages it answers.
   */
  startBuild(): boolean {
    if (this.steps === null) {
      if (this.prepared && this.parts.index.changedElsewhere()) this.keepPrevious();
      if (!this.prepared) this.steps = this.prepare();
    }
    return this.steps !== null;
  }

  /** Walks the build under way one piece further; false once it is done (or none was under way). */
  step(): boolean {
    if (this.steps === null) return false;
    if (this.steps.next().done === true) this.steps = null;
    return this.steps !== null;
  }

  /** The build under way run to its end now (a read with no previous version waits for it, as a write does). */
  finishBuild(): void {
    while (this.step());
  }

  /** Whether reads answer from the previous version while a build is under way (their `building`). */
  get building(): boolean {
    return this.steps !== null && this.previous !== null;
  }

  /** Builds the caches now (start-up, after the demo load) so the first request is fast. */
  warm(): void {
    this.startBuild();
    this.finishBuild();
  }

  /** The accounts, with the dividends no campaign held the shares for (campaigns.ts `dividendCampaign`), from the ledger now. */
  accounts(): { accounts: AccountSummary[]; demo: boolean; accountDividends: AccountDividends[] } {
    const { accounts, demo } = this.index.snapshot();
    const accountDividends = accounts.length === 0 ? [] : this.book.ledgerAt(this.clock.nowMs()).ledger.accountDividends;
    return { accounts, demo, accountDividends };
  }

  /** Parses and stores a file in the caller's transaction (tests, benches; the server and the CLI parse before their turn). */
  importFile(turn: WriteTx, request: ImportRequest): Result<ImportRecord> {
    return this.imports.importFile(turn, request);
  }

  /** Parses a broker file; a file with any error is refused whole (store.ts). */
  parse(request: ImportRequest): Result<ParsedImport> {
    return this.imports.parse(request);
  }

  /** The Import page's mapping step: the file's columns and, with a format, what it would import (stores nothing). */
  previewFormat(request: { text: string; format?: ImportFormatDraftT; accountName?: string }): Result<FormatPreview> {
    return this.imports.previewFormat(request);
  }

  /** Stores a parsed file as one import (one transaction: all rows or none). */
  storeParsed(turn: WriteTx, parsed: ParsedImport): ImportRecord {
    return this.imports.storeParsed(turn, parsed);
  }

  /** Stores parsed rows as one import, all or nothing, in the caller's transaction (store.ts). Also used by the demo loader. */
  store(turn: WriteTx, ...args: StoreArgs): ImportRecord {
    return this.imports.store(turn, ...args);
  }

  /** The import history, newest first, a page at a time (each report at most 64 KB). */
  listImports(query: { page?: number; limit?: number } = {}): { imports: ImportRecord[]; pagination: Pagination } {
    return this.imports.list(query);
  }

  /** One import's record and report as the history lists it (GET /imports/{id}). */
  importById(id: number): Result<ImportRecord> {
    return this.imports.byId(id);
  }

  /** The closes without an opening that these imports' rows are (import-attention.ts), from the ledger as it stands now. */
  openedBeforeHistory(importIds: readonly number[]): Map<number, OpenedBeforeHistory> {
    return this.imports.openedBeforeHistory(importIds);
  }

  /** Marks an import's differences from its broker's figures as seen (POST /imports/{id}/acknowledge). */
  acknowledgeImport(turn: WriteTx, id: number): Result<{ id: number; acknowledgedAt: string | null; status: 'ready' | 'differs' | 'acknowledged' }> {
    return this.imports.acknowledge(turn, id);
  }

  /** A broker's positions file against the book (POST /journal/reconcile); stored as a balance assertion with `turn`. */
  reconcilePositions(request: ReconcileRequest, turn: WriteTx | null): Result<ReconcileAnswer> {
    const file = this.reconciliation.read(request);
    if (!file.ok) return file;
    return this.reconciliation.reconcile(file.value, request, this.clock.nowMs(), turn === null ? null : { turn, createdAt: nowIso(this.clock) });
  }

  /** Re-dates every transaction in a new journal time zone (the trade day is stored with each row). */
  redate(turn: WriteTx, timeZone: string): number {
    const dayOf = makeDayOf(timeZone);
    const rows = this.transactionRows.tradeDates();
    const changed = this.db
      .transaction(() => {
        let count = 0;
        for (const row of rows) count += this.transactionRows.setTradeDay(turn, row.id, dayOf(row.trade_date));
        this.generations.bumpJournal(turn);
        return count;
      })
      .immediate();
    this.written();
    return changed;
  }

  /**
   * Removes the transactions this import inserted (rows it found as duplicates stay with their first import); the manual
   * rows it superseded come back, dated in the journal zone of now.
   */
  undoImport(turn: WriteTx, id: number): Result<{ id: number; removed: number }> {
    // The first day the undo changes (rows of later days only: the ledger resumes before it); none when manual rows come back.
    let fromDay: string | null = null;
    const result = this.db
      .transaction((): Result<{ id: number; removed: number }> => {
        // Decided before anything is written: a refusal commits an empty transaction.
        if (!this.importRows.exists(id)) return failure({ kind: 'not-found', what: 'import', id });
        const restored = this.manual.duplicates.restore(turn, id);
        if (restored.length > 0) {
          const dayOf = makeDayOf(this.settings().timeZone);
          for (const row of restored) this.transactionRows.setTradeDay(turn, row.id, dayOf(row.trade_date));
          this.manual.recountImports(turn, restored.map((row) => row.import_id));
        } else fromDay = this.transactionRows.firstDayOfImport(id);
        const removed = this.transactionRows.deleteByImport(turn, id);
        this.importRows.delete(turn, id);
        this.accountRows.deleteUnused(turn);
        this.generations.bumpJournal(turn);
        return ok({ id, removed });
      })
      .immediate();
    if (result.ok) this.written(fromDay === null ? undefined : { fromDay });
    return result;
  }

  /** Every corporate action the journal applies (files' and entered by hand), with what each did, a page at a time. */
  listCorporateActions(query: { page?: number; limit?: number }): { actions: ListedAction[]; pagination: Pagination } {
    return this.corporateActions.list(query, this.index.snapshot().accounts, this.index.ledger().actionOutcomes);
  }

  /** A page of transactions (transactions.ts). */
  transactions(query: TransactionFilter): TransactionsPage {
    return transactionsPage(this.index, query);
  }

  performance(query: PerformanceRequest): Result<WithJournal<PerformanceResult>> {
    const { accounts, demo } = this.index.snapshot();
    const ledger = this.ledgerNow(query.accountId);
    if (!ledger.ok) return ledger;
    const result = performance(ledger.value, {
      period: query.period ?? 'monthly',
      date: this.centerDate(query.date),
      ...(query.from !== undefined && query.to !== undefined ? { from: query.from, to: query.to } : {}),
    });
    return ok({ ...result, accounts, demo });
  }

  /** A year's statistics; default the current year in the journal zone. */
  summary(year: number | undefined, accountId?: AccountId): Result<WithJournal<YearResult>> {
    const { accounts, demo } = this.index.snapshot();
    const ledger = this.ledgerNow(accountId);
    if (!ledger.ok) return ledger;
    const result = yearSummary(ledger.value, year ?? Number(this.today().slice(0, 4)));
    return ok({ ...result, accounts, demo });
  }

  /** The ledger now, of one account or all (options past expiry settled as docs/journal.md §Positions says). */
  private ledgerNow(accountId: AccountId | undefined): Result<Ledger> {
    const known = this.reads.knownAccount(accountId);
    if (!known.ok) return known;
    return ok(this.book.ledgerAt(this.clock.nowMs(), accountId).ledger);
  }

  /**
   * Open positions at `asOf`, marked from the newest snapshot of each underlying at or before it (journal-positions.ts),
   * with the imports that differ from their broker's figures under needsAttention (kind `reconciliation`).
   */
  positions(query: BookRequest): Result<WithJournal<PositionsResult>> {
    const result = this.reads.positions(query);
    if (!result.ok) return result;
    const symbol = query.symbol === undefined ? undefined : underlyingOfRoot(query.symbol);
    const names = new Map<string, string>(result.value.accounts.map((a) => [a.id, a.name]));
    const items = this.reconciliation
      .attention()
      .filter((item) => (query.accountId === undefined || item.accountId === query.accountId) && (symbol === undefined || underlyingOf(item.row.symbol) === symbol))
      .map((item) => reconciliationAttention(item, names.get(item.accountId) ?? item.row.accountName ?? ''));
    return items.length === 0 ? result : ok({ ...result.value, needsAttention: [...result.value.needsAttention, ...items] });
  }

  /** The manual EXPIRATION rows of POST /journal/expirations, for options the book now lists as needing attention (expirations.ts). */
  expirationEntries(items: readonly ExpirationItem[]): Result<{ entries: CheckedEntry[]; booked: BookedExpiration[] }> {
    return expirationEntries(items, this.book.bookAt(this.clock.nowMs()).needsAttention, this.accountRows);
  }

  /** The campaigns at `asOf`, newest first, with their returns. */
  campaigns(query: CampaignsRequest): Result<WithJournal<CampaignsResult>> {
    return this.reads.campaigns(query);
  }

  /** One campaign with its timeline and open positions. */
  campaign(id: string, asOf: string | undefined): Result<CampaignDetail> {
    return this.reads.campaign(id, asOf);
  }

  private today(): string {
    return todayIn(this.settings().timeZone, nowDate(this.clock));
  }

  /** `date` (validated by the route) may be a date or an instant; an instant is read in the journal time zone. */
  private centerDate(date: string | undefined): string {
    if (date === undefined) return this.today();
    return dateOfQuery(date, this.settings().timeZone);
  }
}
