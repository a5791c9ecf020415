import { defineConfig } from 'vitest/config';

/**
 * The tests Stryker runs against each mutant (stryker.config.mjs): the unit tests of the mutated modules. The
 * integration suites reach the same code through HTTP and SQLite but cost seconds a mutant. MUTATION_TESTS (globs,
 * comma-separated) narrows them for a run over a few modules: fewer files to load for each mutant.
 */
const narrowed = process.env.MUTATION_TESTS?.split(',').filter((glob) => glob !== '');
export default defineConfig({
  test: {
    globalSetup: ['test/fixtures-present.ts'],
    include: narrowed !== undefined && narrowed.length > 0 ? narrowed : ['test/unit/shared/journal/**/*.test.ts', 'test/unit/shared/money*.test.ts', 'test/unit/main/server/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
