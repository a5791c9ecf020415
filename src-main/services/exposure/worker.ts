/**
 * The exposure worker thread: the CPU-heavy part of storing a chain file (parse, prepare, pack, events, the default
 * history point) and the history points of other scopes run here, so that the server's event loop (Electron's main
 * process) never stalls on a 21k-contract chain. No database: what the work needs of it comes with the call, and
 * the answers (plans, points) go back to the exposure service, which stores them in its write turn
 * (docs/exposure.md, "Off the event loop").
 *
 * Started by worker-client.ts: from the sources through ts-worker.mjs, from a bundle as its own entry file.
 */
import { parentPort } from 'node:worker_threads';
import type { ConfirmedState, GexHistoryPoint, PreparedChain } from '../../../src-shared/exposure/index';
import { packedHistoryPoint, planChainFile, preparePacked, type ChainFileOptions, type GexScopeQuery, type IngestPlan, type PackedSnapshot, type TextBox } from './compute';
import type { Result } from '../result';
import type { ChainFormat } from '../../chains/index';
import { peekChainFile, type ChainFileDate } from './peek';
import type { LakeFileDate } from './lake-plan';
import { underFlag } from '../../checkpoint';
import { collectGarbage, COLLECT_AFTER_DECODE_BYTES } from '../worker-gc';
import { announceStart, isMethod, serveCalls, workerPort, yieldToEventLoop, type CallMessage } from '../worker-thread';

const port = workerPort(parentPort, 'services/exposure/worker-client.ts');
// As the journal worker: on a busy machine the event loop's thread gets the CPU first.
yieldToEventLoop();

/** What the service knows of the database when it asks for a plan (IngestBasis as data). */
export interface BasisData {
  rate: number;
  states: Array<{ ticker: string; expiration: string; state: ConfirmedState }>;
  latest: Record<string, string>;
}

/** The text of an upload (its UTF-8 bytes decoded here, off the event loop). */
function decoded(file: string | Uint8Array): string {
  if (typeof file === 'string') return file;
  return Buffer.from(file.buffer, file.byteOffset, file.byteLength).toString('utf8');
}

const methods = {
  /**
   * A chain file (its text, or its UTF-8 bytes moved here undecoded) parsed, prepared and evaluated: a job, stoppable.
   * serveCalls hands it over boxed (TextBox), so that the text is let go once parsed.
   */
  planChainFile: (file: string | Uint8Array | TextBox, options: ChainFileOptions, basis: BasisData): Result<IngestPlan> => {
    const large = typeof file !== 'string' && !(file instanceof Uint8Array) && file.text.length >= COLLECT_AFTER_DECODE_BYTES;
    return planChainFile(
      file instanceof Uint8Array ? decoded(file) : file,
      options,
      {
        rate: basis.rate,
        states: (ticker) => new Map(basis.states.filter((s) => s.ticker === ticker).map((s) => [s.expiration, s.state])),
        latestQuoteTime: (ticker) => basis.latest[ticker] ?? null,
      },
      // A large file's parse leaves its lines, cells and pieces behind: collected before the plan adds its own peak.
      { defaultPoint: true, ...(large ? { afterParse: collectGarbage } : {}) },
    );
  },
  /** A chain file's symbol and quote time (a backfill dates its files first, to store them oldest first): peek.ts. */
  peekChainFile: (file: string | Uint8Array, options: { format?: ChainFormat }): Result<ChainFileDate> => peekChainFile(decoded(file), options),
  /**
   * A backfill's lake file dated by its footer (lake-plan.ts, loaded at its first use: the Parquet reader is no part of
   * the worker's start, which every server pays).
   */
  peekLakeFile: async (file: Uint8Array): Promise<Result<LakeFileDate>> => (await import('./lake-plan')).peekLakeFile(file),
  /** A backfill's lake file read back and planned, a job: `flag` is the job's own, handed over by the call's handler below. */
  planLakeFile: async (file: Uint8Array, basis: BasisData, flag?: Int32Array): Promise<Result<IngestPlan>> =>
    (await import('./lake-plan')).planLakeFile(
      file,
      { rate: basis.rate, states: (ticker) => new Map(basis.states.filter((s) => s.ticker === ticker).map((s) => [s.expiration, s.state])), latestQuoteTime: (ticker) => basis.latest[ticker] ?? null },
      flag,
    ),
  /** A stored snapshot prepared for the engine (the service keeps it; typed arrays and plain objects clone as they are). */
  prepare: (snapshot: PackedSnapshot, rate: number): PreparedChain => preparePacked(snapshot, rate),
  /** Points of stored snapshots, each from the scope's expirations alone (packedHistoryPoint): no full preparation. */
  historyPoints: (snapshots: PackedSnapshot[], scope: GexScopeQuery, rate: number): Array<{ id: number; point: GexHistoryPoint }> =>
    snapshots.map((snapshot) => ({ id: snapshot.id, point: packedHistoryPoint(snapshot, scope, rate) })),
};

export type ExposureWorkerMethods = typeof methods;

serveCalls(port, (message: CallMessage) => {
  if (!isMethod(methods, message.method)) throw new Error(`exposure worker: unknown method ${message.method}`);
  const method = methods[message.method] as (...args: unknown[]) => unknown;
  let large = false;
  try {
    // An upload's bytes are decoded once and let go: a 50 MB chain is not held twice while it is parsed.
    const upload = message.method === 'planChainFile' ? message.args[0] : undefined;
    if (upload instanceof Uint8Array || typeof upload === 'string') {
      // Boxed: the box is the text's only reference, emptied once the file is parsed (compute.ts, planChainFile).
      message.args[0] = { text: decoded(upload) } satisfies TextBox;
      large = (typeof upload === 'string' ? upload.length : upload.byteLength) >= COLLECT_AFTER_DECODE_BYTES;
      if (large && upload instanceof Uint8Array) collectGarbage();
    }
    return underFlag(message.flag, () => {
      if (message.flag !== undefined) announceStart(port, message.id);
      // The lake's rows are decoded asynchronously (hyparquet): its plan takes the flag itself, past the first await.
      return method(...message.args, ...(message.method === 'planLakeFile' ? [message.flag] : []));
    });
  } finally {
    // Its text (and, refused, everything read from it) is garbage once answered: collected then, not at the next
    // upload, whose peak it would otherwise add to (docs/importers.md §Bounded).
    if (large) setImmediate(collectGarbage);
  }
});
