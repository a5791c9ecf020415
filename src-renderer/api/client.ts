/**
 * The renderer's only way to the engine: `api.call(route, input)` over the /v1 HTTP API (docs/architecture.md §Layout,
 * §3), typed from the route table (src-shared/api/routes.ts) as Actual's `send<K>`: the key names the method and the
 * path, the input's params, query and body and the answer are the entry's schemas. Type-only imports: typebox and the
 * table stay out of the bundle; the key itself is all the client needs at run time.
 */
import type { Static, TSchema } from 'typebox';
import type {
  BackupJson,
  BackupsResponseT,
  ChainPostResponse,
  ChainsResponse,
  EventsResponse,
  ExportJobJson,
  ExportRequestBodyT,
  ImportDeleteResponse,
  ImportsResponse,
  SettingsJson,
  SettingsUpdateT,
} from '../../src-shared/api/schemas';
import type { ProblemFieldError } from '../../src-shared/api/errors';
import type { RouteKey, Routes } from '../../src-shared/api/routes';
import type { Sent } from '../../src-shared/api/schema-kit';

export type ChainsResponseT = Static<typeof ChainsResponse>;
export type ChainInfo = ChainsResponseT['symbols'][number];
export type ChainPostResponseT = Static<typeof ChainPostResponse>;
export type EventsResponseT = Static<typeof EventsResponse>;
export type ImportsResponseT = Static<typeof ImportsResponse>;
export type ImportDeleteResponseT = Static<typeof ImportDeleteResponse>;

export type { SettingsJson, SettingsUpdateT, ExportJobJson, ExportRequestBodyT, BackupJson, BackupsResponseT };

/** The routes of a note and tags. */
interface AnnotationRoutes {
  read: Extract<RouteKey, `GET ${string}/annotation`>;
  write: Extract<RouteKey, `PUT ${string}/annotation`>;
}
/** What a note and tags hang on, and its routes: a campaign's are `/journal/chains/{id}/…` (the wire keeps the name). */
export const ANNOTATIONS: { trades: AnnotationRoutes; campaigns: AnnotationRoutes } = {
  trades: { read: 'GET /journal/trades/{id}/annotation', write: 'PUT /journal/trades/{id}/annotation' },
  campaigns: { read: 'GET /journal/chains/{id}/annotation', write: 'PUT /journal/chains/{id}/annotation' },
};
export type AnnotatedKind = keyof typeof ANNOTATIONS;

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

/** A query as the pages hold it: empty values are left out. */
export function queryString(query: object | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') params.set(key, String(value));
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
    const parsed: unknown = JSON.parse(text);
    return parsed;
  } catch {
    return text;
  }
}

