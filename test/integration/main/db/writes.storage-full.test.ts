/**
 * A full disk (issue 16, docs/decisions.md "A full disk"): a write that cannot be stored answers 507 STORAGE_FULL
 * problem+json with a clear message, never 500, and leaves the database as it was; reads go on; once there is room
 * again, the same write goes through.
 *
 * Two ways of filling the disk. Everywhere: SQLite's `max_page_count` on every connection of the server (the
 * `extraPages` option), which makes SQLite fail a growing write with SQLITE_FULL, the very error it gives on a full
 * disk; deterministic and needing no privileges. And a real 4 MB tmpfs as the data folder, filled to the last byte,
 * for what max_page_count cannot reach (the key file's ENOSPC): as root it is mounted here; otherwise this file runs
 * again in a user namespace (`unshare --user --map-root-user --mount`) where the test process is root and may mount
 * it. Where neither is allowed the test fails with one line saying so: it never skips.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildTestApp, REPO_ROOT, tempDir, type TestApp } from '../../../helper';

interface ProblemBody {
  status: number;
  code: string;
  detail: string;
}

function generic(rows: number, prefix: string): string {
  const lines = ['id,date,account,type,symbol,underlying,quantity,price,commission,fees,amount,currency'];
  for (let i = 0; i < rows; i += 1) lines.push(`${prefix}-${i},2024-03-${String((i % 28) + 1).padStart(2, '0')}T15:00:00Z,full,BUY,SPY,SPY,1,${500 + (i % 50)},0,0,-${500 + (i % 50)},USD`);
  return `${lines.join('\n')}\n`;
}

/** Open interest and IV that do not repeat: the column form (issue 32) packs a regular chain into less than a page. */
function chain(symbol: string, strikes: number): string {
  const lines = [`# symbol: ${symbol}`, '# spot: 100', '# quoteTime: 2099-02-02T16:00', 'expiration,strike,right,openInterest,iv,bid,ask'];
  for (let i = 0; i < strikes; i += 1) {
    for (const right of ['C', 'P']) lines.push(`2099-02-20,${50 + i * 0.5},${right},${(i * 7919 + (right === 'C' ? 13 : 71)) % 100_003},0.${1000 + ((i * 104_729) % 8999)},1.${i % 10},1.${(i % 10) + 1}`);
  }
  return lines.join('\n');
}

const post = (t: TestApp, url: string, body: string, type = 'text/csv') => t.request({ method: 'POST', url, payload: body, headers: { 'content-type': type } });

function expectStorageFull(response: { statusCode: number; body: string; headers: Record<string, unknown> }, what: string): void {
  expect(response.statusCode, `${what}: ${response.body.slice(0, 200)}`).toBe(507);
  expect(String(response.headers['content-type'])).toMatch(/^application\/problem\+json/);
  const problem = JSON.parse(response.body) as ProblemBody;
  expect(problem).toMatchObject({ status: 507, code: 'STORAGE_FULL' });
  expect(problem.detail).toMatch(/disk is full: nothing was stored/);
}

/** What the writes below could have changed. */
function counts(t: TestApp) {
  const one = (sql: string) => t.ctx.db.prepare(sql).pluck().get();
  return { transactions: one('SELECT count(*) FROM transactions'), imports: one('SELECT count(*) FROM imports'), snapshots: one('SELECT count(*) FROM snapshots'), keys: one('SELECT count(*) FROM api_keys') };
}

describe('a full database (SQLite max_page_count on every connection)', () => {
  it('imports, chain uploads and the demo answer 507 STORAGE_FULL and store nothing; reads go on', async () => {
    const t = await buildTestApp({ extraPages: 0 });
    try {
      const before = counts(t);
      expectStorageFull(await post(t, '/v1/imports?broker=generic', generic(5000, 'full')), 'an import (the journal worker)');
      expectStorageFull(await post(t, '/v1/chains', chain('FULL', 5000)), 'a chain upload');
      expectStorageFull(await t.request({ method: 'POST', url: '/v1/demo' }), 'the demo');
      expect(counts(t), 'nothing of them was stored').toEqual(before);
      for (const symbol of ['FULL', 'SPX']) expect((await t.request(`/v1/gex?symbol=${symbol}`)).statusCode, `no answer from a ${symbol} chain never stored`).toBe(404);
      for (const url of ['/v1/journal/summary', '/v1/imports', '/v1/chains', '/v1/settings']) expect((await t.request(url)).statusCode, url).toBe(200);
      // Small writes that fit in the pages the file already has still go through; none is ever a 500.
      const settings = await t.request({ method: 'PUT', url: '/v1/settings', payload: '{"rate":0.05}', headers: { 'content-type': 'application/json' } });
      expect([200, 507]).toContain(settings.statusCode);
      const rotated = await t.request({ method: 'POST', url: '/v1/keys/rotate' });
      expect([200, 507]).toContain(rotated.statusCode);
    } finally {
      await t.close();
    }
  });
});

