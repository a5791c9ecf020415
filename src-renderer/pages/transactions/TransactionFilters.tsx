import { TRANSACTION_TYPES, type TransactionType } from '../../../src-shared/api/constants';
import type { TransactionsQueryT } from '../../../src-shared/api/schemas';
import { typeLabel } from '../../format';
import { Options } from '../../components/ui';
import type { AccountJson } from '../../../src-shared/api/schemas';

export interface Filters {
  symbol: string;
  accountId: string;
  fromDate: string;
  toDate: string;
  /** A transaction type, or '' for all. */
  type: TransactionType | '';
}

export const EMPTY_FILTERS: Filters = { symbol: '', accountId: '', fromDate: '', toDate: '', type: '' };

export function isFiltered(filters: Filters): boolean {
  return filters.symbol !== '' || filters.accountId !== '' || filters.fromDate !== '' || filters.toDate !== '' || filters.type !== '';
}

/** The /journal/transactions query of the filters (blank fields are left out, the symbol upper-cased). */
export function toQuery(filters: Filters): TransactionsQueryT {
  const query: TransactionsQueryT = {};
  if (filters.symbol.trim() !== '') query.symbol = filters.symbol.trim().toUpperCase();
  if (filters.accountId !== '') query.accountId = filters.accountId;
  if (filters.fromDate !== '') query.fromDate = filters.fromDate;
  if (filters.toDate !== '') query.toDate = filters.toDate;
  if (filters.type !== '') query.type = filters.type;
  return query;
}

/**
 * The filter form. The symbol and the dates apply on submit; the account applies at once. `draft` is what the form
 * shows, `applied` what the table shows.
 */
export function TransactionFilters({
  draft,
  onDraft,
  applied,
  onApply,
  accounts,
}: {
  draft: Filters;
  onDraft: (draft: Filters) => void;
  applied: Filters;
  onApply: (filters: Filters) => void;
  accounts: readonly AccountJson[] | undefined;
}) {
  return (
    <form
      className="filters"
      aria-label="Filter transactions"
      onSubmit={(event) => {
        event.preventDefault();
        onApply(draft);
      }}
    >
      <label className="field">
        <span>Symbol</span>
        <input type="search" placeholder="e.g. SPY" value={draft.symbol} onChange={(e) => onDraft({ ...draft, symbol: e.target.value })} maxLength={16} spellCheck={false} autoCapitalize="characters" />
      </label>
      <label className="field">
        <span>Account</span>
        <select
          value={draft.accountId}
          onChange={(e) => {
            const next = { ...draft, accountId: e.target.value };
            onDraft(next);
            onApply(next);
          }}
        >
          <option value="">All accounts</option>
          <Options items={accounts} value={(a) => a.id} label={(a) => a.name} />
        </select>
      </label>
      {/* Not a wrapping <label>: its text would include every option's ("Symbol change" would answer to "Symbol"). */}
      <div className="field">
        <span id="type-filter-label">Type</span>
        <select
          aria-labelledby="type-filter-label"
          value={draft.type}
          data-testid="type-filter"
          onChange={(e) => {
            const value = e.target.value;
            const next = { ...draft, type: TRANSACTION_TYPES.find((t) => t === value) ?? ('' as const) };
            onDraft(next);
            onApply(next);
          }}
        >
          <option value="">All types</option>
          <Options items={TRANSACTION_TYPES} label={typeLabel} />
        </select>
      </div>
      <label className="field">
        <span>From</span>
        <input type="date" value={draft.fromDate} max={draft.toDate || undefined} onChange={(e) => onDraft({ ...draft, fromDate: e.target.value })} />
      </label>
      <label className="field">
        <span>To</span>
        <input type="date" value={draft.toDate} min={draft.fromDate || undefined} onChange={(e) => onDraft({ ...draft, toDate: e.target.value })} />
      </label>
      <div className="filters-actions">
        <button type="submit" className="btn btn-primary">
          Apply
        </button>
        <button
          type="button"
          className="btn btn-ghost"
          disabled={!isFiltered(applied) && draft.symbol === '' && draft.fromDate === '' && draft.toDate === ''}
          onClick={() => {
            onDraft(EMPTY_FILTERS);
            onApply(EMPTY_FILTERS);
          }}
        >
          Clear
        </button>
      </div>
    </form>
  );
}
