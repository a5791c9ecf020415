/**
 * The grammar of numbers and dates in query and path parameters (docs/conventions.md §HTTP API, issue 16): integers
 * are digits only, dates and instants lie in the years 1900–2200. Every route's parameters come from the route table
 * (src-shared/api/routes.ts), so a parameter added later is covered without editing this file. Each refusal is 400 INVALID_PARAMETER
 * naming the parameter; the extremes inside the range answer without a 5xx.
 */
import { describe, expect, it } from 'vitest';
import type { ChainSnapshot } from '../../../../src-shared/exposure/model';
import { DATE_TEXT_PATTERNS } from '../../../../src-shared/api/schema-kit';
import { ROUTE_KEYS, ROUTES, splitRouteKey, type RouteKey, type RouteSpec } from '../../../../src-shared/api/routes';
import { storeChain, useTestApp } from '../../../helper';
import { asTicker } from '../../../../src-shared/ids';
import { SAMPLES } from './route-samples';

interface ProblemBody {
  status: number;
  code: string;
  detail: string;
  errors?: Array<{ param: string; message: string }>;
}

interface Parameter {
  in: 'query' | 'path';
  name: string;
  required?: boolean;
  schema: { type?: string; pattern?: string };
}

/**
 * A request each route answers with something other than 400: its required parameters and its body (a route needing
 * neither needs no line; one needing only its path's ids takes them from its sample, route-samples.ts).
 */
const BASE: Partial<Record<RouteKey, { query?: Record<string, string>; path?: Record<string, string>; body?: string; type?: string }>> = {
  'GET /journal/chains/{id}': { path: { id: 'nope' } },
  'GET /journal/campaigns/{id}': { path: { id: 'nope' } },
  'GET /journal/trades/{id}': { path: { id: 'tx_nope' } },
  'GET /journal/trades/{id}/rolls': { path: { id: 'tx_nope' } },
  'PUT /journal/corporate-actions/{id}': { path: { id: '987654' }, body: '{"type":"split","symbol":"X","ratio":2,"date":"2024-01-02"}', type: 'application/json' },
  'DELETE /journal/corporate-actions/{id}': { path: { id: '987654' } },
  // Takes no parameter: its body's numbers and dates are the schema's (the fuzz test sends hostile ones).
  'POST /journal/expirations': { body: '{"items":[{"accountId":"acc_nope","symbol":"XYZ240621P00045000"}]}', type: 'application/json' },
  'DELETE /imports/{id}': { path: { id: '987654' } },
  'POST /imports/{id}/acknowledge': { path: { id: '987654' } },
  'POST /journal/reconcile': { body: 'symbol,quantity\nAAPL,1\n', type: 'text/csv' },
  'GET /gex': { query: { symbol: 'RTA' } },
  'GET /vanna': { query: { symbol: 'RTA' } },
  'GET /expirations': { query: { symbol: 'RTA' } },
  'GET /gex/profile': { query: { symbol: 'RTA' } },
  'GET /gex/history': { query: { symbol: 'RTA' } },
  'GET /gex/diff': { query: { symbol: 'RTA', from: '1', to: '1' } },
  'GET /snapshots': { query: { symbol: 'RTA' } },
  'DELETE /snapshots/{id}': { path: { id: '987654' } },
  'GET /snapshots/{id}': { path: { id: '987654' } },
  'GET /gex/grid': { query: { symbol: 'RTA' } },
  'POST /chains': { body: 'expiration,strike,right,openInterest,iv,bid,ask\n2099-12-18,100,C,10,0.3,1,1.2\n', type: 'text/csv' },
};

/** Numbers that JavaScript's Number() reads but the grammar refuses (%2B5 is "+5" once decoded; a raw + is a space). */
const BAD_INTEGERS = ['0x10', '1e1', '0b11', '0o7', '%2B5', '+5', '%205', '5%20', '5.0', '1.5', '-1', '-0', '1_000', '１', 'Infinity', `1${'0'.repeat(400)}`, ''];
/** The same for decimals (`spot`): what the decimal grammar `^-?[0-9]+(\.[0-9]+)?$` reads (5.0, 1.5, -1) is no error of form. */
const BAD_DECIMALS = [...BAD_INTEGERS.filter((raw) => !['5.0', '1.5', '-1', '-0'].includes(raw)), '1.', '.5', '1.2.3', '--1', '1e-3'];
const OUT_OF_RANGE_DATES = ['0000-01-01', '1899-12-31', '2201-01-01', '9999-12-31', '9999-12-31T23:00', '9999-12-31T23:59:59.999-12:00', '0001-01-01T00:00Z'];
const EXTREME_DATES = ['1900-01-01', '2200-12-31', '1900-01-01T00:00', '1900-01-01T00:00+14:00', '2200-12-31T23:59:59.999-12:00', '2200-12-31T23:59Z'];

const t = useTestApp();

