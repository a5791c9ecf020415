/**
 * The event stream without the key in its URL (issue 18): the key, in the header, buys a ticket that opens one
 * stream within 60 s; the key-in-query form (`access_token`) is refused by name. The UI's client: test/e2e/stream-client.test.ts.
 */
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../../src-main/serve';
import { StreamTickets, TICKET_CAP, TICKET_TTL_MS } from '../../../../src-main/server/stream-tickets';
import { tempDir } from '../../../paths';
import { buildTestApp, HOST } from '../../../helper';
import { manualClock } from '../../../clock';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ dataDir: tempDir(), port: 0, uiDir: null });
});
afterAll(async () => {
  await server?.close();
});

async function ticket(key = server.apiKey): Promise<{ status: number; ticket: string; expiresAt: string }> {
  const response = await fetch(`${server.apiBaseUrl}/gex/events/stream-ticket`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
  const body = (await response.json()) as { ticket: string; expiresAt: string };
  return { status: response.status, ...body };
}

/** Opens the stream at `url` and reads until its first comment (": connected"), then closes it. */
async function open(url: string): Promise<{ status: number; first: string; body: string; authenticate: string | null }> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  if (response.status !== 200) return { status: response.status, first: '', body: await response.text(), authenticate: response.headers.get('www-authenticate') };
  const reader = response.body?.getReader();
  const chunk = reader === undefined ? undefined : await reader.read();
  controller.abort();
  return { status: 200, first: new TextDecoder().decode(chunk?.value), body: '', authenticate: null };
}

describe('stream tickets', () => {
  it('a ticket opens one stream, once; the second use is a 401 that says the ticket was used', async () => {
    // The expiry is TICKET_TTL_MS after the moment of issue, which lies between these two readings of the clock
    // (bracketed, so that a slow machine widens nothing).
    const askedMs = Date.now();
    const issued = await ticket();
    const answeredMs = Date.now();
    expect(issued.status).toBe(200);
    expect(issued.ticket).toMatch(/^[\w-]{43}$/); // 32 random bytes: 256 bits
    expect(Date.parse(issued.expiresAt)).toBeGreaterThanOrEqual(askedMs + TICKET_TTL_MS);
    expect(Date.parse(issued.expiresAt)).toBeLessThanOrEqual(answeredMs + TICKET_TTL_MS);
    const url = `${server.apiBaseUrl}/gex/events/stream?ticket=${issued.ticket}`;
    const first = await open(url);
    expect(first.status).toBe(200);
    expect(first.first).toContain(': connected');
    const again = await open(url);
    expect(again.status).toBe(401);
    expect(again.authenticate).toContain('Bearer');
    expect(JSON.parse(again.body)).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(JSON.parse(again.body).detail).toMatch(/used or expired stream ticket/);
  });

  it('a wrong ticket is a 401 problem', async () => {
    const wrong = await open(`${server.apiBaseUrl}/gex/events/stream?ticket=${'A'.repeat(43)}`);
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.body)).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  });

  it('the key in the URL (access_token) is refused, by name, even when it is the right key', async () => {
    const refused = await open(`${server.apiBaseUrl}/gex/events/stream?access_token=${server.apiKey}`);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body).detail).toMatch(/does not take the key in its URL \(access_token\)/);
  });

  it('a ticket opens the stream only: any other route wants the key', async () => {
    const issued = await ticket();
    const response = await fetch(`${server.apiBaseUrl}/gex/events?ticket=${issued.ticket}`);
    expect(response.status).toBe(401);
  });

  it('a ticket needs a key to be bought, and dies with its key', async () => {
    const anonymous = await fetch(`${server.apiBaseUrl}/gex/events/stream-ticket`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    const doomed = server.ctx.keys.create('revoked before its stream');
    const issued = await ticket(doomed.key);
    expect(server.ctx.keys.revoke(doomed.id)).not.toBeNull();
    expect((await open(`${server.apiBaseUrl}/gex/events/stream?ticket=${issued.ticket}`)).status).toBe(401);
  });
});

