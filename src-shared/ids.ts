/**
 * The names and ids the API and the stores pass around, branded (nominal.ts; docs/conventions.md §Names and ids): a
 * plain string is none of them, so a ticker cannot be passed where an account id is expected, nor a raw query value
 * where a normalised ticker is. Each brand is made here and nowhere else (eslint refuses `as Ticker`, `as AccountId`,
 * `as TradeId`, `as SnapshotId` outside this file): by the constructors below, called where a value enters (a file's
 * symbol, a database row, a setting), or by a schema's decode whose checks are these constructors' (a query's ticker
 * through server/ticker-keyword.ts, which calls asTicker; an id's limits are the constants below). Inside, a brand is
 * carried as it is, never normalised again.
 */
import type { Nominal } from './nominal';

/** An underlying's ticker, upper case (`SPX`, `BRK.B`): what snapshots, events and positions are keyed by. */
export type Ticker = Nominal<string, 'Ticker'>;
/** An account's stable id (`acc_` + 16 hex: services/journal/ids.ts), or one a request names. */
export type AccountId = Nominal<string, 'AccountId'>;
/** A trade's stable id: its first opening transaction's id (`tx_…`, `mtx_…`), or `before:` + the first close's. */
export type TradeId = Nominal<string, 'TradeId'>;
/** A stored snapshot's row id: a positive integer. */
export type SnapshotId = Nominal<number, 'SnapshotId'>;

/** The longest account id a request may name (the stored ones are 20 characters). */
export const ACCOUNT_ID_MAX = 64;
/** The longest trade id a request may name (`before:` + a transaction id is under 50). */
export const TRADE_ID_MAX = 200;

/**
 * A ticker from text as a user, a file or a setting writes it: trimmed and upper-cased, here and nowhere else. Total:
 * the ticker's grammar is the schema's or the parser's to check (SYMBOL_PATTERN); blank text is `tickerOrNull`'s.
 */
export function asTicker(text: string): Ticker {
  return text.trim().toUpperCase() as Ticker;
}

/**
 * A ticker as the journal holds it, kept as written: a row's name read back from the store (or a record's: a slot's key,
 * a corporate action's terms, a symbol standing for its own underlying). The import edge upper-cases what it stores
 * (asTicker); rows stored before it keep their spelling (docs/importers.md), and the domain compares them as it always did.
 */
export function storedTicker(text: string): Ticker {
  return text as Ticker;
}

/** A ticker from text that may be blank (a watchlist entry, a file's cell): null for blank text, else asTicker. */
export function tickerOrNull(text: string): Ticker | null {
  const ticker = asTicker(text);
  return ticker === '' ? null : ticker;
}

/** A comma-separated list of tickers (`tickers=spx,SPY`), each made a Ticker once. */
export function tickerList(text: string): Ticker[] {
  return text.split(',').map(asTicker);
}

/** An id's text as it must be to be one: 1 to `max` characters (the limits the route schemas check: schema-kit). */
function idText(kind: string, text: string, max: number): string {
  if (text.length === 0 || text.length > max) throw new RangeError(`${kind} has 1–${max} characters: ${JSON.stringify(text.slice(0, 80))}`);
  return text;
}

/**
 * An account id read from a row, a checked request or a file's account (kept as it is: ids are compared exactly).
 * Refuses (RangeError) empty or over-long text: a caller that passes it has a bug (a request's was checked by its schema).
 */
export function asAccountId(text: string): AccountId {
  return idText('An account id', text, ACCOUNT_ID_MAX) as AccountId;
}

/** A trade id read from a checked request or made from its first transaction's id; refuses as asAccountId does. */
export function asTradeId(text: string): TradeId {
  return idText('A trade id', text, TRADE_ID_MAX) as TradeId;
}

/** A snapshot id read from a row or a checked request; refuses (RangeError) anything but a positive safe integer. */
export function asSnapshotId(id: number): SnapshotId {
  if (!Number.isSafeInteger(id) || id < 1) throw new RangeError(`A snapshot id is a positive integer: ${id}`);
  return id as SnapshotId;
}
