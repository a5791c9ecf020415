/** The /v1 import contract: broker file imports and user-defined formats (docs/importers.md). */
import { Type, type Static, type TProperties } from 'typebox';
import { BROKER_IDS, IMPORT_KINDS, FORMAT_AMOUNT_SIGNS, FORMAT_DATE_LAYOUTS, FORMAT_ZONES, IMPORT_FORMAT_LIMITS, TRANSACTION_TYPES } from './constants';
import { Nullable, Params, OneOf, AccountSchema, PaginationSchema } from './schema-kit';
import { TransactionSchema, TransactionsQuery } from './journal-schemas';
import { ImportReconciliationFields } from './reconciliation-schemas';

// ---------------------------------------------------------------- imports

/** A user-defined format's importer id: `custom:` and the format's id. */
const CUSTOM_IMPORTER_PATTERN = '^custom:[a-z0-9]{1,32}$';

export const ImportQuery = Params({
  broker: Type.Optional(
    Type.Union([Type.Enum(['auto', ...BROKER_IDS]), Type.String({ pattern: CUSTOM_IMPORTER_PATTERN })], {
      description: 'default auto (detected from the header); a saved format is custom:<id> (GET /v1/import-formats)',
    }),
  ),
  account: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Account name for files that carry none' })),
  filename: Type.Optional(Type.String({ maxLength: 255 })),
});
export type ImportQueryT = Static<typeof ImportQuery>;

export const ImportReportSchema = Type.Object({
  id: Type.Integer(),
  kind: OneOf(IMPORT_KINDS, { description: 'file: a broker file; manual: transactions entered by hand (POST /journal/transactions); demo: the generated demo' }),
  broker: Type.String(),
  source: Type.String(),
  filename: Nullable(Type.String()),
  createdAt: Type.String(),
  accounts: Type.Array(AccountSchema),
  rows: Type.Integer({ description: 'Data rows read' }),
  imported: Type.Integer(),
  duplicates: Type.Integer(),
  skipped: Type.Array(Type.Object({ line: Type.Integer(), reason: Type.String() }), { description: 'The first lines of each reason (a report is at most 64 KB)' }),
  skippedCount: Type.Integer({ description: 'Every skipped line' }),
  skippedReasons: Type.Array(Type.Object({ reason: Type.String(), count: Type.Integer() }), { description: 'Skipped lines by reason, most frequent first; "other reasons" counts the rest' }),
  warnings: Type.Array(Type.Object({ line: Nullable(Type.Integer()), message: Type.String() }), { description: 'The first lines of each warning' }),
  warningCount: Type.Integer({ description: 'Every warning' }),
  openedBeforeHistory: Type.Integer({
    description: 'Closes without an opening among its rows, as the journal stands now: counted in warningCount, the first 50 listed under warnings in the words of /journal/positions needsAttention (opened_before_history)',
  }),
  merged: Type.Array(Type.Object({ lines: Type.Array(Type.Integer()), reason: Type.String() }), {
    description: 'Rows of the file that became one transaction (a symbol change’s or a special dividend’s two rows), every line of each group: the first 100 groups',
  }),
  mergedCount: Type.Integer({ description: 'Rows read that became part of another row’s transaction: rows = imported + duplicates + skippedCount + mergedCount' }),
  supersededManual: Type.Array(
    Type.Object({
      id: Type.String({ description: 'The manual transaction, retired: out of every figure until this import is undone' }),
      importId: Type.Integer({ description: 'The manual import it belongs to' }),
      accountId: Type.String(),
      type: Type.Enum(TRANSACTION_TYPES),
      symbol: Type.String(),
      quantity: Type.Number(),
      tradeDate: Type.String(),
      importedQuantity: Type.Number({ description: 'Units this file’s rows hold on its side at the close of its day; fewer than quantity: the rest is listed under needsAttention (opened before the history) again' }),
    }),
    { description: 'Manual openings this import made duplicates (same account, instrument and side, an imported opening on or before their day still open then; docs/journal.md "Manual entries"): retired, restored by undoing the import. The first 100' },
  ),
  supersededManualCount: Type.Integer({ description: 'Every manual row this import superseded' }),
  ...ImportReconciliationFields,
});
export type ImportReport = Static<typeof ImportReportSchema>;

