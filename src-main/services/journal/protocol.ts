/**
 * What the journal worker's calls carry beside the protocol's (services/worker-thread.ts): the worker's start data,
 * the caller's settings and clock, whether a call writes, and the main thread's answer to a write's turn request.
 */
import type { CallMessage } from '../worker-thread';
import type { JournalSettings } from './service';

export interface WorkerInit {
  dbPath: string;
  nativeBinding?: string;
  /** A ceiling on the database's pages (tests simulate a full disk with it: db/open.ts, setMaxPages). */
  maxPages?: number;
}

export type JournalCallMessage = CallMessage<{
  settings: JournalSettings;
  /** The caller's clock at the call: the worker's "now" for this call (asOf, createdAt, today's year). */
  nowMs: number;
  /** A write: run in the worker's write lane, asking the main thread for a write turn when it is ready to write. */
  write?: boolean;
}>;

/**
 * The main thread's answer to a write's `{type: 'turn', id}`: the turn is the write's until it replies (`deadlineMs`:
 * when to stop retrying a busy database, epoch ms, db/writes.ts), or refused (the job was stopped meanwhile).
 */
export type TurnMessage = { type: 'grant'; id: number; deadlineMs: number } | { type: 'deny'; id: number };

export function isTurnMessage(message: unknown): message is TurnMessage {
  return typeof message === 'object' && message !== null && 'type' in message && (message.type === 'grant' || message.type === 'deny');
}