/** A HEAD request (node:http: fetch's HEAD gives up on a response that never ends): its status and headers, or 'no answer' within 3 s. */
function head(url: string): Promise<{ status: number; contentType: string } | 'no answer'> {
  return new Promise((resolve) => {
    const request = httpRequest(url, { method: 'HEAD' }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, contentType: String(response.headers['content-type']) }));
    });
    request.on('error', () => resolve('no answer'));
    request.setTimeout(3000, () => {
      request.destroy();
      resolve('no answer');
    });
    request.end();
  });
}

describe('HEAD on the stream and keys revoked elsewhere (issue 29, findings 1 and 7)', () => {
  it('HEAD with a ticket is answered with the stream\'s headers and no body, and does not spend the ticket: GET then opens the stream', async () => {
    const issued = await ticket();
    const url = `${server.apiBaseUrl}/gex/events/stream?ticket=${issued.ticket}`;
    expect(await head(url)).toEqual({ status: 200, contentType: 'text/event-stream; charset=utf-8' });
    expect(await head(url), 'a second HEAD: the ticket is still waiting').toEqual({ status: 200, contentType: 'text/event-stream; charset=utf-8' });
    const opened = await open(url);
    expect(opened.status).toBe(200);
    expect(opened.first).toContain(': connected');
    expect(await head(url), 'once the GET used it, HEAD says so').toMatchObject({ status: 401 });
  });

  it('HEAD with the key, or with nothing: 200 headers only, or 401', async () => {
    const withKey = await new Promise<number>((resolve) => {
      const request = httpRequest(`${server.apiBaseUrl}/gex/events/stream`, { method: 'HEAD', headers: { authorization: `Bearer ${server.apiKey}` } }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      });
      request.setTimeout(3000, () => request.destroy());
      request.on('error', () => resolve(0));
      request.end();
    });
    expect(withKey).toBe(200);
    expect(await head(`${server.apiBaseUrl}/gex/events/stream`)).toMatchObject({ status: 401 });
  });

  it('a ticket whose key another process (the CLI) revoked is refused when the stream opens, at once', async () => {
    const doomed = server.ctx.keys.create('revoked by the CLI before its stream');
    const issued = await ticket(doomed.key);
    const other = new Database(join(server.dataDir, 'strikebook.db'));
    other.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(new Date().toISOString(), doomed.id);
    other.close();
    const refused = await open(`${server.apiBaseUrl}/gex/events/stream?ticket=${issued.ticket}`);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('a ticket expires after 60 s', () => {
  it('is refused one millisecond past its lifetime (the app on a manual clock)', async () => {
    const clock = manualClock('2026-01-05T15:00:00Z');
    const t = await buildTestApp({ clock });
    try {
      const issued = await t.request({ method: 'POST', url: '/v1/gex/events/stream-ticket' });
      expect(issued.statusCode).toBe(200);
      const body = issued.json<{ ticket: string; expiresAt: string }>();
      expect(body.expiresAt).toBe('2026-01-05T15:01:00.000Z');
      clock.advance(TICKET_TTL_MS + 1);
      const late = await t.app.inject({ url: `/v1/gex/events/stream?ticket=${body.ticket}`, headers: { host: HOST } });
      expect(late.statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });
});

describe('the ticket store', () => {
  it('keeps at most TICKET_CAP waiting tickets (the oldest goes), each used once, each distinct', () => {
    let now = 0;
    const store = new StreamTickets(() => now);
    const tickets = Array.from({ length: TICKET_CAP + 5 }, () => store.issue('k').ticket);
    expect(store.size).toBe(TICKET_CAP);
    expect(new Set(tickets).size).toBe(tickets.length);
    expect(store.redeem(tickets[0] ?? ''), 'the oldest was dropped').toBeNull();
    expect(store.redeem(tickets[TICKET_CAP + 4] ?? '')).toBe('k');
    expect(store.redeem(tickets[TICKET_CAP + 4] ?? ''), 'once').toBeNull();
    const late = store.issue('k').ticket;
    now += TICKET_TTL_MS;
    expect(store.redeem(late), 'expired at its lifetime').toBeNull();
    store.issue('k');
    expect(store.size, 'expired tickets are pruned when the next is issued').toBe(1);
  });
});
