/**
 * The CLI's mapping of what went wrong to what it prints and its exit status (the server's mapping, to problem codes,
 * is server/problems.ts).
 */
import { isDatabaseBusy, isStorageFull, StorageFullError } from './db/writes';
import { describeError, type DomainError } from './services/result';

/** How long a CLI write waits for another process (the running app) to release the database's write lock. */
export const CLI_BUSY_TIMEOUT_MS = 30_000;

export const BUSY_MESSAGE = `the database is busy: another program (the running app, a backup tool) held its write lock for ${CLI_BUSY_TIMEOUT_MS / 1000} s; nothing was changed, try again`;

/** Exit status of a command that failed on its input (a file refused) or on the database (busy). */
export const EXIT_FAILED = 1;

/** File problems the CLI prints under a refused file (the full list is in the API's answer). */
const PRINTED_PROBLEMS = 50;

export interface CliFailure {
  /** Lines for stderr: the message, then indented details. */
  lines: string[];
  exitCode: number;
}

export function domainFailure(error: DomainError): CliFailure {
  const lines = [describeError(error)];
  if (error.kind === 'file-refused') {
    for (const problem of error.problems.slice(0, PRINTED_PROBLEMS)) lines.push(`  ${problem.line === null ? '' : `line ${problem.line}: `}${problem.message}`);
  }
  return { lines, exitCode: EXIT_FAILED };
}

/** A thrown error met while handling one file: a busy database, a full disk, or anything else (its message). */
export function thrownFailure(error: unknown): CliFailure {
  if (isDatabaseBusy(error)) return { lines: [BUSY_MESSAGE], exitCode: EXIT_FAILED };
  if (isStorageFull(error)) return { lines: [error instanceof StorageFullError ? error.message : new StorageFullError().message], exitCode: EXIT_FAILED };
  return { lines: [error instanceof Error ? error.message : String(error)], exitCode: EXIT_FAILED };
}

/**
 * `serve` could not listen: one line saying which address and what to do, instead of Node's trace. Null for any other
 * error (printed as it is).
 */
export function listenFailure(error: unknown, host: string, port: number | undefined): CliFailure | null {
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  const failedPort = error instanceof Error && 'port' in error && typeof error.port === 'number' ? error.port : port;
  const where = failedPort === undefined ? host : `port ${failedPort} on ${host}`;
  const remedy = 'start on another port: --port 0 takes any free port, --port <number> a port of your choice';
  switch (code) {
    case 'EADDRINUSE':
      return { lines: [`${where} is already in use (another Strikebook, or another program, listens there); stop it, or ${remedy}.`], exitCode: EXIT_FAILED };
    case 'EACCES':
    case 'EPERM':
      return { lines: [`this user may not listen on ${where} (ports below 1024 need privileges); ${remedy}.`], exitCode: EXIT_FAILED };
    case 'EADDRNOTAVAIL':
      return { lines: [`${host} is not an address of this machine; leave --host out (127.0.0.1), or ${remedy}.`], exitCode: EXIT_FAILED };
    default:
      return null;
  }
}
