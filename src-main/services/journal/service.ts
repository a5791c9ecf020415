import type { Database } from 'better-sqlite3';
import { performance, yearSummary, type Ledger, type PerformanceResult, type YearResult } from '../../../src-shared/journal/index';
import type { AccountDividends } from '../../../src-shared/journal/ledger';
import { boundReport, readStoredReport, type NotesInput } from '../../../src-shared/journal/import-report';
import { nowDate, nowIso, type Clock } from '../../clock';
import { AccountsRepository } from '../../db/accounts';
import { Generations } from '../../db/generations';
import { ImportsRepository, type ImportListRow } from '../../db/imports';
import { DEFAULT_CACHE_KIB, IMPORT_CACHE_KIB, setCacheSize, shrinkMemory } from '../../db/open';
import { TransactionsRepository } from '../../db/transactions';
import { parseImport } from '../../importers/index';
import type { ParsedRow, ParseOptions } from '../../importers/types';
import type { Settings } from '../../settings';
import { dateOfQuery, makeDayOf, todayIn } from '../../../src-shared/zone';
import { JournalBook } from './book';
import { JournalMarks } from './marks';
import { JournalBookReads } from './positions';
import { ManualEntries } from './manual-entries';
import { ManualCorporateActions, type ListedAction } from './corporate-actions';
import { MAX_SUPERSEDED_LISTED } from './manual-duplicates';
import { expirationEntries, type BookedExpiration, type ExpirationItem } from './expirations';
import type { CheckedEntry } from './manual-entries';
import { JournalTrades } from './trades';
import { JournalManage } from './manage';
import { JournalRolls } from './rolls';
import { JournalIndex, type AccountSummary } from './ledger-index';
import { accountIdFor, importText, transactionIdAfter, transactionIdPrefix } from './ids';
import type { AccountId } from '../../../src-shared/ids';
import { transactionsPage } from './transactions';
import { failure, MAX_FILE_PROBLEMS, ok, problemsSummary, type Result } from '../result';
import { previewFormat, savedImporters, type FormatPreview } from './import-formats';
import { underlyingOfRoot } from '../../../src-shared/exposure/roots';
import { JournalReconciliation, underlyingOf, type ReconcileAnswer, type ReconcileRequest, type ReconciliationItem } from './reconciliation';
import { parseOccSymbol } from '../../../src-shared/journal/model';
import type { FileStatement } from '../../../src-shared/journal/statements';
import { boundReconciliation } from '../../../src-shared/journal/import-report';
import type { ImportFormatDraftT } from '../../../src-shared/api/schemas';
import { pageOf } from './values';
import { openedBeforeHistoryByImport, withOpenedBeforeHistory, type OpenedBeforeHistory } from './import-attention';
import type {
  BookRequest,
  CampaignsRequest,
  CampaignDetail,
  CampaignsResult,
  ImportRecord,
  ImportRequest,
  Pagination,
  ParsedImport,
  PerformanceRequest,
  PositionsResult,
  TransactionFilter,
  TransactionsPage,
  WithJournal,
} from './values';
import type { WriteTx } from '../../db/writes';

export type * from './values';

/** What the journal reads of the settings (the worker gets these with every call). */
export type JournalSettings = Pick<Settings, 'timeZone' | 'reportingCurrency' | 'rate' | 'markMaxAgeDays'>;

export { accountIdFor, importText, transactionIdFor } from './ids';

/**
 * The journal: imports (one SQLite transaction each: all rows or none), undo, and the reads. Reads come from the
 * in-memory index and ledger (journal-index.ts), rebuilt lazily after an import or an undo.
 */
/** A difference from the broker's figures as needsAttention lists it (kind `reconciliation`). */
function reconciliationAttention(item: ReconciliationItem, accountName: string): PositionsResult['needsAttention'][number] {
  const occ = item.row.symbol === null ? null : parseOccSymbol(item.row.symbol);
  return {
    kind: 'reconciliation',
    reason: 'differs-from-broker',
    accountId: item.accountId,
    accountName,
    currency: item.row.currency,
    symbol: item.row.symbol ?? '',
    underlying: underlyingOf(item.row.symbol),
    isOption: occ !== null,
    expiration: occ?.expiration ?? null,
    strike: occ?.strike ?? null,
    right: occ?.right ?? null,
    multiplier: occ === null ? 1 : 100,
    quantity: item.row.what === 'position' ? item.row.broker : 0,
    sideKnown: true,
    firstDate: null,
    firstTradeDate: null,
    closes: 0,
    spot: null,
    quoteTime: null,
    lastSnapshot: null,
    reconciliation: { importId: item.importId, ...item.row },
  };
}

