/** The Corporate actions panel's request and words (src-renderer/pages/transactions/corporate-actions.ts). */
import { describe, expect, it } from 'vitest';
import { actionInput, actionState, blankAction, fieldsOfAction, ratioText, termsText } from '../../../../../src-renderer/pages/transactions/corporate-actions';

describe('the corporate-action form', () => {
  it('sends the fields its kind shows, upper-cased and without the blank ones; every account is no accountId', () => {
    const state = { ...blankAction('2024-05-01'), type: 'merger' as const, symbol: ' ipoe ', newSymbol: 'sofi', ratio: '1', cashPerShare: '', costFraction: '0.8', quantity: '12', note: ' SPAC ' };
    expect(actionInput(state)).toEqual({ type: 'merger', date: '2024-05-01', symbol: 'IPOE', newSymbol: 'SOFI', ratio: 1, costFraction: 0.8, note: 'SPAC' });
    expect(actionInput({ ...state, type: 'free_shares', accountId: 'acc_1', quantity: '1' }), 'free shares: quantity, no ratio').toEqual({ type: 'free_shares', date: '2024-05-01', symbol: 'IPOE', accountId: 'acc_1', quantity: 1, note: 'SPAC' });
  });

  it('shows a spin-off’s cost fraction as required and a symbol change’s new symbol', () => {
    expect(fieldsOfAction('spinoff').costFraction?.required).toBe(true);
    expect(fieldsOfAction('symbol_change').newSymbol?.required).toBe(true);
    expect(fieldsOfAction('free_shares').ratio).toBeNull();
  });

  it('reads a listed action back into the form', () => {
    const listed = { id: 3, source: 'manual' as const, importId: 9, transactionId: null, accountId: null, accountName: null, date: '2024-05-01', type: 'split' as const, symbol: 'XYZ', newSymbol: null, ratio: 0.1, cashPerShare: 4, costFraction: null, quantity: null, note: '', outcome: 'applied' as const, appliedTo: [] };
    expect(actionInput(actionState(listed))).toEqual({ type: 'split', date: '2024-05-01', symbol: 'XYZ', ratio: 0.1, cashPerShare: 4 });
  });
});

describe('terms in words', () => {
  it('says ratios as splits are said', () => {
    expect([ratioText(2), ratioText(0.1), ratioText(1.5), ratioText(1 / 8), ratioText(1.7234)]).toEqual(['2-for-1', '1-for-10', '1.5 per share', '1-for-8', '1.7234 per share']);
  });

  it('names cash, shares and the basis split', () => {
    const none = { newSymbol: null, ratio: null, cashPerShare: null, costFraction: null, quantity: null };
    expect(termsText({ ...none, type: 'merger', newSymbol: 'AMD', ratio: 1.7234, cashPerShare: 10 })).toBe('1.7234 AMD a share, $10.00 a share');
    expect(termsText({ ...none, type: 'spinoff', newSymbol: 'SPN', ratio: 0.25, costFraction: 0.2 })).toBe('0.25 SPN a share, 20% of basis');
    expect(termsText({ ...none, type: 'split', quantity: 300 })).toBe('+300 shares');
    expect(termsText({ ...none, type: 'stock_dividend', ratio: 0.05 })).toBe('5%');
  });
});
