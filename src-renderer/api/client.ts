/**
 * The renderer's only way to the engine: a typed client over the /v1 HTTP API (docs/architecture.md §Layout, §3).
 * Types come from the shared TypeBox schemas (type-only imports, so typebox stays out of the bundle).
 */
import type { Static } from 'typebox';
import type {
  ChainPostResponse,
  ChainsResponse,
  EventsQueryT,
  EventsResponse,
  ExpirationsResponseT,
  GexDiffResponseT,
  GexGridQueryT,
  GexGridResponseT,
  GexHistoryResponseT,
  GexProfileResponseT,
  GexQueryT,
  GexResponseT,
  RefreshPassT,
  SnapshotsResponseT,
  ImportDeleteResponse,
  ImportFormatDraftT,
  ImportFormatJson,
  ImportFormatPreviewRequestT,
  ImportFormatPreviewResponseT,
  ImportFormatsResponseT,
  ImportQueryT,
  ImportsQueryT,
  ImportReport,
  ImportsResponse,
  PerformanceQueryT,
  PerformanceResponseT,
  SummaryResponseT,
  TransactionsQueryT,
  TransactionsResponseT,
  VannaQueryT,
  VannaResponseT,
  PositionsQueryT,
  PositionsResponseT,
  CampaignsQueryT,
  CampaignsResponseT,
  CampaignDetailResponseT,
  ChainPostQueryT,
  SettingsJson,
  SettingsUpdateT,
  ExportJobJson,
  BackupJson,
  BackupsResponseT,
  RestoreResponseT,
  ExportRequestBodyT,
  ManualDeleteResponseT,
  ExpiredByHandResponseT,
  AccountsResponseT,
  ManualTransactionT,
  ManualTransactionsResponseT,
  CorporateActionDeleteResponseT,
  CorporateActionInputT,
  CorporateActionsQueryT,
  CorporateActionsResponseT,
  CorporateActionWriteResponseT,
  StreamTicketResponseT,
  TradesQueryT,
  TradesResponseT,
  TradeDetailResponseT,
  StatsQueryT,
  StatsResponseT,
  AnnotationBodyT,
  AnnotationResponseT,
  ReconcileQueryT,
  ReconcileResponseT,
  ReconciliationsResponseT,
  ManageQueryT,
  ManageResponseT,
  RollsQueryT,
  RollsResponseT,
  AppStatusT,
  BackfillJobT,
  BackfillStatusT,
  WatchStatusT,
} from '../../src-shared/api/schemas';
import type { ProblemFieldError } from '../../src-shared/api/errors';
import type { LevelsScope } from '../../src-shared/api/constants';

export type ChainsResponseT = Static<typeof ChainsResponse>;
export type ChainInfo = ChainsResponseT['symbols'][number];
export type ChainPostResponseT = Static<typeof ChainPostResponse>;
export type EventsResponseT = Static<typeof EventsResponse>;
export type ImportsResponseT = Static<typeof ImportsResponse>;
export type ImportDeleteResponseT = Static<typeof ImportDeleteResponse>;

export type { SettingsJson, SettingsUpdateT, ExportJobJson, ExportRequestBodyT, BackupJson, BackupsResponseT };

/** What a note and tags hang on, and its public path: a campaign's is `/journal/chains/{id}` (the wire keeps the name). */
const ANNOTATED_PATHS = { trades: 'trades', campaigns: 'chains' } as const;
export type AnnotatedKind = keyof typeof ANNOTATED_PATHS;

