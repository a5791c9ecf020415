/**
 * The journal worker thread: imports (parse and store), undo, re-dating and the ledger with the journal reads run
 * here, on the worker's own SQLite connection, so the server's event loop (Electron's main process) never stalls
 * on them. Results are small JSON objects; the 100k-transaction ledger never crosses the thread boundary.
 *
 * Started by journal-client.ts: from the sources through ts-worker.mjs, from a bundle as its own entry file.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { Clock } from '../clock';
import { joinDatabase, shrinkMemory } from '../db/open';
import { writeTransaction } from '../db/writes';
import { importText, JournalService, type BookRequest, type CampaignsRequest, type ImportRecord, type ImportRequest, type JournalSettings, type PerformanceRequest, type TransactionFilter } from './journal';
import { toWire, type CallMessage, type ReplyMessage, type TurnMessage, type WorkerInit } from './journal-protocol';
import { ParseStopped, underFlag } from '../checkpoint';
import { collectGarbage, COLLECT_AFTER_DECODE_BYTES } from './worker-gc';
import { ok, type Result } from './result';
import type { ManualAdded } from './manual-entries';
import type { ManualTransactionT } from '../../src-shared/api/manual-schemas';
import type { AnnotationInput, AnnotationResult, StatsRequest, TradesRequest } from './journal-trades';
import type { AnnotationKind } from '../db/annotations';

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
  trades: (query: TradesRequest) => journal.trades.trades(query),
  tradeStats: (query: StatsRequest) => journal.trades.stats(query),
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

/**
 * Writes run one at a time in the write lane, in the order they came. A write asks the main thread for one of the
 * process's write turns only when it is ready to write (an import after its parse), and waits for it without blocking
 * reads; the next write (or parse) starts only after it. So a turn is never held while this thread parses a file
 * (docs/decisions.md §Jobs: parse outside the write turn).
 */
let lane: Promise<unknown> = Promise.resolve();
const grants = new Map<number, (message: TurnMessage) => void>();

function inLane<T>(job: () => Promise<T>): Promise<T> {
  const run = lane.then(job, job);
  lane = run.catch(() => undefined);
  return run;
}

/** What a write knows of its call: its id (for its turn), its job flag, and how to make its settings current again. */
interface WriteCall {
  id: number;
  flag: Int32Array | undefined;
  /** Reads served while a write waits for its turn set their own settings and "now": the write's are put back. */
  resume: () => void;
}

/** A write turn for the call: resolves with its busy deadline (epoch ms); a refused turn stops the job. */
function turn(call: WriteCall): Promise<number> {
  return new Promise((resolve, reject) => {
    grants.set(call.id, (message) => {
      grants.delete(call.id);
      call.resume();
      if (message.type === 'grant') resolve(message.deadlineMs);
      else reject(new ParseStopped('cancelled'));
    });
    port?.postMessage({ type: 'turn', id: call.id });
  });
}

/** Writes: each one transaction in its write turn, begun once the write lock is ours (retried while another process holds it). */
const writes = {
  importFile: async (call: WriteCall, request: ImportRequest): Promise<Result<ImportRecord>> => {
    // Parsed under the job's flag, outside any write turn; a refused file never asks for one.
    const large = typeof request.text !== 'string' && request.text.byteLength >= COLLECT_AFTER_DECODE_BYTES;
    const parsed = underFlag(call.flag, () => {
      port?.postMessage({ type: 'started', id: call.id });
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
    const deadlineMs = await turn(call);
    return ok(await writeTransaction(db, () => journal.storeParsed(parsed.value), deadlineMs).finally(shrink));
  },
  store: async (call: WriteCall, ...args: Parameters<JournalService['store']>): Promise<ImportRecord> => writeTransaction(db, () => journal.store(...args), await turn(call)).finally(shrink),
  undoImport: async (call: WriteCall, importId: number) => writeTransaction(db, () => journal.undoImport(importId), await turn(call)),
  redate: async (call: WriteCall, timeZone: string) => writeTransaction(db, () => journal.redate(timeZone), await turn(call)),
  // Manual entries: checked before the turn (a refusal takes none), as a file is parsed before it is stored.
  addTransactions: async (call: WriteCall, rows: ManualTransactionT[]): Promise<Result<ManualAdded>> => {
    const checked = journal.manual.check(rows, (index) => `transactions.${index}.`);
    if (!checked.ok) return checked;
    return ok(await writeTransaction(db, () => journal.manual.add(checked.value), await turn(call)).finally(shrink));
  },
  replaceTransaction: async (call: WriteCall, id: string, row: ManualTransactionT): Promise<Result<{ id: string; importId: number }>> => {
    const known = journal.manual.lookup(id);
    if (!known.ok) return known;
    const checked = journal.manual.check([row], () => '');
    if (!checked.ok) return checked;
    const [entry] = checked.value;
    if (entry === undefined) throw new Error('journal worker: a checked row went missing');
    return writeTransaction(db, () => journal.manual.replace(id, entry), await turn(call));
  },
  deleteTransaction: async (call: WriteCall, id: string) => writeTransaction(db, () => journal.manual.remove(id), await turn(call)),
  // A note names a trade or campaign the journal has now (404 otherwise), and is kept by that stable id.
  annotate: async (call: WriteCall, kind: AnnotationKind, id: string, input: AnnotationInput): Promise<Result<AnnotationResult>> => {
    const known = journal.trades.resolve(kind, id);
    if (!known.ok) return known;
    return ok(await writeTransaction(db, () => journal.trades.annotate(kind, known.value, input), await turn(call)));
  },
};

export type JournalReads = typeof reads;
export type JournalWrites = typeof writes;

function isMethod<T extends object>(table: T, name: string): name is Extract<keyof T, string> {
  return Object.prototype.hasOwnProperty.call(table, name);
}

function handle(message: CallMessage): Promise<unknown> {
  const { method, args } = message;
  // The call's settings and "now" are taken when it runs: a write waiting in the lane runs with its own.
  const begin = () => {
    if (settings !== null && settings.reportingCurrency !== message.settings.reportingCurrency) journal.invalidate();
    settings = message.settings;
    callNowMs = message.nowMs;
  };
  if (message.write === true && isMethod(writes, method)) {
    const write = writes[method] as (call: WriteCall, ...rest: unknown[]) => Promise<unknown>;
    return inLane(() => {
      begin();
      return write({ id: message.id, flag: message.flag, resume: begin }, ...args);
    });
  }
  if (isMethod(reads, method)) {
    begin();
    const read = reads[method] as (...rest: unknown[]) => unknown;
    return Promise.resolve().then(() => read(...args));
  }
  return Promise.reject(new Error(`journal worker: unknown method ${method}`));
}

port.on('message', (message: CallMessage | TurnMessage) => {
  if (message.type === 'grant' || message.type === 'deny') {
    grants.get(message.id)?.(message);
    return;
  }
  handle(message).then(
    (value) => port.postMessage({ type: 'reply', id: message.id, ok: true, value } satisfies ReplyMessage),
    (error: unknown) => port.postMessage({ type: 'reply', id: message.id, ok: false, error: toWire(error) } satisfies ReplyMessage),
  );
});
