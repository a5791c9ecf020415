/** The trade timeline's words (src-renderer/pages/trades/labels.ts): a leg closed by an assignment says so. */
import { describe, expect, it } from 'vitest';
import { roleWord } from '../../../../../src-renderer/pages/trades/labels';

describe('roleWord', () => {
  it('an ASSIGNMENT row is "Assigned", never "Closed"; exercise and expiration likewise; fills keep Entry, Opened, Closed', () => {
    expect(roleWord('close', 'ASSIGNMENT')).toBe('Assigned');
    expect(roleWord('close', 'EXERCISE')).toBe('Exercised');
    expect(roleWord('close', 'EXPIRATION')).toBe('Expired');
    expect(roleWord('close', 'BUY_TO_CLOSE')).toBe('Closed');
    expect(roleWord('entry', 'SELL_TO_OPEN')).toBe('Entry');
    expect(roleWord('open', 'SELL_TO_OPEN')).toBe('Opened');
  });
});
