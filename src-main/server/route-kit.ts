/**
 * What every route of the /v1 app is built with: the app's type, who may call a route (`config.access`), the
 * problem responses, the body limits and upload types, the cache headers, and the request rules that a schema alone
 * cannot say (a range needs both ends, from ≤ to, real calendar dates). app.ts and routes/* import this, never each
 * other.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errorCodes, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Access } from '../../src-shared/api/routes';
import { appendBounded, boundedBody, boundedBytes } from '../../src-shared/bytes';
import { isIsoDate } from '../../src-shared/calendar';
import { readDateOrInstant, writtenAsDay } from '../../src-shared/date-or-instant';
import type { Account } from '../../src-shared/journal/model';
import type { WithJournal } from '../services/journal/service';
import type { Result } from '../services/result';
import { ApiError, unwrap } from './problems';

/** The app (and each route plugin) with TypeBox types for request and reply. */
export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;
/** The /v1 plugin the routes register on. */
export type V1 = App;

/**
 * Who may call a route (src-shared/api/routes.ts), set on the route as `config.access` from its table entry and read
 * from the route the router matched (gate.ts). A route without it needs a key (fail closed). `key-or-ticket` (the
 * event stream) also takes a stream ticket as `?ticket=` (EventSource cannot send headers; the key itself never goes
 * into a URL: stream-tickets.ts).
 */
export type { Access };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  /** Request-scoped state set by the app's hooks. */
  interface FastifyRequest {
    keyId: string | null;
  }
}

/**
 * Every route documents its problem answers with the one Problem schema: 4xx, and the 5xx that are conditions, not
 * bugs (503 DATABASE_BUSY and TOO_MANY_CONNECTIONS, 507 STORAGE_FULL and KEY_FILE_UNWRITABLE).
 */
export const problemResponses = {
  '4xx': { $ref: 'Problem#' },
  '5xx': { $ref: 'Problem#' },
} as const;

/** Raw uploads (broker files, chain files): at most 50 MB. */
export const UPLOAD_LIMIT_BYTES = 50 * 1024 * 1024;
/** Any other body. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
/** Content types of raw uploads (broker files, chain files, settings JSON). */
/**
 * Aborted when the client goes away before its answer (the connection closes with the response unfinished): a job
 * it started is stopped then (docs/decisions.md §Jobs), rather than parsing for nobody.
 */
export function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const response = reply.raw;
  const onClose = () => {
    if (!response.writableFinished) controller.abort();
  };
  response.once('close', onClose);
  return controller.signal;
}

export const UPLOAD_CONTENT_TYPES = ['text/csv', 'text/plain', 'application/json', 'application/csv', 'application/vnd.ms-excel', 'application/octet-stream'] as const;

/** Exposure answers may be kept by the client, but must be revalidated (ETag, If-None-Match). */
export const CACHE_CONTROL = 'private, no-cache';
export const JSON_TYPE = 'application/json; charset=utf-8';

// ---------------------------------------------------------------- request rules

/** The validated query of a route, as the rules read it. */
type Query = Record<string, unknown>;
/** A rule over a validated query: the problem, or null when the query keeps it. */
export type QueryRule = (query: Query) => ApiError | null;

function text(query: Query, name: string): string | undefined {
  const value = query[name];
  return typeof value === 'string' ? value : undefined;
}

function number(query: Query, name: string): number | undefined {
  const value = query[name];
  return typeof value === 'number' ? value : undefined;
}

/** A range given by one end only: 400 RANGE_INCOMPLETE naming the missing end. */
export function bothEnds(from: string, to: string): QueryRule {
  return (query) => {
    if ((query[from] === undefined) === (query[to] === undefined)) return null;
    const missing = query[from] === undefined ? from : to;
    const given = missing === from ? to : from;
    return new ApiError('RANGE_INCOMPLETE', `A custom range needs both ${from} and ${to}; ${missing} is missing.`, [{ param: missing, message: `is required with ${given}` }]);
  };
}

/** Dates that match YYYY-MM-DD but are no day of the calendar (2024-02-30). */
export function calendarDates(...names: string[]): QueryRule {
  return (query) => {
    for (const name of names) {
      const value = text(query, name);
      if (value !== undefined && !isIsoDate(value)) return new ApiError('INVALID_PARAMETER', `${name}: ${value} is not a calendar date`, [{ param: name, message: 'is not a calendar date' }]);
    }
    return null;
  };
}

