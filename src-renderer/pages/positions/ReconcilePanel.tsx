/**
 * Positions → "Check against my broker" (docs/journal.md §Reconciliation; docs/ui.md §Positions): the broker's
 * positions export (Schwab, Fidelity, tastytrade, IBKR, E*TRADE, a "symbol,quantity[,cost]" CSV or JSON) compared with
 * the book at an instant, each difference with the fix that removes it: an opening prefilled at the broker's cost, an
 * expiration, a corporate action, or the closing the files lack (its price to give). Saved, the check is a balance
 * assertion: a later import that breaks it says so.
 */
import { useState } from 'react';
import type { AccountJson, PositionDifferenceJson, ReconcileResponseT } from '../../../src-shared/api/schemas';
import type { ManualTransactionT } from '../../../src-shared/api/manual-schemas';
import type { ApiError } from '../../api/client';
import { Badge, ErrorBanner, Panel } from '../../components/ui';
import { fmtCount, fmtDateTime, fmtMoney, fmtNumber, fmtSymbol } from '../../format';
import { asApiError, useApi } from '../../hooks';

const KIND_LABELS: Record<PositionDifferenceJson['kind'], string> = {
  missing_in_journal: 'not in the journal',
  missing_at_broker: 'not at the broker',
  quantity: 'quantity differs',
  cost: 'cost differs',
};

/** What one side holds: the quantity, its cost below it. */
function Side({ d, which }: { d: PositionDifferenceJson; which: 'broker' | 'journal' }) {
  const held = d[which];
  if (held === null) return <>—</>;
  return (
    <>
      {fmtNumber(held.quantity, Number.isInteger(held.quantity) ? 0 : 4)}
      {held.cost !== null && <span className="muted small recon-scope">{fmtMoney(held.cost, d.currency)}</span>}
    </>
  );
}

/** One difference's fix: its button (a price asked first where the rows need one). */
function FixButton({ difference, onApplied }: { difference: PositionDifferenceJson; onApplied: (message: string) => void }) {
  const api = useApi();
  const fix = difference.fix;
  const [price, setPrice] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  if (fix.transactions.length === 0) return <span className="muted small">{fix.label}</span>;
  const noAccount = fix.accountId === null;
  const apply = async () => {
    setBusy(true);
    setError(null);
    try {
      const rows = fix.transactions.map((row) => ({ ...row, ...(fix.needsPrice ? { price: Number(price) } : {}) }) as ManualTransactionT);
      const added = await api.call('POST /journal/transactions', { body: { transactions: rows } });
      onApplied(`${fix.label}: ${fmtSymbol(difference.symbol)}, entered as import #${added.importId} (undo it on the Import page).`);
    } catch (caught) {
      setError(asApiError(caught));
      setBusy(false);
    }
  };
  return (
    <div className="fix-cell">
      {fix.needsPrice && (
        <input
          type="number"
          step="any"
          min={0}
          inputMode="decimal"
          className="input-price"
          placeholder="Price"
          aria-label={`Price of ${difference.symbol}`}
          value={price}
          onChange={(e) => setPrice(e.target.value)}
        />
      )}
      <button
        type="button"
        className="btn btn-small"
        disabled={busy || noAccount || (fix.needsPrice && !(Number(price) >= 0 && price.trim() !== ''))}
        title={noAccount ? 'The file and the journal do not say which account: choose one above and check again' : fix.detail}
        onClick={() => void apply()}
        data-testid="apply-fix"
      >
        {fix.label}
      </button>
      {error && <ErrorBanner error={error} />}
    </div>
  );
}

