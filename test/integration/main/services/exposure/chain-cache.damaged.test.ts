/**
 * A stored snapshot whose payload cannot be decoded (issue 29, finding 6's damaged blob): every route that reads it
 * answers 409 SNAPSHOT_DAMAGED naming the snapshot and the route that deletes it, never 500 INTERNAL; deleting it
 * brings the symbol back; `strikebook check` lists it (and the file's own integrity) without changing anything.
 * Before, /gex, /vanna, /expirations, /gex/profile, /gex/grid, /gex/diff and `snapshot=` of a damaged one were 500.
 * The column form (issue 32) is read through the same path: a damaged expiration's quotes, inflated only when a
 * history point first asks for them, are SNAPSHOT_DAMAGED too, and the check finds them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isColumnsPayload } from '../../../../../src-main/db/snapshot-columns';
import { StoredColumns } from '../../../../../src-main/db/stored-columns';
import { DEMO_SEED, demoMarket } from '../../../../../src-shared/demo/market';
import { runCli } from '../../../../cli';
import { buildTestApp, storeChain, tempDir, type TestApp } from '../../../../helper';

const spy = demoMarket(DEMO_SEED).filter((s) => s.symbol === 'SPY').slice(-4);

describe('a damaged stored snapshot', () => {
  let app: TestApp;
  let ids: number[];
  let storedAsColumns = false;
  /** The expiration whose quotes are stored last (the damaged ones). */
  let lastExpiration = '';
  const dataDir = tempDir();

  beforeAll(async () => {
    const first = await buildTestApp({ dataDir });
    ids = spy.map((s) => storeChain(first.ctx, s).id);
    await first.close();
    // Bytes that are no deflated chain in the newest snapshot, a chain of another shape in the oldest, and in the third
    // a column-form payload whose last expiration's quotes fail their checksum (its head and keys still read).
    const damage = await buildTestApp({ dataDir });
    damage.ctx.db.prepare('UPDATE snapshots SET payload = ? WHERE id = ?').run(Buffer.from('not a packed chain'), ids[3]);
    damage.ctx.db.prepare('UPDATE snapshots SET payload = ? WHERE id = ?').run(Buffer.from([0x78, 0x01, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]), ids[0]);
    const columns = damage.ctx.db.prepare<[number], Buffer>('SELECT payload FROM snapshots WHERE id = ?').pluck().get(ids[2] ?? 0) ?? Buffer.alloc(0);
    storedAsColumns = isColumnsPayload(columns);
    lastExpiration = storedAsColumns ? (new StoredColumns(columns).expirations.at(-1) ?? '') : '';
    const cut = Buffer.from(columns);
    cut[cut.length - 1] = (cut[cut.length - 1] ?? 0) ^ 0xff;
    damage.ctx.db.prepare('UPDATE snapshots SET payload = ? WHERE id = ?').run(cut, ids[2]);
    await damage.close();
    app = await buildTestApp({ dataDir });
  }, 90_000);
  afterAll(async () => app.close());

  const newest = () => ids[3] ?? 0;
  const columns = () => ids[2] ?? 0;
  const oldest = () => ids[0] ?? 0;
  const quoted = (index: number) => new Date(Date.parse(spy[index]?.quoteTime ?? '')).toISOString();

  it('answers 409 SNAPSHOT_DAMAGED on every route that reads it, naming it and how to delete it', async () => {
    const quoteTime = quoted(3);
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

  it('a column-form payload damaged in its quotes: SNAPSHOT_DAMAGED for /gex and for a history point that reads them alone', async () => {
    expect(storedAsColumns, 'the snapshot was stored in the column form').toBe(true);
    const named = new RegExp(`^Snapshot ${columns()} of SPY \\(quoted ${quoted(2).replace(/\./g, '\\.')}\\) is damaged in the database: stored snapshot payload is not readable: the quotes of .+ does not inflate`);
    const gex = await app.get<{ code: string; detail: string }>(`/v1/gex?symbol=SPY&snapshot=${columns()}`);
    expect([gex.status, gex.body.code]).toEqual([409, 'SNAPSHOT_DAMAGED']);
    expect(gex.body.detail).toMatch(named);
    // The damaged expiration's scope, from/to holding this snapshot alone: its head and keys read, then its quotes fail.
    const at = encodeURIComponent(quoted(2));
    const history = await app.get<{ code: string; detail: string }>(`/v1/gex/history?symbol=SPY&expirations=${lastExpiration}&from=${at}&to=${at}`);
    expect([history.status, history.body.code], history.body.detail).toEqual([409, 'SNAPSHOT_DAMAGED']);
    expect(history.body.detail).toMatch(named);
  });

  it('strikebook check lists the three, with the file itself sound, and exits 1', () => {
    const run = runCli(['check', '--data-dir', dataDir]);
    expect(run.status, run.stderr).toBe(1);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/strikebook\.db: schema version \d+; integrity ok; 4 snapshots read back, 3 damaged$/);
    expect(lines.slice(1).map((line) => line.replace(/damaged: .*; delete/, 'damaged: …; delete'))).toEqual([
      `  snapshot ${oldest()} of SPY (quoted ${quoted(0)}) is damaged: …; delete it: DELETE /v1/snapshots/${oldest()}`,
      `  snapshot ${columns()} of SPY (quoted ${quoted(2)}) is damaged: …; delete it: DELETE /v1/snapshots/${columns()}`,
      `  snapshot ${newest()} of SPY (quoted ${quoted(3)}) is damaged: …; delete it: DELETE /v1/snapshots/${newest()}`,
    ]);
  }, 60_000);

  it('once deleted, the symbol answers from the newest sound snapshot, and the check is clean', async () => {
    for (const id of [newest(), columns(), oldest()]) expect((await app.request({ method: 'DELETE', url: `/v1/snapshots/${id}` })).statusCode).toBe(200);
    const gex = await app.get<{ meta: { snapshotId: number } }>('/v1/gex?symbol=SPY');
    expect([gex.status, gex.body.meta.snapshotId]).toEqual([200, ids[1]]);
    const run = runCli(['check', '--data-dir', dataDir]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/integrity ok; 1 snapshot read back, none damaged\n$/);
  }, 60_000);
});
