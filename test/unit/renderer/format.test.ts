/** The renderer's number formats: no sign on a value that rounds to zero, and one pluraliser. */
import { describe, expect, it } from 'vitest';
import { fmtCount, fmtExposure, fmtInt, fmtMoney, fmtMoneyCompact, fmtNumber, fmtPct, fmtPrice, fmtQuantity } from '../../../src-renderer/format';

describe('signs on numbers that round to zero', () => {
  it('calendar money: −0.12, −0.49 and +0.4 show as $0; −0.5 is −$1 (half away from zero) and −12.6 is −$13', () => {
    expect(fmtMoneyCompact(-0.12)).toBe('$0');
    expect(fmtMoneyCompact(-0.49)).toBe('$0');
    expect(fmtMoneyCompact(0.4)).toBe('$0');
    expect(fmtMoneyCompact(0)).toBe('$0');
    expect(fmtMoneyCompact(-0.5)).toBe('−$1');
    expect(fmtMoneyCompact(-12.6)).toBe('−$13');
    expect(fmtMoneyCompact(1234.4)).toBe('+$1,234');
    expect(fmtMoneyCompact(-12_345)).toBe('−$12.3k');
    expect(fmtMoneyCompact(2_500_000, 'EUR')).toBe('+EUR 2.50m');
  });

  it('exposure, integers, plain numbers and percentages follow the same rule', () => {
    expect(fmtExposure(-0.3, 'USD per 1% move')).toBe('$0');
    expect(fmtExposure(-0.3, 'shares per $1 move')).toBe('0 sh');
    expect(fmtExposure(-1500, 'USD per 1% move')).toBe('−$1.5k');
    expect(fmtExposure(2e9, 'shares per $1 move')).toBe('+2.00bn sh');
    expect(fmtInt(-0.4)).toBe('0');
    expect(fmtInt(-1234)).toBe('−1,234');
    expect(fmtNumber(-0.001, 2)).toBe('0.00');
    expect(fmtNumber(-1.5, 2)).toBe('−1.50');
    expect(fmtPrice(-0.001)).toBe('0');
    expect(fmtPct(-0.00001)).toBe('0.0%');
    expect(fmtPct(-0.0123)).toBe('−1.2%');
  });

  it('money to cents keeps its sign only when a cent shows', () => {
    expect(fmtMoney(-0.004, 'USD', true)).toBe('$0.00');
    expect(fmtMoney(-0.01, 'USD', true)).toBe('−$0.01');
    expect(fmtMoney(12.5, 'USD', true)).toBe('+$12.50');
  });
});

describe('fmtCount', () => {
  it('uses the singular for exactly one and the plural otherwise', () => {
    expect(fmtCount(1, 'contract')).toBe('1 contract');
    expect(fmtCount(0, 'contract')).toBe('0 contracts');
    expect(fmtCount(2, 'expiration')).toBe('2 expirations');
    expect(fmtCount(1204, 'new event')).toBe('1,204 new events');
    expect(fmtCount(1, 'active day')).toBe('1 active day');
    expect(fmtCount(3, 'entry', 'entries')).toBe('3 entries');
  });
});

describe('fractional shares keep their decimals (issue 27 item 9)', () => {
  it('0.5 shares is 0.5, never 1 or 0; whole counts stay whole; six decimals at most', () => {
    expect(fmtCount(0.5, 'share')).toBe('0.5 shares');
    expect(fmtQuantity(0.5)).toBe('0.5');
    expect(fmtQuantity(-0.5)).toBe('−0.5');
    expect(fmtQuantity(1200)).toBe('1,200');
    expect(fmtQuantity(12.3456)).toBe('12.3456');
    expect(fmtQuantity(0.1234567)).toBe('0.123457');
    expect(fmtCount(1.5, 'contract')).toBe('1.5 contracts');
  });
});
