/** The building blocks of the /v1 schemas (docs/conventions.md §HTTP API), and the schemas every resource shares. */
import { Type, type Static, type TLiteral, type TProperties, type TSchema, type TSchemaOptions, type TUnion } from 'typebox';
import { ACCOUNT_ID_MAX, TRADE_ID_MAX, type AccountId, type SnapshotId, type Ticker, type TradeId } from '../ids';

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** The parameters of a request (query, path): nothing else is accepted (unknown names are 400 UNKNOWN_PARAMETER). */
export const Params = <P extends TProperties>(properties: P) => Type.Object(properties, { additionalProperties: false });
/** The literals of a list of constants.ts, one TLiteral each. */
export type Literals<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K]> };
/** A union of string literals from one of the lists of constants.ts (the same schema as writing each Type.Literal). */
export function OneOf<const T extends readonly string[]>(values: T, options?: TSchemaOptions): TUnion<Literals<T>> {
  return Type.Union(values.map((value) => Type.Literal(value)), options) as unknown as TUnion<Literals<T>>;
}
export const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
export const DATETIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})?)?$';
/** Comma-separated expirations (`expirations=` of the /gex scope): up to 200 dates. */
export const EXPIRATIONS_PATTERN = '^\\d{4}-\\d{2}-\\d{2}(,\\d{4}-\\d{2}-\\d{2}){0,199}$';
/** Parameters of these patterns are dates or instants: their years must lie in DATE_YEARS (docs/conventions.md §HTTP API). */
export const DATE_TEXT_PATTERNS: readonly string[] = [DATE_PATTERN, DATETIME_PATTERN, EXPIRATIONS_PATTERN];
/**
 * The years a date or instant parameter may name. Far enough either way for any trade or chain, and near enough that
 * a day or a time zone added to it stays a four-digit year (9999-12-31 at the end of its New York day was year 10000).
 */
export const DATE_YEARS = { min: 1900, max: 2200 } as const;
/** How an integer parameter (id, page, limit, year, count, dte) is written: decimal digits, nothing else (no sign, no 0x, no exponent). */
export const INTEGER_TEXT = /^\d+$/;
/** How a decimal parameter is written: an optional minus, digits, an optional fraction (no +, no exponent, no spaces). */
export const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

/** The first year in a date text (a date, an instant, or a list of dates) outside DATE_YEARS, or null. */
export function yearOutOfRange(text: string): number | null {
  for (const match of text.matchAll(/(?:^|,)(\d{4})-/g)) {
    const year = Number(match[1]);
    if (year < DATE_YEARS.min || year > DATE_YEARS.max) return year;
  }
  return null;
}
/**
 * The year a range bound names outside DATE_YEARS, or null: a date (YYYY-MM-DD) by its own year, an instant by its
 * UTC year once its offset is applied (`instantMs`, as the caller parsed it), so 2200-12-31T23:00-14:00 is 2201.
 */
export function boundYearOutOfRange(text: string, instantMs: number): number | null {
  const year = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Number(text.slice(0, 4)) : new Date(instantMs).getUTCFullYear();
  return year >= DATE_YEARS.min && year <= DATE_YEARS.max ? null : year;
}
export const SYMBOL_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._/^-]{0,15}$';
/** The schema keyword whose decode upper-cases a ticker (server/ticker-keyword.ts): its value is a Ticker after it. */
export const TICKER_KEYWORD = 'x-ticker';
/** A request as a client sends it: a Ticker or an id is any text there, a SnapshotId any number (the server's decode makes them). */
export type Sent<T> = { [K in keyof T]: Unbranded<T[K]> };
type TextBrand = Ticker | AccountId | TradeId;
type Unbranded<V> = [V] extends [TextBrand] ? string : [V] extends [TextBrand | undefined] ? string | undefined : [V] extends [SnapshotId] ? number : [V] extends [SnapshotId | undefined] ? number | undefined : V;
/** A query's ticker: any case on the wire, upper case (a Ticker: asTicker, called by the keyword) once decoded. */
export const TickerParam = (description: string) => Type.Unsafe<Ticker>(Type.String({ pattern: SYMBOL_PATTERN, description, [TICKER_KEYWORD]: true }));
/** An account id a request names: an AccountId once its schema passed (its limits are asAccountId's). */
export const AccountIdParam = (description?: string) => Type.Unsafe<AccountId>(Type.String({ minLength: 1, maxLength: ACCOUNT_ID_MAX, ...(description === undefined ? {} : { description }) }));
/** A trade id a path names (any case: the router reads paths lower-cased, the journal finds the trade regardless). */
export const TradeIdParam = (description: string) => Type.Unsafe<TradeId>(Type.String({ minLength: 1, maxLength: TRADE_ID_MAX, description }));
export const IsoDate = (description: string) => Type.String({ pattern: DATE_PATTERN, description, examples: ['2024-01-05'] });
export const Money = (description: string) => Type.Number({ description });

// ---------------------------------------------------------------- common

export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String(),
    errors: Type.Optional(
      Type.Array(Type.Object({ param: Type.String(), message: Type.String(), line: Type.Optional(Type.Integer()) })),
    ),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details (application/problem+json).' },
);

export const AccountSchema = Type.Object({ id: Type.String(), name: Type.String() });
export type AccountJson = Static<typeof AccountSchema>;

/** The query of a route that takes no parameters: any parameter is 400 UNKNOWN_PARAMETER, as everywhere. */
export const NoQuery = Params({});

export const HealthSchema = Type.Object({ status: Type.Literal('ok'), version: Type.String(), time: Type.String() });

/** `pagination` of a paged list (`page`, `limit` as asked after clamping; `total` items; `pages` of that size). */
export const PaginationSchema = Type.Object({ page: Type.Integer(), limit: Type.Integer(), total: Type.Integer(), pages: Type.Integer() });

/** A journal read's `building`: answered from the journal's previous version while the next is built (docs/journal.md §Reads during a build). */
export const Building = Type.Boolean({ description: 'True while the journal is being rebuilt after a change: the figures are those before it (docs/journal.md §Reads during a build)' });
