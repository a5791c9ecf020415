import { describe, expect, it } from 'vitest';
import { countWord, flipWords, listOfLevels } from '../../../../../src-renderer/pages/exposure/flip-words';

describe('the gamma flip in words', () => {
  it('two crossings are named both, in order (the issue’s example)', () => {
    expect(flipWords('multiple', [4712, 4801], 4750)).toBe('two crossings: 4,712 and 4,801');
  });

  it('three crossings of the real NDX 2022-02-04 chain (nearest three expirations), to the cent', () => {
    expect(flipWords('multiple', [15032.385238582909, 15199.777425837794, 15317.073931506151], 14694.3506)).toBe('three crossings: 15,032.39, 15,199.78 and 15,317.07');
  });

  it('one crossing says how far from spot and on which side: SPX 2024-01-05, (4,725.86 − 4,697.24) / 4,697.24 = 0.61%', () => {
    expect(flipWords('ok', [4725.857126745801], 4697.2402)).toBe('one crossing, 0.61% above spot');
    expect(flipWords('ok', [584.7779722900391], 589.25)).toBe('one crossing, 0.76% below spot');
    expect(flipWords('ok', [100.001], 100)).toBe('one crossing, at spot');
  });

  it('none', () => {
    expect(flipWords('none', [], 100)).toBe('no crossing within ±20% of spot');
  });

  it('counts in words up to twelve, then digits; lists with commas and a final "and"', () => {
    expect(countWord(2)).toBe('two');
    expect(countWord(12)).toBe('twelve');
    expect(countWord(13)).toBe('13');
    expect(listOfLevels([1])).toBe('1');
    expect(listOfLevels([1, 2, 3, 4])).toBe('1, 2, 3 and 4');
  });
});
