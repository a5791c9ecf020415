/**
 * Uploads are parsed outside the write turn, and are jobs (docs/decisions.md §Jobs; issue 16, finding 1): a file
 * being read holds none of the process's write turns, it is stopped when its client goes away, and it has a time limit
 * (importTimeoutSeconds → 422 IMPORT_TIMEOUT). Before, `POST /v1/imports` and `POST /v1/chains` held a write turn from
 * the upload to the answer: settings, other imports and chains waited for a parse, and a client that gave up did not
 * stop it. A real server on loopback (in this process): going away needs a socket.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer } from '../../../../src-main/serve';
import { WorkerThread } from '../../../../src-main/services/worker-calls';
import type { ReplyMessage } from '../../../../src-main/services/worker-thread';
import { tempDir } from '../../../paths';
import { badImport, send, shortLinesChain, sleep, SMALL_CHAIN, smallImport } from '../../../uploads';

let server: RunningServer;
let dataDir: string;
const BIG = badImport(8);

beforeAll(async () => {
  dataDir = tempDir();
  server = await startServer({ dataDir, port: 0, uiDir: null, overrides: { rateLimit: { perSecond: 1e6, burst: 1e6 } } });
  // Both workers started, so that no test pays for a thread's start.
  expect((await send(server.port, server.apiKey, '/v1/imports?broker=generic', smallImport('warm')).answer).status).toBe(201);
  expect((await send(server.port, server.apiKey, '/v1/chains', SMALL_CHAIN).answer).status).toBe(201);
}, 120_000);
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const post = (path: string, body: string | Buffer) => send(server.port, server.apiKey, path, body);
const putSettings = (settings: Record<string, unknown>) => send(server.port, server.apiKey, '/v1/settings', JSON.stringify(settings), { method: 'PUT', contentType: 'application/json' });

describe('a file being parsed holds no write turn', () => {
  it('a settings change and a chain stored during an import parse answer before it', async () => {
    const big = post('/v1/imports?broker=generic', BIG);
    await big.sent;
    await sleep(200);
    const settings = putSettings({ cacheSeconds: 30 });
    const chain = post('/v1/chains?symbol=AAA', SMALL_CHAIN);
    const [bigAnswer, settingsAnswer, chainAnswer] = await Promise.all([big.answer, settings.answer, chain.answer]);
    expect(bigAnswer.status, bigAnswer.body.slice(0, 200)).toBe(422);
    expect([settingsAnswer.status, chainAnswer.status]).toEqual([200, 201]);
    expect(settingsAnswer.at, `the settings answered ${(bigAnswer.at - settingsAnswer.at).toFixed(0)} ms before the parse ended`).toBeLessThan(bigAnswer.at);
    expect(chainAnswer.at, 'the chain was stored before the parse ended').toBeLessThan(bigAnswer.at);
    // Its position events need the journal's open positions, which wait for the parse: the answer says not yet.
    expect((JSON.parse(chainAnswer.body) as { eventsByScope: { position: number | null } }).eventsByScope.position).toBeNull();
  }, 120_000);

  it('a settings change made during a chain parse answers before it', async () => {
    const big = post('/v1/chains', shortLinesChain(8));
    await big.sent;
    await sleep(200);
    const settings = putSettings({ cacheSeconds: 60 });
    const [bigAnswer, settingsAnswer] = await Promise.all([big.answer, settings.answer]);
    expect(bigAnswer.status, bigAnswer.body.slice(0, 200)).toBe(422);
    expect(settingsAnswer.status).toBe(200);
    expect(settingsAnswer.at, 'the settings answered before the chain parse ended').toBeLessThan(bigAnswer.at);
  }, 120_000);
});

describe('a job is stopped', () => {
  it('when its client goes away: the next import does not wait for the rest of its parse', async () => {
    // Checked by what the worker answered, not by a clock: the abandoned job's own reply is "stopped" (the worker
    // left the parse at a checkpoint, it did not read the file to its end), and it came before the next import's.
    const stops = vi.spyOn(WorkerThread.prototype, 'stop');
    const replies = vi.spyOn(WorkerThread.prototype as unknown as { settle: (reply: ReplyMessage) => void }, 'settle');
    try {
      const big = post('/v1/imports?broker=generic', BIG);
      await big.sent;
      await sleep(100);
      big.abort();
      const small = await post('/v1/imports?broker=generic', smallImport('after-abort')).answer;
      expect(small.status).toBe(201);
      const stopped = stops.mock.calls.filter(([, reason]) => reason === 'cancelled').map(([id]) => id);
      expect(stopped, 'the job of the client that went away was stopped').toHaveLength(1);
      const answered = replies.mock.calls.map(([reply]) => reply);
      const own = answered.findIndex((reply) => reply.id === stopped[0]);
      const shown = answered.map((reply) => (reply.ok ? `${reply.id} ok` : `${reply.id} ${reply.error.kind}`)).join(', ');
      expect(own, `the stopped job answered: ${shown}`).toBeGreaterThanOrEqual(0);
      expect(answered[own], `the worker left the parse on its flag: ${shown}`).toMatchObject({ ok: false, error: { kind: 'stopped', reason: 'cancelled' } });
      const next = answered.findIndex((reply) => reply.ok);
      expect(next, `the next import was answered after the stopped parse let go of the worker: ${shown}`).toBeGreaterThan(own);
    } finally {
      stops.mockRestore();
      replies.mockRestore();
    }
  }, 120_000);

  it('past importTimeoutSeconds: 422 IMPORT_TIMEOUT, nothing stored, and the next import goes through', async () => {
    expect((await putSettings({ importTimeoutSeconds: 1 }).answer).status).toBe(200);
    try {
      const before = (await server.ctx.journal.listImports()).pagination.total;
      const timedOut = await post('/v1/imports?broker=generic', BIG).answer;
      expect(timedOut.status).toBe(422);
      const problem = JSON.parse(timedOut.body) as { code: string; detail: string };
      expect(problem.code).toBe('IMPORT_TIMEOUT');
      expect(problem.detail).toMatch(/longer than 1 s/);
      const chain = await post('/v1/chains', shortLinesChain(8)).answer;
      expect([chain.status, (JSON.parse(chain.body) as { code: string }).code]).toEqual([422, 'IMPORT_TIMEOUT']);
      expect((await server.ctx.journal.listImports()).pagination.total, 'nothing stored').toBe(before);
      expect((await post('/v1/imports?broker=generic', smallImport('after-timeout')).answer).status).toBe(201);
    } finally {
      await putSettings({ importTimeoutSeconds: 60 }).answer;
    }
  }, 120_000);
});
