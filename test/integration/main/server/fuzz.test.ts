import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { DATE_TEXT_PATTERNS, yearOutOfRange } from '../../../../src-shared/api/schema-kit';
import { ROUTES } from '../../../../src-shared/api/routes';
import { seededRandom } from '../../../../src-shared/demo/random';
import { HOST, tempDir, useTestApp } from '../../../helper';
import { tempUiDir } from '../../../paths';
import { sampledRoutes } from './route-samples';

const HOSTILE = [
  "' OR 1=1 --",
  '"; DROP TABLE transactions; --',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  '%00',
  '%ff%fe',
  '\u0000',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'ümlaut',
  '🚀',
  '\u202e',
  '1e308',
  '1e400',
  '-1e400',
  '-0',
  'NaN',
  'Infinity',
  '9007199254740993',
  '-9007199254740993',
  '0x10',
  // Numbers JavaScript reads and the grammar refuses (issue 16); a raw + is a space once decoded.
  '1e1',
  '0b11',
  '0o7',
  '+5',
  ' 5',
  '5 ',
  '5.0',
  '%2B5',
  '1e9',
  '1_000',
  '０',
  // Dates at and past the ends of 1900–2200.
  '0000-01-01',
  '1899-12-31',
  '1900-01-01',
  '2200-12-31',
  '2201-01-01',
  '9999-12-31T23:00',
  '2200-12-31T23:59:59.999-12:00',
  '1900-01-01T00:00+14:00',
  '2024-01-05,9999-01-01',
  '',
  ' ',
  'null',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'a'.repeat(5000),
  '2024-02-30',
  '2024-01-01T25:61:00Z',
  '1970-01-01',
  '9999-12-31',
  'SPX',
  'spx',
  'SPX,SPY,,',
  '2099-01-16,2099-01-17',
  '5',
  '3',
  '100',
  '101',
  '1',
  '0',
  '-1',
  '2.5',
];
/** Every query parameter of the table, and names no route takes. */
const PARAMS = [
  ...new Set([...Object.values(ROUTES).flatMap((spec) => ('query' in spec ? Object.keys(spec.query.properties) : [])), 'format', 'access_token', '__proto__', 'constructor', 'x', '']),
];
/**
 * Every route of the table at its sample path (route-samples.ts), then paths near them and paths that are none. Not
 * the event stream: a request it accepts stays open (test/e2e/stream-client.test.ts and the SSE tests hold it).
 */
