import type { Database, Statement } from 'better-sqlite3';
import { hash } from 'node:crypto';
import { DateTime } from 'luxon';
import type {
  AccountJson,
  BrokerId,
  ImportReport,
  ImportsResponseT,
  PerformanceQueryT,
  PerformanceResponseT,
  SummaryResponseT,
  TransactionJson,
  TransactionsQueryT,
  TransactionsResponseT,
} from '../../src-shared/api/schemas';
import type { ImportedTransaction, Transaction, TransactionType } from '../../src-shared/journal/model';
import { buildLedger, performance, yearSummary, type Ledger } from '../../src-shared/journal/index';
import { minorToCents, minorToUnits } from '../../src-shared/money';
import { parseImport } from '../importers/index';
import type { ParsedRow, ParseResult } from '../importers/types';
import { ApiError } from '../server/problems';
import { dataVersionReader, DEFAULT_CACHE_KIB, IMPORT_CACHE_KIB } from '../db/open';
import type { Settings } from '../settings';
import { isValidDate, makeDayOf, todayIn } from '../time';

export const TRANSACTIONS_LIMIT_CAP = 100;
const DEFAULT_LIMIT = 25;

/** What the journal reads of the settings (the worker gets these with every call). */
export type JournalSettings = Pick<Settings, 'timeZone' | 'reportingCurrency'>;
/** Rows per INSERT statement (25 columns each: well under SQLite's 32,766 bound parameters). */
const INSERT_BATCH = 200;

function shortHash(...parts: string[]): string {
  return hash('sha256', parts.join('\u0000'), 'hex').slice(0, 32);
}

export function accountIdFor(source: string, accountName: string): string {
  return `acc_${shortHash(source.replace(/-.*$/, ''), accountName).slice(0, 16)}`;
}

export function transactionIdFor(tx: Pick<ImportedTransaction, 'source' | 'accountName' | 'brokerRowId'>): string {
  return `tx_${shortHash(tx.source, tx.accountName, tx.brokerRowId)}`;
}

/** The columns a Transaction is read from; the ledger leaves out the last two (it never reads them). */
const LEDGER_COLUMNS = `id, import_id, account_id, type, symbol, underlying, is_option, expiration, strike, right, quantity,
  price_minor, multiplier, amount_minor, commission_minor, fees_minor, currency, trade_date, trade_day, order_id, source,
  inferred, previous_symbol`;
const ALL_COLUMNS = `${LEDGER_COLUMNS}, description, broker_row_id`;

type TransactionRow = [
  string, number, string, string, string, string, number, string | null, number | null, string | null, number, number,
  number, number, number, number, string, string, string, string | null, string, number, string | null,
  (string | undefined)?, (string | undefined)?,
];

/** A raw row (LEDGER_COLUMNS or ALL_COLUMNS) as a Transaction; repeated strings shared through `intern`. */
function toTransaction(row: TransactionRow, accountNames: ReadonlyMap<string, string>, intern: (text: string) => string = (text) => text): Transaction {
  const [id, importId, accountId, type, symbol, underlying, isOption, expiration, strike, right, quantity, priceMinor, multiplier,
    amountMinor, commissionMinor, feesMinor, currency, tradeDate, tradeDay, orderId, source, inferred, previousSymbol, description, brokerRowId] = row;
  const tx: Transaction = {
    id,
    importId,
    accountId: intern(accountId),
    accountName: accountNames.get(accountId) ?? '',
    brokerRowId: brokerRowId ?? '',
    type: intern(type) as TransactionType,
    symbol: intern(symbol),
    underlying: intern(underlying),
    isOption: isOption === 1,
    expiration: expiration === null ? null : intern(expiration),
    strike,
    right: right === 'C' || right === 'P' ? right : null,
    quantity,
    priceMinor,
    multiplier,
    amountMinor,
    commissionMinor,
    feesMinor,
    currency: intern(currency),
    tradeDate,
    tradeDay: intern(tradeDay),
    orderId,
    description: description ?? '',
    source: intern(source),
    inferred: inferred === 1,
  };
  if (previousSymbol !== null) tx.previousSymbol = previousSymbol;
  return tx;
}

