/**
 * The /v1 route table: every route declared once, keyed by its method and path (docs/conventions.md §HTTP API).
 * The server registers each entry with its handler (src-main/server/route-table.ts: an entry without a handler,
 * or a handler without an entry, stops the start), the OpenAPI document is generated from the registered schemas,
 * the renderer's `api.call(key, input)` takes its input and output types from here (type-only: the key names the
 * method and the path), and the route tests and the README's route table are checked against it.
 *
 * Pure data and schemas: no Node, no Fastify.
 */
import { Type, type TSchema } from 'typebox';
import {
  AccountsResponse,
  AcknowledgeResponse,
  AnnotationBody,
  AnnotationParams,
  AnnotationResponse,
  AppStatusSchema,
  BackfillBody,
  BackfillJobSchema,
  BackfillStatusSchema,
  BackupSchema,
  BackupsResponse,
  CampaignDetailResponse,
  CampaignParams,
  CampaignQuery,
  CampaignsQuery,
  CampaignsResponse,
  ChainPostQuery,
  ChainPostResponse,
  ChainsResponse,
  CorporateActionDeleteResponse,
  CorporateActionIdParams,
  CorporateActionInput,
  CorporateActionsQuery,
  CorporateActionsResponse,
  CorporateActionWriteResponse,
  DemoResponse,
  EventsQuery,
  EventsResponse,
  EventsStreamQuery,
  ExpirationsQuery,
  ExpirationsResponse,
  ExpiredByHandRequest,
  ExpiredByHandResponse,
  ExportIdParams,
  ExportJobSchema,
  ExportRequestBody,
  ExportsResponse,
  GexDiffQuery,
  GexDiffResponse,
  GexGridQuery,
  GexGridResponse,
  GexHistoryQuery,
  GexHistoryResponse,
  GexProfileQuery,
  GexProfileResponse,
  GexQuery,
  GexResponse,
  HealthSchema,
  ImportDeleteResponse,
  ImportFormatDeleteResponse,
  ImportFormatDraft,
  ImportFormatIdParams,
  ImportFormatPreviewRequest,
  ImportFormatPreviewResponse,
  ImportFormatSchema,
  ImportFormatsResponse,
  ImportIdParams,
  ImportQuery,
  ImportReportSchema,
  ImportsQuery,
  ImportsResponse,
  KeyRotateResponse,
  ManageQuery,
  ManageResponse,
  ManualDeleteResponse,
  ManualTransaction,
  ManualTransactionResponse,
  ManualTransactionsRequest,
  ManualTransactionsResponse,
  NoQuery,
  PerformanceQuery,
  PerformanceResponse,
  PositionsQuery,
  PositionsResponse,
  ReconcileQuery,
  ReconcileResponse,
  ReconciliationsResponse,
  RefreshPassSchema,
  RestoreRequestBody,
  RestoreResponse,
  RollsQuery,
  RollsResponse,
  SettingsSchema,
  SettingsUpdate,
  SnapshotDeleteResponse,
  SnapshotIdParams,
  SnapshotResponse,
  SnapshotsQuery,
  SnapshotsResponse,
  StatsQuery,
  StatsResponse,
  StreamTicketResponse,
  SummaryQuery,
  SummaryResponse,
  TradeDetailQuery,
  TradeDetailResponse,
  TradeParams,
  TradesQuery,
  TradesResponse,
  TransactionIdParams,
  TransactionsQuery,
  TransactionsResponse,
  VannaQuery,
  VannaResponse,
  WatchStatusSchema,
} from './schemas';

/**
 * Who may call a route, read by the gate from the route the router matched (src-main/server/gate.ts): `public`
 * needs no key, `key` the Bearer key, `key-or-ticket` (the event stream) the key or a one-stream ticket as
 * `?ticket=` (EventSource cannot send headers; the key itself never goes into a URL).
 */
export type Access = 'public' | 'key' | 'key-or-ticket';

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * What a route's request body and answer are when they are not JSON: `upload` takes a raw file (CSV or JSON, kept
 * as bytes, with upload progress in the UI), `sse` answers a text/event-stream.
 */
export type RouteKind = 'json' | 'upload' | 'sse';

