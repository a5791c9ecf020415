/**
 * What an entry of the /v1 route table (routes.ts) says, and the pieces the area tables build their entries from.
 * Pure data and schemas: no Node, no Fastify.
 */
import { Type, type TSchema } from 'typebox';

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

/** A JSON route that takes the key: what most entries start from. */
export const json = { kind: 'json', access: 'key' } as const;
/** A cached exposure answer: 200 with its ETag, or 304. */
export const cached = <T extends TSchema>(answer: T) => ({ 200: answer, 304: Type.Null({ description: 'Not modified (If-None-Match)' }) }) as const;