export function transactionToJson(tx: Transaction): TransactionJson {
  return {
    id: tx.id,
    accountId: tx.accountId,
    accountName: tx.accountName,
    type: tx.type,
    symbol: tx.symbol,
    underlying: tx.underlying,
    isOption: tx.isOption,
    expiration: tx.expiration,
    strike: tx.strike,
    right: tx.right,
    quantity: tx.quantity,
    price: minorToUnits(tx.priceMinor),
    multiplier: tx.multiplier,
    amount: minorToCents(tx.amountMinor),
    commission: minorToCents(tx.commissionMinor),
    fees: minorToCents(tx.feesMinor),
    currency: tx.currency,
    tradeDate: tx.tradeDate,
    tradeDay: tx.tradeDay,
    orderId: tx.orderId,
    description: tx.description,
    source: tx.source,
    importId: tx.importId,
    inferred: tx.inferred === true,
  };
}

/** The first index in [0, length) where `predicate` holds, for a predicate that is false then true. */
function firstIndex(length: number, predicate: (index: number) => boolean): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (predicate(mid)) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** One shared copy per distinct string (types, currencies, account names repeat on every row). */
function interner(): (text: string) => string {
  const seen = new Map<string, string>();
  return (text) => {
    const known = seen.get(text);
    if (known !== undefined) return known;
    seen.set(text, text);
    return text;
  };
}

export interface ImportRequest {
  /** The file: its text, or its UTF-8 bytes (the server hands the upload over undecoded; see importText). */
  text: string | Uint8Array;
  broker?: BrokerId | 'auto';
  accountName?: string;
  filename?: string | null;
}

/** The text of an uploaded file; bytes are decoded as UTF-8 (invalid sequences become U+FFFD, a BOM stays for the importers). */
export function importText(file: string | Uint8Array): string {
  return typeof file === 'string' ? file : Buffer.from(file.buffer, file.byteOffset, file.byteLength).toString('utf8');
}

/** A file parsed without errors, ready to store (parsing needs no write lock, storing does). */
export interface ParsedImport {
  result: ParseResult;
  filename: string | null;
}

/** `page`/`limit` of a list: page from 1, limit clamped to the cap (like /journal/transactions). */
export function pageOf(page: number | undefined, limit: number | undefined, total: number): { page: number; limit: number; offset: number; pagination: { page: number; limit: number; total: number; pages: number } } {
  const p = page ?? 1;
  const l = Math.min(limit ?? DEFAULT_LIMIT, TRANSACTIONS_LIMIT_CAP);
  return { page: p, limit: l, offset: (p - 1) * l, pagination: { page: p, limit: l, total, pages: Math.ceil(total / l) } };
}

/**
 * The journal: imports (one SQLite transaction each: all rows or none), undo, and the read endpoints.
 * Reads come from an in-memory copy of the transactions, newest first, and the ledger built from it;
 * both are rebuilt lazily after an import or an undo, so requests never rescan SQLite.
 */
export class JournalService {
  /**
   * What reads need, kept compact: for 100k transactions a few MB instead of 100k full objects. Positions
   * are indexes into the newest-first order; a page's rows are read from SQLite by id.
   */
  private cache: {
    ids: string[];
    days: string[];
    underlyings: string[];
    accountIds: string[];
    ledger: Ledger | null;
    accounts: AccountJson[];
    demo: boolean;
    groups: Map<'underlying' | 'accountId', Map<string, number[]>>;
  } | null = null;

  constructor(
    private readonly db: Database,
    private readonly settings: () => JournalSettings,
  ) {
    this.readDataVersion = dataVersionReader(db);
    this.readGeneration = db.prepare<[], number>('SELECT value FROM journal_generation WHERE id = 1').pluck();
    this.bumpGeneration = db.prepare('UPDATE journal_generation SET value = value + 1 WHERE id = 1');
  }

  invalidate(): void {
    this.cache = null;
  }

  private dataVersion = -1;
  private generation = -1;
  private readonly readDataVersion: () => number;
  private readonly readGeneration: Statement<[], number>;
  private readonly bumpGeneration: Statement;

  /** After a write of ours (which raised the generation in its transaction): drop the caches, note the new value. */
  private written(): void {
    this.cache = null;
    this.generation = this.readGeneration.get() ?? -1;
  }