/** Mounts a tmpfs of `sizeKib` at a new folder; the mount's error where this machine does not allow it. */
function mountTmpfs(sizeKib: number): { dir: string } | { error: string } {
  const dir = join(tempDir(), 'disk');
  mkdirSync(dir);
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKib}k,mode=0700`, 'tmpfs', dir], { encoding: 'utf8' });
  return mounted.status === 0 ? { dir } : { error: `${mounted.error?.message ?? ''}${mounted.stderr}`.trim() };
}

const REAL_DISK = 'a real full disk';
const IN_NAMESPACE = 'STRIKEBOOK_FULL_DISK_IN_USERNS';

/**
 * Not root: this file's real-disk test again, in a new user and mount namespace where the process maps to root and may
 * mount a tmpfs (no privilege of the machine is needed, only unprivileged user namespaces).
 */
function runInUserNamespace(): { status: number | null; output: string } {
  const vitest = join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  const args = ['--user', '--map-root-user', '--mount', process.execPath, vitest, 'run', fileURLToPath(import.meta.url), '-t', REAL_DISK];
  const run = spawnSync('unshare', args, { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, [IN_NAMESPACE]: '1' }, timeout: 120_000 });
  return { status: run.status, output: `${run.error?.message ?? ''}${run.stdout}${run.stderr}` };
}

/** Writes a file until the disk refuses another byte. */
function fill(path: string): void {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) {
      try {
        writeSync(fd, chunk);
      } catch {
        break;
      }
    }
    for (;;) {
      try {
        writeSync(fd, chunk.subarray(0, 512));
      } catch {
        break;
      }
    }
  } finally {
    closeSync(fd);
  }
}

describe(`${REAL_DISK} (a 4 MB tmpfs)`, () => {
  it('every write answers 507 STORAGE_FULL, never 500, and changes nothing; the key file and the old key survive a failed rotation; room again, the writes go through', async () => {
    if (process.getuid?.() !== 0 && process.env[IN_NAMESPACE] === undefined) {
      const run = runInUserNamespace();
      expect(run.status, `the full-disk test needs root or unprivileged user namespaces to mount a tmpfs (run as root, or allow user namespaces); in the namespace it said:\n${run.output.slice(-4000)}`).toBe(0);
      return;
    }
    const mounted = mountTmpfs(4096);
    if ('error' in mounted) throw new Error(`the full-disk test could not mount a tmpfs (it needs root with CAP_SYS_ADMIN, or a user namespace): ${mounted.error}`);
    const disk = mounted.dir;
    const t = await buildTestApp({ dataDir: join(disk, 'data') });
    try {
      const first = await post(t, '/v1/imports?broker=generic', generic(20, 'room'));
      expect(first.statusCode).toBe(201);
      // The WAL emptied and cut to nothing, so that every write needs new room on the disk (a WAL with room left would
      // take a small write even on a full disk, as it should).
      t.ctx.db.pragma('wal_checkpoint(TRUNCATE)');
      const filler = join(disk, 'filler');
      fill(filler);
      const before = counts(t);
      const keyFile = readFileSync(t.ctx.keyFilePath, 'utf8');
      const oldKey = t.ctx.apiKey;

      expectStorageFull(await post(t, '/v1/imports?broker=generic', generic(5000, 'full')), 'an import');
      expectStorageFull(await post(t, '/v1/chains', chain('FULL', 2000)), 'a chain upload');
      expect((await t.request('/v1/gex?symbol=FULL')).statusCode, 'no chain of a snapshot that was never stored answers').toBe(404);
      expectStorageFull(await t.request({ method: 'POST', url: '/v1/demo' }), 'the demo');
      expect((await t.request('/v1/gex?symbol=SPX')).statusCode, 'nor one of the demo').toBe(404);
      const rotated = await t.request({ method: 'POST', url: '/v1/keys/rotate' });
      expectStorageFull(rotated, 'a key rotation (the key file cannot be written)');
      expect(readFileSync(t.ctx.keyFilePath, 'utf8'), 'the key file is as it was').toBe(keyFile);
      expect((await t.request({ url: '/v1/journal/summary', headers: { authorization: `Bearer ${oldKey}` } })).statusCode, 'the old key works').toBe(200);
      const rate = (await t.get<{ rate: number }>('/v1/settings')).body.rate;
      expectStorageFull(await t.request({ method: 'PUT', url: '/v1/settings', payload: '{"rate":0.05}', headers: { 'content-type': 'application/json' } }), 'settings');
      expect((await t.get<{ rate: number }>('/v1/settings')).body.rate, 'the setting did not change').toBe(rate);
      expectStorageFull(await t.request({ method: 'DELETE', url: `/v1/imports/${first.json<{ id: number }>().id}` }), 'an undo');
      expect(counts(t), 'nothing of the refused writes was stored').toEqual(before);

      rmSync(filler);
      expect((await post(t, '/v1/imports?broker=generic', generic(5000, 'full'))).statusCode, 'with room again the import goes through').toBe(201);
      expect((await t.request({ method: 'POST', url: '/v1/keys/rotate' })).statusCode).toBe(200);
    } finally {
      await t.close();
      spawnSync('umount', [disk]);
    }
  });
});
