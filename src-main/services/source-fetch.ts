/**
 * How the online source reaches the network (docs/architecture.md §Reliability and security; issue 29, finding 8):
 * only where its setting points. The address is held to the rules of the setting (setting-rules.ts) each time it is
 * used; a host name is resolved here and every address it resolves to is checked (link-local and cloud metadata
 * addresses refused), then the connection goes to the address that was checked, never to a second resolution;
 * redirects are followed by hand, within the configured origin (scheme, host, port), at most MAX_REDIRECTS.
 */
import { lookup as systemLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { pipeline, Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { addressProblem, sourceUrlProblem } from '../setting-rules';

/** Redirects followed within the source's origin before the fetch is given up. */
export const MAX_REDIRECTS = 3;
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** A GET of the source: the global fetch has this shape too (tests pass it), without the address check of the resolver. */
export type SourceFetch = (url: string, init: { signal: AbortSignal; redirect: 'manual' }) => Promise<Response>;

/** A resolver with the shape of dns.lookup called with `all: true` (tests give one that knows their names). */
export type HostLookup = (hostname: string, options: LookupOptions & { all: true }, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const resolveWithSystem: HostLookup = (hostname, options, callback) => systemLookup(hostname, options, callback);

/** A refusal of the source's address, with the reason the message gives. */
export class SourceAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceAddressError';
  }
}

/**
 * The lookup of the connection: every address the name resolves to must pass addressProblem (one bad address is a
 * refusal: which one a connection would use is not ours to guess), and the connection gets those same addresses.
 */
function checkedLookup(resolve: HostLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) {
        callback(error, '', 4);
        return;
      }
      for (const { address } of addresses) {
        const problem = addressProblem(address);
        if (problem !== null) {
          callback(new SourceAddressError(`the online source's host ${hostname} resolves to ${address}, ${problem}: refused`), '', 4);
          return;
        }
      }
      const [first] = addresses;
      if (options.all === true) callback(null, addresses);
      else if (first === undefined) callback(Object.assign(new Error(`the online source's host ${hostname} has no address`), { code: 'ENOTFOUND' }), '', 4);
      else callback(null, first.address, first.family);
    });
  };
}

function webHeaders(headers: IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) out.append(name, one);
  }
  return out;
}

/**
 * The body as sent before its content coding, as the global fetch gives it (the caller's cap counts these bytes, so
 * a small compressed body that expands without end is cut at the cap like any other). `headers` lose the coding and
 * the length, which were the compressed body's.
 */
function decoded(response: IncomingMessage, headers: Headers): Readable {
  const coding = (response.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder = coding === 'gzip' || coding === 'x-gzip' ? createGunzip() : coding === 'deflate' ? createInflate() : coding === 'br' ? createBrotliDecompress() : null;
  if (decoder === null) return response;
  headers.delete('content-encoding');
  headers.delete('content-length');
  // An error on either side (a broken stream, a transfer cut) ends both; the reader sees it as the body's error.
  return pipeline(response, decoder, () => undefined);
}

/**
 * GET over node:http(s) whose connections go only to addresses that passed the check (`lookup` is the system's unless a
 * test gives its own). An IP literal is not resolved: its text was checked with the URL (sourceUrlProblem). Redirects are
 * returned, not followed (fetchFromSource follows them).
 */
export function createSourceFetch(options: { lookup?: HostLookup } = {}): SourceFetch {
  const lookup = checkedLookup(options.lookup ?? resolveWithSystem);
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const target = new URL(url);
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      // Compressed as the global fetch asks it (CBOE's SPX chain is ~10 MB as text): the 20 s limit is for slow lines too.
      // agent: false, a connection of its own: node's global agent pools sockets by host and port alone, so a socket
      // opened under one check (another fetcher's resolver, an earlier answer of the DNS) would carry this request
      // without `lookup` being asked. A poll every few minutes loses nothing by connecting again.
      const request = send(target, { method: 'GET', agent: false, lookup, signal: init.signal, headers: { accept: 'application/json', 'accept-encoding': 'gzip, deflate, br' } }, (response: IncomingMessage) => {
        const status = response.statusCode ?? 0;
        const bodiless = status === 204 || status === 304 || status < 200;
        if (bodiless) response.resume();
        // A status the web Response cannot carry (1xx reaching here, or past 599) is the server's error.
        if (status < 200 || status > 599) {
          response.destroy();
          reject(new Error(`the online source answered with the status ${status}`));
          return;
        }
        const headers = webHeaders(response.headers);
        resolve(new Response(bodiless ? null : (Readable.toWeb(decoded(response, headers)) as ReadableStream<Uint8Array>), { status, headers }));
      });
      // A connection never made (a host that drops the packets) is the source's failure, not the symbol's: when the time
      // limit ends a request whose socket never connected, the error says so by its code (source-health.ts).
      let connected = false;
      request.on('socket', (socket) => {
        connected = !socket.connecting;
        if (!connected) socket.once('connect', () => (connected = true));
      });
      request.on('error', (error) => {
        reject(init.signal.aborted && !connected ? Object.assign(new Error(`no connection to ${target.host} was made in time`), { code: 'ETIMEDOUT', cause: error }) : error);
      });
      request.end();
    });
}

/** `scheme://host:port` of a URL, the port written out: what a redirect must keep. */
function originOf(url: URL): string {
  const port = url.port === '' ? (url.protocol === 'https:' ? '443' : '80') : url.port;
  return `${url.protocol}//${url.hostname}:${port}`;
}

/** The origin as the user wrote it, for messages (no default port added). */
function shownOrigin(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

/**
 * GET `url`, a file of the source configured at `baseUrl`: the address rules on the setting first (a value stored
 * before them is refused here, with the reason), then redirects followed within the origin of `baseUrl` only.
 * Throws an Error that says why it stopped.
 */
export async function fetchFromSource(baseUrl: string, url: string, fetchImpl: SourceFetch, signal: AbortSignal): Promise<Response> {
  const problem = sourceUrlProblem(baseUrl);
  if (problem !== null) throw new SourceAddressError(`the online source's address ${JSON.stringify(baseUrl.slice(0, 200))} ${problem}`);
  const origin = new URL(baseUrl);
  let current = new URL(url);
  for (let hop = 0; ; hop += 1) {
    const response = await fetchImpl(current.href, { signal, redirect: 'manual' });
    if (!REDIRECT_STATUSES.has(response.status)) return response;
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (location === null) throw new Error(`HTTP ${response.status} without a Location`);
    if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects (the last to ${location.slice(0, 200)})`);
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new Error(`HTTP ${response.status} to ${JSON.stringify(location.slice(0, 200))}, which is not a URL`);
    }
    if (originOf(next) !== originOf(origin)) {
      throw new SourceAddressError(`redirected to ${shownOrigin(next)}, outside the source's origin ${shownOrigin(origin)}: redirects are followed only within it (set the address the source redirects to in Settings, if it is the right one)`);
    }
    current = next;
  }
}
