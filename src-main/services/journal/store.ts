/**
 * The journal's imports (service.ts delegates here): a broker file parsed and stored as one import, all rows or none,
 * its rows checked against the file's own figures in the same turn; and the import history with each report as it
 * reads now.
 */
import type { Database } from 'better-sqlite3';
import { boundReconciliation, boundReport, readStoredReport, type NotesInput } from '../../../src-shared/journal/import-report';
import type { FileStatement } from '../../../src-shared/journal/statements';
import { makeDayOf } from '../../../src-shared/zone';
import type { ImportFormatDraftT } from '../../../src-shared/api/schemas';
import { nowDate, nowIso, type Clock } from '../../clock';
import { AccountsRepository } from '../../db/accounts';
import { Generations } from '../../db/generations';
import { ImportsRepository, type ImportListRow } from '../../db/imports';
import { DEFAULT_CACHE_KIB, IMPORT_CACHE_KIB, setCacheSize, shrinkMemory } from '../../db/open';
import { TransactionsRepository } from '../../db/transactions';
import type { WriteTx } from '../../db/writes';
import { parseImport } from '../../importers/index';
import type { ParsedRow, ParseOptions } from '../../importers/types';
import { failure, MAX_FILE_PROBLEMS, ok, problemsSummary, type Result } from '../result';
import { accountIdFor, importText, transactionIdAfter, transactionIdPrefix } from './ids';
import { previewFormat, savedImporters, type FormatPreview } from './import-formats';
import { openedBeforeHistoryByImport, withOpenedBeforeHistory, type OpenedBeforeHistory } from './import-attention';
import type { JournalIndex, JournalChange } from './ledger-index';
import { MAX_SUPERSEDED_LISTED } from './manual-duplicates';
import type { ManualEntries } from './manual-entries';
import type { JournalReconciliation } from './reconciliation';
import type { Settings } from '../../settings';
import { pageOf, type ImportRecord, type ImportRequest, type Pagination, type ParsedImport } from './values';

/** What JournalImports.store takes after its turn. */
export type StoreArgs = [broker: string, source: string, rows: readonly ParsedRow[], rowCount: number, notes: NotesInput, filename: string | null, statements?: readonly FileStatement[]];

export class JournalImports {
  private readonly transactionRows: TransactionsRepository;
  private readonly accountRows: AccountsRepository;
  private readonly importRows: ImportsRepository;
  private readonly generations: Generations;

  constructor(
    private readonly db: Database,
    private readonly settings: () => Pick<Settings, 'timeZone'>,
    private readonly clock: Clock,
    private readonly manual: ManualEntries,
    /** The version reads answer from (service.ts): the index and the reconciliation. */
    private readonly view: () => { index: JournalIndex; reconciliation: JournalReconciliation },
    /** After a write: what it changed (JournalIndex.written, through the service's versions). */
    private readonly written: (change?: JournalChange) => void,
  ) {
    this.transactionRows = new TransactionsRepository(db);
    this.accountRows = new AccountsRepository(db);
    this.importRows = new ImportsRepository(db);
    this.generations = new Generations(db);
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
    const holdingBefore = this.view().reconciliation.holdingNow();
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
    this.written(onlyAdded ? { importId: record.id } : undefined);
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
      checked = this.db.transaction(() => this.view().reconciliation.checkImport(turn, record.id, source, record.accounts, fileRows, statements, holdingBefore))();
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
  list(query: { page?: number; limit?: number } = {}): { imports: ImportRecord[]; pagination: Pagination } {
    const { limit, offset, pagination } = pageOf(query.page, query.limit, this.importRows.count());
    const imports = this.importRows.page(limit, offset).map((row) => this.recordOf(row));
    const found = this.openedBeforeHistory(imports.map((record) => record.id));
    return { imports: imports.map((record) => withOpenedBeforeHistory(record, found.get(record.id))), pagination };
  }

  /** One import's record and report as the history lists it (GET /imports/{id}: what a script reads after POST /imports). */
  byId(id: number): Result<ImportRecord> {
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
    const names = new Map<string, string>(this.view().index.snapshot().accounts.map((a) => [a.id, a.name]));
    return openedBeforeHistoryByImport(this.view().index.ledger(), importIds, (ids) => this.view().index.ledgerTransactions(ids), (id) => names.get(id) ?? id);
  }

  /** An import's record with its reconciliation now (ready, with none, when its file stated nothing). */
  private withReconciliation(record: ImportRecord): ImportRecord {
    const current = this.view().reconciliation.ofImport(record.id);
    if (current === null) return { ...record, status: 'ready', acknowledgedAt: null, ...boundReconciliation([]) };
    return { ...record, status: current.status, acknowledgedAt: current.acknowledgedAt, ...boundReconciliation(current.rows) };
  }

  /** Marks an import's differences from its broker's figures as seen (POST /imports/{id}/acknowledge). */
  acknowledge(turn: WriteTx, id: number): Result<{ id: number; acknowledgedAt: string | null; status: 'ready' | 'differs' | 'acknowledged' }> {
    if (!this.importRows.exists(id)) return failure({ kind: 'not-found', what: 'import', id });
    return ok(this.view().reconciliation.acknowledge(turn, id, nowIso(this.clock)));
  }
}
