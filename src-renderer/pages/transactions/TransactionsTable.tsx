import type { TransactionSort, TransactionSortColumn } from '../../../src-shared/api/constants';
import type { TransactionJson } from '../../../src-shared/api/schemas';
import { Badge } from '../../components/ui';
import { fmtDateTime, fmtMoney, fmtPrice, fmtSymbol, signClass, typeLabel } from '../../format';

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
 * One page of transactions in the server's order (a page holds at most 100 rows, so plain rows serve: no virtual
 * list); dimmed while the next page loads.
 */
export function TransactionsTable({ transactions, loading, sort, onSort }: { transactions: readonly TransactionJson[]; loading: boolean; sort: TransactionSort; onSort: (sort: TransactionSort) => void }) {
  return (
    <div className="table-wrap">
      <table className={`table table-dense ${loading ? 'is-loading' : ''}`} data-testid="transactions-table">
        <thead>
          <tr>
            <SortHeader column="tradeDate" label="Date (ET)" sort={sort} onSort={onSort} />
            <th>Account</th>
            <SortHeader column="type" label="Type" sort={sort} onSort={onSort} />
            <SortHeader column="symbol" label="Symbol" sort={sort} onSort={onSort} />
            <SortHeader column="quantity" label="Qty" sort={sort} onSort={onSort} numeric />
            <SortHeader column="price" label="Price" sort={sort} onSort={onSort} numeric />
            <SortHeader column="amount" label="Amount" sort={sort} onSort={onSort} numeric />
            <SortHeader column="realizedPL" label="Realized" sort={sort} onSort={onSort} numeric />
            <th className="num">Comm. + fees</th>
            <th>Source</th>
          </tr>
        </thead>
        <tbody>
          {transactions.map((t) => (
            <tr key={t.id} title={t.description}>
              <td className="tnum">{fmtDateTime(t.tradeDate).replace(' ET', '')}</td>
              <td className="nowrap">{t.accountName}</td>
              <td>
                <Badge tone={typeTone(t.type)}>{typeLabel(t.type)}</Badge>
                {t.inferred && (
                  <span className="muted small" title="Inferred (e.g. stock from an assignment)">
                    {' '}
                    inferred
                  </span>
                )}
              </td>
              <td className="nowrap">
                <span className="sym">{fmtSymbol(t.symbol)}</span>
              </td>
              <td className="num">{t.quantity === 0 ? '—' : fmtPrice(t.quantity, 4)}</td>
              <td className="num">{t.price === 0 ? '—' : fmtFillPrice(t.price)}</td>
              <td className={`num ${signClass(t.amount)}`}>{fmtMoney(t.amount, t.currency, true)}</td>
              <td className={`num ${t.realizedPL === null ? 'muted' : signClass(t.realizedPL)}`} data-testid="realized">
                {t.realizedPL === null ? '—' : fmtMoney(t.realizedPL, t.currency, true)}
              </td>
              <td className="num muted">{t.commission + t.fees === 0 ? '—' : fmtMoney(-Math.abs(t.commission + t.fees), t.currency)}</td>
              <td className="muted small">{t.source}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
