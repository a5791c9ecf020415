import { useState } from 'react';
import { MANUAL_SOURCE, type TransactionSort, type TransactionSortColumn } from '../../../src-shared/api/constants';
import type { TransactionJson } from '../../../src-shared/api/schemas';
import { Badge } from '../../components/ui';
import { fmtDateTime, fmtMoney, fmtQuantity, fmtSymbol, signClass, typeLabel } from '../../format';

/** Fill prices with at least cents and at most the 4 decimals stored, so a column of prices lines up. */
function fmtFillPrice(value: number): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 });
}

/** A header that sorts the whole filtered list on the server: first click descending for numbers, ascending for text. */
function SortHeader({ column, label, sort, onSort, numeric }: { column: TransactionSortColumn; label: string; sort: TransactionSort; onSort: (sort: TransactionSort) => void; numeric?: boolean }) {
  const active = sort === column || sort === `-${column}`;
  const descending = sort.startsWith('-');
  const next: TransactionSort = active ? (descending ? column : `-${column}`) : numeric || column === 'tradeDate' ? `-${column}` : column;
  return (
    <th className={`sortable ${numeric ? 'num' : ''}`} aria-sort={active ? (descending ? 'descending' : 'ascending') : 'none'}>
      <button type="button" onClick={() => onSort(next)} data-testid={`sort-${column}`}>
        {label}
        {active ? (descending ? ' ▾' : ' ▴') : ''}
      </button>
    </th>
  );
}

function typeTone(type: string): 'pos' | 'neg' | 'info' | 'warn' | 'neutral' {
  if (type === 'SELL_TO_OPEN' || type === 'SELL' || type === 'SELL_TO_CLOSE' || type === 'SELL_SHORT') return 'pos';
  if (type === 'BUY_TO_OPEN' || type === 'BUY' || type === 'BUY_TO_CLOSE' || type === 'BUY_TO_COVER') return 'neg';
  if (type === 'ASSIGNMENT' || type === 'EXERCISE') return 'warn';
  if (type === 'EXPIRATION' || type === 'DIVIDEND' || type === 'INTEREST') return 'info';
  return 'neutral';
}

/**
 * Edit and Delete on a row entered by hand (Delete asks once more, in place); a row of a file says where it came from:
 * it changes only with its file (undo the import on the Import page).
 */
function RowActions({ tx, onEdit, onDelete }: { tx: TransactionJson; onEdit: (tx: TransactionJson) => void; onDelete: (tx: TransactionJson) => void }) {
  const [confirming, setConfirming] = useState(false);
  if (tx.source !== MANUAL_SOURCE) {
    return (
      <a className="muted small" href="#/import" title={`Imported from a file (${tx.source}): it changes only with its file. Undo import #${tx.importId} on the Import page, or add a manual transaction beside it.`} data-testid="row-imported">
        import #{tx.importId}
      </a>
    );
  }
  if (confirming) {
    return (
      <span className="row-actions">
        <span className="small">Delete?</span>
        <button type="button" className="btn btn-small btn-danger" onClick={() => onDelete(tx)} data-testid="row-delete-confirm">
          Yes
        </button>
        {/* Focus on the safe answer, which also scrolls the question into view in a narrow table's box. */}
        <button type="button" className="btn btn-small btn-ghost" onClick={() => setConfirming(false)} autoFocus>
          No
        </button>
      </span>
    );
  }
  return (
    <span className="row-actions">
      {/* A symbol change needs its old ticker, which the form does not ask for: it is changed through the API. */}
      {tx.type !== 'SYMBOL_CHANGE' && (
        <button type="button" className="btn btn-small btn-ghost" onClick={() => onEdit(tx)} aria-label={`Edit ${tx.symbol || typeLabel(tx.type)} of ${tx.tradeDay}`} data-testid="row-edit">
          Edit
        </button>
      )}
      <button type="button" className="btn btn-small btn-ghost btn-danger" onClick={() => setConfirming(true)} aria-label={`Delete ${tx.symbol || typeLabel(tx.type)} of ${tx.tradeDay}`} data-testid="row-delete">
        Delete
      </button>
    </span>
  );
}

/**
 * One page of transactions in the server's order (a page holds at most 100 rows, so plain rows serve: no virtual
 * list); dimmed while the next page loads.
 */
export function TransactionsTable({
  transactions,
  loading,
  sort,
  onSort,
  onEdit,
  onDelete,
}: {
  transactions: readonly TransactionJson[];
  loading: boolean;
  sort: TransactionSort;
  onSort: (sort: TransactionSort) => void;
  onEdit: (tx: TransactionJson) => void;
  onDelete: (tx: TransactionJson) => void;
}) {
  return (
    <div className="table-wrap">
      {/* On a phone each row is a card (styles/narrow.css): symbol and amount first, the rest under them. */}
      <table className={`table table-dense tx-table ${loading ? 'is-loading' : ''}`} data-testid="transactions-table">
        <thead>
          <tr>
            <SortHeader column="tradeDate" label="Date (ET)" sort={sort} onSort={onSort} />
            <th className="tx-account">Account</th>
            <SortHeader column="type" label="Type" sort={sort} onSort={onSort} />
            <SortHeader column="symbol" label="Symbol" sort={sort} onSort={onSort} />
            <SortHeader column="quantity" label="Qty" sort={sort} onSort={onSort} numeric />
            <SortHeader column="price" label="Price" sort={sort} onSort={onSort} numeric />
            <SortHeader column="amount" label="Amount" sort={sort} onSort={onSort} numeric />
            <SortHeader column="realizedPL" label="Realized" sort={sort} onSort={onSort} numeric />
            <th className="num tx-costs">Comm. + fees</th>
            <th className="tx-source">Source</th>
            <th className="tx-actions">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {transactions.map((t) => (
            <tr key={t.id} title={t.description} data-source={t.source}>
              <td className="tnum tx-date">{fmtDateTime(t.tradeDate).replace(' ET', '')}</td>
              <td className="nowrap tx-account">{t.accountName}</td>
              <td className="tx-type">
                <Badge tone={typeTone(t.type)}>{typeLabel(t.type)}</Badge>
                {t.inferred && (
                  <span className="muted small" title={`Inferred: the file holds no row for this ${typeLabel(t.type).toLowerCase()}; it was read from the positions (and the stock an assignment delivered)`}>
                    {' '}
                    inferred
                  </span>
                )}
              </td>
              <td className="nowrap tx-symbol">
                <span className="sym">{fmtSymbol(t.symbol)}</span>
              </td>
              <td className="num tx-qty">{t.quantity === 0 ? '—' : fmtQuantity(t.quantity)}</td>
              <td className="num tx-price">{t.price === 0 ? '—' : fmtFillPrice(t.price)}</td>
              <td className={`num tx-amount ${signClass(t.amount)}`} data-testid="amount">
                {fmtMoney(t.amount, t.currency, true)}
              </td>
              <td className={`num tx-realized ${t.realizedPL === null ? 'muted tx-realized-none' : signClass(t.realizedPL)}`} data-testid="realized">
                {t.realizedPL === null ? '—' : fmtMoney(t.realizedPL, t.currency, true)}
              </td>
              <td className="num muted tx-costs">{t.commission + t.fees === 0 ? '—' : fmtMoney(-Math.abs(t.commission + t.fees), t.currency)}</td>
              <td className="muted small tx-source">{t.source}</td>
              <td className="right nowrap tx-actions">
                <RowActions tx={t} onEdit={onEdit} onDelete={onDelete} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
