/**
 * "Nothing slow on the event loop", checked by structure instead of a clock: the heavy part of a request must be a
 * call sent to a worker thread (every worker goes through WorkerThread.send: journal, exposure, lake), and while that
 * call is in the worker the event loop must go on answering. A 1 ms ping timer counts the turns the loop took while
 * each call was out: work done on this thread would leave no call to see, or a call during which no ping fired.
 * No duration is compared with anything, so a loaded machine cannot fail it and a fast one cannot pass it blind.
 */
import { vi } from 'vitest';
import { WorkerThread } from '../src-main/services/worker-calls';

export interface WorkerCallSeen {
  /** The worker method called (the message's `method`). */
  method: string;
  /** Pings of the event loop answered between the call's sending and its answer. */
  pings: number;
}

function methodOf(message: unknown): string {
  return typeof message === 'object' && message !== null && 'method' in message && typeof message.method === 'string' ? message.method : '?';
}

/** Runs `work`, recording each call it sends to a worker thread with the event-loop pings answered while it was out. */
export async function workerCallsDuring<T>(work: () => Promise<T>): Promise<{ value: T; calls: WorkerCallSeen[] }> {
  let pings = 0;
  const timer = setInterval(() => {
    pings += 1;
  }, 1);
  const calls: WorkerCallSeen[] = [];
  const original = WorkerThread.prototype.send;
  const spy = vi.spyOn(WorkerThread.prototype, 'send').mockImplementation(function (this: WorkerThread, message, transfer, options) {
    const seen: WorkerCallSeen = { method: '?', pings: 0 };
    calls.push(seen);
    const sentAt = pings;
    const answer = original.call(this, (id: number) => {
      const built = message(id);
      seen.method = methodOf(built);
      return built;
    }, transfer, options);
    const settle = () => {
      seen.pings = pings - sentAt;
    };
    answer.then(settle, settle);
    return answer;
  });
  try {
    return { value: await work(), calls };
  } finally {
    spy.mockRestore();
    clearInterval(timer);
  }
}

/** The calls to `method` seen, each with its pings; a readable line for a failed expectation. */
export function callsTo(calls: WorkerCallSeen[], method: string): { pings: number[]; shown: string } {
  return { pings: calls.filter((c) => c.method === method).map((c) => c.pings), shown: calls.map((c) => `${c.method} (${c.pings} pings)`).join(', ') || 'no worker call' };
}
