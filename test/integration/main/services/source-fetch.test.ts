/**
 * The online source fetches only where its setting points (issue 29, finding 8): a 307 to another port was followed,
 * fetched and stored; a host name was never checked for the address it resolves to. Now redirects are followed by hand
 * within the configured origin (scheme, host, port), at most MAX_REDIRECTS; a host that resolves to a link-local or
 * metadata address is refused before any connection, and the connection goes to the address that was checked. A real
 * loopback server (the app) refreshing from local test servers (the source, and another origin that must get nothing).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { LookupAddress } from 'node:dns';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RefreshPassT } from '../../../../src-shared/api/schemas';
import { startServer, type RunningServer } from '../../../../src-main/serve';
import { fetchAndStoreChain, MAX_RESPONSE_BYTES } from '../../../../src-main/services/online-source';
import { createSourceFetch, MAX_REDIRECTS, type HostLookup } from '../../../../src-main/services/source-fetch';
import { manualClock } from '../../../clock';
import { smallChain } from '../../../delayed-quotes';
import { tempDir } from '../../../paths';

let source: Server;
let other: Server;
let sourcePort = 0;
let otherPort = 0;
let sourceRequests: string[] = [];
let otherRequests: string[] = [];

/** The source: redirects of every kind by the first path segment, and chains under /api/options/. */
function serveSource(request: IncomingMessage, response: ServerResponse): void {
  const url = request.url ?? '';
  sourceRequests.push(`${String(request.headers.host)}${url}`);
  const [, kind = '', file = ''] = /^\/([a-z-]+)\/(?:[a-z-]+\/)?(.*)$/.exec(url) ?? [];
  const redirect = (status: number, location: string) => response.writeHead(status, { location }).end();
  switch (kind) {
    case 'api':
      response.writeHead(200, { 'content-type': 'application/json' }).end(smallChain(file.replace(/^_|\.json$/g, '')));
      return;
    case 'same':
      redirect(307, `/api/options/${file}`);
      return;
    case 'same-absolute':
      redirect(301, `http://127.0.0.1:${sourcePort}/api/options/${file}`);
      return;
    case 'other-port':
      redirect(307, `http://127.0.0.1:${otherPort}/api/options/${file}`);
      return;
    case 'other-host':
      redirect(302, `http://localhost:${sourcePort}/api/options/${file}`);
      return;
    case 'other-scheme':
      redirect(308, `https://127.0.0.1:${sourcePort}/api/options/${file}`);
      return;
    case 'metadata':
      redirect(302, 'http://169.254.169.254/latest/meta-data/');
      return;
    case 'gzip':
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(smallChain(file.replace(/\.json$/, ''))));
      return;
    case 'bomb':
      // 8 MB of spaces in about 8 KB: past a 1 MB cap once decoded.
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20)));
      return;
    case 'loop':
      redirect(302, `/loop/options/${file}`);
      return;
    default:
      response.writeHead(404).end();
  }
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return typeof address === 'object' && address !== null ? address.port : 0;
}

let app: RunningServer;
const clock = manualClock('2099-11-20T20:00:00Z');