const PATHS = [
  ...new Set([
    ...sampledRoutes()
      .filter((route) => ROUTES[route.key].kind !== 'sse')
      .map((route) => route.path),
    '/v1/journal/chains/acc_x:USD:AMD:2024-01-02',
    '/v1/journal/campaigns/acc_x:USD:AMD:2024-01-02',
    '/v1/journal/corporate-actions/1',
    '/v1/journal/corporate-actions/abc',
    '/v1/snapshots/1',
    '/v1/snapshots/abc',
    '/v1/snapshots/99999999999999999999',
    '/v1/imports/1',
    '/v1/imports/abc',
    '/v1/imports/99999999999999999999',
    '/v1/imports/1/acknowledge',
    '/v1/imports/abc/acknowledge',
    '/v1/import-formats/%2e%2e',
    '/v1/exports/abc',
    '/v1/exports/%2e%2e',
    '/v1/backups/%2e%2e',
    '/v1/',
    '/v1',
    '/',
    '/v2/gex',
    '/v1/gex/../journal/summary',
    '/v1/%2e%2e/%2e%2e/etc/passwd',
    '/v1/gex%00',
    '/v1/\u00e9',
    '/v1/gex/events/extra',
    '//v1//gex',
    // Other spellings of routes (routing-auth.test.ts checks their keys over a real socket).
    '/%761/settings',
    '/v%31/imports',
    '/%76%31/keys/rotate',
    '/./v1/settings',
    '/x/../v1/demo',
    '/V1/GEX',
    '/v1/settings/',
    '/v1/settings;x=1',
    '/v1/%ff',
    '/v1%2fimports',
    '/v1/imports/%31',
    '/v1/snapshots/1.0',
    '/v1/snapshots/%2B1',
    '/v1/snapshots/0x1',
    '/v1/imports/1e0',
    // Symbolic links in the UI folder (beforeAll): to the data folder's key file, to /etc, and to the folder's parent.
    '/leak',
    '/etc-link/passwd',
    '/up/api-key',
    '/assets/../leak',
    '/v1/journal/transactions/mtx_0123',
    '/v1/journal/transactions/tx_abc',
    '/v1/journal/transactions/%2e%2e',

  ]),
];
const METHODS: Array<InjectOptions['method']> = ['GET', 'GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'];
const CONTENT_TYPES = ['text/csv', 'application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', '', 'text/csv; charset=utf-16'];
const BODIES = [
  '',
  'garbage',
  '{"rate": "high"}',
  '{"rate": 0.05}',
  '{"timeZone": "Mars/Olympus"}',
  '{"port": 99999}',
  '{"__proto__": {"polluted": true}}',
  '[1,2,3]',
  'Date,Type,Sub Type,Action,Symbol\n2024-01-01,Trade,,SELL_TO_OPEN,XYZ\n',
  'Date,Action,Symbol,Description,Quantity,Price,Fees & Comm,Amount\n"01/02/2024",Sell to Open,"XYZ 01/19/2024 50.00 P",x,1,$1.00,$0.66,$99.34\n',
  '\n,Last: 100\n"Date: January 7, 2024 at 10:52 AM EST"\nExpiration Date,Calls\n',
  '"unclosed,quote\n1,2,3',
  '\uFEFF\u0000\u0001binary',
  '{"data": {"current_price": "x", "options": [{"option": "BAD"}]}}',
  '{"name":"x","header":["a","b"],"mapping":{"date":{"column":"a","layout":"YYYY-MM-DD","zone":"utc"},"type":{"column":"b","words":[]},"quantity":"a","amount":{"column":"zz","sign":"as-written"}}}',
  '{"name":"x","header":["a","a"],"mapping":{"date":{"column":"a","layout":"YYYY-MM-DD","zone":"utc"},"type":{"column":"a","words":[{"word":"__proto__","type":"BUY"}]},"quantity":"a","amount":{"sign":"by-type"}}}',
  '{"text":"a,b\\n1,2\\n","format":{"name":"","header":[],"mapping":{}}}',
  '{"text":"\\u0089PNG\\r\\n"}',
  '{"transactions":[{"account":"A","type":"BUY","symbol":"X","quantity":1,"price":1,"date":"2024-01-01"}]}',
  '{"transactions":[{"accountId":"acc_x","type":"SELL_TO_OPEN","symbol":"X","expiration":"2024-02-30","strike":-1,"right":"Q","quantity":1e400,"date":"2024-13-45"}]}',
  '{"transactions":"all of them"}',
  '{"path":"../../etc"}',
  '{"path":["/tmp"]}',
  '{"watchFolder":"/proc/self","refreshSchedule":["25:00"]}',
  '{"account":"A","type":"DEPOSIT","amount":1,"date":"2024-01-01"}',
  // Issue 29: values each rule of its own refuses (settings, exports, manual rows).
  '{"onlineSource":{"enabled":true,"baseUrl":"http://u:p@169.254.169.254:99999/x\\r\\nX: y","watchlist":["SPX"],"intervalSeconds":60}}',
  '{"onlineSource":{"enabled":false,"baseUrl":"http://[fe80::1%25eth0]:0/","watchlist":[],"intervalSeconds":60}}',
  '{"corsOrigins":["http://*.x.com","https://x.com:*","http://x_y.example"]}',
  '{"from":"9999-12-31","to":"0001-01-01"}',
  '{"from":"1900-01-01T00:00:00+14:00"}',
  '{"transactions":[{"account":"A","type":"BUY","symbol":"X","quantity":1000000000,"price":1000000000,"date":"2200-12-31T23:00:00-14:00"}]}',
  '{"positions":[{"symbol":"AAPL","quantity":1e400,"cost":"x"},{"symbol":"__proto__","quantity":1}]}',
  'symbol,quantity,cost\nAAPL,1,$$\n-AAPL240119P180,-1,\n',
];

