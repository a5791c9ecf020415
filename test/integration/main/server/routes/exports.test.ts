/**
 * `POST /v1/exports` (docs/research.md): the export runs in a lake worker thread while the server answers (the event
 * loop's longest stall is a fraction of the same export run inline), one at a time, with its progress at
 * `GET /v1/exports/{id}`; it writes into the data folder's exports/ or a folder the desktop dialog granted, never a
 * path from the request; bad bodies are 4xx problems.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportJobJson, ExportsResponseT } from '../../../../../src-shared/api/schemas';
import { DEMO_SEED, demoMarket } from '../../../../../src-shared/demo/market';
import { exportLake } from '../../../../../src-main/services/lake/export';
import { ExportJobs } from '../../../../../src-main/services/exports';
import { workerScript } from '../../../../../src-main/services/worker-thread';
import { buildTestApp, REPO_ROOT, storeChain, type TestApp } from '../../../../helper';
import { longestStallMs } from '../../../../stall';
import { scratchFolders } from '../../../../duck';
import { asTicker } from '../../../../../src-shared/ids';

const folders = scratchFolders();
afterAll(() => folders.removeAll());

const market = demoMarket(DEMO_SEED).filter((s) => s.symbol === 'SPX' || s.symbol === 'SPY');

async function waitFor(app: TestApp, id: string): Promise<ExportJobJson> {
  for (;;) {
    const { body } = await app.get<ExportJobJson>(`/v1/exports/${id}`);
    if (body.state !== 'running') return body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function post(app: TestApp, body?: unknown) {
  return app.request({ method: 'POST', url: '/v1/exports', ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) }) });
}

describe('POST /v1/exports', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
    for (const chain of market) storeChain(app.ctx, chain);
  }, 120_000);
  afterAll(async () => app.close());

  it('exports into <data folder>/exports in a worker thread, the event loop free meanwhile; one export at a time', async () => {
    const spx = market.filter((s) => s.symbol === 'SPX');
    const spy = market.filter((s) => s.symbol === 'SPY');
    // The route, the worker's start and both threads' code warmed up once: SPY exported first through the API.
    const warm = await waitFor(app, (await post(app, { symbol: 'SPY' })).json<ExportJobJson>().id);
    expect(warm.summary?.snapshots).toEqual({ total: spy.length, written: spy.length, skipped: 0 });
    // What the rest costs a thread: the SPX export inline, into a throwaway folder.
    const inlineStart = performance.now();
    exportLake(app.ctx.db, { out: folders.make('strikebook-lake-'), symbol: asTicker('SPX') }, app.ctx.settings.rate);
    const inlineMs = performance.now() - inlineStart;

    const { value: job, stallMs } = await longestStallMs(async () => {
      const started = await post(app);
      expect(started.statusCode, started.body).toBe(202);
      const running = started.json<ExportJobJson>();
      expect(started.headers.location).toBe(`/v1/exports/${running.id}`);
      expect(running).toMatchObject({ state: 'running', out: join(app.dataDir, 'exports'), symbol: null, error: null });
      const second = await post(app, { symbol: 'SPY' });
      expect(second.statusCode, 'a second export while one runs').toBe(409);
      expect(second.json<{ code: string }>().code).toBe('CONFLICT');
      return waitFor(app, running.id);
    });
    expect(job.state, job.error ?? '').toBe('done');
    expect(job.summary?.snapshots, 'SPY was there already').toEqual({ total: market.length, written: spx.length, skipped: spy.length });
    expect(job.summary?.rows.contracts).toBe(spx.reduce((n, s) => n + s.contracts.length, 0));
    expect(job.progress).toEqual({ snapshotsDone: market.length, snapshotsTotal: market.length, rowsWritten: job.summary?.rows.contracts });
    expect(readdirSync(join(app.dataDir, 'exports', 'contracts')).sort()).toEqual(['symbol=SPX', 'symbol=SPY']);
    expect(stallMs, `longest stall ${stallMs.toFixed(1)} ms vs ${inlineMs.toFixed(1)} ms exporting inline`).toBeLessThan(inlineMs / 4);

    const again = await post(app);
    const repeated = await waitFor(app, again.json<ExportJobJson>().id);
    expect(repeated.summary?.snapshots, 'the next export adds nothing').toEqual({ total: market.length, written: 0, skipped: market.length });
    const listed = await app.get<ExportsResponseT>('/v1/exports');
    expect(listed.body.exports.map((e) => e.id), 'newest first').toEqual([repeated.id, job.id, warm.id]);
  }, 120_000);

  it('writes into a folder the desktop dialog granted, and into no folder a request names', async () => {
    const chosen = join(folders.make('strikebook-chosen-'), 'research');
    const { folder } = app.ctx.exports.grantFolder(chosen);
    const started = await post(app, { folder, symbol: 'spy', from: '2026-11-20', to: '2026-11-20T12:00' });
    expect(started.statusCode, started.body).toBe(202);
    const job = await waitFor(app, started.json<ExportJobJson>().id);
    expect(job).toMatchObject({ state: 'done', out: chosen, symbol: 'SPY', from: '2026-11-20', to: '2026-11-20T12:00' });
    // 09:30 to 12:00 New York: the SPY snapshots of 09:30, 10:00, …, 12:00.
    expect(job.summary?.snapshots.written).toBe(6);
    expect(existsSync(join(chosen, 'contracts', 'symbol=SPY'))).toBe(true);

    const path = await post(app, { out: '/tmp/elsewhere' });
    expect(path.statusCode).toBe(400);
    expect(path.json()).toMatchObject({ code: 'UNKNOWN_PARAMETER', errors: [{ param: 'out' }] });
    const unknownFolder = await post(app, { folder: 'abc' });
    expect(unknownFolder.statusCode).toBe(404);
    expect(unknownFolder.json<{ detail: string }>().detail).toBe('No export folder with id abc.');
  }, 60_000);

  it('answers bad requests with problems: unknown symbol, bad dates, from after to, not JSON, an unknown export, no key', async () => {
    const cases: Array<[unknown, number, string]> = [
      [{ symbol: 'QQQ' }, 404, 'UNKNOWN_SYMBOL'],
      [{ from: '2026-02-30' }, 400, 'INVALID_PARAMETER'],
      [{ from: 'yesterday' }, 400, 'INVALID_PARAMETER'],
      [{ from: '2026-11-21', to: '2026-11-20' }, 400, 'INVALID_PARAMETER'],
      [{ symbol: 7 }, 400, 'INVALID_PARAMETER'],
      [[], 400, 'INVALID_PARAMETER'],
    ];
    for (const [body, status, code] of cases) {
      const response = await post(app, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json<{ code: string }>().code, JSON.stringify(body)).toBe(code);
    }
    const notJson = await app.request({ method: 'POST', url: '/v1/exports', headers: { 'content-type': 'application/json' }, payload: '{nope' });
    expect(notJson.statusCode).toBe(400);
    const missing = await app.get<{ code: string }>('/v1/exports/0123abcd');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NOT_FOUND');
    const anonymous = await app.request({ method: 'POST', url: '/v1/exports', headers: { authorization: '' } });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('the lake worker from the esbuild bundle', () => {
  // Inside the repository (test-results/ is ignored by git): the bundle resolves node_modules there.
  const outdir = join(REPO_ROOT, 'test-results', `lake-bundle-${process.pid}`);
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('scripts/build-node.mjs builds lake-worker.mjs beside cli.mjs, and an export runs in it', async () => {
    const build = spawnSync(process.execPath, ['scripts/build-node.mjs', '--outdir', outdir], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);
    const moduleUrl = pathToFileURL(join(outdir, 'cli.mjs')).href;
    expect(workerScript('lake-worker', moduleUrl, (m) => new Error(m)).script.pathname).toBe(join(outdir, 'lake-worker.mjs'));
    const app = await buildTestApp();
    try {
      for (const chain of market.slice(0, 2)) storeChain(app.ctx, chain);
      const jobs = new ExportJobs({ db: app.ctx.db, dbPath: join(app.dataDir, 'strikebook.db'), dataDir: app.dataDir, rate: () => 0.04, clock: app.ctx.clock, moduleUrl });
      const started = jobs.start({});
      if (!started.ok) throw new Error(JSON.stringify(started.error));
      for (let i = 0; i < 600 && started.value.state === 'running'; i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(started.value.state, started.value.error ?? '').toBe('done');
      expect(started.value.summary?.snapshots.written).toBe(2);
      await jobs.close();
    } finally {
      await app.close();
    }
  }, 120_000);
});
