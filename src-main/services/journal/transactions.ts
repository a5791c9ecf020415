/**
 * A page of the journal's transactions (`GET /v1/journal/transactions`): newest first over the in-memory index, narrowed
 * by symbol, account and dates without looking at the other rows; a type filter or another order selects, sorts and
 * pages the whole filtered set.
 */
import { firstIndex, type JournalIndex } from './ledger-index';
import { pageOf, type TransactionFilter, type TransactionsPage } from './values';
import { asMinorOrNull } from '../../../src-shared/money';
import { underlyingOfRoot } from '../../../src-shared/exposure/roots';

export function transactionsPage(index: JournalIndex, query: TransactionFilter): TransactionsPage {
  const { page, limit } = pageOf(query.page, query.limit, 0);
  const snapshot = index.snapshot();
  const { symbol, accountId, fromDate, toDate } = query;
  // Positions are newest first; a symbol or account narrows to its group, dates to a slice found by bisection.
  let positions: readonly number[] | null = null;
  // An option root names its chain's underlying, as rows are stored (SPXW → SPX; docs/importers.md §Underlying roots);
  // a symbol stored as it is (a share symbol ending in a digit) is found as it is.
  if (symbol !== undefined) positions = index.grouped('underlying').get(symbol) ?? index.grouped('underlying').get(underlyingOfRoot(symbol)) ?? [];
  if (accountId !== undefined) {
    positions = positions === null ? (index.grouped('accountId').get(accountId) ?? []) : positions.filter((p) => snapshot.accountIds[p] === accountId);
  }
  const total = positions === null ? snapshot.ids.length : positions.length;
  const dayAt = (index: number) => snapshot.days[positions === null ? index : (positions[index] ?? 0)] ?? '';
  const startIndex = toDate === undefined ? 0 : firstIndex(total, (i) => dayAt(i) <= toDate);
  const endIndex = fromDate === undefined ? total : firstIndex(total, (i) => dayAt(i) < fromDate);
  const positionAt = (i: number) => (positions === null ? i : (positions[i] ?? 0));
  const realized = index.ledger().realizedByTx;
  const pageOfIds = (ids: string[], matching: number): TransactionsPage => {
    const transactions = index.byIds(ids);
    return { transactions, realizedMinor: transactions.map((tx) => asMinorOrNull(realized.get(tx.id) ?? null)), accounts: snapshot.accounts, pagination: { page, limit, total: matching, pages: Math.ceil(matching / limit) } };
  };
  if (query.type === undefined && (query.sort === undefined || query.sort === '-tradeDate')) {
    // Newest first over a slice of positions: the page is found without looking at the other rows.
    const matching = Math.max(0, endIndex - startIndex);
    const pageStart = startIndex + (page - 1) * limit;
    const pageEnd = Math.min(endIndex, pageStart + limit);
    const ids: string[] = [];
    for (let i = pageStart; i < pageEnd; i += 1) ids.push(snapshot.ids[positionAt(i)] ?? '');
    return pageOfIds(ids, matching);
  }
  // A type filter or another order: the whole filtered set is selected and sorted, then paged.
  const keys = index.sortKeys();
  const selected: number[] = [];
  for (let i = startIndex; i < endIndex; i += 1) {
    const position = positionAt(i);
    if (query.type === undefined || keys.types[position] === query.type) selected.push(position);
  }
  const sort = query.sort ?? '-tradeDate';
  const descending = sort.startsWith('-');
  const column = descending ? sort.slice(1) : sort;
  const direction = descending ? -1 : 1;
  if (column === 'tradeDate') {
    // Positions are newest first: ascending dates are descending positions.
    if (!descending) selected.reverse();
  } else {
    const text = column === 'symbol' ? keys.symbols : column === 'type' ? keys.types : null;
    const numbers = column === 'quantity' ? keys.quantity : column === 'price' ? keys.price : column === 'amount' ? keys.amount : null;
    const realizedAt = (position: number) => realized.get(snapshot.ids[position] ?? '');
    selected.sort((a, b) => {
      let order: number;
      if (text !== null) order = (text[a] ?? '').localeCompare(text[b] ?? '');
      else if (numbers !== null) order = (numbers[a] ?? 0) - (numbers[b] ?? 0);
      else {
        // Rows that realized nothing come last in either direction.
        const x = realizedAt(a);
        const y = realizedAt(b);
        if (x === undefined || y === undefined) return x === y ? a - b : x === undefined ? 1 : -1;
        order = x - y;
      }
      // Ties stay newest first.
      return order * direction || a - b;
    });
  }
  const ids = selected.slice((page - 1) * limit, page * limit).map((position) => snapshot.ids[position] ?? '');
  return pageOfIds(ids, selected.length);
}
