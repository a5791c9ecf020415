import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The tests Stryker runs against each mutant (stryker.config.mjs): the unit tests of the mutated modules. The
 * integration suites reach the same code through HTTP and SQLite but cost seconds a mutant. MUTATION_TESTS (globs,
 * comma-separated) narrows them for a run over a few modules: fewer files to load for each mutant.
 *
 * Left out by default: the live-ledger and live-trades files (`*.live.test.ts`). Each checks that a ledger or a trade
 * walk extended or resumed at a checkpoint equals a whole build of the same rows — both sides run the same mutated
 * code, so they catch only mutants that make the two paths differ, at 3 s a test (4,000-row builds) where the other
 * files take milliseconds. Add them back for the resume code: MUTATION_TESTS='test/unit/shared/journal/*.live.test.ts'.
 */
const narrowed = process.env.MUTATION_TESTS?.split(',').filter((glob) => glob !== '');

/**
 * Fastest file first: Stryker bails at the first failing test, so a mutant that a quick test kills never waits for the
 * slow ones (vitest's own order puts the slowest first). A file that failed last run goes first (it killed the previous
 * mutant, most likely a neighbour of this one).
 */
class FastFirst extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const key = (spec: TestSpecification) => `${spec.project.name}:${spec.moduleId.slice(this.ctx.config.root.length + 1)}`;
    const rank = (spec: TestSpecification) => {
      const state = cache.getFileTestResults(key(spec));
      return [state?.failed === true ? 0 : 1, state?.duration ?? 0] as const;
    };
    return Promise.resolve([...files].sort((a, b) => {
      const [failedA, durationA] = rank(a);
      const [failedB, durationB] = rank(b);
      return failedA - failedB || durationA - durationB;
    }));
  }
}

export default defineConfig({
  test: {
    globalSetup: ['test/fixtures-present.ts'],
    include: narrowed !== undefined && narrowed.length > 0 ? narrowed : ['test/unit/shared/journal/**/*.test.ts', 'test/unit/shared/money*.test.ts', 'test/unit/main/server/**/*.test.ts'],
    exclude: narrowed !== undefined && narrowed.length > 0 ? [] : ['**/*.live.test.ts'],
    sequence: { sequencer: FastFirst },
    pool: 'forks',
    isolate: process.env.MUTATION_ISOLATE === '1',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
