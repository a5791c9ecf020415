/**
 * File modes (docs/architecture.md §Running, issue 8): a new data folder is 0700; the database, its -wal and -shm, the key file and the
 * backups are 0600, whatever the umask of the process that creates them (here the most permissive one, 000).
 */
import { chmodSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/db/open';
import { runCli, startServe, type ServeProcess } from '../../../cli';
import { tempDir } from '../../../paths';

const mode = (path: string) => statSync(path).mode & 0o777;

/** Children inherit the umask: spawn them under umask 000. */
function withUmask<T>(mask: number, fn: () => T): T {
  const previous = process.umask(mask);
  try {
    return fn();
  } finally {
    process.umask(previous);
  }
}

let server: ServeProcess | null = null;
afterEach(async () => {
  if (server) {
    server.child.kill('SIGTERM');
    await server.exited;
    server = null;
  }
});

describe('file modes under umask 000', () => {
  it('serve creates the data folder 0700 and the database, -wal, -shm and api-key 0600 (also after a key rotation)', async () => {
    const dataDir = join(tempDir(), 'new-folder');
    const running = await withUmask(0, () => startServe(['--port', '0', '--data-dir', dataDir]));
    server = running;
    const db = join(dataDir, 'strikebook.db');
    expect(mode(dataDir).toString(8)).toBe('700');
    for (const file of [db, `${db}-wal`, `${db}-shm`, join(dataDir, 'api-key')]) {
      expect(existsSync(file), `${file} exists while the server runs`).toBe(true);
      expect(mode(file).toString(8), file).toBe('600');
    }
    const key = readFileSync(running.keyFile, 'utf8').trim();
    const rotated = await fetch(`${running.apiBaseUrl}/keys/rotate`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
    expect(rotated.status).toBe(200);
    expect(mode(join(dataDir, 'api-key')).toString(8), 'the rewritten key file').toBe('600');
  });

  it('the backup written before a schema upgrade is 0600, and loose modes of an older database are narrowed', () => {
    const dataDir = tempDir();
    const db = join(dataDir, 'strikebook.db');
    // An older schema, written with loose modes (as a version before this fix left them).
    withUmask(0o022, () => openDatabase(db, { targetVersion: 3 }).db.close());
    chmodSync(db, 0o644);
    const result = withUmask(0, () => runCli(['keys', 'list', '--data-dir', dataDir]));
    expect(result.status, result.stderr).toBe(0);
    expect(mode(db).toString(8)).toBe('600');
    const backups = readdirSync(join(dataDir, 'backups')).filter((name) => name.endsWith('-migration.db'));
    expect(backups).toHaveLength(1);
    expect(mode(join(dataDir, 'backups', backups[0] ?? '')).toString(8)).toBe('600');
    expect(mode(join(dataDir, 'backups')).toString(8), 'the backups folder').toBe('700');
  });
});