export const ImportsQuery = Params({
  page: TransactionsQuery.properties.page,
  limit: TransactionsQuery.properties.limit,
});
export type ImportsQueryT = Static<typeof ImportsQuery>;
export const ImportsResponse = Type.Object({ imports: Type.Array(ImportReportSchema), pagination: PaginationSchema });
export type ImportsResponseT = Static<typeof ImportsResponse>;
export const ImportIdParams = Params({ id: Type.Integer({ minimum: 1 }) });
export const ImportDeleteResponse = Type.Object({ id: Type.Integer(), removed: Type.Integer({ description: 'Transactions removed' }) });

// ---------------------------------------------------------------- import formats (docs/importers.md, "User-defined formats")

const L = IMPORT_FORMAT_LIMITS;
/** A column of the format's header, by its name. */
const FormatColumn = (description: string) => Type.String({ minLength: 1, maxLength: L.columnChars, description });
const Strict = <P extends TProperties>(properties: P, description?: string) =>
  Type.Object(properties, { additionalProperties: false, ...(description === undefined ? {} : { description }) });

export const ImportFormatMapping = Strict(
  {
    date: Strict({
      column: FormatColumn('The date (a time and an offset may follow it in the cell)'),
      layout: OneOf(FORMAT_DATE_LAYOUTS, { description: 'How the date is written' }),
      time: Type.Optional(FormatColumn('A separate time column (H:MM[:SS] [AM|PM])')),
      zone: OneOf(FORMAT_ZONES, { description: 'Zone of times written without an offset; bare dates are 16:00 New York' }),
    }),
    type: Strict({
      column: FormatColumn("The broker's action or type"),
      words: Type.Array(
        Strict({ word: Type.String({ minLength: 1, maxLength: L.wordChars }), type: OneOf(TRANSACTION_TYPES) }),
        { maxItems: L.words, description: 'Action words → transaction types (case-insensitive); a cell may also be a type name itself' },
      ),
    }),
    symbol: Type.Optional(FormatColumn('Ticker, or an option: OCC (SPY250117P00450000) or written out (DEF 08/21/2026 100.00 C, SPY Sep 23 2022 371 Call, -SPY220923C371), an action before it allowed')),
    option: Type.Optional(
      Strict({
        text: Type.Optional(FormatColumn('An option: OCC (SPY250117P00450000, padded or not) or written out (DEF 08/21/2026 100.00 C, SPY 09/23/2022 C 371, SPY Sep 23 2022 371 Call, -SPY220923C371)')),
        root: Type.Optional(FormatColumn('The underlying of an option (else the symbol column)')),
        expiration: Type.Optional(FormatColumn('Expiration date, written as the date layout')),
        strike: Type.Optional(FormatColumn('Strike')),
        right: Type.Optional(FormatColumn('C/P/Call/Put')),
      }),
    ),
    quantity: FormatColumn('Shares or contracts (the sign is dropped, except for SPLIT)'),
    price: Type.Optional(FormatColumn('Price per share (per unit of the underlying for options)')),
    multiplier: Type.Optional(FormatColumn('Shares per contract (default 100 for options, 1 otherwise)')),
    commission: Type.Optional(FormatColumn('Commission (unsigned)')),
    fees: Type.Optional(FormatColumn('Fees (unsigned)')),
    amount: Strict({
      column: Type.Optional(FormatColumn('Net cash of the row; without it, −(price × quantity × multiplier) for buys, + for sells, less commission and fees')),
      sign: OneOf(FORMAT_AMOUNT_SIGNS, { description: 'as-written, or by-type: buys pay, sells receive (other types as written)' }),
    }),
    account: Type.Optional(FormatColumn('Account')),
    currency: Type.Optional(FormatColumn('Currency (3 letters; default USD)')),
    description: Type.Optional(FormatColumn('Description (an option written out in it is read when neither the option nor the symbol column names one)')),
    orderId: Type.Optional(FormatColumn('Order id')),
    rowId: Type.Optional(FormatColumn("The row's own id (a transaction or execution id): re-imports deduplicate on it; without it, on the row's content")),
  },
  'Which column of the header holds each field of a transaction',
);
export type ImportFormatMappingT = Static<typeof ImportFormatMapping>;

