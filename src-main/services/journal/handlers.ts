/**
 * The journal worker's calls, declared once (docs/architecture.md §Map): each entry of `journalReads` and
 * `journalWrites` is a call the server can make (the client, client.ts, derives its methods and their types from these
 * maps), and what the worker (worker.ts) runs for it. Reads are answered at once; writes run one at a time in the
 * worker's write lane, each one transaction in a write turn it asks the main thread for when it is ready to write.
 */
import type { Database } from 'better-sqlite3';
import type { ManualTransactionT } from '../../../src-shared/api/manual-schemas';
import type { CorporateActionInputT } from '../../../src-shared/api/corporate-action-schemas';
import { underFlag } from '../../checkpoint';
import { writeTransaction, type AfterTurn } from '../../db/writes';
import { ok, type Result } from '../result';
import { collectGarbage, COLLECT_AFTER_DECODE_BYTES } from '../worker-gc';
import type { ManualAdded } from './manual-entries';
import type { ReconcileAnswer, ReconcileRequest } from './reconciliation';
import type { BookedExpiration, ExpirationItem } from './expirations';
import type { AnnotationKind } from '../../db/annotations';
import type { AnnotationInput, AnnotationResult, StatsRequest, TradesRequest } from './trades';
import type { LevelsScope } from '../../../src-shared/api/constants';
import type { AccountId, TradeId } from '../../../src-shared/ids';
import type { LevelAlertFact, ManageRules } from '../../../src-shared/journal/manage';
import type { ManageRequest } from './manage';
import type { RollsRequest } from './rolls';
import { importText, type BookRequest, type CampaignsRequest, type ImportRecord, type ImportRequest, type JournalService, type PerformanceRequest, type TransactionFilter } from './service';

/** What the handlers run on: the worker's journal and connection, and its ways to talk to the main thread. */
export interface JournalHost {
  journal: JournalService;
  db: Database;
  /** A write turn for the call: resolves with its busy deadline (epoch ms); a refused turn stops the job. */
  turn(call: WriteCall): Promise<number>;
  /** Tells the main thread that a job started (its time limit counts from now). */
  started(id: number): void;
  /** After a large write: the page cache and the garbage given back. */
  shrink(): void;
}

/** What a write knows of its call: its id (for its turn), its job flag, and how to make its settings current again. */
export interface WriteCall {
  id: number;
  flag: Int32Array | undefined;
  /** Reads served while a write waits for its turn set their own settings and "now": the write's are put back. */
  resume: () => void;
}