export interface RouteSpec {
  summary: string;
  /** The OpenAPI tag (journal, imports, exposure, chains, settings, exports, backups, meta). */
  tag: string;
  access: Access;
  kind: RouteKind;
  /** Path parameters, by the names in braces of the key's path. */
  params?: TSchema;
  /** The query; a route without one does not check its query (two reads of a stored snapshot, kept as they were). */
  query?: TSchema;
  /** A JSON body (an upload's body is raw: no schema). */
  body?: TSchema;
  /** The answers besides the problems (4xx/5xx are the Problem schema on every route). */
  response: Readonly<Record<number, TSchema>>;
  /** Answered from the answer cache with an ETag (304 on If-None-Match; src-main/server/answer-cache.ts). */
  cached?: boolean;
  /** Left out of the OpenAPI document (the document itself). */
  hidden?: boolean;
}

/** A key of the table: `METHOD /path` under /v1, path parameters in braces (`GET /journal/trades/{id}`). */
export type RouteKeyText = `${RouteMethod} /${string}`;

const json = { kind: 'json', access: 'key' } as const;
/** A cached exposure answer: 200 with its ETag, or 304. */
const cached = <T extends TSchema>(answer: T) => ({ 200: answer, 304: Type.Null({ description: 'Not modified (If-None-Match)' }) }) as const;

const campaignsRead = (alias: string) =>
  ({ ...json, tag: 'journal', summary: `Wheel campaigns (chains, flat to flat) with premiums, P&L, collateral and returns${alias}`, query: CampaignsQuery, response: { 200: CampaignsResponse } }) as const;
const campaignRead = (alias: string) =>
  ({ ...json, tag: 'journal', summary: `One campaign with its timeline of legs and its open positions${alias}`, params: CampaignParams, query: CampaignQuery, response: { 200: CampaignDetailResponse } }) as const;
const CAMPAIGNS_ALIAS = ' (alias of /v1/journal/chains)';

