/**
 * What the book cannot decide alone (docs/journal.md §Positions, "Needs attention"; docs/ui.md §Positions): an opening
 * the history never saw (with "Add opening position", a manual opening prefilled from the item), an expiry without
 * evidence (what to import, or "Expired worthless" per item and for all out of the money at the last snapshot), an
 * option past expiry in the money. Items of a server without `kind` fall back to their
 * `reason`.
 */
import { useState, type ReactNode } from 'react';
import { addDays, isoInstant, parseInstantMs } from '../../../src-shared/calendar';
import { TRANSACTION_TYPES, type TransactionType } from '../../../src-shared/api/constants';
import type { PositionsResponseT } from '../../../src-shared/api/schemas';
import { ErrorBanner, Panel } from '../../components/ui';
import { openedBeforeHistoryText } from '../../../src-shared/journal/words';
import { fmtCount, fmtDateTime, fmtMoney, fmtNumber, fmtPrice, fmtQuantity, fmtSymbol, typeLabel } from '../../format';
import { asApiError, useApi } from '../../hooks';
import type { ApiError } from '../../api/client';
import { errorsByField, Field, FormActions } from '../transactions/TransactionForm';
import { ReconciliationTable } from '../import/ReconciliationTable';

/** An item as the ledger of issue 17 sends it; every field beyond the first schema's may be absent (an older server). */
export type AttentionItem = PositionsResponseT['needsAttention'][number] &
  Partial<{ kind: string; isOption: boolean; multiplier: number; currency: string; sideKnown: boolean; firstDate: string | null; firstTradeDate: string | null; closes: number; closedBy: string[] }>;

/** A stock short is opened by a short sale where the journal knows the type (issue 17), else by a plain SELL. */
const SHORT_SALE: TransactionType = TRANSACTION_TYPES.find((type) => (type as string) === 'SELL_SHORT') ?? 'SELL';

function isOptionItem(item: AttentionItem): boolean {
  return item.isOption ?? item.expiration !== null;
}

function units(item: AttentionItem, quantity: number): string {
  return isOptionItem(item) ? fmtCount(quantity, 'contract') : fmtCount(quantity, 'share');
}

/** The opening a missing position needs: its side from the sign (+ long, − short), an option's or a stock's type. */
function openingType(item: AttentionItem): TransactionType {
  const long = item.quantity > 0;
  if (isOptionItem(item)) return long ? 'BUY_TO_OPEN' : 'SELL_TO_OPEN';
  return long ? 'BUY' : SHORT_SALE;
}

/**
 * The opening's date as sent: the day chosen (its close, 16:00 New York), except on the day of the first unmatched
 * close itself, whose instant may be earlier that day: then a minute before that close, so the opening comes first.
 */
function openingDate(day: string, item: AttentionItem): string {
  if (day !== item.firstDate || item.firstTradeDate === null || item.firstTradeDate === undefined) return day;
  const ms = parseInstantMs(item.firstTradeDate);
  return Number.isNaN(ms) ? day : isoInstant(ms - 60_000);
}

