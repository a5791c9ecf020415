/**
 * The shapes of a positions comparison (reconciliation.ts): the broker's and the book's positions, each difference and
 * the fix that removes it (a manual row of the journal's form, or a corporate action to enter).
 */
import type { TransactionType } from './constants';

export interface Instrument {
  symbol: string;
  underlying: string;
  isOption: boolean;
  expiration: string | null;
  strike: number | null;
  right: 'C' | 'P' | null;
  multiplier: number;
  currency: string;
}

/** A position as the broker's file lists it. */
export interface BrokerPosition extends Instrument {
  /** The file's line (null: a JSON body). */
  line: number | null;
  /** The account the file names for it (null: none). */
  account: string | null;
  /** Signed: + long, − short. */
  quantity: number;
  /** Its cost in minor units when the file gives one (brokers sign a short's cost either way: compared by size). */
  costMinor: number | null;
}

/** A position of the journal's book. */
export interface BookPosition extends Instrument {
  accountId: string;
  accountName: string;
  quantity: number;
  costMinor: number;
}

export const DIFFERENCE_KINDS = ['missing_in_journal', 'missing_at_broker', 'quantity', 'cost'] as const;
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number];
export const FIX_KINDS = ['add_opening', 'add_closing', 'mark_expired', 'corporate_action', 'review'] as const;
export type FixKind = (typeof FIX_KINDS)[number];

/**
 * A manual row as POST /v1/journal/transactions takes it: the journal's shape, which api/manual-schemas.ts's
 * ManualTransaction is checked against (each assignable to the other), so that the domain imports no schema.
 */
export interface ManualRow {
  accountId?: string;
  account?: string;
  date: string;
  time?: string;
  type: TransactionType;
  symbol?: string;
  underlying?: string;
  expiration?: string;
  strike?: number;
  right?: 'C' | 'P' | 'CALL' | 'PUT';
  quantity?: number;
  price?: number;
  multiplier?: number;
  amount?: number;
  commission?: number;
  fees?: number;
  currency?: string;
  orderId?: string;
  description?: string;
  previousSymbol?: string;
}

/** A manual row the fix would add (POST /v1/journal/transactions), prefilled; `price` absent where the user must give it. */
export type FixRow = Omit<ManualRow, 'price'> & { price?: number };

/** What removes a difference: the rows to add (one click when nothing is missing), or what to look at. */
export interface Fix {
  kind: FixKind;
  /** What the button says. */
  label: string;
  /** Why, and what to check before applying it. */
  detail: string;
  /** The account of the rows (null: the file and the journal do not say which: reconcile one account, ?accountId=). */
  accountId: string | null;
  /** The rows to add; a row without `price` needs the user's price first. */
  transactions: FixRow[];
  needsPrice: boolean;
  /** A corporate action (DESIGN §5 "Corporate actions"), as POST /v1/journal/corporate-actions takes it; its rows above do the same today. */
  corporateAction: { type: 'split' | 'symbol_change'; symbol: string; newSymbol: string | null; ratio: number; date: string } | null;
}

export interface PositionDifference extends Instrument {
  kind: DifferenceKind;
  accountId: string | null;
  accountName: string | null;
  broker: { quantity: number; costMinor: number | null } | null;
  journal: { quantity: number; costMinor: number } | null;
  fix: Fix;
}

export interface PositionsComparison {
  matched: number;
  differences: PositionDifference[];
}

export interface CompareOptions {
  /** The instant compared (ISO 8601 UTC): fixes are dated at it (or before the first unmatched close of their instrument). */
  asOf: string;
  /** Its date in the journal's zone (default: its UTC date): an option expired by then, a corporate action's day. */
  asOfDay?: string;
  /** The account reconciled (null: the whole journal). */
  accountId: string | null;
  /** The journal's accounts, to name the account of a fix. */
  accounts: ReadonlyArray<{ id: string; name: string }>;
  /** The first close the history lacks an opening for, by `accountId|currency|symbol` (an opening must come before it). */
  firstUnmatched?: ReadonlyMap<string, string>;
}
