/**
 * Issue 32: CsvScanner (the generic importer's tokeniser: one reused array of cells, no record objects) reads every
 * text into the records csvRecords reads, with the same lines and the same error at the same line: every broker file
 * (the real ones in ../shared and the self-written ones), hand-written edge cases, and seeded random texts made of the
 * characters that matter to the grammar. Long cells stay linear.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CsvScanner, csvRecords, type CsvParseResult, type CsvRecord } from '../../../../../src-main/importers/common/csv';
import { BROKER_FIXTURES_LOCAL, BROKER_FIXTURES_SHARED } from '../../../../paths';
import { seededRandom } from '../../../../../src-shared/demo/random';

function byGenerator(text: string, delimiter = ','): { records: CsvRecord[]; error: CsvParseResult['error'] } {
  const records: CsvRecord[] = [];
  const reader = csvRecords(text, delimiter);
  for (let next = reader.next(); ; next = reader.next()) {
    if (next.done === true) return { records, error: next.value };
    records.push({ line: next.value.line, cells: [...next.value.cells] });
  }
}

function byScanner(text: string, delimiter = ','): { records: CsvRecord[]; error: CsvParseResult['error'] } {
  const scanner = new CsvScanner(text, delimiter);
  const records: CsvRecord[] = [];
  while (scanner.next()) records.push({ line: scanner.line, cells: scanner.cells.slice(0, scanner.count) });
  // Once ended, it stays ended.
  expect(scanner.next()).toBe(false);
  return { records, error: scanner.error };
}

function same(text: string, delimiter = ','): { records: CsvRecord[]; error: CsvParseResult['error'] } {
  const scanned = byScanner(text, delimiter);
  expect(scanned).toEqual(byGenerator(text, delimiter));
  return scanned;
}

const files = [
  ...(existsSync(BROKER_FIXTURES_SHARED) ? readdirSync(BROKER_FIXTURES_SHARED).filter((name) => name.endsWith('.csv')).map((name) => join(BROKER_FIXTURES_SHARED, name)) : []),
  ...readdirSync(BROKER_FIXTURES_LOCAL).filter((name) => name.endsWith('.csv')).map((name) => join(BROKER_FIXTURES_LOCAL, name)),
].sort();

describe('CsvScanner reads what csvRecords reads', () => {
  it('has broker files to read', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files)('%s', (path) => {
    const { records } = same(readFileSync(path, 'utf8'));
    expect(records.length).toBeGreaterThan(0);
  });

  it('edge cases: quotes with commas, line breaks and doubled quotes, BOM, CRLF/LF/CR, blank and trailing lines, a cut last line', () => {
    const cases = [
      '',
      '\uFEFF',
      '\uFEFFa,b\r\n1,2\r\n',
      'a,b\n"x, y","two\nlines"\n"say ""hi""",3\n',
      'a,b\r"x\ry",2\r3,4\r',
      'a,b\r\n"x\r\ny",2\r\n\r\n\r\n',
      'a\n\nb',
      'a,b,\n1,2,\n',
      'a,b\n1,"2',
      'a,b\n1,"never closed\n3,4\n',
      '"never closed at the start',
      'a\n  "spaced" ,x\n "q"tail,y\n',
      '"",""\n"""",x\n',
      ',,,\n,\n',
      'last line without break',
      'a,b\n1,2\n\n',
      '\n\n\n',
      'x\r\n',
      '"a\r\n\r\nb",c\rd\n',
    ];
    for (const text of cases) same(text);
    expect(same('a,b\n1,"never closed\n3,4\n').error).toEqual({ line: 2, message: expect.stringMatching(/never closed/) });
    expect(same('a;b\n"1;2";3\n', ';').records).toEqual([{ line: 1, cells: ['a', 'b'] }, { line: 2, cells: ['1;2', '3'] }]);
  });

  it('2,000 seeded random texts of quotes, separators, line ends, spaces and letters', () => {
    const alphabet = ['"', '"', ',', ',', '\n', '\r', '\r\n', ' ', 'a', 'b', 'é', '\uFEFF', '""', 'x y'];
    for (let seed = 1; seed <= 2000; seed += 1) {
      const next = seededRandom(seed);
      const length = Math.floor(next() * 40);
      let text = next() < 0.1 ? '\uFEFF' : '';
      for (let i = 0; i < length; i += 1) text += alphabet[Math.floor(next() * alphabet.length)];
      same(text);
    }
  });

  it('a long quoted cell, a long unquoted cell and a long unclosed quote read in linear time', () => {
    const long = 'x'.repeat(2_000_000);
    // No stopwatch: quadratic work on 2M characters would take minutes, past the test's timeout (a hang bound);
    // linear takes milliseconds on any machine.
    expect(same(`a,b\n"${long.replace(/x{1000}/g, (run) => `${run}""`)}",2\n${long},3\n`).records[1]?.cells[0]?.length).toBe(2_000_000 + 2_000);
    expect(same(`a,b\n"${long}`).error?.line).toBe(2);
  });
});
