import { describe, expect, it } from 'vitest';
import { asMinor, asMinorOrNull, centsOrNull, formatMinor, maxMinor, minorToCents, minorToUnits, parseMoneyMinor, plainDecimalMinor, toMinor } from '../../../src-shared/money';

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

describe('cases the mutation run found untested (issue 31 item 5), each with its reason', () => {
  it('an amount too large for exact minor units is refused, the same with or without a leading blank (the fast path kept 13–15-digit amounts as imprecise floats)', () => {
    // 123,456,789,012,345 × 10,000 = 1.23e18 > 2^53: no integer number of minor units can hold it exactly.
    for (const text of ['123456789012345', '9007199254740.99', '-123456789012345']) {
      expect(parseMoneyMinor(text), text).toEqual({ ok: false, error: `amount out of range: "${text}"` });
      expect(parseMoneyMinor(` ${text}`).ok, `" ${text}"`).toBe(false);
      expect(plainDecimalMinor(text), `${text}: left to the general path, which refuses it`).toBeNaN();
    }
    // The largest whole amount that is exact: 900,719,925,474 × 10,000 = 9,007,199,254,740,000 < 2^53.
    expect(parseMoneyMinor('900719925474')).toEqual({ ok: true, minor: 9_007_199_254_740_000 });
  });

  it('a refusal names the cell as it was written (the import report quotes it to the user)', () => {
    expect(parseMoneyMinor('1,2x')).toEqual({ ok: false, error: 'not a number: "1,2x"' });
    expect(parseMoneyMinor('99999999999999999999')).toEqual({ ok: false, error: 'amount out of range: "99999999999999999999"' });
  });

  it('a parenthesis without its pair is no negative amount but an error (a cut-off cell must not change sign silently)', () => {
    expect(parseMoneyMinor('(12.50').ok).toBe(false);
    expect(parseMoneyMinor('12.50)').ok).toBe(false);
  });

  it('blanks inside the parentheses and around the dollar sign, as spreadsheets and PDFs-to-CSV write them, are read', () => {
    expect(parseMoneyMinor('( 12.50 )')).toEqual({ ok: true, minor: -125_000 });
    expect(parseMoneyMinor('- $ 12.50')).toEqual({ ok: true, minor: -125_000 });
    expect(parseMoneyMinor('$ 1,234.56')).toEqual({ ok: true, minor: 12_345_600 });
    expect(parseMoneyMinor('-')).toEqual({ ok: true, minor: 0 });
  });

  it('a fraction with a letter in it is no plain decimal: 1.2x is left to the general path', () => {
    expect(plainDecimalMinor('1.2x')).toBeNaN();
    expect(plainDecimalMinor('-1.0-')).toBeNaN();
  });
});

describe('more cases for the mutation run (issue 31 item 5)', () => {
  it('the fifth decimal rounds half away from zero: 4 down, 5 up, on either sign; a negative that rounds to nothing is 0, not −0', () => {
    expect(parseMoneyMinor('$1.23454')).toEqual({ ok: true, minor: 12_345 });
    expect(parseMoneyMinor('$1.23455')).toEqual({ ok: true, minor: 12_346 });
    expect(parseMoneyMinor('($1.23455)')).toEqual({ ok: true, minor: -12_346 });
    expect(parseMoneyMinor('1.234549999'), 'only the fifth decimal decides').toEqual({ ok: true, minor: 12_345 });
    const tiny = parseMoneyMinor('-0.00004');
    expect(tiny.ok && Object.is(tiny.minor, 0), '-0.00004 is 0 minor units, +0').toBe(true);
    expect(Object.is(plainDecimalMinor('-0.0000'), 0), 'the fast path too').toBe(true);
  });

  it('maxMinor, centsOrNull, formatMinor, minorToUnits, asMinorOrNull, written out', () => {
    expect(maxMinor(asMinor(0), asMinor(-25_000)), 'a charge booked negative, unsigned').toBe(0);
    expect(maxMinor(asMinor(-5), asMinor(7))).toBe(7);
    expect(centsOrNull(null)).toBeNull();
    expect(centsOrNull(asMinor(-12_350)), '−1.235 → −1.24').toBe(-1.24);
    expect(formatMinor(asMinor(-125_000)), 'two places by default').toBe('-12.50');
    expect(formatMinor(asMinor(12_345), 4)).toBe('1.2345');
    expect(minorToUnits(asMinor(46_972_402))).toBe(4697.2402);
    expect(asMinorOrNull(null)).toBeNull();
    expect(asMinorOrNull(5)).toBe(5);
  });
});