  private load(): NonNullable<JournalService['cache']> {
    // Another connection committed (the CLI importing while the app runs, but also the server's key-usage flush):
    // reload only if the journal's generation moved.
    const version = this.readDataVersion();
    if (version !== this.dataVersion) {
      this.dataVersion = version;
      const generation = this.readGeneration.get() ?? -1;
      if (generation !== this.generation) {
        this.generation = generation;
        this.cache = null;
      }
    }
    if (this.cache) return this.cache;
    const intern = interner();
    const ids: string[] = [];
    const days: string[] = [];
    const underlyings: string[] = [];
    const accountIds: string[] = [];
    const rows = this.db.prepare('SELECT id, trade_day, underlying, account_id FROM transactions ORDER BY trade_date DESC, id DESC').raw().iterate() as IterableIterator<[string, string, string, string]>;
    for (const [id, day, underlying, accountId] of rows) {
      ids.push(id);
      days.push(intern(day));
      underlyings.push(intern(underlying));
      accountIds.push(intern(accountId));
    }
    const accounts = this.db.prepare('SELECT id, name FROM accounts WHERE id IN (SELECT DISTINCT account_id FROM transactions) ORDER BY name, id').all() as AccountJson[];
    const demo = this.db.prepare("SELECT EXISTS (SELECT 1 FROM transactions WHERE source = 'demo') AS demo").get() as { demo: number };
    this.cache = { ids, days, underlyings, accountIds, ledger: null, accounts, demo: demo.demo === 1, groups: new Map() };
    return this.cache;
  }

  private ledger(): Ledger {
    const cache = this.load();
    if (!cache.ledger) {
      // Lean objects exist only while the ledger is built: raw rows of the columns the analytics read (no
      // descriptions), with the strings repeated on every row shared. buildLedger orders them itself.
      const intern = interner();
      const accountNames = new Map(cache.accounts.map((a) => [a.id, a.name]));
      const rows = this.db.prepare(`SELECT ${LEDGER_COLUMNS} FROM transactions`).raw().iterate() as IterableIterator<TransactionRow>;
      // Row by row: the raw arrays die young instead of all 100k living next to the objects made from them.
      const transactions: Transaction[] = [];
      for (const row of rows) transactions.push(toTransaction(row, accountNames, intern));
      cache.ledger = buildLedger(transactions, { reportingCurrency: this.settings().reportingCurrency });
    }
    return cache.ledger;
  }

  /** Positions (newest first) grouped by a key, built on first use. */
  private grouped(key: 'underlying' | 'accountId'): Map<string, number[]> {
    const cache = this.load();
    let groups = cache.groups.get(key);
    if (!groups) {
      groups = new Map();
      const values = key === 'underlying' ? cache.underlyings : cache.accountIds;
      values.forEach((value, position) => {
        const group = groups?.get(value);
        if (group) group.push(position);
        else groups?.set(value, [position]);
      });
      cache.groups.set(key, groups);
    }
    return groups;
  }

  /** Full rows for the given ids, in that order. */
  private rowsById(ids: readonly string[]): Transaction[] {
    if (ids.length === 0) return [];
    const rows = this.db
      .prepare(`SELECT ${ALL_COLUMNS} FROM transactions WHERE id IN (${ids.map(() => '?').join(', ')})`)
      .raw()
      .all(...ids) as TransactionRow[];
    const accountNames = new Map(this.load().accounts.map((a) => [a.id, a.name]));
    const byId = new Map(rows.map((row) => [row[0], toTransaction(row, accountNames)]));
    return ids.map((id) => byId.get(id)).filter((tx): tx is Transaction => tx !== undefined);
  }

  /** Builds the caches now (start-up, after the demo load) so the first request is fast. */
  warm(): void {
    this.ledger();
    this.grouped('underlying');
    this.grouped('accountId');
  }

  accounts(): AccountJson[] {
    return this.load().accounts;
  }

  /** Parses and stores a file in one go (the CLI; the server parses and stores in two steps, see journal-worker.ts). */
  importFile(request: ImportRequest): ImportReport {
    return this.storeParsed(this.parse(request));
  }

