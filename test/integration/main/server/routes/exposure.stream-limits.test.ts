/**
 * Event streams are capped per key and counted apart from the connection cap (issue 29, finding 1: one key's 256
 * streams filled every connection and locked every other client out). A key holds at most STREAMS_PER_KEY streams at
 * once; one more is 429 TOO_MANY_STREAMS with Retry-After while another key's stream still opens; streams do not
 * take the places of requests. A real loopback server whose connection cap (8) is below one key's streams (16).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../../../src-main/serve';
import { MAX_STREAMS, STREAMS_PER_KEY } from '../../../../../src-main/server/listener';
import { tempDir } from '../../../../paths';

const CONNECTION_CAP = 8;
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ dataDir: tempDir(), port: 0, uiDir: null, listener: { maxConnections: CONNECTION_CAP, reservedConnections: 2 } });
});
afterAll(async () => {
  await server?.close();
});

interface Opened {
  status: number;
  body: string;
  retryAfter: string | null;
  close: () => void;
}

/** Opens the stream with `key` in the header; a 200 stays open (read to its first comment) until `close`. */
async function openStream(key: string): Promise<Opened> {
  const controller = new AbortController();
  const response = await fetch(`${server.apiBaseUrl}/gex/events/stream`, { headers: { authorization: `Bearer ${key}`, connection: 'close' }, signal: controller.signal });
  if (response.status !== 200) return { status: response.status, body: await response.text(), retryAfter: response.headers.get('retry-after'), close: () => undefined };
  const reader = response.body?.getReader();
  const first = reader === undefined ? undefined : await reader.read();
  expect(new TextDecoder().decode(first?.value)).toContain(': connected');
  return { status: 200, body: '', retryAfter: null, close: () => controller.abort() };
}

describe('streams per key', () => {
  it('16 streams per key, 64 in all', () => {
    expect(STREAMS_PER_KEY).toBe(16);
    expect(MAX_STREAMS).toBe(64);
  });

  it(`${STREAMS_PER_KEY} streams of one key open (twice the connection cap of ${CONNECTION_CAP}); the ${STREAMS_PER_KEY + 1}th is 429 TOO_MANY_STREAMS; another key's stream opens; requests are still served; a closed stream frees its place`, async () => {
    const opened: Opened[] = [];
    for (let i = 0; i < STREAMS_PER_KEY; i += 1) opened.push(await openStream(server.apiKey));
    expect(opened.map((o) => o.status)).toEqual(Array.from({ length: STREAMS_PER_KEY }, () => 200));

    const extra = await openStream(server.apiKey);
    expect(extra.status).toBe(429);
    expect(JSON.parse(extra.body)).toMatchObject({ code: 'TOO_MANY_STREAMS', status: 429 });
    expect(JSON.parse(extra.body).detail).toMatch(/at most 16 event streams/);
    expect(extra.retryAfter).toMatch(/^\d+$/);

    const other = server.ctx.keys.create('a second client');
    const second = await openStream(other.key);
    expect(second.status, 'another key is not held back by the first').toBe(200);

    const health = await fetch(`${server.apiBaseUrl}/health`, { headers: { connection: 'close' } });
    expect(health.status, 'the streams do not count against the connection cap').toBe(200);
    const keyed = await fetch(`${server.apiBaseUrl}/settings`, { headers: { authorization: `Bearer ${server.apiKey}`, connection: 'close' } });
    expect(keyed.status).toBe(200);

    opened[0]?.close();
    let again: Opened | null = null;
    // The server hears of the close a moment later.
    for (let attempt = 0; attempt < 50; attempt += 1) {
      again = await openStream(server.apiKey);
      if (again.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(again?.status, 'a closed stream frees its place').toBe(200);
    again?.close();
    second.close();
    for (const o of opened) o.close();
  });
});
