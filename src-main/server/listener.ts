/**
 * The HTTP server under the app (docs/conventions.md §HTTP API, "Connections and timeouts"): how long a request may
 * take to arrive, how many connections are served at once, and the answers Node's own server would otherwise send
 * bare (a missing Host, an unknown Expect): every one of them is problem+json.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { makeProblem } from '../../src-shared/api/errors';
import { answerAndClose, refuseConnect } from './client-errors';

/** A request (its line, headers and body) must have arrived within this time, else 408 REQUEST_TIMEOUT. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** Connections served at once; one more is answered 503 TOO_MANY_CONNECTIONS and closed. */
export const MAX_CONNECTIONS = 256;
/** What a refused connection is told to wait before trying again. */
const BUSY_RETRY_AFTER_SECONDS = 1;

export interface ListenerOptions {
  /** Default REQUEST_TIMEOUT_MS (tests shorten it). */
  requestTimeoutMs?: number;
  /** Default MAX_CONNECTIONS (tests lower it). */
  maxConnections?: number;
}

/**
 * The node:http server for Fastify's serverFactory. Node's checks of Host (a bare 400) and Expect (a bare 417) are
 * replaced by problem answers: a missing Host is the gate's to refuse (gate.ts), an Expect other than 100-continue
 * is answered here. `handle` gets every other request.
 */
export function createListener(handle: RequestListener, options: ListenerOptions = {}): Server {
  const requestTimeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const maxConnections = options.maxConnections ?? MAX_CONNECTIONS;
  const server = createServer(
    {
      requireHostHeader: false,
      requestTimeout: requestTimeoutMs,
      headersTimeout: requestTimeoutMs,
      // Node looks for requests past their time only this often (default 30 s, which would double the 30 s).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(requestTimeoutMs / 10))),
    },
    handle,
  );
  server.on('connect', refuseConnect);
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const expect = String(request.headers.expect ?? '').slice(0, 60);
    const body = JSON.stringify(makeProblem('EXPECTATION_FAILED', `Expect: "${expect}" is not supported; only 100-continue is.`));
    response.writeHead(417, { 'Content-Type': 'application/problem+json', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
    response.end(body);
  });
  capConnections(server, maxConnections);
  return server;
}

/**
 * At most `max` connections at once. Node's own `maxConnections` closes the excess without a word; here the excess
 * connection is answered 503 TOO_MANY_CONNECTIONS with Retry-After and closed, and never reaches the HTTP parser.
 * The server's own connection handling (the parser) is kept and called for the connections that are served.
 */
function capConnections(server: Server, max: number): void {
  const serve = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  let open = 0;
  server.on('connection', (socket: Socket) => {
    if (open >= max) {
      answerAndClose(socket, makeProblem('TOO_MANY_CONNECTIONS', `The server serves at most ${max} connections at once; try again in a moment.`), { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) });
      return;
    }
    open += 1;
    socket.once('close', () => {
      open -= 1;
    });
    for (const listener of serve) listener.call(server, socket);
  });
}
