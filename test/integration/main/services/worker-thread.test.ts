/**
 * A job that never reaches a checkpoint (docs/decisions.md §Jobs): stopped, its caller is answered at once, and its
 * thread is terminated STOP_GRACE_MS later; a read that was waiting behind it is asked again of the next thread.
 */
import { describe, expect, it } from 'vitest';
import { jobFlag, JobStoppedError } from '../../../../src-main/services/worker-thread';
import { WorkerThread } from '../../../../src-main/services/worker-calls';

type Reply = { id: number; ok: true; value: unknown };

function thread(idleStopMs?: number): WorkerThread<Reply> {
  return new WorkerThread<Reply>({
    ...(idleStopMs === undefined ? {} : { idleStopMs }),
    // The worker module is found beside moduleUrl: this points from the services folder to the test's stuck worker.
    baseName: '../../test/integration/main/services/stuck-worker',
    moduleUrl: new URL('../../../../src-main/services/worker-thread.ts', import.meta.url).href,
    fail: (message) => new Error(message),
    settle: (reply) => ({ ok: true, value: reply.value }),
    stopped: (cause) => `stopped (${cause})`,
  });
}

describe('a stuck job', () => {
  it('times out, its thread is terminated, and a read queued behind it is answered by the next thread', async () => {
    const worker = thread();
    expect(await worker.send((id) => ({ id, method: 'echo' }), [], { retry: true })).toBe('echo');
    const first = worker.thread;
    // The spinning job never ends by itself: the timeout error and the read answered by a new thread are the check
    // (without the limit both would hang until the test's timeout); how soon is no test's business.
    const spin = worker.send((id) => ({ id, method: 'spin' }), [], { job: { flag: jobFlag(), timeoutMs: 300 } });
    const queued = worker.send((id) => ({ id, method: 'after' }), [], { retry: true });
    const error = await spin.then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error, 'the caller hears of the timeout when it passes').toBeInstanceOf(JobStoppedError);
    expect((error as JobStoppedError).reason).toBe('timeout');
    expect(await queued, 'the read behind it was asked again of a new thread').toBe('after');
    expect(worker.thread).not.toBe(first);
    await worker.close();
  }, 60_000);

  it('is stopped by its signal (the client went away) and by close (the server stops)', async () => {
    const worker = thread();
    const controller = new AbortController();
    const spin = worker.send((id) => ({ id, method: 'spin' }), [], { job: { flag: jobFlag(), timeoutMs: 0, signal: controller.signal } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort();
    await expect(spin).rejects.toMatchObject({ reason: 'cancelled' });
    const again = worker.send((id) => ({ id, method: 'spin' }), [], { job: { flag: jobFlag(), timeoutMs: 0 } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closing = worker.close(async () => undefined);
    await expect(again).rejects.toMatchObject({ reason: 'closing' });
    await closing;
  }, 60_000);
});

describe('an idle worker (idleStopMs)', () => {
  it('is ended after the quiet period and started again, transparently, by the next call', async () => {
    const worker = thread(300);
    expect(await worker.send((id) => ({ id, method: 'first' }), [], { retry: true })).toBe('first');
    const first = worker.thread;
    expect(first).not.toBeNull();
    const exited = new Promise<void>((resolve) => first?.once('exit', () => resolve()));
    await exited;
    expect(worker.thread, 'no thread while idle').toBeNull();
    expect(worker.idleStops).toBe(1);
    expect(await worker.send((id) => ({ id, method: 'again' }), [], { retry: true }), 'the next call is answered by a new thread').toBe('again');
    expect(worker.thread).not.toBeNull();
    expect(worker.thread).not.toBe(first);
    await worker.close();
  }, 60_000);

  it('is not ended while calls keep coming within the period, nor under a call in flight', async () => {
    const worker = thread(400);
    const first = await worker.send((id) => ({ id, method: 'a' }), [], { retry: true }).then(() => worker.thread);
    for (const method of ['b', 'c', 'd']) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(await worker.send((id) => ({ id, method }), [], { retry: true })).toBe(method);
    }
    expect(worker.thread, 'calls 150 ms apart keep the same thread').toBe(first);
    expect(worker.idleStops).toBe(0);
    // A job running longer than the period keeps its thread: only the job's own stop ends it.
    const spin = worker.send((id) => ({ id, method: 'spin' }), [], { job: { flag: jobFlag(), timeoutMs: 0 } });
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(worker.thread).toBe(first);
    expect(worker.idleStops).toBe(0);
    const closing = worker.close(async () => undefined);
    await expect(spin).rejects.toMatchObject({ reason: 'closing' });
    await closing;
  }, 60_000);
});
