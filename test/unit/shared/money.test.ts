import { describe, expect, it } from 'vitest';
import { asMinor, minorToCents, parseMoneyMinor, plainDecimalMinor, toMinor } from '../../../src-shared/money';

describe('parseMoneyMinor', () => {
  it.each([
    ['1,234.56', 12_345_600],
    ['-$1,234.56', -12_345_600],
    ['$-12.5', -125_000],
    ['(12.50)', -125_000],
    ['($3.00)', -30_000],
    ['+3', 30_000],
    ['0.0325', 325],
    ['0.00005', 1],
    ['-0.00005', -1],
    ['', 0],
    ['--', 0],
    ['.5', 5_000],
    ['7.', 70_000],
  ])('%s → %d minor units (1/10,000)', (text, minor) => {
    expect(parseMoneyMinor(text)).toEqual({ ok: true, minor });
  });

  it.each(['abc', '1.2.3', '$', '1,2x', 'NaN'])('rejects %s with a message', (text) => {
    const result = parseMoneyMinor(text);
    expect(result.ok).toBe(false);
  });

  it('adds exactly where floats do not: 0.1 + 0.2 = 0.3', () => {
    const a = parseMoneyMinor('0.1');
    const b = parseMoneyMinor('0.2');
    expect(a.ok && b.ok && a.minor + b.minor).toBe(3_000);
  });
});

describe('plainDecimalMinor (the fast path of plain cells)', () => {
  it.each([
    ['0', 0],
    ['-0', 0],
    ['12', 120_000],
    ['-1234.5', -12_345_000],
    ['0.0325', 325],
    ['123456789012.3456', 1_234_567_890_123_456],
  ])('%s → %d', (text, minor) => {
    expect(plainDecimalMinor(text)).toBe(minor);
  });

  it.each(['', '-', '.5', '7.', '1.23456', '1,234', '+3', ' 1', '1 ', '$1', '1e3', '1234567890123456', '--1', '1.2.3'])('leaves %j to the general path (NaN)', (text) => {
    expect(plainDecimalMinor(text)).toBeNaN();
  });

  it('agrees with the general path (the same text behind a blank) on 20,000 decimals', () => {
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (let i = 0; i < 20_000; i += 1) {
      const whole = String(next() % 10 ** (1 + (next() % 9)));
      const places = next() % 5;
      const text = `${next() % 3 === 0 ? '-' : ''}${whole}${places > 0 ? `.${String(next() % 10 ** places).padStart(places, '0')}` : ''}`;
      const general = parseMoneyMinor(` ${text}`);
      expect(general.ok && general.minor, text).toBe(plainDecimalMinor(text));
    }
  });
});

describe('conversions', () => {
  it('rounds minor units to cents half away from zero', () => {
    expect(minorToCents(asMinor(12_345))).toBe(1.23);
    expect(minorToCents(asMinor(12_350))).toBe(1.24);
    expect(minorToCents(asMinor(-12_350))).toBe(-1.24);
    expect(minorToCents(asMinor(0))).toBe(0);
  });

  it('converts float prices to minor units without binary drift', () => {
    expect(toMinor(1.005)).toBe(10_050);
    expect(toMinor(-0.15)).toBe(-1_500);
    expect(toMinor(4697.2402)).toBe(46_972_402);
  });
});