function chain(quoteTime: string): ChainSnapshot {
  const contracts = [90, 95, 100, 105, 110].flatMap((strike) =>
    (['C', 'P'] as const).map((right) => ({ root: 'RTA', expiration: '2099-12-18', strike, right, openInterest: 1000 + strike, iv: 0.3, bid: 1, ask: 1.2, multiplier: 100 })),
  );
  return { symbol: 'RTA', spot: 100, quoteTime, source: 'generic', contracts };
}

/** Each route of the table with its path and query parameters, as its schemas declare them. */
function operations(): Array<{ route: RouteKey; method: string; path: string; parameters: Parameter[] }> {
  return ROUTE_KEYS.map((route) => {
    const spec: RouteSpec = ROUTES[route];
    const { method, path } = splitRouteKey(route);
    const parameters = (['path', 'query'] as const).flatMap((place) => {
      const schema = place === 'path' ? spec.params : spec.query;
      const properties: Record<string, Parameter['schema']> = schema === undefined ? {} : (schema as { properties: Record<string, Parameter['schema']> }).properties;
      const required = new Set(schema === undefined ? [] : ((schema as { required?: string[] }).required ?? []));
      return Object.entries(properties).map(([name, property]) => ({ in: place, name, schema: property, required: required.has(name) }));
    });
    return { route, method, path: `/v1${path}`, parameters };
  });
}

function baseOf(route: RouteKey): NonNullable<(typeof BASE)[RouteKey]> {
  const params = SAMPLES[route].params;
  return BASE[route] ?? (params === undefined ? {} : { path: params });
}

