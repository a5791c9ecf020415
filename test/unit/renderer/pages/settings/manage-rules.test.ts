/** Settings → Management rules (docs/ui.md §Settings): the setting as a form and back, and what the form refuses. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_MANAGE_RULES } from '../../../../../src-shared/journal/manage';
import { fromRulesDraft, toRulesDraft } from '../../../../../src-renderer/pages/settings/manage-rules';

describe('the management rules form', () => {
  it('round trip: the setting comes back as it went', () => {
    const rules = { ...DEFAULT_MANAGE_RULES, lossStopMultiple: 1.5, upcomingDividends: [{ symbol: 'KO', exDate: '2024-03-14', amount: 0.485 }] };
    expect(fromRulesDraft(toRulesDraft(rules))).toEqual({ value: rules });
  });
  it('a rule switched off is null and keeps its number in the form (the default when it had none)', () => {
    const draft = toRulesDraft({ ...DEFAULT_MANAGE_RULES, manageAtDte: null });
    expect([draft.on.manageAtDte, draft.value.manageAtDte]).toEqual([false, '21']);
    expect(fromRulesDraft({ ...draft, value: { ...draft.value, manageAtDte: 'x' } })).toEqual({ value: { ...DEFAULT_MANAGE_RULES, manageAtDte: null } });
  });
  it('refuses what the API would, in words: a fractional DTE, a zero target, a dividend without ex-date or amount', () => {
    const draft = toRulesDraft(DEFAULT_MANAGE_RULES);
    expect(fromRulesDraft({ ...draft, value: { ...draft.value, manageAtDte: '21.5' } })).toEqual({ error: 'Manage at: a whole number from 0 to 3650, or switch the rule off.' });
    expect(fromRulesDraft({ ...draft, value: { ...draft.value, profitTargetPct: '0' } })).toEqual({ error: 'Profit target: a number above 0 and at most 1000, or switch the rule off.' });
    expect(fromRulesDraft({ ...draft, dividends: [{ symbol: 'ko', exDate: '', amount: '0.5' }] })).toEqual({ error: 'Dividend 1 (KO): the ex-date is a date.' });
    expect(fromRulesDraft({ ...draft, dividends: [{ symbol: 'KO', exDate: '2024-03-14', amount: '' }] })).toEqual({ error: 'Dividend 1 (KO): the amount is per share, above 0.' });
    // A symbol in lower case is stored upper case.
    expect(fromRulesDraft({ ...draft, dividends: [{ symbol: 'ko', exDate: '2024-03-14', amount: '0.485' }] })).toEqual({ value: { ...DEFAULT_MANAGE_RULES, upcomingDividends: [{ symbol: 'KO', exDate: '2024-03-14', amount: 0.485 }] } });
  });
});
