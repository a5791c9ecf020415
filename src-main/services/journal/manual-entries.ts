/**
 * Manual entries (docs/journal.md, "Manual entries"): transactions the user types in, read with the generic CSV's
 * fields and rules (importers/generic: one grammar for a file and a form) and stored as one import of broker and source
 * `manual`, so that they are undone like any import; and the only rows that change one by one
 * (PUT and DELETE /v1/journal/transactions/{id}). Runs in the journal worker, on its connection.
 */
import type { Database } from 'better-sqlite3';
import type { JournalChange } from './ledger-index';
import { hash, randomBytes } from 'node:crypto';
import { MANUAL_SOURCE, type TransactionType } from '../../../src-shared/api/constants';
import type { ManualTransactionT } from '../../../src-shared/api/manual-schemas';
import { makeDayOf, NEW_YORK } from '../../../src-shared/zone';
import { nowIso, type Clock } from '../../clock';
import { AccountsRepository } from '../../db/accounts';
import { HandChanges } from './hand-changes';
import { ImportsRepository } from '../../db/imports';
import { toRow, TransactionsRepository, type TransactionRow } from '../../db/transactions';
import { dayToUtc, localToUtc } from '../../importers/common/dates';
import { FILLS } from '../../../src-shared/api/constants';
import { readManualRow } from './manual-row';
import { saneYear } from '../../../src-shared/bounds';
import { ManualDuplicates } from './manual-duplicates';
import type { CheckedEntry, ImportRecord } from './values';
import { failure, ok, type Result } from '../result';
import type { WriteTx } from '../../db/writes';
import { asAccountId, type AccountId } from '../../../src-shared/ids';

/** A row that passed every check: the transaction and the account it goes to. */
export type { CheckedEntry };

export interface ManualAdded {
  importId: number;
  ids: string[];
}

/** Problems listed with a refused request (the detail names them all: a list, not a 10,000-line essay). */
const MAX_PROBLEMS = 20;
const YEAR_MIN = 1900;
const YEAR_MAX = 2200;
/** Rows that are their cash: without an amount they would say nothing (a fee may give it as commission or fees instead). */
const CASH_ROWS: ReadonlySet<TransactionType> = new Set<TransactionType>(['DIVIDEND', 'INTEREST', 'FEE', 'DEPOSIT', 'WITHDRAWAL']);

/** The id accountIdFor (services/journal.ts) gives an account of source `manual`: its name alone makes it. */
export function manualAccountId(name: string): AccountId {
  return asAccountId(`acc_${hash('sha256', `${MANUAL_SOURCE}\u0000${name}`, 'hex').slice(0, 16)}`);
}

/**
 * A manual row's id: random (128 bits), since a row typed in has no broker identity and two identical entries are two
 * trades; kept across edits, and lower case like every id (the router reads paths without case).
 */
function newIds(count: number): Array<{ id: string; brokerRowId: string }> {
  // One draw for the whole request: a call to the system's generator per row cost more than the insert.
  const hex = randomBytes(16 * count).toString('hex');
  return Array.from({ length: count }, (_, index) => {
    const token = hex.slice(index * 32, index * 32 + 32);
    return { id: `mtx_${token}`, brokerRowId: `manual:${token}` };
  });
}


export class ManualEntries {
  private readonly transactions: TransactionsRepository;
  private readonly accounts: AccountsRepository;
  private readonly imports: ImportsRepository;
  private readonly changes: HandChanges;
  /** Manual openings that duplicate imported rows (manual-duplicates.ts): refused here, superseded by an import. */
  readonly duplicates: ManualDuplicates;

  constructor(
    private readonly db: Database,
    private readonly settings: () => { timeZone: string },
    private readonly clock: Clock,
    /** After a commit: the journal's in-memory index and ledger follow (JournalIndex.written). */
    private readonly written: (change?: JournalChange) => void,
  ) {
    this.transactions = new TransactionsRepository(db);
    this.accounts = new AccountsRepository(db);
    this.imports = new ImportsRepository(db);
    this.changes = new HandChanges(db, () => this.written());
    this.duplicates = new ManualDuplicates(db);
  }

