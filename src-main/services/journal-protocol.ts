/**
 * Messages between the server (main thread) and the journal worker (journal-worker.ts). Domain errors are part of
 * the answers (results are plain data); thrown errors cross the thread boundary as data and are thrown again on the
 * main thread: a busy database (the server answers 503), a full disk (507), or anything else (a bug: 500, logged).
 */
import { ParseStopped, type StopReason } from '../checkpoint';
import { DatabaseBusyError, isDatabaseBusy, isStorageFull, StorageFullError } from '../db/writes';
import { JobStoppedError } from './worker-thread';
import type { JournalSettings } from './journal';

export interface WorkerInit {
  dbPath: string;
  nativeBinding?: string;
  /** A ceiling on the database's pages (tests simulate a full disk with it: db/open.ts, setMaxPages). */
  maxPages?: number;
}

export interface CallMessage {
  type: 'call';
  id: number;
  method: string;
  args: unknown[];
  settings: JournalSettings;
  /** The caller's clock at the call: the worker's "now" for this call (asOf, createdAt, today's year). */
  nowMs: number;
  /** A write: run in the worker's write lane, asking the main thread for a write turn when it is ready to write. */
  write?: boolean;
  /** A job's stop flag (worker-thread.ts): the parse looks at it; the worker says when it starts the job. */
  flag?: Int32Array;
}

/**
 * The main thread's answer to a write's `{type: 'turn', id}`: the turn is the write's until it replies (`deadlineMs`:
 * when to stop retrying a busy database, epoch ms, db/writes.ts), or refused (the job was stopped meanwhile).
 */
export type TurnMessage = { type: 'grant'; id: number; deadlineMs: number } | { type: 'deny'; id: number };

export type WireError = { kind: 'busy' } | { kind: 'full' } | { kind: 'stopped'; reason: StopReason } | { kind: 'error'; message: string; stack?: string };

export type ReplyMessage = { type: 'reply'; id: number; ok: true; value: unknown } | { type: 'reply'; id: number; ok: false; error: WireError };

export function toWire(error: unknown): WireError {
  if (isDatabaseBusy(error)) return { kind: 'busy' };
  if (isStorageFull(error)) return { kind: 'full' };
  if (error instanceof ParseStopped) return { kind: 'stopped', reason: error.reason };
  if (error instanceof Error) return { kind: 'error', message: error.message, ...(error.stack === undefined ? {} : { stack: error.stack }) };
  return { kind: 'error', message: String(error) };
}

/** An unexpected error of the worker, as an Error of this thread (the server answers 500 and logs it). */
export class JournalWorkerError extends Error {
  constructor(message: string, workerStack?: string) {
    super(message);
    this.name = 'JournalWorkerError';
    if (workerStack !== undefined) this.stack = `${this.name}: ${message}\n(in the journal worker) ${workerStack}`;
  }
}

export function fromWire(error: WireError): Error {
  switch (error.kind) {
    case 'busy':
      return new DatabaseBusyError();
    case 'full':
      return new StorageFullError();
    case 'stopped':
      // A job the worker stopped on its flag: its caller was answered when the flag was raised, so this is rarely seen.
      return new JobStoppedError(error.reason);
    case 'error':
      return new JournalWorkerError(error.message, error.stack);
  }
}
