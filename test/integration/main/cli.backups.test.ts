/**
 * `strikebook backup` and `strikebook restore` (issue 29, item 7): a round trip gives back the journal and the chains as
 * they were at the backup (the API's own answers, before and after); a backup killed with SIGKILL in the middle of its
 * VACUUM INTO leaves the journal and the older backups byte for byte, and the older backup restorable; a restore is
 * refused while a server runs on the data folder, and one staged through the app is put in place at its next start.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/db/open';
import { BIN, runCli, startServe } from '../../cli';
import { buildTestApp, tempDir } from '../../helper';
import { BROKER_FIXTURES_LOCAL } from '../../paths';
import { SMALL_CHAIN, send } from '../../uploads';

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** What the API answers of a data folder: the journal's summary, its transactions, the chains. */
async function answers(dataDir: string): Promise<unknown> {
  const app = await buildTestApp({ dataDir });
  try {
    return {
      summary: (await app.get('/v1/journal/summary')).body,
      transactions: (await app.get('/v1/journal/transactions?limit=100')).body,
      chains: (await app.get('/v1/chains')).body,
    };
  } finally {
    await app.close();
  }
}

function chainFile(dir: string): string {
  const path = join(dir, 'chain.csv');
  writeFileSync(path, SMALL_CHAIN);
  return path;
}

