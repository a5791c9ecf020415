import type { TransactionJson } from '../../../src-shared/api/schemas';
import type { ApiClient } from '../../api/client';
import { toCsv } from '../../csv';
import { downloadText } from '../../download';
import { toQuery, type Filters } from './TransactionFilters';

const CSV_HEADER = ['tradeDate', 'tradeDay', 'account', 'type', 'symbol', 'underlying', 'expiration', 'strike', 'right', 'quantity', 'price', 'multiplier', 'amount', 'commission', 'fees', 'currency', 'orderId', 'description', 'source', 'id'];

function csvRow(t: TransactionJson) {
  return [t.tradeDate, t.tradeDay, t.accountName, t.type, t.symbol, t.underlying, t.expiration, t.strike, t.right, t.quantity, t.price, t.multiplier, t.amount, t.commission, t.fees, t.currency, t.orderId, t.description, t.source, t.id];
}

/**
 * Every transaction the filters match (all pages, 100 at a time) downloaded as one CSV file; `onStatus` hears
 * which page is being fetched. Throws what the API throws.
 */
export async function exportTransactions(api: ApiClient, filters: Filters, onStatus: (status: string) => void): Promise<void> {
  const rows: TransactionJson[] = [];
  let current = 1;
  let pages = 1;
  do {
    onStatus(`Exporting page ${current} of ${pages}…`);
    const response = await api.call('GET /journal/transactions', { query: { ...toQuery(filters), page: current, limit: 100 } });
    rows.push(...response.transactions);
    pages = response.pagination.pages;
    current += 1;
  } while (current <= pages);
  const suffix = filters.symbol.trim() !== '' ? `-${filters.symbol.trim().toUpperCase()}` : '';
  downloadText(`strikebook-transactions${suffix}.csv`, toCsv(CSV_HEADER, rows.map(csvRow)));
}
