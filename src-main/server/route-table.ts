/**
 * The server's side of the route table (src-shared/api/routes.ts): `serve(v1, key, handler)` registers a table entry
 * with its one handler (method, path, schemas, access and OpenAPI summary all from the entry), and `tableProblems`
 * names an entry without a handler, an entry served twice, or a /v1 route served without an entry: app.ts refuses to
 * start on any of them (docs/conventions.md §HTTP API, "How to add a route").
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ContextConfigDefault, FastifyBaseLogger, FastifyReply, FastifyRequest, RouteGenericInterface, RouteHandlerMethod, RouteOptions } from 'fastify';
import { ROUTE_KEYS, ROUTES, splitRouteKey, type RouteKey, type Routes, type RouteSpec } from '../../src-shared/api/routes';
import { problemResponses, UPLOAD_LIMIT_BYTES, uploadRoutes, type V1 } from './route-kit';

type Part<R, Name extends string> = R extends { readonly [K in Name]: infer S } ? S : undefined;

/** The Fastify schema of a table entry, as the type provider reads it. */
export interface SchemaOf<R> {
  params: Part<R, 'params'>;
  querystring: Part<R, 'query'>;
  body: Part<R, 'body'>;
  response: Part<R, 'response'>;
}

/** The handler of an entry: its request typed from the entry's params, query and body, its answer from the response. */
export type Handler<K extends RouteKey> = RouteHandlerMethod<Server, IncomingMessage, ServerResponse, RouteGenericInterface, ContextConfigDefault, SchemaOf<Routes[K]>, TypeBoxTypeProvider, FastifyBaseLogger>;

/** What a route adds to its entry: request rules beyond the schema, a JSON body's parsing, an upload's limit. */
export interface ServeOptions {
  preHandler?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  preValidation?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  validatorCompiler?: RouteOptions['validatorCompiler'];
  bodyLimit?: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The table entry a route serves (route-table.ts); the 404/405 answers and the UI have none. */
    routeKey?: RouteKey;
  }
}

/** `/journal/trades/{id}` as Fastify writes it: `/journal/trades/:id`. */
export function fastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** The Fastify schema of an entry: its parts, the problem answers, its summary and tag (or hidden). */
export function routeSchema(spec: RouteSpec): Record<string, unknown> {
  return {
    summary: spec.summary,
    tags: [spec.tag],
    ...(spec.access === 'public' ? { security: [] } : {}),
    ...(spec.hidden === true ? { hide: true } : {}),
    ...(spec.params === undefined ? {} : { params: spec.params }),
    ...(spec.query === undefined ? {} : { querystring: spec.query }),
    ...(spec.body === undefined ? {} : { body: spec.body }),
    response: spec.access === 'public' ? { ...spec.response } : { ...spec.response, ...problemResponses },
  };
}

/** Registers the entry `key` with its handler. */
export function serve<K extends RouteKey>(v1: V1, key: K, handler: Handler<K>, options: ServeOptions = {}): void {
  const spec: RouteSpec = ROUTES[key];
  const { method, path } = splitRouteKey(key);
  // The schema is built from the entry at run time; its types are the entry's (SchemaOf), which the handler's type
  // already carries: Fastify's route() cannot relate the two through a generic key, hence the one widening here.
  const register: (options: RouteOptions) => unknown = v1.route.bind(v1) as unknown as (options: RouteOptions) => unknown;
  register({
    method,
    url: fastifyPath(path),
    config: { access: spec.access, routeKey: key },
    schema: routeSchema(spec),
    ...options,
    handler: handler as unknown as RouteOptions['handler'],
  });
}

/** The handler of an upload's entry: the upload's bytes as they came (an empty body: none), then the request and reply. */
export type UploadHandler<K extends RouteKey> = (body: Uint8Array, ...rest: Parameters<Handler<K>>) => ReturnType<Handler<K>>;

/**
 * Registers an entry that takes a raw upload (an import, a chain file, a positions file), in the scope whose body
 * parser keeps the bytes as they came (uploadRoutes), to be moved to a worker undecoded; at most UPLOAD_LIMIT_BYTES
 * unless `options` says less.
 */
export function serveUpload<K extends RouteKey>(v1: V1, key: K, handler: UploadHandler<K>, options: ServeOptions = {}): void {
  uploadRoutes(v1, (uploads) => {
    const withBytes: Handler<K> = function (this: ThisParameterType<Handler<K>>, ...args: Parameters<Handler<K>>) {
      const [request] = args;
      return handler(request.body instanceof Uint8Array ? request.body : new Uint8Array(0), ...args);
    };
    serve(uploads, key, withBytes, { bodyLimit: UPLOAD_LIMIT_BYTES, ...options });
  });
}

/** A route as the server registered it (onRoute). */
export interface RegisteredRoute {
  method: string;
  url: string;
  routeKey: RouteKey | undefined;
}

/**
 * What keeps the table and the served routes from being one: each entry served once at its method and path, and
 * nothing else served under /v1 (`prefix`) but through an entry. Empty when they agree.
 */
export function tableProblems(registered: readonly RegisteredRoute[], prefix = '/v1'): string[] {
  const problems: string[] = [];
  const served = new Map<RouteKey, number>();
  for (const route of registered) {
    // Fastify adds a HEAD to each GET: it serves the GET's entry.
    if (route.method === 'HEAD') continue;
    if (route.routeKey === undefined) {
      problems.push(`${route.method} ${route.url} is served without an entry in the route table (src-shared/api/routes.ts)`);
      continue;
    }
    const { method, path } = splitRouteKey(route.routeKey);
    if (method !== route.method || `${prefix}${fastifyPath(path)}` !== route.url) problems.push(`${route.routeKey} is served at ${route.method} ${route.url}`);
    served.set(route.routeKey, (served.get(route.routeKey) ?? 0) + 1);
  }
  for (const key of ROUTE_KEYS) {
    const count = served.get(key) ?? 0;
    if (count === 0) problems.push(`${key} has no handler (serve it in a file of src-main/server/routes)`);
    else if (count > 1) problems.push(`${key} is served ${count} times`);
  }
  return problems;
}
