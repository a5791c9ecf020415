import { describe, expect, it } from 'vitest';
import { canonicalNumber, parseMoney, parseNumber } from '../../../../../src-main/importers/common/cells';

describe('the one number grammar of the importers', () => {
  it('reads what brokers write, in one canonical form', () => {
    for (const [raw, canonical] of [
      ['1,234.56', '1234.56'],
      ['-$1,234.56', '-1234.56'],
      ['$-12.5', '-12.5'],
      ['(70.56)', '-70.56'],
      ['($70.56)', '-70.56'],
      ['+3', '3'],
      ['.55', '.55'],
      ['@1.6200000000', '1.6200000000'],
      ['-2.637591265E-4', '-2.637591265E-4'],
      ['$0.51 ', '0.51'],
      ['1,000', '1000'],
    ] as const) {
      expect(canonicalNumber(raw), raw).toBe(canonical);
    }
  });

  it('reads placeholders as empty and refuses what is not a number (a decimal comma is not a thousands separator)', () => {
    for (const raw of ['', ' ', '-', '--', 'N/A']) expect(canonicalNumber(raw), raw).toBe('');
    for (const raw of ['1,5', '12x.5', '1.2.3', '$', '--5', '-$-5', 'abc']) expect(canonicalNumber(raw), raw).toBeNull();
  });

  it('money is exact to the minor unit (1/10,000), rounding the fifth decimal; exponents too', () => {
    expect(parseMoney('0.1419999999999999')).toEqual({ ok: true, value: 1_420 });
    expect(parseMoney('-2.637591265E-4')).toEqual({ ok: true, value: -3 });
    expect(parseMoney('($283.50)')).toEqual({ ok: true, value: -2_835_000 });
    expect(parseMoney('--')).toEqual({ ok: true, value: null });
    expect(parseMoney('lots')).toEqual({ ok: false, error: 'not a number: "lots"' });
    expect(parseNumber('5.81305')).toEqual({ ok: true, value: 5.81305 });
  });
});
