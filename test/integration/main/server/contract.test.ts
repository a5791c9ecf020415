import { describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import type { ChainSnapshot } from '../../../../src-shared/exposure/model';
import { ROUTE_KEYS, ROUTES, splitRouteKey } from '../../../../src-shared/api/routes';
import { ProblemSchema } from '../../../../src-shared/api/schemas';
import { buildTestApp, HOST, storeChain, type TestApp, useTestApp } from '../../../helper';
import { sampledRoutes } from './route-samples';

interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: Array<{ param: string; message: string }>;
}

const t = useTestApp();

async function problem(url: string, init: Parameters<TestApp['request']>[0] extends infer O ? Partial<Exclude<O, string>> : never = {}) {
  const response = await t.request({ url, ...init });
  expect(response.headers['content-type'], `${url}: errors are RFC 9457 problem+json`).toMatch(/^application\/problem\+json/);
  const body = response.json<ProblemBody>();
  expect(body.status, 'the body repeats the HTTP status').toBe(response.statusCode);
  expect(typeof body.type === 'string' && typeof body.title === 'string' && typeof body.detail === 'string').toBe(true);
  return { status: response.statusCode, body, headers: response.headers };
}

const SPEC_ROUTES = ['/v1/journal/performance', '/v1/journal/summary', '/v1/journal/transactions', '/v1/gex?symbol=SPX', '/v1/vanna?symbol=SPX', '/v1/gex/events', '/v1/expirations?symbol=SPX'];

describe('auth', () => {
  it('answers /health and /openapi.json without a key', async () => {
    for (const url of ['/v1/health', '/v1/openapi.json']) {
      const response = await t.app.inject({ url, headers: { host: HOST } });
      expect(response.statusCode, url).toBe(200);
    }
  });

  it.each(SPEC_ROUTES)('401 UNAUTHORIZED with WWW-Authenticate: Bearer on %s without a key', async (url) => {
    const response = await t.app.inject({ url, headers: { host: HOST } });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(response.json<ProblemBody>().code).toBe('UNAUTHORIZED');
  });

  it('401 for an unknown key, a malformed header and a revoked key; 200 for the key file', async () => {
    for (const authorization of ['Bearer sb_notakey', 'Basic Zm9vOmJhcg==', 'Bearer', `Bearer ${t.key}x`, t.key]) {
      const { status, body } = await problem('/v1/journal/summary', { headers: { authorization } });
      expect(status, authorization).toBe(401);
      expect(body.code).toBe('UNAUTHORIZED');
    }
    expect((await t.request('/v1/journal/summary')).statusCode).toBe(200);
    const extra = t.ctx.keys.create('temp');
    expect((await t.request({ url: '/v1/journal/summary', headers: { authorization: `Bearer ${extra.key}` } })).statusCode).toBe(200);
    t.ctx.keys.revoke(extra.id);
    expect((await t.request({ url: '/v1/journal/summary', headers: { authorization: `Bearer ${extra.key}` } })).statusCode, 'a revoked key stops working at once').toBe(401);
  });
});

describe('host check (DNS rebinding)', () => {
  it.each(['evil.example:7717', '127.0.0.1:9999', 'localhost', '127.0.0.1', '', '0.0.0.0:7717', '[::1]:7717'])('421 MISDIRECTED for Host "%s"', async (host) => {
    const { status, body } = await problem('/v1/health', { headers: { host } });
    expect(status).toBe(421);
    expect(body.code).toBe('MISDIRECTED');
  });

  it('accepts localhost:<port> as well as 127.0.0.1:<port>', async () => {
    expect((await t.request({ url: '/v1/health', headers: { host: 'localhost:7717' } })).statusCode).toBe(200);
    expect((await t.request({ url: '/v1/health', headers: { host: 'LOCALHOST:7717' } })).statusCode).toBe(200);
  });
});