function OpeningForm({ item, onAdded, onCancel }: { item: AttentionItem; onAdded: (message: string) => void; onCancel: () => void }) {
  const api = useApi();
  const firstDate = item.firstDate ?? null;
  const [date, setDate] = useState(firstDate === null ? '' : addDays(firstDate, -1));
  const [quantity, setQuantity] = useState(String(Math.abs(item.quantity)));
  const [price, setPrice] = useState('');
  const [fees, setFees] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const type = openingType(item);
  const problems = errorsByField(error);
  const option = isOptionItem(item);

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const added = await api.call('POST /journal/transactions', {
        body: {
          transactions: [
            {
              accountId: item.accountId,
              type,
              symbol: item.symbol,
              ...(item.underlying !== '' ? { underlying: item.underlying } : {}),
              quantity: Number(quantity),
              price: Number(price),
              ...(fees.trim() === '' ? {} : { fees: Number(fees) }),
              ...(option && item.multiplier !== undefined ? { multiplier: item.multiplier } : {}),
              ...(item.currency !== undefined ? { currency: item.currency } : {}),
              date: openingDate(date, item),
              description: 'Opening position (before the imported history)',
            },
          ],
        },
      });
      onAdded(`Added the opening of ${fmtSymbol(item.symbol)} in ${item.accountName} as import #${added.importId} (undo it on the Import page).`);
    } catch (caught) {
      setError(asApiError(caught));
      setBusy(false);
    }
  };

  return (
    <form
      className="manual-form"
      aria-label={`Opening position of ${item.symbol}`}
      data-testid="opening-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <p className="small">
        <strong>{typeLabel(type)}</strong> {units(item, Math.abs(item.quantity))} of {fmtSymbol(item.symbol)} in {item.accountName}, on or before {firstDate ?? 'the first close'}: give the price you{' '}
        {item.quantity > 0 ? 'paid' : 'received'} when you opened it.
      </p>
      {error && (error.errors.length === 0 || [...problems.keys()].some((f) => !['date', 'quantity', 'price', 'fees'].includes(f))) && <ErrorBanner error={error} />}
      <div className="form-grid">
        <Field label="Opened on" error={problems.get('date')}>
          {(field) => <input {...field} type="date" value={date} required min="1900-01-01" max={firstDate ?? undefined} onChange={(e) => setDate(e.target.value)} data-testid="opening-date" />}
        </Field>
        <Field label={option ? 'Contracts' : 'Shares'} error={problems.get('quantity')}>
          {(field) => <input {...field} type="number" step="any" min={0} inputMode="decimal" required value={quantity} onChange={(e) => setQuantity(e.target.value)} data-testid="opening-quantity" />}
        </Field>
        <Field label={option ? 'Premium / share' : 'Price / share'} error={problems.get('price')}>
          {(field) => <input {...field} type="number" step="any" min={0} inputMode="decimal" required value={price} onChange={(e) => setPrice(e.target.value)} data-testid="opening-price" />}
        </Field>
        <Field label="Fees (optional)" error={problems.get('fees')}>
          {(field) => <input {...field} type="number" step="any" min={0} inputMode="decimal" placeholder="0.00" value={fees} onChange={(e) => setFees(e.target.value)} data-testid="opening-fees" />}
        </Field>
      </div>
      <FormActions busy={busy} label="Add opening position" busyLabel="Adding…" testId="opening-submit" onCancel={onCancel} />
    </form>
  );
}

function itemKey(item: AttentionItem): string {
  return `${item.kind ?? item.reason}|${item.accountId}|${item.symbol}|${item.currency ?? ''}`;
}

/** The opening the history never saw: what was closed, when, and the button that enters it. */
function OpenedBefore({ item, onAdded }: { item: AttentionItem; onAdded: (message: string) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <li className="attention-item" data-testid="attention-opened-before-history">
      {/* The import report warns of the same close in the same words (src-shared/journal/words.ts). */}
      <span className="small" data-testid="attention-sentence">
        {openedBeforeHistoryText({ ...item, isOption: isOptionItem(item), firstDate: item.firstDate ?? null })}
      </span>
      {!open && (
        <button type="button" className="btn btn-small" onClick={() => setOpen(true)} data-testid="add-opening">
          Add opening position
        </button>
      )}
      {open && <OpeningForm item={item} onAdded={onAdded} onCancel={() => setOpen(false)} />}
    </li>
  );
}

function expiryText(item: AttentionItem): string {
  return `${item.accountName}: ${fmtSymbol(item.symbol)} × ${fmtQuantity(item.quantity)} expired ${item.expiration ?? ''} with no closing row, and no chain snapshot of ${item.underlying} within one trading day of the expiry shows where it finished.`;
}

/** The last snapshot before the expiry, as an item of a server since issue 27 carries it (null: none, or an older server). */
function lastSnapshotOf(item: AttentionItem): { spot: number; quoteTime: string; outOfTheMoney: boolean } | null {
  const known: Partial<Pick<AttentionItem, 'lastSnapshot'>> = item;
  return known.lastSnapshot ?? null;
}

function lastSnapshotText(item: AttentionItem): string | null {
  const last = lastSnapshotOf(item);
  if (last === null) return null;
  return `Last snapshot before it: ${item.underlying} ${fmtPrice(last.spot)} at ${fmtDateTime(last.quoteTime)}, ${last.outOfTheMoney ? 'out of the money' : 'in the money'}.`;
}

/**
 * "Expired worthless" (POST /journal/expirations): the user says how an expiry no row or snapshot shows ended. One
 * manual import per click, undone on the Import page like any import.
 */
