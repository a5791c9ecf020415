/**
 * The journal's newest-first index (JournalIndex's snapshot: ids, days, underlyings, accounts by position) and its
 * sort columns, read from the file whole or patched after a write that said what it changed (docs/journal.md
 * §Staying current).
 */
import type { Account, Transaction } from '../../../src-shared/journal/model';
import type { AccountsRepository } from '../../db/accounts';
import { toTransaction, type LedgerRow, type TransactionsRepository } from '../../db/transactions';

/** One shared copy per distinct string (currencies, symbols, account ids repeat on every row). */
export function interner(): (text: string) => string {
  const seen = new Map<string, string>();
  return (text) => {
    const known = seen.get(text);
    if (known !== undefined) return known;
    seen.set(text, text);
    return text;
  };
}

/** The columns a transactions list sorts or filters by, per position of the newest-first index. */
export interface SortKeys {
  types: string[];
  symbols: string[];
  quantity: Float64Array;
  price: Float64Array;
  amount: Float64Array;
}

/**
 * What reads need, kept compact: for 100k transactions a few MB instead of 100k full objects. Positions are
 * indexes into the newest-first order; a page's rows are read from SQLite by id.
 */
/** An account of the journal and what it holds (GET /journal/accounts). */
export interface AccountSummary extends Account {
  transactions: number;
  firstTradeDay: string;
  lastTradeDay: string;
}

export interface JournalSnapshot {
  ids: string[];
  days: string[];
  underlyings: string[];
  accountIds: string[];
  /** The accounts holding transactions, by name, with their count and first and last trade days. */
  accounts: AccountSummary[];
  /** Whether the journal holds the demo's transactions. */
  demo: boolean;
}

type Holding = { transactions: number; firstTradeDay: string; lastTradeDay: string };

/** One more row of an account in the index: its count and the days of its first and last rows. */
function countHolding(held: Map<string, Holding>, accountId: string, tradeDay: string): void {
  const account = held.get(accountId);
  if (account === undefined) held.set(accountId, { transactions: 1, firstTradeDay: tradeDay, lastTradeDay: tradeDay });
  else {
    account.transactions += 1;
    if (tradeDay < account.firstTradeDay) account.firstTradeDay = tradeDay;
    if (tradeDay > account.lastTradeDay) account.lastTradeDay = tradeDay;
  }
}

/** The index read whole from the file, newest first, with the accounts in use. */
export function readSnapshot(transactions: TransactionsRepository, accounts: AccountsRepository): JournalSnapshot {
  const intern = interner();
  const snapshot: JournalSnapshot = { ids: [], days: [], underlyings: [], accountIds: [], accounts: [], demo: transactions.hasSource('demo') };
  const held = new Map<string, Holding>();
  for (const row of transactions.indexNewestFirst()) {
    snapshot.ids.push(row.id);
    snapshot.days.push(intern(row.trade_day));
    snapshot.underlyings.push(intern(row.underlying));
    snapshot.accountIds.push(intern(row.account_id));
    countHolding(held, row.account_id, row.trade_day);
  }
  for (const account of accounts.inUse()) {
    const holding = held.get(account.id);
    if (holding !== undefined) snapshot.accounts.push({ ...account, ...holding });
  }
  return snapshot;
}

/**
 * The index after writes that only added rows, without reading the journal again: when every added row comes before
 * every other in the index's order (newest first), they are put in front of the index before them; null otherwise.
 */
export function extendSnapshot(transactions: TransactionsRepository, accounts: AccountsRepository, before: JournalSnapshot, imports: readonly number[]): JournalSnapshot | null {
  const rows = transactions.indexRowsOfImports(imports);
  const { newest, count } = transactions.newestOutside(imports);
  const oldest = rows[rows.length - 1];
  if (count !== before.ids.length + rows.length) return null;
  if (oldest !== undefined && newest !== null && !(oldest.trade_date > newest.trade_date || (oldest.trade_date === newest.trade_date && oldest.id > newest.id))) return null;
  const held = new Map<string, Holding>(before.accounts.map((a) => [a.id, { transactions: a.transactions, firstTradeDay: a.firstTradeDay, lastTradeDay: a.lastTradeDay }]));
  const snapshot: JournalSnapshot = { ids: [], days: [], underlyings: [], accountIds: [], accounts: [], demo: before.demo || transactions.hasSource('demo') };
  for (const row of rows) {
    snapshot.ids.push(row.id);
    snapshot.days.push(row.trade_day);
    snapshot.underlyings.push(row.underlying);
    snapshot.accountIds.push(row.account_id);
    countHolding(held, row.account_id, row.trade_day);
  }
  for (const [key, list] of [['ids', before.ids], ['days', before.days], ['underlyings', before.underlyings], ['accountIds', before.accountIds]] as const) {
    for (const value of list) snapshot[key].push(value);
  }
  for (const account of accounts.inUse()) {
    const holding = held.get(account.id);
    if (holding !== undefined) snapshot.accounts.push({ ...account, ...holding });
  }
  return snapshot;
}

