/**
 * What a service answers: a value, or a domain error saying what is wrong in the user's terms. Services know
 * nothing of HTTP: the server maps a DomainError to a problem code and status (server/problems.ts), the CLI to a
 * message and an exit status (cli-errors.ts). Results are plain data, so they cross the journal worker's thread
 * boundary as they are. A database locked by another process is not a domain outcome but a moment's condition:
 * it is thrown (DatabaseBusyError, db/writes.ts) and mapped by the same two mappers.
 */

/** A line of an uploaded file and what is wrong with it (null: the file as a whole). */
export interface FileProblem {
  line: number | null;
  message: string;
  /** The field or parameter concerned, when not the file's body (a chain's `quoteTime`). */
  param?: string;
}

export type DomainError =
  /** No stored chain snapshot for the symbol. */
  | { kind: 'unknown-symbol'; symbol: string; known: readonly string[] }
  /** Expirations asked for (`param`) that the symbol's snapshot does not have unexpired. */
  | { kind: 'unknown-expiration'; symbol: string; param: 'expiration' | 'expirations'; unknown: readonly string[]; available: readonly string[] }
  /**
   * A file that was read and refused, nothing stored: `unsupported` when it is not a file of the kind expected at
   * all (a picture, an unknown header), else a file with problems on its lines.
   */
  | { kind: 'file-refused'; unsupported: boolean; detail: string; problems: readonly FileProblem[] }
  /** A snapshot named by id (or by `at=`, none at or before it) that the symbol does not have. */
  | { kind: 'unknown-snapshot'; symbol?: string; id?: number; at?: string }
  /** A record named by id that does not exist. */
  | { kind: 'not-found'; what: 'import' | 'import format' | 'chain' | 'trade' | 'transaction' | 'export' | 'export folder' | 'corporate action' | 'backup'; id: number | string }
  /** A transaction that came from a file, named for an edit or a delete: only manual entries change one by one. */
  | { kind: 'imported-row'; id: string; importId: number; source: string }
  /**
   * A manual opening of a position that imported rows already open (manual-duplicates.ts): `param` names the row of the
   * request, `imported` the imported opening (null when none single row opened it), `held` the units they hold on its day.
   */
  | {
      kind: 'duplicate-of-imported';
      param: string;
      manual: { type: string; symbol: string; quantity: number; tradeDay: string };
      held: number;
      imported: { id: string; type: string; quantity: number; tradeDate: string; importId: number; broker: string; filename: string | null } | null;
    }
  /** A request whose fields break rules a schema cannot state (a mapping to a column its header lacks), each named. */
  | { kind: 'invalid-request'; what: string; problems: ReadonlyArray<{ param: string; message: string }> }
  /** A request that clashes with what is stored (a second format for one header, one format too many). */
  | { kind: 'conflict'; detail: string; param: string }
  /** An `accountId` that names no account of the journal. */
  | { kind: 'unknown-account'; accountId: string; known: readonly string[] }
  /** A chain refresh that cannot start: one is running, or the online source has no base URL. */
  | { kind: 'refresh-refused'; reason: 'running' | 'no-source'; detail: string }
  /** A snapshot too old to trade on (the roll assistant): quoted more than `maxAgeDays` New York trading days ago. */
  | { kind: 'stale-snapshot'; symbol: string; id: number; quoteTime: string; date: string; ageDays: number; maxAgeDays: number };

export type Result<T> = { ok: true; value: T } | { ok: false; error: DomainError };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function failure<T = never>(error: DomainError): Result<T> {
  return { ok: false, error };
}

/**
 * Problems listed with a refused file: enough to fix it, never the whole of a broken 100k-line file. The parsers keep
 * 1,000 and one entry counting the rest (docs/importers.md §Bounded), which this leaves whole.
 */
export const MAX_FILE_PROBLEMS = 1_001;

/** `N problem(s) (first: line L: message)` of a refused file; `total` counts the problems not listed too. */
export function problemsSummary(problems: readonly FileProblem[], total = problems.length): string {
  const first = problems[0];
  const count = `${total.toLocaleString('en-US')} problem${total === 1 ? '' : 's'}`;
  return first ? `${count} (first: ${first.line === null ? '' : `line ${first.line}: `}${first.message})` : count;
}

/** The sentence a person reads for a domain error (the problem's `detail`, the CLI's message). */
export function describeError(error: DomainError): string {
  switch (error.kind) {
    case 'unknown-symbol':
      return `No chain snapshot for ${error.symbol}. ${
        error.known.length > 0 ? `Known symbols: ${error.known.join(', ')}.` : 'Import a chain first (POST /v1/chains or `strikebook chain import`), or start with --demo.'
      }`;
    case 'unknown-expiration':
      return `${error.unknown.join(', ')} ${error.unknown.length === 1 ? 'is' : 'are'} not available for ${error.symbol}. Valid: ${error.available.join(', ')}.`;
    case 'file-refused':
      return error.detail;
    case 'unknown-snapshot':
      if (error.at !== undefined) return `${error.symbol ?? 'The symbol'} has no snapshot quoted at or before ${error.at}.`;
      return `No snapshot with id ${error.id ?? '?'}${error.symbol === undefined ? '' : ` for ${error.symbol}`}. GET /v1/snapshots?symbol= lists them.`;
    case 'not-found':
      return `No ${error.what} with id ${error.id}.`;
    case 'invalid-request':
      return `Invalid ${error.what}: ${error.problems.map((p) => `${p.param} ${p.message}`).join('; ')}.`;
    case 'conflict':
      return error.detail;
    case 'imported-row':
      return `Transaction ${error.id} was imported from a file (${error.source}, import ${error.importId}): only manual entries can be edited or deleted one by one. Undo its import instead (DELETE /v1/imports/${error.importId}), or enter a manual transaction beside it.`;
    case 'duplicate-of-imported': {
      const { manual, imported } = error;
      const what = `${manual.type} ${manual.quantity} ${manual.symbol} on ${manual.tradeDay}`;
      const file = imported === null ? '' : imported.filename !== null ? `"${imported.filename}" (${imported.broker})` : imported.broker;
      const row = imported === null ? 'the imported rows' : `imported transaction ${imported.id} (${imported.type} ${imported.quantity} on ${imported.tradeDate}, import ${imported.importId} of ${file})`;
      return `${error.param}: ${what} duplicates ${row}: they already hold ${error.held} of this position then, and no later close needs more. Nothing was stored. An opening position is entered only for what the files never show (the Positions page lists it under Needs attention); to change the imported row, undo its import.`;
    }
    case 'unknown-account':
      return `No account with id ${error.accountId}. ${error.known.length > 0 ? `Known accounts: ${error.known.join(', ')}.` : 'The journal has no account yet: import a broker file first.'}`;
    case 'refresh-refused':
      return error.detail;
    case 'stale-snapshot':
      return `The ${error.symbol} snapshot ${error.id} is of ${error.date} (${error.quoteTime}), ${error.ageDays} New York trading day${error.ageDays === 1 ? '' : 's'} old: older than markMaxAgeDays (${error.maxAgeDays}), its quotes are of another market. Import a newer chain of ${error.symbol} (POST /v1/chains) or name a newer snapshot.`;
  }
}
