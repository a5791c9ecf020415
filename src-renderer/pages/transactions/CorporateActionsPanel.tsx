/**
 * Corporate actions on the Transactions page (docs/ui.md §Transactions, docs/journal.md §Corporate actions): every
 * action the journal applies — a file's split, symbol change, merger... and those entered by hand — with what each did,
 * and a form to enter one a file lacks (POST /v1/journal/corporate-actions), change or delete it; each change can be
 * undone from the message it leaves (and an action entered by hand is an import: the Import page undoes it too).
 */
import { useId, useState } from 'react';
import { CORPORATE_ACTION_TYPES } from '../../../src-shared/api/constants';
import type { AccountJson, CorporateActionInputT, CorporateActionJsonT } from '../../../src-shared/api/schemas';
import type { ApiError } from '../../api/client';
import { Pager } from '../../components/Pager';
import { AsyncStatus, Badge, colClass, DataTable, ErrorBanner, Options, Panel } from '../../components/ui';
import { dateInTimeZone } from '../../format';
import { asApiError, useApi, useAsync } from '../../hooks';
import { ACTION_LABELS, actionInput, actionState, blankAction, fieldsOfAction, OUTCOME_LABELS, termsText, type ActionFormState } from './corporate-actions';
import { errorsByField, Field, FormActions, FormRefusal } from './TransactionForm';

type Editor = { mode: 'add' } | { mode: 'edit'; action: CorporateActionJsonT };
/** What the last change did, and how to take it back. */
interface Done {
  text: string;
  undo: (() => Promise<string>) | null;
}

const describe = (input: Pick<CorporateActionInputT, 'type' | 'symbol' | 'date'>) => `${ACTION_LABELS[input.type].toLowerCase()} of ${input.symbol} on ${input.date}`;

export function CorporateActionsPanel({ accounts, onChanged }: { accounts: readonly AccountJson[]; onChanged: () => void }) {
  const api = useApi();
  const [page, setPage] = useState(1);
  const list = useAsync((signal) => api.call('GET /journal/corporate-actions', { query: { page } }, { signal }), [api, page]);
  const [editor, setEditor] = useState<Editor | null>(null);
  const [done, setDone] = useState<Done | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  const changed = (next: Done) => {
    setDone(next);
    setError(null);
    list.reload();
    onChanged();
  };
  const remove = async (action: CorporateActionJsonT) => {
    if (action.id === null) return;
    const input = actionInput(actionState(action));
    try {
      await api.call('DELETE /journal/corporate-actions/{id}', { params: { id: action.id } });
      changed({
        text: `Deleted the ${describe(input)}.`,
        undo: async () => {
          const again = await api.call('POST /journal/corporate-actions', { body: input });
          return `Restored the ${describe(input)} as import #${again.importId}.`;
        },
      });
    } catch (caught) {
      setError(asApiError(caught));
    }
  };
  const undo = async (step: () => Promise<string>) => {
    try {
      changed({ text: await step(), undo: null });
    } catch (caught) {
      setError(asApiError(caught));
    }
  };

  const data = list.data;
  return (
    <Panel
      title="Corporate actions"
      id="corporate-actions"
      actions={
        <button type="button" className="btn btn-small" onClick={() => setEditor({ mode: 'add' })} disabled={editor?.mode === 'add'} data-testid="add-corporate-action">
          Add corporate action
        </button>
      }
    >
      <div className="pad corporate-actions" data-testid="corporate-actions">
        {editor && (
          <CorporateActionForm
            key={editor.mode === 'add' ? 'add' : String(editor.action.id)}
            accounts={accounts}
            initial={editor.mode === 'add' ? blankAction(dateInTimeZone(Date.now())) : actionState(editor.action)}
            submitLabel={editor.mode === 'add' ? 'Add corporate action' : 'Save changes'}
            onCancel={() => setEditor(null)}
            onSubmit={async (input) => {
              if (editor.mode === 'add') {
                const added = await api.call('POST /journal/corporate-actions', { body: input });
                changed({ text: `Added the ${describe(input)} as import #${added.importId}.`, undo: async () => (await api.call('DELETE /journal/corporate-actions/{id}', { params: { id: added.id } }), `Took back the ${describe(input)}.`) });
              } else {
                const before = actionInput(actionState(editor.action));
                const id = editor.action.id ?? 0;
                await api.call('PUT /journal/corporate-actions/{id}', { params: { id }, body: input });
                changed({ text: `Saved the ${describe(input)}.`, undo: async () => (await api.call('PUT /journal/corporate-actions/{id}', { params: { id }, body: before }), `Put back the ${describe(before)} as it was.`) });
              }
              setEditor(null);
            }}
          />
        )}
        {done !== null && (
          <div className="alert alert-info" role="status" data-testid="corporate-actions-message">
            {done.text}
            {done.undo !== null && (
              <button type="button" className="btn btn-small btn-ghost" onClick={() => void undo(done.undo ?? (async () => ''))} data-testid="corporate-action-undo">
                Undo
              </button>
            )}
          </div>
        )}
        {error && <ErrorBanner error={error} />}
        <AsyncStatus state={list} label="Loading corporate actions…" />
        {data && data.corporateActions.length === 0 && (
          <p className="muted small">
            None yet. Splits, symbol changes, mergers, stock dividends and spin-offs your files state are listed here; add one a file lacks (a SPAC merger, a split of shares held elsewhere) and the journal carries the lots and open options through it.
          </p>
        )}
        {data && data.corporateActions.length > 0 && (
          <>
            <DataTable
              testId="corporate-actions-table"
              className="table table-dense"
              columns={[{ label: 'Date', hide: 'mid' }, 'Action', { label: 'Terms', hide: 'lo' }, { label: 'Account', hide: 'mid' }, { label: 'From', hide: 'lo' }, 'Outcome', '']}
            >
              {data.corporateActions.map((action) => (
                <ActionRow key={action.id === null ? `f${action.transactionId ?? ''}` : `m${action.id}`} action={action} onEdit={() => setEditor({ mode: 'edit', action })} onDelete={() => void remove(action)} />
              ))}
            </DataTable>
            {data.pagination.pages > 1 && <Pager label="Corporate action pages" page={page} pages={data.pagination.pages} shownPage={data.pagination.page} onPage={setPage} />}
          </>
        )}
      </div>
    </Panel>
  );
}

