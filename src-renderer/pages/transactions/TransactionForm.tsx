/**
 * The form of a manual transaction (docs/ui.md §Transactions): the fields its type needs, sent as
 * POST /v1/journal/transactions (add) or PUT /v1/journal/transactions/{id} (edit). The server checks every rule (the
 * generic CSV's, docs/journal.md "Manual entries"); a refusal's problems are shown at their fields.
 */
import { useId, useState, type ReactNode } from 'react';
import { FILLS, TRANSACTION_TYPES, type TransactionType } from '../../../src-shared/api/constants';
import type { AccountJson, ManualTransactionT, TransactionJson } from '../../../src-shared/api/schemas';
import type { ApiError } from '../../api/client';
import { asApiError } from '../../hooks';
import { ErrorBanner, Options } from '../../components/ui';
import { fmtDateTime, typeLabel } from '../../format';

/** Types that name an option (the generic CSV's rule): the form asks for its parts. */
const OPTION_TYPES: ReadonlySet<string> = new Set(['BUY_TO_OPEN', 'SELL_TO_OPEN', 'BUY_TO_CLOSE', 'SELL_TO_CLOSE', 'ASSIGNMENT', 'EXERCISE', 'EXPIRATION']);
/** Rows that are their cash: the form asks for the amount (fees may be given as costs instead). */
const CASH_TYPES: ReadonlySet<string> = new Set(['DIVIDEND', 'INTEREST', 'FEE', 'DEPOSIT', 'WITHDRAWAL', 'OTHER']);
const NO_SYMBOL: ReadonlySet<string> = new Set(['INTEREST', 'DEPOSIT', 'WITHDRAWAL']);
/** A symbol change needs the old ticker: entered through the API or a file, not this form. */
const FORM_TYPES = TRANSACTION_TYPES.filter((type) => type !== 'SYMBOL_CHANGE');
/** The account select's entry for an account of a new name. */
export const NEW_ACCOUNT = '';

export interface FormState {
  type: TransactionType;
  /** An account of the journal, or NEW_ACCOUNT with `accountName`. */
  accountId: string;
  accountName: string;
  /** A ticker; for an option its root. */
  symbol: string;
  expiration: string;
  strike: string;
  right: 'C' | 'P';
  quantity: string;
  price: string;
  commission: string;
  fees: string;
  amount: string;
  /** YYYY-MM-DD (the day's close, 16:00 New York, unless a time is given). */
  date: string;
  /** HH:MM New York, or '' (the day's close). */
  time: string;
  /** A 3-letter code (every transaction keeps its own currency). */
  currency: string;
  description: string;
}

/** What an edited row keeps when the form does not change it: its instant (a row entered with a time keeps it). */
export interface Original {
  day: string;
  /** Its New York time as the form shows it ('' for the day's close). */
  time: string;
  instant: string;
  underlying: string;
  /** Fields the form does not show, kept as they are. */
  multiplier: number;
  isOption: boolean;
  orderId: string | null;
}

export function blankState(accounts: readonly AccountJson[], today: string): FormState {
  return { type: 'BUY', accountId: accounts[0]?.id ?? NEW_ACCOUNT, accountName: '', symbol: '', expiration: '', strike: '', right: 'P', quantity: '', price: '', commission: '', fees: '', amount: '', date: today, time: '', currency: 'USD', description: '' };
}

const OCC = /^([A-Z0-9./^]{1,6})\d{6}[CP]\d{8}$/;
const text = (value: number) => (value === 0 ? '' : String(value));

/**
 * An instant's New York day and time as the form's fields hold them (the server reads both in New York, whatever the
 * journal's zone); the day's close (16:00, a date alone) is time ''.
 */
function nyDayTime(instant: string, fallbackDay: string): { day: string; time: string } {
  const shown = fmtDateTime(instant);
  const day = /^\d{4}-\d{2}-\d{2}$/.test(shown.slice(0, 10)) ? shown.slice(0, 10) : fallbackDay;
  const time = shown.slice(11, 16);
  return { day, time: /^\d{2}:\d{2}$/.test(time) && time !== '16:00' ? time : '' };
}

