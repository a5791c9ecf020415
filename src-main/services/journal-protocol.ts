/**
 * Messages between the server (main thread) and the journal worker (journal-worker.ts). Domain errors are part of
 * the answers (results are plain data); thrown errors cross the thread boundary as data and are thrown again on the
 * main thread: a busy database (the server answers 503), a full disk (507), or anything else (a bug: 500, logged).
 */
import { DatabaseBusyError, isDatabaseBusy, isStorageFull, StorageFullError } from '../db/writes';
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
  /** Writes only: when to stop retrying a busy database (epoch ms, the time both threads share; db/writes.ts). */
  deadlineMs?: number;
}

export type WireError = { kind: 'busy' } | { kind: 'full' } | { kind: 'error'; message: string; stack?: string };

export type ReplyMessage = { type: 'reply'; id: number; ok: true; value: unknown } | { type: 'reply'; id: number; ok: false; error: WireError };

export function toWire(error: unknown): WireError {
  if (isDatabaseBusy(error)) return { kind: 'busy' };
  if (isStorageFull(error)) return { kind: 'full' };
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
    case 'error':
      return new JournalWorkerError(error.message, error.stack);
  }
}
