import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** Young-generation cap of a worker thread's heap (see WorkerThread.start). */
export const WORKER_YOUNG_GENERATION_MB = 8;

/**
 * Where a worker's code is. From the TypeScript sources (vitest, tsx, the bench) the client is a `.ts` module and the
 * worker starts through ts-worker.mjs, which registers tsx in the new thread. From a bundle (out/node/cli.mjs by
 * scripts/build-node.mjs, out/main/*.js by electron-vite) the worker is an entry of its own beside it.
 */
export function workerScript(baseName: string, moduleUrl: string, fail: (message: string) => Error): { script: URL; entry?: string } {
  // Names in variables: bundlers must not treat these URLs as assets to copy.
  const tsBootstrap = './ts-worker.mjs';
  const tsEntry = `./${baseName}.ts`;
  if (moduleUrl.endsWith('.ts')) return { script: new URL(tsBootstrap, moduleUrl), entry: new URL(tsEntry, moduleUrl).href };
  const bundled = [`./${baseName}.mjs`, `./${baseName}.js`].map((name) => new URL(name, moduleUrl));
  const found = bundled.find((url) => existsSync(fileURLToPath(url)));
  if (found === undefined) throw fail(`The ${baseName.replace('-', ' ')} is missing: none of ${bundled.map((url) => fileURLToPath(url)).join(', ')} exists (rebuild the bundle).`);
  return { script: found };
}

/** What a reply settles: the call's value, or the error it ends with. */
export type Settled = { ok: true; value: unknown } | { ok: false; error: Error };

export interface WorkerThreadOptions<Reply extends { id: number }> {
  /** The worker's module name without extension (`journal-worker`), also the thread's name after `strikebook-`. */
  baseName: string;
  /** The module the worker is found beside. */
  moduleUrl: string;
  /** What the thread starts with (the entry of the sources is added to it). */
  workerData?: Record<string, unknown>;
  /** An error of the thread itself (missing, closed, stopped): the server answers 500 and logs it. */
  fail: (message: string) => Error;
  settle: (reply: Reply) => Settled;
  /** What a call in flight is told when the thread stops under it. */
  stopped: (cause: string) => string;
  /** A stop that nobody asked for (a crash, an out-of-memory), with the calls it failed. */
  onCrash?: (cause: string, failedCalls: number) => void;
  log?: (line: string) => void;
}

type Pending = { worker: Worker; resolve: (value: unknown) => void; reject: (error: Error) => void };

/**
 * One worker thread and its calls in flight: started on the first call; unref'd while idle (it never keeps the
 * process alive); when it dies, the calls it had fail and the next call starts another.
 */
export class WorkerThread<Reply extends { id: number }> {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  private lastError: Error | null = null;

  constructor(private readonly options: WorkerThreadOptions<Reply>) {}

  /** The running thread, if any (tests use it to simulate a crash). */
  get thread(): Worker | null {
    return this.worker;
  }

  private start(): Worker {
    const { baseName, moduleUrl, fail, log } = this.options;
    const { script, entry } = workerScript(baseName, moduleUrl, fail);
    const worker = new Worker(script, {
      workerData: { ...this.options.workerData, ...(entry === undefined ? {} : { entry }) },
      name: `strikebook-${baseName.replace(/-worker$/, '')}`,
      // Workers allocate in bursts (an import, a ledger rebuild, a 21k-contract chain); V8's default young generation
      // (up to 3 × 16 MB per isolate) stays committed after them and cost the server 14 MB of RSS, with no gain in speed.
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    worker.unref();
    this.lastError = null;
    worker.on('message', (reply: Reply) => this.settle(reply));
    worker.on('error', (error: Error) => {
      this.lastError = error;
      log?.(`[${baseName}] ${error.stack ?? error.message}`);
    });
    worker.on('exit', (code) => this.exited(worker, code));
    return worker;
  }

  private settle(reply: Reply): void {
    const call = this.pending.get(reply.id);
    if (call === undefined) return;
    this.pending.delete(reply.id);
    if ([...this.pending.values()].every((p) => p.worker !== call.worker)) call.worker.unref();
    const settled = this.options.settle(reply);
    if (settled.ok) call.resolve(settled.value);
    else call.reject(settled.error);
  }

  private exited(worker: Worker, code: number): void {
    if (this.worker === worker) this.worker = null;
    const cause = this.lastError?.message ?? `exit code ${code}`;
    const failed = [...this.pending].filter(([, call]) => call.worker === worker);
    for (const [id, call] of failed) {
      this.pending.delete(id);
      call.reject(this.options.fail(this.options.stopped(cause)));
    }
    if (!this.closed) this.options.onCrash?.(cause, failed.length);
  }

  /** Sends the message built for a new call id (moving `transfer`); resolves with what its reply settles. */
  send(message: (id: number) => unknown, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.closed) return Promise.reject(this.options.fail(`The ${this.options.baseName.replace('-', ' ')} is closed.`));
    let worker: Worker;
    try {
      worker = this.worker ?? (this.worker = this.start());
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : this.options.fail(String(error)));
    }
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { worker, resolve, reject });
      worker.ref();
      worker.postMessage(message(id), transfer);
    });
  }

  /** Ends the thread (after `beforeEnd`, when one is running); later calls fail. */
  async close(beforeEnd?: () => Promise<unknown>): Promise<void> {
    const worker = this.worker;
    if (worker !== null && !this.closed && beforeEnd !== undefined) {
      try {
        await beforeEnd();
      } catch {
        // A worker that cannot end cleanly is ended all the same; SQLite rolls back what it had open.
      }
    }
    this.closed = true;
    this.worker = null;
    if (worker !== null) await worker.terminate();
  }
}
