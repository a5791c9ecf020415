/**
 * The UI's client opens the event stream with a ticket, never with the key in the URL (issue 18). Here, not in the
 * Node project, because the client is DOM-typed; it runs in Node against a real server (no browser needed).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiClient } from '../../src-renderer/api/client';
import { startServer, type RunningServer } from '../../src-main/serve';
import { tempDir } from '../paths';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ dataDir: tempDir(), port: 0, uiDir: null });
});
afterAll(async () => {
  await server?.close();
});

it('the stream URL the UI opens carries a one-use ticket, not the key', async () => {
  const api = new ApiClient(server.apiBaseUrl, server.apiKey);
  const url = await api.streamUrl('GET /gex/events/stream', { query: { tickers: 'SPX', eventType: 'wall' } });
  expect(url).not.toContain(server.apiKey);
  expect(url).not.toContain('access_token');
  expect(url).toMatch(/[&?]ticket=[\w-]{43}(?:&|$)/);
  const controller = new AbortController();
  const first = await fetch(url, { signal: controller.signal });
  expect(first.status, 'the ticket opens the stream').toBe(200);
  controller.abort();
  expect((await fetch(url)).status, 'once').toBe(401);
});