  /**
   * Reads and checks rows; problems are named by field (`${prefix}${index}.${field}`: `transactions.3.strike` of a POST,
   * `strike` of a PUT's single row). Nothing is written: a refusal needs no lock.
   */
  check(rows: readonly ManualTransactionT[], prefix: (index: number) => string): Result<CheckedEntry[]> {
    const problems: Array<{ param: string; message: string }> = [];
    const entries: CheckedEntry[] = [];
    // Accounts looked up once per request (a 10,000-row POST names a few).
    const known = new Map<string, { name: string; source: string } | null>();
    const named = new Map<string, Array<{ id: string; name: string; source: string }>>();
    // A bare date's instant (its 16:00 in New York) once per distinct day: the zone lookup was most of a row's cost.
    const instants = new Map<string, string | null>();
    rows.forEach((row, index) => {
      const before = problems.length;
      // The first problem of a field is the one to fix (the reader may name a field this check already named).
      const fail = (field: string, message: string) => {
        const param = `${prefix(index)}${field}`;
        if (!problems.slice(before).some((p) => p.param === param)) problems.push({ param, message });
      };
      const account = this.account(row, known, named, fail);
      const year = Number(row.date.slice(0, 4));
      if (year < YEAR_MIN || year > YEAR_MAX) fail('date', `must be in ${YEAR_MIN}–${YEAR_MAX}: "${row.date}"`);
      const expirationYear = row.expiration === undefined ? null : Number(row.expiration.slice(0, 4));
      if (expirationYear !== null && (expirationYear < YEAR_MIN || expirationYear > YEAR_MAX)) fail('expiration', `must be in ${YEAR_MIN}–${YEAR_MAX}: "${row.expiration ?? ''}"`);
      const fill = FILLS.has(row.type);
      if (fill && row.quantity === undefined) fail('quantity', `required for ${row.type}`);
      if (fill && row.price === undefined) fail('price', `required for ${row.type}`);
      if (fill && row.quantity !== undefined && !(row.quantity > 0)) fail('quantity', `must be > 0 for ${row.type}`);
      const costsGiven = row.commission !== undefined || row.fees !== undefined;
      if (CASH_ROWS.has(row.type) && row.amount === undefined && !(row.type === 'FEE' && costsGiven)) fail('amount', `required for ${row.type} (the cash it moved, + = credit)`);
      if (row.time !== undefined && row.date.length !== 10) fail('time', `goes with a date alone (YYYY-MM-DD): "${row.date}" is an instant with its own time`);
      // A date alone is the day's close (16:00 New York); with a time, that instant in New York.
      const key = row.time === undefined ? row.date : `${row.date} ${row.time}`;
      let instant = instants.get(key);
      if (instant === undefined && row.date.length === 10) {
        instant = row.time === undefined ? dayToUtc(row.date) : localToUtc(row.date, row.time, NEW_YORK);
        instants.set(key, instant);
      }
      // The reader takes a canonical instant as it is; a date that is no day keeps its text for the reader's message.
      const transaction = readManualRow({ ...row, date: instant ?? row.date }, account?.name ?? '', (field, message) => fail(field, message));
      if (problems.length > before || account === null || transaction === null) return;
      // On the instant, after its offset: 2200-12-31T23:00-14:00 is 2201-01-01T13:00Z (issue 29).
      if (!saneYear(transaction.tradeDate)) {
        fail('date', `must be in ${YEAR_MIN}–${YEAR_MAX} once its offset is applied: "${row.date}" is ${transaction.tradeDate}`);
        return;
      }
      entries.push({ transaction, accountId: asAccountId(account.id), accountSource: account.source });
    });
    if (problems.length > 0) {
      const shown = problems.slice(0, MAX_PROBLEMS);
      const what = problems.length > shown.length ? `transactions (${problems.length} problems, the first ${shown.length} named)` : rows.length === 1 && prefix(0) === '' ? 'transaction' : 'transactions';
      return failure({ kind: 'invalid-request', what, problems: shown });
    }
    return ok(entries);
  }

  /** The row's account: an account of the journal by id, or the manual account of a name (made on first use). */
  private account(
    row: ManualTransactionT,
    known: Map<string, { name: string; source: string } | null>,
    byName: Map<string, Array<{ id: string; name: string; source: string }>>,
    fail: (field: string, message: string) => void,
  ): { id: string; name: string; source: string } | null {
    if ((row.accountId === undefined) === (row.account === undefined)) {
      fail(row.accountId === undefined ? 'accountId' : 'account', 'give one of accountId (an account of the journal) or account (a name)');
      return null;
    }
    if (row.account !== undefined) {
      const name = row.account.trim();
      if (name === '') {
        fail('account', 'must not be blank');
        return null;
      }
      // The account the user means by its name: the journal's account of that name, else a manual one of its own.
      const named = byName.get(name) ?? this.accounts.byName(name);
      byName.set(name, named);
      const [only] = named;
      if (named.length > 1) {
        fail('account', `${named.length} accounts are named "${name}" (${named.map((a) => a.id).join(', ')}): give accountId`);
        return null;
      }
      return only ?? { id: manualAccountId(name), name, source: MANUAL_SOURCE };
    }
    const id = row.accountId ?? '';
    if (!known.has(id)) known.set(id, this.accounts.byId(id));
    const found = known.get(id);
    if (found === null || found === undefined) {
      fail('accountId', `names no account of the journal: "${id}"`);
      return null;
    }
    return { id, name: found.name, source: found.source };
  }


