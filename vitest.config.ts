import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // A missing ../shared/fixtures fails the run in one line (test/fixtures-present.ts), never a silent skip.
    globalSetup: ['test/fixtures-present.ts'],
    include: ['test/layout.test.ts', 'test/import-layers.test.ts', 'test/wall-clock.test.ts', 'test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