export class JournalService {
  private readonly index: JournalIndex;
  private readonly transactionRows: TransactionsRepository;
  private readonly accountRows: AccountsRepository;
  private readonly importRows: ImportsRepository;
  private readonly generations: Generations;

  constructor(
    private readonly db: Database,
    private readonly settings: () => JournalSettings,
    private readonly clock: Clock,
  ) {
    this.index = new JournalIndex(db, () => this.settings().reportingCurrency);
    this.transactionRows = new TransactionsRepository(db);
    this.accountRows = new AccountsRepository(db);
    this.importRows = new ImportsRepository(db);
    this.generations = new Generations(db);
    this.book = new JournalBook(this.index, new JournalMarks(db, () => this.settings().rate), this.generations, () => this.settings());
    this.reads = new JournalBookReads(this.index, this.book, () => this.settings(), () => this.clock.nowMs());
    this.manual = new ManualEntries(db, () => this.settings(), clock, (added) => this.index.written(added));
    this.corporateActions = new ManualCorporateActions(db, clock, () => this.index.written());
    this.trades = new JournalTrades(db, this.index, this.book, () => this.settings(), () => this.clock.nowMs());
    this.reconciliation = new JournalReconciliation(db, this.index, this.book, () => this.settings().timeZone);
    this.manage = new JournalManage(this.index, this.book, this.trades, () => this.settings(), () => this.clock.nowMs());
    this.rolls = new JournalRolls(this.trades, this.book.marks, () => this.settings(), () => this.clock.nowMs());
  }

  /** The broker's figures against the journal's (reconciliation.ts). */
  readonly reconciliation: JournalReconciliation;

  private readonly book: JournalBook;
  private readonly reads: JournalBookReads;
  readonly manual: ManualEntries;
  /** Corporate actions entered by hand, and the list of all (corporate-actions.ts). */
  readonly corporateActions: ManualCorporateActions;
  /** Trades, their stats and the notes on trades and campaigns (trades.ts). */
  readonly trades: JournalTrades;
  /** The management rules' list of what to manage (manage.ts). */
  readonly manage: JournalManage;
  /** The roll assistant (rolls.ts). */
  readonly rolls: JournalRolls;

  invalidate(): void {
    this.index.invalidate();
  }

  /** Builds the caches now (start-up, after the demo load) so the first request is fast. */
  warm(): void {
    this.index.ledger();
    this.index.grouped('underlying');
    this.index.grouped('accountId');
  }

  /** The accounts, with the dividends no campaign held the shares for (campaigns.ts `dividendCampaign`), from the ledger now. */
  accounts(): { accounts: AccountSummary[]; demo: boolean; accountDividends: AccountDividends[] } {
    const { accounts, demo } = this.index.snapshot();
    const accountDividends = accounts.length === 0 ? [] : this.book.ledgerAt(this.clock.nowMs()).ledger.accountDividends;
    return { accounts, demo, accountDividends };
  }

  /** Parses and stores a file in the caller's transaction (tests, benches; the server and the CLI parse before their turn). */
  importFile(turn: WriteTx, request: ImportRequest): Result<ImportRecord> {
    const parsed = this.parse(request);
    return parsed.ok ? ok(this.storeParsed(turn, parsed.value)) : parsed;
  }

  /** Parses a broker file; a file with any error is refused whole. */
  parse(request: ImportRequest): Result<ParsedImport> {
    const parsed = parseImport(importText(request.text), request.broker ?? 'auto', this.parseOptions(request.accountName), savedImporters(this.db));
    if (!parsed.ok) {
      return failure({ kind: 'file-refused', unsupported: parsed.code === 'UNSUPPORTED_FORMAT', detail: parsed.detail, problems: parsed.errors });
    }
    const result = parsed.result;
    if (result.errors.length > 0) {
      return failure({
        kind: 'file-refused',
        unsupported: false,
        detail: `The ${result.broker} file has ${problemsSummary(result.errors, result.errorCount)}; nothing was imported.`,
        problems: result.errors.slice(0, MAX_FILE_PROBLEMS),
      });
    }
    return ok({ result, filename: request.filename ?? null });
  }

  /** The Import page's mapping step: the file's columns and, with a format, what it would import (stores nothing). */
  previewFormat(request: { text: string; format?: ImportFormatDraftT; accountName?: string }): Result<FormatPreview> {
    return previewFormat(request.text, request.format, savedImporters(this.db), this.parseOptions(request.accountName));
  }

