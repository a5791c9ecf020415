/**
 * The names and ids the API and the stores pass around, branded (nominal.ts; docs/conventions.md §Brands): a plain
 * string is none of them, so a ticker cannot be passed where an account id is expected, nor a raw query value where a
 * normalised ticker is. Each is made at the edge only: a schema's decode (a query's `symbol`: server/ticker-keyword.ts
 * upper-cases it), or a database row's mapping; inside, it is carried as it is, never normalised again.
 */
import type { Nominal } from './nominal';

/** An underlying's ticker, upper case (`SPX`, `BRK.B`): what snapshots, events and positions are keyed by. */
export type Ticker = Nominal<string, 'Ticker'>;
/** An account's stable id (`acc_…`: journal/accounts). */
export type AccountId = Nominal<string, 'AccountId'>;
/** A trade's stable id (`trd_…`: journal/trades). */
export type TradeId = Nominal<string, 'TradeId'>;
/** A stored snapshot's row id. */
export type SnapshotId = Nominal<number, 'SnapshotId'>;

/** A ticker from text as a user or a file writes it: trimmed and upper-cased, here and nowhere else. */
export function asTicker(text: string): Ticker {
  return text.trim().toUpperCase() as Ticker;
}

/** A comma-separated list of tickers (`tickers=spx,SPY`), each made a Ticker once. */
export function tickerList(text: string): Ticker[] {
  return text.split(',').map(asTicker);
}

/** An account id read from a row or a checked request (the id's text is kept as it is). */
export function asAccountId(text: string): AccountId {
  return text as AccountId;
}

/** A trade id read from a row or a checked request. */
export function asTradeId(text: string): TradeId {
  return text as TradeId;
}

/** A snapshot id read from a row or a checked request (a positive integer). */
export function asSnapshotId(id: number): SnapshotId {
  return id as SnapshotId;
}