  /**
   * Stores checked rows as one new import of kind manual (in the caller's write transaction). A manual opening of a
   * position that imported rows already open is refused, nothing stored (409 DUPLICATE_OF_IMPORTED: manual-duplicates.ts);
   * checked under the lock, so that no import comes between the check and the rows.
   */
  add(turn: WriteTx, entries: readonly CheckedEntry[], prefix: (index: number) => string = (index) => `transactions.${index}.`): Result<ManualAdded> {
    const dayOf = makeDayOf(this.settings().timeZone);
    return this.changes.make(
      turn,
      (): Result<ManualAdded> => {
        const refused = this.duplicates.refusal(entries, dayOf, prefix);
        if (refused !== null) return failure(refused);
        const importId = this.imports.insert(turn, { broker: MANUAL_SOURCE, source: MANUAL_SOURCE, filename: null, created_at: nowIso(this.clock), rows: entries.length, imported: 0, duplicates: 0, report_json: '{}' });
        const inserter = this.transactions.inserter(turn);
        const ids: string[] = [];
        const fresh = newIds(entries.length);
        const accounts = new Set<string>();
        entries.forEach((entry, index) => {
          const { id, brokerRowId } = fresh[index] ?? { id: '', brokerRowId: '' };
          if (!accounts.has(entry.accountId)) {
            accounts.add(entry.accountId);
            this.accounts.insert(turn, { id: entry.accountId, name: entry.transaction.accountName, source: entry.accountSource });
          }
          inserter.add({ ...entry.transaction, brokerRowId }, { id, importId, accountId: entry.accountId, tradeDay: dayOf(entry.transaction.tradeDate) });
          ids.push(id);
        });
        inserter.finish();
        this.recount(turn, importId);
        return ok({ importId, ids });
      },
      // Rows added alone: the ledger may walk on with them (ledger-index.ts).
      ({ importId }) => this.written({ importId }),
    );
  }

  /** Manual imports whose rows an import superseded or gave back (manual-duplicates.ts): their counts follow. */
  recountImports(turn: WriteTx, importIds: Iterable<number>): void {
    for (const importId of new Set(importIds)) this.recount(turn, importId);
  }

  /** A manual row by id: 404 when there is none, 409 IMPORTED_ROW when a file brought it. */
  lookup(id: string): Result<TransactionRow> {
    const row = this.transactions.byId(id);
    if (row === null) return failure({ kind: 'not-found', what: 'transaction', id });
    if (row.source !== MANUAL_SOURCE) return failure({ kind: 'imported-row', id, importId: row.import_id, source: row.source });
    return ok(row);
  }

  /** Replaces a manual row by a checked one: its id and import stay. */
  replace(turn: WriteTx, id: string, entry: CheckedEntry): Result<{ id: string; importId: number }> {
    const dayOf = makeDayOf(this.settings().timeZone);
    // The earlier of the row's day and its new one: the ledger resumes before it (ledger-index.ts).
    let fromDay = '';
    return this.changes.makeTo(
      turn,
      () => this.lookup(id),
      ({ import_id: importId, broker_row_id: brokerRowId, trade_day: oldDay }) => {
        this.accounts.insert(turn, { id: entry.accountId, name: entry.transaction.accountName, source: entry.accountSource });
        const tradeDay = dayOf(entry.transaction.tradeDate);
        fromDay = oldDay < tradeDay ? oldDay : tradeDay;
        this.transactions.replace(turn, toRow({ ...entry.transaction, brokerRowId }, { id, importId, accountId: entry.accountId, tradeDay }));
        this.accounts.deleteUnused(turn);
        this.recount(turn, importId);
        return { id, importId };
      },
      () => this.written({ fromDay }),
    );
  }

  /** Deletes a manual row; an import left with no row goes with it (an empty undo would help nobody). */
  remove(turn: WriteTx, id: string): Result<{ id: string; importId: number; importRemoved: boolean }> {
    let fromDay = '';
    return this.changes.makeTo(
      turn,
      () => this.lookup(id),
      ({ import_id: importId, trade_day: tradeDay }) => {
        fromDay = tradeDay;
        this.transactions.delete(turn, id);
        // Kept while an import holds some of its rows superseded: undoing that import brings them back into it.
        const importRemoved = this.transactions.ofImport(importId).rows === 0 && this.duplicates.retiredOf(importId) === 0;
        if (importRemoved) this.imports.delete(turn, importId);
        else this.recount(turn, importId);
        this.accounts.deleteUnused(turn);
        return { id, importId, importRemoved };
      },
      () => this.written({ fromDay }),
    );
  }

  /** The import's counts and report from the rows it holds now. */
  private recount(turn: WriteTx, importId: number): void {
    const row = this.imports.byId(importId);
    if (row === null) return;
    const { rows, accountIds } = this.transactions.ofImport(importId);
    const record: ImportRecord = {
      id: importId,
      broker: row.broker,
      source: row.source,
      filename: row.filename,
      createdAt: row.created_at,
      accounts: accountIds.map((id) => ({ id, name: this.accounts.byId(id)?.name ?? id })),
      rows,
      imported: rows,
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
    this.imports.recount(turn, { id: importId, rows, imported: rows, report_json: JSON.stringify(record) });
  }
}
