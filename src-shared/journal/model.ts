/**
 * The neutral transaction model (docs/journal.md). Importers produce `ImportedTransaction`s; the store adds
 * ids and the import it came from (`Transaction`); analytics read `Transaction`s.
 * Money fields are integer minor units (1/10,000 of the currency unit), see src-shared/money.ts.
 */

export { FILL_TYPES, FILLS, TRANSACTION_TYPES, type TransactionType } from './constants';
import type { CorporateActionType, TransactionType } from './constants';
import type { Minor } from '../money';
import type { AccountId, Ticker } from '../ids';

export type OptionRight = 'C' | 'P';

/** What a position is of: the account, the instrument and its currency (the key of lots, positions and unmatched closes). */
export interface PositionInstrument {
  accountId: AccountId;
  symbol: string;
  underlying: Ticker;
  currency: string;
  isOption: boolean;
  expiration: string | null;
  strike: number | null;
  right: OptionRight | null;
  multiplier: number;
}

export interface ImportedTransaction {
  /** The broker's account number or name as it appears in the file (or the `account` the user gave). */
  accountName: string;
  /**
   * The broker's own identity of the row: an execution/transaction id when the file has one, else the
   * row's normalised content plus its occurrence number among identical rows. Never the line number,
   * so a re-export with extra rows on top still deduplicates.
   */
  brokerRowId: string;
  type: TransactionType;
  /** OCC symbol without padding for options (`SPY250117P00450000`), the ticker otherwise. */
  symbol: string;
  /** The underlying ticker (the ticker itself for stock, dividends, ...); '' for cash-only rows. */
  underlying: Ticker;
  isOption: boolean;
  /** YYYY-MM-DD for options, else null. */
  expiration: string | null;
  strike: number | null;
  right: OptionRight | null;
  /** Unsigned: shares or contracts. Fractional shares allowed. For SPLIT, the signed share change. */
  quantity: number;
  /** Per share (per unit of the underlying for options), minor units, unsigned. */
  priceMinor: Minor;
  /** Shares per contract: 100 for standard options, 1 for stock. */
  multiplier: number;
  /** Signed cash effect on the account, + = credit, net of commission and fees when the broker nets them. */
  amountMinor: Minor;
  /** Unsigned commission paid on this row. */
  commissionMinor: Minor;
  /** Unsigned regulatory/exchange/other fees paid on this row. */
  feesMinor: Minor;
  currency: string;
  /** ISO 8601 UTC instant. */
  tradeDate: string;
  orderId: string | null;
  description: string;
  /** `tastytrade-csv`, `schwab-csv`, `ibkr-activity-csv`, ... */
  source: string;
  /** True when the row was inferred rather than read (e.g. Webull expirations). */
  inferred?: boolean;
  /** For SYMBOL_CHANGE: the old ticker (symbol/underlying carry the new one). */
  previousSymbol?: string;
  /**
   * For SPLIT / SYMBOL_CHANGE: the corporate action's terms where the file states them (a ratio, cash, a spin-off's
   * basis); without them the row is read as it always was (corporate-actions.ts actionOf).
   */
  corporateAction?: CorporateActionTerms;
  /**
   * The row's place in its file's chronological event order (0, 1, 2, ...; a file listed newest first is numbered
   * bottom-up). Among rows of one instant of one import it decides the order (ledger: event-order.ts); absent for
   * rows imported before it existed and for manual entries.
   */
  sequence?: number;
}

/**
 * A transaction as an importer reads it, its names still text as the file writes them: the one collector
 * (src-main/importers/common/result.ts) makes them Tickers (an ImportedTransaction). The store writes either.
 */
export type RawTransaction = Omit<ImportedTransaction, 'underlying'> & { underlying: string };

/**
 * A corporate action's terms (DESIGN §5 "Corporate actions", docs/journal.md §Corporate actions), read from a broker's
 * rows or entered by hand. `ratio` is new shares per old (split 2 for 2-for-1, 0.1 for 1-for-10; merger and spin-off:
 * shares of `newSymbol` per share of `symbol`; stock dividend: shares received per share held).
 */
export interface CorporateActionTerms {
  type: CorporateActionType;
  /** The ticker it applies to: the old one of a symbol change or merger, the parent of a spin-off. */
  symbol: string;
  /** The new ticker (symbol change, merger, spin-off; a split that changes the ticker). */
  newSymbol: string | null;
  ratio: number | null;
  /**
   * Merger: cash per old share besides the new shares (a cash merger: all of it). Split, stock dividend, spin-off: the
   * cash paid per new share in lieu of a fraction (the fraction is sold at it; without it fractions are kept).
   */
  cashPerShareMinor: Minor | null;
  /** Spin-off: the part of the basis the new shares take; merger with cash: the part the new shares keep. */
  costFraction: number | null;
  /**
   * Shares the account received, as a file states them: free shares, a stock dividend without a ratio; a split without
   * a ratio: the signed change of the position (the SPLIT row's quantity).
   */
  quantity: number | null;
}

export interface Transaction extends ImportedTransaction {
  /** Stable hash of source, account and brokerRowId. */
  id: string;
  accountId: AccountId;
  importId: number;
  /** New York (journal time zone) calendar date of tradeDate, YYYY-MM-DD. */
  tradeDay: string;
}

export interface Account {
  id: AccountId;
  name: string;
}

/** Builds the unpadded OCC symbol: root + YYMMDD + C|P + strike × 1000 in 8 digits. */
export function occSymbol(root: string, expiration: string, right: OptionRight, strike: number): string {
  const yymmdd = expiration.slice(2, 4) + expiration.slice(5, 7) + expiration.slice(8, 10);
  const strikeMilli = Math.round(strike * 1000);
  return `${root}${yymmdd}${right}${String(strikeMilli).padStart(8, '0')}`;
}

const OCC_PATTERN = /^([A-Z0-9./]{1,6})\s*(\d{2})(\d{2})(\d{2})([CP])(\d{8})$/;

/** Parses an OCC symbol, padded (`PFE   260116C00020000`) or not. */
export function parseOccSymbol(
  text: string,
): { root: string; expiration: string; right: OptionRight; strike: number } | null {
  const match = OCC_PATTERN.exec(text.trim().toUpperCase());
  if (!match) return null;
  const [, root, yy, mm, dd, right, strikeText] = match;
  if (root === undefined || yy === undefined || mm === undefined || dd === undefined || strikeText === undefined) {
    return null;
  }
  return {
    root,
    expiration: `20${yy}-${mm}-${dd}`,
    right: right === 'C' ? 'C' : 'P',
    strike: Number(strikeText) / 1000,
  };
}
