/**
 * The /v1 route table: every route declared once, keyed by its method and path (docs/conventions.md §HTTP API).
 * The server registers each entry with its handler (src-main/server/route-table.ts: an entry without a handler,
 * or a handler without an entry, stops the start), the OpenAPI document is generated from the registered schemas,
 * the renderer's `api.call(key, input)` takes its input and output types from here (type-only: the key names the
 * method and the path), and the route tests and the README's route table are checked against it.
 *
 * The entries are written per area (app-routes.ts, journal-routes.ts, exposure-routes.ts; what an entry says in
 * route-spec.ts) and composed here into the one table. Pure data and schemas: no Node, no Fastify.
 */
import { DATA_ROUTES, META_ROUTES, SETTINGS_ROUTES } from './app-routes';
import { CHAIN_ROUTES, EXPOSURE_ROUTES } from './exposure-routes';
import { IMPORT_ROUTES, JOURNAL_ROUTES } from './journal-routes';
import type { RouteKeyText, RouteMethod, RouteSpec } from './route-spec';

export type { Access, RouteKeyText, RouteKind, RouteMethod, RouteSpec } from './route-spec';

/** The area tables, in the table's order; each key in one of them (test/unit/shared/api/routes.test.ts checks it). */
export const ROUTE_AREAS = {
  meta: META_ROUTES,
  journal: JOURNAL_ROUTES,
  imports: IMPORT_ROUTES,
  exposure: EXPOSURE_ROUTES,
  chains: CHAIN_ROUTES,
  settings: SETTINGS_ROUTES,
  data: DATA_ROUTES,
} as const;

export const ROUTES = {
  ...ROUTE_AREAS.meta,
  ...ROUTE_AREAS.journal,
  ...ROUTE_AREAS.imports,
  ...ROUTE_AREAS.exposure,
  ...ROUTE_AREAS.chains,
  ...ROUTE_AREAS.settings,
  ...ROUTE_AREAS.data,
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
