/**
 * The lake worker thread: one research export (src-main/services/lake/export.ts) on its own SQLite connection, so that the
 * server's event loop (Electron's main process) never packs a 21k-contract chain into Parquet. It reports progress
 * after each snapshot and its result at the end as the workers' protocol's reply (worker-thread.ts), then ends: a
 * thread per export, its memory given back with it.
 *
 * Started by exports.ts: from the sources through ts-worker.mjs, from a bundle as its own entry file.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { joinDatabase } from '../db/open';
import { exportLake, type ExportProgress, type ExportRequest } from './lake/export';
import { toWire, workerPort, yieldToEventLoop, type ReplyMessage } from './worker-thread';

export interface LakeWorkerData {
  dbPath: string;
  nativeBinding?: string;
  request: ExportRequest;
  rate: number;
}

/** The one call of a lake worker: its id in the protocol's reply. */
export const LAKE_CALL_ID = 1;

export type LakeWorkerMessage = { type: 'progress'; progress: ExportProgress } | ReplyMessage;

const port = workerPort(parentPort, 'services/exports.ts');
// As the journal and exposure workers: on a busy machine the event loop's thread gets the CPU first.
yieldToEventLoop();

const data = workerData as LakeWorkerData;
try {
  const db = joinDatabase(data.dbPath, data.nativeBinding);
  try {
    const result = exportLake(db, data.request, data.rate, (progress) => port.postMessage({ type: 'progress', progress } satisfies LakeWorkerMessage));
    port.postMessage({ type: 'reply', id: LAKE_CALL_ID, ok: true, value: result } satisfies LakeWorkerMessage);
  } finally {
    db.close();
  }
} catch (error) {
  port.postMessage({ type: 'reply', id: LAKE_CALL_ID, ok: false, error: toWire(error) } satisfies LakeWorkerMessage);
}
