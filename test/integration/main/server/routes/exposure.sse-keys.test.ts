/**
 * An SSE stream lives no longer than its key (issue 8: 37 events arrived after revocation): revoked here,
 * rotated away, or revoked by another process (the CLI) — the stream ends, and no event arrives after it.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainSnapshot, OptionContract } from '../../../../../src-shared/exposure/model';
import { startServer, type RunningServer } from '../../../../../src-main/serve';
import { STREAM_KEY_CHECK_MS } from '../../../../../src-main/server/routes/exposure';
import { tempDir } from '../../../../paths';
import { storeChain } from '../../../../helper';

const EXPIRATION = '2099-12-18';
let server: RunningServer;
let step = 0;

function contract(right: 'C' | 'P', strike: number, openInterest: number): OptionContract {
  return { root: 'SSE', expiration: EXPIRATION, strike, right, openInterest, iv: 0.25, bid: 1, ask: 1.1, multiplier: 100 };
}

/**
 * The next snapshot moves the call wall between 105 and 110: one wall event of its expiration each time (events.test.ts),
 * and one of the book (that expiration alone). The count returned is both, as the Events page lists them; a stream's
 * default scope (per expiration) sends the first.
 */
function ingestWallMove(): number {
  step += 1;
  const calls: Record<number, number> = step % 2 === 0 ? { 105: 5000, 110: 1000 } : { 105: 500, 110: 8000 };
  const snapshot: ChainSnapshot = {
    symbol: 'SSE',
    spot: 100,
    quoteTime: new Date(Date.UTC(2099, 10, 20, 15, step)).toISOString(),
    source: 'generic',
    contracts: [...Object.entries(calls).map(([k, oi]) => contract('C', Number(k), oi)), contract('P', 95, 2000), contract('P', 90, 1000)],
  };
  return storeChain(server.ctx, snapshot).events;
}

interface OpenStream {
  events: () => number;
  /** Resolves once the server has ended the stream. */
  ended: Promise<void>;
  isEnded: () => boolean;
  close: () => void;
}

/** A stream ticket bought with `key` (the way the UI opens a stream: EventSource cannot send the header). */
async function ticketFor(key: string): Promise<string> {
  const response = await fetch(`${server.apiBaseUrl}/gex/events/stream-ticket`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { ticket: string }).ticket;
}

async function openStream(auth: { header?: string; token?: string }): Promise<OpenStream> {
  const controller = new AbortController();
  const query = auth.token === undefined ? '' : `&ticket=${encodeURIComponent(await ticketFor(auth.token))}`;
  const response = await fetch(`${server.apiBaseUrl}/gex/events/stream?tickers=SSE${query}`, {
    headers: auth.header === undefined ? {} : { authorization: `Bearer ${auth.header}` },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = response.body?.getReader();
  if (reader === undefined) throw new Error('no body');
  let text = '';
  let done = false;
  const decoder = new TextDecoder();
  const ended = (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done) break;
      text += decoder.decode(chunk.value);
    }
    done = true;
  })();
  return { events: () => (text.match(/^event: /gm) ?? []).length, ended, isEnded: () => done, close: () => controller.abort() };
}

/**
 * How long to wait before calling a stream that should end (or an event that should arrive) hung: a stream left open
 * never ends, so this only tells a hang from a loaded machine; speed is the bench's.
 */
const HANG_MS = 10 * STREAM_KEY_CHECK_MS;

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** Ends within `timeoutMs`, then stays silent while new events are created. */
async function expectEndsAndStaysSilent(stream: OpenStream, timeoutMs: number): Promise<void> {
  // A hang check: a stream left open never ends; timeoutMs is only how long to wait before saying so.
  expect(await Promise.race([stream.ended.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs))]), `the stream ended (waited ${timeoutMs} ms: it was left open)`).toBe(true);
  const seen = stream.events();
  for (let i = 0; i < 3; i += 1) expect(ingestWallMove(), 'events keep being created (the expiration’s and the book’s)').toBe(2);
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(stream.events(), 'no event after the end').toBe(seen);
}

beforeAll(async () => {
  server = await startServer({ dataDir: tempDir(), port: 0, uiDir: null });
  expect(ingestWallMove(), 'the first snapshot only sets the state').toBe(0);
});
afterAll(async () => {
  await server?.close();
});

describe('SSE streams end with their key', () => {
  it('ends at once when its key is revoked in this process, and only that stream', async () => {
    const revoked = server.ctx.keys.create('revoked soon');
    const kept = server.ctx.keys.create('kept');
    const doomed = await openStream({ header: revoked.key });
    const other = await openStream({ token: kept.key });
    expect(ingestWallMove(), 'the expiration’s wall event and the book’s').toBe(2);
    expect(await until(() => doomed.events() === 1 && other.events() === 1, HANG_MS), 'both streams got the event').toBe(true);

    expect(server.ctx.keys.revoke(revoked.id)).not.toBeNull();
    await expectEndsAndStaysSilent(doomed, HANG_MS);
    expect(other.isEnded(), 'a stream of another key stays open').toBe(false);
    expect(await until(() => other.events() === 4, HANG_MS), 'and receives the later events').toBe(true);
    other.close();
  });

  it('ends when the key-file key it was opened with is rotated away (POST /v1/keys/rotate)', async () => {
    const admin = server.ctx.keys.create('admin');
    const fileKey = server.apiKey;
    const stream = await openStream({ token: fileKey });
    const rotated = await fetch(`${server.apiBaseUrl}/keys/rotate`, { method: 'POST', headers: { authorization: `Bearer ${admin.key}` } });
    expect(rotated.status).toBe(200);
    await expectEndsAndStaysSilent(stream, HANG_MS);
    const again = await fetch(`${server.apiBaseUrl}/gex/events/stream?tickers=SSE`, { headers: { authorization: `Bearer ${fileKey}` } });
    expect(again.status, 'and the old key cannot reopen it').toBe(401);
  });

  it(`ends at the next key check (every ${STREAM_KEY_CHECK_MS} ms) when another process revokes the key`, async () => {
    const cli = server.ctx.keys.create('revoked by the CLI');
    const stream = await openStream({ header: cli.key });
    const other = new Database(join(server.dataDir, 'strikebook.db'));
    other.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(new Date().toISOString(), cli.id);
    other.close();
    await expectEndsAndStaysSilent(stream, HANG_MS);
  });
});