function ActionRow({ action, onEdit, onDelete }: { action: CorporateActionJsonT; onEdit: () => void; onDelete: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const outcome = OUTCOME_LABELS[action.outcome];
  const symbols = action.newSymbol !== null && action.newSymbol !== action.symbol ? `${action.symbol} → ${action.newSymbol}` : action.symbol;
  return (
    <tr data-testid="corporate-action-row">
      <td className={colClass('mid', 'tnum')}>{action.date}</td>
      <td className="action-cell">
        <span className="strong">{symbols}</span>
        <span className="muted small action-kind">
          {ACTION_LABELS[action.type]}
          <span className="action-date"> · {action.date}</span>
        </span>
      </td>
      <td className={colClass('lo', 'small')}>{termsText(action)}</td>
      <td className={colClass('mid')}>{action.accountId === null ? <span className="muted">every account</span> : (action.accountName ?? action.accountId)}</td>
      <td className={colClass('lo', 'small')}>
        {action.source === 'manual' ? (
          'entered by hand'
        ) : (
          <a className="muted" href="#/import" title={`Read from a file: it changes with its file (import #${action.importId}). Enter the same action by hand to correct it: yours applies, the file’s becomes a duplicate.`}>
            file, import #{action.importId}
          </a>
        )}
      </td>
      <td>
        <Badge tone={outcome.tone} title={outcome.title}>
          {outcome.label}
        </Badge>
      </td>
      <td className="right">
        {action.source === 'manual' &&
          (confirming ? (
            <span className="row-actions">
              <span className="small">Delete?</span>
              <button type="button" className="btn btn-small btn-danger" onClick={onDelete} data-testid="corporate-action-delete-confirm">
                Yes
              </button>
              <button type="button" className="btn btn-small btn-ghost" onClick={() => setConfirming(false)} autoFocus>
                No
              </button>
            </span>
          ) : (
            <span className="row-actions">
              <button type="button" className="btn btn-small btn-ghost" onClick={onEdit} aria-label={`Edit the ${ACTION_LABELS[action.type].toLowerCase()} of ${action.symbol}`} data-testid="corporate-action-edit">
                Edit
              </button>
              <button type="button" className="btn btn-small btn-ghost btn-danger" onClick={() => setConfirming(true)} aria-label={`Delete the ${ACTION_LABELS[action.type].toLowerCase()} of ${action.symbol}`} data-testid="corporate-action-delete">
                Delete
              </button>
            </span>
          ))}
      </td>
    </tr>
  );
}

function CorporateActionForm({
  accounts,
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  accounts: readonly AccountJson[];
  initial: ActionFormState;
  submitLabel: string;
  onSubmit: (input: CorporateActionInputT) => Promise<void>;
  onCancel: () => void;
}) {
  const [state, setState] = useState<ActionFormState>(initial);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const helpId = useId();
  const fields = fieldsOfAction(state.type);
  const problems = errorsByField(error);
  const set = <K extends keyof ActionFormState>(key: K, value: ActionFormState[K]) => setState((s) => ({ ...s, [key]: value }));
  const shown = new Set(['type', 'account', 'date', 'symbol', 'note', ...(fields.newSymbol ? ['newSymbol'] : []), ...(fields.ratio ? ['ratio'] : []), ...(fields.cashPerShare ? ['cashPerShare'] : []), ...(fields.costFraction ? ['costFraction'] : []), ...(fields.quantity ? ['quantity'] : [])]);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      await onSubmit(actionInput(state));
    } catch (caught) {
      setError(asApiError(caught));
      setBusy(false);
    }
  };
  const numberInput = (key: 'ratio' | 'cashPerShare' | 'costFraction' | 'quantity', props: { min?: number; max?: number; placeholder?: string }) => (field: { id: string }) => (
    <input {...field} type="number" step="any" inputMode="decimal" value={state[key]} onChange={(e) => set(key, e.target.value)} {...props} data-testid={`ca-${key}`} />
  );
  return (
    <form
      className="manual-form"
      aria-label={submitLabel}
      aria-describedby={helpId}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      data-testid="corporate-action-form"
    >
      <FormRefusal error={error} shown={shown} />
      <div className="form-grid">
        <Field label="Action" error={problems.get('type')}>
          {(field) => (
            <select {...field} value={state.type} onChange={(e) => set('type', CORPORATE_ACTION_TYPES.find((t) => t === e.target.value) ?? 'split')} data-testid="ca-type">
              <Options items={CORPORATE_ACTION_TYPES} label={(type) => (type === 'split' ? 'Split or reverse split' : ACTION_LABELS[type])} />
            </select>
          )}
        </Field>
        <Field label="Account" error={problems.get('account')}>
          {(field) => (
            <select {...field} value={state.accountId} onChange={(e) => set('accountId', e.target.value)} data-testid="ca-account">
              <option value="">Every account</option>
              <Options items={accounts} value={(a) => a.id} label={(a) => a.name} />
            </select>
          )}
        </Field>
        <Field label="Effective date" error={problems.get('date')}>
          {(field) => <input {...field} type="date" value={state.date} required min="1900-01-01" max="2200-12-31" onChange={(e) => set('date', e.target.value)} data-testid="ca-date" />}
        </Field>
        <Field label={state.type === 'spinoff' ? 'Parent symbol' : state.type === 'symbol_change' || state.type === 'merger' ? 'Old symbol' : 'Symbol'} error={problems.get('symbol')}>
          {(field) => <input {...field} type="text" value={state.symbol} required maxLength={16} spellCheck={false} autoCapitalize="characters" placeholder="e.g. IPOE" onChange={(e) => set('symbol', e.target.value)} data-testid="ca-symbol" />}
        </Field>
        {fields.newSymbol && (
          <Field label={fields.newSymbol.label} error={problems.get('newSymbol')}>
            {(field) => <input {...field} type="text" value={state.newSymbol} required={fields.newSymbol?.required === true} maxLength={16} spellCheck={false} autoCapitalize="characters" placeholder="e.g. SOFI" onChange={(e) => set('newSymbol', e.target.value)} data-testid="ca-newSymbol" />}
          </Field>
        )}
        {fields.ratio && (
          <Field label={fields.ratio.label} error={problems.get('ratio')}>
            {numberInput('ratio', { min: 0 })}
          </Field>
        )}
        {fields.cashPerShare && (
          <Field label={fields.cashPerShare.label} error={problems.get('cashPerShare')}>
            {numberInput('cashPerShare', { min: 0, placeholder: '0.00' })}
          </Field>
        )}
        {fields.costFraction && (
          <Field label={fields.costFraction.label} error={problems.get('costFraction')}>
            {numberInput('costFraction', { min: 0, max: 1, placeholder: '0.00–1.00' })}
          </Field>
        )}
        {fields.quantity && (
          <Field label={fields.quantity.label} error={problems.get('quantity')}>
            {numberInput('quantity', { min: 0 })}
          </Field>
        )}
        <Field label="Note" error={problems.get('note')} wide>
          {(field) => <input {...field} type="text" value={state.note} maxLength={500} onChange={(e) => set('note', e.target.value)} />}
        </Field>
      </div>
      <p className="muted small" id={helpId}>
        {fields.help} It applies at the start of the effective date; the same action in a file of that account and day then counts once.
      </p>
      <FormActions busy={busy} label={submitLabel} busyLabel="Saving…" testId="ca-submit" onCancel={onCancel} />
    </form>
  );
}
