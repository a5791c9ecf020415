/** Today's words for the rules (docs/ui.md §Today): the line of rules as set, and where an item links. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_MANAGE_RULES, MANAGE_RULES } from '../../../../../src-shared/journal/manage';
import { RULE_LABELS, RULE_TONES, rollsHref, rulesLine, tradeHref } from '../../../../../src-renderer/pages/today/rules';

describe('rulesLine', () => {
  it('the defaults in words', () => {
    expect(rulesLine(DEFAULT_MANAGE_RULES)).toBe('take profit at 50% · manage at 21 DTE · stop at 2× the credit · in the money within 7 days · dividend risk (0 upcoming) · level alerts');
  });
  it('a rule off is left out; all off says so', () => {
    expect(rulesLine({ ...DEFAULT_MANAGE_RULES, profitTargetPct: null, levelAlerts: false, upcomingDividends: [{ symbol: 'KO', exDate: '2024-03-14', amount: 0.485 }] })).toBe(
      'manage at 21 DTE · stop at 2× the credit · in the money within 7 days · dividend risk (1 upcoming)',
    );
    expect(rulesLine({ ...DEFAULT_MANAGE_RULES, profitTargetPct: null, manageAtDte: null, lossStopMultiple: null, itmWithinDays: null, dividendRisk: false, levelAlerts: false })).toBe('every rule is off');
  });
});

describe('labels, tones and links', () => {
  it('every rule has a label and a tone; the urgent ones are red', () => {
    for (const rule of MANAGE_RULES) expect(RULE_LABELS[rule].length).toBeGreaterThan(0);
    expect(MANAGE_RULES.filter((rule) => RULE_TONES[rule] === 'neg')).toEqual(['itm_near_expiry', 'loss_stop']);
  });
  it('an item opens its trade among the open trades, and its rolls', () => {
    expect(tradeHref('mtx_a b')).toBe('#/trades?status=open&trade=mtx_a+b');
    expect(rollsHref('tx_1')).toBe('#/trades?status=open&trade=tx_1&rolls=1');
  });
});
