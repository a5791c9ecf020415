/**
 * Start-up faults (docs/architecture.md §Reliability and security, issue 8): a damaged database or a data folder that cannot be written stops `strikebook`
 * (serve and the other commands) with one message that names the file and says what to do, a non-zero exit, no
 * stack trace, and the database byte for byte as it was.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, lstatSync, openSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, truncateSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runCli } from '../../../cli';
import { REPO_ROOT, tempDir } from '../../../paths';

const PAGE = 4096;

/** A real database with data: two real broker files imported through the CLI. */
function realDataFolder(): { dataDir: string; db: string } {
  const dataDir = tempDir();
  const files = ['tastytrade_v2_21col_PFE_binnaculum.csv', 'generic_wheel_selfwritten.csv'].map((name) => join(REPO_ROOT, 'test/fixtures/brokers', name));
  const result = runCli(['import', ...files, '--data-dir', dataDir]);
  expect(result.status, result.stderr).toBe(0);
  const db = join(dataDir, 'strikebook.db');
  expect(statSync(db).size, 'enough pages to damage one in the middle').toBeGreaterThan(8 * PAGE);
  return { dataDir, db };
}

const literally = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Deterministic junk (a linear congruential sequence), so a failure can be replayed. */
function junk(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  let state = 12345;
  for (let i = 0; i < length; i += 1) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

const damage: Record<string, (db: string) => void> = {
  // Cut in the middle of a page, as a copy interrupted by a full disk leaves it.
  truncated: (db) => truncateSync(db, Math.floor(statSync(db).size / 2) + 100),
  garbage: (db) => writeFileSync(db, junk(statSync(db).size)),
  'page-corrupted': (db) => {
    const pages = statSync(db).size / PAGE;
    const fd = openSync(db, 'r+');
    writeSync(fd, junk(PAGE), 0, PAGE, Math.floor(pages / 2) * PAGE);
    closeSync(fd);
  },
};

function expectCleanRefusal(result: { status: number | null; stdout: string; stderr: string }, mentions: RegExp[]): void {
  expect(result.status, `exit status; stderr: ${result.stderr}`).toBe(3);
  const lines = result.stderr.trim().split('\n');
  expect(lines, 'one message').toHaveLength(1);
  expect(result.stderr, 'no stack trace').not.toMatch(/\n\s+at |Error:|node:internal/);
  for (const pattern of mentions) expect(result.stderr).toMatch(pattern);
}

describe('a damaged database stops the start with one message and is left untouched', () => {
  for (const [name, spoil] of Object.entries(damage)) {
    it(`${name}: serve and keys list refuse it (exit 3), naming the file and the backup to restore`, () => {
      const { dataDir, db } = realDataFolder();
      // A backup as a schema upgrade leaves it: the message must point at it.
      const backup = `${db}.v3.2026-01-02T03-04-05-000Z.bak`;
      copyFileSync(db, backup);
      spoil(db);
      const before = sha256(db);
      const filesBefore = readdirSync(dataDir).sort();

      for (const args of [['serve', '--port', '0'], ['keys', 'list']]) {
        const result = runCli([...args, '--data-dir', dataDir]);
        expectCleanRefusal(result, [/damaged/, literally(db), /strikebook\.db\.v3\.2026-01-02T03-04-05-000Z\.bak/, /did not change it/]);
        expect(result.stdout, `${args[0]} printed no banner`).toBe('');
      }
      expect(sha256(db), 'the database is byte for byte as it was').toBe(before);
      expect(readdirSync(dataDir).sort(), 'no file left behind (no -wal/-shm, no new key file)').toEqual(filesBefore);
    });
  }

  it('without a backup the message says to move the file away', () => {
    const { dataDir, db } = realDataFolder();
    damage['page-corrupted']?.(db);
    const result = runCli(['keys', 'list', '--data-dir', dataDir]);
    expectCleanRefusal(result, [/no backup/, /move strikebook\.db away/]);
  });
});

/** Runs the CLI as a user who cannot write the folder: `nobody` when the tests run as root (root writes anywhere). */
function runAsOtherUser(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const asRoot = process.getuid?.() === 0;
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 120_000,
    ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('a data folder that cannot be written stops the start with one message', () => {
  it('an existing folder with a database, read-only for this user: serve and keys list exit 3, the file unchanged', () => {
    const { dataDir, db } = realDataFolder();
    chmodSync(dataDir, 0o755);
    chmodSync(db, 0o644);
    chmodSync(join(dataDir, 'api-key'), 0o644);
    // Not root: take the write bit away from the owner (root is then `nobody`, for whom 0755 is read-only).
    if (process.getuid?.() !== 0) chmodSync(dataDir, 0o555);
    const before = sha256(db);
    try {
      for (const args of [['serve', '--port', '0'], ['keys', 'list']]) {
        const result = runAsOtherUser([...args, '--data-dir', dataDir]);
        expectCleanRefusal(result, [/cannot write to its data folder/, literally(dataDir), /--data-dir/]);
      }
    } finally {
      chmodSync(dataDir, 0o700);
    }
    expect(sha256(db)).toBe(before);
  });

  it('a new folder under a read-only parent: the message names the folder', () => {
    const parent = tempDir();
    chmodSync(parent, process.getuid?.() === 0 ? 0o755 : 0o555);
    const dataDir = join(parent, 'strikebook');
    try {
      const result = runAsOtherUser(['keys', 'list', '--data-dir', dataDir]);
      expectCleanRefusal(result, [/cannot write to its data folder/, literally(dataDir)]);
    } finally {
      chmodSync(parent, 0o700);
    }
  });
});

describe('a symbolic link among the data folder\'s files stops the start with one message naming it (issue 16)', () => {
  // Each case puts a link where Strikebook keeps a file of its own, pointing at a file elsewhere (0644) that it must
  // neither change the mode of, nor overwrite, nor read as its own.
  const cases: Array<[string, (dataDir: string) => string]> = [
    ['api-key', (dataDir) => join(dataDir, 'api-key')],
    ['strikebook.db', (dataDir) => join(dataDir, 'strikebook.db')],
    ['strikebook.db-wal', (dataDir) => join(dataDir, 'strikebook.db-wal')],
    ['strikebook.db-shm', (dataDir) => join(dataDir, 'strikebook.db-shm')],
    ['a backup', (dataDir) => join(dataDir, 'strikebook.db.v3.2026-01-02T03-04-05-000Z.bak')],
  ];
  for (const [name, where] of cases) {
    it(`${name}: serve and keys list exit 3 naming the link; its target keeps its bytes and its mode`, () => {
      const dataDir = tempDir();
      const init = runCli(['keys', 'list', '--data-dir', dataDir]);
      expect(init.status, init.stderr).toBe(0);
      const link = where(dataDir);
      const target = join(tempDir(), `target-of-${name.replace(/\W/g, '-')}`);
      // The file itself moves to the target (the database keeps its data), or the target is a file of its own.
      if (lstatSync(link, { throwIfNoEntry: false }) === undefined) writeFileSync(target, name === 'a backup' ? readFileSync(join(dataDir, 'strikebook.db')) : '');
      else renameSync(link, target);
      chmodSync(target, 0o644);
      symlinkSync(target, link);
      const before = sha256(target);
      // Both commands open the folder the same way (openDataFolder): serve is tried once, for the key file.
      for (const args of name === 'api-key' ? [['serve', '--port', '0'], ['keys', 'list']] : [['keys', 'list']]) {
        const result = runCli([...args, '--data-dir', dataDir]);
        expectCleanRefusal(result, [literally(`${link} is a symbolic link`), /does not follow links in its data folder/]);
        expect(result.stdout).toBe('');
      }
      expect(sha256(target), 'the target was not written').toBe(before);
      expect(statSync(target).mode & 0o777, 'nor its mode changed').toBe(0o644);
      expect(lstatSync(link).isSymbolicLink(), 'the link is left as it was').toBe(true);
    });
  }
});