export const ROUTES = {
  // ---------------------------------------------------------------- meta
  'GET /health': { kind: 'json', access: 'public', tag: 'meta', summary: 'Liveness (no key needed)', query: NoQuery, response: { 200: HealthSchema } },
  'GET /openapi.json': { kind: 'json', access: 'public', tag: 'meta', summary: 'This document (OpenAPI 3.1)', query: NoQuery, response: { 200: Type.Unknown() }, hidden: true },

  // ---------------------------------------------------------------- journal
  'GET /journal/performance': { ...json, tag: 'journal', summary: 'Weekly and monthly P&L around a date, or a custom range', query: PerformanceQuery, response: { 200: PerformanceResponse } },
  'GET /journal/accounts': {
    ...json,
    tag: 'journal',
    summary: 'The accounts that hold transactions: the ids `accountId` takes, with their transactions and first and last trade days',
    query: NoQuery,
    response: { 200: AccountsResponse },
  },
  'GET /journal/summary': { ...json, tag: 'journal', summary: 'Yearly statistics and chart data', query: SummaryQuery, response: { 200: SummaryResponse } },
  'GET /journal/positions': { ...json, tag: 'journal', summary: 'Open positions at an instant, marked from the chain snapshots, with greeks and dealer levels', query: PositionsQuery, response: { 200: PositionsResponse } },
  'GET /journal/manage': {
    ...json,
    tag: 'journal',
    summary:
      'What to manage today: the open trades that hit a management rule (settings manageRules: profit target, DTE, loss stop, in the money near expiry, dividend risk, level alerts), with the figures behind each, most urgent first; trades with stale marks apart',
    query: ManageQuery,
    response: { 200: ManageResponse },
  },
  // `/journal/chains` is the public route (its JSON keeps `chains`); `/journal/campaigns` its alias, named as the UI
  // and the code name them (docs/decisions.md §The middle layer, round two).
  'GET /journal/chains': campaignsRead(''),
  'GET /journal/chains/{id}': campaignRead(''),
  'GET /journal/campaigns': campaignsRead(CAMPAIGNS_ALIAS),
  'GET /journal/campaigns/{id}': campaignRead(CAMPAIGNS_ALIAS),
  'GET /journal/transactions': { ...json, tag: 'journal', summary: 'Transactions, newest first, paginated (limit clamped to 100)', query: TransactionsQuery, response: { 200: TransactionsResponse } },
  'POST /journal/transactions': {
    ...json,
    tag: 'journal',
    summary: 'Add transactions by hand (JSON, the generic CSV’s fields): one import of kind manual, all rows or none',
    query: NoQuery,
    body: ManualTransactionsRequest,
    response: { 201: ManualTransactionsResponse },
  },
  'PUT /journal/transactions/{id}': {
    ...json,
    tag: 'journal',
    summary: 'Replace a manual transaction (its id and import stay); an imported row is 409 IMPORTED_ROW',
    params: TransactionIdParams,
    query: NoQuery,
    body: ManualTransaction,
    response: { 200: ManualTransactionResponse },
  },
  'DELETE /journal/transactions/{id}': {
    ...json,
    tag: 'journal',
    summary: 'Delete a manual transaction (an import left empty goes with it); an imported row is 409 IMPORTED_ROW',
    params: TransactionIdParams,
    query: NoQuery,
    response: { 200: ManualDeleteResponse },
  },
  'POST /journal/expirations': {
    ...json,
    tag: 'journal',
    summary: 'Book options past their expiration that no row or snapshot settled as expired worthless: manual EXPIRATION rows, one import (undoable)',
    query: NoQuery,
    body: ExpiredByHandRequest,
    response: { 201: ExpiredByHandResponse },
  },
  'GET /journal/corporate-actions': {
    ...json,
    tag: 'journal',
    summary: 'Corporate actions the journal applies — read from files and entered by hand — with what each did, newest first, paginated',
    query: CorporateActionsQuery,
    response: { 200: CorporateActionsResponse },
  },
  'POST /journal/corporate-actions': {
    ...json,
    tag: 'journal',
    summary: 'Enter a corporate action by hand (split, symbol change, merger, stock dividend, spin-off, free shares): an import of its own',
    query: NoQuery,
    body: CorporateActionInput,
    response: { 201: CorporateActionWriteResponse },
  },
  'PUT /journal/corporate-actions/{id}': {
    ...json,
    tag: 'journal',
    summary: 'Replace a corporate action entered by hand (its id and import stay)',
    params: CorporateActionIdParams,
    query: NoQuery,
    body: CorporateActionInput,
    response: { 200: CorporateActionWriteResponse },
  },
  'DELETE /journal/corporate-actions/{id}': {
    ...json,
    tag: 'journal',
    summary: 'Delete a corporate action entered by hand (its import goes with it)',
    params: CorporateActionIdParams,
    query: NoQuery,
    response: { 200: CorporateActionDeleteResponse },
  },
  'GET /journal/trades': {
    ...json,
    tag: 'journal',
    summary: 'Trades (legs opened and managed together until flat) with strategy, risk, collateral, P&L, entry figures, note and tags; newest opened first, paginated',
    query: TradesQuery,
    response: { 200: TradesResponse },
  },
  'GET /journal/trades/{id}': {
    ...json,
    tag: 'journal',
    summary:
      'One trade by its stable id, as /journal/trades lists it, with its timeline: each of its rows in order, with price, costs, cash, the structure it belongs to and the realized P&L so far',
    params: TradeParams,
    query: TradeDetailQuery,
    response: { 200: TradeDetailResponse },
  },
  'GET /journal/trades/{id}/rolls': {
    ...json,
    tag: 'journal',
    summary:
      'The roll assistant: for each short option leg of an open trade, the candidate rolls in a chain snapshot of its underlying (the next expirations × the same strike and strikes further out of the money), each with closing debit and opening credit at mid and natural, net, delta, probability OTM, collateral, return and its place against that expiration’s walls and flip; 409 STALE_SNAPSHOT for a snapshot older than markMaxAgeDays',
    params: TradeParams,
    query: RollsQuery,
    response: { 200: RollsResponse },
  },
  'GET /journal/stats': {
    ...json,
    tag: 'journal',
    summary: 'Statistics of the closed trades by strategy, DTE or delta at entry, dealer regime or strike place at entry, underlying, month or tag',
    query: StatsQuery,
    response: { 200: StatsResponse },
  },
  'GET /journal/trades/{id}/annotation': { ...json, tag: 'journal', summary: 'The note and tags of a trade (empty when it has none)', params: AnnotationParams, query: NoQuery, response: { 200: AnnotationResponse } },
  'GET /journal/chains/{id}/annotation': { ...json, tag: 'journal', summary: 'The note and tags of a campaign (empty when it has none)', params: AnnotationParams, query: NoQuery, response: { 200: AnnotationResponse } },
  'PUT /journal/trades/{id}/annotation': {
    ...json,
    tag: 'journal',
    summary: 'Set the note and tags of a trade (kept by its stable id across re-imports and rebuilds); an empty note without tags removes them',
    params: AnnotationParams,
    query: NoQuery,
    body: AnnotationBody,
    response: { 200: AnnotationResponse },
  },
  'PUT /journal/chains/{id}/annotation': {
    ...json,
    tag: 'journal',
    summary: 'Set the note and tags of a campaign (kept across re-imports and rebuilds); an empty note without tags removes them',
    params: AnnotationParams,
    query: NoQuery,
    body: AnnotationBody,
    response: { 200: AnnotationResponse },
  },
  'POST /journal/reconcile': {
    kind: 'upload',
    access: 'key',
    tag: 'journal',
    summary:
      "Compare a broker's positions export (Schwab, Fidelity, tastytrade, IBKR, E*TRADE; CSV symbol,quantity[,cost]; JSON {positions}) with the journal's book at asOf; save=true stores it as a balance assertion",
    query: ReconcileQuery,
    response: { 200: ReconcileResponse },
  },
  'GET /journal/reconciliations': {
    ...json,
    tag: 'journal',
    summary: 'The balance assertions saved (POST /journal/reconcile?save=true), newest first, each with whether it holds now',
    query: NoQuery,
    response: { 200: ReconciliationsResponse },
  },

  // ---------------------------------------------------------------- imports
  'POST /imports': { kind: 'upload', access: 'key', tag: 'imports', summary: 'Import a broker CSV (raw body, text/csv); all rows or none', query: ImportQuery, response: { 201: ImportReportSchema } },
  'GET /imports': { ...json, tag: 'imports', summary: 'Import history, newest first, paginated (limit clamped to 100)', query: ImportsQuery, response: { 200: ImportsResponse } },
  'GET /imports/{id}': {
    ...json,
    tag: 'imports',
    summary: "One import's record and report, as the history lists it: counts, the skipped lines and warnings it keeps, merged rows, superseded manual rows, its status and its file's figures beside the journal's",
    params: ImportIdParams,
    query: NoQuery,
    response: { 200: ImportReportSchema },
  },
  'POST /imports/{id}/acknowledge': {
    ...json,
    tag: 'imports',
    summary: "Acknowledge an import's differences from its broker's figures: its status says acknowledged, needsAttention stops listing them",
    params: ImportIdParams,
    query: NoQuery,
    response: { 200: AcknowledgeResponse },
  },
  'DELETE /imports/{id}': { ...json, tag: 'imports', summary: 'Undo an import', params: ImportIdParams, response: { 200: ImportDeleteResponse } },
  'GET /import-formats': { ...json, tag: 'imports', summary: 'The importers (built-in brokers, then saved formats) and the saved formats', query: NoQuery, response: { 200: ImportFormatsResponse } },
  'POST /import-formats': { ...json, tag: 'imports', summary: 'Save a format (a column mapping for one header)', query: NoQuery, body: ImportFormatDraft, response: { 201: ImportFormatSchema } },
  'PUT /import-formats/{id}': { ...json, tag: 'imports', summary: 'Replace a saved format (its id stays)', params: ImportFormatIdParams, query: NoQuery, body: ImportFormatDraft, response: { 200: ImportFormatSchema } },
  'DELETE /import-formats/{id}': { ...json, tag: 'imports', summary: 'Delete a saved format (its past imports stay)', params: ImportFormatIdParams, query: NoQuery, response: { 200: ImportFormatDeleteResponse } },
  'POST /import-formats/preview': {
    ...json,
    tag: 'imports',
    summary: "A file's columns and, with a format, the transactions it would import (nothing is stored)",
    query: NoQuery,
    body: ImportFormatPreviewRequest,
    response: { 200: ImportFormatPreviewResponse },
  },

  // ---------------------------------------------------------------- exposure
  'GET /gex': { ...json, tag: 'exposure', summary: 'Dealer gamma exposure by strike with walls, zone and gamma flip', query: GexQuery, response: cached(GexResponse), cached: true },
  'GET /vanna': { ...json, tag: 'exposure', summary: 'Dealer vanna and charm exposure with key levels (0–45 dte aggregate or one expiration)', query: VannaQuery, response: cached(VannaResponse), cached: true },
  'GET /expirations': { ...json, tag: 'exposure', summary: 'Unexpired expirations of the latest snapshot (or of snapshot= / at=)', query: ExpirationsQuery, response: { 200: ExpirationsResponse } },
  'GET /gex/profile': {
    ...json,
    tag: 'exposure',
    summary: 'The gamma profile: net GEX at 201 hypothetical spot levels on [0.8S, 1.2S], with the flip',
    query: GexProfileQuery,
    response: cached(GexProfileResponse),
    cached: true,
  },
  'GET /gex/grid': {
    ...json,
    tag: 'exposure',
    summary: 'Net GEX per expiration × strike (strikes within [0.8S, 1.2S]) for a heat map; default every expiration',
    query: GexGridQuery,
    response: cached(GexGridResponse),
    cached: true,
  },
  'GET /gex/history': { ...json, tag: 'exposure', summary: 'Levels over time: spot, total GEX, zone, flip and walls per stored snapshot, oldest first', query: GexHistoryQuery, response: { 200: GexHistoryResponse } },
  'GET /gex/diff': { ...json, tag: 'exposure', summary: 'The change of GEX per strike from one stored snapshot to another', query: GexDiffQuery, response: { 200: GexDiffResponse } },
  'GET /snapshots': { ...json, tag: 'exposure', summary: 'Stored snapshots of a symbol, newest first', query: SnapshotsQuery, response: { 200: SnapshotsResponse } },
  'GET /snapshots/{id}': { ...json, tag: 'exposure', summary: 'One stored snapshot, without its contracts', params: SnapshotIdParams, query: NoQuery, response: { 200: SnapshotResponse } },
  'DELETE /snapshots/{id}': { ...json, tag: 'exposure', summary: 'Delete a stored snapshot (its history points too; events stay)', params: SnapshotIdParams, response: { 200: SnapshotDeleteResponse } },
  'GET /gex/events': {
    ...json,
    tag: 'exposure',
    summary: 'Flip, wall and position events, newest first (limit default 50, clamped to 200), and the latest comparison of each ticker',
    query: EventsQuery,
    response: { 200: EventsResponse },
  },
  'GET /gex/events/stream': {
    kind: 'sse',
    access: 'key-or-ticket',
    tag: 'exposure',
    summary:
      'Server-sent events: each new flip, wall or position event as `event: flip|wall|position`, `data: <event JSON>` (scope as /gex/events). Key in the header, or ?ticket= from POST /v1/gex/events/stream-ticket (EventSource).',
    query: EventsStreamQuery,
    response: { 200: Type.String({ description: 'text/event-stream' }) },
  },
  'POST /gex/events/stream-ticket': {
    ...json,
    tag: 'exposure',
    summary: 'A ticket that opens one event stream within 60 s (GET /v1/gex/events/stream?ticket=): the key stays out of URLs',
    query: NoQuery,
    response: { 200: StreamTicketResponse },
  },

  // ---------------------------------------------------------------- chains
  'POST /chains': {
    kind: 'upload',
    access: 'key',
    tag: 'chains',
    summary:
      'Store an option-chain snapshot (raw CBOE quotedata CSV, CBOE delayed-quotes JSON, Schwab / TD Ameritrade API chain JSON, a yfinance option_chain CSV, or the generic CSV/JSON); Location names the snapshot',
    query: ChainPostQuery,
    response: { 201: ChainPostResponse, 200: ChainPostResponse },
  },
  'GET /chains': { ...json, tag: 'chains', summary: 'Symbols with stored snapshots', query: NoQuery, response: { 200: ChainsResponse } },
  'POST /chains/refresh': {
    ...json,
    tag: 'chains',
    summary: 'Fetch the online source once for the watchlist and the open positions’ underlyings (202; 409 REFRESH_RUNNING while a pass runs, SOURCE_NOT_CONFIGURED without a base URL)',
    query: NoQuery,
    response: { 202: RefreshPassSchema },
  },
  'GET /chains/refresh': {
    ...json,
    tag: 'chains',
    summary: 'The latest refresh pass: each symbol queued, fetching, stored or failed (with the reason); startedAt null before the first',
    query: NoQuery,
    response: { 200: RefreshPassSchema },
  },
  'GET /chains/watch': {
    ...json,
    tag: 'chains',
    summary: 'The watch folder (setting watchFolder): watched or why not, files still growing, and the last 50 files handled (imported, already stored, failed with the reason)',
    query: NoQuery,
    response: { 200: WatchStatusSchema },
  },
  'POST /chains/backfill': {
    ...json,
    tag: 'chains',
    summary:
      'Store a folder of historical chain files oldest first (202 with the backfill; 409 CONFLICT while one runs; files stored before are skipped by their bytes, so the same path continues an interrupted one)',
    query: NoQuery,
    body: BackfillBody,
    response: { 202: BackfillJobSchema },
  },
  'GET /chains/backfill': {
    ...json,
    tag: 'chains',
    summary: 'The running or latest backfill with its progress (null before the first); interrupted when the server stopped during it',
    query: NoQuery,
    response: { 200: BackfillStatusSchema },
  },
  'GET /status': {
    ...json,
    tag: 'chains',
    summary: 'The status line: whether the online source answers (one line when it cannot be reached), the schedule, the watch folder and a backfill',
    query: NoQuery,
    response: { 200: AppStatusSchema },
  },

  // ---------------------------------------------------------------- settings, keys, demo
  'GET /settings': { ...json, tag: 'settings', summary: 'Current settings', query: NoQuery, response: { 200: SettingsSchema } },
  'PUT /settings': { ...json, tag: 'settings', summary: 'Change settings (JSON body with any subset of the fields)', query: NoQuery, body: SettingsUpdate, response: { 200: SettingsSchema } },
  'POST /keys/rotate': { ...json, tag: 'settings', summary: 'Replace the key of the api-key file (the old key stops working)', query: NoQuery, response: { 200: KeyRotateResponse } },
  'POST /demo': { ...json, tag: 'settings', summary: 'Load the generated demo market and demo journal (clearly marked source demo)', query: NoQuery, response: { 200: DemoResponse } },

  // ---------------------------------------------------------------- exports, backups
  'POST /exports': {
    ...json,
    tag: 'exports',
    summary: 'Export the Parquet lake for research (in a worker thread); 202 with the job, then GET /v1/exports/{id}',
    query: NoQuery,
    body: ExportRequestBody,
    response: { 202: ExportJobSchema },
  },
  'GET /exports': { ...json, tag: 'exports', summary: 'Recent exports, newest first', query: NoQuery, response: { 200: ExportsResponse } },
  'GET /exports/{id}': { ...json, tag: 'exports', summary: 'An export’s state and progress', params: ExportIdParams, query: NoQuery, response: { 200: ExportJobSchema } },
  'GET /backups': { ...json, tag: 'backups', summary: 'Backups of the journal, newest first, and a restore staged for the next start', query: NoQuery, response: { 200: BackupsResponse } },
  'POST /backups': { ...json, tag: 'backups', summary: 'Back up the journal now (SQLite VACUUM INTO, in a worker thread)', query: NoQuery, response: { 201: BackupSchema } },
  'POST /backups/restore': {
    ...json,
    tag: 'backups',
    summary: 'Check a backup (integrity, schema version) and stage it to replace the journal at the next start (202)',
    query: NoQuery,
    body: RestoreRequestBody,
    response: { 202: RestoreResponse },
  },
} as const satisfies Record<RouteKeyText, RouteSpec>;

export type Routes = typeof ROUTES;
export type RouteKey = keyof Routes;

/** Every key of the table, in its order. */
export const ROUTE_KEYS = Object.keys(ROUTES).filter((key): key is RouteKey => key in ROUTES);

/** The method and the /v1-relative path (`{id}` kept) of a key. */
export function splitRouteKey(key: RouteKeyText): { method: RouteMethod; path: string } {
  const space = key.indexOf(' ');
  const method = key.slice(0, space);
  const path = key.slice(space + 1);
  if (method !== 'GET' && method !== 'POST' && method !== 'PUT' && method !== 'DELETE') throw new Error(`Route key ${key}: unknown method`);
  return { method, path };
}