/** Reads: answered at once, also while a write waits for another process's lock. */
export const journalReads = {
  listImports: ({ journal }: JournalHost, query: { page?: number; limit?: number } = {}) => journal.listImports(query),
  importById: ({ journal }: JournalHost, id: number) => journal.importById(id),
  /** The closes without an opening of these imports (a new import's report: the ledger is built here, not in its write). */
  openedBeforeHistory: ({ journal }: JournalHost, importIds: number[]) => journal.openedBeforeHistory(importIds),
  transactions: ({ journal }: JournalHost, query: TransactionFilter) => journal.transactions(query),
  performance: ({ journal }: JournalHost, query: PerformanceRequest) => journal.performance(query),
  summary: ({ journal }: JournalHost, year: number | undefined, accountId?: AccountId) => journal.summary(year, accountId),
  positions: ({ journal }: JournalHost, query: BookRequest) => journal.positions(query),
  campaigns: ({ journal }: JournalHost, query: CampaignsRequest) => journal.campaigns(query),
  campaign: ({ journal }: JournalHost, id: string, asOf: string | undefined) => journal.campaign(id, asOf),
  accounts: ({ journal }: JournalHost) => journal.accounts(),
  corporateActions: ({ journal }: JournalHost, query: { page?: number; limit?: number }) => journal.listCorporateActions(query),
  /** Trades and their stats (trades.ts): built once per data version, filtered and added up per call. */
  trades: ({ journal }: JournalHost, query: TradesRequest) => journal.trades.trades(query),
  trade: ({ journal }: JournalHost, id: TradeId, levelsScope?: LevelsScope) => journal.trades.trade(id, levelsScope),
  tradeStats: ({ journal }: JournalHost, query: StatsRequest) => journal.trades.stats(query),
  annotation: ({ journal }: JournalHost, kind: AnnotationKind, id: string) => journal.trades.annotationFor(kind, id),
  /** What to manage today (manage.ts): the rules and the position alerts come with the call (the server holds both). */
  manage: ({ journal }: JournalHost, query: ManageRequest, rules: ManageRules, alerts: LevelAlertFact[]) => journal.manage.manage(query, rules, alerts),
  /** The roll assistant (rolls.ts): the candidates of an open trade's short legs in a snapshot. */
  rolls: ({ journal }: JournalHost, id: TradeId, request: RollsRequest) => journal.rolls.rolls(id, request),
  /** The Import page's mapping step (parsed in the worker: a preview can be half a megabyte of text). */
  previewFormat: ({ journal }: JournalHost, request: Parameters<JournalService['previewFormat']>[0]) => journal.previewFormat(request),
  /** The balance assertions saved from POST /journal/reconcile?save=true, with whether each holds now (reconciliation.ts). */
  reconciliations: ({ journal }: JournalHost) => journal.reconciliation.assertions(),
  /** Builds the worker's index and ledger now, so that the first journal read is fast. */
  warm: ({ journal }: JournalHost): void => {
    journal.warm();
    collectGarbage();
  },
  /** Drops the worker's caches (after a settings change the ledger depends on). */
  invalidate: ({ journal }: JournalHost): void => journal.invalidate(),
  /** Resolves once the worker has started and opened the database (start-up fails early if it cannot). */
  ready: (_host: JournalHost): void => undefined,
};

/** The worker's own end (client.close): not a call of the server's. */
export const journalLifecycle = {
  closeDatabase: ({ db }: JournalHost) => {
    db.close();
    return true;
  },
};