/** The UI folder of the app under test, with symbolic links that lead out of it (none may be served). */
const uiDir = tempUiDir({ 'index.html': '<!doctype html><title>Strikebook UI</title>', 'assets/app.js': 'console.log(1);' });
const dataDir = tempDir();
symlinkSync(join(dataDir, 'api-key'), join(uiDir, 'leak'));
symlinkSync('/etc', join(uiDir, 'etc-link'));
symlinkSync(dataDir, join(uiDir, 'up'));
const LINKED = ['/leak', '/etc-link/passwd', '/up/api-key', '/assets/../leak'];
/** What the files behind the links hold: a key, or /etc/passwd's first line. */
const LEAKED = /sb_[\w-]{43}|^root:/m;

/** Integer parameters (of every route that has them) and number forms they refuse. */
const INTEGER_PARAMS = new Set(['page', 'limit', 'year', 'expirationsCount', 'minDte', 'maxDte', 'snapshot']);
const BAD_NUMBERS = new Set(['0x10', '1e1', '0b11', '0o7', '+5', ' 5', '5 ', '5.0', '%2B5', '1e9', '1_000', '０', '2.5', '-1', '1e308', 'Infinity', 'NaN', '']);
/** Date and instant parameters (from/to are snapshot ids on /gex/diff: a date is refused there too). */
const DATE_PARAMS = new Set(['at', 'asOf', 'date', 'from', 'to', 'fromDate', 'toDate', 'quoteTime', 'expiration', 'expirations']);

const t = useTestApp({ uiDir, dataDir });