  /** Parses a broker file; a file with any error throws (422) and nothing is stored. */
  parse(request: ImportRequest): ParsedImport {
    const options = request.accountName === undefined ? {} : { accountName: request.accountName };
    const parsed = parseImport(importText(request.text), request.broker ?? 'auto', options);
    if (!parsed.ok) {
      // An unrecognised layout is a well-formed request with unprocessable content: 422, not 415.
      throw new ApiError(parsed.code, parsed.detail, parsed.errors.map((e) => ({ param: 'body', message: e.message, line: e.line })), { status: 422 });
    }
    const result = parsed.result;
    if (result.errors.length > 0) {
      const first = result.errors[0];
      throw new ApiError(
        'IMPORT_FAILED',
        `The ${result.broker} file has ${result.errors.length} problem${result.errors.length === 1 ? '' : 's'}${first ? ` (first: line ${first.line}: ${first.message})` : ''}; nothing was imported.`,
        result.errors.slice(0, 500).map((e) => ({ param: 'body', message: e.message, line: e.line })),
      );
    }
    return { result, filename: request.filename ?? null };
  }

  /** Stores a parsed file as one import (one transaction: all rows or none). */
  storeParsed({ result, filename }: ParsedImport): ImportReport {
    return this.store(result.broker, result.source, result.transactions, result.rows, result.skipped.map((s) => ({ line: s.line, reason: s.message })), result.warnings, filename);
  }

  /** Stores parsed rows as one import, all or nothing. Also used by the demo loader. */
  store(
    broker: string,
    source: string,
    rows: readonly ParsedRow[],
    rowCount: number,
    skipped: ImportReport['skipped'],
    warnings: ImportReport['warnings'],
    filename: string | null,
  ): ImportReport {
    const dayOf = makeDayOf(this.settings().timeZone);
    const createdAt = new Date().toISOString();
    const insertImport = this.db.prepare(
      'INSERT INTO imports (broker, source, filename, created_at, rows, imported, duplicates, report_json) VALUES (?, ?, ?, ?, ?, 0, 0, ?)',
    );
    const upsertAccount = this.db.prepare('INSERT OR IGNORE INTO accounts (id, name, source) VALUES (?, ?, ?)');
    const columns = `(id, import_id, account_id, broker_row_id, type, symbol, underlying, is_option, expiration, strike, right,
      quantity, price_minor, multiplier, amount_minor, commission_minor, fees_minor, currency, trade_date, trade_day, order_id,
      description, source, inferred, previous_symbol)`;
    const placeholders = `(${new Array(25).fill('?').join(', ')})`;
    // Many rows per statement: one native call per batch instead of per row (imports ≥ 50k rows/s).
    const insertBatch = this.db.prepare(`INSERT OR IGNORE INTO transactions ${columns} VALUES ${new Array(INSERT_BATCH).fill(placeholders).join(', ')}`);
    const insertOne = this.db.prepare(`INSERT OR IGNORE INTO transactions ${columns} VALUES ${placeholders}`);
    const finish = this.db.prepare('UPDATE imports SET imported = ?, duplicates = ?, report_json = ? WHERE id = ?');

    // A big import keeps its pages in a larger cache until the commit, then gives the memory back.
    this.db.pragma(`cache_size = ${IMPORT_CACHE_KIB}`);
    const insertAll = this.db.transaction((): ImportReport => {
      const importId = Number(insertImport.run(broker, source, filename, createdAt, rowCount, '{}').lastInsertRowid);
      const accounts = new Map<string, string>();
      let imported = 0;
      const values: Array<string | number | null> = [];
      let pending = 0;
      const accountIds = new Map<string, string>();
      for (const { transaction: tx } of rows) {
        const accountKey = `${tx.source}\u0000${tx.accountName}`;
        let accountId = accountIds.get(accountKey);
        if (accountId === undefined) {
          accountId = accountIdFor(tx.source, tx.accountName);
          accountIds.set(accountKey, accountId);
          upsertAccount.run(accountId, tx.accountName, tx.source);
          accounts.set(accountId, tx.accountName);
        }
        values.push(
          transactionIdFor(tx), importId, accountId, tx.brokerRowId, tx.type, tx.symbol, tx.underlying, tx.isOption ? 1 : 0,
          tx.expiration, tx.strike, tx.right, tx.quantity, tx.priceMinor, tx.multiplier, tx.amountMinor, tx.commissionMinor,
          tx.feesMinor, tx.currency, tx.tradeDate, dayOf(tx.tradeDate), tx.orderId, tx.description, tx.source, tx.inferred ? 1 : 0,
          tx.previousSymbol ?? null,
        );
        pending += 1;
        if (pending === INSERT_BATCH) {
          imported += insertBatch.run(values).changes;
          values.length = 0;
          pending = 0;
        }
      }
      for (let offset = 0; offset < values.length; offset += 25) imported += insertOne.run(values.slice(offset, offset + 25)).changes;
      const result: ImportReport = {
        id: importId,
        broker,
        source,
        filename,
        createdAt,
        accounts: [...accounts].map(([id, name]) => ({ id, name })),
        rows: rowCount,
        imported,
        duplicates: rows.length - imported,
        skipped: [...skipped],
        warnings: [...warnings],
      };
      finish.run(imported, rows.length - imported, JSON.stringify(result), importId);
      this.bumpGeneration.run();
      return result;
    });
    let report: ImportReport;
    try {
      // IMMEDIATE: the write lock is taken before anything is done, so a busy database fails at once, all clean.
      report = insertAll.immediate();
    } finally {
      this.db.pragma(`cache_size = ${DEFAULT_CACHE_KIB}`);
      this.db.pragma('shrink_memory');
    }
    this.written();
    return report;
  }

