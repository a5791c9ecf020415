/**
 * Settings → Management rules (docs/ui.md §Settings; docs/journal.md §Managing open trades): each rule of the Today page
 * on or off with its threshold, the dividend and level rules, and the upcoming dividends the dividend rule reads (a
 * symbol, its ex-date and the amount per share). Saved on its own (PUT /settings with `manageRules`).
 */
import { useEffect, useState } from 'react';
import type { ManageRulesJson } from '../../../src-shared/api/schemas';
import { ApiError } from '../../api/client';
import { Panel } from '../../components/ui';
import { useApi } from '../../hooks';
import { fromRulesDraft, THRESHOLDS, toRulesDraft, type RulesDraft } from './manage-rules';

export function ManageRulesPanel({ rules }: { rules: ManageRulesJson }) {
  const api = useApi();
  const [draft, setDraft] = useState<RulesDraft>(() => toRulesDraft(rules));
  const [state, setState] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => setDraft(toRulesDraft(rules)), [rules]);

  const save = async () => {
    const parsed = fromRulesDraft(draft);
    if ('error' in parsed) {
      setState({ kind: 'error', text: parsed.error });
      return;
    }
    setSaving(true);
    setState(null);
    try {
      const saved = await api.call('PUT /settings', { body: { manageRules: parsed.value } });
      setDraft(toRulesDraft(saved.manageRules));
      setState({ kind: 'ok', text: 'Saved: the Today page reads them at once.' });
    } catch (error) {
      setState({ kind: 'error', text: error instanceof ApiError ? error.message : String(error) });
    } finally {
      setSaving(false);
    }
  };

  const setDividend = (index: number, change: Partial<RulesDraft['dividends'][number]>) =>
    setDraft({ ...draft, dividends: draft.dividends.map((row, i) => (i === index ? { ...row, ...change } : row)) });

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
      data-testid="manage-rules"
    >
      <Panel title="Management rules">
        <p className="muted small">
          The Today page lists the open trades that reach one of these on fresh marks, most urgent first: in the money near expiry, the loss stop, dividend risk, a level alert, the DTE, the
          profit target.
        </p>
        <div className="form-grid">
          {THRESHOLDS.map(({ key, label, unit, hint, integer, max }) => (
            <div className="field" key={key}>
              <label className="field-check">
                <input type="checkbox" checked={draft.on[key]} onChange={(e) => setDraft({ ...draft, on: { ...draft.on, [key]: e.target.checked } })} data-testid={`rule-${key}-on`} />
                <span>{label}</span>
              </label>
              <span className="field-inline">
                <input
                  type="number"
                  min={0}
                  max={max}
                  step={integer ? 1 : 'any'}
                  value={draft.value[key]}
                  disabled={!draft.on[key]}
                  onChange={(e) => setDraft({ ...draft, value: { ...draft.value, [key]: e.target.value } })}
                  className="input-narrow"
                  aria-label={`${label} (${unit})`}
                  data-testid={`rule-${key}`}
                />
                <span className="muted small">{unit}</span>
              </span>
              <small className="muted">{hint}</small>
            </div>
          ))}
          <label className="field field-check">
            <input type="checkbox" checked={draft.levelAlerts} onChange={(e) => setDraft({ ...draft, levelAlerts: e.target.checked })} data-testid="rule-levelAlerts" />
            <span>Level alerts: a dealer level crossed or came near a short strike (the alerts on your strikes above)</span>
          </label>
          <label className="field field-check">
            <input type="checkbox" checked={draft.dividendRisk} onChange={(e) => setDraft({ ...draft, dividendRisk: e.target.checked })} data-testid="rule-dividendRisk" />
            <span>Dividend risk: a short call in the money whose extrinsic value is below an upcoming dividend (below)</span>
          </label>
        </div>
        <h3 className="subhead">Upcoming dividends</h3>
        <p className="muted small">Ex-date and amount per share, as the company declared them; a past ex-date is ignored.</p>
        <table className="table dividends-table" data-testid="dividends">
          <thead>
            <tr>
              <th>Symbol</th>
              <th>Ex-date</th>
              <th className="num">Per share</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {draft.dividends.map((row, index) => (
              <tr key={index}>
                <td>
                  <input type="text" value={row.symbol} onChange={(e) => setDividend(index, { symbol: e.target.value.toUpperCase() })} maxLength={16} size={6} aria-label="Symbol" spellCheck={false} />
                </td>
                <td>
                  <input type="date" value={row.exDate} onChange={(e) => setDividend(index, { exDate: e.target.value })} aria-label="Ex-date" />
                </td>
                <td className="num">
                  <input type="number" min={0} step="any" value={row.amount} onChange={(e) => setDividend(index, { amount: e.target.value })} className="input-narrow" aria-label="Amount per share" />
                </td>
                <td>
                  <button type="button" className="btn btn-small btn-ghost" onClick={() => setDraft({ ...draft, dividends: draft.dividends.filter((_, i) => i !== index) })} aria-label={`Remove the ${row.symbol} dividend`}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <button type="button" className="btn btn-small" onClick={() => setDraft({ ...draft, dividends: [...draft.dividends, { symbol: '', exDate: '', amount: '' }] })} data-testid="dividend-add">
          Add a dividend
        </button>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={saving} data-testid="manage-rules-save">
            {saving ? 'Saving…' : 'Save rules'}
          </button>
          <button type="button" className="btn btn-ghost" onClick={() => setDraft(toRulesDraft(rules))}>
            Revert
          </button>
          {state && (
            <span className={`small ${state.kind === 'error' ? 'neg' : 'pos'}`} role={state.kind === 'error' ? 'alert' : 'status'}>
              {state.text}
            </span>
          )}
        </div>
      </Panel>
    </form>
  );
}