beforeAll(async () => {
  source = createServer(serveSource);
  other = createServer((request, response) => {
    otherRequests.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'application/json' }).end(smallChain('SPY'));
  });
  sourcePort = await listen(source);
  otherPort = await listen(other);
  app = await startServer({ dataDir: tempDir(), port: 0, uiDir: null, clock });
});
afterAll(async () => {
  await app?.close();
  for (const server of [source, other]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

// Each test counts the requests of its own fetches.
beforeEach(() => {
  sourceRequests = [];
  otherRequests = [];
});

const headers = () => ({ authorization: `Bearer ${app.apiKey}`, 'content-type': 'application/json' });

/** One refresh pass of SPY from `baseUrl`: the symbol's state and error, and how many snapshots it stored. */
async function refreshFrom(baseUrl: string): Promise<{ state: string; error: string | undefined; snapshots: number }> {
  const count = () => app.ctx.db.prepare<[], number>('SELECT COUNT(*) FROM snapshots').pluck().get() ?? -1;
  const before = count();
  const put = await fetch(`${app.apiBaseUrl}/settings`, { method: 'PUT', headers: headers(), body: JSON.stringify({ onlineSource: { enabled: false, baseUrl, watchlist: ['SPY'], intervalSeconds: 300 }, watchlistIncludesPositions: false }) });
  expect(put.status, await put.clone().text()).toBe(200);
  const started = await fetch(`${app.apiBaseUrl}/chains/refresh`, { method: 'POST', headers: { authorization: `Bearer ${app.apiKey}` } });
  expect(started.status).toBe(202);
  await app.ctx.refresh.settled();
  const pass = (await (await fetch(`${app.apiBaseUrl}/chains/refresh`, { headers: headers() })).json()) as RefreshPassT;
  const spy = pass.symbols.find((s) => s.symbol === 'SPY');
  // The snapshots this pass stored (other tests store theirs in the same app).
  const snapshots = count() - before;
  // An address the source's rules refuse is the whole source's problem (source-health.ts): said once on the pass, its
  // symbols skipped; any other failure is the symbol's own.
  return { state: spy?.state ?? 'absent', error: spy?.error ?? pass.sourceProblem, snapshots };
}

describe('redirects of the online source', () => {
  it('a 307 to another port is not followed: the pass says why, the other server gets nothing, nothing is stored', async () => {
    sourceRequests = [];
    otherRequests = [];
    const result = await refreshFrom(`http://127.0.0.1:${sourcePort}/other-port/options`);
    expect(result.state, 'the source is refused as a whole: the symbol is skipped, the pass says why').toBe('skipped');
    expect(result.error).toMatch(new RegExp(`redirected to http://127\\.0\\.0\\.1:${otherPort}, outside the source's origin http://127\\.0\\.0\\.1:${sourcePort}`));
    expect(otherRequests, 'the other origin was never asked').toEqual([]);
    expect(result.snapshots).toBe(0);
  });

  it('another host name (localhost for 127.0.0.1), another scheme, a metadata address: not followed either', async () => {
    for (const kind of ['other-host', 'other-scheme', 'metadata']) {
      const result = await refreshFrom(`http://127.0.0.1:${sourcePort}/${kind}/options`);
      expect(result.state, kind).toBe('skipped');
      expect(result.error, kind).toMatch(/outside the source's origin/);
    }
    expect(sourceRequests.filter((r) => r.includes('/api/')), 'no redirect reached the chain').toEqual([]);
  });

  it(`redirects within the origin are followed, relative or absolute; more than ${MAX_REDIRECTS} are refused`, async () => {
    const same = await refreshFrom(`http://127.0.0.1:${sourcePort}/same/options`);
    expect(same).toMatchObject({ state: 'stored', snapshots: 1 });
    const absolute = await refreshFrom(`http://127.0.0.1:${sourcePort}/same-absolute/options`);
    expect(absolute.state).toBe('stored');
    sourceRequests = [];
    const loop = await refreshFrom(`http://127.0.0.1:${sourcePort}/loop/options`);
    expect(loop.state).toBe('failed');
    expect(loop.error).toMatch(new RegExp(`more than ${MAX_REDIRECTS} redirects`));
    expect(sourceRequests.length, 'the first request and its redirects, no more').toBe(MAX_REDIRECTS + 1);
  });
});

describe('the addresses a host name resolves to', () => {
  /** A resolver that knows `chains.test` (the test's stand-in for DNS) and counts its questions. */
  function resolverTo(address: string, family: 4 | 6 = 4): { lookup: HostLookup; asked: string[] } {
    const asked: string[] = [];
    const lookup: HostLookup = (hostname, _options, callback) => {
      asked.push(hostname);
      const addresses: LookupAddress[] = [{ address, family }];
      callback(null, addresses);
    };
    return { lookup, asked };
  }

  const ctx = () => ({ clock, exposure: app.ctx.exposure });
  const limits = { timeoutMs: 5000, maxBytes: MAX_RESPONSE_BYTES };

  it('a name that resolves to 169.254.169.254 (or fe80::1) is refused before any connection, saying what it resolved to', async () => {
    for (const [address, family, reason] of [
      ['169.254.169.254', 4, /chains\.test resolves to 169\.254\.169\.254, a cloud metadata address/],
      ['169.254.7.7', 4, /resolves to 169\.254\.7\.7, a link-local address/],
      ['fe80::1', 6, /resolves to fe80::1, a link-local address/],
    ] as const) {
      sourceRequests = [];
      const { lookup, asked } = resolverTo(address, family);
      const attempt = fetchAndStoreChain(ctx(), `http://chains.test:${sourcePort}/api/options`, 'SPY', createSourceFetch({ lookup }), limits);
      await expect(attempt, address).rejects.toThrow(reason);
      expect(asked).toEqual(['chains.test']);
      expect(sourceRequests, 'nothing reached any server').toEqual([]);
    }
  });

  it('a name that resolves to loopback is fetched from the address that was checked (the Host names the name)', async () => {
    sourceRequests = [];
    const { lookup } = resolverTo('127.0.0.1');
    const stored = await fetchAndStoreChain(ctx(), `http://chains.test:${sourcePort}/api/options`, 'QQQ', createSourceFetch({ lookup }), limits);
    expect(stored.contracts).toBe(10);
    expect(sourceRequests).toEqual([`chains.test:${sourcePort}/api/options/QQQ.json`]);
  });

  it('a connection kept from a fetch of the same name is not reused by a fetcher that resolves it elsewhere: checked again', async () => {
    // Found by running this file shuffled: the loopback test's socket to chains.test stayed in node's global agent, and
    // the metadata test's fetcher sent its request on it without asking its resolver (Node pools by host and port).
    const loopback = resolverTo('127.0.0.1');
    expect((await fetchAndStoreChain(ctx(), `http://chains.test:${sourcePort}/api/options`, 'QQQ', createSourceFetch({ lookup: loopback.lookup }), limits)).contracts).toBe(10);
    sourceRequests = [];
    const metadata = resolverTo('169.254.169.254');
    const attempt = fetchAndStoreChain(ctx(), `http://chains.test:${sourcePort}/api/options`, 'SPY', createSourceFetch({ lookup: metadata.lookup }), limits);
    await expect(attempt).rejects.toThrow(/chains\.test resolves to 169\.254\.169\.254/);
    expect(metadata.asked, 'the name was resolved by this fetcher').toEqual(['chains.test']);
    expect(sourceRequests, 'nothing reached the server').toEqual([]);
  });

  it('a URL stored before the rules (by an older version) is refused when it is fetched, with the reason', async () => {
    sourceRequests = [];
    const { lookup } = resolverTo('127.0.0.1');
    const fetcher = createSourceFetch({ lookup });
    await expect(fetchAndStoreChain(ctx(), `http://user:secret@127.0.0.1:${sourcePort}/api/options`, 'SPY', fetcher, limits)).rejects.toThrow(/user name or password/);
    await expect(fetchAndStoreChain(ctx(), `http://127.0.0.1:${sourcePort}/api/options\r\nX-Injected: 1`, 'SPY', fetcher, limits)).rejects.toThrow(/control character/);
    await expect(fetchAndStoreChain(ctx(), 'http://[fe80::1]:8080/api/options', 'SPY', fetcher, limits)).rejects.toThrow(/link-local/);
    expect(sourceRequests).toEqual([]);
  });

  it('a compressed answer is read as the global fetch reads it; one that expands past the cap is cut there', async () => {
    const stored = await fetchAndStoreChain(ctx(), `http://127.0.0.1:${sourcePort}/gzip/options`, 'DIA', createSourceFetch(), limits);
    expect(stored.contracts).toBe(10);
    const bomb = fetchAndStoreChain(ctx(), `http://127.0.0.1:${sourcePort}/bomb/options`, 'SPY', createSourceFetch(), { timeoutMs: 5000, maxBytes: 1024 * 1024 });
    await expect(bomb).rejects.toThrow(/longer than the 1 MB read/);
  });

  it('the default resolver is the system\'s (a name of the machine, localhost, is fetched)', async () => {
    const outcome = await fetchAndStoreChain(ctx(), `http://localhost:${sourcePort}/api/options`, 'IWM', createSourceFetch(), limits).then(
      (stored) => ({ stored, error: null }),
      (error: unknown) => ({ stored: null, error: String(error) }),
    );
    // localhost may resolve to ::1 first, where the test server does not listen: either it is stored, or the refusal is a connection's, never the address rule's.
    if (outcome.stored === null) expect(outcome.error).not.toMatch(/link-local|metadata|unspecified/);
    else expect(outcome.stored.contracts).toBe(10);
  });
});
