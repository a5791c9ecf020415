import type { FastifyReply } from 'fastify';
import { makeProblem, type Problem, type ProblemCode, type ProblemFieldError } from '../../src-shared/api/errors';
import type { SnapshotDamagedError } from '../db/snapshot-payload';
import { BUSY_RETRY_AFTER_SECONDS, DatabaseBusyError, isStorageFull, StorageFullError } from '../db/writes';
import { KeyFileError } from './key-file';
import { describeError, type DomainError, type FileProblem, type Result } from '../services/result';
import type { JobStoppedError } from '../services/worker-thread';

/** Thrown by handlers and the route kit's request rules; the one error handler turns it into a problem body. */
export class ApiError extends Error {
  readonly problem: Problem;
  readonly headers: Record<string, string>;

  constructor(code: ProblemCode, detail: string, errors?: ProblemFieldError[], options: { status?: number; headers?: Record<string, string> } = {}) {
    super(detail);
    this.name = 'ApiError';
    this.problem = makeProblem(code, detail, errors, options.status);
    this.headers = options.headers ?? {};
  }
}

export function sendProblem(reply: FastifyReply, problem: Problem, headers: Record<string, string> = {}): FastifyReply {
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  return reply.code(problem.status).type('application/problem+json').send(JSON.stringify(problem));
}

export function invalidParameter(param: string, message: string): ApiError {
  return new ApiError('INVALID_PARAMETER', `${param}: ${message}`, [{ param, message }]);
}

function fileProblemJson(problem: FileProblem): ProblemFieldError {
  const param = problem.param ?? 'body';
  return problem.line === null ? { param, message: problem.message } : { param, message: problem.message, line: problem.line };
}

/** The one mapping of domain errors to problem codes (the CLI has its own, to messages: cli-errors.ts). */
export function domainProblem(error: DomainError): ApiError {
  const detail = describeError(error);
  switch (error.kind) {
    case 'unknown-symbol':
      return new ApiError('UNKNOWN_SYMBOL', detail, [{ param: 'symbol', message: 'has no snapshot' }]);
    case 'unknown-expiration':
      return new ApiError('UNKNOWN_EXPIRATION', detail, error.unknown.map((expiration) => ({ param: error.param, message: `${expiration} is not available` })));
    case 'file-refused':
      // A file of another kind is still a well-formed request with content we cannot process: 422, not 415.
      return new ApiError(error.unsupported ? 'UNSUPPORTED_FORMAT' : 'IMPORT_FAILED', detail, error.problems.map(fileProblemJson), { status: 422 });
    case 'unknown-snapshot':
      return new ApiError('UNKNOWN_SNAPSHOT', detail, [{ param: error.at !== undefined ? 'at' : error.symbol === undefined ? 'id' : 'snapshot', message: 'names no snapshot of the symbol' }]);
    case 'not-found':
      return new ApiError('NOT_FOUND', detail);
    case 'invalid-request':
      return new ApiError('INVALID_PARAMETER', detail, error.problems.map(({ param, message }) => ({ param, message })));
    case 'conflict':
      return new ApiError('CONFLICT', detail, [{ param: error.param, message: detail }]);
    case 'imported-row':
      return new ApiError('IMPORTED_ROW', detail, [{ param: 'id', message: `is a row of import ${error.importId}: undo its import instead` }]);
    case 'duplicate-of-imported':
      return new ApiError('DUPLICATE_OF_IMPORTED', detail, [
        { param: error.param, message: error.imported === null ? 'duplicates imported rows' : `duplicates imported transaction ${error.imported.id} (${error.imported.tradeDate}, import ${error.imported.importId}${error.imported.filename === null ? '' : `, ${error.imported.filename}`})` },
      ]);
    case 'unknown-account':
      return new ApiError('UNKNOWN_ACCOUNT', detail, [{ param: 'accountId', message: 'names no account' }]);
    case 'refresh-refused':
      return new ApiError(error.reason === 'running' ? 'REFRESH_RUNNING' : 'SOURCE_NOT_CONFIGURED', detail);
    case 'stale-snapshot':
      return new ApiError('STALE_SNAPSHOT', detail, [{ param: 'snapshot', message: `is of ${error.date}, ${error.ageDays} trading days old (markMaxAgeDays ${error.maxAgeDays})` }]);
  }
}

/** A service's value, or its domain error thrown as the problem it maps to. */
export function unwrap<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw domainProblem(result.error);
}

/**
 * A job stopped before its end (docs/decisions.md §Jobs): 422 IMPORT_TIMEOUT past the time limit (the same file would
 * take as long again: no Retry-After); else 503 JOB_STOPPED with Retry-After (the server is stopping, or the job was
 * lost with a worker ended to stop another one). A client that went away gets nothing, whatever is sent.
 */
export function jobStoppedProblem(error: JobStoppedError): ApiError {
  if (error.reason === 'timeout') return new ApiError('IMPORT_TIMEOUT', error.message, [{ param: 'body', message: 'took too long to read and check' }]);
  return new ApiError('JOB_STOPPED', error.message, undefined, { headers: { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) } });
}

/** 409 SNAPSHOT_DAMAGED: a stored snapshot's contracts cannot be decoded; the detail names it and how to delete it. */
export function damagedProblem(error: SnapshotDamagedError): ApiError {
  return new ApiError('SNAPSHOT_DAMAGED', error.message, [{ param: 'snapshot', message: `snapshot ${error.snapshot.id} cannot be read: delete it with DELETE /v1/snapshots/${error.snapshot.id}` }]);
}

/** 503 DATABASE_BUSY with Retry-After: another process holds the write lock. */
export function busyProblem(): ApiError {
  return new ApiError('DATABASE_BUSY', new DatabaseBusyError().message, undefined, { headers: { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) } });
}

/**
 * 507 when the server could not store what a request needed: STORAGE_FULL for a full disk (SQLite's SQLITE_FULL, the
 * system's ENOSPC, on any write), KEY_FILE_UNWRITABLE when the key file cannot be written for another reason. Both
 * were rolled back; null for any other error.
 */
export function storageProblem(error: unknown): ApiError | null {
  if (isStorageFull(error)) {
    const detail = error instanceof StorageFullError ? error.message : new StorageFullError(error instanceof KeyFileError ? `the key file ${error.path} was not changed; the current key still works` : '').message;
    return new ApiError('STORAGE_FULL', detail);
  }
  if (error instanceof KeyFileError) return new ApiError('KEY_FILE_UNWRITABLE', `${error.message} Nothing was changed: the current key still works.`);
  return null;
}
