/**
 * A worker for worker-thread.test.ts: `spin` starts a job that never comes to a checkpoint (a parse stuck in one
 * pattern, as before issue 16); anything else is answered with its own name.
 */
import { parentPort } from 'node:worker_threads';

const port = parentPort;
port?.on('message', (message: { id: number; method: string }) => {
  if (message.method === 'spin') {
    port.postMessage({ type: 'started', id: message.id });
    for (;;) {
      // Stuck: only terminating the thread ends this.
    }
  }
  port.postMessage({ id: message.id, ok: true, value: message.method });
});