  /** What a parse of a file takes: the clock's now (the importers' `asOf`) and the account name for files without one. */
  private parseOptions(accountName: string | undefined): ParseOptions {
    return { asOf: nowDate(this.clock), ...(accountName === undefined ? {} : { accountName }) };
  }

  /** Stores a parsed file as one import (one transaction: all rows or none). */
  storeParsed(turn: WriteTx, { result, filename }: ParsedImport): ImportRecord {
    const notes: NotesInput = {
      skipped: result.skipped.map((s) => ({ line: s.line, reason: s.message })),
      skippedCount: result.skippedCount,
      skippedReasons: result.skippedReasons,
      warnings: result.warnings,
      warningCount: result.warningCount,
      merged: result.merged,
      mergedCount: result.mergedCount,
    };
    return this.store(turn, result.broker, result.source, result.transactions, result.rows, notes, filename, result.statements);
  }

  /** Stores parsed rows as one import, all or nothing, in the caller's transaction. Also used by the demo loader. */
  store(
    turn: WriteTx,
    broker: string,
    source: string,
    rows: readonly ParsedRow[],
    rowCount: number,
    notes: NotesInput,
    filename: string | null,
    statements: readonly FileStatement[] = [],
  ): ImportRecord {
    const dayOf = makeDayOf(this.settings().timeZone);
    const createdAt = nowIso(this.clock);
    // The balance assertions that hold before this import: one it breaks is flagged with it (docs/journal.md §Reconciliation).
    const holdingBefore = this.reconciliation.holdingNow();
    // A big import keeps its pages in a larger cache until the commit, then gives the memory back.
    setCacheSize(this.db, IMPORT_CACHE_KIB);
    // Rows added and nothing else changed (no manual opening superseded): the ledger may walk on with them (ledger-index.ts).
    let onlyAdded = false;
    const insertAll = this.db.transaction((): ImportRecord => {
      const importId = this.importRows.insert(turn, { broker, source, filename, created_at: createdAt, rows: rowCount, imported: 0, duplicates: 0, report_json: '{}' });
      const accounts = new Map<string, string>();
      const accountIds = new Map<string, string>();
      const inserter = this.transactionRows.inserter(turn, { importId, source });
      // The account of the row before, kept while rows stay in it (most files are one account, or runs of one).
      let lastSource: string | null = null;
      let lastName: string | null = null;
      let accountId = '';
      let idPrefix = '';
      for (const { transaction: tx } of rows) {
        if (tx.source !== lastSource || tx.accountName !== lastName) {
          lastSource = tx.source;
          lastName = tx.accountName;
          const accountKey = `${tx.source}\u0000${tx.accountName}`;
          const known = accountIds.get(accountKey);
          if (known === undefined) {
            accountId = accountIdFor(tx.source, tx.accountName);
            accountIds.set(accountKey, accountId);
            this.accountRows.insert(turn, { id: accountId, name: tx.accountName, source: tx.source });
            accounts.set(accountId, tx.accountName);
          } else {
            accountId = known;
          }
          idPrefix = transactionIdPrefix(tx.source, tx.accountName);
        }
        inserter.addWith(tx, transactionIdAfter(idPrefix, tx.brokerRowId), importId, accountId, dayOf(tx.tradeDate));
      }
      const imported = inserter.finish();
      // Manual openings these rows make duplicates are retired (manual-duplicates.ts); their imports recounted.
      const superseded = imported > 0 ? this.manual.duplicates.supersede(turn, importId, [...accounts].map(([id, name]) => ({ id, name }))) : [];
      if (superseded.length > 0) this.manual.recountImports(turn, superseded.map((row) => row.importId));
      // Counts and the first lines of each reason, at most 64 KB; a file imported before keeps counts alone.
      const record: ImportRecord = boundReport(
        {
          id: importId,
          broker,
          source,
          filename,
          createdAt,
          accounts: [...accounts].map(([id, name]) => ({ id, name })),
          rows: rowCount,
          imported,
          duplicates: rows.length - imported,
          supersededManual: superseded.slice(0, MAX_SUPERSEDED_LISTED),
          supersededManualCount: superseded.length,
        },
        notes,
        imported > 0 || rows.length === 0,
      );
      this.importRows.finish(turn, { id: importId, imported, duplicates: rows.length - imported, report_json: JSON.stringify(record) });
      this.generations.bumpJournal(turn);
      onlyAdded = superseded.length === 0;
      return record;
    });
    let record: ImportRecord;
    try {
      // A savepoint in the caller's transaction: rolled back whole if a row fails, whatever the caller does next.
      record = insertAll();
    } finally {
      setCacheSize(this.db, DEFAULT_CACHE_KIB);
      shrinkMemory(this.db);
    }
    this.index.written(onlyAdded ? { importId: record.id } : undefined);
    return this.reconcileImport(turn, record, source, rows, statements, holdingBefore);
  }

