/**
 * The backup routes and the backups the deleting routes take first (issue 29, item 7; docs/decisions.md §Data,
 * "Backups"): an undo of an import, a deleted manual transaction and a deleted snapshot each wait for a backup that
 * holds what they delete; a backups folder that cannot take one stops the change (409 naming it, nothing deleted);
 * `POST /v1/backups` copies in the backup worker thread; `POST /v1/backups/restore` names a listed backup, refuses a
 * damaged one (409, nothing staged) and stages a whole one (202). Run with the worker path forced (inline below 0 bytes).
 */
import Database from 'better-sqlite3';
import { readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainSnapshot } from '../../../../../src-shared/exposure/model';
import { buildApp, type App } from '../../../../../src-main/server/app';
import { createContext, type OwnedContext } from '../../../../../src-main/context';
import { HOST, REPO_ROOT, storeChain, tempDir } from '../../../../helper';

const WHEEL = readFileSync(join(REPO_ROOT, 'test/fixtures/brokers/generic_wheel_selfwritten.csv'));

let ctx: OwnedContext;
let app: App;
let dataDir: string;

beforeAll(async () => {
  dataDir = tempDir();
  ctx = createContext({ dataDir, overrides: { rateLimit: { perSecond: 1e6, burst: 1e6 }, backupsKept: 3 }, backupInlineBelowBytes: 0 });
  app = await buildApp(ctx, { port: 7717, uiDir: null, logErrors: (error) => console.error('[test app error]', error) });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await ctx.close();
});

function send(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, contentType = 'application/json') {
  return app.inject({
    method,
    url,
    headers: { host: HOST, authorization: `Bearer ${ctx.apiKey}`, ...(body === undefined ? {} : { 'content-type': contentType }) },
    ...(body === undefined ? {} : { payload: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body) }),
  });
}

interface Listing {
  folder: string;
  keep: number;
  last: { name: string; reason: string; bytes: number } | null;
  backups: Array<{ name: string; reason: string; bytes: number; createdAt: string }>;
  pendingRestore: string | null;
}

const listing = async () => (await send('GET', '/v1/backups')).json<Listing>();

function countIn(file: string, sql: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare<[], number>(sql).pluck().get() ?? -1;
  } finally {
    db.close();
  }
}

function chain(): ChainSnapshot {
  const contracts = [90, 100, 110].flatMap((strike) => (['C', 'P'] as const).map((right) => ({ root: 'RTA', expiration: '2099-12-18', strike, right, openInterest: 1000 + strike, iv: 0.3, bid: 1, ask: 1.2, multiplier: 100 })));
  return { symbol: 'RTA', spot: 100, quoteTime: '2099-11-20T15:00:00Z', source: 'generic', contracts };
}

describe('backups before the changes that delete', () => {
  it('an undo waits for a backup that still holds the import it removes', async () => {
    const imported = await send('POST', '/v1/imports?broker=generic', WHEEL, 'text/csv');
    expect(imported.statusCode, imported.body).toBe(201);
    const importId = imported.json<{ id: number }>().id;
    const rows = countIn(join(dataDir, 'strikebook.db'), 'SELECT COUNT(*) FROM transactions');
    expect(rows).toBeGreaterThan(0);

    expect((await send('DELETE', `/v1/imports/${importId}`)).statusCode).toBe(200);
    const after = await listing();
    expect(after.last?.reason).toBe('undo');
    expect(countIn(join(after.folder, after.last?.name ?? ''), 'SELECT COUNT(*) FROM transactions'), 'the backup holds every row the undo removed').toBe(rows);
    expect(countIn(join(dataDir, 'strikebook.db'), 'SELECT COUNT(*) FROM transactions'), 'and the journal lost them').toBe(0);
  });

  it('a deleted snapshot is backed up first, and the newest `backupsKept` (3) are kept', async () => {
    const id = storeChain(ctx, chain()).id;
    expect((await send('DELETE', `/v1/snapshots/${id}`)).statusCode).toBe(200);
    const after = await listing();
    expect(after.last?.reason).toBe('delete');
    expect(countIn(join(after.folder, after.last?.name ?? ''), `SELECT COUNT(*) FROM snapshots WHERE id = ${id}`)).toBe(1);
    for (let i = 0; i < 3; i += 1) expect((await send('POST', '/v1/backups')).statusCode).toBe(201);
    const pruned = await listing();
    expect(pruned.keep).toBe(3);
    expect(pruned.backups.map((b) => b.reason)).toEqual(['manual', 'manual', 'manual']);
  });

  it('a backups folder that cannot take a backup stops the delete: 409 naming it, nothing deleted', async () => {
    const id = storeChain(ctx, { ...chain(), quoteTime: '2099-11-21T15:00:00Z' }).id;
    const folder = join(dataDir, 'backups');
    renameSync(folder, `${folder}.away`);
    symlinkSync(tempDir(), folder);
    try {
      const refused = await send('DELETE', `/v1/snapshots/${id}`);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json<{ detail: string }>().detail).toContain(`No backup was taken: ${folder} is a symbolic link`);
      expect(countIn(join(dataDir, 'strikebook.db'), `SELECT COUNT(*) FROM snapshots WHERE id = ${id}`), 'the snapshot is still there').toBe(1);
    } finally {
      rmSync(folder);
      renameSync(`${folder}.away`, folder);
    }
  });
});

describe('restore through the app', () => {
  it('names a listed backup, refuses a damaged one (nothing staged), stages a whole one for the next start', async () => {
    expect((await send('POST', '/v1/backups/restore', { name: 'strikebook-2020-01-01T00-00-00-000Z-daily.db' })).statusCode).toBe(404);
    const { backups, folder } = await listing();
    const [whole, damaged] = backups;
    if (whole === undefined || damaged === undefined) throw new Error('two backups expected');
    writeFileSync(join(folder, damaged.name), 'not a database any more');
    const refused = await send('POST', '/v1/backups/restore', { name: damaged.name });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json<{ detail: string }>().detail).toContain('is not an SQLite database (not a Strikebook backup); nothing was changed.');
    expect((await listing()).pendingRestore).toBeNull();

    const staged = await send('POST', '/v1/backups/restore', { name: whole.name });
    expect(staged.statusCode, staged.body).toBe(202);
    expect((await listing()).pendingRestore).toBe(whole.name);
  });
});