function useExpire(onAdded: (message: string) => void) {
  const api = useApi();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const expire = async (key: string, items: readonly AttentionItem[]) => {
    setBusy(key);
    setError(null);
    try {
      const booked = await api.call('POST /journal/expirations', { body: { items: items.map((item) => ({ accountId: item.accountId, symbol: item.symbol })) } });
      const what = booked.expired.length === 1 ? fmtSymbol(booked.expired[0]?.symbol ?? '') : fmtCount(booked.expired.length, 'option');
      onAdded(`Booked ${what} as expired worthless (import #${booked.importId}; undo it on the Import page).`);
    } catch (caught) {
      setError(asApiError(caught));
    } finally {
      setBusy(null);
    }
  };
  return { busy, error, expire };
}

function ExpiryUnknown({ items, onAdded }: { items: readonly AttentionItem[]; onAdded: (message: string) => void }) {
  const { busy, error, expire } = useExpire(onAdded);
  const outOfTheMoney = items.filter((item) => lastSnapshotOf(item)?.outOfTheMoney === true);
  return (
    <section className="attention-section">
      <h3>Expiry unknown ({fmtNumber(items.length, 0)})</h3>
      <p className="small muted">
        Evidence missing: import the broker&apos;s expiration, assignment or exercise row, or a chain snapshot of the underlying taken within a trading day of the expiry (Import page, Option chain
        snapshot). If you know it expired worthless, say so: the premium is then realized on its expiry day.
      </p>
      {error && <ErrorBanner error={error} />}
      {outOfTheMoney.length > 0 && (
        <div className="attention-bulk">
          <button type="button" className="btn btn-small" disabled={busy !== null} onClick={() => void expire('all', outOfTheMoney)} data-testid="expire-all-otm">
            {busy === 'all'
              ? 'Booking…'
              : outOfTheMoney.length === 1
                ? 'Expired worthless: the one out of the money at its last snapshot'
                : `Expired worthless: all ${fmtNumber(outOfTheMoney.length, 0)} out of the money at their last snapshot`}
          </button>
        </div>
      )}
      <Capped
        items={items}
        render={(item) => (
          <li key={itemKey(item)} className="attention-item small" data-testid="attention-expiry-unknown">
            <span>
              {expiryText(item)} {lastSnapshotText(item) !== null && <span className="muted">{lastSnapshotText(item)}</span>}
            </span>
            <button type="button" className="btn btn-small" disabled={busy !== null} onClick={() => void expire(itemKey(item), [item])} data-testid="expire-one">
              {busy === itemKey(item) ? 'Booking…' : 'Expired worthless'}
            </button>
          </li>
        )}
      />
    </section>
  );
}

/** The item's reason as text (an older server knows fewer of them). */
const reasonOf = (item: AttentionItem): string => item.reason;

/** Items a section lists before "Show all": a long export's 70 items made the page 4,000 px taller than its book. */
const FIRST_ITEMS = 10;

/** The first items of a section, then a button for the rest. */
function Capped<T>({ items, render }: { items: readonly T[]; render: (item: T) => ReactNode }) {
  const [all, setAll] = useState(false);
  const shown = all ? items : items.slice(0, FIRST_ITEMS);
  return (
    <>
      <ul className="attention-list">{shown.map(render)}</ul>
      {items.length > FIRST_ITEMS && (
        <button type="button" className="btn btn-small btn-ghost" onClick={() => setAll((a) => !a)} aria-expanded={all}>
          {all ? `Show the first ${FIRST_ITEMS}` : `Show all ${fmtNumber(items.length, 0)}`}
        </button>
      )}
    </>
  );
}

/**
 * The imports whose files' own figures differ from the journal's (kind reconciliation), each with its differing
 * figures and the button that acknowledges them.
 */