describe('hostile requests (docs/architecture.md §Reliability and security)', () => {
  it('answers 3,000 malformed and hostile requests with 2xx/3xx or a 4xx problem body, never a 5xx', async () => {
    const random = seededRandom(20261122);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const failures: string[] = [];
    for (let i = 0; i < 3000; i += 1) {
      const params = new URLSearchParams();
      const count = Math.floor(random() * 4);
      for (let p = 0; p < count; p += 1) params.append(pick(PARAMS), pick(HOSTILE));
      if (random() < 0.1) params.append('limit', pick(HOSTILE));
      const path = pick(PATHS);
      const query = params.toString();
      const url = random() < 0.05 ? `${path}?${pick(HOSTILE)}=%E0%A4%A` : query === '' ? path : `${path}?${query}`;
      const method = pick(METHODS);
      const headers: Record<string, string> = { host: random() < 0.95 ? HOST : pick(['evil:7717', '', '127.0.0.1:1']) };
      const auth = random();
      if (auth < 0.8) headers.authorization = `Bearer ${t.key}`;
      else if (auth < 0.9) headers.authorization = `Bearer ${pick(HOSTILE)}`;
      else if (auth < 0.95) headers.authorization = pick(HOSTILE);
      const options: InjectOptions = { method, url, headers };
      if (method !== 'GET' && method !== 'HEAD' && random() < 0.8) {
        const type = pick(CONTENT_TYPES);
        if (type !== '') headers['content-type'] = type;
        options.payload = random() < 0.02 ? 'x'.repeat(2 * 1024 * 1024) : pick(BODIES);
      }
      const response = await t.app.inject(options);
      const status = response.statusCode;
      const label = `#${i} ${method} ${url.slice(0, 120)} → ${status}`;
      if (status >= 500) failures.push(`${label}: ${response.body.slice(0, 200)}`);
      if (status < 300 && String(response.headers['content-type']).startsWith('application/json')) {
        // An API answer: no integer parameter was written another way than in digits, no date outside 1900–2200.
        for (const [name, value] of url === `${path}?${query}` ? params : []) {
          if (INTEGER_PARAMS.has(name) && BAD_NUMBERS.has(value)) failures.push(`${label}: ${name}=${JSON.stringify(value)} was accepted`);
          if (DATE_PARAMS.has(name) && yearOutOfRange(value) !== null) failures.push(`${label}: ${name}=${value} was accepted`);
        }
      }
      // A link out of the UI folder answers the page (the UI's fallback) or 404, never the file it points to.
      if (LINKED.includes(path) && LEAKED.test(response.body)) failures.push(`${label}: a symbolic link out of the UI folder was served`);
      else if (status >= 400 && method !== 'HEAD') {
        const type = String(response.headers['content-type']);
        if (!type.startsWith('application/problem+json')) failures.push(`${label}: content-type ${type}`);
        else {
          const body = response.json<{ status: number; code: string }>();
          if (body.status !== status || typeof body.code !== 'string') failures.push(`${label}: bad problem body ${response.body.slice(0, 200)}`);
        }
      }
    }
    expect(failures, failures.slice(0, 10).join('\n')).toEqual([]);
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('refuses 1,000 random number forms and out-of-range dates on parameters their routes take, beside valid ones: 400 naming them', async () => {
    const random = seededRandom(20261126);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    // Each GET of the table with the integer and date parameters its query schema takes, from its sample request.
    const routes = sampledRoutes().flatMap((route) => {
      const spec = ROUTES[route.key];
      if (route.method !== 'GET' || spec.kind !== 'json' || !('query' in spec)) return [];
      const properties: Array<[string, { type?: unknown; pattern?: unknown }]> = Object.entries(spec.query.properties);
      const integers = properties.filter(([, schema]) => schema.type === 'integer').map(([name]) => name);
      const dates = properties.filter(([, schema]) => typeof schema.pattern === 'string' && DATE_TEXT_PATTERNS.includes(schema.pattern)).map(([name]) => name);
      return integers.length + dates.length === 0 ? [] : [{ path: route.path, base: route.sample.query ?? '', integers, dates }];
    });
    expect(routes.length, 'the table has routes with integer and date parameters').toBeGreaterThanOrEqual(15);
    const numbers = [...BAD_NUMBERS].filter((value) => value !== '');
    const dates = HOSTILE.filter((value) => /^\d{4}-/.test(value) && yearOutOfRange(value) !== null);
    const failures: string[] = [];
    for (let i = 0; i < 1000; i += 1) {
      const route = pick(routes);
      const useDate = route.integers.length === 0 || (route.dates.length > 0 && random() < 0.5);
      const name = pick(useDate ? route.dates : route.integers);
      const value = useDate ? (name === 'expirations' ? `2099-01-16,${pick(dates)}` : pick(dates)) : pick(numbers);
      const query = new URLSearchParams(route.base);
      query.delete(name);
      query.append(name, value);
      const response = await t.request(`${route.path}?${query.toString()}`);
      const body = response.json<{ code?: string; errors?: Array<{ param: string }> }>();
      if (response.statusCode !== 400 || body.code !== 'INVALID_PARAMETER' || body.errors?.[0]?.param !== name) failures.push(`${route.path}?${query.toString()} → ${response.statusCode} ${response.body.slice(0, 120)}`);
    }
    expect(failures, failures.slice(0, 10).join('\n')).toEqual([]);
  });

  it('never serves a symbolic link that leads out of the UI folder, whoever asks, however it is spelled', async () => {
    const page = (await t.app.inject({ url: '/journal', headers: { host: HOST } })).body;
    for (const path of [...LINKED, '/%6ceak', '/x/../leak', '/up/strikebook.db', '/etc-link/hostname', '/etc-link/passwd.txt', '/up/api-key.js']) {
      for (const authorization of [undefined, `Bearer ${t.key}`]) {
        const response = await t.app.inject({ url: path, headers: { host: HOST, ...(authorization === undefined ? {} : { authorization }) } });
        // A path without an extension is a page of the UI (its fallback); one with an extension is a file: 404.
        if (response.statusCode === 200) expect(response.body, path).toBe(page);
        else expect(response.statusCode, path).toBe(404);
        expect(response.body, path).not.toMatch(LEAKED);
      }
    }
    expect((await t.app.inject({ url: '/assets/app.js', headers: { host: HOST } })).statusCode, 'files of the folder are served').toBe(200);
  });
});

describe('hostile bodies on the manual-entry routes (docs/journal.md, "Manual entries")', () => {
  // An app of its own: the requests above rotate the key.
  const w = useTestApp();

  it('the manual-entry write routes: huge, deeply nested, wrong types, 10,000 rows (stored), 10,001 rows (400)', async () => {
    const row = { account: 'Fuzz', type: 'DEPOSIT', amount: 1, date: '2024-01-02' };
    const rows = (n: number) => JSON.stringify({ transactions: new Array(n).fill(row) });
    const depth = 200_000;
    // The POST body is {transactions: [...]}, the PUT body one row: each is sent to both, and what the other route
    // expects is a shape error (400), or for a good row, a PUT naming no stored row (404).
    const bodies: Array<{ label: string; body: string; post: number; put: number }> = [
      { label: 'huge (3 MB)', body: JSON.stringify({ transactions: [{ ...row, description: 'x'.repeat(3 * 1024 * 1024) }] }), post: 413, put: 413 },
      { label: 'deeply nested arrays', body: `{"transactions":${'['.repeat(depth)}${']'.repeat(depth)}}`, post: 400, put: 400 },
      { label: 'deeply nested objects', body: `{"transactions":[${'{"a":'.repeat(depth / 2)}1${'}'.repeat(depth / 2)}]}`, post: 400, put: 400 },
      { label: 'not JSON', body: '{"transactions":[', post: 400, put: 400 },
      { label: 'numbers as text', body: JSON.stringify({ transactions: [{ ...row, amount: '1' }] }), post: 400, put: 400 },
      { label: 'a row with numbers as text', body: JSON.stringify({ ...row, amount: '1' }), post: 400, put: 400 },
      { label: 'null row', body: '{"transactions":[null]}', post: 400, put: 400 },
      { label: 'a number', body: '42', post: 400, put: 400 },
      { label: 'infinite and huge numbers', body: '{"account":"A","type":"BUY","symbol":"X","quantity":1e400,"price":9007199254740993,"date":"2024-01-02"}', post: 400, put: 400 },
      { label: 'unicode and injection strings', body: JSON.stringify({ transactions: [{ ...row, account: "'; DROP TABLE transactions; --\u202e🚀", description: '<script>' }] }), post: 201, put: 400 },
      { label: 'a good row', body: JSON.stringify(row), post: 400, put: 404 },
      { label: 'prototype keys', body: '{"transactions":[{"__proto__":{"polluted":true},"account":"A","type":"DEPOSIT","amount":1,"date":"2024-01-02"}]}', post: 400, put: 400 },
      { label: '10,000 rows', body: rows(10_000), post: 201, put: 400 },
      { label: '10,001 rows', body: rows(10_001), post: 400, put: 400 },
    ];
    const failures: string[] = [];
    for (const { label, body, post, put } of bodies) {
      for (const [method, url, want] of [['POST', '/v1/journal/transactions', post], ['PUT', '/v1/journal/transactions/mtx_00', put]] as const) {
        const response = await w.app.inject({ method, url, headers: { host: HOST, authorization: `Bearer ${w.key}`, 'content-type': 'application/json' }, payload: body });
        const status = response.statusCode;
        if (status !== want) failures.push(`${method} ${label}: ${status} (expected ${want}) ${response.body.slice(0, 200)}`);
        if (status >= 400 && !String(response.headers['content-type']).startsWith('application/problem+json')) failures.push(`${method} ${label}: not a problem body`);
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('POST /v1/journal/expirations: hostile bodies are 4xx problems, 1,001 items 400, nothing booked', async () => {
    const item = { accountId: 'acc_nope', symbol: 'XYZ240621P00045000' };
    const bodies: Array<{ label: string; body: string; want: number }> = [
      { label: 'huge (3 MB)', body: JSON.stringify({ items: [{ ...item, symbol: 'X'.repeat(3 * 1024 * 1024) }] }), want: 413 },
      { label: 'deeply nested', body: `{"items":${'['.repeat(200_000)}${']'.repeat(200_000)}}`, want: 400 },
      { label: 'not JSON', body: '{"items":[', want: 400 },
      { label: 'empty list', body: '{"items":[]}', want: 400 },
      { label: 'a number as symbol', body: JSON.stringify({ items: [{ ...item, symbol: 45 }] }), want: 400 },
      { label: 'injection in the symbol', body: JSON.stringify({ items: [{ ...item, symbol: "'; DROP TABLE transactions; --" }] }), want: 400 },
      { label: 'unknown field', body: JSON.stringify({ items: [{ ...item, quantity: 1 }] }), want: 400 },
      { label: 'prototype keys', body: '{"items":[{"__proto__":{"polluted":true},"accountId":"a","symbol":"X"}]}', want: 400 },
      { label: 'an account the journal lacks', body: JSON.stringify({ items: [item] }), want: 400 },
      { label: '1,001 items', body: JSON.stringify({ items: new Array(1001).fill(item) }), want: 400 },
    ];
    const failures: string[] = [];
    for (const { label, body, want } of bodies) {
      const response = await w.app.inject({ method: 'POST', url: '/v1/journal/expirations', headers: { host: HOST, authorization: `Bearer ${w.key}`, 'content-type': 'application/json' }, payload: body });
      if (response.statusCode !== want) failures.push(`${label}: ${response.statusCode} (expected ${want}) ${response.body.slice(0, 200)}`);
      if (!String(response.headers['content-type']).startsWith('application/problem+json')) failures.push(`${label}: not a problem body`);
    }
    expect(failures, failures.join('\n')).toEqual([]);
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});

describe('hostile values of the settings, export and manual bodies (issue 29, finding 6 and 8)', () => {
  const w = useTestApp();

  it('each is a 400 naming its field, never a 5xx or a stored value', async () => {
    const send = (method: 'POST' | 'PUT', url: string, body: unknown) =>
      w.app.inject({ method, url, headers: { host: HOST, authorization: `Bearer ${w.key}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    const source = (baseUrl: string) => ({ onlineSource: { enabled: true, baseUrl, watchlist: ['SPX'], intervalSeconds: 60 } });
    const buy = (fields: Record<string, unknown>) => ({ transactions: [{ account: 'Fuzz', type: 'BUY', symbol: 'X', quantity: 1, price: 1, date: '2024-01-02', ...fields }] });
    const cases: Array<[method: 'POST' | 'PUT', url: string, body: unknown, param: string]> = [
      ...['http://u:p@cdn.example/x', 'http://cdn.example/x\r\nX: y', 'http://cdn.example:99999/', 'http://cdn.example:0/', 'http://169.254.169.254/', 'http://[fe80::1]/', 'http://[::ffff:a9fe:a9fe]/', 'http://2852039166/', 'http://metadata.google.internal/', 'ftp://x/', 'http://x/?q=1', 'http://x/\u0000'].map(
        (url): ['PUT', string, unknown, string] => ['PUT', '/v1/settings', source(url), 'onlineSource.baseUrl'],
      ),
      ...['http://*.x.com', 'https://x.com:*', 'http://x_y.example', 'http://x.example\t'].map((origin): ['PUT', string, unknown, string] => ['PUT', '/v1/settings', { corsOrigins: [origin] }, 'corsOrigins.0']),
      ['POST', '/v1/exports', { from: '9999-12-31' }, 'from'],
      // A restore names a backup of the list, never a path; the backups kept are 1–100 (issue 29, item 7).
      ...['../strikebook.db', '/etc/passwd', 'strikebook-2026-11-20T15-00-00-000Z-daily.db/../../x.db', 'strikebook.db', ''].map((name): ['POST', string, unknown, string] => ['POST', '/v1/backups/restore', { name }, 'name']),
      ...[0, 101, 1.5, -1].map((backupsKept): ['PUT', string, unknown, string] => ['PUT', '/v1/settings', { backupsKept }, 'backupsKept']),
      ['POST', '/v1/exports', { to: '0001-01-01' }, 'to'],
      ['POST', '/v1/exports', { to: '2200-12-31T23:00:00-14:00' }, 'to'],
      ['POST', '/v1/journal/transactions', buy({ quantity: 1e9, price: 1e9 }), 'transactions.0.amount'],
      ['POST', '/v1/journal/transactions', buy({ type: 'SELL_TO_OPEN', expiration: '2024-03-15', strike: 1, right: 'P', quantity: 1e9, price: 1e9 }), 'transactions.0.amount'],
      ['POST', '/v1/journal/transactions', buy({ date: '2200-12-31T23:00:00-14:00' }), 'transactions.0.date'],
      ['POST', '/v1/journal/transactions', buy({ date: '1900-01-01T00:00:00+14:00' }), 'transactions.0.date'],
      // Issue 30: folders the server would read (a backfill) or move files out of (the watch folder), and schedule times.
      ...['chains', '../../etc', '/', '/proc/self', '/dev', 'C:relative', `/tmp/x\u0000y`, '/definitely/not/here'].flatMap((path): Array<['POST' | 'PUT', string, unknown, string]> => [
        ['POST', '/v1/chains/backfill', { path }, 'path'],
        ['PUT', '/v1/settings', { watchFolder: path }, 'watchFolder'],
      ]),
      ...['24:00', '9:45', '09:60', '', '09:45 '].map((time): ['PUT', string, unknown, string] => ['PUT', '/v1/settings', { refreshSchedule: ['15:45', time] }, 'refreshSchedule.1']),
    ];
    const before = (await w.get<Record<string, unknown>>('/v1/settings')).body;
    const failures: string[] = [];
    for (const [method, url, body, param] of cases) {
      const response = await send(method, url, body);
      const label = `${method} ${url} ${JSON.stringify(body).slice(0, 160)}`;
      const problem = response.json<{ errors?: Array<{ param: string }> }>();
      if (response.statusCode !== 400) failures.push(`${label}: ${response.statusCode} ${response.body.slice(0, 200)}`);
      else if (problem.errors?.[0]?.param !== param) failures.push(`${label}: names ${problem.errors?.[0]?.param ?? 'nothing'}, not ${param}`);
    }
    expect(failures, failures.join('\n')).toEqual([]);
    expect((await w.get<Record<string, unknown>>('/v1/settings')).body, 'no setting changed').toEqual(before);
    expect(w.ctx.db.prepare<[], number>('SELECT COUNT(*) FROM transactions').pluck().get(), 'no row stored').toBe(0);
  });
});

describe('hostile bodies on POST /journal/reconcile (docs/journal.md §Reconciliation)', () => {
  const w = useTestApp();

  it('huge, deeply nested, prototype keys, wrong types, too many positions: 413 or a 422 problem, never a 5xx; nothing saved', async () => {
    const depth = 200_000;
    const many = (n: number) => JSON.stringify({ positions: new Array(n).fill({ symbol: 'KO', quantity: 1 }) });
    const bodies: Array<{ label: string; body: string; type: string; want: number }> = [
      { label: 'huge (6 MB)', body: `symbol,quantity\n${'AAPL,1\n'.repeat(900_000)}`, type: 'text/csv', want: 413 },
      { label: 'deeply nested arrays', body: `{"positions":${'['.repeat(depth)}${']'.repeat(depth)}}`, type: 'application/json', want: 422 },
      { label: 'deeply nested objects', body: `{"positions":[${'{"a":'.repeat(depth / 2)}1${'}'.repeat(depth / 2)}]}`, type: 'application/json', want: 422 },
      { label: 'not JSON', body: '{"positions":[', type: 'application/json', want: 422 },
      { label: 'prototype keys', body: '{"positions":[{"__proto__":{"polluted":true},"symbol":"KO","quantity":1}]}', type: 'application/json', want: 422 },
      { label: 'numbers as text', body: '{"positions":[{"symbol":"KO","quantity":"1"}]}', type: 'application/json', want: 422 },
      { label: 'a number', body: '42', type: 'application/json', want: 422 },
      { label: '20,001 positions (JSON)', body: many(20_001), type: 'application/json', want: 422 },
      { label: '20,001 positions (CSV)', body: `symbol,quantity\n${'KO,1\n'.repeat(20_001)}`, type: 'text/csv', want: 422 },
      { label: 'binary', body: '\u0000\u0001\u0002PK', type: 'application/octet-stream', want: 422 },
      { label: '20,000 positions', body: many(20_000), type: 'application/json', want: 200 },
    ];
    const failures: string[] = [];
    for (const { label, body, type, want } of bodies) {
      const response = await w.app.inject({ method: 'POST', url: '/v1/journal/reconcile?save=true', headers: { host: HOST, authorization: `Bearer ${w.key}`, 'content-type': type }, payload: body });
      if (response.statusCode !== want) failures.push(`${label}: ${response.statusCode} (expected ${want}) ${response.body.slice(0, 200)}`);
      if (response.statusCode >= 400 && !String(response.headers['content-type']).startsWith('application/problem+json')) failures.push(`${label}: not a problem body`);
    }
    expect(failures, failures.join('\n')).toEqual([]);
    expect(Object.prototype).not.toHaveProperty('polluted');
    const saved = await w.app.inject({ method: 'GET', url: '/v1/journal/reconciliations', headers: { host: HOST, authorization: `Bearer ${w.key}` } });
    expect(saved.json<{ reconciliations: unknown[] }>().reconciliations, 'only the good file was saved').toHaveLength(1);
  });
});

describe('hostile bodies on the corporate-action routes (docs/journal.md §Corporate actions)', () => {
  const w = useTestApp();

  it('huge, deeply nested, wrong types, prototype keys: 400 or 413 problems, nothing stored', async () => {
    const good = { type: 'split', symbol: 'X', ratio: 2, date: '2024-01-02' };
    const depth = 200_000;
    const bodies: Array<{ label: string; body: string; status: number }> = [
      { label: 'huge (3 MB)', body: JSON.stringify({ ...good, note: 'x'.repeat(3 * 1024 * 1024) }), status: 413 },
      { label: 'deeply nested', body: `{"type":${'['.repeat(depth)}${']'.repeat(depth)}}`, status: 400 },
      { label: 'not JSON', body: '{"type":', status: 400 },
      { label: 'a ratio as text', body: JSON.stringify({ ...good, ratio: '2' }), status: 400 },
      { label: 'an infinite ratio', body: '{"type":"split","symbol":"X","ratio":1e400,"date":"2024-01-02"}', status: 400 },
      { label: 'a symbol of injection', body: JSON.stringify({ ...good, symbol: "'; DROP TABLE corporate_actions; --" }), status: 400 },
      { label: 'prototype keys', body: '{"__proto__":{"polluted":true},"type":"split","symbol":"X","ratio":2,"date":"2024-01-02"}', status: 400 },
      { label: 'an unknown field', body: JSON.stringify({ ...good, extra: 1 }), status: 400 },
      { label: 'an array', body: '[1,2]', status: 400 },
    ];
    const failures: string[] = [];
    for (const { label, body, status } of bodies) {
      for (const [method, url] of [['POST', '/v1/journal/corporate-actions'], ['PUT', '/v1/journal/corporate-actions/1']] as const) {
        const response = await w.app.inject({ method, url, headers: { host: HOST, authorization: `Bearer ${w.key}`, 'content-type': 'application/json' }, payload: body });
        if (response.statusCode !== status) failures.push(`${method} ${label}: ${response.statusCode} (expected ${status}) ${response.body.slice(0, 200)}`);
        if (!String(response.headers['content-type']).startsWith('application/problem+json')) failures.push(`${method} ${label}: not a problem body`);
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
    expect(w.ctx.db.prepare('SELECT COUNT(*) FROM corporate_actions').pluck().get()).toBe(0);
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});
