/** The CLI's progress bar: redrawn in place on a terminal (at most ten times a second), a line per tenth elsewhere. */
import { describe, expect, it } from 'vitest';
import { boundProblem } from '../../../../src-main/lake/cli';
import { partitionValue } from '../../../../src-main/lake/layout';
import { progressBar } from '../../../../src-main/lake/progress';

function sink(isTTY: boolean) {
  const writes: string[] = [];
  return { stream: { isTTY, columns: 120, write: (text: string) => writes.push(text) }, writes };
}

describe('progressBar', () => {
  it('on a terminal: one line redrawn with \\r, not more often than every 100 ms, always at the end', () => {
    const { stream, writes } = sink(true);
    let now = 0;
    const bar = progressBar(stream, 'export', () => now);
    bar.update(0, 4);
    now = 50;
    bar.update(1, 4);
    now = 150;
    bar.update(2, 4, '10 rows');
    now = 160;
    bar.update(4, 4);
    bar.finish();
    expect(writes).toEqual([
      `\rexport [${'.'.repeat(28)}] 0/4`,
      `\rexport [${'#'.repeat(14)}${'.'.repeat(14)}] 2/4  10 rows`,
      `\rexport [${'#'.repeat(28)}] 4/4${' '.repeat(9)}`,
      '\n',
    ]);
  });

  it('into a file or a pipe: a line at each tenth of the way', () => {
    const { stream, writes } = sink(false);
    const bar = progressBar(stream, 'import');
    for (let done = 0; done <= 40; done += 1) bar.update(done, 40);
    bar.finish();
    expect(writes.length, '0/40, 4/40, …, 40/40').toBe(11);
    expect(writes.at(-1)).toBe(`import [${'#'.repeat(28)}] 40/40\n`);
  });
});

describe('export arguments', () => {
  it('--from/--to: a real calendar date or an ISO instant', () => {
    expect(boundProblem('from', '2026-11-20')).toBeNull();
    expect(boundProblem('to', '2026-11-20T16:00:00-05:00')).toBeNull();
    expect(boundProblem('from', '2026-02-30')).toBe('--from 2026-02-30 is not a calendar date');
    expect(boundProblem('to', 'yesterday')).toMatch(/neither a date/);
  });

  it('--from/--to lie in 1900–2200 like POST /v1/exports\'s (issue 29): a date by its year, an instant once its offset is applied', () => {
    expect(boundProblem('from', '9999-12-31')).toBe('--from 9999-12-31 names the year 9999, outside 1900–2200');
    expect(boundProblem('to', '1899-12-31')).toMatch(/year 1899, outside 1900–2200/);
    expect(boundProblem('to', '2200-12-31T23:00:00-14:00')).toBe('--to 2200-12-31T23:00:00-14:00 names the year 2201 once its offset is applied, outside 1900–2200');
    expect(boundProblem('from', '1900-01-01')).toBeNull();
    expect(boundProblem('to', '2200-12-31')).toBeNull();
  });

  it('partition values escape what would end a path segment or a key=value pair, as Hive does', () => {
    expect(partitionValue('SPX')).toBe('SPX');
    expect(partitionValue('BRK/B')).toBe('BRK%2FB');
    expect(partitionValue('A=B%')).toBe('A%3DB%25');
    expect(partitionValue('^VIX.X-1_')).toBe('^VIX.X-1_');
  });
});
