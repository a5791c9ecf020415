import type { ExposureCall, ExposureReply, ExposureWorkerMethods } from './exposure-worker';
import { JobStoppedError, WorkerThread, type JobOptions } from './worker-thread';

/** An unexpected error of the exposure worker (a bug, or the thread's death): the server answers 500 and logs it. */
export class ExposureWorkerError extends Error {
  constructor(message: string, workerStack?: string) {
    super(message);
    this.name = 'ExposureWorkerError';
    if (workerStack !== undefined) this.stack = `${this.name}: ${message}\n(in the exposure worker) ${workerStack}`;
  }
}

/**
 * The service's side of the exposure worker: started on the first call, unref'd while idle (it never keeps the
 * process alive), started again after a crash (the calls it had fail with ExposureWorkerError).
 */
export class ExposureWorkerClient {
  private readonly thread: WorkerThread<ExposureReply>;

  constructor(log?: (line: string) => void, moduleUrl: string = import.meta.url) {
    this.thread = new WorkerThread<ExposureReply>({
      baseName: 'exposure-worker',
      moduleUrl,
      fail: (message) => new ExposureWorkerError(message),
      settle: (reply) =>
        reply.ok ? { ok: true, value: reply.value } : { ok: false, error: reply.stopped === undefined ? new ExposureWorkerError(reply.message, reply.stack) : new JobStoppedError(reply.stopped) },
      stopped: (cause) => `The exposure worker stopped (${cause}); it starts again with the next request.`,
      ...(log === undefined ? {} : { log }),
    });
  }

  /** A call that only computes (prepare, history points): asked again of a new thread if its thread is ended to stop a job. */
  call<K extends keyof ExposureWorkerMethods>(method: K, ...args: Parameters<ExposureWorkerMethods[K]>): Promise<ReturnType<ExposureWorkerMethods[K]>> {
    return this.thread.send((id) => ({ id, method, args }) satisfies ExposureCall, [], { retry: true }) as Promise<ReturnType<ExposureWorkerMethods[K]>>;
  }

  /** A job (a chain file): stoppable, with its time limit (worker-thread.ts); `transfer` is moved to the worker. */
  job<K extends keyof ExposureWorkerMethods>(method: K, job: JobOptions, transfer: ArrayBuffer[], ...args: Parameters<ExposureWorkerMethods[K]>): Promise<ReturnType<ExposureWorkerMethods[K]>> {
    return this.thread.send((id) => ({ id, method, args, flag: job.flag }) satisfies ExposureCall, transfer, { job }) as Promise<ReturnType<ExposureWorkerMethods[K]>>;
  }

  /** Stops the chain files in flight (the server is closing). */
  stopJobs(): void {
    this.thread.stopAll('closing');
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
