/**
 * A read never needs the write lock (issue 16): a cold /gex/history computes its missing points and answers 200 while
 * another process holds `BEGIN IMMEDIATE` (it answered 503 DATABASE_BUSY, having to store them first); the points are
 * stored in the background once the lock is gone, and meanwhile later requests are answered from memory.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GexHistoryResponseT } from '../../../../../src-shared/api/schemas';
import { WriteQueue } from '../../../../../src-main/db/writes';
import { storeChain, useTestApp } from '../../../../helper';
import { holdWriteLock } from '../../../../lock';
import { contract, snapshot } from '../../../../exposure-helpers';

const t = useTestApp();

const stored = (scope: string) => (t.ctx.db.prepare('SELECT snapshot_id FROM gex_history WHERE scope = ? ORDER BY snapshot_id').pluck().all(scope) as number[]);

describe('/gex/history while another process holds the write lock', () => {
  it('answers 200 with every point, stores them once the lock is released, and never 503', async () => {
    for (const quoteTime of ['2026-01-05T15:00:00Z', '2026-01-05T16:00:00Z', '2026-01-05T17:00:00Z']) {
      storeChain(t.ctx, { ...snapshot([contract({ strike: 100, right: 'C' }), contract({ strike: 95, right: 'P' })]), quoteTime });
    }
    const url = '/v1/gex/history?symbol=XYZ&formula=per_1pct&expirationsCount=1';
    const scope = 'per_1pct||1||';
    expect(stored(scope), 'cold: no point of this scope is kept yet').toEqual([]);

    // The exposure worker started (a /gex of the default scope), so that the history's own time is only its points.
    expect((await t.get('/v1/gex?symbol=XYZ')).status).toBe(200);
    const lock = holdWriteLock(join(t.dataDir, 'strikebook.db'));
    try {
      await lock.locked;
      const during = await t.get<GexHistoryResponseT>(url);
      expect(during.status, JSON.stringify(during.body)).toBe(200);
      expect(during.body.points).toHaveLength(3);
      expect(stored(scope), 'nothing could be stored while the lock is held').toEqual([]);
      const again = await t.get<GexHistoryResponseT>(url);
      expect(again.status).toBe(200);
      expect(again.body, 'a second request meanwhile answers the same points').toEqual(during.body);

      await lock.release();
      // The background write looks for the lock every second.
      for (let waited = 0; stored(scope).length < 3 && waited < 5000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(stored(scope), 'stored after the release').toHaveLength(3);
      expect((await t.get<GexHistoryResponseT>(url)).body, 'and read from the table the same').toEqual(during.body);
    } finally {
      if (lock.child.exitCode === null) lock.child.kill();
    }
  });
});

describe('WriteQueue.background', () => {
  it('retries while another process holds the lock and drops the write when it gives up; nothing throws', async () => {
    const queue = new WriteQueue(t.ctx.db);
    t.ctx.db.exec('CREATE TABLE IF NOT EXISTS background_test (x INTEGER)');
    const lock = holdWriteLock(join(t.dataDir, 'strikebook.db'));
    try {
      await lock.locked;
      const errors: unknown[] = [];
      const dropped = queue.background(() => t.ctx.db.prepare('INSERT INTO background_test VALUES (1)').run(), { retryMs: 100, giveUpMs: 300, onError: (error) => errors.push(error) });
      const kept = queue.background(() => t.ctx.db.prepare('INSERT INTO background_test VALUES (2)').run(), { retryMs: 100, giveUpMs: 10_000, onError: (error) => errors.push(error) });
      expect(await dropped, 'busy past its time: dropped').toBe(false);
      await lock.release();
      expect(await kept, 'stored once the lock was free').toBe(true);
      expect(t.ctx.db.prepare('SELECT x FROM background_test').pluck().all()).toEqual([2]);
      expect(errors, 'a busy database is not an error to report').toEqual([]);
      const failed = await queue.background(() => t.ctx.db.prepare('INSERT INTO no_such_table VALUES (1)').run(), { onError: (error) => errors.push(error) });
      expect(failed).toBe(false);
      expect(errors).toHaveLength(1);
    } finally {
      if (lock.child.exitCode === null) lock.child.kill();
    }
  });
});
