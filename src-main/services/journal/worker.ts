/**
 * The journal worker thread: imports (parse and store), undo, re-dating and the ledger with the journal reads run
 * here, on the worker's own SQLite connection, so the server's event loop (Electron's main process) never stalls
 * on them. Results are small JSON objects; the 100k-transaction ledger never crosses the thread boundary. What it
 * answers is declared in handlers.ts; how it answers is the workers' protocol (worker-thread.ts).
 *
 * Started by client.ts: from the sources through ts-worker.mjs, from a bundle as its own entry file.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Clock } from '../../clock';
import { joinDatabase, shrinkMemory } from '../../db/open';
import { JournalService, type JournalSettings } from './service';
import { isTurnMessage, type JournalCallMessage, type TurnMessage, type WorkerInit } from './protocol';
import { ParseStopped } from '../../checkpoint';
import { collectGarbage } from '../worker-gc';
import { announceStart, isMethod, serveCalls, workerPort, yieldToEventLoop } from '../worker-thread';
import { journalLifecycle, journalReads, journalWrites, type JournalHost, type WriteCall } from './handlers';

const port = workerPort(parentPort, 'services/journal/client.ts');
const init = workerData as WorkerInit;

// The main thread opened, checked and migrated the file; this connection only joins it. It never waits on a lock
// synchronously either: a busy write is retried between other messages (retryWhileBusy).
const db = joinDatabase(init.dbPath, init.nativeBinding, init.maxPages);
yieldToEventLoop();
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

/**
 * The journal's build after a change, a piece at a time with the event loop's turns between (docs/journal.md §Reads
 * during a build): reads answer meanwhile from the previous version; a write waits for the build's end before it asks
 * for its turn, and starts the next build once it is done.
 */
let pumping = false;
const idleWaiters: Array<() => void> = [];

function pump(): void {
  if (pumping || !journal.startBuild()) return;
  pumping = true;
  const tick = () => {
    let more = false;
    try {
      more = journal.step();
    } catch {
      // A build that failed is dropped whole: the next read builds again in its own call, where a failure is its answer.
      journal.invalidate();
    }
    if (more) {
      setImmediate(tick);
      return;
    }
    pumping = false;
    for (const resolve of idleWaiters.splice(0)) resolve();
  };
  setImmediate(tick);
}

/** Resolves once no build is under way. */
function buildDone(): Promise<void> {
  pump();
  return pumping ? new Promise((resolve) => idleWaiters.push(resolve)) : Promise.resolve();
}

/** A read's answer with whether it came from the previous version (`building`): the answers that carry `demo`. */
function withBuilding(answer: unknown, building: boolean): unknown {
  if (typeof answer !== 'object' || answer === null) return answer;
  if ('ok' in answer && answer.ok === true && 'value' in answer && typeof answer.value === 'object' && answer.value !== null && 'demo' in answer.value) {
    return { ...answer, value: { ...answer.value, building } };
  }
  return 'demo' in answer ? { ...answer, building } : answer;
}

/** Reads that need no ledger (start-up's `ready` must not wait for a build). */
const NO_BUILD = new Set(['ready', 'invalidate', 'previewFormat']);
/** Reads of imports' reports: they wait for the build under way (without blocking the thread), as a write does. */
const REPORTS = new Set(['openedBeforeHistory', 'importById', 'listImports']);

const host: JournalHost = {
  journal,
  db,
  turn: async (call: WriteCall) => {
    await buildDone();
    return new Promise((resolve, reject) => {
      grants.set(call.id, (message) => {
        grants.delete(call.id);
        call.resume();
        // A build a read started meanwhile (another connection's change) ends before this write changes the journal.
        journal.finishBuild();
        if (message.type === 'grant') resolve(message.deadlineMs);
        else reject(new ParseStopped('cancelled'));
      });
      port.postMessage({ type: 'turn', id: call.id });
    });
  },
  started: (id) => announceStart(port, id),
  /**
   * After an import committed: its pages are clean (the page cache gives their memory back), its objects garbage;
   * collected once the answer is on its way.
   */
  shrink: () => {
    shrinkMemory(db);
    setImmediate(collectGarbage);
  },
};

function handle(message: JournalCallMessage): Promise<unknown> | unknown {
  const { method, args } = message;
  // The call's settings and "now" are taken when it runs: a write waiting in the lane runs with its own.
  const begin = () => {
    if (settings !== null && settings.reportingCurrency !== message.settings.reportingCurrency) journal.invalidate();
    settings = message.settings;
    callNowMs = message.nowMs;
  };
  if (message.write === true && isMethod(journalWrites, method)) {
    const write = journalWrites[method] as (host: JournalHost, call: WriteCall, ...rest: unknown[]) => Promise<unknown>;
    return inLane(() => {
      begin();
      // The answer waits for the build its change started (without blocking the thread: reads from other clients answer
      // the previous version meanwhile), so the writer's next read sees its own change.
      return write(host, { id: message.id, flag: message.flag, resume: begin }, ...args).then(
        async (answer) => {
          await buildDone();
          return answer;
        },
        (error: unknown) => {
          pump();
          throw error;
        },
      );
    });
  }
  const read = isMethod(journalReads, method) ? journalReads[method] : isMethod(journalLifecycle, method) ? journalLifecycle[method] : undefined;
  if (read === undefined) throw new Error(`journal worker: unknown method ${method}`);
  const run = () => (read as (host: JournalHost, ...rest: unknown[]) => unknown)(host, ...args);
  begin();
  if (isMethod(journalLifecycle, method) || NO_BUILD.has(method)) return run();
  // An import's report names the closes its own rows brought (openedBeforeHistory): read from the version that holds them.
  if (REPORTS.has(method)) {
    return buildDone().then(() => {
      begin();
      journal.finishBuild();
      return run();
    });
  }
  // A change since the last build starts the next; with no previous version to answer from, the read waits for it.
  pump();
  if (!journal.building) journal.finishBuild();
  const building = journal.building;
  return withBuilding(run(), building);
}

serveCalls<JournalCallMessage>(port, handle, (message) => {
  if (isTurnMessage(message)) grants.get(message.id)?.(message);
});
