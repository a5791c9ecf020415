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
  /**
   * The same figure divided by a baseline measured beside it in the same run (baselines.ts): a loaded machine
   * stretches both, so the ratio holds where the absolute figure drifts. When present, the ratio decides `ok`; the
   * absolute figure's own verdict is `absoluteOk` (shown, never failing the run).
   */
  ratio?: { value: number; budget: string; baseline: string; baselineMs: number };
  absoluteOk?: boolean;
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

/**
 * The line divided by a baseline sampled beside it (`baselineMs`, wall time now): its ratio budget is the absolute
 * budget ÷ the baseline's time on the unloaded machine (`referenceMs`), so both say the same on a quiet machine and
 * the ratio still says it on a loaded one (docs/decisions.md §Benchmarks, "Ratios to a baseline"). Lines of `<=`
 * budgets only: the absolute figure stays in the line, its verdict in `absoluteOk`.
 */
export function against(line: BenchLine, baseline: { name: string; referenceMs: number }, baselineMs: number): BenchLine {
  const limit = Number(line.budget.replace(/^<=\s*/, ''));
  if (!line.budget.startsWith('<=') || !Number.isFinite(limit)) throw new Error(`${line.name}: only a <= budget takes a baseline`);
  const value = line.value / baselineMs;
  const budget = limit / baseline.referenceMs;
  return {
    ...line,
    ok: value <= budget,
    absoluteOk: line.ok,
    ratio: { value: round(value), budget: `<= ${round(budget)}`, baseline: baseline.name, baselineMs: round(baselineMs) },
  };
}

/** The same line, for information only (see BenchLine.info). */
export function info(line: BenchLine): BenchLine {
  return { ...line, info: true };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