/** A stored manual row as the form shows it. */
export function stateOf(tx: TransactionJson): { initial: FormState; original: Original } {
  const at = nyDayTime(tx.tradeDate, tx.tradeDay);
  const root = tx.isOption ? (OCC.exec(tx.symbol)?.[1] ?? tx.underlying) : tx.symbol;
  return {
    initial: {
      type: tx.type,
      accountId: tx.accountId,
      accountName: '',
      symbol: root,
      expiration: tx.expiration ?? '',
      strike: tx.strike === null ? '' : String(tx.strike),
      right: tx.right ?? 'P',
      quantity: tx.quantity === 0 && !FILLS.has(tx.type) ? '' : String(tx.quantity),
      price: FILLS.has(tx.type) ? String(tx.price) : text(tx.price),
      commission: text(tx.commission),
      fees: text(tx.fees),
      // A fill's cash is computed from its price; a cash row's is what it is.
      amount: CASH_TYPES.has(tx.type) ? String(tx.amount) : '',
      date: at.day,
      time: at.time,
      currency: tx.currency,
      description: tx.description,
    },
    original: { day: at.day, time: at.time, instant: tx.tradeDate, underlying: tx.underlying, multiplier: tx.multiplier, isOption: tx.isOption, orderId: tx.orderId },
  };
}

function numberOf(value: string): number | undefined {
  return value.trim() === '' ? undefined : Number(value);
}

/** The form's fields for a type. */
function fieldsOf(type: string) {
  const option = OPTION_TYPES.has(type);
  const fill = FILLS.has(type);
  return {
    option,
    symbol: !NO_SYMBOL.has(type),
    quantity: fill || option || type === 'SPLIT',
    price: fill,
    costs: fill || option || type === 'FEE',
    amount: CASH_TYPES.has(type),
  };
}

/** The request's row of the form (blank fields left out: the server's defaults apply). */
export function rowOf(state: FormState, original: Original | null): ManualTransactionT {
  const show = fieldsOf(state.type);
  const row: ManualTransactionT = {
    type: state.type,
    // An edit that keeps the day and the time keeps the row's own instant; a time is New York's (the server's rule).
    ...(original !== null && state.date === original.day && state.time === original.time ? { date: original.instant } : { date: state.date, ...(state.time === '' ? {} : { time: state.time }) }),
    ...(state.accountId === NEW_ACCOUNT ? { account: state.accountName.trim() } : { accountId: state.accountId }),
  };
  const symbol = state.symbol.trim().toUpperCase();
  if (show.symbol && symbol !== '') row.symbol = symbol;
  if (show.option) {
    if (state.expiration !== '') row.expiration = state.expiration;
    const strike = numberOf(state.strike);
    if (strike !== undefined) row.strike = strike;
    row.right = state.right;
    // An option whose root is not its underlying (SPXW of SPX) keeps the underlying it had.
    if (original !== null && original.underlying !== '' && original.underlying !== symbol) row.underlying = original.underlying;
  }
  const fields: Array<[keyof FormState, 'quantity' | 'price' | 'commission' | 'fees' | 'amount', boolean]> = [
    ['quantity', 'quantity', show.quantity],
    ['price', 'price', show.price],
    ['commission', 'commission', show.costs],
    ['fees', 'fees', show.costs],
    ['amount', 'amount', show.amount],
  ];
  for (const [from, to, shown] of fields) {
    const value = numberOf(state[from]);
    if (shown && value !== undefined) row[to] = value;
  }
  const currency = state.currency.trim().toUpperCase();
  if (currency !== '') row.currency = currency;
  if (original !== null) {
    // What the form does not show stays as it was (the server's defaults would reset it).
    // (A multiplier belongs to its kind of instrument: an option turned into shares takes the default again.)
    if (original.isOption === show.option && original.multiplier !== (show.option ? 100 : 1)) row.multiplier = original.multiplier;
    if (original.orderId !== null) row.orderId = original.orderId;
  }
  if (state.description.trim() !== '') row.description = state.description.trim();
  return row;
}

