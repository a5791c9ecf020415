/**
 * The /v1 contract of reconciliation with the broker's figures (docs/journal.md §Reconciliation): the rows an import's
 * report carries (its file's own figures beside the journal's), POST /imports/{id}/acknowledge, POST /journal/reconcile
 * (a broker's positions file beside the book) and GET /journal/reconciliations (the balance assertions saved).
 */
import { Type, type Static } from 'typebox';
import { DIFFERENCE_KINDS, FIX_KINDS } from '../journal/reconciliation';
import { STATEMENT_KINDS, STATEMENT_ROWS } from '../journal/statements';
import { TRANSACTION_TYPES } from './constants';
import { AccountIdParam, DATETIME_PATTERN, Nullable, OneOf, Params, type Sent } from './schema-kit';

export const IMPORT_STATUSES = ['ready', 'differs', 'acknowledged'] as const;

export const ReconciliationRowSchema = Type.Object(
  {
    what: OneOf(STATEMENT_KINDS, { description: 'cash_total: the net cash of the rows in scope (a total line); realized_pl; commissions (a positive cost); position: units held at asOf' }),
    label: Type.String({ description: "The file's own words for the figure (Total:, Transactions Total, Open Positions: AAPL), or the balance assertion" }),
    line: Nullable(Type.Integer({ description: 'The line of the file that states it' })),
    asOf: Type.String({ description: 'The instant the figure holds at (the end of its period)' }),
    from: Nullable(Type.String({ description: 'The start of the period a money figure covers (null: the file’s first row)' })),
    rows: Type.Optional(OneOf(STATEMENT_ROWS, { description: 'Which rows a money figure adds up: all, trades (fills and settlements), options, stocks' })),
    currency: Type.String(),
    account: Nullable(Type.String({ description: 'The account as the file names it (null: every account of the file)' })),
    accountId: Nullable(Type.String()),
    symbol: Nullable(Type.String({ description: 'The instrument (OCC without padding for an option); null: every row in scope' })),
    unit: OneOf(['money', 'units'] as const, { description: 'money: broker, journal and difference in the currency (rounded to cents); units: shares or contracts, signed' }),
    broker: Type.Number({ description: "The broker's figure" }),
    journal: Type.Number({ description: "The journal's figure for the same scope and instant" }),
    difference: Type.Number({ description: 'journal − broker' }),
    ok: Type.Boolean({ description: 'Within 0.01 of the currency; quantities exactly' }),
    note: Nullable(Type.String({ description: 'Why the journal may fall short (closes whose opening is missing), or the fix of an assertion’s difference' })),
    assertionId: Nullable(Type.Integer({ description: 'The balance assertion this row checks (null: the file’s own figure)' })),
  },
  { description: 'One figure the file states about itself (or a balance assertion the import broke), beside the journal’s' },
);
export type ReconciliationRowJson = Static<typeof ReconciliationRowSchema>;

/** The fields of an import's report that say whether its file agrees with the journal. */
export const ImportReconciliationFields = {
  status: OneOf(IMPORT_STATUSES, { description: "ready: every figure the file states about itself agrees with the journal (or it states none); differs: one does not (listed under reconciliation and in GET /journal/positions needsAttention); acknowledged: it differs and POST /imports/{id}/acknowledge said so" }),
  reconciliation: Type.Array(ReconciliationRowSchema, { description: 'The file’s figures as the journal stands now (checked again when it changes), those that differ first; at most 24 KB of them' }),
  reconciliationCount: Type.Integer({ description: 'Every figure checked' }),
  reconciliationDiffers: Type.Integer({ description: 'The figures that differ' }),
  acknowledgedAt: Nullable(Type.String()),
};

export const AcknowledgeResponse = Type.Object({
  id: Type.Integer(),
  acknowledgedAt: Nullable(Type.String({ description: 'null: the file states nothing to acknowledge' })),
  status: OneOf(IMPORT_STATUSES),
});

export const ReconcileQuery = Params({
  asOf: Type.Optional(Type.String({ pattern: DATETIME_PATTERN, description: 'The instant the positions are of (a date = the end of that journal day); default the one the file states, else now' })),
  accountId: Type.Optional(AccountIdParam('Reconcile this account (404 UNKNOWN_ACCOUNT when none has this id); default the whole journal')),
  save: Type.Optional(OneOf(['true', 'false'] as const, { description: 'true: store it as a balance assertion (GET /journal/reconciliations); an import that later breaks it differs' })),
  filename: Type.Optional(Type.String({ maxLength: 255 })),
});
export type ReconcileQueryT = Sent<Static<typeof ReconcileQuery>>;

