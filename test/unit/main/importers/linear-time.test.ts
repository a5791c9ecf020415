/**
 * Parsing in linear time (docs/importers.md §Linear time; issue 16, finding 1). Before the rewrite of the patterns, a
 * 4.3 KB chain file whose `Date:` line ended in 3,500 tabs took 17–38 s, a number cell of 100,000 digits and a letter
 * 14–43 s, a custom-format time followed by 64,000 spaces 13–21 s.
 *
 * No stopwatch here (docs/conventions.md §Tests, "No wall clock in a test"): each hostile input of test/linear-time.ts
 * is parsed whole once at HOSTILE_SIZE characters, a size at which linear parsing takes milliseconds on any machine and
 * a square takes many minutes (the 100,000 digits above took 14 s; three times as many, nine times as long at least),
 * so a super-linear pattern runs into the test's timeout (the hang bound), never a loaded machine into a limit. The
 * patterns themselves are held linear by lint (`regexp/no-super-linear-backtracking` and `-move`, checked below); the
 * growth exponents (times at n, 10n, 100n) are the bench's lines `import.linear_time.*` (bench/linear-time.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LINEAR_CASES } from '../../../linear-time';
import { REPO_ROOT } from '../../../paths';

const HOSTILE_SIZE = 300_000;

describe(`each hostile input is parsed whole at ${HOSTILE_SIZE.toLocaleString('en-US')} characters (a square would run into the timeout)`, () => {
  for (const { name, readsAtMost, run } of LINEAR_CASES) {
    it(name, () => {
      const parse = run(Math.min(HOSTILE_SIZE, readsAtMost ?? HOSTILE_SIZE));
      expect(parse).not.toThrow();
    });
  }
});

describe('the patterns are held linear by lint', () => {
  it('eslint refuses super-linear backtracking and moves in src-* as errors', () => {
    const config = readFileSync(join(REPO_ROOT, 'eslint.config.js'), 'utf8');
    expect(config).toMatch(/'regexp\/no-super-linear-backtracking':\s*(?:'error'|\[\s*'error')/);
    expect(config).toMatch(/'regexp\/no-super-linear-move':\s*(?:'error'|\[\s*'error')/);
  });
});
