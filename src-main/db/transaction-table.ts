/** The `transactions` table's row and column list (migrations 002, 008, 015), below the repository and its inserter. */
import type { OptionRight, TransactionType } from '../../src-shared/journal/model';
import { Table } from './sql';

/** A row of `transactions` (migration 002). Money in integer minor units; booleans as 0/1. */
export type TransactionRow = {
  id: string;
  import_id: number;
  account_id: string;
  broker_row_id: string;
  type: TransactionType;
  symbol: string;
  underlying: string;
  is_option: number;
  expiration: string | null;
  strike: number | null;
  right: OptionRight | null;
  quantity: number;
  price_minor: number;
  multiplier: number;
  amount_minor: number;
  commission_minor: number;
  fees_minor: number;
  currency: string;
  trade_date: string;
  trade_day: string;
  order_id: string | null;
  description: string;
  source: string;
  inferred: number;
  previous_symbol: string | null;
  /** The row's place in its file's event order (migration 008); NULL for rows imported before. */
  sequence: number | null;
  /** A SPLIT / SYMBOL_CHANGE row's corporate-action terms as JSON (migration 015); NULL otherwise. */
  corporate_action: string | null;
};

export const TRANSACTIONS = Table.of<TransactionRow>()('transactions', [
  'id',
  'import_id',
  'account_id',
  'broker_row_id',
  'type',
  'symbol',
  'underlying',
  'is_option',
  'expiration',
  'strike',
  'right',
  'quantity',
  'price_minor',
  'multiplier',
  'amount_minor',
  'commission_minor',
  'fees_minor',
  'currency',
  'trade_date',
  'trade_day',
  'order_id',
  'description',
  'source',
  'inferred',
  'previous_symbol',
  'sequence',
  'corporate_action',
]);

/** What the store adds to an imported transaction. */
export interface StoredIds {
  id: string;
  importId: number;
  accountId: string;
  /** The journal-zone day of the trade date. */
  tradeDay: string;
}
