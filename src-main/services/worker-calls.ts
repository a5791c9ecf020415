/**
 * The main thread's side of one worker thread (journal, exposure, lake): its calls in flight, jobs that can be stopped, and
 * the write turns a worker asks for. The messages are the workers' protocol (worker-thread.ts).
 */
import { Worker } from 'node:worker_threads';
import { STOP_CODES, type StopReason } from '../checkpoint';
import { collectGarbage, COLLECT_AFTER_DECODE_BYTES } from './worker-gc';
import { JobStoppedError, STOP_GRACE_MS, WORKER_YOUNG_GENERATION_MB, workerScript, type JobOptions, type ReplyMessage, type Settled } from './worker-thread';

export interface WorkerThreadOptions<Reply extends { id: number }> {
  /** The worker's bundle entry (`journal-worker`); the thread is named after it (`strikebook-journal`). */
  baseName: string;
  /** The module the worker is found beside. */
  moduleUrl: string;
  /** The worker's source module beside moduleUrl (default `./<baseName>.ts`; see workerScript). */
  source?: string;
  /** What the thread starts with (the entry of the sources is added to it). */
  workerData?: Record<string, unknown>;
  /** An error of the thread itself (missing, closed, stopped): the server answers 500 and logs it. */
  fail: (message: string) => Error;
  settle: (reply: Reply) => Settled;
  /** What a call in flight is told when the thread stops under it. */
  stopped: (cause: string) => string;
  /** A stop that nobody asked for (a crash, an out-of-memory), with the calls it failed. */
  onCrash?: (cause: string, failedCalls: number) => void;
  /** A call asks for one of the process's write turns (the journal worker's writes; journal-client.ts). */
  onTurn?: (id: number) => void;
  /** A message of the worker that is neither a reply nor a notice of the protocol (the lake worker's progress). */
  onOther?: (message: unknown) => void;
  log?: (line: string) => void;
  /**
   * A worker that keeps no state of its own (the exposure workers) is ended after this long without a call, and started
   * again by the next one: an idle isolate costs the server tens of MB of RSS (docs/decisions.md, server.rss_mb).
   * Unset: the thread runs until it is closed (the journal worker keeps its index and ledger).
   */
  idleStopMs?: number;
}

type Pending = {
  worker: Worker;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  build: (id: number) => unknown;
  /** Moved to the worker: a call that carried some cannot be sent again. */
  moved: boolean;
  /** A read: sent again to a new thread when its thread was terminated to stop another call. */
  retry: boolean;
  job?: JobOptions;
  /** Set when the caller was answered before the worker (a stopped job): the worker's reply is dropped. */
  answered: boolean;
  /** The worker said it started the job. */
  started: boolean;
  /** Where the call is with a write turn (journal writes): asked for and not yet granted, or granted. */
  turn: 'none' | 'asked' | 'granted';
  timers: Array<ReturnType<typeof setTimeout>>;
  cleanup: Array<() => void>;
  /** Resolves when the call leaves the worker (its reply, or the thread's end), whatever the caller was told. */
  done: () => void;
  finished: Promise<void>;
};

/** Messages of a worker that are no reply. */
type Notice = { type: 'started'; id: number } | { type: 'turn'; id: number };

function isNotice(message: unknown): message is Notice {
  return typeof message === 'object' && message !== null && 'type' in message && (message.type === 'started' || message.type === 'turn');
}

/** A reply is whatever answers a call by its id (the type parameter `Reply extends { id: number }`), whatever else it carries. */
function isReply(message: unknown): boolean {
  return typeof message === 'object' && message !== null && 'id' in message && typeof message.id === 'number';
}

/**
 * One worker thread and its calls in flight: started on the first call; unref'd while idle (it never keeps the
 * process alive); when it dies, the calls it had fail and the next call starts another. Jobs (calls with a flag) can
 * be stopped: the flag is raised, the caller is answered at once, and a job still running STOP_GRACE_MS later is
 * ended with its thread (reads in flight are sent again to the next thread).
 */
export class WorkerThread<Reply extends { id: number } = ReplyMessage> {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  private lastError: Error | null = null;
  /** Threads terminated on purpose (to end a stuck job): their calls are sent again or failed as `restarted`. */
  private readonly terminated = new WeakSet<Worker>();
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  /** Threads ended for being idle (tests: the next call starts another). */
  idleStops = 0;

  constructor(private readonly options: WorkerThreadOptions<Reply>) {}

  /** The running thread, if any (tests use it to simulate a crash). */
  get thread(): Worker | null {
    return this.worker;
  }

