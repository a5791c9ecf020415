/**
 * Backfill (issue 30, item 3): 200 copies of a real CBOE quotedata download, each quoted 30 minutes before the last,
 * in subfolders by day and named out of time order, are stored oldest first through POST /v1/chains/backfill. The run
 * is interrupted (the server closes half-way) and continued by a new server on the same data folder: every file is
 * stored once (200 snapshots, one per quote time), the files stored before are skipped by their bytes, /v1/health is
 * answered while it runs, only each symbol's newest backfilled snapshot is announced (position alerts), and the
 * journal's trades opened in that history get their levels at entry, equal to /gex's levels at their open.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackfillJobT, BackfillStatusT, GexResponseT, SnapshotsResponseT, TradesResponseT } from '../../../../src-shared/api/schemas';
import { manualClock } from '../../../clock';
import { buildTestApp, type TestApp } from '../../../helper';
import { tempDir } from '../../../paths';
import { writeShiftedChains, type GeneratedFile } from '../../../chain-files';

const COUNT = 200;
const dataDir = tempDir();
const chainsDir = tempDir('strikebook-backfill-');
let files: GeneratedFile[] = [];
// After the last copy's quote time, before its expiration (2025-01-07 16:00 New York): the short puts are open.
const clock = manualClock('2025-01-07T02:30:00Z');
const overrides = { snapshotRetentionBySymbol: { SPX: 500 } };

async function backfillStatus(t: TestApp): Promise<BackfillJobT | null> {
  return (await t.get<BackfillStatusT>('/v1/chains/backfill')).body.backfill;
}

async function startBackfill(t: TestApp, path: string) {
  return t.request({ method: 'POST', url: '/v1/chains/backfill', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ path }) });
}

beforeAll(() => {
  files = writeShiftedChains(chainsDir, COUNT);
});
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(chainsDir, { recursive: true, force: true });
});

describe('POST /v1/chains/backfill: 200 files, interrupted and continued', () => {
  // Two SPX weekly puts sold inside the history (a Friday and the last Monday), before any chain is stored.
  const opens = ['2025-01-03T15:00:00-05:00', '2025-01-06T14:10:00-05:00'];

  it('refuses a path that is not an absolute folder, and a link', async () => {
    const t = await buildTestApp({ clock, overrides });
    try {
      const relative = await startBackfill(t, 'chains');
      expect(relative.statusCode, relative.body).toBe(400);
      expect(relative.json().errors[0].param).toBe('path');
      expect(relative.json().detail).toContain('not an absolute path');
      const missing = await startBackfill(t, join(chainsDir, 'nope'));
      expect(missing.json().detail).toContain('does not exist');
      const link = join(tempDir(), 'link');
      symlinkSync(chainsDir, link);
      const linked = await startBackfill(t, link);
      expect(linked.statusCode).toBe(400);
      expect(linked.json().detail).toContain('symbolic link');
      const inside = await startBackfill(t, t.dataDir);
      expect(inside.json().detail).toContain('data folder');
      const unknown = await t.request({ method: 'POST', url: '/v1/chains/backfill', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ path: chainsDir, extra: 1 }) });
      expect(unknown.statusCode).toBe(400);
    } finally {
      await t.close();
    }
  });

  it('stores the files oldest first, continues after an interruption, fills the trades’ levels at entry', async () => {
    const first = await buildTestApp({ dataDir, clock, overrides });
    let announced = 0;
    first.ctx.exposure.onNewestSnapshot(() => (announced += 1));
    const manual = await first.request({
      method: 'POST',
      url: '/v1/journal/transactions',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        transactions: opens.map((date) => ({ account: 'Backfill test', date, type: 'SELL_TO_OPEN', symbol: 'SPXW', underlying: 'SPX', expiration: '2025-01-07', strike: 5930, right: 'P', quantity: 1, price: 4.8 })),
      }),
    });
    expect(manual.statusCode, manual.body).toBe(201);
    const before = await first.get<TradesResponseT>('/v1/journal/trades');
    expect(before.body.trades.map((trade) => trade.levelsAtEntry), 'no snapshot yet: no levels at entry').toEqual([null, null]);

    const started = await startBackfill(first, chainsDir);
    expect(started.statusCode, started.body).toBe(202);
    expect(started.headers.location).toBe('/v1/chains/backfill');
    const again = await startBackfill(first, chainsDir);
    expect(again.statusCode, 'one backfill at a time').toBe(409);

    // Health is answered between the files: count the answers that came while the backfill was storing.
    let healthWhileRunning = 0;
    for (;;) {
      const health = await first.request({ url: '/v1/health', headers: { authorization: '' } });
      expect(health.statusCode).toBe(200);
      const job = await backfillStatus(first);
      if (job?.state === 'running' && job.phase === 'importing') healthWhileRunning += 1;
      if (job !== null && job.phase === 'importing' && job.counts.imported >= 60) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(healthWhileRunning, 'health answered while files were being stored').toBeGreaterThan(0);
    await first.close();

    const second = await buildTestApp({ dataDir, clock, overrides });
    try {
      const interrupted = await backfillStatus(second);
      expect(interrupted?.state, 'shown as interrupted after the restart').toBe('interrupted');
      expect(interrupted?.path).toBe(chainsDir);
      const storedFirst = (await second.get<SnapshotsResponseT>('/v1/snapshots?symbol=SPX')).body.snapshots.length;
      expect(storedFirst).toBeGreaterThanOrEqual(60);
      expect(storedFirst).toBeLessThan(COUNT);

      let announcedAgain = 0;
      second.ctx.exposure.onNewestSnapshot(() => (announcedAgain += 1));
      const resumed = await startBackfill(second, chainsDir);
      expect(resumed.statusCode, resumed.body).toBe(202);
      await second.ctx.backfill.settled();
      const done = await backfillStatus(second);
      expect(done?.state).toBe('done');
      expect(done?.counts.files).toBe(COUNT);
      expect(done?.counts.alreadyStored, 'the files stored before the interruption are skipped by their bytes').toBe(storedFirst);
      expect(done?.counts.stored).toBe(COUNT - storedFirst);
      expect(done?.counts.failed).toBe(0);
      expect(done?.newest).toBe(files[0]?.quoteTime);
      // The interrupted run stored the oldest files: the continued one starts after them.
      expect(done?.oldest).toBe(files[COUNT - 1 - storedFirst]?.quoteTime);

      const snapshots = (await second.get<SnapshotsResponseT>('/v1/snapshots?symbol=SPX')).body.snapshots;
      expect(snapshots, 'every file once, no duplicate').toHaveLength(COUNT);
      expect(new Set(snapshots.map((s) => s.quoteTime)).size).toBe(COUNT);
      expect(new Set(snapshots.map((s) => s.quoteTime))).toEqual(new Set(files.map((f) => f.quoteTime)));
      // Oldest first: the snapshots' ids rise with their quote times (the list is newest first).
      const ids = snapshots.map((s) => s.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      // Only the newest of each run is announced (position alerts are about the positions now).
      expect(announced, 'the interrupted run stored no newest of the backfill yet').toBe(0);
      expect(announcedAgain, 'the continued run announces its newest snapshot alone').toBe(1);

      // A third run finds everything stored: nothing is parsed again.
      await startBackfill(second, chainsDir);
      await second.ctx.backfill.settled();
      const third = await backfillStatus(second);
      expect(third?.counts).toMatchObject({ files: COUNT, alreadyStored: COUNT, stored: 0, toImport: 0 });

      // The journal's caches follow the snapshots: the trades now have their levels at entry, those of /gex at the open.
      const after = (await second.get<TradesResponseT>('/v1/journal/trades')).body.trades;
      expect(after).toHaveLength(2);
      for (const trade of after) {
        expect(trade.levelsAtEntry, `${trade.openedAt}: levels at entry after the backfill`).not.toBeNull();
        const gex = (await second.get<GexResponseT>(`/v1/gex?symbol=SPX&at=${encodeURIComponent(trade.openedAt ?? '')}`)).body;
        expect(trade.levelsAtEntry?.gammaFlip).toBe(gex.gammaInflection);
        expect(trade.levelsAtEntry?.callWall).toBe(gex.callWall?.strike ?? null);
        expect(trade.levelsAtEntry?.putWall).toBe(gex.putWall?.strike ?? null);
        expect(trade.levelsAtEntry?.gammaZone).toBe(gex.gammaZone);
      }
    } finally {
      await second.close();
    }
  }, 120_000);

  it('a bad file fails alone, with its reason; links are not followed', async () => {
    const dir = tempDir('strikebook-backfill-bad-');
    const t = await buildTestApp({ clock: manualClock('2025-01-07T02:30:00Z') });
    try {
      const [good] = writeShiftedChains(dir, 1);
      writeFileSync(join(dir, 'broken.csv'), 'not,a,chain\n1,2,3\n');
      mkdirSync(join(dir, 'sub'));
      symlinkSync(good?.path ?? '', join(dir, 'sub', 'link.csv'));
      expect((await startBackfill(t, dir)).statusCode).toBe(202);
      await t.ctx.backfill.settled();
      const job = await backfillStatus(t);
      expect(job?.counts).toMatchObject({ files: 2, stored: 1, failed: 1, links: 1 });
      expect(job?.failures[0]?.file).toBe('broken.csv');
      expect(job?.failures[0]?.reason).toMatch(/problem/);
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
