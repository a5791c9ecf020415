/**
 * The exposure worker thread: the CPU-heavy part of storing a chain file (parse, prepare, pack, events, the default
 * history point) and the history points of other scopes run here, so that the server's event loop (Electron's main
 * process) never stalls on a 21k-contract chain. No database: what the work needs of it comes with the call, and
 * the answers (plans, points) go back to the exposure service, which stores them in its write turn
 * (docs/exposure.md, "Off the event loop").
 *
 * Started by exposure-worker-client.ts: from the sources through ts-worker.mjs, from a bundle as its own entry file.
 */
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { ConfirmedState, GexHistoryPoint, PreparedChain } from '../../src-shared/exposure/index';
import { packedHistoryPoint, planChainFile, preparePacked, type ChainFileOptions, type GexScopeQuery, type IngestPlan, type PackedSnapshot } from './exposure-compute';
import type { Result } from './result';
import { ParseStopped, underFlag, type StopReason } from '../checkpoint';
import { collectGarbage, COLLECT_AFTER_DECODE_BYTES } from './worker-gc';

const port = parentPort;
if (port === null) throw new Error('exposure-worker.ts runs as a worker thread (see exposure-worker-client.ts)');
if (process.platform === 'linux') {
  try {
    // As the journal worker: on a busy machine the event loop's thread gets the CPU first.
    setPriority(10);
  } catch {
    // Not permitted: run at the normal priority.
  }
}

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
  /** A chain file (its text, or its UTF-8 bytes moved here undecoded) parsed, prepared and evaluated: a job, stoppable. */
  planChainFile: (file: string | Uint8Array, options: ChainFileOptions, basis: BasisData): Result<IngestPlan> =>
    planChainFile(decoded(file), options, {
      rate: basis.rate,
      states: (ticker) => new Map(basis.states.filter((s) => s.ticker === ticker).map((s) => [s.expiration, s.state])),
      latestQuoteTime: (ticker) => basis.latest[ticker] ?? null,
    }, { defaultPoint: true }),
  /** A stored snapshot prepared for the engine (the service keeps it; typed arrays and plain objects clone as they are). */
  prepare: (snapshot: PackedSnapshot, rate: number): PreparedChain => preparePacked(snapshot, rate),
  /** Points of stored snapshots, each from the scope's expirations alone (packedHistoryPoint): no full preparation. */
  historyPoints: (snapshots: PackedSnapshot[], scope: GexScopeQuery, rate: number): Array<{ id: number; point: GexHistoryPoint }> =>
    snapshots.map((snapshot) => ({ id: snapshot.id, point: packedHistoryPoint(snapshot, scope, rate) })),
};

export type ExposureWorkerMethods = typeof methods;

export interface ExposureCall {
  id: number;
  method: keyof ExposureWorkerMethods;
  args: unknown[];
  /** A job's stop flag (worker-thread.ts): the parse looks at it; the worker says when it starts the job. */
  flag?: Int32Array;
}

export type ExposureReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string; stack?: string; stopped?: StopReason };

port.on('message', (message: ExposureCall) => {
  let large = false;
  try {
    const method = methods[message.method] as (...args: unknown[]) => unknown;
    // An upload's bytes are decoded once and let go: a 50 MB chain is not held twice while it is parsed.
    const upload = message.method === 'planChainFile' ? message.args[0] : undefined;
    if (upload instanceof Uint8Array) {
      message.args[0] = decoded(upload);
      large = upload.byteLength >= COLLECT_AFTER_DECODE_BYTES;
      if (large) collectGarbage();
    }
    const value = underFlag(message.flag, () => {
      if (message.flag !== undefined) port.postMessage({ type: 'started', id: message.id });
      return method(...message.args);
    });
    port.postMessage({ id: message.id, ok: true, value } satisfies ExposureReply);
  } catch (error) {
    const failed = error instanceof Error ? error : new Error(String(error));
    const stopped = error instanceof ParseStopped ? { stopped: error.reason } : {};
    port.postMessage({ id: message.id, ok: false, message: failed.message, ...(failed.stack === undefined ? {} : { stack: failed.stack }), ...stopped } satisfies ExposureReply);
  } finally {
    // Its text (and, refused, everything read from it) is garbage once answered: collected then, not at the next
    // upload, whose peak it would otherwise add to (docs/importers.md §Bounded).
    if (large) setImmediate(collectGarbage);
  }
});