  /**
   * After the insert, in the same turn: the file's own figures against the journal's, kept with the import and added
   * to its report (docs/journal.md §Reconciliation). A failure here never fails the import: it is said in a warning.
   */
  private reconcileImport(turn: WriteTx, record: ImportRecord, source: string, rows: readonly ParsedRow[], statements: readonly FileStatement[], holdingBefore: ReadonlySet<number>): ImportRecord {
    if (statements.length === 0 && holdingBefore.size === 0) return record;
    let checked;
    try {
      const fileRows = rows.map((row) => row.transaction);
      checked = this.db.transaction(() => this.reconciliation.checkImport(turn, record.id, source, record.accounts, fileRows, statements, holdingBefore))();
    } catch (error) {
      const message = `the file's own figures could not be checked against the journal: ${error instanceof Error ? error.message : String(error)}`;
      const warned = { ...record, warnings: [...record.warnings, { line: null, message }], warningCount: record.warningCount + 1 };
      this.importRows.finish(turn, { id: record.id, imported: record.imported, duplicates: record.duplicates, report_json: JSON.stringify(warned) });
      return warned;
    }
    if (checked === null) return record;
    const reconciled: ImportRecord = { ...record, status: checked.status, acknowledgedAt: null, ...boundReconciliation(checked.rows) };
    this.importRows.finish(turn, { id: record.id, imported: record.imported, duplicates: record.duplicates, report_json: JSON.stringify(reconciled) });
    return reconciled;
  }

  /** The import history, newest first, a page at a time (each report at most 64 KB). */
  listImports(query: { page?: number; limit?: number } = {}): { imports: ImportRecord[]; pagination: Pagination } {
    const { limit, offset, pagination } = pageOf(query.page, query.limit, this.importRows.count());
    const imports = this.importRows.page(limit, offset).map((row) => this.recordOf(row));
    const found = this.openedBeforeHistory(imports.map((record) => record.id));
    return { imports: imports.map((record) => withOpenedBeforeHistory(record, found.get(record.id))), pagination };
  }

  /** One import's record and report as the history lists it (GET /imports/{id}: what a script reads after POST /imports). */
  importById(id: number): Result<ImportRecord> {
    const row = this.importRows.byId(id);
    if (row === null) return failure({ kind: 'not-found', what: 'import', id });
    const record = this.recordOf(row);
    return ok(withOpenedBeforeHistory(record, this.openedBeforeHistory([id]).get(id)));
  }

  /** The report this service wrote (store) with the row's own counts, and its reconciliation as the journal stands now (checked again whenever it changes). */
  private recordOf(row: ImportListRow): ImportRecord {
    return this.withReconciliation({ ...readStoredReport(row.report_json), id: row.id, imported: row.imported, duplicates: row.duplicates });
  }

  /**
   * The closes without an opening that these imports' rows are, in the Positions page's words (import-attention.ts):
   * the import report's warnings, read from the ledger as it stands now.
   */
  openedBeforeHistory(importIds: readonly number[]): Map<number, OpenedBeforeHistory> {
    if (importIds.length === 0) return new Map();
    const names = new Map<string, string>(this.index.snapshot().accounts.map((a) => [a.id, a.name]));
    return openedBeforeHistoryByImport(this.index.ledger(), importIds, (ids) => this.index.ledgerTransactions(ids), (id) => names.get(id) ?? id);
  }

  /** An import's record with its reconciliation now (ready, with none, when its file stated nothing). */
  private withReconciliation(record: ImportRecord): ImportRecord {
    const current = this.reconciliation.ofImport(record.id);
    if (current === null) return { ...record, status: 'ready', acknowledgedAt: null, ...boundReconciliation([]) };
    return { ...record, status: current.status, acknowledgedAt: current.acknowledgedAt, ...boundReconciliation(current.rows) };
  }

  /** Marks an import's differences from its broker's figures as seen (POST /imports/{id}/acknowledge). */
  acknowledgeImport(turn: WriteTx, id: number): Result<{ id: number; acknowledgedAt: string | null; status: 'ready' | 'differs' | 'acknowledged' }> {
    if (!this.importRows.exists(id)) return failure({ kind: 'not-found', what: 'import', id });
    return ok(this.reconciliation.acknowledge(turn, id, nowIso(this.clock)));
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
    this.index.written();
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
    if (result.ok) this.index.written(fromDay === null ? undefined : { fromDay });
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