describe('routing', () => {
  it('404 NOT_FOUND problem for an unknown route', async () => {
    const { status, body } = await problem('/v1/nope');
    expect(status).toBe(404);
    expect(body.code).toBe('NOT_FOUND');
  });

  it.each([
    ['POST', '/v1/gex'],
    ['DELETE', '/v1/journal/summary'],
    ['PUT', '/v1/gex/events'],
    ['PATCH', '/v1/imports'],
    ['GET', '/v1/demo'],
  ])('405 METHOD_NOT_ALLOWED with Allow for %s %s', async (method, url) => {
    const { status, body, headers } = await problem(url, { method: method as 'POST' });
    expect(status).toBe(405);
    expect(body.code).toBe('METHOD_NOT_ALLOWED');
    expect(String(headers.allow)).toMatch(/GET|POST/);
  });

  it('sends no CORS headers by default, even to an Origin', async () => {
    const response = await t.request({ url: '/v1/journal/summary', headers: { origin: 'https://evil.example' } });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.request({ method: 'OPTIONS', url: '/v1/journal/summary', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.statusCode).toBe(405);
  });
});

describe('validation', () => {
  it.each([
    ['/v1/journal/transactions?foo=1', 'UNKNOWN_PARAMETER', 'foo'],
    ['/v1/gex?symbol=SPX&expirationCount=2', 'UNKNOWN_PARAMETER', 'expirationCount'],
    ['/v1/gex', 'MISSING_PARAMETER', 'symbol'],
    ['/v1/vanna', 'MISSING_PARAMETER', 'symbol'],
    ['/v1/expirations', 'MISSING_PARAMETER', 'symbol'],
    ['/v1/journal/transactions?page=abc', 'INVALID_PARAMETER', 'page'],
    ['/v1/journal/transactions?page=0', 'INVALID_PARAMETER', 'page'],
    ['/v1/journal/transactions?limit=0', 'INVALID_PARAMETER', 'limit'],
    ['/v1/journal/transactions?limit=-5', 'INVALID_PARAMETER', 'limit'],
    ['/v1/journal/transactions?limit=2.5', 'INVALID_PARAMETER', 'limit'],
    ['/v1/journal/transactions?limit=1e400', 'INVALID_PARAMETER', 'limit'],
    ['/v1/journal/transactions?limit=5&limit=6', 'INVALID_PARAMETER', 'limit'],
    ['/v1/journal/transactions?fromDate=2024-13-01', 'INVALID_PARAMETER', 'fromDate'],
    ['/v1/journal/transactions?fromDate=2024-02-30', 'INVALID_PARAMETER', 'fromDate'],
    ['/v1/journal/transactions?symbol=%27%3B%20DROP%20TABLE', 'INVALID_PARAMETER', 'symbol'],
    ['/v1/journal/summary?year=abc', 'INVALID_PARAMETER', 'year'],
    ['/v1/journal/summary?year=99999', 'INVALID_PARAMETER', 'year'],
    ['/v1/journal/performance?period=daily', 'INVALID_PARAMETER', 'period'],
    ['/v1/journal/performance?date=yesterday', 'INVALID_PARAMETER', 'date'],
    ['/v1/journal/performance?from=2024-01-01', 'RANGE_INCOMPLETE', 'to'],
    ['/v1/journal/performance?to=2024-01-31', 'RANGE_INCOMPLETE', 'from'],
    ['/v1/journal/performance?from=2024-02-01&to=2024-01-01', 'INVALID_PARAMETER', 'from'],
    ['/v1/gex?symbol=SPX&expirationsCount=0', 'INVALID_PARAMETER', 'expirationsCount'],
    // expirationsCount above its cap is clamped (scope.test.ts); beside expirations it is refused, naming both.
    ['/v1/gex?symbol=SPX&expirations=2024-01-05&expirationsCount=2', 'INVALID_PARAMETER', 'expirationsCount'],
    ['/v1/gex?symbol=SPX&expirations=2024-01-05&expirationsCount=2', 'INVALID_PARAMETER', 'expirations'],
    ['/v1/gex?symbol=SPX&formula=gamma', 'INVALID_PARAMETER', 'formula'],
    ['/v1/gex?symbol=SPX&expirations=2024-1-5', 'INVALID_PARAMETER', 'expirations'],
    ['/v1/vanna?symbol=SPX&expiration=tomorrow', 'INVALID_PARAMETER', 'expiration'],
    ['/v1/gex/events?eventType=spike', 'INVALID_PARAMETER', 'eventType'],
    ['/v1/gex/events?limit=0', 'INVALID_PARAMETER', 'limit'],
    ['/v1/gex/events?minDte=-1', 'INVALID_PARAMETER', 'minDte'],
    ['/v1/gex/events?minDte=9&maxDte=2', 'INVALID_PARAMETER', 'minDte'],
    // Routes without parameters declare an empty query (issue 12): a parameter is as unknown there as anywhere.
    ['/v1/health?verbose=1', 'UNKNOWN_PARAMETER', 'verbose'],
    ['/v1/chains?symbol=SPX', 'UNKNOWN_PARAMETER', 'symbol'],
    ['/v1/settings?x=1', 'UNKNOWN_PARAMETER', 'x'],
    ['/v1/openapi.json?format=yaml', 'UNKNOWN_PARAMETER', 'format'],
  ])('%s → 400 %s naming %s', async (url, code, param) => {
    const { status, body } = await problem(url);
    expect(status).toBe(400);
    expect(body.code).toBe(code);
    expect(body.errors?.map((e) => e.param), 'the problem names the parameter').toContain(param);
  });

  it('404 UNKNOWN_SYMBOL for a ticker with no snapshot, on every exposure route', async () => {
    for (const url of ['/v1/gex?symbol=SPX', '/v1/vanna?symbol=QQQ', '/v1/expirations?symbol=AAPL']) {
      const { status, body } = await problem(url);
      expect(status, url).toBe(404);
      expect(body.code).toBe('UNKNOWN_SYMBOL');
    }
  });

  it('clamps transactions limit to 100 and keeps the page', async () => {
    const { body } = await t.get<{ pagination: { limit: number; page: number; total: number; pages: number } }>('/v1/journal/transactions?limit=1000&page=3');
    expect(body.pagination).toEqual({ page: 3, limit: 100, total: 0, pages: 0 });
  });

  it('clamps events limit to 200 (default 50), newest first', async () => {
    const insert = t.ctx.db.prepare('INSERT INTO events (id, ticker, event_type, expiration, timestamp, payload) VALUES (?, ?, ?, ?, ?, ?)');
    for (let i = 0; i < 250; i += 1) {
      const timestamp = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
      const draft = { ticker: 'TEST', eventType: 'wall', expiration: '2099-01-16', timestamp, wallType: 'call', previousStrike: 100, newStrike: 105, spotPrice: 101 };
      insert.run(`ev_${String(i).padStart(4, '0')}`, 'TEST', 'wall', '2099-01-16', timestamp, JSON.stringify(draft));
    }
    const all = await t.get<{ events: Array<{ timestamp: string }> }>('/v1/gex/events?limit=1000');
    expect(all.body.events).toHaveLength(200);
    const defaults = await t.get<{ events: Array<{ timestamp: string }> }>('/v1/gex/events');
    expect(defaults.body.events).toHaveLength(50);
    const times = defaults.body.events.map((e) => e.timestamp);
    expect(times, 'newest first').toEqual([...times].sort().reverse());
    t.ctx.db.prepare("DELETE FROM events WHERE ticker = 'TEST'").run();
  });
});

describe('bodies and limits', () => {
  it('413 PAYLOAD_TOO_LARGE above 50 MB on uploads', async () => {
    const { status, body } = await problem('/v1/imports', { method: 'POST', headers: { 'content-type': 'text/csv' }, payload: 'a'.repeat(50 * 1024 * 1024 + 10) });
    expect(status).toBe(413);
    expect(body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('413 above 1 MB on other bodies', async () => {
    const { status } = await problem('/v1/settings', { method: 'PUT', headers: { 'content-type': 'application/json' }, payload: `{"x":"${'a'.repeat(1024 * 1024)}"}` });
    expect(status).toBe(413);
  });

  it('415 UNSUPPORTED_FORMAT for a form post', async () => {
    const { status, body } = await problem('/v1/imports', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=b' });
    expect(status).toBe(415);
    expect(body.code).toBe('UNSUPPORTED_FORMAT');
  });

  it('429 RATE_LIMITED with Retry-After once the burst is spent', async () => {
    const limited = await buildTestApp({ overrides: { rateLimit: { perSecond: 0.01, burst: 3 } } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) statuses.push((await limited.request('/v1/journal/summary')).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const response = await limited.request('/v1/journal/summary');
      expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(response.json<ProblemBody>().code).toBe('RATE_LIMITED');
      const other = limited.ctx.keys.create('second');
      expect((await limited.request({ url: '/v1/journal/summary', headers: { authorization: `Bearer ${other.key}` } })).statusCode, 'the limit is per key').toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('openapi', () => {
  it('describes every route with its parameters and response schemas', async () => {
    const response = await t.app.inject({ url: '/v1/openapi.json', headers: { host: HOST } });
    const doc = response.json<{ openapi: string; paths: Record<string, Record<string, { parameters?: Array<{ name: string }>; responses: Record<string, unknown> }>> }>();
    expect(doc.openapi).toMatch(/^3\./);
    const expected: Record<string, string[]> = {
      '/v1/journal/performance': ['accountId', 'period', 'date', 'from', 'to'],
      '/v1/journal/summary': ['year', 'accountId'],
      '/v1/journal/positions': ['asOf', 'accountId', 'symbol', 'levelsScope'],
      '/v1/journal/chains': ['asOf', 'accountId', 'symbol', 'status', 'page', 'limit'],
      '/v1/journal/campaigns': ['asOf', 'accountId', 'symbol', 'status', 'page', 'limit'],
      '/v1/journal/transactions': ['page', 'limit', 'symbol', 'accountId', 'fromDate', 'toDate', 'type', 'sort'],
      '/v1/journal/trades': ['status', 'strategy', 'symbol', 'accountId', 'tag', 'from', 'to', 'page', 'limit', 'levelsScope'],
      '/v1/journal/stats': ['groupBy', 'from', 'to', 'accountId'],
      '/v1/journal/corporate-actions': ['page', 'limit'],
      '/v1/journal/trades/{id}': ['id', 'levelsScope'],
      '/v1/journal/trades/{id}/rolls': ['id', 'snapshot', 'maxDte', 'expirations', 'strikes', 'minNet', 'net', 'maxDelta', 'beyondWall'],
      '/v1/journal/manage': ['asOf', 'accountId'],
      '/v1/gex': ['symbol', 'expirations', 'expirationsCount', 'minDte', 'maxDte', 'formula', 'snapshot', 'at'],
      '/v1/vanna': ['symbol', 'expiration', 'snapshot', 'at'],
      '/v1/gex/events': ['tickers', 'eventType', 'minDte', 'maxDte', 'scope', 'limit'],
      '/v1/expirations': ['symbol', 'snapshot', 'at'],
      '/v1/gex/profile': ['symbol', 'expirations', 'expirationsCount', 'minDte', 'maxDte', 'formula', 'snapshot', 'at'],
      '/v1/gex/history': ['symbol', 'from', 'to', 'expirations', 'expirationsCount', 'minDte', 'maxDte', 'formula'],
      '/v1/gex/diff': ['symbol', 'from', 'to', 'expirations', 'expirationsCount', 'minDte', 'maxDte', 'formula'],
      '/v1/snapshots': ['symbol'],
      '/v1/gex/grid': ['symbol', 'formula', 'minDte', 'maxDte', 'snapshot', 'at'],
      '/v1/snapshots/{id}': ['id'],
    };
    for (const [path, params] of Object.entries(expected)) {
      const get = doc.paths[path]?.get;
      expect(get, `${path} is documented`).toBeDefined();
      expect(get?.parameters?.map((p) => p.name).sort(), `${path} parameters`).toEqual([...params].sort());
      expect(Object.keys(get?.responses ?? {}), `${path} documents 200 and problems`).toEqual(expect.arrayContaining(['200', '4XX']));
    }
    // Every entry of the route table, with its method, the parameters its schemas name and the answers it declares.
    for (const key of ROUTE_KEYS) {
      const spec = ROUTES[key];
      const { method, path } = splitRouteKey(key);
      const operation = doc.paths[`/v1${path}`]?.[method.toLowerCase()];
      if ('hidden' in spec) {
        expect(operation, `${key} is left out`).toBeUndefined();
        continue;
      }
      expect(operation, `${key} is documented`).toBeDefined();
      const names = ['params' in spec ? spec.params : null, 'query' in spec ? spec.query : null].flatMap((schema) => (schema === null ? [] : Object.keys(schema.properties)));
      expect(operation?.parameters?.map((p) => p.name).sort() ?? [], `${key} parameters`).toEqual(names.sort());
      const statuses = Object.keys(spec.response);
      expect(Object.keys(operation?.responses ?? {}), `${key} answers`).toEqual(expect.arrayContaining(spec.access === 'public' ? statuses : [...statuses, '4XX', '5XX']));
    }
    const expirations = doc.paths['/v1/journal/expirations']?.post as { requestBody?: unknown; responses?: Record<string, unknown> } | undefined;
    expect(expirations?.requestBody, 'POST /v1/journal/expirations documents its body').toBeDefined();
    expect(Object.keys(expirations?.responses ?? {}), 'and 201 with problems').toEqual(expect.arrayContaining(['201', '4XX']));
  });
});

function sweepChain(): ChainSnapshot {
  const contracts = [90, 95, 100, 105, 110].flatMap((strike) =>
    (['C', 'P'] as const).map((right) => ({ root: 'RTA', expiration: '2099-12-18', strike, right, openInterest: 1000 + strike, iv: 0.3, bid: 1, ask: 1.2, multiplier: 100 })),
  );
  return { symbol: 'RTA', spot: 100, quoteTime: '2099-11-20T15:00:00Z', source: 'generic', contracts };
}

describe('the route table', () => {
  it('every route answers its request with an answer its table entry declares, in its schema, or a problem', async () => {
    // An app of its own: the sweep rotates the key of the key file and loads the demo. Its rate limit is the largest
    // the settings' schema allows (the tests' usual 1e6 is no setting a user could save, and GET /settings shows it).
    const own = await buildTestApp({ overrides: { rateLimit: { perSecond: 100_000, burst: 100_000 } } });
    try {
      storeChain(own.ctx, sweepChain());
      const key = own.ctx.keys.create('contract sweep').key;
      const failures: string[] = [];
      const answered: string[] = [];
      for (const route of sampledRoutes()) {
        const spec = ROUTES[route.key];
        const url = `${route.path}${route.sample.query === undefined ? '' : `?${route.sample.query}`}`;
        const response = await own.app.inject({
          method: route.method as 'GET',
          url,
          headers: { host: HOST, authorization: `Bearer ${key}`, ...(route.sample.type === undefined ? {} : { 'content-type': route.sample.type }) },
          ...(route.sample.body === undefined ? {} : { payload: route.sample.body }),
        });
        const status = response.statusCode;
        const type = String(response.headers['content-type'] ?? '');
        if (status >= 400) {
          if (!type.startsWith('application/problem+json') || !Value.Check(ProblemSchema, response.json())) failures.push(`${route.label} ${url}: ${status} is no problem: ${response.body.slice(0, 120)}`);
          continue;
        }
        const schema = Object.entries(spec.response).find(([declared]) => declared === String(status))?.[1];
        if (schema === undefined) {
          failures.push(`${route.label}: ${status} is not among its answers (${Object.keys(spec.response).join(', ')})`);
          continue;
        }
        answered.push(route.label);
        if (spec.kind === 'json' && !Value.Check(schema, response.json())) {
          const first = Value.Errors(schema, response.json())[0];
          failures.push(`${route.label}: its ${status} does not match its schema: ${first?.instancePath ?? ''} ${first?.message ?? ''}`);
        }
      }
      expect(failures, failures.join('\n')).toEqual([]);
      // The requests are chosen to write nothing: most read, and those answer with their figures (not only refusals).
      expect(answered.length, answered.join(', ')).toBeGreaterThanOrEqual(30);
    } finally {
      await own.close();
    }
  }, 60_000);
});
