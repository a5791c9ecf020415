/**
 * Cooperative stopping of a parse (docs/decisions.md §Jobs). A job sent to a worker carries a flag in shared memory;
 * the main thread raises it when the client goes away, the server stops or the job's time limit passes, and the
 * parsers look at it as they read (every 1,024 records, lines or rows: one atomic load, nothing else). A raised flag
 * throws ParseStopped out of the parse, which unwinds with nothing written (the write comes after the parse). A
 * parse that does not come to a checkpoint in time is ended by terminating its worker (worker-thread.ts).
 */

/** What a raised flag says (0: go on). */
export const STOP_CODES = { cancelled: 1, timeout: 2, closing: 3 } as const;
export type StopReason = keyof typeof STOP_CODES;

export function stopReasonOf(code: number): StopReason {
  return code === STOP_CODES.timeout ? 'timeout' : code === STOP_CODES.closing ? 'closing' : 'cancelled';
}

/** Thrown out of a parse whose flag was raised. */
export class ParseStopped extends Error {
  constructor(readonly reason: StopReason) {
    super(`the parse was stopped (${reason})`);
    this.name = 'ParseStopped';
  }
}

/** The flag of the parse running on this thread, if any (a worker runs one parse at a time). */
let current: Int32Array | null = null;
let ticks = 0;

/** Throws ParseStopped when the running parse's flag is raised; looks at it once in 1,024 calls. */
export function checkpoint(): void {
  if (current === null) return;
  ticks += 1;
  if ((ticks & 1023) !== 0) return;
  const code = Atomics.load(current, 0);
  if (code !== 0) throw new ParseStopped(stopReasonOf(code));
}

/** Runs a parse under a job's flag (none: a parse that cannot be stopped, as in the CLI). */
export function underFlag<T>(flag: Int32Array | undefined, run: () => T): T {
  if (flag === undefined) return run();
  const code = Atomics.load(flag, 0);
  if (code !== 0) throw new ParseStopped(stopReasonOf(code));
  const before = current;
  current = flag;
  ticks = 0;
  try {
    return run();
  } finally {
    current = before;
  }
}
