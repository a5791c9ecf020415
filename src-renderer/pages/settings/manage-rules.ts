/**
 * The management rules' form (docs/ui.md §Settings, "Management rules"), pure: the setting as a draft of texts and
 * switches (a rule switched off keeps its number, so switching it back on restores it), and the draft back as the
 * setting, or the first problem in words.
 */
import type { ManageRulesJson } from '../../../src-shared/api/schemas';
import { DEFAULT_MANAGE_RULES } from '../../../src-shared/journal/manage';

type Threshold = 'profitTargetPct' | 'manageAtDte' | 'lossStopMultiple' | 'itmWithinDays';

export interface RulesDraft {
  on: Record<Threshold, boolean>;
  value: Record<Threshold, string>;
  dividendRisk: boolean;
  levelAlerts: boolean;
  dividends: Array<{ symbol: string; exDate: string; amount: string }>;
}

export const THRESHOLDS: ReadonlyArray<{ key: Threshold; label: string; unit: string; hint: string; integer: boolean; max: number }> = [
  { key: 'profitTargetPct', label: 'Profit target', unit: '% of max profit', hint: 'Take the profit once this share of the max profit is captured (default 50).', integer: false, max: 1000 },
  { key: 'manageAtDte', label: 'Manage at', unit: 'DTE', hint: 'Close or roll at this many days to the nearest short expiration (default 21).', integer: true, max: 3650 },
  { key: 'lossStopMultiple', label: 'Loss stop', unit: '× the credit', hint: 'Stop at a loss of this many times the credit taken (default 2).', integer: false, max: 100 },
  { key: 'itmWithinDays', label: 'In the money within', unit: 'days of expiry', hint: 'A short option in the money this close to expiry: assignment is near (default 7).', integer: true, max: 3650 },
];

export function toRulesDraft(rules: ManageRulesJson): RulesDraft {
  const on = {} as Record<Threshold, boolean>;
  const value = {} as Record<Threshold, string>;
  for (const { key } of THRESHOLDS) {
    const set = rules[key];
    on[key] = set !== null;
    value[key] = String(set ?? DEFAULT_MANAGE_RULES[key] ?? '');
  }
  return { on, value, dividendRisk: rules.dividendRisk, levelAlerts: rules.levelAlerts, dividends: rules.upcomingDividends.map((d) => ({ symbol: d.symbol, exDate: d.exDate, amount: String(d.amount) })) };
}

export function fromRulesDraft(draft: RulesDraft): { value: ManageRulesJson } | { error: string } {
  const thresholds = {} as Record<Threshold, number | null>;
  for (const { key, label, integer, max } of THRESHOLDS) {
    if (!draft.on[key]) {
      thresholds[key] = null;
      continue;
    }
    const text = draft.value[key].trim();
    const number = Number(text);
    if (text === '' || !Number.isFinite(number) || (integer ? !Number.isInteger(number) || number < 0 : number <= 0) || number > max) {
      return { error: `${label}: ${integer ? `a whole number from 0 to ${max}` : `a number above 0 and at most ${max}`}, or switch the rule off.` };
    }
    thresholds[key] = number;
  }
  const upcomingDividends: ManageRulesJson['upcomingDividends'] = [];
  for (const [index, row] of draft.dividends.entries()) {
    const symbol = row.symbol.trim().toUpperCase();
    const amount = Number(row.amount);
    if (!/^[A-Z0-9][A-Z0-9._/^-]{0,15}$/.test(symbol)) return { error: `Dividend ${index + 1}: the symbol is a ticker, e.g. KO.` };
    if (!/^\d{4}-\d{2}-\d{2}$/.test(row.exDate)) return { error: `Dividend ${index + 1} (${symbol}): the ex-date is a date.` };
    if (row.amount.trim() === '' || !Number.isFinite(amount) || amount <= 0 || amount > 100_000) return { error: `Dividend ${index + 1} (${symbol}): the amount is per share, above 0.` };
    upcomingDividends.push({ symbol, exDate: row.exDate, amount });
  }
  return { value: { ...thresholds, dividendRisk: draft.dividendRisk, levelAlerts: draft.levelAlerts, upcomingDividends } };
}
