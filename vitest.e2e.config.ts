import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // A missing ../shared/fixtures or Chromium fails the run in one line (test/fixtures-present.ts,
    // test/e2e/chromium-present.ts), never a silent skip.
    globalSetup: ['test/fixtures-present.ts', 'test/e2e/chromium-present.ts'],
    include: ['test/e2e/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
