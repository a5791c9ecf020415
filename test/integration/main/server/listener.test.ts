/**
 * Connections and timeouts (docs/conventions.md §HTTP API, issue 16): a request must arrive within the request
 * timeout (30 s; 1 s here) or is answered 408 REQUEST_TIMEOUT problem+json and closed, however slowly its body
 * trickles; past the connection cap (256; 4 here) a connection is answered 503 TOO_MANY_CONNECTIONS with Retry-After
 * and closed. Real loopback servers and raw sockets.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../../src-main/serve';
import { MAX_CONNECTIONS, REQUEST_TIMEOUT_MS } from '../../../../src-main/server/listener';
import { tempDir } from '../../../paths';

const TIMEOUT_MS = 1000;
const CAP = 4;

interface Held {
  socket: Socket;
  /** Everything received so far. */
  received: () => string;
  /** Resolves with the elapsed milliseconds when the server closes the connection. */
  closed: Promise<number>;
}

function open(port: number, first?: string): Promise<Held> {
  return new Promise((resolve, reject) => {
    const startedMs = Date.now();
    let received = '';
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<number>((done) => socket.on('close', () => done(Date.now() - startedMs)));
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      if (first !== undefined) socket.write(first);
      resolve({ socket, received: () => received, closed });
    });
    socket.once('error', reject);
  });
}

function problemOf(raw: string): { status: number; code: string; headers: string } {
  const [head = '', body = ''] = raw.split('\r\n\r\n', 2);
  expect(head, raw.slice(0, 200)).toMatch(/content-type: application\/problem\+json/i);
  const problem = JSON.parse(body) as { status: number; code: string };
  expect(Number(head.split(' ')[1])).toBe(problem.status);
  return { ...problem, headers: head };
}

async function health(server: RunningServer): Promise<number> {
  return (await fetch(`${server.apiBaseUrl}/health`)).status;
}

describe('the request timeout', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ dataDir: tempDir(), port: 0, uiDir: null, listener: { requestTimeoutMs: TIMEOUT_MS } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('defaults to 30 s and 256 connections', () => {
    expect(REQUEST_TIMEOUT_MS).toBe(30_000);
    expect(MAX_CONNECTIONS).toBe(256);
  });

  it('cuts off a body that trickles (a byte every 100 ms of 1,000) with 408 REQUEST_TIMEOUT problem+json, on an upload and on a JSON body', async () => {
    const host = `Host: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${server.apiKey}\r\n`;
    for (const head of [`POST /v1/imports?broker=generic HTTP/1.1\r\n${host}Content-Type: text/csv\r\nContent-Length: 1000\r\n\r\n`, `PUT /v1/settings HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`]) {
      const client = await open(server.port, head);
      let sent = 0;
      const trickle = setInterval(() => {
        if (client.socket.writable) client.socket.write('x');
        sent += 1;
      }, 100);
      const elapsedMs = await client.closed;
      clearInterval(trickle);
      expect(sent, 'the server closed before the body could have arrived').toBeLessThan(1000);
      expect(elapsedMs, 'not before the timeout').toBeGreaterThanOrEqual(TIMEOUT_MS);
      const problem = problemOf(client.received());
      expect(problem).toMatchObject({ status: 408, code: 'REQUEST_TIMEOUT' });
    }
    expect(await health(server), 'and it keeps serving').toBe(200);
  });

  it('cuts off headers that never end, and a connection that never sends anything', async () => {
    const partial = await open(server.port, `GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`);
    const silent = await open(server.port);
    for (const client of [partial, silent]) {
      expect(await client.closed).toBeGreaterThanOrEqual(TIMEOUT_MS);
      expect(problemOf(client.received())).toMatchObject({ status: 408, code: 'REQUEST_TIMEOUT' });
    }
  });

  it('does not cut a request that arrived in time but takes longer to answer (the timeout is on receiving)', async () => {
    // A journal read waits for the worker's start-up and ledger; whatever it takes, it is answered, not 408.
    const response = await fetch(`${server.apiBaseUrl}/journal/summary`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    expect(response.status).toBe(200);
  });
});

describe('the connection cap', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ dataDir: tempDir(), port: 0, uiDir: null, listener: { maxConnections: CAP } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it(`serves ${CAP} connections at once; one more is answered 503 TOO_MANY_CONNECTIONS with Retry-After and closed; a freed place is served again`, async () => {
    // Connections held open without a finished request (the timeout is 30 s here).
    const held = await Promise.all(Array.from({ length: CAP }, () => open(server.port, 'GET /v1/health HTTP/1.1\r\n')));
    const extra = await open(server.port, `GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
    await extra.closed;
    const problem = problemOf(extra.received());
    expect(problem).toMatchObject({ status: 503, code: 'TOO_MANY_CONNECTIONS' });
    expect(problem.headers).toMatch(/\r\nRetry-After: 1(\r\n|$)/);

    const [first, ...others] = held;
    first?.socket.destroy();
    await first?.closed;
    // The server hears of the close a moment later.
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt += 1) {
      const again = await open(server.port, `GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`);
      await again.closed;
      status = Number(again.received().split(' ')[1]);
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status, 'a freed place is served').toBe(200);
    for (const client of others) client.socket.destroy();
  });
});
