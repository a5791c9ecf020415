/**
 * Every error is problem+json, the HTTP parser's and the framework's included (docs/conventions.md §HTTP API, issue 8). Raw bytes
 * over a real socket: inject never reaches Node's parser.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../../src-main/serve';
import { MAX_TARGET_LENGTH } from '../../../../src-main/server/target';
import { tempDir } from '../../../paths';

let server: RunningServer;

/** Writes `bytes` in one piece and reads until the server closes or answers (status, headers, body). */
function exchange(bytes: string): Promise<{ status: number; headers: Record<string, string>; body: string; raw: string }> {
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(server.port, '127.0.0.1', () => socket.write(bytes));
    const finish = () => {
      const [head = '', body = ''] = received.split('\r\n\r\n', 2);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body, raw: received });
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      const length = /content-length:\s*(\d+)/i.exec(received)?.[1];
      const headEnd = received.indexOf('\r\n\r\n');
      if (length !== undefined && headEnd !== -1 && received.length >= headEnd + 4 + Number(length)) {
        socket.destroy();
        finish();
      }
    });
    socket.on('close', finish);
    socket.on('error', reject);
  });
}

function problemOf(answer: { status: number; headers: Record<string, string>; body: string; raw: string }): { status: number; code: string } {
  expect(answer.headers['content-type'], answer.raw.slice(0, 200)).toMatch(/^application\/problem\+json/);
  const problem = JSON.parse(answer.body) as { status: number; code: string; detail: string; title: string };
  expect(problem.status).toBe(answer.status);
  expect(problem.detail.length).toBeGreaterThan(10);
  return problem;
}

beforeAll(async () => {
  server = await startServer({ dataDir: tempDir(), port: 0, uiDir: null });
});
afterAll(async () => {
  await server?.close();
});

describe('HTTP parser and framework errors are problem+json', () => {
  const host = () => `Host: 127.0.0.1:${server.port}\r\n`;

  it('400 for a bad URL (invalid percent-encoding, control characters, a fragment, a bare *)', async () => {
    for (const target of ['/v1/%ff', '/v1/%E0%A4%A', '/v1/gex%00', '/v1/health#x', '*']) {
      const answer = await exchange(`GET ${target} HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`);
      expect(answer.status, target).toBe(400);
      expect(problemOf(answer).code, target).toBe('MALFORMED_REQUEST');
    }
    const control = await exchange(`GET /v1/\u0001 HTTP/1.1\r\n${host()}\r\n`);
    expect(control.status, 'a control byte the parser itself refuses').toBe(400);
    expect(problemOf(control).code).toBe('MALFORMED_REQUEST');
  });

  it('414 for a target too long, both where the app sees it and where the parser gives up', async () => {
    for (const length of [MAX_TARGET_LENGTH + 100, 20_000, 100_000]) {
      const answer = await exchange(`GET /v1/${'a'.repeat(length)} HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`);
      expect(answer.status, `${length} characters`).toBe(414);
      expect(problemOf(answer).code).toBe('URI_TOO_LONG');
    }
  });

  it('431 for headers too large, answered instead of a closed socket', async () => {
    const answer = await exchange(`GET /v1/health HTTP/1.1\r\n${host()}X-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
    expect(answer.status).toBe(431);
    expect(problemOf(answer).code).toBe('HEADERS_TOO_LARGE');
    const many = await exchange(`GET /v1/health HTTP/1.1\r\n${host()}${Array.from({ length: 400 }, (_, i) => `X-H${i}: ${'c'.repeat(60)}\r\n`).join('')}\r\n`);
    expect(many.status).toBe(431);
  });

  it('405 for methods the parser does not know, TRACE and CONNECT; other malformed requests 400', async () => {
    const unknown = await exchange(`FOO /v1/x HTTP/1.1\r\n${host()}\r\n`);
    expect(unknown.status).toBe(405);
    expect(problemOf(unknown).code).toBe('METHOD_NOT_ALLOWED');
    const connectTunnel = await exchange(`CONNECT 127.0.0.1:22 HTTP/1.1\r\n${host()}\r\n`);
    expect(connectTunnel.status).toBe(405);
    expect(problemOf(connectTunnel).code).toBe('METHOD_NOT_ALLOWED');
    const trace = await exchange(`TRACE /v1/health HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`);
    expect(trace.status).toBe(405);
    expect(problemOf(trace).code).toBe('METHOD_NOT_ALLOWED');
    expect(trace.headers.allow).toBe('GET, HEAD');
    for (const bytes of [`GET /v1/health HTTP/1.1\r\n${host()}Content-Length: x\r\n\r\n`, `GET /v1/health HTTP/9.9\r\n${host()}\r\n`, `GET /v1/health HTTP/1.1\r\nBad Header\r\n\r\n`, 'garbage\r\n\r\n']) {
      const answer = await exchange(bytes);
      expect(answer.status, JSON.stringify(bytes.slice(0, 40))).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      problemOf(answer);
    }
  });

  it('400 problem for a request without Host (HTTP/1.1 and 1.0) or with two; 417 problem for an unknown Expect', async () => {
    for (const bytes of ['GET /v1/health HTTP/1.1\r\nConnection: close\r\n\r\n', 'GET /v1/health HTTP/1.0\r\n\r\n', `GET /v1/health HTTP/1.1\r\n${host()}${host()}Connection: close\r\n\r\n`, 'GET /v1/journal/summary HTTP/1.0\r\n\r\n']) {
      const answer = await exchange(bytes);
      expect(answer.status, JSON.stringify(bytes)).toBe(400);
      const problem = problemOf(answer);
      expect(problem.code).toBe('MALFORMED_REQUEST');
      expect((problem as { detail?: string }).detail).toMatch(/Host/);
    }
    const expectation = await exchange(`GET /v1/health HTTP/1.1\r\n${host()}Expect: 200-ok\r\nConnection: close\r\n\r\n`);
    expect(expectation.status).toBe(417);
    expect(problemOf(expectation).code).toBe('EXPECTATION_FAILED');
    const continued = await exchange(`GET /v1/health HTTP/1.1\r\n${host()}Expect: 100-continue\r\nConnection: close\r\n\r\n`);
    expect(continued.raw, '100-continue is honoured').toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200/);
  });

  it('keeps serving after all that', async () => {
    const answer = await exchange(`GET /v1/health HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`);
    expect(answer.status).toBe(200);
  });
});
