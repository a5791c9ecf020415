import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { makeProblem, type Problem } from '../../src-shared/api/errors';

/** How long a refused connection may still drain what the client sends before it is destroyed. */
const LINGER_MS = 1000;
const answered = new WeakSet<Duplex>();

/**
 * Writes a problem+json response straight to the socket and closes it. The socket keeps being read for a
 * moment: closing it with unread data would reset the connection and the client would lose the answer.
 */
export function answerAndClose(socket: Duplex, problem: Problem, headers: Record<string, string> = {}): void {
  answered.add(socket);
  // Node's HTTP server no longer listens to this socket (CONNECT, a refused connection): a reset must not crash it.
  if (socket.listenerCount('error') === 0) socket.on('error', () => undefined);
  const body = JSON.stringify(problem);
  const head = [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? ''}`,
    'Content-Type: application/problem+json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  socket.resume();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

interface ParserError {
  code?: string;
  bytesParsed?: number;
  rawPacket?: unknown;
}

/**
 * The HTTP parser's own errors. Node counts the request line and the headers against one limit (16 KB). The
 * overflow is a long target (414) when it happens where the request line ends (the target is followed by
 * " HTTP/"), or inside a piece of the request with no line end that can only be part of a request line (a
 * target split over many packets: maybe the method, then no white space, and not `Name:`); else the headers are
 * too large (431).
 */
/** A piece of a request line: maybe the method and its space, then no white space at all. */
const URL_PIECE = /^(?:[A-Z-]{1,20} )?\S*$/;
/** A header line starts with its name and a colon. */
const HEADER_START = /^[A-Z0-9-]+:/i;

function parserProblem(error: ParserError): Problem {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW': {
      const packet = Buffer.isBuffer(error.rawPacket) ? error.rawPacket : null;
      const at = error.bytesParsed ?? -1;
      const targetEnds = packet !== null && at >= 0 && packet.subarray(at, at + 6).toString('latin1') === ' HTTP/';
      const text = packet === null ? '' : packet.toString('latin1');
      const insideTarget = text !== '' && !text.includes('\n') && URL_PIECE.test(text) && !HEADER_START.test(text);
      if (targetEnds || insideTarget) {
        return makeProblem('URI_TOO_LONG', 'The request target is longer than the server reads (16 KB with the headers).');
      }
      return makeProblem('HEADERS_TOO_LARGE', 'The request line and headers are larger than the server reads (16 KB).');
    }
    case 'HPE_INVALID_METHOD':
      return makeProblem('METHOD_NOT_ALLOWED', 'The request method is not an HTTP method this server knows.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return makeProblem('REQUEST_TIMEOUT', 'The request did not arrive in time.');
    case 'HPE_INVALID_URL':
      return makeProblem('MALFORMED_REQUEST', 'The request target contains characters that are not allowed in a URL.');
    default:
      return makeProblem('MALFORMED_REQUEST', `The request is not valid HTTP/1.1 (${String(error.code ?? 'parse error').slice(0, 40)}).`);
  }
}

/** The server's `clientError` listener: every parser error is answered with a problem body (docs/conventions.md §HTTP API). */
export function answerClientError(error: ParserError, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || answered.has(socket)) return;
  // A response already under way on this socket cannot be followed by another one.
  const current = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || current?.headersSent === true) {
    socket.destroy();
    return;
  }
  answerAndClose(socket, parserProblem(error));
}

/** CONNECT (a proxy tunnel) is not served: answered instead of Node's silent close. */
export function refuseConnect(_request: IncomingMessage, socket: Duplex): void {
  answerAndClose(socket, makeProblem('METHOD_NOT_ALLOWED', 'CONNECT is not served: this is not a proxy.'), { Allow: 'GET, HEAD, POST, PUT, DELETE' });
}