  private start(): Worker {
    const { baseName, moduleUrl, fail, log, source } = this.options;
    const { script, entry } = workerScript(baseName, moduleUrl, fail, source);
    const worker = new Worker(script, {
      workerData: { ...this.options.workerData, ...(entry === undefined ? {} : { entry }) },
      name: `strikebook-${baseName.replace(/-worker$/, '')}`,
      // Workers allocate in bursts (an import, a ledger rebuild, a 21k-contract chain); V8's default young generation
      // (up to 3 × 16 MB per isolate) stays committed after them and cost the server 14 MB of RSS, with no gain in speed.
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    worker.unref();
    this.lastError = null;
    worker.on('message', (message: Reply | Notice) => {
      if (isNotice(message)) this.notice(message);
      else if (isReply(message)) this.settle(message);
      else this.options.onOther?.(message);
    });
    worker.on('error', (error: Error) => {
      this.lastError = error;
      log?.(`[${baseName}] ${error.stack ?? error.message}`);
    });
    worker.on('exit', (code) => this.exited(worker, code));
    return worker;
  }

  private notice(message: Notice): void {
    const call = this.pending.get(message.id);
    if (call === undefined) return;
    if (message.type === 'turn') {
      call.turn = 'asked';
      this.options.onTurn?.(message.id);
      return;
    }
    call.started = true;
    // The time limit counts from the start: a job queued behind others is not charged for their time.
    if (call.job !== undefined && call.job.timeoutMs > 0 && !call.answered) call.timers.push(setTimeout(() => this.stop(message.id, 'timeout'), call.job.timeoutMs));
  }

  /** Removes a call that left its worker; the turn it may hold is released. */
  private finish(id: number, call: Pending): void {
    this.pending.delete(id);
    for (const timer of call.timers) clearTimeout(timer);
    for (const undo of call.cleanup) undo();
    call.done();
    if ([...this.pending.values()].every((p) => p.worker !== call.worker)) {
      call.worker.unref();
      if (call.worker === this.worker) this.armIdleStop(call.worker);
    }
  }

  /** Ends `worker` once it has had no call for idleStopMs (a call sent meanwhile disarms it). */
  private armIdleStop(worker: Worker): void {
    const idleMs = this.options.idleStopMs;
    if (idleMs === undefined || this.closed) return;
    this.disarmIdleStop();
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.closed || this.worker !== worker || this.pending.size > 0) return;
      // Ended on purpose: not a crash; the next call starts a new thread.
      this.terminated.add(worker);
      this.worker = null;
      this.idleStops += 1;
      void worker.terminate();
    }, idleMs);
    this.idleTimer.unref();
  }

  private disarmIdleStop(): void {
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private settle(reply: Reply): void {
    const call = this.pending.get(reply.id);
    if (call === undefined) return;
    this.finish(reply.id, call);
    if (call.answered) return;
    const settled = this.options.settle(reply);
    if (settled.ok) call.resolve(settled.value);
    else call.reject(settled.error);
  }

  private exited(worker: Worker, code: number): void {
    if (this.worker === worker) this.worker = null;
    const onPurpose = this.terminated.has(worker);
    const cause = this.lastError?.message ?? `exit code ${code}`;
    const calls = [...this.pending].filter(([, call]) => call.worker === worker);
    let failed = 0;
    for (const [id, call] of calls) {
      this.finish(id, call);
      if (call.answered) continue;
      if (onPurpose && !this.closed && call.retry && !call.moved) {
        // A read lost with a thread ended on purpose: asked again of the next thread, unseen by its caller.
        this.send(call.build, [], { retry: true }).then(call.resolve, call.reject);
        continue;
      }
      failed += 1;
      call.reject(onPurpose ? new JobStoppedError(this.closed ? 'closing' : 'restarted') : this.options.fail(this.options.stopped(cause)));
    }
    if (!this.closed && !onPurpose) this.options.onCrash?.(cause, failed);
  }

  /**
   * Sends the message built for a new call id (moving `transfer`); resolves with what its reply settles. `retry`: a
   * read, asked again of a new thread if its thread is ended to stop a job. `job`: a call that can be stopped.
   */
  send(message: (id: number) => unknown, transfer: ArrayBuffer[] = [], options: { retry?: boolean; job?: JobOptions } = {}): Promise<unknown> {
    if (this.closed) return Promise.reject(this.options.fail(`The ${this.options.baseName.replace('-', ' ')} is closed.`));
    let worker: Worker;
    try {
      worker = this.worker ?? (this.worker = this.start());
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : this.options.fail(String(error)));
    }
    this.disarmIdleStop();
    const id = this.nextId;
    this.nextId += 1;
    const { job } = options;
    if (job?.signal?.aborted) return Promise.reject(new JobStoppedError('cancelled'));
    return new Promise((resolve, reject) => {
      let done = () => undefined as void;
      const finished = new Promise<void>((resolveDone) => {
        done = resolveDone;
      });
      const call: Pending = { worker, resolve, reject, build: message, moved: transfer.length > 0, retry: options.retry === true, answered: false, started: false, turn: 'none', timers: [], cleanup: [], done, finished };
      if (job !== undefined) call.job = job;
      this.pending.set(id, call);
      if (job?.signal !== undefined) {
        const signal = job.signal;
        const onAbort = () => this.stop(id, 'cancelled');
        signal.addEventListener('abort', onAbort, { once: true });
        call.cleanup.push(() => signal.removeEventListener('abort', onAbort));
      }
      worker.ref();
      worker.postMessage(message(id), transfer);
      // A large upload's bytes now belong to the worker; the socket chunks they were gathered from are garbage that
      // this thread's V8 would keep for a while (tens of MB of external memory): collected now, once the request is
      // on its way (a few ms, once per upload of this size; docs/importers.md §Bounded).
      if (transfer.reduce((bytes, buffer) => bytes + buffer.byteLength, 0) >= COLLECT_AFTER_DECODE_BYTES) setImmediate(collectGarbage);
    });
  }

  /** Grants a write turn asked for by call `id` (it holds it until it leaves the worker: see left). */
  grant(id: number, deadlineMs: number): void {
    const call = this.pending.get(id);
    if (call === undefined) return;
    call.turn = 'granted';
    call.worker.postMessage({ type: 'grant', id, deadlineMs });
  }

  /** Refuses a write turn (the job was stopped): the worker drops the job and answers. */
  deny(id: number): void {
    this.pending.get(id)?.worker.postMessage({ type: 'deny', id });
  }

  /** Whether a call is still in its worker (not replied, the thread alive). */
  inFlight(id: number): boolean {
    return this.pending.has(id);
  }

  /** Whether the caller of a call was answered already (a stopped job whose worker has not let go yet). */
  stopped(id: number): boolean {
    return this.pending.get(id)?.answered ?? true;
  }

  /** Resolves when a call leaves its worker (reply or thread end). */
  left(id: number): Promise<void> {
    return this.pending.get(id)?.finished ?? Promise.resolve();
  }

  /**
   * Stops a job: raises its flag (its parse throws at the next checkpoint), answers its caller now, and ends its thread
   * if it is still running STOP_GRACE_MS later. A job not yet started is skipped by the worker when it gets to it; one
   * waiting for its write turn is refused it; one writing in its turn is left to finish unless the server is closing.
   */
  stop(id: number, reason: StopReason): void {
    const call = this.pending.get(id);
    if (call === undefined || call.answered || call.job === undefined) return;
    // A job writing in its turn finishes its transaction (a bounded write, not a parse); only a closing server ends it.
    if (call.turn === 'granted' && reason !== 'closing') return;
    Atomics.store(call.job.flag, 0, STOP_CODES[reason]);
    // A job waiting for its write turn is not stuck: refused now, it lets go of the worker at once.
    if (call.turn === 'asked') this.deny(id);
    call.answered = true;
    call.reject(new JobStoppedError(reason, call.job.timeoutMs > 0 ? Math.round(call.job.timeoutMs / 1000) : undefined));
    call.timers.push(
      setTimeout(() => {
        // Only a job the worker is running holds it up; one still queued costs nothing and will be skipped.
        if (this.pending.get(id) === call && call.started) this.terminate(call.worker);
      }, STOP_GRACE_MS),
    );
  }

  /** Stops every job in flight (the server is closing): their callers are answered now, their threads ended if stuck. */
  stopAll(reason: StopReason): void {
    for (const id of [...this.pending.keys()]) this.stop(id, reason);
  }

  /** Ends a thread on purpose; its other calls are sent again (reads) or failed as `restarted` (exited). */
  private terminate(worker: Worker): void {
    this.terminated.add(worker);
    this.options.log?.(`[${this.options.baseName}] a stopped job did not end within ${STOP_GRACE_MS} ms: the thread is terminated`);
    void worker.terminate();
  }

  /**
   * Ends the thread (after `beforeEnd`, when one is running, given at most `graceMs`); later calls fail. Jobs in flight
   * are stopped first (`closing`), so a parse in progress does not hold the close up.
   */
  async close(beforeEnd?: () => Promise<unknown>, graceMs = STOP_GRACE_MS): Promise<void> {
    this.disarmIdleStop();
    this.stopAll('closing');
    const worker = this.worker;
    if (worker !== null && !this.closed && beforeEnd !== undefined) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        await Promise.race([beforeEnd(), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      } catch {
        // A worker that cannot end cleanly is ended all the same; SQLite rolls back what it had open.
      } finally {
        clearTimeout(timer);
      }
    }
    this.closed = true;
    this.worker = null;
    if (worker !== null) {
      this.terminated.add(worker);
      await worker.terminate();
    }
  }
}
