/**
 * No wall-clock assertion in the suite (docs/conventions.md §Tests, "No wall clock in a test"; issue 31): a test never
 * fails because the machine is slow. This scan of test/ fails on an upper bound (`toBeLessThan`,
 * `toBeLessThanOrEqual`) put on a time measured with performance.now(), Date.now() or process.hrtime(): the
 * difference of two readings, directly in the `expect(` or in a name assigned it (`elapsedMs = performance.now() -
 * started`, `{ elapsedMs: Date.now() - t }`), and on a test importing the bench's timers. A lower bound ("not before
 * the timeout") stays: a loaded machine only lengthens a time. What to write instead: the conventions' rule.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './paths';

const CLOCK = String.raw`(?:performance\.now|Date\.now|process\.hrtime(?:\.bigint)?)\(\)`;
/** `name = <clock> -` or `name: <clock> -`: the name holds an elapsed time. */
const ELAPSED_NAME = new RegExp(String.raw`(\w+)\s*[:=]\s*${CLOCK}\s*-`, 'g');
const CLOCK_DIFFERENCE = new RegExp(String.raw`${CLOCK}\s*-`);
const UPPER_BOUND = /\.toBeLessThan(?:OrEqual)?\(/;
const BENCH_TIMERS = /from\s+'[./]*bench\/(?:growth|lib)'/;

/** The lines (1-based) of `source` that assert an upper bound on a measured time, each with why. */
export function wallClockAssertions(source: string): Array<{ line: number; why: string }> {
  const names = new Set([...source.matchAll(ELAPSED_NAME)].map((match) => match[1] ?? ''));
  const found: Array<{ line: number; why: string }> = [];
  const lineOf = (index: number) => source.slice(0, index).split('\n').length;
  for (const match of source.matchAll(/\bexpect\(/g)) {
    const start = match.index;
    const end = source.indexOf(';', start);
    const statement = source.slice(start, end === -1 ? undefined : end);
    if (!UPPER_BOUND.test(statement)) continue;
    const subject = subjectOf(statement);
    const name = [...names].find((n) => new RegExp(String.raw`\b${n}\b`).test(subject));
    if (CLOCK_DIFFERENCE.test(subject)) found.push({ line: lineOf(start), why: 'an upper bound on a clock difference' });
    else if (name !== undefined) found.push({ line: lineOf(start), why: `an upper bound on \`${name}\`, assigned a clock difference` });
  }
  const bench = BENCH_TIMERS.exec(source);
  if (bench !== null) found.push({ line: lineOf(bench.index), why: 'imports the bench’s timers' });
  return found;
}

/** The argument of the `expect(` the statement starts with: up to its matching parenthesis. */
function subjectOf(statement: string): string {
  let depth = 0;
  for (let i = 'expect'.length; i < statement.length; i += 1) {
    if (statement[i] === '(') depth += 1;
    else if (statement[i] === ')') {
      depth -= 1;
      if (depth === 0) return statement.slice('expect('.length, i);
    }
  }
  return statement;
}

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' || entry.name === 'node_modules' ? [] : sources(path);
    return /\.(?:ts|tsx|mjs)$/.test(entry.name) ? [path] : [];
  });
}

describe('no wall-clock assertion in the suite', () => {
  it('the scan finds an upper bound on a measured time, directly or through a name, and leaves lower bounds and timestamps', () => {
    const planted = [
      'const started = performance.now();',
      'run();',
      'const elapsedMs = performance.now() - started;',
      "expect(elapsedMs, 'fast').toBeLessThan(5_000);",
      "expect(Date.now() - started).toBeLessThanOrEqual(10);",
      'const answer = { status: 200, tookMs: process.hrtime.bigint() - t0 };',
      'expect(answer.tookMs).toBeLessThan(100n);',
      "expect(Date.now() - started, 'not before the timeout').toBeGreaterThanOrEqual(290);",
      'const answeredMs = Date.now();',
      'expect(Date.parse(ticket.expiresAt)).toBeLessThanOrEqual(answeredMs + TTL_MS);',
      "import { growth } from '../../bench/growth';",
    ].join('\n');
    expect(wallClockAssertions(planted).map((f) => f.line)).toEqual([4, 5, 7, 11]);
  });

  it('test/ holds none', () => {
    const self = join(REPO_ROOT, 'test', 'wall-clock.test.ts');
    const offending = sources(join(REPO_ROOT, 'test'))
      .filter((path) => path !== self)
      .flatMap((path) => wallClockAssertions(readFileSync(path, 'utf8')).map(({ line, why }) => `${relative(REPO_ROOT, path)}:${line}: ${why}`));
    expect(
      offending,
      'a test asserts how long something took, so a loaded machine fails it: check the behaviour instead (fake timers, a count, ' +
        'the order of events, the answer itself with the test timeout as the hang bound) and put the measurement in bench/ ' +
        '(docs/conventions.md §Tests, "No wall clock in a test")',
    ).toEqual([]);
  });
});