/**
 * The index after writes that changed rows of `day` and later only, reading only those rows: they come first in the
 * index (newest first), before the rows of the days before, which are `before`'s last ones. Null when the index's
 * order does not keep the days apart (trade dates written with other offsets) or the counts do not add up.
 */
export function patchSnapshot(transactions: TransactionsRepository, accounts: AccountsRepository, before: JournalSnapshot, day: string): JournalSnapshot | null {
  let cut = 0;
  while (cut < before.days.length && (before.days[cut] ?? '') >= day) cut += 1;
  for (let i = cut; i < before.days.length; i += 1) if ((before.days[i] ?? '') >= day) return null;
  const rows = transactions.indexRowsFromDay(day);
  const { newest, count } = transactions.newestBeforeDay(day);
  const oldest = rows[rows.length - 1];
  if (count !== rows.length + before.ids.length - cut) return null;
  if (oldest !== undefined && newest !== null && !(oldest.trade_date > newest.trade_date || (oldest.trade_date === newest.trade_date && oldest.id > newest.id))) return null;
  const intern = interner();
  const snapshot: JournalSnapshot = { ids: [], days: [], underlyings: [], accountIds: [], accounts: [], demo: transactions.hasSource('demo') };
  for (const row of rows) {
    snapshot.ids.push(row.id);
    snapshot.days.push(intern(row.trade_day));
    snapshot.underlyings.push(intern(row.underlying));
    snapshot.accountIds.push(intern(row.account_id));
  }
  for (let i = cut; i < before.ids.length; i += 1) {
    snapshot.ids.push(before.ids[i] ?? '');
    snapshot.days.push(before.days[i] ?? '');
    snapshot.underlyings.push(before.underlyings[i] ?? '');
    snapshot.accountIds.push(before.accountIds[i] ?? '');
  }
  const held = new Map<string, Holding>();
  for (let i = 0; i < snapshot.ids.length; i += 1) countHolding(held, snapshot.accountIds[i] ?? '', snapshot.days[i] ?? '');
  for (const account of accounts.inUse()) {
    const holding = held.get(account.id);
    if (holding !== undefined) snapshot.accounts.push({ ...account, ...holding });
  }
  return snapshot;
}

/** The sort columns by position (newest first) of an index of `count` rows. */
export function readSortKeys(transactions: TransactionsRepository, count: number): SortKeys {
  const intern = interner();
  const keys: SortKeys = { types: [], symbols: [], quantity: new Float64Array(count), price: new Float64Array(count), amount: new Float64Array(count) };
  let position = 0;
  for (const row of transactions.sortRowsNewestFirst()) {
    if (position >= count) break;
    keys.types.push(intern(row.type));
    keys.symbols.push(intern(row.symbol));
    keys.quantity[position] = row.quantity;
    keys.price[position] = row.price_minor;
    keys.amount[position] = row.amount_minor;
    position += 1;
  }
  return keys;
}

/** Rows as lean transactions: shared strings, and the index's own copy of each id (ledgers keep ids); `shareIds` a day: of that day and later. */
export function leanRows(snapshot: JournalSnapshot, rows: Iterable<LedgerRow>, keep: (tx: Transaction) => boolean, shareIds: boolean | string = false, rowids?: number[]): Transaction[] {
  const intern = interner();
  const accountNames = new Map(snapshot.accounts.map((a) => [a.id, a.name]));
  let sharedIds: Map<string, string> | null = null;
  if (shareIds === true) sharedIds = new Map(snapshot.ids.map((id) => [id, id]));
  else if (shareIds !== false) {
    // Rows of a day and later: the index's first ones (newest first), not the whole journal's.
    sharedIds = new Map();
    for (let i = 0; i < snapshot.ids.length && (snapshot.days[i] ?? '') >= shareIds; i += 1) sharedIds.set(snapshot.ids[i] ?? '', snapshot.ids[i] ?? '');
  }
  const transactions: Transaction[] = [];
  for (const row of rows) {
    const tx = toTransaction(row, accountNames, intern);
    if (sharedIds !== null) tx.id = sharedIds.get(tx.id) ?? tx.id;
    if (!keep(tx)) continue;
    transactions.push(tx);
    rowids?.push(row.row_id ?? -1);
  }
  return transactions;
}
