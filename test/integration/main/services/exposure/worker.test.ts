/**
 * The exposure worker (services/exposure-worker.ts) from the sources and from the esbuild bundle
 * (scripts/build-node.mjs builds exposure-worker.mjs beside cli.mjs), and the first /gex/history request over
 * stored SPX snapshots computed off the event loop.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ExposureWorkerClient } from '../../../../../src-main/services/exposure/worker-client';
import { buildTestApp, REPO_ROOT, storeChainFileInline, type TestApp } from '../../../../helper';
import { readChain } from '../../../../quotedata';
import { callsTo, workerCallsDuring } from '../../../../stall';

const GENERIC = ['# symbol: XYZ', '# spot: 100', '# quoteTime: 2026-02-02T16:00', 'expiration,strike,right,openInterest,iv', '2026-02-20,100,C,1200,0.31', '2026-02-20,100,P,900,0.33', ''].join('\n');
const basis = { rate: 0.04, states: [], latest: {} };

describe('the exposure worker starts in every run mode', () => {
  // Inside the repository (test-results/ is ignored by git): the bundle resolves node_modules and "type": "module" there.
  const buildRoot = join(REPO_ROOT, 'test-results', `exposure-worker-${process.pid}`);
  afterAll(() => rmSync(buildRoot, { recursive: true, force: true }));

  async function planThrough(client: ExposureWorkerClient): Promise<void> {
    try {
      const plan = await client.call('planChainFile', GENERIC, {}, basis);
      if (!plan.ok) throw new Error(JSON.stringify(plan.error));
      expect(plan.value.head).toMatchObject({ symbol: 'XYZ', spot: 100, contracts: 2, expirations: 1 });
      expect(plan.value.defaultPoint?.callWall?.strike, 'the default history point is planned in the worker').toBe(100);
      // A refused file is an answer, not a crash of the worker.
      const refused = await client.call('planChainFile', 'expiration,strike\nnope,1\n', {}, basis);
      expect(refused.ok).toBe(false);
    } finally {
      await client.close();
    }
  }

  it('from the sources (ts-worker.mjs)', async () => {
    await planThrough(new ExposureWorkerClient());
  }, 60_000);

  it('from the esbuild bundle', async () => {
    const outdir = join(buildRoot, 'node');
    const build = spawnSync(process.execPath, ['scripts/build-node.mjs', '--outdir', outdir], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);
    expect(existsSync(join(outdir, 'exposure-worker.mjs'))).toBe(true);
    await planThrough(new ExposureWorkerClient(undefined, pathToFileURL(join(outdir, 'cli.mjs')).href));
  }, 120_000);
});

const SPX = 'SPX_quotedata_2024-01-05close_phammings.csv';

describe('the first /gex/history request off the event loop', () => {
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
  });

  it('computes the points of its snapshots in the exposure worker, the event loop answering meanwhile', async () => {
    t = await buildTestApp();
    const app = t;
    const text = readChain(SPX);
    // Five stored SPX snapshots (the same chain at five quote times); their default scope's points (in every formula) are
    // stored with them, another scope's are computed on the first request.
    for (let i = 0; i < 5; i += 1) await storeChainFileInline(app.ctx, text, { quoteTime: `2024-01-05T1${i}:00:00-05:00` });
    const { value: answer, calls } = await workerCallsDuring(() => app.get<{ points: unknown[] }>('/v1/gex/history?symbol=SPX&formula=per_1pct&expirationsCount=2'));
    expect(answer.status).toBe(200);
    expect(answer.body.points).toHaveLength(5);
    // Five snapshots prepared on this thread would hold it for all of them: the points are one worker call.
    const points = callsTo(calls, 'historyPoints');
    expect(points.pings.length, `the points were computed in the worker: ${points.shown}`).toBeGreaterThanOrEqual(1);
    for (const pings of points.pings) expect(pings, `the event loop went on while the worker computed: ${points.shown}`).toBeGreaterThanOrEqual(3);
  }, 120_000);
});
