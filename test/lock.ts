import { spawn } from 'node:child_process';
import { REPO_ROOT } from './paths';

/**
 * Another process with its own better-sqlite3 connection that takes the database's write lock (`BEGIN IMMEDIATE`)
 * and keeps it, as the CLI importing a million rows or a backup tool would: for `seconds`, or (without them) until
 * `release()` is called.
 */
export function holdWriteLock(dbPath: string, seconds?: number) {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.pragma('busy_timeout = 10000');
    db.exec('BEGIN IMMEDIATE');
    process.stdout.write('locked\\n');
    let done = false;
    const release = () => { if (done) return; done = true; db.exec('ROLLBACK'); db.close(); process.stdout.write('released\\n'); process.exit(0); };
    const seconds = Number(process.argv[2]);
    if (seconds > 0) setTimeout(release, seconds * 1000);
    process.stdin.on('data', release);
    process.stdin.on('end', release);
  `;
  const child = spawn(process.execPath, ['-e', script, dbPath, String(seconds ?? 0)], { cwd: REPO_ROOT });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const until = (word: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => (out.includes(word) ? resolve() : undefined);
      child.stdout.on('data', check);
      child.on('exit', (code) => (out.includes(word) ? resolve() : reject(new Error(`lock holder exited (${code}) before "${word}"`))));
      check();
    });
  const released = until('released');
  return {
    child,
    locked: until('locked'),
    released,
    /** Lets the lock go now; resolves once it is gone. */
    release: () => {
      child.stdin.end('release\n');
      return released;
    },
  };
}