describe('strikebook backup and restore', () => {
  it('round trip: the journal and the chains as they were at the backup', async () => {
    const dataDir = tempDir();
    const work = tempDir();
    expect(runCli(['import', join(BROKER_FIXTURES_LOCAL, 'generic_wheel_selfwritten.csv'), '--broker', 'generic', '--data-dir', dataDir]).status).toBe(0);
    expect(runCli(['chain', 'import', chainFile(work), '--data-dir', dataDir]).status).toBe(0);
    const before = await answers(dataDir);

    const backup = runCli(['backup', '--data-dir', dataDir]);
    expect(backup.status, backup.stderr).toBe(0);
    const path = /^(\S+): a backup of/.exec(backup.stdout)?.[1] ?? '';
    expect(path).toMatch(/backups\/strikebook-.+-manual\.db$/);

    // Changed after the backup: another broker file and the chain under another symbol.
    expect(runCli(['import', join(BROKER_FIXTURES_LOCAL, 'schwab_transactions_pfe_wheel_selfwritten.csv'), '--broker', 'schwab', '--data-dir', dataDir]).status).toBe(0);
    expect(runCli(['chain', 'import', chainFile(work), '--symbol', 'QQQ', '--data-dir', dataDir]).status).toBe(0);
    expect(await answers(dataDir)).not.toEqual(before);

    const restored = runCli(['restore', path.split('/').at(-1) ?? '', '--data-dir', dataDir]);
    expect(restored.status, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/strikebook\.db: restored from .+-manual\.db \(schema version \d+\); the journal it replaced is backed up as .+-restore\.db\n$/);
    expect(await answers(dataDir), 'the API answers as before the changes').toEqual(before);
    expect(runCli(['check', '--data-dir', dataDir]).status).toBe(0);

    // A file that is no backup is refused in one line, nothing changed.
    const db = join(dataDir, 'strikebook.db');
    const kept = sha256(db);
    const refused = runCli(['restore', join(BROKER_FIXTURES_LOCAL, 'generic_wheel_selfwritten.csv'), '--data-dir', dataDir]);
    expect(refused.status).toBe(1);
    expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain('is not an SQLite database (not a Strikebook backup); nothing was changed');
    expect(sha256(db)).toBe(kept);
  }, 240_000);

  it('backup --out writes a new file that restores; an existing file, /proc or a missing folder is refused in one line', async () => {
    const dataDir = tempDir();
    const work = tempDir();
    expect(runCli(['import', join(BROKER_FIXTURES_LOCAL, 'generic_wheel_selfwritten.csv'), '--broker', 'generic', '--data-dir', dataDir]).status).toBe(0);
    const before = await answers(dataDir);
    const out = join(work, 'journal-copy.db');
    const written = runCli(['backup', '--out', out, '--data-dir', dataDir]);
    expect(written.status, written.stderr).toBe(0);
    expect(written.stdout.startsWith(`${out}: a backup of `)).toBe(true);
    expect((statSync(out).mode & 0o777).toString(8)).toBe('600');
    expect(readdirSync(work), 'no temporary file left beside it').toEqual(['journal-copy.db']);
    for (const [target, problem] of [
      [out, `${out} exists: name a new file (a backup never replaces one)`],
      ['/proc/self/strikebook.db', 'is on the system\'s /proc file system, not a disk'],
      [join(work, 'missing', 'x.db'), `${join(work, 'missing')} is not a folder`],
    ] as const) {
      const refused = runCli(['backup', '--out', target, '--data-dir', dataDir]);
      expect(refused.status, target).toBe(1);
      expect(refused.stderr.trimEnd().split('\n'), target).toHaveLength(1);
      expect(refused.stderr, target).toContain(problem);
    }
    expect(runCli(['import', join(BROKER_FIXTURES_LOCAL, 'schwab_transactions_pfe_wheel_selfwritten.csv'), '--broker', 'schwab', '--data-dir', dataDir]).status).toBe(0);
    const restored = runCli(['restore', out, '--data-dir', dataDir]);
    expect(restored.status, restored.stderr).toBe(0);
    expect(await answers(dataDir)).toEqual(before);
  }, 300_000);

  it('a backup killed mid-way (SIGKILL during VACUUM INTO) leaves the journal and the older backups intact and restorable', async () => {
    const dataDir = tempDir();
    const dbPath = join(dataDir, 'strikebook.db');
    // A journal large enough that its copy takes a while: 60 MB of incompressible rows beside the schema.
    const { db } = openDatabase(dbPath);
    db.exec('CREATE TABLE filler (b BLOB)');
    const insert = db.prepare('INSERT INTO filler (b) VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 240; i += 1) insert.run(randomBytes(256 * 1024));
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const older = runCli(['backup', '--data-dir', dataDir]);
    expect(older.status, older.stderr).toBe(0);
    const olderPath = /^(\S+): a backup of/.exec(older.stdout)?.[1] ?? '';
    const olderSha = sha256(olderPath);
    const journalSha = sha256(dbPath);

    const folder = join(dataDir, 'backups');
    const child = spawn(process.execPath, [BIN, 'backup', '--data-dir', dataDir], { stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal === null ? 0 : 1)));
    // Killed once its temporary copy holds a few MB: VACUUM INTO is under way, the rename not yet done.
    let killedMidway = false;
    for (;;) {
      const temp = readdirSync(folder).find((name) => name.endsWith('.tmp'));
      if (temp !== undefined && (statSync(join(folder, temp), { throwIfNoEntry: false })?.size ?? 0) > 4 * 1024 * 1024) {
        child.kill('SIGKILL');
        killedMidway = true;
        break;
      }
      if (child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await exited;
    expect(killedMidway, 'the child was killed while its copy was being written').toBe(true);
    const left = readdirSync(folder).sort();
    expect(left.filter((name) => name.endsWith('.db')), 'no backup under a backup’s name from the killed run').toEqual([olderPath.split('/').at(-1)]);
    expect(left.filter((name) => name.endsWith('.tmp')), 'its temporary file').toHaveLength(1);
    expect(sha256(dbPath), 'the journal byte for byte').toBe(journalSha);
    expect(sha256(olderPath), 'the older backup byte for byte').toBe(olderSha);

    // The next backup clears the temporary file; the older backup restores.
    expect(runCli(['backup', '--data-dir', dataDir]).status).toBe(0);
    expect(readdirSync(folder).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const restored = runCli(['restore', olderPath, '--data-dir', dataDir]);
    expect(restored.status, restored.stderr).toBe(0);
    const check = new Database(dbPath, { readonly: true });
    expect(check.prepare('SELECT count(*) FROM filler').pluck().get()).toBe(240);
    check.close();
    expect(runCli(['check', '--data-dir', dataDir]).status).toBe(0);
  }, 300_000);

  it('refuses to restore under a running server; the app stages it, and the next start puts it in place', async () => {
    const dataDir = tempDir();
    expect(runCli(['import', join(BROKER_FIXTURES_LOCAL, 'generic_wheel_selfwritten.csv'), '--broker', 'generic', '--data-dir', dataDir]).status).toBe(0);
    const before = await answers(dataDir);
    const server = await startServe(['--port', '0', '--data-dir', dataDir]);
    try {
      const key = readFileSync(server.keyFile, 'utf8').trim();
      // Started with no backup: the daily one is taken at the start.
      let listing: { backups: Array<{ name: string; reason: string }>; last: { reason: string } | null; pendingRestore: string | null } = { backups: [], last: null, pendingRestore: null };
      for (let i = 0; i < 200 && listing.backups.length === 0; i += 1) {
        listing = JSON.parse((await send(server.port, key, '/v1/backups', '', { method: 'GET' }).answer).body) as typeof listing;
        if (listing.backups.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(listing.last?.reason).toBe('daily');
      const daily = listing.backups[0]?.name ?? '';

      const cli = runCli(['restore', daily, '--data-dir', dataDir]);
      expect(cli.status).toBe(1);
      expect(cli.stderr).toMatch(/^strikebook: restore: Strikebook is running on .+ \(process \d+\): stop it first, or restore from Settings → Backups/);

      expect((await send(server.port, key, '/v1/imports?broker=schwab', readFileSync(join(BROKER_FIXTURES_LOCAL, 'schwab_transactions_pfe_wheel_selfwritten.csv'))).answer).status).toBe(201);
      const staged = await send(server.port, key, '/v1/backups/restore', JSON.stringify({ name: daily }), { contentType: 'application/json' }).answer;
      expect(staged.status, staged.body).toBe(202);
      expect(JSON.parse(staged.body)).toMatchObject({ pendingRestore: daily });
      const listed = JSON.parse((await send(server.port, key, '/v1/backups', '', { method: 'GET' }).answer).body) as typeof listing;
      expect(listed.pendingRestore).toBe(daily);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    expect(existsSync(join(dataDir, 'strikebook.pid')), 'the server’s process id file goes with it').toBe(false);
    // The next start (here the test's own app) restores it before opening the journal.
    expect(await answers(dataDir)).toEqual(before);
    expect(readdirSync(join(dataDir, 'backups')).some((name) => name.endsWith('-restore.db')), 'the journal it replaced was backed up').toBe(true);
  }, 300_000);
});
