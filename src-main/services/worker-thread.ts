/**
 * The one protocol of the server's worker threads (journal, exposure, lake); the main thread's side of a worker is
 * worker-calls.ts.
 * A call is a `CallMessage`, its answer a `ReplyMessage`; domain errors are part of the answers (results are plain
 * data), and thrown errors cross the thread boundary as a `WireError` and are thrown again on the main thread: a busy
 * database (the server answers 503), a full disk (507), a stopped job, a damaged stored snapshot (409), or anything
 * else (a bug: 500, logged).
 */
import { existsSync } from 'node:fs';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { MessagePort } from 'node:worker_threads';
import { ParseStopped, type StopReason } from '../checkpoint';
import { SnapshotDamagedError } from '../db/snapshot-payload';
import { DatabaseBusyError, isDatabaseBusy, isStorageFull, StorageFullError } from '../db/writes';

/** A call to a worker: a method of its handler map with its arguments; `Extra` is what a worker needs beside them. */
export type CallMessage<Extra extends object = object> = {
  type: 'call';
  id: number;
  method: string;
  args: unknown[];
  /** A job's stop flag: the parse looks at it; the worker says when it starts the job (announceStart). */
  flag?: Int32Array;
} & Extra;

export type WireError =
  | { kind: 'busy' }
  | { kind: 'full' }
  | { kind: 'stopped'; reason: StopReason }
  | { kind: 'damaged'; snapshot: { id: number; symbol: string; quoteTime: string }; reason: string }
  | { kind: 'error'; message: string; stack?: string };

export type ReplyMessage = { type: 'reply'; id: number; ok: true; value: unknown } | { type: 'reply'; id: number; ok: false; error: WireError };

export function toWire(error: unknown): WireError {
  if (isDatabaseBusy(error)) return { kind: 'busy' };
  if (isStorageFull(error)) return { kind: 'full' };
  if (error instanceof ParseStopped) return { kind: 'stopped', reason: error.reason };
  if (error instanceof SnapshotDamagedError) return { kind: 'damaged', snapshot: error.snapshot, reason: error.reason };
  if (error instanceof Error) return { kind: 'error', message: error.message, ...(error.stack === undefined ? {} : { stack: error.stack }) };
  return { kind: 'error', message: String(error) };
}

/**
 * An unexpected error of a worker (a bug, or the thread's death) as an Error of this thread: the server answers 500
 * and logs it. Its name says which worker (`JournalWorkerError`, `ExposureWorkerError`, `LakeWorkerError`).
 */
export class WorkerError extends Error {
  constructor(
    readonly worker: string,
    message: string,
    workerStack?: string,
  ) {
    super(message);
    this.name = `${worker.charAt(0).toUpperCase()}${worker.slice(1)}WorkerError`;
    if (workerStack !== undefined) this.stack = `${this.name}: ${message}\n(in the ${worker} worker) ${workerStack}`;
  }
}

export function fromWire(error: WireError, worker: string): Error {
  switch (error.kind) {
    case 'busy':
      return new DatabaseBusyError();
    case 'full':
      return new StorageFullError();
    case 'stopped':
      // A job the worker stopped on its flag: its caller was answered when the flag was raised, so this is rarely seen.
      return new JobStoppedError(error.reason);
    case 'damaged':
      return new SnapshotDamagedError(error.snapshot, error.reason);
    case 'error':
      return new WorkerError(worker, error.message, error.stack);
  }
}

/** In a worker: its port (a module that is not started as a worker thread fails at once, naming who starts it). */
export function workerPort(port: MessagePort | null, startedBy: string): MessagePort {
  if (port === null) throw new Error(`this module runs as a worker thread (see ${startedBy})`);
  return port;
}

/**
 * In a worker: where the OS allows it per thread (Linux), the thread yields the CPU to the event loop's thread, so
 * that on a busy machine an import, a ledger rebuild or a 21k-contract chain does not delay the server's answers.
 */
export function yieldToEventLoop(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(10);
  } catch {
    // Not permitted: run at the normal priority.
  }
}

/**
 * In a worker: answers each call with what `handle` returns (or throws, as a WireError); other messages (a write
 * turn's grant) go to `other`.
 */
export function serveCalls<M extends CallMessage = CallMessage>(port: MessagePort, handle: (call: M) => unknown, other?: (message: unknown) => void): void {
  port.on('message', (message: unknown) => {
    if (!isCall<M>(message)) {
      other?.(message);
      return;
    }
    Promise.resolve()
      .then(() => handle(message))
      .then(
        (value) => port.postMessage({ type: 'reply', id: message.id, ok: true, value } satisfies ReplyMessage),
        (error: unknown) => port.postMessage({ type: 'reply', id: message.id, ok: false, error: toWire(error) } satisfies ReplyMessage),
      );
  });
}

function isCall<M extends CallMessage>(message: unknown): message is M {
  return typeof message === 'object' && message !== null && 'type' in message && message.type === 'call';
}

