/**
 * The journal worker thread: imports (parse and store), undo, re-dating and the ledger with the journal reads run
 * here, on the worker's own SQLite connection, so the server's event loop (Electron's main process) never stalls
 * on them. Results are small JSON objects; the 100k-transaction ledger never crosses the thread boundary.
 *
 * Started by journal-client.ts: from the sources through ts-worker.mjs, from a bundle as its own entry file.
 */
import { setPriority } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import type { Clock } from '../clock';
import { joinDatabase, shrinkMemory } from '../db/open';
import { writeTransaction } from '../db/writes';
import { JournalService, type BookRequest, type CampaignsRequest, type ImportRecord, type ImportRequest, type JournalSettings, type PerformanceRequest, type TransactionFilter } from './journal';
import { toWire, type CallMessage, type ReplyMessage, type WorkerInit } from './journal-protocol';
import { ok, type Result } from './result';
import type { ManualAdded } from './manual-entries';
import type { ManualTransactionT } from '../../src-shared/api/manual-schemas';

const port = parentPort;
if (port === null) throw new Error('journal-worker.ts runs as a worker thread (see journal-client.ts)');
const init = workerData as WorkerInit;

// The main thread opened, checked and migrated the file; this connection only joins it. It never waits on a lock
// synchronously either: a busy write is retried between other messages (retryWhileBusy).
const db = joinDatabase(init.dbPath, init.nativeBinding, init.maxPages);
// Where the OS allows it per thread (Linux), this thread yields the CPU to the event loop's thread: on a busy
// machine an import or a ledger rebuild must not delay the answers of the server (or Electron's window).
if (process.platform === 'linux') {
  try {
    setPriority(10);
  } catch {
    // Not permitted: run at the normal priority.
  }
}
let settings: JournalSettings | null = null;
/**
 * "Now" is the caller's, sent with each call: the server's clock (which tests set) rules here too. The journal
 * measures no durations; its monotonic time is the call's instant as well.
 */
let callNowMs = 0;
const clock: Clock = { nowMs: () => callNowMs, monotonicMs: () => callNowMs };
const journal = new JournalService(
  db,
  () => {
    if (settings === null) throw new Error('journal worker: no settings yet');
    return settings;
  },
  clock,
);

/**
 * A full garbage collection of this thread's heap. An import or a ledger rebuild leaves tens of MB of garbage (the
 * parsed file, raw rows) that V8 keeps committed until it next decides on a major GC; collecting right after
 * them keeps the server's resident memory at its working size (docs/architecture.md §Budgets: ≤ 250 MB with 100k transactions).
 */
const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
  // A runtime that refuses the flag only loses the early collection.
  return typeof gc === 'function' ? () => void gc() : () => undefined;
})();

/**
 * After an import committed: its pages are clean (the page cache gives their memory back), its objects garbage;
 * collected once the answer is on its way.
 */
function shrink(): void {
  shrinkMemory(db);
  setImmediate(collectGarbage);
}

/** Reads: answered at once, also while a write waits for another process's lock. */
const reads = {
  listImports: (query: { page?: number; limit?: number }) => journal.listImports(query),
  transactions: (query: TransactionFilter) => journal.transactions(query),
  performance: (query: PerformanceRequest) => journal.performance(query),
  summary: (year: number | undefined, accountId?: string) => journal.summary(year, accountId),
  positions: (query: BookRequest) => journal.positions(query),
  chains: (query: CampaignsRequest) => journal.chains(query),
  chain: (id: string, asOf: string | undefined) => journal.chain(id, asOf),
  accounts: () => journal.accounts(),
  previewFormat: (request: Parameters<JournalService['previewFormat']>[0]) => journal.previewFormat(request),
  warm: () => {
    journal.warm();
    collectGarbage();
  },
  invalidate: () => journal.invalidate(),
  ping: () => true,
  close: () => {
    db.close();
    return true;
  },
};

/** Writes: each one transaction, begun once the write lock is ours (retried while another process holds it). */
const writes = {
  importFile: async (deadlineMs: number, request: ImportRequest): Promise<Result<ImportRecord>> => {
    // Parsing needs no lock and is not repeated while the store waits for it; a refused file takes no lock at all.
    const parsed = journal.parse(request);
    if (!parsed.ok) return parsed;
    return ok(await writeTransaction(db, () => journal.storeParsed(parsed.value), deadlineMs).finally(shrink));
  },
  store: (deadlineMs: number, ...args: Parameters<JournalService['store']>): Promise<ImportRecord> => writeTransaction(db, () => journal.store(...args), deadlineMs).finally(shrink),
  undoImport: (deadlineMs: number, id: number) => writeTransaction(db, () => journal.undoImport(id), deadlineMs),
  redate: (deadlineMs: number, timeZone: string) => writeTransaction(db, () => journal.redate(timeZone), deadlineMs),
  // Manual entries: checked before the lock (a refusal takes none), as a file is parsed before it is stored.
  addTransactions: async (deadlineMs: number, rows: ManualTransactionT[]): Promise<Result<ManualAdded>> => {
    const checked = journal.manual.check(rows, (index) => `transactions.${index}.`);
    if (!checked.ok) return checked;
    return ok(await writeTransaction(db, () => journal.manual.add(checked.value), deadlineMs).finally(shrink));
  },
  replaceTransaction: async (deadlineMs: number, id: string, row: ManualTransactionT): Promise<Result<{ id: string; importId: number }>> => {
    const known = journal.manual.lookup(id);
    if (!known.ok) return known;
    const checked = journal.manual.check([row], () => '');
    if (!checked.ok) return checked;
    const [entry] = checked.value;
    if (entry === undefined) throw new Error('journal worker: a checked row went missing');
    return writeTransaction(db, () => journal.manual.replace(id, entry), deadlineMs);
  },
  deleteTransaction: (deadlineMs: number, id: string) => writeTransaction(db, () => journal.manual.remove(id), deadlineMs),
};

export type JournalReads = typeof reads;
export type JournalWrites = typeof writes;

function isMethod<T extends object>(table: T, name: string): name is Extract<keyof T, string> {
  return Object.prototype.hasOwnProperty.call(table, name);
}

async function handle(message: CallMessage): Promise<unknown> {
  if (settings !== null && settings.reportingCurrency !== message.settings.reportingCurrency) journal.invalidate();
  settings = message.settings;
  callNowMs = message.nowMs;
  const { method, args } = message;
  if (message.deadlineMs !== undefined && isMethod(writes, method)) {
    const write = writes[method] as (deadlineMs: number, ...rest: unknown[]) => Promise<unknown>;
    return write(message.deadlineMs, ...args);
  }
  if (isMethod(reads, method)) {
    const read = reads[method] as (...rest: unknown[]) => unknown;
    return read(...args);
  }
  throw new Error(`journal worker: unknown method ${method}`);
}

port.on('message', (message: CallMessage) => {
  handle(message).then(
    (value) => port.postMessage({ type: 'reply', id: message.id, ok: true, value } satisfies ReplyMessage),
    (error: unknown) => port.postMessage({ type: 'reply', id: message.id, ok: false, error: toWire(error) } satisfies ReplyMessage),
  );
});
