/**
 * Key rotation is atomic (docs/decisions.md §API, "Key rotation"; issue 16): the new key file is written (a temporary
 * file beside it, synced, renamed over it) inside the database transaction, and the keys in memory change only after
 * the commit. When the file cannot be written, nothing changes: the old key keeps working, the api_keys table and the
 * key file are as they were, and the answer says why (507 KEY_FILE_UNWRITABLE, never 500). The tests run as root too,
 * where a read-only mode stops nothing: what is in the file's way is a folder, which no user can open as a file.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEY_FILE, keyFileRestore, keyFileTemp, stageKeyFile } from '../../../../src-main/server/key-file';
import { buildTestApp, tempDir, type TestApp } from '../../../helper';

interface ProblemBody {
  status: number;
  code: string;
  detail: string;
}

const keyRows = (t: TestApp) => t.ctx.db.prepare('SELECT id, name, hash, created_at, revoked_at FROM api_keys ORDER BY id').all();

async function withApp(run: (t: TestApp) => Promise<void>): Promise<void> {
  const t = await buildTestApp();
  try {
    await run(t);
  } finally {
    await t.close();
  }
}

/** A request with the key of the key file as it is on disk now. */
async function withFileKey(t: TestApp, url: string, method: 'GET' | 'POST' = 'GET') {
  const key = readFileSync(join(t.dataDir, KEY_FILE), 'utf8').trim();
  return t.request({ method, url, headers: { authorization: `Bearer ${key}` } });
}

describe('POST /v1/keys/rotate when the key file cannot be written', () => {
  for (const [label, block] of [
    ['a folder where the temporary file goes', (dir: string) => mkdirSync(join(dir, `${KEY_FILE}.tmp`, 'inside'), { recursive: true })],
    ['a folder in place of the key file', (dir: string) => {
      rmSync(join(dir, KEY_FILE));
      mkdirSync(join(dir, KEY_FILE, 'inside'), { recursive: true });
    }],
  ] as const) {
    it(`${label}: 507 KEY_FILE_UNWRITABLE naming the file; the old key works; the table and the file are unchanged`, async () => {
      await withApp(async (t) => {
        const oldKey = t.ctx.apiKey;
        const path = join(t.dataDir, KEY_FILE);
        const rowsBefore = keyRows(t);
        block(t.dataDir);
        const fileBefore = existsSync(path) && statSync(path).isFile() ? readFileSync(path, 'utf8') : null;
        const filesBefore = readdirSync(t.dataDir).sort();

        const response = await t.request({ method: 'POST', url: '/v1/keys/rotate', headers: { authorization: `Bearer ${oldKey}` } });
        expect(response.statusCode, response.body).toBe(507);
        const problem = response.json<ProblemBody>();
        expect(problem.code).toBe('KEY_FILE_UNWRITABLE');
        expect(problem.detail).toContain(path);
        expect(problem.detail).toMatch(/Nothing was changed: the current key still works\./);

        expect((await t.request({ url: '/v1/journal/summary', headers: { authorization: `Bearer ${oldKey}` } })).statusCode, 'the old key still works').toBe(200);
        expect(t.ctx.apiKey, 'the key in memory is the old one').toBe(oldKey);
        expect(keyRows(t), 'api_keys unchanged: no new key, nothing revoked').toEqual(rowsBefore);
        expect(existsSync(path) && statSync(path).isFile() ? readFileSync(path, 'utf8') : null, 'the key file unchanged').toBe(fileBefore);
        expect(readdirSync(t.dataDir).sort(), 'no temporary or restore file left behind').toEqual(filesBefore);

        // Once the way is clear, the rotation goes through and the new key file's key is the one that works.
        rmSync(join(t.dataDir, `${KEY_FILE}.tmp`), { recursive: true, force: true });
        if (!statSync(path).isFile()) rmSync(path, { recursive: true });
        const rotated = await t.request({ method: 'POST', url: '/v1/keys/rotate', headers: { authorization: `Bearer ${oldKey}` } });
        expect(rotated.statusCode, rotated.body).toBe(200);
        const { key } = rotated.json<{ key: string }>();
        expect(readFileSync(path, 'utf8').trim()).toBe(key);
        expect(statSync(path).mode & 0o777).toBe(0o600);
        expect((await withFileKey(t, '/v1/journal/summary')).statusCode).toBe(200);
        expect((await t.request({ url: '/v1/journal/summary', headers: { authorization: `Bearer ${oldKey}` } })).statusCode, 'the rotated key is revoked').toBe(401);
        expect(existsSync(keyFileTemp(path)) || existsSync(keyFileRestore(path)), 'nothing left beside the key file').toBe(false);
      });
    });
  }

  it('a symbolic link in place of the key file: 507, the link and its target untouched', async () => {
    await withApp(async (t) => {
      const path = join(t.dataDir, KEY_FILE);
      const target = join(tempDir(), 'elsewhere');
      writeFileSync(target, 'not yours\n', { mode: 0o644 });
      rmSync(path);
      symlinkSync(target, path);
      const response = await t.request({ method: 'POST', url: '/v1/keys/rotate', headers: { authorization: `Bearer ${t.ctx.apiKey}` } });
      expect(response.statusCode).toBe(507);
      expect(response.json<ProblemBody>().detail).toMatch(/symbolic link/);
      expect(readFileSync(target, 'utf8')).toBe('not yours\n');
      expect(statSync(target).mode & 0o777).toBe(0o644);
    });
  });
});

describe('the staged key file', () => {
  it('undo after install puts the old file back (as a failed commit needs); finish keeps the new one', () => {
    const dir = tempDir();
    const path = join(dir, KEY_FILE);
    writeFileSync(path, 'sb_old\n', { mode: 0o600 });
    const failed = stageKeyFile(path, 'sb_new');
    failed.install();
    expect(readFileSync(path, 'utf8')).toBe('sb_new\n');
    failed.undo();
    expect(readFileSync(path, 'utf8'), 'the commit failed: the old key is back').toBe('sb_old\n');
    expect(readdirSync(dir)).toEqual([KEY_FILE]);

    const kept = stageKeyFile(path, 'sb_new');
    kept.install();
    kept.finish();
    expect(readFileSync(path, 'utf8')).toBe('sb_new\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual([KEY_FILE]);
  });

  it('a temporary file left by a crash is replaced; a first key file is created 0600', () => {
    const dir = tempDir();
    const path = join(dir, KEY_FILE);
    writeFileSync(keyFileTemp(path), 'stale');
    const staged = stageKeyFile(path, 'sb_first');
    staged.install();
    staged.finish();
    expect(readFileSync(path, 'utf8')).toBe('sb_first\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual([KEY_FILE]);
  });
});