/** In a worker: tells the main thread that a job started (its time limit counts from now). */
export function announceStart(port: MessagePort, id: number): void {
  port.postMessage({ type: 'started', id });
}

/** A handler map's method by name, if it has one of its own. */
export function isMethod<T extends object>(table: T, name: string): name is Extract<keyof T, string> {
  return Object.prototype.hasOwnProperty.call(table, name);
}


/** Young-generation cap of a worker thread's heap (see WorkerThread.start). */
export const WORKER_YOUNG_GENERATION_MB = 8;

/**
 * How long a stopped job may take to reach a checkpoint (docs/decisions.md §Jobs) before its thread is terminated: the
 * parsers look at the flag every 1,024 records, so only a parse stuck between two looks waits this long.
 */
export const STOP_GRACE_MS = 750;

/**
 * Where a worker's code is. From the TypeScript sources (vitest, tsx, the bench) the worker's module is `source`
 * beside `moduleUrl` (the client's module) and starts through ts-worker.mjs (beside this module), which registers tsx
 * in the new thread. From a bundle (out/node/cli.mjs by scripts/build-node.mjs, out/main/*.js by electron-vite) the
 * worker is an entry of its own named `baseName`, beside the bundle.
 */
export function workerScript(baseName: string, moduleUrl: string, fail: (message: string) => Error, source = `./${baseName}.ts`): { script: URL; entry?: string } {
  // Names in variables: bundlers must not treat these URLs as assets to copy.
  const tsBootstrap = './ts-worker.mjs';
  if (moduleUrl.endsWith('.ts')) return { script: new URL(tsBootstrap, import.meta.url), entry: new URL(source, moduleUrl).href };
  const bundled = [`./${baseName}.mjs`, `./${baseName}.js`].map((name) => new URL(name, moduleUrl));
  const found = bundled.find((url) => existsSync(fileURLToPath(url)));
  if (found === undefined) throw fail(`The ${baseName.replace('-', ' ')} is missing: none of ${bundled.map((url) => fileURLToPath(url)).join(', ')} exists (rebuild the bundle).`);
  return { script: found };
}

/** What a reply settles: the call's value, or the error it ends with. */
export type Settled = { ok: true; value: unknown } | { ok: false; error: Error };

/** A worker on the protocol: its own failures are WorkerErrors named after `worker`, its replies settled by fromWire. */
export function onProtocol(worker: string): { fail: (message: string) => Error; settle: (reply: ReplyMessage) => Settled } {
  return {
    fail: (message) => new WorkerError(worker, message),
    settle: (reply) => (reply.ok ? { ok: true, value: reply.value } : { ok: false, error: fromWire(reply.error, worker) }),
  };
}

/**
 * A job stopped before its end (docs/decisions.md §Jobs): its client went away (`cancelled`), the server is stopping
 * (`closing`), it ran past its time limit (`timeout`: IMPORT_TIMEOUT), or it was lost with a worker terminated to
 * stop another one (`restarted`). Nothing of it was written.
 */
export class JobStoppedError extends Error {
  constructor(
    readonly reason: StopReason | 'restarted',
    readonly limitSeconds?: number,
  ) {
    super(
      reason === 'timeout'
        ? `The file took longer than ${limitSeconds ?? '?'} s to read and check (the setting importTimeoutSeconds); nothing was stored.`
        : reason === 'closing'
          ? 'The server is stopping; nothing of this file was stored. Send it again once the server is back.'
          : reason === 'restarted'
            ? 'This file waited behind one that had to be stopped; nothing of it was stored. Send it again.'
            : 'The request was given up by its client; nothing was stored.',
    );
    this.name = 'JobStoppedError';
  }
}

/** A job: a call the caller can stop, with a time limit counted from the moment the worker starts it. */
export interface JobOptions {
  /** The shared flag the worker's parse looks at (sent in the call's message). */
  flag: Int32Array;
  /** 0: no limit. */
  timeoutMs: number;
  /** Aborted when the client goes away. */
  signal?: AbortSignal;
}

/** A new job flag (shared memory, four bytes). */
export function jobFlag(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4));
}

/** A new job: its flag, its time limit (0: none) and the signal of its client. */
export function newJob(timeoutSeconds: number, signal?: AbortSignal): JobOptions {
  return { flag: jobFlag(), timeoutMs: timeoutSeconds * 1000, ...(signal === undefined ? {} : { signal }) };
}

/**
 * What of an upload is moved to a worker rather than copied: its buffer, when the view owns it whole (a large Buffer
 * does; a small one may share Node's pool, which must not be taken from this thread: those are copied).
 */
export function movable(file: string | Uint8Array): ArrayBuffer[] {
  return typeof file !== 'string' && file.buffer instanceof ArrayBuffer && file.byteOffset === 0 && file.byteLength === file.buffer.byteLength ? [file.buffer] : [];
}
