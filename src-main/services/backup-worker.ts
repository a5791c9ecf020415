/**
 * The backup worker thread: one backup (db/backups.ts, writeBackup: SQLite's VACUUM INTO on a read-only connection of
 * its own) or one backup file's check (checkBackup: SQLite's integrity check), so that the server's event loop
 * (Electron's main process) never waits on a copy of a large journal. A thread per job, ended with it, like the lake
 * worker; its result is the reply of the workers' protocol (worker-thread.ts).
 *
 * Started by backups.ts: from the sources through ts-worker.mjs, from a bundle as its own entry file.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { checkBackup, writeBackup, type BackupReason } from '../db/backups';
import { toWire, workerPort, yieldToEventLoop, type ReplyMessage } from './worker-thread';

export type BackupWorkerData =
  | { op: 'backup'; dbPath: string; dataDir: string; reason: BackupReason; atMs: number; keep: number; nativeBinding?: string }
  | { op: 'check'; path: string; nativeBinding?: string };

/** The one call of a backup worker: its id in the protocol's reply. */
export const BACKUP_CALL_ID = 1;

const port = workerPort(parentPort, 'services/backups.ts');
// As the other workers: on a busy machine the event loop's thread gets the CPU first.
yieldToEventLoop();

const data = workerData as BackupWorkerData;
try {
  const value = data.op === 'backup' ? writeBackup(data.dbPath, data.dataDir, data.reason, data.atMs, data.keep, data.nativeBinding) : checkBackup(data.path, data.nativeBinding);
  port.postMessage({ type: 'reply', id: BACKUP_CALL_ID, ok: true, value } satisfies ReplyMessage);
} catch (error) {
  port.postMessage({ type: 'reply', id: BACKUP_CALL_ID, ok: false, error: toWire(error) } satisfies ReplyMessage);
}
