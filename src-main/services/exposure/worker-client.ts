import type { ExposureWorkerMethods } from './worker';
import { onProtocol, type CallMessage, type JobOptions } from '../worker-thread';
import { WorkerThread } from '../worker-calls';

/**
 * How long an exposure worker stays without a call before it is ended (it keeps nothing between calls: the prepared
 * chains live in the service's ChainCache). A server at rest holds no exposure isolate (13 MB of RSS once V8 has
 * shrunk it, up to 40 MB right after a preparation: docs/decisions.md, server.rss_mb); the next call starts one
 * again (≈ 100 ms, paid by a cold chain or history only).
 */
export const EXPOSURE_IDLE_STOP_MS = 60_000;

/**
 * The service's side of the exposure worker: started on the first call, unref'd while idle (it never keeps the
 * process alive), ended after EXPOSURE_IDLE_STOP_MS without a call, started again after a crash (the calls it had
 * fail with ExposureWorkerError) or by the next call.
 */
export class ExposureWorkerClient {
  private readonly thread: WorkerThread;

  constructor(log?: (line: string) => void, moduleUrl: string = import.meta.url) {
    this.thread = new WorkerThread({
      baseName: 'exposure-worker',
      source: './worker.ts',
      moduleUrl,
      ...onProtocol('exposure'),
      stopped: (cause) => `The exposure worker stopped (${cause}); it starts again with the next request.`,
      idleStopMs: EXPOSURE_IDLE_STOP_MS,
      ...(log === undefined ? {} : { log }),
    });
  }

  /** A call that only computes (prepare, history points): asked again of a new thread if its thread is ended to stop a job. */
  call<K extends keyof ExposureWorkerMethods>(method: K, ...args: Parameters<ExposureWorkerMethods[K]>): Promise<ReturnType<ExposureWorkerMethods[K]>> {
    return this.thread.send((id) => ({ type: 'call', id, method, args }) satisfies CallMessage, [], { retry: true }) as Promise<ReturnType<ExposureWorkerMethods[K]>>;
  }

  /** A job (a chain file): stoppable, with its time limit (worker-thread.ts); `transfer` is moved to the worker. */
  job<K extends keyof ExposureWorkerMethods>(method: K, job: JobOptions, transfer: ArrayBuffer[], ...args: Parameters<ExposureWorkerMethods[K]>): Promise<Awaited<ReturnType<ExposureWorkerMethods[K]>>> {
    return this.thread.send((id) => ({ type: 'call', id, method, args, flag: job.flag }) satisfies CallMessage, transfer, { job }) as Promise<Awaited<ReturnType<ExposureWorkerMethods[K]>>>;
  }

  /** Stops the chain files in flight (the server is closing). */
  stopJobs(): void {
    this.thread.stopAll('closing');
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
