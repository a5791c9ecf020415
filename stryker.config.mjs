// @ts-check
import { resolve } from 'node:path';

// The sandboxes live under .stryker-tmp/, where ../shared/fixtures is not: the tests read the fixtures from here.
process.env.STRIKEBOOK_FIXTURES ??= resolve(import.meta.dirname, '..', 'shared', 'fixtures');
/**
 * Mutation testing (issue 31 item 5): `npm run mutation` mutates the journal, money and the route rules and runs the
 * unit tests that cover each mutant (perTest coverage), to find code that no test would notice changing. The whole
 * set (9,700 mutants, a vitest start each) takes hours on a shared two-core machine: scripts/mutation.mjs runs it in
 * batches of files, each recorded in the incremental file when it ends; a subset runs with
 *   npm run mutation -- src-shared/money.ts,src-main/server/route-kit.ts
 * (docs/conventions.md §Tests). Not part of `npm test`. Sandboxes go to .stryker-tmp/, the report to reports/mutation/ (both gitignored).
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
const config = {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  coverageAnalysis: 'perTest',
  // Code run while the test files load (tables built at describe level) counts as static: each such mutant reruns
  // every test, 99% of the time for 44% of the mutants here. Left out (reported as ignored), not counted either way.
  ignoreStatic: true,
  mutate: [
    'src-shared/journal/**/*.ts',
    'src-shared/money.ts',
    // The request rules of the route kit (ranges, calendar dates, date-or-instant, exclusive parameters) and the
    // grammar checks of query, path and body.
    'src-main/server/route-kit.ts',
    'src-main/server/validation.ts',
  ],
  ignorePatterns: ['out', 'dist', 'release', 'test-results', 'coverage', '.data', 'reports', 'bench', 'src-renderer', 'test/e2e', '.stryker-tmp*'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  // One worker: the machine is shared (and a second vitest in the same two cores buys little).
  concurrency: 1,
  // The initial run (every included test, with coverage counters on every mutant) takes minutes on a loaded machine.
  dryRunTimeoutMinutes: 30,
  // Added to 1.5 × the covering tests' own time before a mutant counts as a timeout (an endless loop, say).
  timeoutMS: 10_000,
  // Each finished run records every mutant's result here; the next run reuses those whose code and covering tests did
  // not change, and keeps the results of files outside a narrowed --mutate. So the whole set can be built file by file
  // and a later run redoes only what changed. A run stopped midway records nothing: run in batches.
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 80, low: 60, break: null },
};
export default config;
