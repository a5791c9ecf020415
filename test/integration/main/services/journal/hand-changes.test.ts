/**
 * A change made by hand (hand-changes.ts): one IMMEDIATE transaction, the journal generation raised once when it is
 * made and not when it is refused, the index told after its transaction; a stored entry looked up again under the
 * lock. Real SQLite.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../../src-main/db/open';
import { Generations } from '../../../../../src-main/db/generations';
import { writeNow } from '../../../../../src-main/db/writes';
import { failure, ok, type Result } from '../../../../../src-main/services/result';
import { HandChanges } from '../../../../../src-main/services/journal/hand-changes';

const opened: Array<{ close(): void }> = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

/** A journal database with a table of notes; `told` holds the generation each time the index was told. */
function setUp() {
  const { db } = openDatabase(':memory:');
  opened.push(db);
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
  const generations = new Generations(db);
  const told: number[] = [];
  return { db, generations, told, changes: new HandChanges(db, () => told.push(generations.journal())) };
}

const insert = (db: ReturnType<typeof setUp>['db']) => Number(db.prepare("INSERT INTO notes (text) VALUES ('a')").run().lastInsertRowid);

describe('HandChanges', () => {
  it('a change made: written, the generation raised once, then the index told; one refused: none of the three', () => {
    const { db, generations, told, changes } = setUp();
    const before = generations.journal();
    expect(writeNow(db, (turn) => changes.make(turn, () => ok(insert(db))))).toEqual({ ok: true, value: 1 });
    expect(told, 'told once its transaction is done, the generation one up').toEqual([before + 1]);

    const refused = writeNow(db, (turn) => changes.make(turn, (): Result<number> => failure({ kind: 'not-found', what: 'import', id: 9 })));
    expect(refused.ok).toBe(false);
    expect(generations.journal()).toBe(before + 1);
    expect(told).toHaveLength(1);
  });

  it('a change may tell the index its own way, with what it made', () => {
    const { db, told, changes } = setUp();
    const made: number[] = [];
    writeNow(db, (turn) => changes.make(turn, () => ok(insert(db)), (id) => made.push(id)));
    expect([made, told]).toEqual([[1], []]);
  });

  it('a change that throws is rolled back whole, its generation with it', () => {
    const { db, generations, told, changes } = setUp();
    const before = generations.journal();
    const failing = () => {
      insert(db);
      throw new Error('disk');
    };
    expect(() => writeNow(db, (turn) => changes.make(turn, failing))).toThrow('disk');
    expect(db.prepare('SELECT COUNT(*) FROM notes').pluck().get()).toBe(0);
    expect(generations.journal()).toBe(before);
    expect(told).toEqual([]);
  });

  it('makeTo changes the entry its lookup finds; a lookup that finds none is the answer, and nothing is written', () => {
    const { db, generations, changes } = setUp();
    db.prepare("INSERT INTO notes (id, text) VALUES (7, 'a')").run();
    const lookup = (id: number): Result<{ id: number; text: string }> => {
      const row = db.prepare('SELECT id, text FROM notes WHERE id = ?').get(id) as { id: number; text: string } | undefined;
      return row === undefined ? failure({ kind: 'not-found', what: 'transaction', id }) : ok(row);
    };
    const edit = (id: number) => writeNow(db, (turn) => changes.makeTo(turn, () => lookup(id), (row) => db.prepare('UPDATE notes SET text = ? WHERE id = ?').run(`${row.text}b`, row.id).changes));
    const before = generations.journal();
    expect(edit(7)).toEqual({ ok: true, value: 1 });
    expect(db.prepare('SELECT text FROM notes WHERE id = 7').pluck().get()).toBe('ab');
    expect(edit(8)).toMatchObject({ ok: false, error: { kind: 'not-found', id: 8 } });
    expect(generations.journal(), 'raised by the one change made').toBe(before + 1);
  });
});
