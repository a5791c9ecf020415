/**
 * Messages between the server (main thread) and the journal worker (journal-worker.ts). Errors cross the thread
 * boundary as data and are thrown again on the main thread: a problem (4xx with its code), a busy database (503),
 * or anything else (a bug: 500, logged).
 */
import type { Problem } from '../../src-shared/api/errors';
import { isBusyError, databaseBusy } from '../db/writes';
import { ApiError } from '../server/problems';
import type { JournalSettings } from './journal';

export interface WorkerInit {
  dbPath: string;
  nativeBinding?: string;
}

export interface CallMessage {
  type: 'call';
  id: number;
  method: string;
  args: unknown[];
  settings: JournalSettings;
  /** Writes only: when (Date.now() clock) to stop retrying a busy database and answer 503. */
  deadlineMs?: number;
}

export type WireError = { kind: 'problem'; problem: Problem; headers: Record<string, string> } | { kind: 'busy' } | { kind: 'error'; message: string; stack?: string };

export type ReplyMessage = { type: 'reply'; id: number; ok: true; value: unknown } | { type: 'reply'; id: number; ok: false; error: WireError };

export function toWire(error: unknown): WireError {
  if (error instanceof ApiError) return { kind: 'problem', problem: error.problem, headers: error.headers };
  if (isBusyError(error)) return { kind: 'busy' };
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
    case 'problem': {
      const { problem } = error;
      return new ApiError(problem.code, problem.detail, problem.errors, { status: problem.status, headers: error.headers });
    }
    case 'busy':
      return databaseBusy();
    default:
      return new JournalWorkerError(error.message, error.stack);
  }
}
