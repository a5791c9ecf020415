/**
 * The columns migrations 002 and 012 share (transaction-columns.ts): a retired manual row moves between `transactions`
 * and `superseded_transactions` column for column (INSERT ... SELECT by name), so both tables must declare each shared
 * column alike, and the schema text SQLite keeps must be what those migrations always wrote.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../../src-main/db/open';
import { tempDir } from '../../../../paths';

const opened: Array<{ close(): void }> = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

type Column = { name: string; type: string; notnull: number; dflt_value: string | null; pk: number };

describe('TRANSACTION_COLUMNS_002', () => {
  it('declares the superseded rows as the transactions (with the sequence of 008), then the import that superseded them', () => {
    const { db } = openDatabase(join(tempDir(), 'a.db'), { targetVersion: 12 });
    opened.push(db);
    const columns = (table: string) => db.prepare(`PRAGMA table_info(${table})`).all() as Column[];
    const transactions = columns('transactions').map(({ name, type, notnull, dflt_value, pk }) => ({ name, type, notnull, dflt_value, pk }));
    const superseded = columns('superseded_transactions').map(({ name, type, notnull, dflt_value, pk }) => ({ name, type, notnull, dflt_value, pk }));
    expect(transactions.at(-1)?.name, 'added by 008').toBe('sequence');
    expect(superseded.slice(0, -1)).toEqual(transactions);
    expect(superseded.at(-1)).toEqual({ name: 'superseded_by', type: 'INTEGER', notnull: 1, dflt_value: null, pk: 0 });
  });

  it('keeps the schema text of the old migrations: the columns one a line, as 002 wrote them', () => {
    const { db } = openDatabase(join(tempDir(), 'b.db'), { targetVersion: 2 });
    opened.push(db);
    const sql = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'transactions'").pluck().get() as string;
    expect(sql).toContain('CREATE TABLE transactions (\n        id               TEXT PRIMARY KEY,\n        import_id        INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,');
    expect(sql).toContain('inferred         INTEGER NOT NULL DEFAULT 0,\n        previous_symbol  TEXT\n      ) STRICT');
  });
});