/** Writes: each one transaction in its write turn, begun once the write lock is ours (retried while another process holds it). */
export const journalWrites = {
  /**
   * An import: parsed under the job's flag outside any write turn (a refused file never asks for one), then stored
   * in one turn (the client sends it as a job: client.ts).
   */
  importFile: async (host: JournalHost, call: WriteCall, request: ImportRequest): Promise<Result<ImportRecord>> => {
    const { journal, db } = host;
    const large = typeof request.text !== 'string' && request.text.byteLength >= COLLECT_AFTER_DECODE_BYTES;
    const parsed = underFlag(call.flag, () => {
      host.started(call.id);
      // Decoded once and the bytes let go (and collected, for a large one): a 50 MB upload is not held twice while it is parsed.
      request.text = importText(request.text);
      if (large) collectGarbage();
      return journal.parse(request);
    });
    if (!parsed.ok) {
      // A refused file's text is garbage once answered: collected then, not at the next upload, whose peak it would add to.
      if (large) setImmediate(collectGarbage);
      return parsed;
    }
    const deadlineMs = await host.turn(call);
    return ok(await writeTransaction(db, (turn) => journal.storeParsed(turn, parsed.value), deadlineMs).finally(host.shrink));
  },
  store: async (host: JournalHost, call: WriteCall, ...args: AfterTurn<JournalService['store']>): Promise<ImportRecord> =>
    writeTransaction(host.db, (turn) => host.journal.store(turn, ...args), await host.turn(call)).finally(host.shrink),
  undoImport: async (host: JournalHost, call: WriteCall, importId: number) => writeTransaction(host.db, (turn) => host.journal.undoImport(turn, importId), await host.turn(call)),
  redate: async (host: JournalHost, call: WriteCall, timeZone: string) => writeTransaction(host.db, (turn) => host.journal.redate(turn, timeZone), await host.turn(call)),
  // Manual entries (manual-entries.ts): checked before the turn (a refusal takes none), as a file is parsed before it is stored.
  addTransactions: async (host: JournalHost, call: WriteCall, rows: ManualTransactionT[]): Promise<Result<ManualAdded>> => {
    const checked = host.journal.manual.check(rows, (index) => `transactions.${index}.`);
    if (!checked.ok) return checked;
    return writeTransaction(host.db, (turn) => host.journal.manual.add(turn, checked.value), await host.turn(call)).finally(host.shrink);
  },
  replaceTransaction: async (host: JournalHost, call: WriteCall, id: string, row: ManualTransactionT): Promise<Result<{ id: string; importId: number }>> => {
    const known = host.journal.manual.lookup(id);
    if (!known.ok) return known;
    const checked = host.journal.manual.check([row], () => '');
    if (!checked.ok) return checked;
    const [entry] = checked.value;
    if (entry === undefined) throw new Error('journal worker: a checked row went missing');
    return writeTransaction(host.db, (turn) => host.journal.manual.replace(turn, id, entry), await host.turn(call));
  },
  deleteTransaction: async (host: JournalHost, call: WriteCall, id: string) => writeTransaction(host.db, (turn) => host.journal.manual.remove(turn, id), await host.turn(call)),
  /** An import's differences from its broker's figures, seen (POST /imports/{id}/acknowledge). */
  acknowledgeImport: async (host: JournalHost, call: WriteCall, importId: number) => writeTransaction(host.db, (turn) => host.journal.acknowledgeImport(turn, importId), await host.turn(call)),
  /**
   * A broker's positions file against the book (POST /journal/reconcile): read and compared outside any turn; with
   * save, compared again and stored as a balance assertion in a turn of its own.
   */
  reconcile: async (host: JournalHost, call: WriteCall, request: ReconcileRequest): Promise<Result<ReconcileAnswer>> => {
    if (request.save !== true) return host.journal.reconcilePositions(request, null);
    const checked = host.journal.reconciliation.read(request);
    if (!checked.ok) return checked;
    return writeTransaction(host.db, (turn) => host.journal.reconcilePositions(request, turn), await host.turn(call));
  },
  // Corporate actions entered by hand (corporate-actions.ts): checked before the turn, each an import of its own.
  addCorporateAction: async (host: JournalHost, call: WriteCall, input: CorporateActionInputT) => {
    const checked = host.journal.corporateActions.check(input);
    if (!checked.ok) return checked;
    return writeTransaction(host.db, (turn) => host.journal.corporateActions.add(turn, checked.value), await host.turn(call));
  },
  replaceCorporateAction: async (host: JournalHost, call: WriteCall, id: number, input: CorporateActionInputT) => {
    const known = host.journal.corporateActions.lookup(id);
    if (!known.ok) return known;
    const checked = host.journal.corporateActions.check(input);
    if (!checked.ok) return checked;
    return writeTransaction(host.db, (turn) => host.journal.corporateActions.replace(turn, id, checked.value), await host.turn(call));
  },
  deleteCorporateAction: async (host: JournalHost, call: WriteCall, id: number) => writeTransaction(host.db, (turn) => host.journal.corporateActions.remove(turn, id), await host.turn(call)),
  /** "Expired worthless" (expirations.ts): manual EXPIRATION rows for options past expiry the book lists, one manual import. */
  bookExpirations: async (host: JournalHost, call: WriteCall, items: ExpirationItem[]): Promise<Result<ManualAdded & { expired: BookedExpiration[] }>> => {
    const checked = host.journal.expirationEntries(items);
    if (!checked.ok) return checked;
    const added = await writeTransaction(host.db, (turn) => host.journal.manual.add(turn, checked.value.entries), await host.turn(call)).finally(host.shrink);
    return added.ok ? ok({ ...added.value, expired: checked.value.booked }) : added;
  },
  /** Notes and tags on a trade or a campaign the journal has now (404 otherwise), kept by its stable id (trades.ts). */
  annotate: async (host: JournalHost, call: WriteCall, kind: AnnotationKind, id: string, input: AnnotationInput): Promise<Result<AnnotationResult>> => {
    const known = host.journal.trades.resolve(kind, id);
    if (!known.ok) return known;
    return ok(await writeTransaction(host.db, (turn) => host.journal.trades.annotate(turn, kind, known.value, input), await host.turn(call)));
  },
};

export type JournalReads = typeof journalReads;
export type JournalWrites = typeof journalWrites;
