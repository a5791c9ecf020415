/**
 * Issue 32: readOccSymbol (the generic importer's OCC reader, no regex) answers what parseOccSymbol answers for every
 * text: real symbols, padded ones, each way of being almost one (a root too long, a digit short, a wrong right, white
 * space inside, lower case, non-ASCII look-alikes), and 20,000 seeded random texts built near the pattern.
 */
import { describe, expect, it } from 'vitest';
import { readOccSymbol } from '../../../../../src-main/importers/common/options';
import { parseOccSymbol } from '../../../../../src-shared/journal/model';
import { seededRandom } from '../../../../../src-shared/demo/random';

function same(text: string): ReturnType<typeof parseOccSymbol> {
  const read = readOccSymbol(text);
  expect(read, JSON.stringify(text)).toEqual(parseOccSymbol(text));
  return read;
}

describe('readOccSymbol reads what parseOccSymbol reads', () => {
  it('real and almost-real symbols', () => {
    expect(same('SPY250117P00450000')).toEqual({ root: 'SPY', expiration: '2025-01-17', right: 'P', strike: 450 });
    expect(same('PFE   260116C00020000')).toEqual({ root: 'PFE', expiration: '2026-01-16', right: 'C', strike: 20 });
    expect(same('spxw250117c05000500')).toEqual({ root: 'SPXW', expiration: '2025-01-17', right: 'C', strike: 5000.5 });
    expect(same('BRK.B250117C00400000')?.root).toBe('BRK.B');
    const cases = [
      '', 'SPY', 'SPY250117P0045000', 'SPY250117P004500000', 'SPY250117X00450000', 'SPY2501177P00450000', 'TOOLONG250117P00450000',
      '123456250117P00450000', '1250117P00450000', '250117P00450000', ' SPY250117P00450000 ', 'SP Y250117P00450000', 'SPY\t250117P00450000',
      'SPY\u00a0250117P00450000', 'SPY\u3000250117C00001000', 'SPY\n250117C00001000', 'S-Y250117P00450000', 'ÉPY250117P00450000',
      'SPY２50117P00450000', 'SPY250117P0045000０', 'A/B250117P00000001', './ES250117P00450000', 'SPY250117P00450000\u200b', '\ufeffSPY250117P00450000',
      'ſPY250117P00450000', 'SPY 250117 P00450000', 'SPY250117p00450000', 'AB       250117C99999999',
    ];
    for (const text of cases) same(text);
  });

  it('20,000 seeded random texts near the pattern', () => {
    const rootChars = ['A', 'Z', 'q', '0', '9', '.', '/', '-', ' ', '\t', 'É', '\u00a0'];
    const digits = ['0', '1', '5', '9', 'x', ' '];
    let options = 0;
    for (let seed = 1; seed <= 20_000; seed += 1) {
      const next = seededRandom(seed);
      const pick = (list: readonly string[]): string => list[Math.floor(next() * list.length)] ?? '';
      let text = next() < 0.1 ? ' ' : '';
      const rootLength = Math.floor(next() * 8);
      for (let i = 0; i < rootLength; i += 1) text += pick(rootChars);
      if (next() < 0.3) text += ' '.repeat(1 + Math.floor(next() * 3));
      const dateLength = 5 + Math.floor(next() * 3);
      for (let i = 0; i < dateLength; i += 1) text += next() < 0.9 ? String(Math.floor(next() * 10)) : pick(digits);
      text += pick(['C', 'P', 'c', 'p', 'X']);
      const strikeLength = 7 + Math.floor(next() * 3);
      for (let i = 0; i < strikeLength; i += 1) text += next() < 0.95 ? String(Math.floor(next() * 10)) : pick(digits);
      if (same(text) !== null) options += 1;
    }
    // Both answers are exercised, not only refusals.
    expect(options).toBeGreaterThan(500);
    expect(options).toBeLessThan(19_000);
  });
});
