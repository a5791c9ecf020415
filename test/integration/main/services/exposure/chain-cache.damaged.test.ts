/**
 * A stored snapshot whose payload cannot be decoded (issue 29, finding 6's damaged blob): every route that reads it
 * answers 409 SNAPSHOT_DAMAGED naming the snapshot and the route that deletes it, never 500 INTERNAL; deleting it
 * brings the symbol back; `strikebook check` lists it (and the file's own integrity) without changing anything.
 * Before, /gex, /vanna, /expirations, /gex/profile, /gex/grid, /gex/diff and `snapshot=` of a damaged one were 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SEED, demoMarket } from '../../../../../src-shared/demo/market';
import { runCli } from '../../../../cli';
import { buildTestApp, storeChain, tempDir, type TestApp } from '../../../../helper';

const spy = demoMarket(DEMO_SEED).filter((s) => s.symbol === 'SPY').slice(-3);

describe('a damaged stored snapshot', () => {
  let app: TestApp;
  let ids: number[];
  const dataDir = tempDir();

  beforeAll(async () => {
    const first = await buildTestApp({ dataDir });
    ids = spy.map((s) => storeChain(first.ctx, s).id);
    await first.close();
    // Bytes that are no deflated chain in the newest snapshot, and a chain of another shape in the oldest.
    const damage = await buildTestApp({ dataDir });
    damage.ctx.db.prepare('UPDATE snapshots SET payload = ? WHERE id = ?').run(Buffer.from('not a packed chain'), ids[2]);
    damage.ctx.db.prepare('UPDATE snapshots SET payload = ? WHERE id = ?').run(Buffer.from([0x78, 0x01, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]), ids[0]);
    await damage.close();
    app = await buildTestApp({ dataDir });
  }, 90_000);
  afterAll(async () => app.close());

  const newest = () => ids[2] ?? 0;
  const oldest = () => ids[0] ?? 0;

  it('answers 409 SNAPSHOT_DAMAGED on every route that reads it, naming it and how to delete it', async () => {
    const quoteTime = new Date(Date.parse(spy[2]?.quoteTime ?? '')).toISOString();
    for (const url of ['/v1/gex?symbol=SPY', '/v1/vanna?symbol=SPY', '/v1/expirations?symbol=SPY', '/v1/gex/profile?symbol=SPY', '/v1/gex/grid?symbol=SPY', `/v1/gex/diff?symbol=SPY&from=${ids[1]}&to=${newest()}`]) {
      const { status, body } = await app.get<{ code: string; detail: string; errors: Array<{ param: string; message: string }> }>(url);
      expect([url, status, body.code]).toEqual([url, 409, 'SNAPSHOT_DAMAGED']);
      expect(body.detail).toMatch(new RegExp(`^Snapshot ${newest()} of SPY \\(quoted ${quoteTime.replace(/\./g, '\\.')}\\) is damaged in the database: stored snapshot payload is not readable: .+\\. Delete it \\(DELETE /v1/snapshots/${newest()}\\); the other snapshots are not affected`));
      expect(body.errors).toEqual([{ param: 'snapshot', message: `snapshot ${newest()} cannot be read: delete it with DELETE /v1/snapshots/${newest()}` }]);
    }
    const old = await app.get<{ code: string; detail: string }>(`/v1/gex?symbol=SPY&snapshot=${oldest()}`);
    expect([old.status, old.body.code]).toEqual([409, 'SNAPSHOT_DAMAGED']);
    expect(old.body.detail).toContain(`Snapshot ${oldest()} of SPY`);
    const sound = await app.get(`/v1/gex?symbol=SPY&snapshot=${ids[1]}`);
    expect(sound.status, 'the snapshot between them is read as ever').toBe(200);
  });

  it('strikebook check lists both, with the file itself sound, and exits 1', () => {
    const run = runCli(['check', '--data-dir', dataDir]);
    expect(run.status, run.stderr).toBe(1);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/strikebook\.db: schema version \d+; integrity ok; 3 snapshots read back, 2 damaged$/);
    expect(lines.slice(1).map((line) => line.replace(/damaged: .*; delete/, 'damaged: …; delete'))).toEqual([
      `  snapshot ${oldest()} of SPY (quoted ${new Date(Date.parse(spy[0]?.quoteTime ?? '')).toISOString()}) is damaged: …; delete it: DELETE /v1/snapshots/${oldest()}`,
      `  snapshot ${newest()} of SPY (quoted ${new Date(Date.parse(spy[2]?.quoteTime ?? '')).toISOString()}) is damaged: …; delete it: DELETE /v1/snapshots/${newest()}`,
    ]);
  }, 60_000);

  it('once deleted, the symbol answers from the newest sound snapshot, and the check is clean', async () => {
    for (const id of [newest(), oldest()]) expect((await app.request({ method: 'DELETE', url: `/v1/snapshots/${id}` })).statusCode).toBe(200);
    const gex = await app.get<{ meta: { snapshotId: number } }>('/v1/gex?symbol=SPY');
    expect([gex.status, gex.body.meta.snapshotId]).toEqual([200, ids[1]]);
    const run = runCli(['check', '--data-dir', dataDir]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/integrity ok; 1 snapshot read back, none damaged\n$/);
  }, 60_000);
});
