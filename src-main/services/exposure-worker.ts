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
import { historyPoint, planChainFile, preparePacked, type ChainFileOptions, type GexScopeQuery, type IngestPlan, type PackedSnapshot } from './exposure-compute';
import type { Result } from './result';

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

const methods = {
  planChainFile: (text: string, options: ChainFileOptions, basis: BasisData): Result<IngestPlan> =>
    planChainFile(text, options, {
      rate: basis.rate,
      states: (ticker) => new Map(basis.states.filter((s) => s.ticker === ticker).map((s) => [s.expiration, s.state])),
      latestQuoteTime: (ticker) => basis.latest[ticker] ?? null,
    }, { defaultPoint: true }),
  /** A stored snapshot prepared for the engine (the service keeps it; typed arrays and plain objects clone as they are). */
  prepare: (snapshot: PackedSnapshot, rate: number): PreparedChain => preparePacked(snapshot, rate),
  historyPoints: (snapshots: PackedSnapshot[], scope: GexScopeQuery, rate: number): Array<{ id: number; point: GexHistoryPoint }> =>
    snapshots.map((snapshot) => ({ id: snapshot.id, point: historyPoint(preparePacked(snapshot, rate), scope) })),
};

export type ExposureWorkerMethods = typeof methods;

export interface ExposureCall {
  id: number;
  method: keyof ExposureWorkerMethods;
  args: unknown[];
}

export type ExposureReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string; stack?: string };

port.on('message', (message: ExposureCall) => {
  try {
    const method = methods[message.method] as (...args: unknown[]) => unknown;
    port.postMessage({ id: message.id, ok: true, value: method(...message.args) } satisfies ExposureReply);
  } catch (error) {
    const failed = error instanceof Error ? error : new Error(String(error));
    port.postMessage({ id: message.id, ok: false, message: failed.message, ...(failed.stack === undefined ? {} : { stack: failed.stack }) } satisfies ExposureReply);
  }
});