const Side = (who: string) =>
  Nullable(Type.Object({ quantity: Type.Number({ description: 'Signed: + long, − short' }), cost: Nullable(Type.Number({ description: 'The position’s cost in the currency (null: the file gives none)' })) }, { description: `What ${who} holds (null: nothing)` }));

const FixRowSchema = Type.Object(
  {
    accountId: Type.Optional(Type.String()),
    date: Type.String(),
    type: OneOf(TRANSACTION_TYPES),
    symbol: Type.Optional(Type.String()),
    underlying: Type.Optional(Type.String()),
    quantity: Type.Optional(Type.Number()),
    price: Type.Optional(Type.Number({ description: 'Absent: the user gives it (needsPrice)' })),
    amount: Type.Optional(Type.Number({ description: 'An opening at the broker’s cost: that cost as the cash (− paid for a long, + received for a short)' })),
    multiplier: Type.Optional(Type.Number()),
    currency: Type.Optional(Type.String()),
    previousSymbol: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
  },
  { description: 'A manual transaction as POST /v1/journal/transactions takes it, prefilled' },
);

export const PositionDifferenceSchema = Type.Object({
  kind: OneOf(DIFFERENCE_KINDS, { description: 'missing_in_journal: the broker holds it, the journal not; missing_at_broker: the reverse; quantity: both, in other quantities; cost: the same quantity at another cost' }),
  symbol: Type.String(),
  underlying: Type.String(),
  isOption: Type.Boolean(),
  expiration: Nullable(Type.String()),
  strike: Nullable(Type.Number()),
  right: Nullable(Type.Union([Type.Literal('C'), Type.Literal('P')])),
  multiplier: Type.Number(),
  currency: Type.String(),
  accountId: Nullable(Type.String()),
  accountName: Nullable(Type.String()),
  broker: Side('the broker'),
  journal: Side('the journal'),
  fix: Type.Object({
    kind: OneOf(FIX_KINDS, { description: 'add_opening, add_closing, mark_expired, corporate_action: rows to add; review: nothing to add, what to check' }),
    label: Type.String({ description: 'What the button says' }),
    detail: Type.String(),
    accountId: Nullable(Type.String({ description: 'The rows’ account (null: reconcile one account, ?accountId=)' })),
    transactions: Type.Array(FixRowSchema),
    needsPrice: Type.Boolean({ description: 'A row lacks its price: the user gives it before the rows are sent' }),
    corporateAction: Nullable(
      Type.Object({
        type: Type.Union([Type.Literal('split'), Type.Literal('symbol_change')]),
        symbol: Type.String(),
        newSymbol: Nullable(Type.String()),
        ratio: Type.Number({ description: 'New shares per old' }),
        date: Type.String(),
      }),
    ),
  }),
});
export type PositionDifferenceJson = Static<typeof PositionDifferenceSchema>;

export const ReconcileResponse = Type.Object({
  asOf: Type.String(),
  accountId: Nullable(Type.String()),
  format: Type.String({ description: 'The layout read: schwab-positions, fidelity-positions, tastytrade-positions, ibkr-open-positions, ibkr-flex-positions, etrade-positions, generic-csv, json' }),
  label: Type.String(),
  positions: Type.Integer({ description: 'Positions read (of the account reconciled)' }),
  skipped: Type.Integer({ description: 'Lines that are no position (cash, totals, pending activity)' }),
  matched: Type.Integer({ description: 'Instruments whose quantity (and cost, when given) agree' }),
  differences: Type.Array(PositionDifferenceSchema),
  assertionId: Nullable(Type.Integer({ description: 'The balance assertion stored (save=true)' })),
});
export type ReconcileResponseT = Static<typeof ReconcileResponse>;

export const ReconciliationsResponse = Type.Object({
  reconciliations: Type.Array(
    Type.Object({
      id: Type.Integer(),
      createdAt: Type.String(),
      asOf: Type.String(),
      accountId: Nullable(Type.String()),
      format: Type.String(),
      filename: Nullable(Type.String()),
      positions: Type.Integer(),
      holds: Type.Boolean({ description: 'Every quantity agrees with the book at asOf now' }),
      matched: Type.Integer(),
      differences: Type.Array(PositionDifferenceSchema),
    }),
    { description: 'The balance assertions, newest first (the last 100 are kept)' },
  ),
});
export type ReconciliationsResponseT = Static<typeof ReconciliationsResponse>;
