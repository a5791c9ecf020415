// Starts a worker thread from the TypeScript sources (vitest, `strikebook` run through tsx, the bench): tsx's
// loader is registered in this thread first, then the worker's entry (workerData.entry) is imported. Bundles
// (out/node, out/main) start their worker entry directly and never load this file.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
