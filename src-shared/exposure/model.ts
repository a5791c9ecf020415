/** The neutral chain snapshot (docs/exposure.md). Parsers in src-main/chains produce it; the engine reads it. */

export type SnapshotSourceId = 'cboe-csv' | 'cboe-json' | 'schwab-json' | 'yfinance-csv' | 'generic' | 'demo' | 'online';

export interface OptionContract {
  /** OCC root: SPXW, SPX, NDXP, AMD, ... (tells AM from PM settlement). */
  root: string;
  /** YYYY-MM-DD */
  expiration: string;
  strike: number;
  right: 'C' | 'P';
  /** Contracts. */
  openInterest: number;
  /** Decimal implied volatility (0.1064 = 10.64%). */
  iv: number;
  bid: number;
  ask: number;
  /** Shares per contract, 100 unless the source says otherwise. */
  multiplier: number;
  /** Contracts traded in the session; absent when the source has no volume. */
  volume?: number;
}

export interface ChainSnapshot {
  /** Underlying ticker, upper case: SPX, NDX, SPY, AMD. */
  symbol: string;
  /** Underlying price at quote time. */
  spot: number;
  /** ISO 8601 UTC instant of the quotes. */
  quoteTime: string;
  source: SnapshotSourceId;
  contracts: OptionContract[];
}