/** What POST and PUT /import-formats take. */
export const ImportFormatDraft = Strict({
  name: Type.String({ minLength: 1, maxLength: L.nameChars, description: 'What the Import page and import reports call it' }),
  header: Type.Array(Type.String({ maxLength: L.columnChars }), {
    minItems: 2,
    maxItems: L.headerColumns,
    description: "The header's cells; a file whose header has the same names (any order) is read with this format",
  }),
  mapping: ImportFormatMapping,
});
export type ImportFormatDraftT = Static<typeof ImportFormatDraft>;

export const ImportFormatSchema = Type.Object({
  id: Type.String(),
  importer: Type.String({ description: 'custom:<id>: the broker= of POST /imports and the broker of its reports' }),
  name: Type.String(),
  header: Type.Array(Type.String()),
  mapping: ImportFormatMapping,
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type ImportFormatJson = Static<typeof ImportFormatSchema>;
export const ImportFormatIdParams = Params({ id: Type.String({ pattern: '^[a-z0-9]{1,32}$' }) });

export const ImporterSchema = Type.Object({ id: Type.String(), label: Type.String(), formats: Type.String() });
export const ImportFormatsResponse = Type.Object({
  importers: Type.Array(ImporterSchema, { description: "broker= of POST /imports: the built-in importers (the registry), then the saved formats" }),
  formats: Type.Array(ImportFormatSchema),
  limit: Type.Integer({ description: 'How many formats can be saved' }),
});
export type ImportFormatsResponseT = Static<typeof ImportFormatsResponse>;
export const ImportFormatDeleteResponse = Type.Object({ id: Type.String(), deleted: Type.Boolean() });

export const ImportFormatPreviewRequest = Strict({
  text: Type.String({ minLength: 1, maxLength: L.previewChars, description: 'The file (or its start, cut at a line end)' }),
  format: Type.Optional(ImportFormatDraft),
});
export type ImportFormatPreviewRequestT = Static<typeof ImportFormatPreviewRequest>;

const LineMessage = Type.Object({ line: Type.Integer(), message: Type.String() });
export const PreviewTransactionSchema = Type.Object({
  line: Type.Integer({ description: 'Line of the file' }),
  ...Type.Omit(TransactionSchema, ['id', 'accountId', 'tradeDay', 'importId', 'realizedPL']).properties,
});
export type PreviewTransactionJson = Static<typeof PreviewTransactionSchema>;
export const ImportFormatPreviewResponse = Type.Object({
  header: Nullable(Type.Object({ line: Type.Integer(), cells: Type.Array(Type.String()) }, { description: 'The header found (the saved one, else the first row of names)' })),
  sample: Type.Array(Type.Object({ line: Type.Integer(), cells: Type.Array(Type.String()) }), { description: 'The first rows below the header' }),
  detected: Nullable(Type.String({ description: 'The importer that recognises the text as it is, if any' })),
  preview: Nullable(
    Type.Object({
      rows: Type.Integer(),
      transactionCount: Type.Integer(),
      transactions: Type.Array(PreviewTransactionSchema, { description: `The first ${L.previewTransactions}` }),
      skipped: Type.Array(LineMessage),
      warnings: Type.Array(Type.Object({ line: Nullable(Type.Integer()), message: Type.String() })),
      errors: Type.Array(LineMessage, { description: 'Line-numbered problems: any means an import would store nothing' }),
      words: Type.Array(Type.String(), { description: "The type column's distinct cells: the words the format should map" }),
      ready: Type.Boolean({ description: 'No errors, and no row whose action opens or closes an option while no option was found on it (it would be stored as shares; a warning names it)' }),
    }),
  ),
});
export type ImportFormatPreviewResponseT = Static<typeof ImportFormatPreviewResponse>;
