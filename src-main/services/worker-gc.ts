import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection of this (worker) thread's heap. An import or a ledger rebuild leaves tens of MB of
 * garbage (the parsed file, raw rows) that V8 keeps committed until it next decides on a major GC, and an upload's
 * bytes stay allocated after they are decoded until one runs; collecting right then keeps the server's resident
 * memory at its working size (docs/architecture.md §Budgets: ≤ 250 MB with 100k transactions; docs/importers.md
 * §Bounded: a 49 MB upload raises the peak by at most 300 MB). A runtime that refuses the flag only loses the early
 * collection.
 */
export const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
  return typeof gc === 'function' ? () => void gc() : () => undefined;
})();

/** Uploads from this size on are collected right after they are decoded (their bytes are garbage then). */
export const COLLECT_AFTER_DECODE_BYTES = 4 * 1024 * 1024;