/** The route's base request with one parameter's raw (already percent-encoded) text. */
function send(route: RouteKey, method: string, path: string, parameter: Parameter, raw: string) {
  const base = baseOf(route);
  let url = path;
  for (const [name, value] of Object.entries(base.path ?? {})) url = url.replace(`{${name}}`, parameter.in === 'path' && parameter.name === name ? raw : value);
  const query = Object.entries(base.query ?? {})
    .filter(([name]) => !(parameter.in === 'query' && parameter.name === name))
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`);
  if (parameter.in === 'query') query.push(`${parameter.name}=${raw}`);
  return t.request({
    method: method as 'GET',
    url: query.length === 0 ? url : `${url}?${query.join('&')}`,
    ...(base.body === undefined ? {} : { payload: base.body, headers: { 'content-type': base.type ?? 'text/csv' } }),
  });
}

describe('numbers and dates in parameters', () => {
  it('every route that takes an integer, a date or an instant, and needs a parameter or a body, has a base request here', () => {
    const taking = operations().filter((op) => op.parameters.some((p) => p.schema.type === 'integer' || p.schema.type === 'number' || DATE_TEXT_PATTERNS.includes(p.schema.pattern ?? '')));
    expect(taking.length).toBeGreaterThanOrEqual(15);
    const needing = taking.filter((op) => op.parameters.some((p) => p.required === true) || 'body' in ROUTES[op.route] || ROUTES[op.route].kind === 'upload');
    expect(needing.length, 'path ids, symbols, bodies').toBeGreaterThanOrEqual(10);
    const onlyIds = (op: (typeof needing)[number]) => op.parameters.every((p) => p.required !== true || p.in === 'path') && !('body' in ROUTES[op.route]) && ROUTES[op.route].kind !== 'upload';
    expect(needing.filter((op) => !(op.route in BASE) && !(onlyIds(op) && SAMPLES[op.route].params !== undefined)).map((op) => op.route)).toEqual([]);
  });

  it('integers are digits: 0x10, 1e1, 0b11, 0o7, +5, %2B5, " 5", 5.0, 1e9 pages... are 400 INVALID_PARAMETER naming the parameter, in the query and the path', async () => {
    storeChain(t.ctx, chain('2099-11-20T15:00:00Z'));
    const failures: string[] = [];
    let checked = 0;
    for (const { route, method, path, parameters } of operations()) {
      for (const parameter of parameters.filter((p) => p.schema.type === 'integer' || p.schema.type === 'number')) {
        // In a path, an empty segment is another route and a segment over 200 characters no route at all.
        const bad = parameter.schema.type === 'number' ? BAD_DECIMALS : BAD_INTEGERS;
        const forms = parameter.in === 'path' ? bad.filter((raw) => raw !== '' && raw.length < 200) : bad;
        for (const raw of [...forms, ...(parameter.name === 'page' ? ['1e9'] : [])]) {
          const response = await send(route, method, path, parameter, raw);
          checked += 1;
          const body = response.json<ProblemBody>();
          if (response.statusCode !== 400 || body.code !== 'INVALID_PARAMETER' || body.errors?.[0]?.param !== parameter.name) {
            failures.push(`${route} ${parameter.in} ${parameter.name}=${raw}: ${response.statusCode} ${response.body.slice(0, 120)}`);
          }
        }
      }
    }
    expect(checked, 'ids, pages, limits, years, counts, dte bounds, snapshot ids').toBeGreaterThan(200);
    expect(failures, failures.slice(0, 10).join('\n')).toEqual([]);
  });

  it('DELETE /v1/snapshots/1.0 is 400 and deletes nothing; /1 deletes snapshot 1', async () => {
    storeChain(t.ctx, chain('2099-11-20T15:05:00Z'));
    const listed = () => {
      const result = t.ctx.exposure.snapshotList(asTicker('RTA'));
      return result.ok ? result.value.map((s) => s.id) : [];
    };
    const id = Math.max(...listed());
    for (const spelling of [`${id}.0`, `0x${id.toString(16)}`, `%2B${id}`, `${id}e0`, `%20${id}`]) {
      const response = await t.request({ method: 'DELETE', url: `/v1/snapshots/${spelling}` });
      expect(response.statusCode, spelling).toBe(400);
      expect(response.json<ProblemBody>().errors?.[0]?.param).toBe('id');
    }
    expect(listed(), 'nothing was deleted').toContain(id);
    const deleted = await t.request({ method: 'DELETE', url: `/v1/snapshots/${id}` });
    expect(deleted.statusCode).toBe(200);
    expect(listed()).not.toContain(id);
  });

  it('digits are read as written: leading zeros are the number, a limit above the cap is clamped', async () => {
    const page = await t.get<{ pagination: { page: number; limit: number } }>('/v1/journal/transactions?page=002&limit=007');
    expect(page.body.pagination).toMatchObject({ page: 2, limit: 7 });
    const capped = await t.get<{ pagination: { limit: number } }>('/v1/journal/transactions?limit=1000');
    expect(capped.body.pagination.limit, 'transactions limit > 100 → 100').toBe(100);
    expect((await t.get('/v1/gex/events?limit=5000')).status, 'events limit > 200 is clamped, not refused').toBe(200);
    expect((await t.get('/v1/journal/summary?year=2024')).status).toBe(200);
  });

  it('dates and instants outside 1900–2200 are 400 naming the parameter, on every route that takes one', async () => {
    storeChain(t.ctx, chain('2099-11-20T15:10:00Z'));
    const failures: string[] = [];
    let checked = 0;
    for (const { route, method, path, parameters } of operations()) {
      for (const parameter of parameters.filter((p) => DATE_TEXT_PATTERNS.includes(p.schema.pattern ?? ''))) {
        for (const date of OUT_OF_RANGE_DATES) {
          // An instant only where the parameter takes one; a list of dates is refused for any one of them.
          if (date.includes('T') && !(parameter.schema.pattern ?? '').includes('T')) continue;
          const raw = parameter.name === 'expirations' ? `2099-12-18,${encodeURIComponent(date)}` : encodeURIComponent(date);
          const response = await send(route, method, path, parameter, raw);
          checked += 1;
          const body = response.json<ProblemBody>();
          if (response.statusCode !== 400 || body.code !== 'INVALID_PARAMETER' || body.errors?.[0]?.param !== parameter.name || !/1900–2200/.test(body.detail)) {
            failures.push(`${route} ${parameter.name}=${date}: ${response.statusCode} ${response.body.slice(0, 160)}`);
          }
        }
      }
    }
    expect(checked, 'at, asOf, date, from, to, fromDate, toDate, expiration(s), quoteTime').toBeGreaterThan(60);
    expect(failures, failures.slice(0, 10).join('\n')).toEqual([]);
  });

  it('the extremes inside the range answer without a 5xx, on every route that takes a date', async () => {
    const failures: string[] = [];
    for (const { route, method, path, parameters } of operations()) {
      for (const parameter of parameters.filter((p) => DATE_TEXT_PATTERNS.includes(p.schema.pattern ?? ''))) {
        for (const date of EXTREME_DATES) {
          if (date.includes('T') && !(parameter.schema.pattern ?? '').includes('T')) continue;
          const response = await send(route, method, path, parameter, encodeURIComponent(date));
          if (response.statusCode >= 500) failures.push(`${route} ${parameter.name}=${date}: ${response.statusCode} ${response.body.slice(0, 160)}`);
        }
      }
    }
    expect(failures, failures.slice(0, 10).join('\n')).toEqual([]);
    // The far ends of the range on the journal, which walk weeks and months across them.
    for (const url of ['/v1/journal/performance?date=1900-01-01', '/v1/journal/performance?date=2200-12-31T23:59-12:00', '/v1/journal/performance?from=1900-01-01&to=2200-12-31', '/v1/journal/summary?year=1900', '/v1/journal/summary?year=2200']) {
      expect((await t.get(url)).status, url).toBe(200);
    }
  });

  it('at=9999-12-31T23:00 is a 400 naming at (it was a 404: the instant had become year 10000)', async () => {
    const response = await t.get<ProblemBody>('/v1/gex?symbol=RTA&at=9999-12-31T23:00');
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ param: 'at', message: 'names the year 9999, outside 1900–2200' }]);
  });
});
