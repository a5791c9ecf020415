/**
 * The process's write turns (src-main/db/writes.ts) on a real SQLite file. A second connection stands in for
 * "another process": SQLite's locks are the same between connections of one process and of two.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseBusyError, WriteQueue } from '../../../../src-main/db/writes';
import { busyProblem } from '../../../../src-main/server/problems';
import { tempDir } from '../../../paths';

const open: Database.Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
});

function pair(): { ours: Database.Database; other: Database.Database } {
  const path = join(tempDir(), 'w.db');
  const ours = new Database(path);
  ours.pragma('journal_mode = WAL');
  ours.pragma('busy_timeout = 0');
  ours.exec('CREATE TABLE t (x INTEGER)');
  const other = new Database(path);
  other.pragma('busy_timeout = 0');
  open.push(ours, other);
  return { ours, other };
}

const values = (db: Database.Database) => (db.prepare('SELECT x FROM t ORDER BY rowid').pluck().all() as number[]);

describe('WriteQueue', () => {
  it('runs a write at once when nothing else writes: its effect is there before run() returns', () => {
    const { ours } = pair();
    const queue = new WriteQueue(ours);
    void queue.run(() => ours.prepare('INSERT INTO t VALUES (1)').run());
    expect(values(ours)).toEqual([1]);
  });

  it('another connection holding the lock: 503 DATABASE_BUSY with Retry-After after the wait, nothing written, the thread never blocked', async () => {
    const { ours, other } = pair();
    other.exec('BEGIN IMMEDIATE');
    const queue = new WriteQueue(ours);
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 10);
    const start = Date.now();
    const error = await queue.run(() => ours.prepare('INSERT INTO t VALUES (1)').run(), 300).catch((e: unknown) => e);
    clearInterval(ticker);
    expect(error, 'the write gave up: nothing of it was written').toBeInstanceOf(DatabaseBusyError);
    const answer = busyProblem();
    expect(answer.problem, 'what the server answers for it').toMatchObject({ status: 503, code: 'DATABASE_BUSY' });
    expect(Number(answer.headers['Retry-After'])).toBeGreaterThan(0);
    expect(Date.now() - start, 'gave up after about the wait asked for').toBeGreaterThanOrEqual(290);
    expect(ticks, 'timers kept firing while the write waited: the wait was asynchronous').toBeGreaterThanOrEqual(10);
    other.exec('ROLLBACK');
    expect(values(ours)).toEqual([]);
    expect(ours.inTransaction).toBe(false);
  });

  it('a lock released while the write waits: the write goes through', async () => {
    const { ours, other } = pair();
    other.exec('BEGIN IMMEDIATE');
    const queue = new WriteQueue(ours);
    setTimeout(() => other.exec('ROLLBACK'), 150);
    await queue.run(() => ours.prepare('INSERT INTO t VALUES (7)').run());
    expect(values(ours)).toEqual([7]);
  });

  it('our own writes take turns in order and never answer busy to each other, however long one holds the lock', async () => {
    const { ours } = pair();
    const queue = new WriteQueue(ours);
    let releaseFirst: () => void = () => undefined;
    const order: string[] = [];
    // A long job holding the turn (as the journal worker's import does), longer than the others' wait.
    const first = queue.exclusive(async () => {
      order.push('first');
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      return 'first';
    });
    const second = queue.run(() => {
      order.push('second');
      return ours.prepare('INSERT INTO t VALUES (2)').run().changes;
    }, 50);
    const third = queue.run(() => {
      order.push('third');
      return ours.prepare('INSERT INTO t VALUES (3)').run().changes;
    }, 50);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(order, 'the others wait while the turn is held').toEqual(['first']);
    releaseFirst();
    expect(await Promise.all([first, second, third])).toEqual(['first', 1, 1]);
    expect(order).toEqual(['first', 'second', 'third']);
    expect(values(ours)).toEqual([2, 3]);
  });

  it('a write that throws is rolled back whole and the next one runs', async () => {
    const { ours } = pair();
    const queue = new WriteQueue(ours);
    const failed = await queue
      .run(() => {
        ours.prepare('INSERT INTO t VALUES (1)').run();
        throw new Error('half-way');
      })
      .catch((e: unknown) => (e as Error).message);
    expect(failed).toBe('half-way');
    await queue.run(() => ours.prepare('INSERT INTO t VALUES (2)').run());
    expect(values(ours)).toEqual([2]);
  });

  it('a COMMIT that fails is rolled back (the lock is not kept), the rollback is told, and the next write runs', async () => {
    const { ours } = pair();
    // A deferred foreign key is checked at the COMMIT: the same place a full disk fails a WAL write (issue 16).
    ours.pragma('foreign_keys = ON');
    ours.exec('CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (parent INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)');
    const queue = new WriteQueue(ours);
    let rolledBack = 0;
    queue.onRollback(() => (rolledBack += 1));
    const failed = await queue.run(() => ours.prepare('INSERT INTO child VALUES (42)').run()).catch((e: unknown) => (e as { code?: string }).code);
    expect(failed).toMatch(/^SQLITE_CONSTRAINT/);
    expect(ours.inTransaction, 'no transaction left open after the failed COMMIT').toBe(false);
    expect(rolledBack).toBe(1);
    await queue.run(() => ours.prepare('INSERT INTO t VALUES (5)').run());
    expect(values(ours)).toEqual([5]);
    expect(rolledBack, 'a committed write tells nobody').toBe(1);
  });
});
