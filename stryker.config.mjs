// @ts-check
import { resolve } from 'node:path';

// The sandboxes live under .stryker-tmp/, where ../shared/fixtures is not: the tests read the fixtures from here.
process.env.STRIKEBOOK_FIXTURES ??= resolve(import.meta.dirname, '..', 'shared', 'fixtures');
/**
 * Mutation testing (issue 31 item 5): `npm run mutation` mutates the journal, money and the route rules and runs the
 * unit tests that cover each mutant (perTest coverage), to find code that no test would notice changing. The whole
 * set takes hours on a shared two-core machine; a subset runs with `--mutate` (docs/conventions.md §Tests), e.g.
 *   npx stryker run --mutate src-shared/money.ts,src-main/server/route-kit.ts
 * Not part of `npm test`. Sandboxes go to .stryker-tmp/, the report to reports/mutation/ (both gitignored).
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
  concurrency: 2,
  timeoutMS: 30_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 80, low: 60, break: null },
};
export default config;
