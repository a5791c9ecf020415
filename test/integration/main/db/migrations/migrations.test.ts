import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseVersionError, openDatabase, userVersion } from '../../../../../src-main/db/open';
import { LATEST_VERSION, MIGRATIONS } from '../../../../../src-main/db/migrations/index';
import { tempDir } from '../../../../paths';
import { isColumnsPayload } from '../../../../../src-main/db/snapshot-columns';
import { packContracts, unpackContracts } from '../../../../../src-main/db/snapshot-payload';
import type { OptionContract } from '../../../../../src-shared/exposure/model';

const opened: Array<{ close(): void }> = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

function open(path: string, targetVersion?: number) {
  const result = openDatabase(path, targetVersion === undefined ? {} : { targetVersion });
  opened.push(result.db);
  return result;
}

function tables(db: Database.Database): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
}

describe('migrations', () => {
  it('numbers migrations 1..N without gaps, so user_version says exactly which ran', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, index) => index + 1));
    expect(LATEST_VERSION).toBe(MIGRATIONS.length);
  });

  it('opens a new file in WAL mode at the latest version', () => {
    const { db, backupPath } = open(join(tempDir(), 'a.db'));
    expect(userVersion(db)).toBe(LATEST_VERSION);
    expect(db.pragma('journal_mode', { simple: true }), 'docs/architecture.md §Running: one SQLite file in WAL mode').toBe('wal');
    expect(backupPath, 'a brand-new file has nothing to back up').toBeNull();
  });

  it('001 core: creates api_keys and settings', () => {
    const { db } = open(join(tempDir(), 'a.db'), 1);
    expect(userVersion(db)).toBe(1);
    expect(tables(db)).toEqual(['api_keys', 'settings']);
  });

  it('002 journal: adds accounts, imports, transactions and keeps the keys of v1', () => {
    const path = join(tempDir(), 'a.db');
    const v1 = open(path, 1).db;
    v1.prepare("INSERT INTO api_keys (id, name, hash, created_at) VALUES ('k1', 'x', x'00', '2026-01-01')").run();
    v1.close();
    opened.pop();
    const { db, backupPath } = open(path, 2);
    expect(userVersion(db)).toBe(2);
    expect(tables(db).filter((t) => t !== 'sqlite_sequence')).toEqual(['accounts', 'api_keys', 'imports', 'settings', 'transactions']);
    expect(db.prepare('SELECT id FROM api_keys').all(), 'data written by v1 survives the upgrade').toEqual([{ id: 'k1' }]);
    expect(backupPath !== null && existsSync(backupPath), 'an existing file is backed up before migrating').toBe(true);
  });

  it('003 chains: adds snapshots, exposure_state and events', () => {
    const path = join(tempDir(), 'a.db');
    open(path, 2).db.close();
    opened.pop();
    const { db } = open(path, 3);
    expect(userVersion(db)).toBe(3);
    for (const table of ['snapshots', 'exposure_state', 'events']) expect(tables(db)).toContain(table);
  });

  it('004 journal generation: one counter row at 0 beside the journal of v3, and never a second row', () => {
    const path = join(tempDir(), 'a.db');
    const v3 = open(path, 3).db;
    v3.prepare("INSERT INTO imports (broker, source, filename, created_at, rows, imported, duplicates, report_json) VALUES ('generic', 'generic-csv', 'a.csv', '2026-01-01', 1, 1, 0, '{}')").run();
    v3.close();
    opened.pop();
    const { db } = open(path, 4);
    expect(userVersion(db)).toBe(4);
    expect(db.prepare('SELECT id, value FROM journal_generation').all(), 'one row, the journal not yet changed').toEqual([{ id: 1, value: 0 }]);
    expect(() => db.prepare('INSERT INTO journal_generation (id, value) VALUES (2, 0)').run(), 'CHECK (id = 1): one counter').toThrow();
    expect(db.prepare('SELECT filename FROM imports').pluck().all(), 'the imports of v3 stay').toEqual(['a.csv']);
  });

  it('005 snapshot generation: raised by every insert, update and delete of a snapshot (triggers), by nothing else', () => {
    const path = join(tempDir(), 'a.db');
    open(path, 4).db.close();
    opened.pop();
    const { db } = open(path, 5);
    const generation = () => db.prepare("SELECT value FROM generations WHERE name = 'snapshots'").pluck().get();
    expect(generation()).toBe(0);
    const insert = db.prepare("INSERT INTO snapshots (symbol, quote_time, spot, source, contracts, expirations, digest, payload, created_at) VALUES ('X', ?, 1, 'generic', 0, 0, ?, x'00', '2026-01-01')");
    insert.run('2026-01-01T15:00:00Z', 'a');
    insert.run('2026-01-01T16:00:00Z', 'b');
    expect(generation(), 'two snapshots stored').toBe(2);
    db.prepare("UPDATE snapshots SET spot = 2 WHERE digest = 'a'").run();
    expect(generation()).toBe(3);
    db.prepare("DELETE FROM snapshots WHERE digest = 'a'").run();
    expect(generation()).toBe(4);
    db.prepare("INSERT INTO settings (key, value) VALUES ('rate', '0.05')").run();
    db.prepare('UPDATE journal_generation SET value = value + 1').run();
    db.prepare("INSERT INTO events (id, ticker, event_type, expiration, timestamp, payload) VALUES ('e', 'X', 'flip', '2026-01-16', '2026-01-01', '{}')").run();
    expect(generation(), 'writes to other tables leave it').toBe(4);
  });

  it('006 import formats: adds import_formats beside the data of v5; one format per header key, every column required', () => {
    const path = join(tempDir(), 'a.db');
    const v5 = open(path, 5).db;
    v5.prepare("INSERT INTO api_keys (id, name, hash, created_at) VALUES ('k1', 'x', x'00', '2026-01-01')").run();
    v5.close();
    opened.pop();
    const { db } = open(path, 6);
    expect(userVersion(db)).toBe(6);
    expect(tables(db)).toContain('import_formats');
    const insert = db.prepare("INSERT INTO import_formats (id, name, header_key, header_json, mapping_json, created_at, updated_at) VALUES (?, 'Mine', ?, '[\"a\"]', '{}', '2026-01-01', '2026-01-01')");
    insert.run('f1', 'a');
    expect(() => insert.run('f2', 'a'), 'UNIQUE header_key: one header, one format').toThrow(/UNIQUE/);
    expect(() => db.prepare("INSERT INTO import_formats (id, name, header_key, header_json, created_at, updated_at) VALUES ('f3', 'x', 'b', '[]', '2026-01-01', '2026-01-01')").run(), 'mapping_json is required').toThrow(/NOT NULL/);
    expect(db.prepare('SELECT id FROM api_keys').pluck().all(), 'the keys of v5 stay').toEqual(['k1']);
  });

  it('007 gex history: adds gex_history, one point per (snapshot, scope), gone with its snapshot', () => {
    const path = join(tempDir(), 'a.db');
    const v6 = open(path, 6).db;
    v6.prepare("INSERT INTO snapshots (symbol, quote_time, spot, source, contracts, expirations, digest, payload, created_at) VALUES ('X', '2026-01-01T15:00:00Z', 1, 'generic', 0, 0, 'a', x'00', '2026-01-01')").run();
    v6.close();
    opened.pop();
    const { db } = open(path, 7);
    expect(userVersion(db)).toBe(7);
    const id = db.prepare('SELECT id FROM snapshots').pluck().get();
    const insert = db.prepare("INSERT INTO gex_history (snapshot_id, scope, point) VALUES (?, ?, '{}')");
    insert.run(id, 'gex|3');
    insert.run(id, 'gex|5');
    expect(() => insert.run(id, 'gex|3'), 'one point per (snapshot, scope)').toThrow(/UNIQUE|PRIMARY KEY/);
    expect(() => insert.run(999, 'gex|3'), 'a point of no snapshot is refused').toThrow(/FOREIGN KEY/);
    db.prepare('DELETE FROM snapshots WHERE id = ?').run(id);
    expect(db.prepare('SELECT COUNT(*) FROM gex_history').pluck().get(), 'ON DELETE CASCADE: the points go with their snapshot').toBe(0);
  });

  it('008 transaction sequence: adds the nullable sequence column; rows imported before keep NULL', () => {
    const path = join(tempDir(), 'a.db');
    const v7 = open(path, 7).db;
    v7.prepare("INSERT INTO imports (broker, source, filename, created_at, rows, imported, duplicates, report_json) VALUES ('generic', 'generic-csv', 'a.csv', '2026-01-01', 1, 1, 0, '{}')").run();
    v7.prepare("INSERT INTO accounts (id, name, source) VALUES ('a1', 'A', 'generic-csv')").run();
    const row = "'t1', 1, 'a1', 'r1', 'BUY', 'X', 'X', 0, NULL, NULL, NULL, 1, 10000, 1, -10000, 0, 0, 'USD', '2026-01-02T21:00:00.000Z', '2026-01-02', NULL, '', 'generic-csv', 0, NULL";
    v7.prepare(`INSERT INTO transactions VALUES (${row})`).run();
    v7.close();
    opened.pop();
    const { db } = open(path, 8);
    expect(userVersion(db)).toBe(8);
    const columns = (db.prepare('PRAGMA table_info(transactions)').all() as Array<{ name: string; type: string; notnull: number }>).filter((c) => c.name === 'sequence');
    expect(columns, 'one INTEGER column, nullable').toEqual([expect.objectContaining({ name: 'sequence', type: 'INTEGER', notnull: 0 })]);
    expect(db.prepare("SELECT sequence FROM transactions WHERE id = 't1'").pluck().get(), 'a row imported before has no event order').toBeNull();
    db.prepare(`INSERT INTO transactions VALUES (${row.replace("'t1'", "'t2'").replace("'r1'", "'r2'")}, 3)`).run();
    expect(db.prepare("SELECT sequence FROM transactions WHERE id = 't2'").pluck().get()).toBe(3);
    expect(() => db.prepare(`INSERT INTO transactions VALUES (${row.replace("'t1'", "'t3'").replace("'r1'", "'r3'")}, 'x')`).run(), 'STRICT: a number only').toThrow();
  });

  it('009 bounded reports: a report of every skipped line becomes counts and the first lines of each reason (≤ 64 KB); small ones stay', () => {
    const path = join(tempDir(), 'a.db');
    const v8 = open(path, 8).db;
    // As a version-8 import stored it: every skipped line (46 MB of cancelled orders made 43 MB once).
    const skipped = Array.from({ length: 60_000 }, (_, i) => ({ line: i + 2, reason: i % 3 === 0 ? 'strategy order' : 'order Cancelled: nothing filled' }));
    const huge = { id: 1, broker: 'webull', source: 'webull-csv', filename: 'orders.csv', createdAt: '2026-01-01T00:00:00.000Z', accounts: [{ id: 'a1', name: 'Webull' }], rows: 60_001, imported: 1, duplicates: 0, skipped, warnings: [{ line: null, message: 'w' }] };
    const small = { ...huge, id: 2, rows: 2, skipped: skipped.slice(0, 1), warnings: [] };
    const insert = v8.prepare('INSERT INTO imports (id, broker, source, filename, created_at, rows, imported, duplicates, report_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    for (const r of [huge, small]) insert.run(r.id, r.broker, r.source, r.filename, r.createdAt, r.rows, r.imported, r.duplicates, JSON.stringify(r));
    const before = v8.prepare('SELECT report_json FROM imports WHERE id = 2').pluck().get();
    expect(JSON.stringify(huge).length).toBeGreaterThan(2_000_000);
    v8.close();
    opened.pop();
    const { db } = open(path, 9);
    const stored = (id: number) => String(db.prepare('SELECT report_json FROM imports WHERE id = ?').pluck().get(id));
    const report = JSON.parse(stored(1)) as { skipped: unknown[]; skippedCount: number; skippedReasons: unknown[]; warningCount: number; rows: number };
    expect(Buffer.byteLength(stored(1)), 'at most 64 KB').toBeLessThanOrEqual(64 * 1024);
    expect(report.skippedCount, 'the count of every skipped line survives').toBe(60_000);
    expect(report.skippedReasons, 'by reason, most frequent first').toEqual([{ reason: 'order Cancelled: nothing filled', count: 40_000 }, { reason: 'strategy order', count: 20_000 }]);
    expect([report.skipped.length, report.warningCount, report.rows]).toEqual([10, 1, 60_001]);
    expect(stored(2), 'a small report is left as it was').toBe(before);
  });

  it('010 annotations: notes keyed by kind and stable id, tags as rows, a generation raised by every change of a note (triggers)', () => {
    const path = join(tempDir(), 'a.db');
    open(path, 9).db.close();
    opened.pop();
    const { db } = open(path, 10);
    expect(tables(db)).toEqual(expect.arrayContaining(['annotations', 'annotation_tags']));
    const generation = () => db.prepare("SELECT value FROM generations WHERE name = 'annotations'").pluck().get();
    expect(generation()).toBe(0);
    db.prepare("INSERT INTO annotations (kind, id, note, updated_at) VALUES ('trade', 'tx_1', 'n', '2026-01-01')").run();
    db.prepare("INSERT INTO annotation_tags (kind, id, tag) VALUES ('trade', 'tx_1', 'wheel')").run();
    db.prepare("UPDATE annotations SET note = 'm' WHERE id = 'tx_1'").run();
    expect(generation(), 'an insert and an update').toBe(2);
    expect(() => db.prepare("INSERT INTO annotations (kind, id, note, updated_at) VALUES ('trade', 'tx_1', 'again', '2026-01-01')").run(), 'one note per trade').toThrow();
    expect(() => db.prepare("INSERT INTO annotations (kind, id, note, updated_at) VALUES ('position', 'p', '', '2026-01-01')").run(), 'trades and campaigns only').toThrow();
    expect(() => db.prepare("INSERT INTO annotation_tags (kind, id, tag) VALUES ('trade', 'tx_none', 'x')").run(), 'a tag belongs to a note').toThrow();
    db.prepare("DELETE FROM annotations WHERE id = 'tx_1'").run();
    expect(generation()).toBe(3);
    expect(db.prepare('SELECT COUNT(*) FROM annotation_tags').pluck().get(), 'its tags go with it').toBe(0);
    db.prepare("INSERT INTO settings (key, value) VALUES ('rate', '0.05')").run();
    db.prepare('UPDATE journal_generation SET value = value + 1').run();
    expect(generation(), 'writes to other tables leave it').toBe(3);
  });

  it('011 position alerts: adds position_alert_state and event_explanations; the book needs no table (expiration key "book")', () => {
    const path = join(tempDir(), 'a.db');
    const v10 = open(path, 10).db;
    expect(tables(v10)).not.toContain('position_alert_state');
    v10.prepare("INSERT INTO exposure_state VALUES ('SPX', 'book', 'positive', 4700, 4600, '2026-01-02T21:00:00.000Z')").run();
    v10.close();
    opened.pop();
    const { db } = open(path, 11);
    expect(userVersion(db)).toBe(11);
    expect(tables(db)).toEqual(expect.arrayContaining(['position_alert_state', 'event_explanations']));
    expect(db.prepare("SELECT expiration FROM exposure_state WHERE ticker = 'SPX'").pluck().get(), 'states stored before stay').toBe('book');
    const insert = db.prepare('INSERT INTO position_alert_state VALUES (?, ?, ?, ?, ?)');
    insert.run('SPX', 'a|2026-02-20|P|4700|putWall', 'below', 1, '2026-01-02T21:00:00.000Z');
    expect(() => insert.run('SPX', 'a|2026-02-20|P|4700|putWall', 'above', 0, 'x'), 'one state per (ticker, key)').toThrow();
    expect(() => insert.run('SPX', 'k2', 'sideways', 0, 'x'), 'a side is above or below').toThrow();
    expect(() => insert.run('SPX', 'k3', 'above', 2, 'x'), 'near is 0 or 1').toThrow();
  });

  it('012 superseded manual rows: a table of retired rows with the import that superseded them, gone with their own import; a partial index of manual rows', () => {
    const path = join(tempDir(), 'a.db');
    const v11 = open(path, 11).db;
    v11.prepare("INSERT INTO imports (id, broker, source, filename, created_at, rows, imported, duplicates, report_json) VALUES (1, 'manual', 'manual', NULL, '2026-01-01', 1, 1, 0, '{}'), (2, 'generic', 'generic-csv', 'f.csv', '2026-01-02', 1, 1, 0, '{}')").run();
    v11.prepare("INSERT INTO accounts (id, name, source) VALUES ('a1', 'Main', 'generic-csv')").run();
    const row = (id: string, importId: number, source: string) =>
      v11
        .prepare(
          `INSERT INTO transactions (id, import_id, account_id, broker_row_id, type, symbol, underlying, is_option, expiration, strike, right, quantity, price_minor, multiplier, amount_minor, commission_minor, fees_minor, currency, trade_date, trade_day, order_id, description, source, inferred, previous_symbol, sequence)
           VALUES (?, ?, 'a1', ?, 'SELL_TO_OPEN', 'XYZ240419P00045000', 'XYZ', 1, '2024-04-19', 45, 'P', 1, 15000, 100, 1500000, 0, 0, 'USD', '2024-03-14T20:00:00.000Z', '2024-03-14', NULL, '', ?, 0, NULL, NULL)`,
        )
        .run(id, importId, id, source);
    row('mtx_1', 1, 'manual');
    row('tx_2', 2, 'generic-csv');
    v11.close();
    opened.pop();
    const { db } = open(path, 12);
    expect(userVersion(db)).toBe(12);
    expect(tables(db)).toContain('superseded_transactions');
    expect(db.prepare('SELECT COUNT(*) FROM transactions').pluck().get(), 'rows stored before stay where they were').toBe(2);
    const plan = db.prepare("EXPLAIN QUERY PLAN SELECT id FROM transactions WHERE source = 'manual' AND type IN ('SELL_TO_OPEN')").all() as Array<{ detail: string }>;
    expect(plan.map((p) => p.detail).join(' '), 'manual rows found without reading the imported ones').toContain('transactions_manual');
    const columns = (db.prepare('PRAGMA table_info(transactions)').all() as Array<{ name: string }>).map((c) => c.name);
    db.prepare(`INSERT INTO superseded_transactions (${columns.join(', ')}, superseded_by) SELECT ${columns.join(', ')}, 2 FROM transactions WHERE id = 'mtx_1'`).run();
    db.prepare("DELETE FROM transactions WHERE id = 'mtx_1'").run();
    expect(db.prepare('SELECT superseded_by FROM superseded_transactions').pluck().all()).toEqual([2]);
    expect(() => db.prepare("UPDATE superseded_transactions SET account_id = 'nobody'").run(), 'its account must exist').toThrow();
    db.prepare('DELETE FROM imports WHERE id = 1').run();
    expect(db.prepare('SELECT COUNT(*) FROM superseded_transactions').pluck().get(), 'undoing its own manual import removes it too').toBe(0);
  });

  it('013 chain underlyings: option rows stored under a root (SPXW, NDXP, AMD1) take the chain’s symbol; campaign notes follow; alert states are dropped', () => {
    const path = join(tempDir(), 'a.db');
    const v12 = open(path, 12).db;
    v12.prepare("INSERT INTO imports (broker, source, filename, created_at, rows, imported, duplicates, report_json) VALUES ('etrade', 'etrade-csv', 'a.csv', '2026-01-01', 1, 1, 0, '{}')").run();
    v12.prepare("INSERT INTO accounts (id, name, source) VALUES ('acc_1', 'A', 'etrade-csv')").run();
    const insert = v12.prepare("INSERT INTO transactions VALUES (?, 1, 'acc_1', ?, 'SELL_TO_OPEN', ?, ?, ?, NULL, NULL, NULL, 1, 10000, 100, 10000, 0, 0, 'USD', '2023-09-13T20:00:00.000Z', '2023-09-13', NULL, '', 'etrade-csv', 0, NULL, NULL)");
    insert.run('t1', 'r1', 'SPXW230915P04400000', 'SPXW', 1);
    insert.run('t2', 'r2', 'SPX230915P04400000', 'SPX', 1);
    insert.run('t3', 'r3', 'NDXP230915C15000000', 'NDXP', 1);
    insert.run('t4', 'r4', 'AMD1240119P00075000', 'AMD1', 1);
    // A broker's own underlying, a futures option (its month's digit stays) and shares are left as they are.
    insert.run('t5', 'r5', 'AMD1240119C00080000', 'AMD', 1);
    insert.run('t6', 'r6', './ESZ4 EW4Z4 241129P4600', '/ESZ4', 1);
    insert.run('t7', 'r7', 'AMD1', 'AMD1', 0);
    const note = v12.prepare("INSERT INTO annotations (kind, id, note, updated_at) VALUES ('campaign', ?, ?, ?)");
    const tag = v12.prepare("INSERT INTO annotation_tags (kind, id, tag) VALUES ('campaign', ?, ?)");
    note.run('acc_1:USD:SPXW:2023-09-13', 'weekly puts', '2026-01-02');
    tag.run('acc_1:USD:SPXW:2023-09-13', 'income');
    note.run('acc_1:USD:SPX:2023-09-13', 'monthly put', '2026-01-01');
    tag.run('acc_1:USD:SPX:2023-09-13', 'index');
    note.run('acc_1:USD:NDXP:2023-09-13', 'ndx', '2026-01-01');
    v12.prepare("INSERT INTO position_alert_state VALUES ('SPX', 'acc_1|2023-09-15|P|4400|putWall', 'below', 1, '2023-09-14T20:31:00.000Z')").run();
    // A manual SPXW row an import retired (migration 012): its undo brings it back as SPX's.
    v12.prepare("INSERT INTO superseded_transactions SELECT *, 1 FROM transactions WHERE id = 't1'").run();
    const generation = v12.prepare('SELECT value FROM journal_generation').pluck().get();
    v12.close();
    opened.pop();
    const { db } = open(path, 13);
    expect(userVersion(db)).toBe(13);
    expect(db.prepare('SELECT id, symbol, underlying FROM transactions ORDER BY id').all()).toEqual([
      { id: 't1', symbol: 'SPXW230915P04400000', underlying: 'SPX' },
      { id: 't2', symbol: 'SPX230915P04400000', underlying: 'SPX' },
      { id: 't3', symbol: 'NDXP230915C15000000', underlying: 'NDX' },
      { id: 't4', symbol: 'AMD1240119P00075000', underlying: 'AMD' },
      { id: 't5', symbol: 'AMD1240119C00080000', underlying: 'AMD' },
      { id: 't6', symbol: './ESZ4 EW4Z4 241129P4600', underlying: '/ESZ4' },
      { id: 't7', symbol: 'AMD1', underlying: 'AMD1' },
    ]);
    expect(db.prepare('SELECT value FROM journal_generation').pluck().get(), 'the journal is read again').toBe(Number(generation) + 1);
    // The SPXW campaign's note meets the SPX one's of the same day: joined, the newer date, the tags united.
    expect(db.prepare("SELECT id, note, updated_at FROM annotations WHERE kind = 'campaign' ORDER BY id").all()).toEqual([
      { id: 'acc_1:USD:NDX:2023-09-13', note: 'ndx', updated_at: '2026-01-01' },
      { id: 'acc_1:USD:SPX:2023-09-13', note: 'monthly put\n\nweekly puts', updated_at: '2026-01-02' },
    ]);
    expect(db.prepare("SELECT id, tag FROM annotation_tags WHERE kind = 'campaign' ORDER BY id, tag").all()).toEqual([
      { id: 'acc_1:USD:SPX:2023-09-13', tag: 'income' },
      { id: 'acc_1:USD:SPX:2023-09-13', tag: 'index' },
    ]);
    expect(db.prepare('SELECT COUNT(*) FROM position_alert_state').pluck().get(), 'states of the old scope: seeded again by the next snapshot').toBe(0);
    expect(db.prepare('SELECT id, underlying FROM superseded_transactions').all()).toEqual([{ id: 't1', underlying: 'SPX' }]);
  });

  it('014 reconciliation: adds import_statements (gone with its import) and balance_assertions beside the imports of v13', () => {
    const path = join(tempDir(), 'a.db');
    const v13 = open(path, 13).db;
    expect(tables(v13)).not.toContain('import_statements');
    v13.prepare("INSERT INTO imports (broker, source, filename, created_at, rows, imported, duplicates, report_json) VALUES ('etrade', 'etrade-csv', 'a.csv', '2026-01-02T00:00:00.000Z', 1, 1, 0, '{}')").run();
    v13.close();
    opened.pop();
    const { db } = open(path, 14);
    expect(userVersion(db)).toBe(14);
    expect(tables(db)).toEqual(expect.arrayContaining(['import_statements', 'balance_assertions']));
    const importId = db.prepare('SELECT id FROM imports').pluck().get() as number;
    db.prepare('INSERT INTO import_statements (import_id, statements_json, acknowledged_at) VALUES (?, ?, NULL)').run(importId, '{"source":"etrade-csv","statements":[]}');
    expect(() => db.prepare('INSERT INTO import_statements (import_id, statements_json) VALUES (?, ?)').run(importId, '{}'), 'one row per import').toThrow();
    expect(() => db.prepare('INSERT INTO import_statements (import_id, statements_json) VALUES (?, ?)').run(999, '{}'), 'of an import that exists').toThrow();
    db.prepare('DELETE FROM imports WHERE id = ?').run(importId);
    expect(db.prepare('SELECT COUNT(*) FROM import_statements').pluck().get(), 'undone with its import').toBe(0);
    const insert = db.prepare("INSERT INTO balance_assertions (created_at, as_of, account_id, format, filename, positions_json) VALUES ('2026-01-02', '2026-01-01T04:59:59.999Z', NULL, 'generic-csv', NULL, '[]')");
    expect([Number(insert.run().lastInsertRowid), Number(insert.run().lastInsertRowid)]).toEqual([1, 2]);
  });

  it('015 corporate actions: transactions (and superseded rows) get a nullable corporate_action column; corporate_actions goes with its import', () => {
    const path = join(tempDir(), 'a.db');
    const v14 = open(path, 14).db;
    v14.prepare("INSERT INTO imports (broker, source, filename, created_at, rows, imported, duplicates, report_json) VALUES ('generic', 'generic-csv', 'a.csv', '2026-01-01', 1, 1, 0, '{}')").run();
    v14.prepare("INSERT INTO accounts (id, name, source) VALUES ('a1', 'A', 'generic-csv')").run();
    const row = "'t1', 1, 'a1', 'r1', 'SPLIT', 'X', 'X', 0, NULL, NULL, NULL, 100, 0, 1, 0, 0, 0, 'USD', '2026-01-02T21:00:00.000Z', '2026-01-02', NULL, '', 'generic-csv', 0, NULL, NULL";
    v14.prepare(`INSERT INTO transactions VALUES (${row})`).run();
    v14.close();
    opened.pop();
    const { db } = open(path, 15);
    expect(userVersion(db)).toBe(15);
    expect(db.prepare("SELECT corporate_action FROM transactions WHERE id = 't1'").pluck().get(), 'a SPLIT imported before has no terms: it reads as it did').toBeNull();
    const superseded = (db.prepare('PRAGMA table_info(superseded_transactions)').all() as Array<{ name: string }>).map((c) => c.name);
    expect(superseded, 'a retired row keeps every column of its row').toContain('corporate_action');
    expect(tables(db)).toContain('corporate_actions');
    db.prepare("INSERT INTO imports (broker, source, filename, created_at, rows, imported, duplicates, report_json) VALUES ('manual', 'manual-action', NULL, '2026-01-03', 1, 1, 0, '{}')").run();
    const insert = db.prepare('INSERT INTO corporate_actions (import_id, account_id, date, type, symbol, new_symbol, ratio, cash_per_share_minor, cost_fraction, quantity, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    insert.run(2, null, '2026-01-05', 'split', 'X', null, 2, null, null, null, '2026-01-03');
    expect(() => insert.run(2, null, '2026-01-05', 'dividend', 'X', null, 2, null, null, null, '2026-01-03'), 'a kind of the six only').toThrow();
    expect(() => insert.run(99, null, '2026-01-05', 'split', 'X', null, 2, null, null, null, '2026-01-03'), 'its import must exist').toThrow();
    db.prepare('DELETE FROM imports WHERE id = 2').run();
    expect(db.prepare('SELECT COUNT(*) FROM corporate_actions').pluck().get(), 'undoing the import removes the action').toBe(0);
  });

  it('016 chain files: adds chain_files (a file by its digest, going with its snapshot) and chain_backfills', () => {
    const path = join(tempDir(), 'a.db');
    const v15 = open(path, 15).db;
    expect(tables(v15)).not.toContain('chain_files');
    v15.prepare("INSERT INTO snapshots (symbol, quote_time, spot, source, contracts, expirations, digest, payload, created_at) VALUES ('SPX', '2025-01-07T01:57:00.000Z', 5975.38, 'cboe-csv', 40, 1, 'd1', x'00', '2025-01-07T02:00:00.000Z')").run();
    v15.close();
    opened.pop();
    const { db } = open(path, 16);
    expect(userVersion(db)).toBe(16);
    expect(tables(db)).toEqual(expect.arrayContaining(['chain_files', 'chain_backfills']));
    const id = db.prepare("SELECT id FROM snapshots WHERE symbol = 'SPX'").pluck().get();
    const insert = db.prepare('INSERT INTO chain_files VALUES (?, ?, ?, ?)');
    insert.run('f'.repeat(64), id, 'spx.csv', '2025-01-07T02:00:00.000Z');
    expect(() => insert.run('f'.repeat(64), id, 'again.csv', 'x'), 'one row per digest').toThrow();
    expect(() => insert.run('e'.repeat(64), 987654, 'x.csv', 'x'), 'only a stored snapshot').toThrow();
    db.prepare('DELETE FROM snapshots WHERE id = ?').run(id);
    expect(db.prepare('SELECT COUNT(*) FROM chain_files').pluck().get(), 'a file row goes with its snapshot').toBe(0);
    const backfill = db.prepare('INSERT INTO chain_backfills (path, state, started_at, finished_at, progress) VALUES (?, ?, ?, ?, ?)');
    backfill.run('/chains', 'running', '2025-01-07T02:00:00.000Z', null, '{}');
    expect(() => backfill.run('/chains', 'paused', 'x', null, '{}'), 'a state of the list').toThrow();
  });

  it('017 snapshot columns: every JSON-form payload rewritten as columns, contract for contract, its digest kept; a damaged one left as it was', () => {
    const path = join(tempDir(), 'a.db');
    const v16 = open(path, 16).db;
    const contracts: OptionContract[] = [
      { root: 'SPXW', expiration: '2024-01-19', strike: 4700, right: 'C', openInterest: 5621, iv: 0.1187, bid: 48.1, ask: 48.9, multiplier: 100, volume: 12 },
      { root: 'SPX', expiration: '2024-01-19', strike: 4700, right: 'P', openInterest: 7032, iv: 0.1213, bid: 45.9, ask: 46.6, multiplier: 100 },
      { root: 'SPXW', expiration: '2024-02-16', strike: 4800.5, right: 'C', openInterest: 0, iv: 1 / 3, bid: 0, ask: 0.05, multiplier: 10 },
    ];
    const insert = v16.prepare("INSERT INTO snapshots (symbol, quote_time, spot, source, contracts, expirations, digest, payload, created_at) VALUES ('SPX', ?, 4700, 'cboe-csv', 3, 2, ?, ?, '2026-01-01')");
    insert.run('2024-01-05T21:00:00.000Z', 'a'.repeat(64), packContracts(contracts));
    insert.run('2024-01-05T21:30:00.000Z', 'b'.repeat(64), Buffer.from('not a deflated chain'));
    v16.close();
    opened.pop();
    const { db } = open(path, 17);
    expect(userVersion(db)).toBe(17);
    const rows = db.prepare('SELECT id, digest, payload FROM snapshots ORDER BY id').all() as Array<{ id: number; digest: string; payload: Buffer }>;
    expect(rows.map((row) => row.digest), 'digests as they were').toEqual(['a'.repeat(64), 'b'.repeat(64)]);
    expect(isColumnsPayload(rows[0]?.payload ?? Buffer.alloc(0)), 'the chain in the column form').toBe(true);
    expect(unpackContracts(rows[0]?.payload ?? Buffer.alloc(0)), 'contract for contract, volume where it was').toStrictEqual(contracts);
    expect(rows[1]?.payload.toString(), 'a payload that does not decode is left for reads to name damaged').toBe('not a deflated chain');
  });

  it('backs up to a file that opens at the old version', () => {
    const dir = tempDir();
    const path = join(dir, 'a.db');
    const v1 = open(path, 1).db;
    v1.prepare("INSERT INTO settings (key, value) VALUES ('rate', '0.05')").run();
    v1.close();
    opened.pop();
    const { backupPath } = open(path);
    expect(backupPath).not.toBeNull();
    const copy = new Database(backupPath ?? '', { readonly: true });
    expect(userVersion(copy)).toBe(1);
    expect(copy.prepare('SELECT value FROM settings').get()).toEqual({ value: '0.05' });
    copy.close();
    // In the backups folder beside it (db/backups.ts), named for the upgrade.
    expect(readdirSync(join(dir, 'backups')).filter((f) => /^strikebook-.+-migration\.db$/.test(f))).toEqual([basename(backupPath ?? '')]);
  });

  it('refuses a database from a newer version with a clear message and leaves it unchanged', () => {
    const path = join(tempDir(), 'a.db');
    open(path).db.close();
    opened.pop();
    const raw = new Database(path);
    raw.pragma(`user_version = ${LATEST_VERSION + 5}`);
    raw.close();
    const before = readFileSync(path);
    expect(() => openDatabase(path)).toThrow(DatabaseVersionError);
    expect(() => openDatabase(path)).toThrow(/newer Strikebook/);
    expect(readFileSync(path).equals(before), 'a refused file is not touched').toBe(true);
  });

  it('applies pending migrations in one transaction: a failure leaves the old schema intact', () => {
    const path = join(tempDir(), 'a.db');
    const v1 = open(path, 1).db;
    // A table in the way of migration 003 makes it fail after 002 has run inside the same transaction.
    v1.exec('CREATE TABLE snapshots (x INTEGER)');
    v1.close();
    opened.pop();
    expect(() => openDatabase(path)).toThrow();
    const raw = new Database(path, { readonly: true });
    expect(userVersion(raw), 'user_version unchanged after a failed migration').toBe(1);
    expect(tables(raw), '002 was rolled back with 003').not.toContain('transactions');
    raw.close();
  });
});