export function ReconcilePanel({ accountId, accounts, asOf, onChanged, onClose }: { accountId: string; accounts: readonly AccountJson[]; asOf: string; onChanged: (message: string) => void; onClose: () => void }) {
  const api = useApi();
  const [file, setFile] = useState<File | null>(null);
  const [date, setDate] = useState(asOf.slice(0, 10));
  const [save, setSave] = useState(false);
  const [answer, setAnswer] = useState<ReconcileResponseT | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const account = accounts.find((a) => a.id === accountId);

  const check = async (chosen: File | null = file, saving = save) => {
    if (chosen === null) return;
    setBusy(true);
    setError(null);
    try {
      const json = chosen.name.toLowerCase().endsWith('.json') || chosen.type === 'application/json';
      const query = { ...(date === '' ? {} : { asOf: date }), ...(accountId === '' ? {} : { accountId }), ...(saving ? { save: 'true' as const } : {}), filename: chosen.name.slice(0, 255) };
      setAnswer(await api.upload('POST /journal/reconcile', { query }, chosen, { contentType: json ? 'application/json' : 'text/csv' }));
    } catch (caught) {
      setAnswer(null);
      setError(asApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Panel
      title="Check against my broker"
      className="reconcile-panel"
      actions={
        <button type="button" className="btn btn-small btn-ghost" onClick={onClose}>
          Close
        </button>
      }
    >
      <div className="reconcile-form" data-testid="reconcile-panel">
        <p className="small muted">
          Export your positions from the broker (Schwab, Fidelity, tastytrade, Interactive Brokers, E*TRADE), or write a CSV of <code>symbol,quantity,cost</code>: every
          instrument is compared with the journal{account ? ` of ${account.name}` : ''} at the end of the day chosen.
        </p>
        <div className="reconcile-inputs">
          <label className="field-inline">
            Positions file
            <input type="file" accept=".csv,.txt,.json,text/csv,application/json" onChange={(e) => setFile(e.target.files?.[0] ?? null)} data-testid="reconcile-file" />
          </label>
          <label className="field-inline" title="The day the file's positions are of (empty: the day the file says, else now)">
            As of
            <input type="date" value={date} onChange={(e) => setDate(e.target.value)} data-testid="reconcile-asof" />
          </label>
          <label className="field-inline field-check" title="Keep it as a balance assertion: an import that later breaks it is flagged">
            <input type="checkbox" checked={save} onChange={(e) => setSave(e.target.checked)} data-testid="reconcile-save" />
            Save as a balance assertion
          </label>
          <button type="button" className="btn btn-primary btn-small" disabled={file === null || busy} onClick={() => void check()} data-testid="reconcile-submit">
            {busy ? 'Comparing…' : 'Compare'}
          </button>
        </div>
        {accountId === '' && accounts.length > 1 && <p className="small muted">All accounts are compared together; choose one above to compare one account and apply its fixes.</p>}
        {error && <ErrorBanner error={error} />}
        {answer && (
          <div data-testid="reconcile-result">
            <p className="small">
              <strong>{answer.label}</strong>: {fmtCount(answer.positions, 'position')} read as of {fmtDateTime(answer.asOf)} ·{' '}
              <Badge tone={answer.differences.length === 0 ? 'pos' : 'warn'}>{answer.differences.length === 0 ? 'every position agrees' : `${fmtCount(answer.differences.length, 'difference')}`}</Badge> ·{' '}
              {fmtCount(answer.matched, 'instrument')} agree
              {answer.assertionId !== null && ` · saved as balance assertion #${answer.assertionId}`}
            </p>
            {answer.differences.length > 0 && (
              <div className="table-wrap">
                <table className="table table-dense reconcile-table" data-testid="reconcile-differences">
                  <thead>
                    <tr>
                      <th>Instrument</th>
                      <th>Difference</th>
                      <th className="num">Broker</th>
                      <th className="num">Journal</th>
                      <th>Fix</th>
                    </tr>
                  </thead>
                  <tbody>
                    {answer.differences.map((d) => (
                      <tr key={`${d.currency}|${d.symbol}`}>
                        <td>
                          <strong>{fmtSymbol(d.symbol)}</strong>
                          <span className="muted small recon-scope">
                            {d.accountName ?? 'all accounts'} · {d.currency}
                          </span>
                        </td>
                        <td>
                          <Badge tone={d.kind === 'cost' ? 'neutral' : 'warn'}>{KIND_LABELS[d.kind]}</Badge>
                          <span className="small muted fix-detail">{d.fix.detail}</span>
                        </td>
                        <td className="num">
                          <Side d={d} which="broker" />
                        </td>
                        <td className="num">
                          <Side d={d} which="journal" />
                        </td>
                        <td>
                          <FixButton
                            difference={d}
                            onApplied={(message) => {
                              onChanged(message);
                              void check(file, false);
                            }}
                          />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </div>
        )}
      </div>
    </Panel>
  );
}
