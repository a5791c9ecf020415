/**
 * docs/conventions.md §HTTP API (issue 8): every route × every spelling of its path that reaches it, over a
 * real socket (inject normalises URLs before the server sees them) and, for the spellings inject passes through,
 * in-process too. Without a key a protected route is 401; with the key the spelled request gets exactly the
 * answer of the canonical one. Paths under /v1 that are no route are 401, then 404 problems, never the UI.
 */
import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainSnapshot } from '../../../../src-shared/exposure/model';
import { startServer, type RunningServer } from '../../../../src-main/serve';
import { tempDir, tempUiDir } from '../../../paths';
import { storeChain } from '../../../helper';
import { sampledRoutes } from './route-samples';

interface Answer {
  status: number;
  type: string;
  body: string;
  headers: Record<string, string | string[] | number | undefined>;
}

let server: RunningServer;
let key = '';
const dirs: string[] = [];

/** One request over a real socket, the target sent exactly as written. */
interface Options {
  key?: string | null;
  body?: string;
  type?: string;
  host?: string;
  /** Sent once, or once per item (a repeated header). */
  ifNoneMatch?: string | readonly string[];
}

function raw(method: string, target: string, options: Options = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | string[]> = { host: options.host ?? `127.0.0.1:${server.port}` };
    if (options.ifNoneMatch !== undefined) headers['if-none-match'] = typeof options.ifNoneMatch === 'string' ? options.ifNoneMatch : [...options.ifNoneMatch];
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    if (options.type) headers['content-type'] = options.type;
    const req = request({ host: '127.0.0.1', port: server.port, method, path: target, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, type: String(response.headers['content-type'] ?? ''), body, headers: response.headers }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

async function injected(method: string, target: string, options: Options = {}): Promise<Answer> {
  const headers: Record<string, string | string[]> = { host: options.host ?? `127.0.0.1:${server.port}` };
  if (options.ifNoneMatch !== undefined) headers['if-none-match'] = typeof options.ifNoneMatch === 'string' ? options.ifNoneMatch : [...options.ifNoneMatch];
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.type) headers['content-type'] = options.type;
  const response = await server.app.inject({ method: method as 'GET', url: target, headers, ...(options.body === undefined ? {} : { payload: options.body }) });
  return { status: response.statusCode, type: String(response.headers['content-type'] ?? ''), body: response.body, headers: response.headers };
}

/** Fields that differ between two identical requests: clock readings and fresh keys. */
function comparable(answer: Answer): { status: number; type: string; body: unknown } {
  let body: unknown = answer.body;
  try {
    body = JSON.parse(answer.body, (name: string, value: unknown) => (['time', 'asOf', 'key'].includes(name) ? '…' : value));
  } catch {
    // Not JSON: compared as text.
  }
  return { status: answer.status, type: answer.type, body };
}

/** A request per entry of the route table (route-samples.ts); public ones need no key. */
const REQUESTS = Object.fromEntries(sampledRoutes().map((route) => [route.label, route]));
const PUBLIC = new Set(sampledRoutes().filter((route) => route.public).map((route) => route.label));

/** Spellings of `/v1/<rest>` that name the same route; `inject` marks those that inject passes through as written. */
function spellings(path: string, port: number): Array<{ label: string; target: string; inject: boolean }> {
  const rest = path.slice('/v1/'.length);
  const [first = '', ...others] = rest.split('/');
  const tail = others.length > 0 ? `/${others.join('/')}` : '';
  return [
    { label: '%76', target: `/%761/${rest}`, inject: true },
    { label: '%31', target: `/v%31/${rest}`, inject: true },
    { label: '%76%31', target: `/%76%31/${rest}`, inject: true },
    { label: '%56 (V)', target: `/%56%31/${rest}`, inject: true },
    { label: 'case', target: `/V1/${rest.toUpperCase()}`, inject: true },
    { label: 'trailing slash', target: `/v1/${rest}/`, inject: true },
    { label: '%2f', target: `/v1%2f${rest.replace(/\//g, '%2f')}`, inject: true },
    { label: 'segment %65', target: `/v1/${first.replace(/e/, '%65')}${tail}`, inject: true },
    { label: '//v1', target: `//v1/${rest}`, inject: false },
    { label: '/v1//x', target: `/v1//${rest}`, inject: false },
    { label: '/./', target: `/./v1/./${rest}`, inject: false },
    { label: '/x/../v1', target: `/x/../v1/${rest}`, inject: false },
    { label: '%2e%2e', target: `/x/%2e%2e/v1/${rest}`, inject: true },
    { label: 'absolute-form', target: `http://127.0.0.1:${port}/v1/${rest}`, inject: false },
    { label: 'absolute-form localhost', target: `HTTP://LOCALHOST:${port}/%761/${rest}`, inject: false },
  ];
}

function chain(): ChainSnapshot {
  const contracts = [90, 95, 100, 105, 110].flatMap((strike) =>
    (['C', 'P'] as const).map((right) => ({ root: 'RTA', expiration: '2099-12-18', strike, right, openInterest: 1000 + strike, iv: 0.3, bid: 1, ask: 1.2, multiplier: 100 })),
  );
  return { symbol: 'RTA', spot: 100, quoteTime: '2099-11-20T15:00:00Z', source: 'generic', contracts };
}

beforeAll(async () => {
  const dataDir = tempDir();
  const uiDir = tempUiDir({ 'index.html': '<!doctype html><title>Strikebook UI</title>', 'assets/app.js': 'console.log(1);' });
  // Links out of the UI folder: to the data folder's key file, and to the data folder itself (issue 16).
  symlinkSync(join(dataDir, 'api-key'), join(uiDir, 'assets', 'key.js'));
  symlinkSync(dataDir, join(uiDir, 'data'));
  dirs.push(dataDir, uiDir);
  server = await startServer({ dataDir, port: 0, uiDir, overrides: { rateLimit: { perSecond: 1e6, burst: 1e6 } } });
  storeChain(server.ctx, chain());
  // A key of its own: rotation replaces only the key file's key.
  key = server.ctx.keys.create('routing test').key;
});

afterAll(async () => {
  await server?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('routing decides auth (real socket and inject)', () => {
  it('has a request for every route of the OpenAPI document (the table, less the document itself)', async () => {
    const doc = JSON.parse((await raw('GET', '/v1/openapi.json')).body) as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(doc.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    expect(routes.length).toBeGreaterThanOrEqual(18);
    expect(routes.filter((route) => !(route in REQUESTS))).toEqual([]);
    expect(Object.keys(REQUESTS).filter((route) => !routes.includes(route))).toEqual(['GET /v1/openapi.json']);
  });

  for (const { label: route, method, path, sample } of sampledRoutes()) {
    const spec = { path, ...sample };
    it(`${route}: every spelling needs ${PUBLIC.has(route) ? 'no key (public)' : 'the key'} and reaches the route`, async () => {
      const query = spec.query === undefined ? '' : `?${spec.query}`;
      const send = { body: spec.body, type: spec.type };
      const failures: string[] = [];
      // Once first, so that a write (the demo) has had its effect and every later answer is the same.
      await raw(method, `${spec.path}${query}`, { ...send, key });
      for (const spelling of spellings(spec.path, server.port)) {
        for (const transport of spelling.inject ? (['socket', 'inject'] as const) : (['socket'] as const)) {
          const call = transport === 'socket' ? raw : injected;
          const label = `${transport} ${spelling.label} ${method} ${spelling.target}${query}`;
          const anonymous = await call(method, `${spelling.target}${query}`, { ...send, key: null });
          if (PUBLIC.has(route)) {
            const reference = await call(method, `${spec.path}${query}`, { ...send, key: null });
            if (JSON.stringify(comparable(anonymous)) !== JSON.stringify(comparable(reference))) failures.push(`${label} without key: ${anonymous.status} ${anonymous.body.slice(0, 80)}`);
          } else if (anonymous.status !== 401 || !anonymous.type.startsWith('application/problem+json') || !String(anonymous.headers['www-authenticate']).startsWith('Bearer')) {
            failures.push(`${label} without key: ${anonymous.status} ${anonymous.type} ${anonymous.body.slice(0, 80)}`);
          }
          const reference = await call(method, `${spec.path}${query}`, { ...send, key });
          const spelled = await call(method, `${spelling.target}${query}`, { ...send, key });
          if (JSON.stringify(comparable(spelled)) !== JSON.stringify(comparable(reference))) {
            failures.push(`${label} with key: ${spelled.status} ${spelled.body.slice(0, 100)} ≠ ${reference.status} ${reference.body.slice(0, 100)}`);
          }
        }
      }
      expect(failures, failures.slice(0, 8).join('\n')).toEqual([]);
      // The demo is loaded again at each of its ~80 calls (0.3–0.6 s each: its market is generated before the duplicates are known).
    }, route === 'POST /v1/demo' ? 180_000 : undefined);
  }

  it('answers every path under /v1 that is no route with 401 without a key, then a 404 problem (never the UI)', async () => {
    for (const target of ['/v1', '/v1/', '/v1/nope', '/v1/gex/x', '/v1/settings/x', '/%761/nope', '/V1/Nope/', '/v1/settings;a=1', '/v1/imports/1/x', '/x/../v1/assets/app.js', `http://127.0.0.1:${server.port}/v1/nope`]) {
      for (const method of ['GET', 'POST', 'DELETE', 'TRACE', 'PROPFIND']) {
        const anonymous = await raw(method, target);
        expect(anonymous.status, `${method} ${target} without key`).toBe(401);
        const keyed = await raw(method, target, { key });
        expect(keyed.status, `${method} ${target} with key`).toBe(404);
        expect(keyed.type).toMatch(/^application\/problem\+json/);
        expect((JSON.parse(keyed.body) as { code: string }).code).toBe('NOT_FOUND');
      }
    }
  });

  it('serves the UI only outside /v1, and a method a path does not serve is 405 with Allow (TRACE included)', async () => {
    for (const target of ['/', '/journal', '/x/../journal', '/%61ssets/app.js', '/x%2f..%2fassets/app.js']) {
      const page = await raw('GET', target);
      expect(page.status, target).toBe(200);
      expect(page.type, target).toMatch(/^text\/(html|javascript)/);
    }
    const trace = await raw('TRACE', '/v1/settings', { key });
    expect(trace.status).toBe(405);
    expect(trace.headers.allow).toBe('GET, HEAD, PUT');
    expect((await raw('TRACE', '/v1/settings')).status, 'no key: 401 first, the route map is not probed').toBe(401);
    expect((await raw('TRACE', '/')).status).toBe(405);
    expect((await raw('DELETE', '/v1/health')).status, 'a public path tells its methods without a key').toBe(405);
  });

  it('refuses an absolute-form target naming another host, whatever the Host header says', async () => {
    const answer = await raw('GET', 'http://evil.example/v1/health');
    expect(answer.status).toBe(421);
    expect((JSON.parse(answer.body) as { code: string }).code).toBe('MISDIRECTED');
  });
});

describe('the fast path agrees with the app', () => {
  it('answers exactly what the app answers, for every spelling, with and without the key and a foreign Host', async () => {
    const canonical = '/v1/gex?symbol=RTA&expirationsCount=1';
    // Computed once through the route: from now on the fast path knows this URL.
    const first = await raw('GET', canonical, { key });
    expect(first.status).toBe(200);
    const etag = String(first.headers.etag);
    const failures: string[] = [];
    const targets = [canonical, ...spellings('/v1/gex', server.port).map((s) => `${s.target}?symbol=RTA&expirationsCount=1`)];
    for (const target of targets) {
      for (const [label, options] of [
        ['key', { key }],
        ['no key', { key: null }],
        ['bad key', { key: 'sb_not-a-key' }],
        ['foreign Host', { key, host: 'evil.example' }],
        ['If-None-Match', { key, ifNoneMatch: etag }],
        ['If-None-Match twice', { key, ifNoneMatch: [etag, etag] }],
        ['If-None-Match other', { key, ifNoneMatch: '"other"' }],
      ] as const) {
        const overSocket = await raw('GET', target, options);
        // The same request through the app alone (inject never passes the fast path), when inject keeps the target.
        const spelled = spellings('/v1/gex', server.port).find((s) => target.startsWith(`${s.target}?`));
        if (spelled !== undefined && !spelled.inject) continue;
        const alone = await injected('GET', target, options);
        const fix = (answer: Answer) => (label === 'foreign Host' ? { ...comparable(answer), body: null } : comparable(answer));
        if (JSON.stringify(fix(overSocket)) !== JSON.stringify(fix(alone)) || overSocket.headers.etag !== alone.headers.etag) {
          failures.push(`${label} ${target}: socket ${overSocket.status}, app ${alone.status}`);
        }
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });
});

describe('numbers, dates and links over a real socket (issue 16)', () => {
  const codeOf = (answer: Answer) => JSON.parse(answer.body) as { code: string; errors?: Array<{ param: string }> };

  it('an id in a path written other than in digits is 400 naming it, in every spelling of the path; nothing is deleted', async () => {
    const before = (await raw('GET', '/v1/snapshots?symbol=RTA', { key })).body;
    const id = (JSON.parse(before) as { snapshots: Array<{ id: number }> }).snapshots[0]?.id ?? 1;
    for (const target of [`/v1/snapshots/${id}.0`, `/v1/snapshots/%2B${id}`, `/v1/snapshots/${id}e0`, `/v1/snapshots/0x${id.toString(16)}`, `/%761/snapshots/${id}.0`, `/V1/SNAPSHOTS/${id}%2E0`, `//v1/snapshots/%20${id}`, '/v1/imports/1.0', '/v%31/imports/%2B1']) {
      const answer = await raw('DELETE', target, { key });
      expect(answer.status, target).toBe(400);
      expect(codeOf(answer), target).toMatchObject({ code: 'INVALID_PARAMETER', errors: [{ param: 'id' }] });
    }
    expect((await raw('GET', '/v1/snapshots?symbol=RTA', { key })).body, 'nothing was deleted').toBe(before);
  });

  it('query numbers and dates are read as the route receives them: %2B5, +5, 0x10, 1e1, 5.0 and years outside 1900–2200 are 400', async () => {
    for (const [target, param] of [
      ['/v1/journal/transactions?limit=%2B5', 'limit'],
      ['/v1/journal/transactions?limit=+5', 'limit'],
      ['/v1/journal/transactions?limit=0x10', 'limit'],
      ['/v1/journal/transactions?page=1e9', 'page'],
      ['/%761/gex/events?limit=5.0', 'limit'],
      ['/v1/journal/summary?year=0x7e8', 'year'],
      ['/v1/gex?symbol=RTA&snapshot=0x1', 'snapshot'],
      ['/v1/gex?symbol=RTA&at=9999-12-31T23:00', 'at'],
      ['/V1/GEX/PROFILE?symbol=RTA&at=9999-12-31', 'at'],
      ['/v1/gex/history?symbol=RTA&to=9999-12-31', 'to'],
      ['/v1/journal/performance?date=0000-01-01', 'date'],
      ['/v1/journal/positions?asOf=1899-12-31T23:59Z', 'asOf'],
    ] as const) {
      const answer = await raw('GET', target, { key });
      expect(answer.status, target).toBe(400);
      expect(codeOf(answer), target).toMatchObject({ code: 'INVALID_PARAMETER', errors: [{ param }] });
    }
    const capped = JSON.parse((await raw('GET', '/v1/journal/transactions?limit=0100', { key })).body) as { pagination: { limit: number } };
    expect(capped.pagination.limit, 'digits with a leading zero are the number, clamped to the cap').toBe(100);
  });

  it('a symbolic link in the UI folder that leads out of it is never served, in any spelling, with or without the key', async () => {
    for (const target of ['/assets/key.js', '/%61ssets/key.js', '/x/../assets/key.js', '/assets/./key.js', '/data/api-key', '/data/strikebook.db', '/data/']) {
      for (const withKey of [null, key]) {
        const answer = await raw('GET', target, { key: withKey });
        expect(answer.body, target).not.toMatch(/sb_[\w-]{43}|SQLite format 3/);
        if (answer.status === 200) expect(answer.body, `${target}: a page, the UI's own`).toContain('<title>Strikebook UI</title>');
        else expect(answer.status, target).toBe(404);
      }
    }
  });
});