export interface UploadOptions {
  contentType: string;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

// ---------------------------------------------------------------- types from the route table

type Part<R, Name extends string> = R extends { readonly [K in Name]: infer S } ? S : undefined;
type Of<S> = S extends TSchema ? Static<S> : never;
/** The keys of the routes of one kind (json, upload, sse). */
type KeysOf<Kind extends string> = { [K in RouteKey]: Routes[K]['kind'] extends Kind ? K : never }[RouteKey];
export type JsonRoute = KeysOf<'json'>;
export type UploadRoute = KeysOf<'upload'>;
export type StreamRoute = KeysOf<'sse'>;

/** Params and query as sent: a ticker any text, a snapshot id any number (the server's decode brands them). */
type In<S> = Sent<Of<S>>;
type ParamsInput<R> = Part<R, 'params'> extends TSchema ? { params: In<Part<R, 'params'>> } : { params?: undefined };
type QueryInput<R> = Part<R, 'query'> extends TSchema ? (Record<string, never> extends In<Part<R, 'query'>> ? { query?: In<Part<R, 'query'>> } : { query: In<Part<R, 'query'>> }) : { query?: undefined };
type BodyInput<R> = Part<R, 'body'> extends TSchema ? { body: Of<Part<R, 'body'>> } : { body?: undefined };
/** What a route takes: its path parameters, its query and its JSON body, each as its schema says. */
export type RouteInput<K extends RouteKey> = ParamsInput<Routes[K]> & QueryInput<Routes[K]> & BodyInput<Routes[K]>;
/** What a route answers (any of its 2xx). */
export type RouteOutput<K extends RouteKey> = Of<Routes[K]['response'][keyof Routes[K]['response'] & (200 | 201 | 202)]>;
/** The input may be left out when nothing in it is required. */
type InputArgs<K extends RouteKey, Options> = Record<string, never> extends RouteInput<K> ? [input?: RouteInput<K>, options?: Options] : [input: RouteInput<K>, options?: Options];

export interface CallOptions {
  signal?: AbortSignal;
}

/** The input as the client reads it at run time (the typed signatures say which fields each route has). */
interface LooseInput {
  params?: object;
  query?: object;
  body?: unknown;
}

/** `/journal/trades/{id}` with its parameters, each percent-encoded. */
function fillPath(path: string, params: object | undefined): string {
  const values = new Map(Object.entries(params ?? {}));
  return path.replace(/\{(\w+)\}/g, (_whole, name: string) => encodeURIComponent(String(values.get(name) ?? '')));
}

function splitKey(key: string): { method: string; path: string } {
  const space = key.indexOf(' ');
  return { method: key.slice(0, space), path: key.slice(space + 1) };
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

  url(path: string, query?: object): string {
    return `${this.baseUrl}${path}${queryString(query)}`;
  }

  /** The URL of a route with its input (a link, an EventSource). */
  routeUrl<K extends RouteKey>(key: K, input: RouteInput<K>): string;
  routeUrl(key: RouteKey, input: LooseInput): string {
    return this.url(fillPath(splitKey(key).path, input.params), input.query);
  }

  /** One JSON route of the table: its answer, or an ApiError carrying the problem the server sent. */
  call<K extends JsonRoute>(key: K, ...args: InputArgs<K, CallOptions>): Promise<RouteOutput<K>>;
  async call(key: JsonRoute, input: LooseInput = {}, options: CallOptions = {}): Promise<unknown> {
    const { method, path } = splitKey(key);
    const headers: Record<string, string> = { Authorization: `Bearer ${this.token}`, Accept: 'application/json' };
    const body = input.body === undefined ? undefined : JSON.stringify(input.body);
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(this.url(fillPath(path, input.params), input.query), { method, headers, body, signal: options.signal });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(0, 'NETWORK', 'Cannot reach the Strikebook server', error instanceof Error ? error.message : String(error));
    }
    const answer = parseBody(await response.text());
    if (!response.ok) throw problemToError(response.status, answer, response.statusText);
    return answer;
  }

  /** An upload route (a broker file, a chain file, a positions file): the raw body with XMLHttpRequest, which reports upload progress (fetch does not). */
  upload<K extends UploadRoute>(key: K, input: RouteInput<K>, file: Blob | string, options: UploadOptions): Promise<RouteOutput<K>>;
  upload(key: UploadRoute, input: LooseInput, file: Blob | string, options: UploadOptions): Promise<unknown> {
    const { method, path } = splitKey(key);
    return new Promise<unknown>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(method, this.url(fillPath(path, input.params), input.query));
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
          resolve(parsed);
        } else reject(problemToError(xhr.status, parsed, xhr.statusText));
      };
      xhr.onerror = () => reject(problemToError(0, null));
      xhr.onabort = () => reject(new DOMException('Upload aborted', 'AbortError'));
      options.signal?.addEventListener('abort', () => xhr.abort());
      xhr.send(file);
    });
  }

  /**
   * The URL of one event stream: EventSource cannot send headers, and a key in a URL is logged, so the key (in the
   * header) buys a ticket that opens one stream within 60 s (docs/architecture.md §Auth).
   */
  async streamUrl<K extends StreamRoute>(key: K, input: RouteInput<K>, options: CallOptions = {}): Promise<string> {
    const { ticket } = await this.call('POST /gex/events/stream-ticket', {}, options);
    return this.url(splitKey(key).path, { ...input.query, ticket });
  }

  /** A new key for the key file: the client goes on with it (the old one stops working). */
  async rotateKey(): Promise<string> {
    const result = await this.call('POST /keys/rotate');
    this.setToken(result.key);
    return result.key;
  }
}
