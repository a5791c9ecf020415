import { describe, expect, it } from 'vitest';
import { csvRecords, parseCsv } from '../../../../../src-main/importers/common/csv';
import { ResultCollector } from '../../../../../src-main/importers/common/result';
import { readTable } from '../../../../../src-main/importers/common/table';

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

describe('readTable reads rows as they are iterated', () => {
  const spec = { isHeader: (names: Set<string>) => names.has('date'), required: ['date', 'amount'], what: 'a test table', headerHint: 'date,amount' };

  it('finds the header below a title, counts and checks each row when the importer reaches it', () => {
    const out = new ResultCollector('generic', 'test', 'oldest-first');
    const table = readTable(out, 'My export\ndate,amount\n2024-01-02,1\n2024-01-03,2,extra\nTotal,3\n2024-01-04\n2024-01-05,4\n', spec);
    expect(table?.preamble.map((record) => record.line)).toEqual([1]);
    expect(out.rows, 'nothing is read before the rows are').toBe(0);
    const lines = [...(table?.rows ?? [])].map((record) => record.line);
    expect(lines, 'the totals row and the two broken rows are not data').toEqual([3, 7]);
    expect(out.rows).toBe(4);
    expect(out.errors.map((error) => error.line)).toEqual([4, 6]);
  });

  it('reads the rows before a quoted cell that is never closed, then names the line where it opened', () => {
    const out = new ResultCollector('generic', 'test', 'oldest-first');
    const table = readTable(out, 'date,amount\n2024-01-02,1\n2024-01-03,"2\n2024-01-04,3\n', spec);
    expect([...(table?.rows ?? [])].map((record) => record.line)).toEqual([2]);
    expect(out.errors).toEqual([{ line: 3, message: expect.stringMatching(/never closed/) }]);
  });

  it('a quoted cell never closed above the header is the one error', () => {
    const out = new ResultCollector('generic', 'test', 'oldest-first');
    expect(readTable(out, '"title\ndate,amount\n', spec)).toBeNull();
    expect(out.errors).toEqual([{ line: 1, message: expect.stringMatching(/never closed/) }]);
  });

  it('yields the records parseCsv returns, one at a time', () => {
    const text = 'a,"b\nc"\n\n1,2\r\n3,4';
    expect([...csvRecords(text)]).toEqual(parseCsv(text).records);
  });
});

describe('a whole-file read (issue 29: 49 MB of `x,y` lines were twelve million records and 3 GB)', () => {
  it('keeps at most maxRecords records, and says at which line it stopped', () => {
    const text = 'h1,h2\nx,y\nx,y\n\nx,y\n';
    expect(parseCsv(text, ',', 5).records).toHaveLength(5);
    expect(parseCsv(text, ',', 4)).toEqual({ records: [], error: { line: 5, message: 'more than 4 lines: this format is read whole, and no real export has that many; export a shorter period' } });
  });
});
