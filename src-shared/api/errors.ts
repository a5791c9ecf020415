/** Stable problem codes of the /v1 API (docs/conventions.md §HTTP API) and their HTTP status. */
export const PROBLEM_STATUS = {
  /** Not a valid HTTP request or request target (bad percent-encoding, a fragment, a bare `*`). */
  MALFORMED_REQUEST: 400,
  INVALID_PARAMETER: 400,
  UNKNOWN_PARAMETER: 400,
  MISSING_PARAMETER: 400,
  RANGE_INCOMPLETE: 400,
  UNKNOWN_EXPIRATION: 400,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  UNKNOWN_SYMBOL: 404,
  UNKNOWN_ACCOUNT: 404,
  UNKNOWN_SNAPSHOT: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  /** A change to a transaction that came from a file: only manual entries are edited one by one; undo its import instead. */
  IMPORTED_ROW: 409,
  /** A manual opening of a position that imported rows already open (docs/journal.md, "Manual entries"): the problem names the imported row. */
  DUPLICATE_OF_IMPORTED: 409,
  /** POST /v1/chains/refresh while a pass runs: GET /v1/chains/refresh follows it. */
  REFRESH_RUNNING: 409,
  /** A chain refresh without the online source's base URL (Settings). */
  SOURCE_NOT_CONFIGURED: 409,
  /** A stored snapshot whose contracts cannot be decoded: the detail names it and how to delete it. */
  SNAPSHOT_DAMAGED: 409,
  /** A chain snapshot older than markMaxAgeDays named for a trading decision (the roll assistant): the problem names its date. */
  STALE_SNAPSHOT: 409,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_FORMAT: 415,
  /** An `Expect` other than 100-continue. */
  EXPECTATION_FAILED: 417,
  MISDIRECTED: 421,
  IMPORT_FAILED: 422,
  /** A file took longer to read and check than the setting importTimeoutSeconds (docs/decisions.md §Jobs). */
  IMPORT_TIMEOUT: 422,
  RATE_LIMITED: 429,
  /** A key already holds its cap of event streams open at once (Retry-After). */
  TOO_MANY_STREAMS: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  DATABASE_BUSY: 503,
  /** The server already serves its cap of connections (Retry-After). */
  TOO_MANY_CONNECTIONS: 503,
  /** The disk (or the database's room on it) is full: nothing of the request was stored. */
  STORAGE_FULL: 507,
  /** The api-key file could not be written (permissions, a read-only disk, something in its place): nothing changed. */
  KEY_FILE_UNWRITABLE: 507,
  /** A job the server stopped before its end (it is stopping, or the job waited behind one it had to end); nothing written. */
  JOB_STOPPED: 503,
} as const;

export type ProblemCode = keyof typeof PROBLEM_STATUS;

export const PROBLEM_TITLES: Record<ProblemCode, string> = {
  MALFORMED_REQUEST: 'Malformed request',
  INVALID_PARAMETER: 'Invalid parameter',
  UNKNOWN_PARAMETER: 'Unknown parameter',
  MISSING_PARAMETER: 'Missing parameter',
  RANGE_INCOMPLETE: 'Incomplete date range',
  UNKNOWN_EXPIRATION: 'Unknown expiration',
  UNAUTHORIZED: 'Unauthorized',
  NOT_FOUND: 'Not found',
  UNKNOWN_SYMBOL: 'Unknown symbol',
  UNKNOWN_ACCOUNT: 'Unknown account',
  UNKNOWN_SNAPSHOT: 'Unknown snapshot',
  METHOD_NOT_ALLOWED: 'Method not allowed',
  REQUEST_TIMEOUT: 'Request timeout',
  CONFLICT: 'Conflict',
  IMPORTED_ROW: 'Imported row',
  DUPLICATE_OF_IMPORTED: 'Duplicate of an imported row',
  REFRESH_RUNNING: 'Refresh running',
  SOURCE_NOT_CONFIGURED: 'Online source not configured',
  SNAPSHOT_DAMAGED: 'Snapshot damaged',
  STALE_SNAPSHOT: 'Stale snapshot',
  PAYLOAD_TOO_LARGE: 'Payload too large',
  URI_TOO_LONG: 'URI too long',
  UNSUPPORTED_FORMAT: 'Unsupported format',
  EXPECTATION_FAILED: 'Expectation failed',
  MISDIRECTED: 'Misdirected request',
  IMPORT_FAILED: 'Import failed',
  IMPORT_TIMEOUT: 'Import took too long',
  RATE_LIMITED: 'Too many requests',
  TOO_MANY_STREAMS: 'Too many event streams',
  HEADERS_TOO_LARGE: 'Request header fields too large',
  INTERNAL: 'Internal error',
  DATABASE_BUSY: 'Database busy',
  TOO_MANY_CONNECTIONS: 'Too many connections',
  STORAGE_FULL: 'Storage full',
  KEY_FILE_UNWRITABLE: 'Key file not writable',
  JOB_STOPPED: 'Job stopped',
};

export interface ProblemFieldError {
  param: string;
  message: string;
  line?: number;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  errors?: ProblemFieldError[];
}

export function problemType(code: ProblemCode): string {
  return `urn:strikebook:problem:${code.toLowerCase().replace(/_/g, '-')}`;
}

export function makeProblem(code: ProblemCode, detail: string, errors?: ProblemFieldError[], status?: number): Problem {
  const problem: Problem = {
    type: problemType(code),
    title: PROBLEM_TITLES[code],
    status: status ?? PROBLEM_STATUS[code],
    detail,
    code,
  };
  if (errors && errors.length > 0) problem.errors = errors;
  return problem;
}
