import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../src-main/importers/common/csv';

describe('parseCsv', () => {
  it('keeps the starting line of multi-line quoted cells (Robinhood descriptions)', () => {
    const { records, error } = parseCsv('\uFEFFa,b\r\n"x\nstill x",2\n3,"q ""quoted"""\n');
    expect(error).toBeNull();
    expect(records).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['x\nstill x', '2'] },
      { line: 4, cells: ['3', 'q "quoted"'] },
    ]);
  });

  it('reports an unclosed quote with the line where it opened', () => {
    const { error } = parseCsv('a,b\n1,2\n3,"never closed\n4,5\n');
    expect(error).toEqual({ line: 3, message: expect.stringMatching(/never closed/) });
  });

  it('handles a last line without newline and blank lines', () => {
    const { records } = parseCsv('a\n\nb');
    expect(records).toEqual([
      { line: 1, cells: ['a'] },
      { line: 2, cells: [''] },
      { line: 3, cells: ['b'] },
    ]);
  });
});
