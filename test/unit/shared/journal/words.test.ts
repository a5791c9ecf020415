/** The journal's sentences (src-shared/journal/words.ts): what removed the units is said as it was, quantities keep their decimals. */
import { describe, expect, it } from 'vitest';
import { countText, openedBeforeHistoryText, quantityText, symbolText } from '../../../../src-shared/journal/words';

const base = { accountName: 'Acct', symbol: 'AAPL', isOption: false, quantity: 0.5, firstDate: '2025-03-03' };

describe('openedBeforeHistoryText', () => {
  it('half a share sold: 0.5 shares, sold, never bought', () => {
    expect(openedBeforeHistoryText({ ...base, closedBy: ['SELL'] })).toBe(
      'Acct · AAPL: 0.5 shares sold (first on 2025-03-03) that the history never bought: opened before the first imported row. Its P&L is left out until you enter the opening.',
    );
  });
  it('an assignment is an assignment; a buy-back and an assignment are both named; an unknown side says so', () => {
    const put = { ...base, symbol: 'SPY250117P00450000', isOption: true, quantity: -3 };
    expect(openedBeforeHistoryText({ ...put, closedBy: ['ASSIGNMENT'] })).toContain('3 contracts assigned (first on');
    expect(openedBeforeHistoryText({ ...put, closedBy: ['BUY_TO_CLOSE', 'ASSIGNMENT'] })).toContain('3 contracts bought back or assigned (first on');
    expect(openedBeforeHistoryText({ ...put, closedBy: ['EXPIRATION'], sideKnown: false })).toContain('3 contracts expired (first on 2025-03-03) that the history never sold: opened before the first imported row. No row says the side: taken as short.');
    // An older server sends no types: the side's general words.
    expect(openedBeforeHistoryText(put)).toContain('3 contracts bought back or covered');
  });
});

describe('quantities and symbols', () => {
  it('decimals kept, grouped, a true minus; OCC symbols spelled out', () => {
    expect(quantityText(0.5)).toBe('0.5');
    expect(quantityText(-1234.25)).toBe('−1,234.25');
    expect(quantityText(-0.0000001)).toBe('0');
    expect(countText(1, 'share')).toBe('1 share');
    expect(countText(0.25, 'share')).toBe('0.25 shares');
    expect(symbolText('SPY250117P00450000')).toBe('SPY 17 Jan 25 450 P');
    expect(symbolText('SPXW250117C05912500')).toBe('SPXW 17 Jan 25 5,912.5 C');
  });
});
