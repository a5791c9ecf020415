/**
 * The HTTP server under the app (docs/conventions.md §HTTP API, "Connections and timeouts"): how long a request may
 * take to arrive, how many connections are served at once, and the answers Node's own server would otherwise send
 * bare (a missing Host, an unknown Expect): every one of them is problem+json.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { makeProblem } from '../../src-shared/api/errors';
import { answerAndClose, refuseConnect } from './client-errors';
import { ConnectionBook } from './connections';

/** A request (its line, headers and body) must have arrived within this time, else 408 REQUEST_TIMEOUT. */
export const REQUEST_TIMEOUT_MS = 30_000;
/**
 * Its line and headers within this time (from the connection, or from the first byte of the next request on a
 * keep-alive), else 408: a socket that sends nothing, or its headers a byte at a time, holds no place for long.
 */
export const HEADERS_TIMEOUT_MS = 5_000;
/** Connections served at once (streams apart): past it the one idle longest is closed, or the new one refused (503). */
export const MAX_CONNECTIONS = 256;
/** Places of the cap that requests without a key to public routes cannot take: health's and the keys' (connections.ts). */
export const RESERVED_CONNECTIONS = 32;
/** Event streams one key holds at once (429 TOO_MANY_STREAMS past it), and all keys together; counted apart from the cap. */
export const STREAMS_PER_KEY = 16;
export const MAX_STREAMS = 64;
/** What a refused connection is told to wait before trying again. */
export const CONNECTIONS_RETRY_AFTER_SECONDS = 1;

export interface ListenerOptions {
  /** Default REQUEST_TIMEOUT_MS (tests shorten it). */
  requestTimeoutMs?: number;
  /** Default HEADERS_TIMEOUT_MS, and never more than the request timeout (tests shorten it). */
  headersTimeoutMs?: number;
  /** Default MAX_CONNECTIONS (tests lower it). */
  maxConnections?: number;
  /** Default RESERVED_CONNECTIONS (tests lower it with the cap). */
  reservedConnections?: number;
  /** Defaults STREAMS_PER_KEY and MAX_STREAMS. */
  streamsPerKey?: number;
  maxStreams?: number;
}

/** The book of connections for these options (the app shares it between the listener, the gate and the stream). */
export function connectionBook(options: ListenerOptions = {}): ConnectionBook {
  const max = options.maxConnections ?? MAX_CONNECTIONS;
  return new ConnectionBook({
    max,
    reserved: Math.min(max, options.reservedConnections ?? Math.min(RESERVED_CONNECTIONS, Math.floor(max / 8))),
    streamsPerKey: options.streamsPerKey ?? STREAMS_PER_KEY,
    maxStreams: options.maxStreams ?? MAX_STREAMS,
  });
}

/**
 * The node:http server for Fastify's serverFactory. Node's checks of Host (a bare 400) and Expect (a bare 417) are
 * replaced by problem answers: a missing Host is the gate's to refuse (gate.ts), an Expect other than 100-continue
 * is answered here. `handle` gets every other request.
 */
export function createListener(handle: RequestListener, options: ListenerOptions = {}, book: ConnectionBook = connectionBook(options)): Server {
  const requestTimeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const headersTimeoutMs = Math.min(options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS, requestTimeoutMs);
  const server = createServer(
    {
      requireHostHeader: false,
      requestTimeout: requestTimeoutMs,
      headersTimeout: headersTimeoutMs,
      // Node looks for requests past their time only this often (default 30 s, which would be six times the 5 s).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeoutMs / 10))),
    },
    (request, response) => {
      // In progress from its headers to the end of its response: not a connection to close to make room.
      const socket = request.socket;
      book.requestStarted(socket);
      response.once('close', () => book.requestEnded(socket));
      handle(request, response);
    },
  );
  server.on('connect', refuseConnect);
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const expect = String(request.headers.expect ?? '').slice(0, 60);
    const body = JSON.stringify(makeProblem('EXPECTATION_FAILED', `Expect: "${expect}" is not supported; only 100-continue is.`));
    response.writeHead(417, { 'Content-Type': 'application/problem+json', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
    response.end(body);
  });
  capConnections(server, book);
  return server;
}

/**
 * At most `max` connections at once (connections.ts). Node's own `maxConnections` closes the excess without a word;
 * here the connection idle longest makes room, and when every place has a request in progress the new connection is
 * answered 503 TOO_MANY_CONNECTIONS with Retry-After and closed, never reaching the HTTP parser. The server's own
 * connection handling (the parser) is kept and called for the connections that are served.
 */
function capConnections(server: Server, book: ConnectionBook): void {
  const serve = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    if (!book.admit(socket)) {
      answerAndClose(socket, makeProblem('TOO_MANY_CONNECTIONS', `The server serves at most ${book.limits.max} connections at once and each has a request in progress; try again in a moment.`), { 'Retry-After': String(CONNECTIONS_RETRY_AFTER_SECONDS) });
      return;
    }
    for (const listener of serve) listener.call(server, socket);
  });
}
