export interface BenchLine {
  name: string;
  value: number;
  unit: string;
  budget: string;
  ok: boolean;
  /**
   * An absolute figure shown for information: a ratio measured in the same run decides instead (its `ok` is
   * still against the budget, but does not fail the run). Absolute times follow the load of the shared machine.
   */
  info?: true;
  detail?: string;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}

/** The p-th percentile (nearest rank) of the values. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

/** Median wall time of `fn` in milliseconds over `runs` runs after `warmup` unmeasured ones. */
export async function timeMs(fn: () => unknown, runs = 15, warmup = 3): Promise<number> {
  for (let i = 0; i < warmup; i += 1) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

export function atMost(name: string, value: number, unit: string, budget: number, detail?: string): BenchLine {
  return { name, value: round(value), unit, budget: `<= ${budget}`, ok: value <= budget, ...(detail ? { detail } : {}) };
}

export function atLeast(name: string, value: number, unit: string, budget: number, detail?: string): BenchLine {
  return { name, value: round(value), unit, budget: `>= ${budget}`, ok: value >= budget, ...(detail ? { detail } : {}) };
}

/** The same line, for information only (see BenchLine.info). */
export function info(line: BenchLine): BenchLine {
  return { ...line, info: true };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