/** The field a problem names (`transactions.0.price` → price; the account either way). */
export function errorsByField(error: ApiError | null): Map<string, string> {
  const map = new Map<string, string>();
  for (const problem of error?.errors ?? []) {
    const field = problem.param.replace(/^transactions\.\d+\./, '');
    const key = field === 'accountId' || field === 'account' ? 'account' : field;
    if (!map.has(key)) map.set(key, problem.message);
  }
  return map;
}

/** A transaction form's submit and cancel (this form's and the opening position's, NeedsAttention). */
export function FormActions({ busy, label, busyLabel, testId, onCancel }: { busy: boolean; label: string; busyLabel: string; testId: string; onCancel: () => void }) {
  return (
    <div className="form-actions">
      <button type="submit" className="btn btn-primary" disabled={busy} data-testid={testId}>
        {busy ? busyLabel : label}
      </button>
      <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={busy}>
        Cancel
      </button>
    </div>
  );
}

/**
 * The server's refusal of a form, above its fields: a problem the form shows no field for (409, 404, a rule of the
 * whole row) in a banner; else a line pointing at the fields marked below.
 */
export function FormRefusal({ error, shown }: { error: ApiError | null; shown: ReadonlySet<string> }) {
  if (error === null) return null;
  const unplaced = error.errors.length === 0 || [...errorsByField(error).keys()].some((field) => !shown.has(field));
  if (unplaced) return <ErrorBanner error={error} />;
  return (
    <p className="field-error" role="alert">
      The server refused it: see the fields marked below.
    </p>
  );
}

