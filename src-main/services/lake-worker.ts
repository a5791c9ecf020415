/**
 * The lake worker thread: research exports (src-main/services/lake/export.ts) on its own SQLite connection, so that the
 * server's event loop (Electron's main process) never packs a 21k-contract chain into Parquet. It serves the workers'
 * protocol (worker-thread.ts: calls, replies, errors on the wire) with one call, `exportLake`, and reports progress
 * after each snapshot as a message of its own; exports.ts starts a thread per export and ends it after, its memory
 * given back with it.
 *
 * Started by exports.ts (through WorkerThread): from the sources through ts-worker.mjs, from a bundle as its own entry file.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { joinDatabase } from '../db/open';
import { exportLake, type ExportProgress, type ExportRequest } from './lake/export';
import { isMethod, serveCalls, workerPort, yieldToEventLoop, type CallMessage } from './worker-thread';

export interface LakeWorkerData {
  dbPath: string;
  nativeBinding?: string;
}

/** A message of the lake worker beside its replies. */
export interface LakeProgressMessage {
  type: 'progress';
  progress: ExportProgress;
}

const port = workerPort(parentPort, 'services/exports.ts');
// As the journal and exposure workers: on a busy machine the event loop's thread gets the CPU first.
yieldToEventLoop();

const data = workerData as LakeWorkerData;

const methods = {
  /** One export, on a connection of its own opened for it and closed after. */
  exportLake: (request: ExportRequest, rate: number) => {
    const db = joinDatabase(data.dbPath, data.nativeBinding);
    try {
      return exportLake(db, request, rate, (progress) => port.postMessage({ type: 'progress', progress } satisfies LakeProgressMessage));
    } finally {
      db.close();
    }
  },
};

export type LakeWorkerMethods = typeof methods;

serveCalls(port, (message: CallMessage) => {
  if (!isMethod(methods, message.method)) throw new Error(`lake worker: unknown method ${message.method}`);
  const [request, rate] = message.args as Parameters<LakeWorkerMethods['exportLake']>;
  return methods[message.method](request, rate);
});
