/**
 * The /v1 contract of manual entries (docs/journal.md, "Manual entries"): POST /journal/transactions takes neutral
 * transactions as JSON, with the generic CSV's fields (docs/importers.md), stored as one import of kind `manual`;
 * PUT and DELETE /journal/transactions/{id} change manual rows only.
 */
import { Type, type Static } from 'typebox';
import { EXPIRATION_ITEMS_MAX, MANUAL_ROWS_MAX, TRANSACTION_TYPES } from './constants';
import { DATE_PATTERN, SYMBOL_PATTERN } from './schema-kit';
import type { ManualRow } from '../journal/reconciliation';

/** Money in currency units (at most 4 decimals are kept: 1/10,000 is the journal's minor unit). */
const Units = (description: string, minimum: number, maximum = 1e9) => Type.Number({ minimum, maximum, description });

/** A date (the session's close, 16:00 New York) or an instant with its offset, as the generic CSV's `date`. */
export const DATE_OR_INSTANT_PATTERN = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2}))?$';

/**
 * One transaction as the user enters it. Every field is checked by the rules of the generic CSV importer (an option by
 * its OCC symbol, or by symbol + expiration + strike + right; the sign of `amount` by the type), plus: one of
 * `accountId` (an account of the journal) or `account` (a name: an account of its own, source `manual`); dates in
 * 1900–2200; a fill needs `quantity` > 0 and `price`; without `amount` a fill's cash is computed
 * (∓ price × quantity × multiplier, less commission and fees), a cash row (dividend, interest, fee, deposit,
 * withdrawal) must give it, and other rows move none.
 */
export const ManualTransaction = Type.Object(
  {
    accountId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'An account of the journal (from GET /journal/transactions `accounts`); or give `account`' })),
    account: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'An account by name: the journal’s account of that name (400 when several have it), else a manual account of that name (made on first use); or give `accountId`' })),
    date: Type.String({ pattern: DATE_OR_INSTANT_PATTERN, maxLength: 40, description: 'YYYY-MM-DD (16:00 New York, or at `time`) or an ISO 8601 instant with offset; 1900–2200' }),
    time: Type.Optional(Type.String({ pattern: '^([01]?\\d|2[0-3]):[0-5]\\d(:[0-5]\\d)?$', description: 'HH:MM[:SS], New York time, with a date alone: the row is at that instant (without it, the day’s close: 16:00)' })),
    type: Type.Enum(TRANSACTION_TYPES),
    symbol: Type.Optional(Type.String({ maxLength: 32, pattern: '^[A-Za-z0-9 ./^-]*$', description: 'Ticker, or an OCC option symbol; with expiration, strike and right: the option root' })),
    underlying: Type.Optional(Type.String({ pattern: SYMBOL_PATTERN, description: 'Default: the ticker, or the option root' })),
    expiration: Type.Optional(Type.String({ pattern: DATE_PATTERN, description: 'An option: YYYY-MM-DD' })),
    strike: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 10_000_000, description: 'An option' })),
    right: Type.Optional(Type.Union([Type.Literal('C'), Type.Literal('P'), Type.Literal('CALL'), Type.Literal('PUT')], { description: 'An option' })),
    quantity: Type.Optional(Type.Number({ minimum: -1e9, maximum: 1e9, description: 'Shares or contracts, unsigned (SPLIT: the signed change); fills > 0' })),
    price: Type.Optional(Units('Per share (an option: per share of the underlying); required for fills', 0)),
    multiplier: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, description: 'Default 100 for an option, 1 otherwise' })),
    amount: Type.Optional(Units('Signed cash, + = credit; default for fills: computed', -1e11, 1e11)),
    commission: Type.Optional(Units('Unsigned', 0)),
    fees: Type.Optional(Units('Unsigned', 0)),
    currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'Default USD' })),
    orderId: Type.Optional(Type.String({ maxLength: 64 })),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    previousSymbol: Type.Optional(Type.String({ pattern: SYMBOL_PATTERN, description: 'SYMBOL_CHANGE: the old ticker' })),
  },
  { additionalProperties: false },
);
export type ManualTransactionT = Static<typeof ManualTransaction>;
/** The schema and the journal's ManualRow (reconciliation.ts's fixes) are one shape: this fails to compile when they part. */
const _manualRowIsTheSchema: [ManualTransactionT, ManualRow] extends [ManualRow, ManualTransactionT] ? true : never = true;

export const ManualTransactionsRequest = Type.Object(
  { transactions: Type.Array(ManualTransaction, { minItems: 1, maxItems: MANUAL_ROWS_MAX, description: `1 to ${MANUAL_ROWS_MAX.toLocaleString('en-US')} transactions, stored as one import (all or none)` }) },
  { additionalProperties: false },
);
export type ManualTransactionsRequestT = Static<typeof ManualTransactionsRequest>;

export const ManualTransactionsResponse = Type.Object({
  importId: Type.Integer({ description: 'The import these rows are (undo: DELETE /imports/{importId})' }),
  ids: Type.Array(Type.String(), { description: 'The new transactions’ ids, in the order sent' }),
});
export type ManualTransactionsResponseT = Static<typeof ManualTransactionsResponse>;

export const TransactionIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

export const ManualTransactionResponse = Type.Object({ id: Type.String(), importId: Type.Integer() });
export const ManualDeleteResponse = Type.Object({
  id: Type.String(),
  importId: Type.Integer(),
  importRemoved: Type.Boolean({ description: 'The import held no other row and is gone with it' }),
});
export type ManualDeleteResponseT = Static<typeof ManualDeleteResponse>;

/** POST /journal/expirations (DESIGN §5, "Expiry"): options past their expiration that no row or snapshot settled, booked expired worthless. */
export const ExpiredByHandRequest = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        {
          accountId: Type.String({ minLength: 1, maxLength: 64, description: 'The account of a needsAttention item (GET /journal/positions)' }),
          symbol: Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9 ./^-]*$', description: 'The option (OCC symbol) of that item' }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: EXPIRATION_ITEMS_MAX, description: `1 to ${EXPIRATION_ITEMS_MAX.toLocaleString('en-US')} options, booked as one manual import (all or none)` },
    ),
  },
  { additionalProperties: false },
);
export type ExpiredByHandRequestT = Static<typeof ExpiredByHandRequest>;

export const ExpiredByHandResponse = Type.Object({
  importId: Type.Integer({ description: 'The manual import of these rows (undo: DELETE /imports/{importId})' }),
  ids: Type.Array(Type.String(), { description: 'The EXPIRATION rows’ ids' }),
  expired: Type.Array(
    Type.Object({
      accountId: Type.String(),
      symbol: Type.String(),
      currency: Type.String(),
      quantity: Type.Number({ description: 'Contracts expired: the whole position' }),
      tradeDate: Type.String({ description: 'The expiry instant (16:00 New York; 09:30 for AM-settled roots)' }),
    }),
  ),
});
export type ExpiredByHandResponseT = Static<typeof ExpiredByHandResponse>;
