/**
 * Baselines for the absolute bench lines (docs/decisions.md §Benchmarks, "Ratios to a baseline"): a fixed piece of
 * the same kind of work, timed on the bench's thread right beside the line it divides, so that a loaded machine
 * stretches both. Each knows its time on the unloaded machine (`referenceMs`: the fastest of 400 runs on this 2-core
 * machine, `node bin/run-ts.mjs bench/baselines.ts`, plus 10 % — an unloaded median sits a little above the fastest
 * run, and a larger reference only makes the ratio budget stricter), which turns an absolute budget into the ratio
 * budget (lib.ts `against`).
 */
import Database from 'better-sqlite3';
import { median } from './lib';

export interface Baseline {
  name: string;
  /** What one run does, for the docs and the detail of a line. */
  what: string;
  /** One run's wall time on the unloaded machine, ms. */
  referenceMs: number;
  /** One run; returns a value the caller may ignore (so that the work cannot be dropped). */
  run(): number;
}

const ROWS = 1_000;

/** Bare SQLite: what the journal's reads and stores do per row, without the journal. */
function sqliteBaseline(): Baseline {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE t (id TEXT PRIMARY KEY, account TEXT NOT NULL, type TEXT NOT NULL, symbol TEXT NOT NULL, underlying TEXT NOT NULL,
    quantity REAL NOT NULL, price_minor INTEGER NOT NULL, amount_minor INTEGER NOT NULL, trade_date TEXT NOT NULL, description TEXT NOT NULL) STRICT`);
  const insert = db.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const select = db.prepare<[], { id: string; quantity: number }>('SELECT * FROM t');
  const clear = db.prepare('DELETE FROM t');
  const fill = db.transaction(() => {
    for (let i = 0; i < ROWS; i += 1) {
      insert.run(`tx_${(i * 7919) % ROWS}`, 'Account A', 'SELL_TO_OPEN', `SPY2501${17 + (i % 9)}P00${450 + (i % 50)}000`, 'SPY', i % 7, i * 13, -i * 1300, `2025-01-0${1 + (i % 9)}T15:30:00.000Z`, 'a put sold');
    }
  });
  return {
    name: 'sqlite',
    what: `${ROWS.toLocaleString('en-US')} prepared INSERTs of a 10-column row in one transaction, then a SELECT of them all (better-sqlite3, in memory)`,
    referenceMs: 5.1,
    run() {
      clear.run();
      fill();
      return select.all().length;
    },
  };
}

/** Bare JSON: what a presented answer costs to serialise and a client to read. */
function jsonBaseline(): Baseline {
  const rows = Array.from({ length: ROWS }, (_, i) => ({ id: `tx_${i}`, symbol: `SPY2501${17 + (i % 9)}P00${450 + (i % 50)}000`, quantity: i % 7, priceCents: i * 13, amountCents: -i * 1300, tradeDate: '2025-01-03T15:30:00.000Z', open: i % 2 === 0, tags: ['wheel', 'spy'] }));
  return {
    name: 'json',
    what: `JSON.stringify and JSON.parse of ${ROWS.toLocaleString('en-US')} objects of 8 fields (≈ 170 KB)`,
    referenceMs: 1.35,
    run() {
      return (JSON.parse(JSON.stringify({ rows })) as { rows: unknown[] }).rows.length;
    },
  };
}

/** Bare arithmetic: the floor loop's operations (floor.ts), one exp, log and sqrt per step. */
function cpuBaseline(): Baseline {
  const steps = 100_000;
  return {
    name: 'cpu',
    what: `${steps.toLocaleString('en-US')} steps of one Math.exp, Math.log and Math.sqrt each`,
    referenceMs: 1.8,
    run() {
      let sum = 0;
      for (let i = 1; i <= steps; i += 1) {
        const x = i / steps;
        sum += Math.exp(-0.5 * x) + Math.log(x + 1) + Math.sqrt(x);
      }
      return sum;
    },
  };
}

export const BASELINES = { sqlite: sqliteBaseline, json: jsonBaseline, cpu: cpuBaseline } as const;

/**
 * A baseline's wall time now, per run: runs back to back for about `spanMs` (the line's own time, so that both meet
 * the scheduler alike: on a loaded machine a 1.5 ms run often finishes inside one time slice while a 30 ms request
 * waits for several, so a short baseline stretched far less than the line it divided), the median of 5 such batches
 * (3 past 100 ms) after one warm-up run, ÷ the runs of a batch. Sampled right after the line it divides.
 */
export function sampleMs(baseline: Baseline, spanMs: number): number {
  // At most half a second a batch (a ledger build of seconds needs no longer one to meet the scheduler as it does).
  const batchMs = Math.min(500, spanMs);
  const reps = Math.max(1, Math.round(batchMs / baseline.referenceMs));
  let sink = baseline.run();
  const samples: number[] = [];
  for (let i = 0; i < (batchMs > 100 ? 3 : 5); i += 1) {
    const start = performance.now();
    for (let k = 0; k < reps; k += 1) sink += baseline.run();
    samples.push((performance.now() - start) / reps);
  }
  if (!Number.isFinite(sink)) throw new Error(`baseline ${baseline.name} lost its work`);
  return median(samples);
}

/** A sampler per kind, built once per bench file (the SQLite one holds an in-memory database). */
export function baselines(): { [K in keyof typeof BASELINES]: Baseline } {
  return { sqlite: BASELINES.sqlite(), json: BASELINES.json(), cpu: BASELINES.cpu() };
}

// `node bin/run-ts.mjs bench/baselines.ts`: each baseline's fastest run of 400, first quartile and median, to set referenceMs.
if (process.argv[1]?.endsWith('baselines.ts')) {
  for (const baseline of Object.values(baselines())) {
    baseline.run();
    const samples: number[] = [];
    for (let i = 0; i < 400; i += 1) {
      const start = performance.now();
      baseline.run();
      samples.push(performance.now() - start);
    }
    samples.sort((a, b) => a - b);
    process.stdout.write(`${baseline.name}: fastest ${(samples[0] ?? NaN).toFixed(3)} ms, first quartile ${(samples[100] ?? NaN).toFixed(3)} ms, median ${median(samples).toFixed(3)} ms (${baseline.what})\n`);
  }
}
