import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ExposureCall, ExposureReply, ExposureWorkerMethods } from './exposure-worker';
import { WORKER_YOUNG_GENERATION_MB } from './journal-client';

/** An unexpected error of the exposure worker (a bug, or the thread's death): the server answers 500 and logs it. */
export class ExposureWorkerError extends Error {
  constructor(message: string, workerStack?: string) {
    super(message);
    this.name = 'ExposureWorkerError';
    if (workerStack !== undefined) this.stack = `${this.name}: ${message}\n(in the exposure worker) ${workerStack}`;
  }
}

/** Where the worker's code is: from the sources through ts-worker.mjs, from a bundle its own entry beside this one. */
function workerScript(moduleUrl: string): { script: URL; entry?: string } {
  // Names in variables: bundlers must not treat these URLs as assets to copy.
  const tsBootstrap = './ts-worker.mjs';
  const tsEntry = './exposure-worker.ts';
  if (moduleUrl.endsWith('.ts')) return { script: new URL(tsBootstrap, moduleUrl), entry: new URL(tsEntry, moduleUrl).href };
  const bundled = ['./exposure-worker.mjs', './exposure-worker.js'].map((name) => new URL(name, moduleUrl));
  const found = bundled.find((url) => existsSync(fileURLToPath(url)));
  if (found === undefined) throw new ExposureWorkerError(`The exposure worker is missing: none of ${bundled.map((url) => fileURLToPath(url)).join(', ')} exists (rebuild the bundle).`);
  return { script: found };
}

type Pending = { worker: Worker; resolve: (value: unknown) => void; reject: (error: Error) => void };

/**
 * The service's side of the exposure worker: started on the first call, unref'd while idle (it never keeps the
 * process alive), started again after a crash (the calls it had fail with ExposureWorkerError).
 */
export class ExposureWorkerClient {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly log?: (line: string) => void,
    private readonly moduleUrl: string = import.meta.url,
  ) {}

  private start(): Worker {
    const { script, entry } = workerScript(this.moduleUrl);
    const worker = new Worker(script, {
      name: 'strikebook-exposure',
      ...(entry === undefined ? {} : { workerData: { entry } }),
      // Bursts of allocation (a 21k-contract chain parsed and prepared) leave V8's default young generation committed.
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    worker.unref();
    let lastError: Error | null = null;
    worker.on('message', (reply: ExposureReply) => {
      const call = this.pending.get(reply.id);
      if (call === undefined) return;
      this.pending.delete(reply.id);
      if ([...this.pending.values()].every((p) => p.worker !== worker)) worker.unref();
      if (reply.ok) call.resolve(reply.value);
      else call.reject(new ExposureWorkerError(reply.message, reply.stack));
    });
    worker.on('error', (error: Error) => {
      lastError = error;
      this.log?.(`[exposure worker] ${error.stack ?? error.message}`);
    });
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = null;
      for (const [id, call] of [...this.pending]) {
        if (call.worker !== worker) continue;
        this.pending.delete(id);
        call.reject(new ExposureWorkerError(`The exposure worker stopped (${lastError?.message ?? `exit code ${code}`}); it starts again with the next request.`));
      }
    });
    return worker;
  }

  call<K extends keyof ExposureWorkerMethods>(method: K, ...args: Parameters<ExposureWorkerMethods[K]>): Promise<ReturnType<ExposureWorkerMethods[K]>> {
    if (this.closed) return Promise.reject(new ExposureWorkerError('The exposure worker is closed.'));
    let worker: Worker;
    try {
      worker = this.worker ?? (this.worker = this.start());
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new ExposureWorkerError(String(error)));
    }
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { worker, resolve: resolve as (value: unknown) => void, reject });
      worker.ref();
      worker.postMessage({ id, method, args } satisfies ExposureCall);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    if (worker !== null) await worker.terminate();
  }
}