/** A failed call, carrying the RFC 9457 problem body when the server sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly errors: ProblemFieldError[];

  constructor(status: number, code: string, title: string, detail: string, errors: ProblemFieldError[] = []) {
    super(detail === '' ? title : `${title}: ${detail}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.title = title;
    this.detail = detail;
    this.errors = errors;
  }
}

type QueryValue = string | number | boolean | undefined | null;
export type Query = Record<string, QueryValue>;

export function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Builds an ApiError from whatever came back: a problem body, another JSON body, or text. */
export function problemToError(status: number, body: unknown, statusText = ''): ApiError {
  if (isRecord(body) && typeof body.code === 'string') {
    const errors: ProblemFieldError[] = [];
    if (Array.isArray(body.errors)) {
      for (const item of body.errors) {
        if (!isRecord(item)) continue;
        const entry: ProblemFieldError = {
          param: typeof item.param === 'string' ? item.param : '',
          message: typeof item.message === 'string' ? item.message : String(item.message ?? ''),
        };
        if (typeof item.line === 'number') entry.line = item.line;
        errors.push(entry);
      }
    }
    return new ApiError(
      status,
      body.code,
      typeof body.title === 'string' ? body.title : statusText || `HTTP ${status}`,
      typeof body.detail === 'string' ? body.detail : '',
      errors,
    );
  }
  const text = typeof body === 'string' ? body.slice(0, 300) : '';
  return new ApiError(status, status === 0 ? 'NETWORK' : `HTTP_${status}`, statusText || (status === 0 ? 'Network error' : `HTTP ${status}`), text);
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export interface UploadOptions {
  contentType: string;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export class ApiClient {
  baseUrl: string;
  private token: string;
  private readonly onTokenChange: ((token: string) => void) | undefined;

  constructor(baseUrl: string, token: string, onTokenChange?: (token: string) => void) {
    let end = baseUrl.length;
    while (end > 0 && baseUrl.charAt(end - 1) === '/') end -= 1;
    this.baseUrl = baseUrl.slice(0, end);
    this.token = token;
    this.onTokenChange = onTokenChange;
  }

  get apiKey(): string {
    return this.token;
  }

  setToken(token: string): void {
    this.token = token;
    this.onTokenChange?.(token);
  }

  url(path: string, query?: Query): string {
    return `${this.baseUrl}${path}${queryString(query)}`;
  }

  async request<T>(method: string, path: string, options: { query?: Query; body?: BodyInit; contentType?: string; signal?: AbortSignal } = {}): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.token}`, Accept: 'application/json' };
    if (options.contentType) headers['Content-Type'] = options.contentType;
    let response: Response;
    try {
      response = await fetch(this.url(path, options.query), { method, headers, body: options.body, signal: options.signal });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(0, 'NETWORK', 'Cannot reach the Strikebook server', error instanceof Error ? error.message : String(error));
    }
    const body = parseBody(await response.text());
    if (!response.ok) throw problemToError(response.status, body, response.statusText);
    return body as T;
  }

  get<T>(path: string, query?: Query, signal?: AbortSignal): Promise<T> {
    return this.request<T>('GET', path, { query, signal });
  }

  /** Uploads a raw body with XMLHttpRequest: fetch has no upload progress. */
  upload<T>(path: string, query: Query, body: Blob | string, options: UploadOptions): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', this.url(path, query));
      xhr.setRequestHeader('Authorization', `Bearer ${this.token}`);
      xhr.setRequestHeader('Content-Type', options.contentType);
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
      };
      xhr.onload = () => {
        const parsed = parseBody(xhr.responseText);
        if (xhr.status >= 200 && xhr.status < 300) {
          options.onProgress?.(1);
          resolve(parsed as T);
        } else reject(problemToError(xhr.status, parsed, xhr.statusText));
      };
      xhr.onerror = () => reject(problemToError(0, null));
      xhr.onabort = () => reject(new DOMException('Upload aborted', 'AbortError'));
      options.signal?.addEventListener('abort', () => xhr.abort());
      xhr.send(body);
    });
  }

  // ---------------------------------------------------------------- journal
  performance(query: PerformanceQueryT, signal?: AbortSignal): Promise<PerformanceResponseT> {
    return this.get('/journal/performance', { ...query }, signal);
  }
  /** The accounts, with what they hold and the dividends outside every campaign. */
  accounts(signal?: AbortSignal): Promise<AccountsResponseT> {
    return this.get('/journal/accounts', undefined, signal);
  }
  summary(year: number | undefined, signal?: AbortSignal, accountId?: string): Promise<SummaryResponseT> {
    return this.get('/journal/summary', { year, accountId }, signal);
  }
  positions(query: PositionsQueryT, signal?: AbortSignal): Promise<PositionsResponseT> {
    return this.get('/journal/positions', { ...query }, signal);
  }
  campaigns(query: CampaignsQueryT, signal?: AbortSignal): Promise<CampaignsResponseT> {
    return this.get('/journal/chains', { ...query }, signal);
  }
  campaign(id: string, signal?: AbortSignal): Promise<CampaignDetailResponseT> {
    return this.get(`/journal/chains/${encodeURIComponent(id)}`, undefined, signal);
  }
  transactions(query: TransactionsQueryT, signal?: AbortSignal): Promise<TransactionsResponseT> {
    return this.get('/journal/transactions', { ...query }, signal);
  }
  trades(query: TradesQueryT, signal?: AbortSignal): Promise<TradesResponseT> {
    return this.get('/journal/trades', { ...query }, signal);
  }
  /** One trade with its timeline (GET /journal/trades/{id}). */
  trade(id: string, signal?: AbortSignal, levelsScope?: LevelsScope): Promise<TradeDetailResponseT> {
    return this.get(`/journal/trades/${encodeURIComponent(id)}`, levelsScope === undefined || levelsScope === 'own' ? undefined : { levelsScope }, signal);
  }
  /** What to manage today: the open trades that hit a management rule (GET /journal/manage). */
  manage(query: ManageQueryT, signal?: AbortSignal): Promise<ManageResponseT> {
    return this.get('/journal/manage', { ...query }, signal);
  }
  /** The roll assistant: candidates for each short leg of an open trade (GET /journal/trades/{id}/rolls). */
  rolls(id: string, query: RollsQueryT, signal?: AbortSignal): Promise<RollsResponseT> {
    return this.get(`/journal/trades/${encodeURIComponent(id)}/rolls`, { ...query }, signal);
  }
  tradeStats(query: StatsQueryT, signal?: AbortSignal): Promise<StatsResponseT> {
    return this.get('/journal/stats', { ...query }, signal);
  }
  annotation(kind: AnnotatedKind, id: string, signal?: AbortSignal): Promise<AnnotationResponseT> {
    return this.get(`/journal/${ANNOTATED_PATHS[kind]}/${encodeURIComponent(id)}/annotation`, undefined, signal);
  }
  /** Notes and tags of a trade or a campaign (an empty note without tags removes them). */
  annotate(kind: AnnotatedKind, id: string, body: AnnotationBodyT): Promise<AnnotationResponseT> {
    return this.request('PUT', `/journal/${ANNOTATED_PATHS[kind]}/${encodeURIComponent(id)}/annotation`, { body: JSON.stringify(body), contentType: 'application/json' });
  }

  /** Manual entries: one import of kind manual (all rows or none). */
  addTransactions(transactions: ManualTransactionT[]): Promise<ManualTransactionsResponseT> {
    return this.request('POST', '/journal/transactions', { body: JSON.stringify({ transactions }), contentType: 'application/json' });
  }
  /** A manual row only (an imported one is 409 IMPORTED_ROW). */
  replaceTransaction(id: string, transaction: ManualTransactionT): Promise<{ id: string; importId: number }> {
    return this.request('PUT', `/journal/transactions/${encodeURIComponent(id)}`, { body: JSON.stringify(transaction), contentType: 'application/json' });
  }
  deleteTransaction(id: string): Promise<ManualDeleteResponseT> {
    return this.request('DELETE', `/journal/transactions/${encodeURIComponent(id)}`);
  }
  /** "Expired worthless": options past expiry booked as manual EXPIRATION rows, one import (undo it on the Import page). */
  bookExpirations(items: Array<{ accountId: string; symbol: string }>): Promise<ExpiredByHandResponseT> {
    return this.request('POST', '/journal/expirations', { body: JSON.stringify({ items }), contentType: 'application/json' });
  }

  /** Corporate actions: every one the journal applies (files' and entered by hand), with what each did. */
  corporateActions(query: CorporateActionsQueryT = {}, signal?: AbortSignal): Promise<CorporateActionsResponseT> {
    return this.get('/journal/corporate-actions', { ...query }, signal);
  }
  /** One entered by hand: an import of its own. */
  addCorporateAction(action: CorporateActionInputT): Promise<CorporateActionWriteResponseT> {
    return this.request('POST', '/journal/corporate-actions', { body: JSON.stringify(action), contentType: 'application/json' });
  }
  replaceCorporateAction(id: number, action: CorporateActionInputT): Promise<CorporateActionWriteResponseT> {
    return this.request('PUT', `/journal/corporate-actions/${encodeURIComponent(String(id))}`, { body: JSON.stringify(action), contentType: 'application/json' });
  }
  deleteCorporateAction(id: number): Promise<CorporateActionDeleteResponseT> {
    return this.request('DELETE', `/journal/corporate-actions/${encodeURIComponent(String(id))}`);
  }

  // ---------------------------------------------------------------- imports
  imports(query: ImportsQueryT = {}, signal?: AbortSignal): Promise<ImportsResponseT> {
    return this.get('/imports', { ...query }, signal);
  }
  importFile(body: Blob | string, query: ImportQueryT, options: UploadOptions): Promise<ImportReport> {
    return this.upload('/imports', { ...query }, body, options);
  }
  undoImport(id: number): Promise<ImportDeleteResponseT> {
    return this.request('DELETE', `/imports/${encodeURIComponent(String(id))}`);
  }
  /** An import's differences from its broker's figures, seen: no longer listed under needsAttention. */
  acknowledgeImport(id: number): Promise<{ id: number; acknowledgedAt: string | null; status: ImportReport['status'] }> {
    return this.request('POST', `/imports/${encodeURIComponent(String(id))}/acknowledge`);
  }
  /** A broker's positions file (raw: CSV or JSON) against the journal's book (POST /journal/reconcile). */
  reconcile(body: Blob | string, query: ReconcileQueryT, contentType = 'text/csv'): Promise<ReconcileResponseT> {
    return this.request('POST', '/journal/reconcile', { query: { ...query }, body, contentType });
  }
  reconciliations(signal?: AbortSignal): Promise<ReconciliationsResponseT> {
    return this.get('/journal/reconciliations', undefined, signal);
  }
  /** The importers (the registry's brokers, then the saved formats) and the saved formats. */
  importFormats(signal?: AbortSignal): Promise<ImportFormatsResponseT> {
    return this.get('/import-formats', undefined, signal);
  }
  previewImportFormat(body: ImportFormatPreviewRequestT): Promise<ImportFormatPreviewResponseT> {
    return this.request('POST', '/import-formats/preview', { body: JSON.stringify(body), contentType: 'application/json' });
  }
  saveImportFormat(draft: ImportFormatDraftT, id?: string): Promise<ImportFormatJson> {
    return id === undefined
      ? this.request('POST', '/import-formats', { body: JSON.stringify(draft), contentType: 'application/json' })
      : this.request('PUT', `/import-formats/${encodeURIComponent(id)}`, { body: JSON.stringify(draft), contentType: 'application/json' });
  }
  deleteImportFormat(id: string): Promise<{ id: string; deleted: boolean }> {
    return this.request('DELETE', `/import-formats/${encodeURIComponent(id)}`);
  }
  importChain(body: Blob | string, query: ChainPostQueryT, options: UploadOptions): Promise<ChainPostResponseT> {
    return this.upload('/chains', { ...query }, body, options);
  }
  loadDemo(): Promise<unknown> {
    return this.request('POST', '/demo');
  }

  // ---------------------------------------------------------------- exposure
  chains(signal?: AbortSignal): Promise<ChainsResponseT> {
    return this.get('/chains', undefined, signal);
  }
  gex(query: GexQueryT, signal?: AbortSignal): Promise<GexResponseT> {
    return this.get('/gex', { ...query }, signal);
  }
  vanna(query: VannaQueryT, signal?: AbortSignal): Promise<VannaResponseT> {
    return this.get('/vanna', { ...query }, signal);
  }
  /** Of the newest snapshot, or of `snapshot` (an id from snapshots()). */
  expirations(symbol: string, signal?: AbortSignal, snapshot?: number): Promise<ExpirationsResponseT> {
    return this.get('/expirations', { symbol, snapshot }, signal);
  }
  gexProfile(query: GexQueryT, signal?: AbortSignal): Promise<GexProfileResponseT> {
    return this.get('/gex/profile', { ...query }, signal);
  }
  /** Net GEX per strike × expiration (the heat map). */
  gexGrid(query: GexGridQueryT, signal?: AbortSignal): Promise<GexGridResponseT> {
    return this.get('/gex/grid', { ...query }, signal);
  }
  gexHistory(query: Omit<GexQueryT, 'snapshot' | 'at'> & { from?: string; to?: string }, signal?: AbortSignal): Promise<GexHistoryResponseT> {
    return this.get('/gex/history', { ...query }, signal);
  }
  gexDiff(query: Omit<GexQueryT, 'snapshot' | 'at'> & { from: number; to: number }, signal?: AbortSignal): Promise<GexDiffResponseT> {
    return this.get('/gex/diff', { ...query }, signal);
  }
  /** "Refresh now": one pass of the online source (409 REFRESH_RUNNING while one runs); follow it with refreshStatus. */
  startRefresh(): Promise<RefreshPassT> {
    return this.request('POST', '/chains/refresh');
  }
  /** The latest refresh pass (startedAt null before the first). */
  refreshStatus(signal?: AbortSignal): Promise<RefreshPassT> {
    return this.get('/chains/refresh', undefined, signal);
  }
  /** The watch folder: watched or why not, files still growing, the last files handled with why one failed. */
  watchStatus(signal?: AbortSignal): Promise<WatchStatusT> {
    return this.get('/chains/watch', undefined, signal);
  }
  /** Starts a backfill of a folder of historical chain files (409 while one runs); follow it with backfillStatus. */
  startBackfill(path: string): Promise<BackfillJobT> {
    return this.request('POST', '/chains/backfill', { body: JSON.stringify({ path }), contentType: 'application/json' });
  }
  backfillStatus(signal?: AbortSignal): Promise<BackfillStatusT> {
    return this.get('/chains/backfill', undefined, signal);
  }
  /** The status line: the online source, the schedule, the watch folder, a backfill. */
  appStatus(signal?: AbortSignal): Promise<AppStatusT> {
    return this.get('/status', undefined, signal);
  }
  snapshots(symbol: string, signal?: AbortSignal): Promise<SnapshotsResponseT> {
    return this.get('/snapshots', { symbol }, signal);
  }
  deleteSnapshot(id: number): Promise<{ id: number; symbol: string; quoteTime: string }> {
    return this.request('DELETE', `/snapshots/${encodeURIComponent(String(id))}`);
  }
  events(query: EventsQueryT, signal?: AbortSignal): Promise<EventsResponseT> {
    return this.get('/gex/events', { ...query }, signal);
  }
  /**
   * The URL of one event stream: EventSource cannot send headers, and a key in a URL is logged, so the key (in the
   * header) buys a ticket that opens one stream within 60 s (docs/architecture.md §Auth).
   */
  async eventsStreamUrl(query: { tickers?: string; eventType?: string; scope?: string }, signal?: AbortSignal): Promise<string> {
    const { ticket } = await this.request<StreamTicketResponseT>('POST', '/gex/events/stream-ticket', { ...(signal === undefined ? {} : { signal }) });
    return this.url('/gex/events/stream', { ...query, ticket });
  }

  // ---------------------------------------------------------------- settings
  settings(signal?: AbortSignal): Promise<SettingsJson> {
    return this.get('/settings', undefined, signal);
  }
  saveSettings(settings: SettingsUpdateT): Promise<SettingsJson> {
    return this.request('PUT', '/settings', { body: JSON.stringify(settings), contentType: 'application/json' });
  }
  /** Starts a research export (the Parquet lake, docs/research.md); follow it with exportJob. */
  startExport(request: ExportRequestBodyT): Promise<ExportJobJson> {
    return this.request('POST', '/exports', { body: JSON.stringify(request), contentType: 'application/json' });
  }
  exports(signal?: AbortSignal): Promise<{ exports: ExportJobJson[] }> {
    return this.get('/exports', undefined, signal);
  }
  exportJob(id: string, signal?: AbortSignal): Promise<ExportJobJson> {
    return this.get(`/exports/${encodeURIComponent(id)}`, undefined, signal);
  }
  /** The journal's backups (newest first) and a restore staged for the next start. */
  backups(signal?: AbortSignal): Promise<BackupsResponseT> {
    return this.get('/backups', undefined, signal);
  }
  backupNow(): Promise<BackupJson> {
    return this.request('POST', '/backups');
  }
  /** Checks a backup and stages it to replace the journal when Strikebook next starts. */
  restoreBackup(name: string): Promise<RestoreResponseT> {
    return this.request('POST', '/backups/restore', { body: JSON.stringify({ name }), contentType: 'application/json' });
  }
  async rotateKey(): Promise<string> {
    const result = await this.request<{ key: string }>('POST', '/keys/rotate');
    this.setToken(result.key);
    return result.key;
  }
}