/** A calendar date, or an ISO 8601 date-time (`date` of /journal/performance). */
export function dateOrDateTime(name: string): QueryRule {
  return (query) => {
    const value = text(query, name);
    if (value === undefined) return null;
    if (writtenAsDay(value)) return calendarDates(name)(query);
    if (readDateOrInstant(value) !== null) return null;
    return new ApiError('INVALID_PARAMETER', `${name}: ${value} is not a valid ISO 8601 date-time`, [{ param: name, message: 'is not a valid ISO 8601 date-time' }]);
  };
}

/** from ≤ to (dates as text compare in order). */
export function datesInOrder(from: string, to: string): QueryRule {
  return (query) => {
    const low = text(query, from);
    const high = text(query, to);
    if (low === undefined || high === undefined || low <= high) return null;
    return new ApiError('INVALID_PARAMETER', `${from} (${low}) is after ${to} (${high}).`, [{ param: from, message: `must not be after ${to}` }]);
  };
}

/** min ≤ max of two numeric parameters. */
export function numbersInOrder(min: string, max: string): QueryRule {
  return (query) => {
    const low = number(query, min);
    const high = number(query, max);
    if (low === undefined || high === undefined || low <= high) return null;
    return new ApiError('INVALID_PARAMETER', `${min} (${low}) is greater than ${max} (${high}).`, [{ param: min, message: `must not exceed ${max}` }]);
  };
}

/** Parameters that exclude one another (`snapshot` and `at`; `expirations` and a dte range). */
export function oneOf(first: string, ...others: string[]): QueryRule {
  return (query) => {
    const other = others.find((name) => query[name] !== undefined);
    if (query[first] === undefined || other === undefined) return null;
    return new ApiError('INVALID_PARAMETER', `${first} and ${other} cannot be given together: give one of them.`, [
      { param: other, message: `cannot be given with ${first}` },
      { param: first, message: `cannot be given with ${other}` },
    ]);
  };
}

/** A route's preHandler (after schema validation): the first rule the query breaks answers. */
export function queryRules(...rules: QueryRule[]): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const query: Query = typeof request.query === 'object' && request.query !== null ? Object.fromEntries(Object.entries(request.query)) : {};
    for (const rule of rules) {
      const problem = rule(query);
      if (problem !== null) throw problem;
    }
  };
}

/** A journal answer: the presented figures, with the accounts and the demo flag that every journal answer carries. */
export function journalAnswer<T, P extends object>(result: Result<WithJournal<T>>, present: (value: T) => P): P & { accounts: Account[]; demo: boolean; building: boolean } {
  const value = unwrap(result);
  return { ...present(value), accounts: value.accounts, demo: value.demo, building: value.building ?? false };
}

// ---------------------------------------------------------------- uploads

/**
 * Reads an upload into one buffer as it arrives: one small copy per chunk, into memory sized from Content-Length.
 * Fastify's own buffer parser copies the whole body at the end, which for a 25 MB file kept the event loop busy for
 * a quarter of a second. The result owns its memory whole, so it can be moved to the journal worker uncopied.
 */
export function collectUpload(request: FastifyRequest, payload: IncomingMessage, done: (error: Error | null, body?: Uint8Array) => void): void {
  const limit = request.routeOptions.bodyLimit ?? UPLOAD_LIMIT_BYTES;
  const declared = Number(request.headers['content-length']);
  const known = Number.isInteger(declared) && declared >= 0;
  if (known && declared > limit) {
    done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    return;
  }
  const buffer = boundedBytes(limit, known ? declared : null);
  let finished = false;
  const finish = (error: Error | null, body?: Uint8Array) => {
    if (finished) return;
    finished = true;
    payload.removeAllListeners('data');
    done(error, body);
  };
  payload.on('data', (chunk: Buffer) => {
    if (!appendBounded(buffer, chunk)) {
      finish(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      payload.resume();
    }
  });
  payload.on('end', () => {
    if (known && buffer.length !== declared) finish(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
    else finish(null, boundedBody(buffer));
  });
  payload.on('error', (error) => finish(error));
}

/**
 * Routes that take a raw upload (an import, a chain file), in a scope of their own whose one body parser keeps the
 * bytes as they came (collectUpload), to be moved to a worker.
 */
export function uploadRoutes(v1: V1, routes: (uploads: V1) => void): void {
  void v1.register(async (uploads) => {
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser([...UPLOAD_CONTENT_TYPES], collectUpload);
    routes(uploads.withTypeProvider<TypeBoxTypeProvider>());
  });
}
