/**
 * The management rules in the UI's words (docs/ui.md §Today): a short name and a badge tone per rule, the rules as
 * set in one line, and where each item links. Pure: the renderer's unit tests read it without JSX.
 */
import type { ManageRulesJson } from '../../../src-shared/api/schemas';
import type { ManageRule } from '../../../src-shared/journal/manage';

export const RULE_LABELS: Record<ManageRule, string> = {
  itm_near_expiry: 'ITM near expiry',
  loss_stop: 'Loss stop',
  dividend: 'Dividend risk',
  level: 'Level alert',
  dte: 'DTE',
  profit_target: 'Profit target',
};

/** Assignment and stop losses first in red, what to watch in amber, the routine in blue, a profit to take in green. */
export const RULE_TONES: Record<ManageRule, 'neg' | 'warn' | 'info' | 'pos'> = {
  itm_near_expiry: 'neg',
  loss_stop: 'neg',
  dividend: 'warn',
  level: 'warn',
  dte: 'info',
  profit_target: 'pos',
};

/** The rules as set, in one line: "profit 50 % · 21 DTE · stop 2× · ITM within 7 days · dividends (2 upcoming) · level alerts". */
export function rulesLine(rules: ManageRulesJson): string {
  const parts: string[] = [];
  if (rules.profitTargetPct !== null) parts.push(`take profit at ${rules.profitTargetPct}%`);
  if (rules.manageAtDte !== null) parts.push(`manage at ${rules.manageAtDte} DTE`);
  if (rules.lossStopMultiple !== null) parts.push(`stop at ${rules.lossStopMultiple}× the credit`);
  if (rules.itmWithinDays !== null) parts.push(`in the money within ${rules.itmWithinDays} days`);
  if (rules.dividendRisk) parts.push(`dividend risk (${rules.upcomingDividends.length} upcoming)`);
  if (rules.levelAlerts) parts.push('level alerts');
  return parts.length === 0 ? 'every rule is off' : parts.join(' · ');
}

/** The trade's detail on the Trades page, and its rolls there. */
export const tradeHref = (tradeId: string): string => `#/trades?${new URLSearchParams({ status: 'open', trade: tradeId }).toString()}`;
export const rollsHref = (tradeId: string): string => `#/trades?${new URLSearchParams({ status: 'open', trade: tradeId, rolls: '1' }).toString()}`;