function DiffersFromBroker({ items, onAdded }: { items: readonly AttentionItem[]; onAdded: (message: string) => void }) {
  const api = useApi();
  const [busy, setBusy] = useState<number | null>(null);
  const byImport = new Map<number, AttentionItem[]>();
  for (const item of items) {
    const id = item.reconciliation?.importId ?? 0;
    byImport.set(id, [...(byImport.get(id) ?? []), item]);
  }
  const acknowledge = (id: number) => {
    setBusy(id);
    api
      .call('POST /imports/{id}/acknowledge', { params: { id } })
      .then(() => onAdded(`Import #${id}: its differences from the broker's figures are acknowledged (still in its report).`))
      .catch(() => setBusy(null));
  };
  return (
    <section className="attention-section" data-testid="attention-reconciliation">
      <h3>Differs from the broker&apos;s figures ({fmtNumber(items.length, 0)})</h3>
      <p className="small muted">
        A figure an imported file states about itself (a total, a realized P&amp;L, a position at its end), or a balance assertion the import broke, does not agree with the journal:
        a row misread, a file missing, an opening before the history. Fix it, undo the import, or acknowledge it.
      </p>
      <ul className="attention-list attention-list-figures">
        {[...byImport].map(([id, rows]) => (
          <li key={id} className="attention-item">
            <div className="small attention-figures">
              <strong>Import #{id}</strong>
              <ReconciliationTable rows={rows.flatMap((item) => (item.reconciliation ? [item.reconciliation] : []))} testId={`attention-reconciliation-${id}`} />
            </div>
            <button type="button" className="btn btn-small" disabled={busy === id} onClick={() => acknowledge(id)} data-testid="acknowledge-differences">
              Acknowledge
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function NeedsAttention({ items, onAdded }: { items: readonly AttentionItem[]; onAdded: (message: string) => void }) {
  const differs = items.filter((i) => i.kind === 'reconciliation');
  const rest = items.filter((i) => i.kind !== 'reconciliation');
  const opened = rest.filter((i) => i.kind === 'opened_before_history' || reasonOf(i) === 'opened-before-history');
  const expiry = rest.filter((i) => !opened.includes(i) && (i.kind === 'expiry_unknown' || (i.kind === undefined && reasonOf(i) === 'no-snapshot-after-expiry')));
  const other = rest.filter((i) => i.kind === 'other_rows');
  const itm = rest.filter((i) => !opened.includes(i) && !expiry.includes(i) && !other.includes(i) && (i.kind === undefined || i.kind === 'in_the_money'));
  return (
    <Panel title="Needs attention" className="panel-warn">
      <div data-testid="needs-attention">
        {differs.length > 0 && <DiffersFromBroker items={differs} onAdded={onAdded} />}
        {opened.length > 0 && (
          <section className="attention-section">
            <h3>Opened before the history ({fmtNumber(opened.length, 0)})</h3>
            <p className="small muted">The export starts after these positions were opened: it shows only their closes. Enter each opening (the price you paid or received) to count them.</p>
            <Capped items={opened} render={(item) => <OpenedBefore key={itemKey(item)} item={item} onAdded={onAdded} />} />
          </section>
        )}
        {expiry.length > 0 && <ExpiryUnknown items={expiry} onAdded={onAdded} />}
        {itm.length > 0 && (
          <section className="attention-section">
            <h3>In the money at expiry ({fmtNumber(itm.length, 0)})</h3>
            <p className="small muted">Options past their expiration with no closing row: assignment or exercise is likely. Import the broker&apos;s assignment or exercise rows to settle them.</p>
            <Capped
              items={itm}
              render={(item) => (
                <li key={itemKey(item)} className="small" data-testid="attention-in-the-money">
                  {item.accountName}: {fmtSymbol(item.symbol)} × {fmtQuantity(item.quantity)} —{' '}
                  {item.spot !== null ? `in the money (spot ${fmtPrice(item.spot)} at ${fmtDateTime(item.quoteTime ?? '')})` : 'no chain snapshot after its expiry'}
                </li>
              )}
            />
          </section>
        )}
        {other.length > 0 && (
          <section className="attention-section">
            <h3>Rows kept as OTHER ({fmtNumber(other.length, 0)})</h3>
            <p className="small muted">Rows the importer did not understand, or kept aside, that move cash: it is in the account&apos;s cash but in no P&amp;L figure. See each import&apos;s warnings; undo and re-import once the broker&apos;s file is read, or enter the trades by hand.</p>
            <Capped
              items={other}
              render={(item) => (
                <li key={itemKey(item)} className="small" data-testid="attention-other-rows">
                  {item.accountName}: {fmtCount(item.quantity, 'row')} carrying {fmtMoney(item.cash ?? 0, item.currency, true)}
                  {item.firstDate ? ` (the first on ${item.firstDate})` : ''}
                </li>
              )}
            />
          </section>
        )}
      </div>
    </Panel>
  );
}
