/**
 * The /v1 contract of corporate actions (DESIGN §5 "Corporate actions", docs/journal.md §Corporate actions):
 * `GET /journal/corporate-actions` lists every action the journal applies — those a broker's file brought (its SPLIT /
 * SYMBOL_CHANGE rows) and those entered by hand — with what each did; `POST` enters one (an import of its own, undone
 * as one), `PUT` and `DELETE /journal/corporate-actions/{id}` change one entered by hand.
 */
import { Type, type Static } from 'typebox';
import { CORPORATE_ACTION_OUTCOMES, CORPORATE_ACTION_TYPES, PAGE_LIMIT_CAP, PAGE_LIMIT_DEFAULT } from './constants';
import { DATE_PATTERN, Nullable, OneOf, PaginationSchema, Params, SYMBOL_PATTERN } from './schema-kit';

/** Actions entered by hand the journal keeps (each is an import: the history and the ledger stay bounded). */
export const MANUAL_ACTIONS_MAX = 5_000;

/**
 * One action as a person enters it. Which fields each kind takes (the service names a field a kind refuses or lacks):
 * split `ratio` (2 for 2-for-1, 0.1 for 1-for-10; `newSymbol` when the ticker changes too); symbol_change `newSymbol`
 * (`ratio` default 1); merger `newSymbol` with `ratio` (default 1) and/or `cashPerShare` (cash alone: a cash merger),
 * `costFraction` with cash; stock_dividend `ratio` (0.05 for 5%); spinoff `newSymbol`, `ratio`, `costFraction`;
 * free_shares `quantity` and `accountId`. `cashPerShare` of a split, stock dividend or spin-off is the cash paid per
 * new share for a fraction (sold at it; without it fractions are kept).
 */
export const CorporateActionInput = Type.Object(
  {
    accountId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'An account of the journal (GET /journal/accounts); without it the action applies to every account holding the symbol' })),
    date: Type.String({ pattern: DATE_PATTERN, description: 'The effective date, YYYY-MM-DD (1900–2200): the action applies at the start of that day' }),
    type: OneOf(CORPORATE_ACTION_TYPES),
    symbol: Type.String({ pattern: SYMBOL_PATTERN, description: 'The ticker it applies to: the old one of a symbol change or merger, the parent of a spin-off' }),
    newSymbol: Type.Optional(Type.String({ pattern: SYMBOL_PATTERN, description: 'The new ticker (symbol change, merger, spin-off; a split that changes it)' })),
    ratio: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, description: 'New shares per old share (stock dividend: shares received per share held)' })),
    cashPerShare: Type.Optional(Type.Number({ minimum: 0, maximum: 10_000_000, description: 'Merger: cash per old share; split, stock dividend, spin-off: cash per new share paid for a fraction. Currency units, at most 4 decimals kept' })),
    costFraction: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Spin-off: the part of the basis the new shares take; merger with cash: the part the new shares keep' })),
    quantity: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000_000, description: 'Free shares: the shares received' })),
    note: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);
export type CorporateActionInputT = Static<typeof CorporateActionInput>;

export const CorporateActionIdParams = Params({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

export const CorporateActionsQuery = Params({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: 'default 1' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: `default ${PAGE_LIMIT_DEFAULT}; values above ${PAGE_LIMIT_CAP} are clamped to ${PAGE_LIMIT_CAP}` })),
});
export type CorporateActionsQueryT = Static<typeof CorporateActionsQuery>;

export const CorporateActionJson = Type.Object({
  id: Nullable(Type.Integer({ description: 'An action entered by hand (PUT / DELETE by it); null for a file’s' })),
  source: Type.Union([Type.Literal('manual'), Type.Literal('file')]),
  importId: Type.Integer({ description: 'The import it came with (undo: DELETE /imports/{importId})' }),
  transactionId: Nullable(Type.String({ description: 'A file’s: its SPLIT / SYMBOL_CHANGE row' })),
  accountId: Nullable(Type.String({ description: 'null: every account' })),
  accountName: Nullable(Type.String()),
  date: Type.String(),
  type: OneOf(CORPORATE_ACTION_TYPES),
  symbol: Type.String(),
  newSymbol: Nullable(Type.String()),
  ratio: Nullable(Type.Number()),
  cashPerShare: Nullable(Type.Number({ description: 'Currency units per share, unrounded' })),
  costFraction: Nullable(Type.Number()),
  quantity: Nullable(Type.Number({ description: 'Shares received (free shares; a file’s stock dividend); a file’s split without a ratio: the signed change of the position' })),
  note: Type.String({ description: 'Entered by hand: the note; a file’s: the row’s description' }),
  outcome: OneOf(CORPORATE_ACTION_OUTCOMES, {
    description: 'applied; nothing_held (no shares or options of the symbol in the account then); duplicate (the same action entered by hand applied instead); not_applied (its account holds no transactions, or the new symbol is held on the other side)',
  }),
  appliedTo: Type.Array(Type.String(), { description: 'The accounts it changed' }),
});
export type CorporateActionJsonT = Static<typeof CorporateActionJson>;

export const CorporateActionsResponse = Type.Object({
  corporateActions: Type.Array(CorporateActionJson, { description: 'Newest effective date first' }),
  pagination: PaginationSchema,
});
export type CorporateActionsResponseT = Static<typeof CorporateActionsResponse>;

export const CorporateActionWriteResponse = Type.Object({
  id: Type.Integer(),
  importId: Type.Integer({ description: 'The import it is (undo: DELETE /imports/{importId})' }),
});
export type CorporateActionWriteResponseT = Static<typeof CorporateActionWriteResponse>;

export const CorporateActionDeleteResponse = Type.Object({
  id: Type.Integer(),
  importId: Type.Integer(),
  importRemoved: Type.Boolean({ description: 'Its import held nothing else and is gone with it' }),
});
export type CorporateActionDeleteResponseT = Static<typeof CorporateActionDeleteResponse>;