  /** The import history, newest first, a page at a time (a report keeps every skipped line: pages stay small). */
  listImports(query: { page?: number; limit?: number } = {}): ImportsResponseT {
    const total = this.db.prepare('SELECT COUNT(*) FROM imports').pluck().get() as number;
    const { limit, offset, pagination } = pageOf(query.page, query.limit, total);
    const rows = this.db.prepare('SELECT id, imported, duplicates, report_json FROM imports ORDER BY id DESC LIMIT ? OFFSET ?').all(limit, offset) as Array<{
      id: number;
      imported: number;
      duplicates: number;
      report_json: string;
    }>;
    return {
      imports: rows.map((row) => ({ ...(JSON.parse(row.report_json) as ImportReport), id: row.id, imported: row.imported, duplicates: row.duplicates })),
      pagination,
    };
  }

  /** Re-dates every transaction in a new journal time zone (the trade day is stored with each row). */
  redate(timeZone: string): number {
    const dayOf = makeDayOf(timeZone);
    const rows = this.db.prepare('SELECT id, trade_date FROM transactions').raw().all() as Array<[string, string]>;
    const update = this.db.prepare('UPDATE transactions SET trade_day = ? WHERE id = ? AND trade_day != ?');
    const changed = this.db.transaction(() => {
      let count = 0;
      for (const [id, tradeDate] of rows) {
        const day = dayOf(tradeDate);
        count += update.run(day, id, day).changes;
      }
      this.bumpGeneration.run();
      return count;
    }).immediate();
    this.written();
    return changed;
  }

  /** Removes the transactions this import inserted (rows it found as duplicates stay with their first import). */
  undoImport(id: number): { id: number; removed: number } {
    const result = this.db.transaction(() => {
      const exists = this.db.prepare('SELECT id FROM imports WHERE id = ?').get(id);
      if (!exists) throw new ApiError('NOT_FOUND', `No import with id ${id}.`);
      const removed = this.db.prepare('DELETE FROM transactions WHERE import_id = ?').run(id).changes;
      this.db.prepare('DELETE FROM imports WHERE id = ?').run(id);
      this.db.prepare('DELETE FROM accounts WHERE id NOT IN (SELECT DISTINCT account_id FROM transactions)').run();
      this.bumpGeneration.run();
      return { id, removed };
    }).immediate();
    this.written();
    return result;
  }