/** A labelled field with its problem below it (linked by aria-describedby). */
export function Field({ label, error, children, wide }: { label: string; error: string | undefined; children: (props: { id: string; 'aria-invalid': boolean; 'aria-describedby': string | undefined }) => ReactNode; wide?: boolean }) {
  const id = useId();
  return (
    <div className={`field ${wide ? 'field-wide' : ''}`}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {children({ id, 'aria-invalid': error !== undefined, 'aria-describedby': error === undefined ? undefined : `${id}-error` })}
      {error !== undefined && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

export function TransactionForm({
  accounts,
  initial,
  original = null,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  accounts: readonly AccountJson[];
  initial: FormState;
  /** The row being edited (null: a new one). */
  original?: Original | null;
  submitLabel: string;
  onSubmit: (row: ManualTransactionT) => Promise<void>;
  onCancel: () => void;
}) {
  const [state, setState] = useState<FormState>(initial);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const show = fieldsOf(state.type);
  const problems = errorsByField(error);
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setState((s) => ({ ...s, [key]: value }));
  const shownFields = new Set(['account', 'type', 'date', 'currency', 'description', ...(show.symbol ? ['symbol'] : []), ...(show.option ? ['expiration', 'strike', 'right'] : []), ...(show.quantity ? ['quantity'] : []), ...(show.price ? ['price'] : []), ...(show.costs ? ['commission', 'fees'] : []), ...(show.amount ? ['amount'] : [])]);

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      await onSubmit(rowOf(state, original));
    } catch (caught) {
      setError(asApiError(caught));
      setBusy(false);
    }
  };
  const numberInput = (key: 'quantity' | 'price' | 'commission' | 'fees' | 'amount' | 'strike', props: { min?: number; placeholder?: string } = {}) => (field: { id: string }) => (
    <input {...field} type="number" step="any" inputMode="decimal" value={state[key]} onChange={(e) => set(key, e.target.value)} {...props} data-testid={`tx-${key}`} />
  );

  return (
    <form
      className="manual-form"
      aria-label={submitLabel}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <FormRefusal error={error} shown={shownFields} />
      <div className="form-grid">
        <Field label="Type" error={problems.get('type')}>
          {(field) => (
            <select {...field} value={state.type} onChange={(e) => set('type', FORM_TYPES.find((t) => t === e.target.value) ?? 'BUY')} data-testid="tx-type">
              <Options items={FORM_TYPES} label={typeLabel} />
            </select>
          )}
        </Field>
        <Field label="Account" error={problems.get('account')}>
          {(field) => (
            <select {...field} value={state.accountId} onChange={(e) => set('accountId', e.target.value)} data-testid="tx-account">
              <Options items={accounts} value={(a) => a.id} label={(a) => a.name} />
              <option value={NEW_ACCOUNT}>New account…</option>
            </select>
          )}
        </Field>
        {state.accountId === NEW_ACCOUNT && (
          <Field label="New account name" error={undefined}>
            {(field) => <input {...field} type="text" value={state.accountName} maxLength={64} required onChange={(e) => set('accountName', e.target.value)} data-testid="tx-account-name" />}
          </Field>
        )}
        <Field label="Date" error={problems.get('date')}>
          {(field) => <input {...field} type="date" value={state.date} required min="1900-01-01" max="2200-12-31" onChange={(e) => set('date', e.target.value)} data-testid="tx-date" />}
        </Field>
        <Field label="Time, ET (optional)" error={problems.get('time')}>
          {(field) => <input {...field} type="time" value={state.time} title="Without a time the row is at the day's close, 16:00 New York" onChange={(e) => set('time', e.target.value)} data-testid="tx-time" />}
        </Field>
        {show.symbol && (
          <Field label={show.option ? 'Underlying' : CASH_TYPES.has(state.type) ? 'Symbol (optional)' : 'Symbol'} error={problems.get('symbol') ?? problems.get('underlying')}>
            {(field) => <input {...field} type="text" value={state.symbol} maxLength={32} spellCheck={false} autoCapitalize="characters" placeholder={show.option ? 'Root, e.g. SPY' : 'e.g. AAPL'} onChange={(e) => set('symbol', e.target.value)} data-testid="tx-symbol" />}
          </Field>
        )}
        {show.option && (
          <>
            <Field label="Expiration" error={problems.get('expiration')}>
              {(field) => <input {...field} type="date" value={state.expiration} required onChange={(e) => set('expiration', e.target.value)} data-testid="tx-expiration" />}
            </Field>
            <Field label="Strike" error={problems.get('strike')}>
              {numberInput('strike', { min: 0 })}
            </Field>
            <Field label="Call or put" error={problems.get('right')}>
              {(field) => (
                <select {...field} value={state.right} onChange={(e) => set('right', e.target.value === 'C' ? 'C' : 'P')} data-testid="tx-right">
                  <option value="P">Put</option>
                  <option value="C">Call</option>
                </select>
              )}
            </Field>
          </>
        )}
        {show.quantity && (
          <Field label={state.type === 'SPLIT' ? 'Share change (±)' : show.option ? 'Contracts' : 'Shares'} error={problems.get('quantity')}>
            {numberInput('quantity', state.type === 'SPLIT' ? {} : { min: 0 })}
          </Field>
        )}
        {show.price && (
          <Field label={show.option ? 'Premium / share' : 'Price / share'} error={problems.get('price')}>
            {numberInput('price', { min: 0 })}
          </Field>
        )}
        {show.costs && (
          <>
            <Field label="Commission" error={problems.get('commission')}>
              {numberInput('commission', { min: 0, placeholder: '0.00' })}
            </Field>
            <Field label="Fees" error={problems.get('fees')}>
              {numberInput('fees', { min: 0, placeholder: '0.00' })}
            </Field>
          </>
        )}
        {show.amount && (
          <Field label="Amount (+ = credit)" error={problems.get('amount')}>
            {numberInput('amount', { placeholder: state.type === 'WITHDRAWAL' || state.type === 'FEE' ? '−0.00' : '0.00' })}
          </Field>
        )}
        <Field label="Currency" error={problems.get('currency')}>
          {(field) => <input {...field} type="text" value={state.currency} maxLength={3} spellCheck={false} autoCapitalize="characters" onChange={(e) => set('currency', e.target.value)} data-testid="tx-currency" />}
        </Field>
        <Field label="Note" error={problems.get('description')} wide>
          {(field) => <input {...field} type="text" value={state.description} maxLength={500} onChange={(e) => set('description', e.target.value)} />}
        </Field>
      </div>
      {show.price && <p className="muted small">The cash is computed: price × quantity × {show.option ? '100 (the multiplier)' : '1'}, paid on a buy and received on a sell, less commission and fees.</p>}
      <FormActions busy={busy} label={submitLabel} busyLabel="Saving…" testId="tx-submit" onCancel={onCancel} />
    </form>
  );
}
