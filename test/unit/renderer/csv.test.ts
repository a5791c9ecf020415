/** The transactions CSV export: formula injection is neutralised and quoting follows RFC 4180. */
import { describe, expect, it } from 'vitest';
import { escapeCsvCell, toCsv } from '../../../src-renderer/csv';

describe('CSV export cells', () => {
  it('prefixes text cells that a spreadsheet would evaluate', () => {
    expect(escapeCsvCell('=HYPERLINK("http://x")'), 'OWASP: leading = gets an apostrophe (and quotes for the ")').toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(escapeCsvCell('+1+2'), 'leading +').toBe("'+1+2");
    expect(escapeCsvCell('-2+3'), 'leading −').toBe("'-2+3");
    expect(escapeCsvCell('@SUM(A1)'), 'leading @').toBe("'@SUM(A1)");
    expect(escapeCsvCell('\tcmd'), 'leading tab').toBe("'\tcmd");
    expect(escapeCsvCell('SPY250117P00450000'), 'ordinary text is untouched').toBe('SPY250117P00450000');
  });

  it('writes numbers as numbers (a negative amount is not a formula) and empties for null', () => {
    expect(escapeCsvCell(-12.5)).toBe('-12.5');
    expect(escapeCsvCell(null)).toBe('');
    expect(escapeCsvCell(undefined)).toBe('');
    expect(escapeCsvCell(Number.NaN), 'no NaN in a money column').toBe('');
  });

  it('quotes commas, quotes and newlines and ends rows with CRLF', () => {
    expect(toCsv(['a', 'b'], [['x,y', 'say "hi"'], ['line\nbreak', 3]])).toBe('a,b\r\n"x,y","say ""hi"""\r\n"line\nbreak",3\r\n');
  });
});
