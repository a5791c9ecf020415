/**
 * Connections and timeouts (docs/conventions.md §HTTP API, issues 16 and 29): a request must arrive within the request
 * timeout (30 s; 1 s here) and its headers within the headers timeout (5 s; 500 ms here), or it is answered 408
 * REQUEST_TIMEOUT problem+json and closed, however slowly it trickles; at the connection cap (256; 4 here) the
 * connection idle longest makes room, and only when every place has a request in progress is a new connection
 * answered 503 TOO_MANY_CONNECTIONS with Retry-After and closed. Real loopback servers and raw sockets. The flood of
 * an attacker at the real limits: listener.flood.test.ts.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../../src-main/serve';
import { HEADERS_TIMEOUT_MS, MAX_CONNECTIONS, REQUEST_TIMEOUT_MS } from '../../../../src-main/server/listener';
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

  it(`serves ${CAP} connections with a request in progress; one more is answered 503 TOO_MANY_CONNECTIONS with Retry-After and closed; a freed place is served again`, async () => {
    // Connections each holding a request in progress: an upload with the key whose body has not arrived (30 s here).
    const upload = `POST /v1/imports?broker=generic HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${server.apiKey}\r\nContent-Type: text/csv\r\nContent-Length: 1000\r\n\r\n`;
    const held = await Promise.all(Array.from({ length: CAP }, () => open(server.port, upload)));
    // The server has read each one's headers (the places are taken by requests, not by silent sockets).
    await new Promise((resolve) => setTimeout(resolve, 200));
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

  it(`at the cap, the connection idle longest is closed to make room (silent, half-sent headers, a keep-alive between requests): the oldest first`, async () => {
    const keptAlive = await open(server.port, `GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
    for (let i = 0; i < 50 && !keptAlive.received().includes('"status":"ok"'); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(keptAlive.received(), 'answered, and kept alive for the next request').toMatch(/^HTTP\/1.1 200/);
    const silent = await open(server.port);
    const halfSent = await open(server.port, 'GET /v1/health HTTP/1.1\r\n');
    const fourth = await open(server.port);
    const order: string[] = [];
    keptAlive.closed.then(() => order.push('keep-alive'), () => undefined);
    silent.closed.then(() => order.push('silent'), () => undefined);
    halfSent.closed.then(() => order.push('half-sent'), () => undefined);
    // Each new connection stays open once answered (a keep-alive, now the most recently idle): each needs a place.
    const served: Held[] = [];
    for (let i = 0; i < 3; i += 1) {
      const next = await open(server.port, `GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
      for (let wait = 0; wait < 100 && !next.received().includes('"status":"ok"'); wait += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(next.received(), `new connection ${i + 1} is served`).toMatch(/^HTTP\/1.1 200/);
      served.push(next);
    }
    // Closed by the server to make room, not by the 5 s headers timeout: the fourth socket, as silent and opened just
    // after them, would have timed out with them (a structural check: no clock, whatever the machine's load).
    await Promise.all([keptAlive.closed, silent.closed, halfSent.closed]);
    expect(fourth.socket.readyState, 'the silent socket opened after them is still open: they were evicted, not timed out').toBe('open');
    for (const client of served) client.socket.destroy();
    expect(order, 'closed oldest-idle first').toEqual(['keep-alive', 'silent', 'half-sent']);
    expect(keptAlive.received() + silent.received() + halfSent.received(), 'closed without an answer: they asked nothing').not.toMatch(/503/);
    fourth.socket.destroy();
  });
});

describe('the headers timeout', () => {
  const HEADERS_MS = 500;
  let server: RunningServer;
  beforeAll(async () => {
    // The request timeout out of reach (vitest's testTimeout bounds a hang): a 408 here can only be the headers
    // timeout's, whatever the machine's load.
    server = await startServer({ dataDir: tempDir(), port: 0, uiDir: null, listener: { headersTimeoutMs: HEADERS_MS, requestTimeoutMs: 3_600_000 } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('defaults to 5 s', () => {
    expect(HEADERS_TIMEOUT_MS).toBe(5000);
  });

  it('cuts off headers sent a byte every 100 ms (408), long before the request timeout; a body that trickles after whole headers is not cut by it', async () => {
    const slowHeaders = await open(server.port, `GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nX-Slow: `);
    const headerTrickle = setInterval(() => slowHeaders.socket.writable && slowHeaders.socket.write('a'), 100);
    const slowBody = await open(server.port, `PUT /v1/settings HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${server.apiKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`);
    const bodyTrickle = setInterval(() => slowBody.socket.writable && slowBody.socket.write(' '), 100);
    const elapsedMs = await slowHeaders.closed;
    clearInterval(headerTrickle);
    expect(elapsedMs, 'not before the headers timeout').toBeGreaterThanOrEqual(HEADERS_MS);
    expect(problemOf(slowHeaders.received()), 'cut by the headers timeout: the request timeout is an hour here').toMatchObject({ status: 408, code: 'REQUEST_TIMEOUT' });
    await new Promise((resolve) => setTimeout(resolve, 2 * HEADERS_MS));
    expect(slowBody.socket.readyState, 'the body still trickling is still being read').toBe('open');
    expect(slowBody.received()).toBe('');
    clearInterval(bodyTrickle);
    slowBody.socket.destroy();
  });
});
