/**
 * Growth of a parser's time with its input (docs/importers.md §Linear time; bench/linear-time.ts): times compared
 * with each other, never with a wall clock, so that a loaded machine slows every size alike and the ratio stays.
 */

/** Median of the numbers. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * Milliseconds per call of `fn`: each sample repeats it until `sampleMs` have passed (a fast parse is timed over many
 * calls, beyond the timer's grain), the median of `samples` samples is the figure.
 */
export function msPerCall(fn: () => unknown, samples = 5, sampleMs = 15): number {
  fn(); // warm-up: compiled code and caches, as in a running server
  const times: number[] = [];
  for (let s = 0; s < samples; s += 1) {
    let calls = 0;
    const start = performance.now();
    for (;;) {
      fn();
      calls += 1;
      const elapsed = performance.now() - start;
      if (elapsed >= sampleMs) {
        times.push(elapsed / calls);
        break;
      }
    }
  }
  return median(times);
}

export interface Growth {
  /** Milliseconds per call at n, 10n and 100n. */
  ms: [number, number, number];
  /** The exponent k of time ∝ size^k between 10n and 100n (1 for linear, 2 for quadratic). */
  exponent: number;
}

/**
 * Times `run(size)` at `n`, `10n` and `100n` and fits the exponent between the two larger sizes (the smallest is
 * shown beside them: fixed costs hide growth there). A machine shared with other work can slow one size by chance:
 * a fit above `limit` is measured once more, and the lower fit counts (a superlinear parser fails both).
 */
export function growth(run: (size: number) => () => unknown, n: number, limit: number): Growth {
  const measure = (): Growth => {
    const ms = [n, 10 * n, 100 * n].map((size) => msPerCall(run(size))) as [number, number, number];
    return { ms, exponent: Math.log10(ms[2] / ms[1]) };
  };
  const first = measure();
  if (first.exponent <= limit) return first;
  const second = measure();
  return second.exponent < first.exponent ? second : first;
}