  transactions(query: TransactionsQueryT): TransactionsResponseT {
    const { page, limit } = pageOf(query.page, query.limit, 0);
    for (const key of ['fromDate', 'toDate'] as const) {
      const value = query[key];
      if (value !== undefined && !isValidDate(value)) throw new ApiError('INVALID_PARAMETER', `${key}: ${value} is not a calendar date`, [{ param: key, message: 'is not a calendar date' }]);
    }
    const cache = this.load();
    const symbol = query.symbol?.toUpperCase();
    const { accountId, fromDate, toDate } = query;
    // Positions are newest first; a symbol or account narrows to its group, dates to a slice found by bisection.
    let positions: readonly number[] | null = null;
    if (symbol !== undefined) positions = this.grouped('underlying').get(symbol) ?? [];
    if (accountId !== undefined) {
      positions = positions === null ? (this.grouped('accountId').get(accountId) ?? []) : positions.filter((p) => cache.accountIds[p] === accountId);
    }
    const total = positions === null ? cache.ids.length : positions.length;
    const dayAt = (index: number) => cache.days[positions === null ? index : (positions[index] ?? 0)] ?? '';
    const startIndex = toDate === undefined ? 0 : firstIndex(total, (i) => dayAt(i) <= toDate);
    const endIndex = fromDate === undefined ? total : firstIndex(total, (i) => dayAt(i) < fromDate);
    const matching = Math.max(0, endIndex - startIndex);
    const pageStart = startIndex + (page - 1) * limit;
    const pageEnd = Math.min(endIndex, pageStart + limit);
    const ids: string[] = [];
    for (let i = pageStart; i < pageEnd; i += 1) ids.push(cache.ids[positions === null ? i : (positions[i] ?? 0)] ?? '');
    return {
      transactions: this.rowsById(ids).map(transactionToJson),
      accounts: cache.accounts,
      pagination: { page, limit, total: matching, pages: Math.ceil(matching / limit) },
    };
  }

  performance(query: PerformanceQueryT): PerformanceResponseT {
    if ((query.from === undefined) !== (query.to === undefined)) {
      const missing = query.from === undefined ? 'from' : 'to';
      throw new ApiError('RANGE_INCOMPLETE', `A custom range needs both from and to; ${missing} is missing.`, [{ param: missing, message: 'is required with ' + (missing === 'from' ? 'to' : 'from') }]);
    }
    for (const key of ['from', 'to'] as const) {
      const value = query[key];
      if (value !== undefined && !isValidDate(value)) throw new ApiError('INVALID_PARAMETER', `${key}: ${value} is not a calendar date`, [{ param: key, message: 'is not a calendar date' }]);
    }
    if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
      throw new ApiError('INVALID_PARAMETER', `from (${query.from}) is after to (${query.to}).`, [{ param: 'from', message: 'must not be after to' }]);
    }
    const date = this.centerDate(query.date);
    const cache = this.load();
    const result = performance(this.ledger(), {
      period: query.period ?? 'monthly',
      date,
      ...(query.from !== undefined && query.to !== undefined ? { from: query.from, to: query.to } : {}),
    });
    return { ...result, accounts: cache.accounts, demo: cache.demo };
  }

  summary(year: number | undefined): SummaryResponseT {
    const cache = this.load();
    const result = yearSummary(this.ledger(), year ?? Number(todayIn(this.settings().timeZone).slice(0, 4)));
    return { ...result, accounts: cache.accounts, demo: cache.demo };
  }

  /** `date` may be a date or an instant; an instant is read in the journal time zone. */
  private centerDate(date: string | undefined): string {
    const tz = this.settings().timeZone;
    if (date === undefined) return todayIn(tz);
    if (/^\d{4}-\d{2}-\d{2}$/.test(date)) {
      if (!isValidDate(date)) throw new ApiError('INVALID_PARAMETER', `date: ${date} is not a calendar date`, [{ param: 'date', message: 'is not a calendar date' }]);
      return date;
    }
    // An instant with an offset is placed in the journal zone; a local date-time is already in it.
    const parsed = DateTime.fromISO(date, { zone: tz, setZone: false });
    if (!parsed.isValid) throw new ApiError('INVALID_PARAMETER', `date: ${date} is not a valid ISO 8601 date-time`, [{ param: 'date', message: 'is not a valid ISO 8601 date-time' }]);
    return parsed.setZone(tz).toISODate() ?? date.slice(0, 10);
  }
}
