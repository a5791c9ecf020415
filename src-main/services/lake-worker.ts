/**
 * The lake worker thread: one research export (src-main/lake/export.ts) on its own SQLite connection, so that the
 * server's event loop (Electron's main process) never packs a 21k-contract chain into Parquet. It reports progress
 * after each snapshot and its result at the end, then ends: a thread per export, its memory given back with it.
 *
 * Started by exports.ts: from the sources through ts-worker.mjs, from a bundle as its own entry file.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { joinDatabase } from '../db/open';
import { exportLake, type ExportProgress, type ExportRequest, type ExportSummary } from '../lake/export';
import type { Result } from './result';

export interface LakeWorkerData {
  dbPath: string;
  nativeBinding?: string;
  request: ExportRequest;
  rate: number;
}

export type LakeWorkerMessage = { type: 'progress'; progress: ExportProgress } | { type: 'done'; result: Result<ExportSummary> };

const port = parentPort;
if (port === null) throw new Error('lake-worker.ts runs as a worker thread (see exports.ts)');
if (process.platform === 'linux') {
  try {
    // As the journal and exposure workers: on a busy machine the event loop's thread gets the CPU first.
    setPriority(10);
  } catch {
    // Not permitted: run at the normal priority.
  }
}

const data = workerData as LakeWorkerData;
const db = joinDatabase(data.dbPath, data.nativeBinding);
try {
  const result = exportLake(db, data.request, data.rate, (progress) => port.postMessage({ type: 'progress', progress } satisfies LakeWorkerMessage));
  port.postMessage({ type: 'done', result } satisfies LakeWorkerMessage);
} finally {
  db.close();
}
