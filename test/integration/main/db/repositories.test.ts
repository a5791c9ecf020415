/**
 * The repositories of src-main/db (one per table) on a real, migrated SQLite file, and the two helpers they are
 * built on: a table's column list (typed against its row) and `sql` for dynamic WHERE/IN.
 */
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { syntheticTransactions } from '../../../../src-shared/demo/journal';
import type { ChainSnapshot } from '../../../../src-shared/exposure/model';
import type { ImportedTransaction } from '../../../../src-shared/journal/model';
import { AccountsRepository } from '../../../../src-main/db/accounts';
import { ApiKeysRepository } from '../../../../src-main/db/api-keys';
import { EventsRepository } from '../../../../src-main/db/events';
import { ExposureStateRepository } from '../../../../src-main/db/exposure-state';
import { Generations } from '../../../../src-main/db/generations';
import { ImportsRepository } from '../../../../src-main/db/imports';
import { openDatabase } from '../../../../src-main/db/open';
import { SettingsRepository } from '../../../../src-main/db/settings';
import { packContracts } from '../../../../src-main/db/snapshot-payload';
import { SnapshotRepository } from '../../../../src-main/db/snapshots';
import { sql, Table } from '../../../../src-main/db/sql';
import { toRow, toTransaction, TRANSACTIONS, TransactionsRepository } from '../../../../src-main/db/transactions';
import { tempDir } from '../../../paths';
import { asMinor } from '../../../../src-shared/money';
import { writeNow, type WriteTx } from '../../../../src-main/db/writes';

const opened: Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

function database(): Database {
  const { db } = openDatabase(join(tempDir(), 'strikebook.db'));
  opened.push(db);
  return db;
}

function newImport(turn: WriteTx, db: Database, createdAt = '2026-01-01T00:00:00.000Z'): number {
  return new ImportsRepository(db).insert(turn, { broker: 'generic', source: 'generic-csv', filename: 'f.csv', created_at: createdAt, rows: 0, imported: 0, duplicates: 0, report_json: '{}' });
}

describe('sql and Table', () => {
  it('binds every value as a parameter: no value ever enters the text', () => {
    const hostile = "x') OR 1=1; DROP TABLE events; --";
    const query = sql`SELECT id FROM events ${sql.where([sql`ticker IN ${sql.list(['SPX', hostile])}`, sql`expiration >= ${'2026-01-01'}`])} LIMIT ${5}`;
    expect(query.text).toBe('SELECT id FROM events WHERE ticker IN (?, ?) AND expiration >= ? LIMIT ?');
    expect(query.params).toEqual(['SPX', hostile, '2026-01-01', 5]);
    expect(sql`SELECT 1 ${sql.where([])}`.text.trim(), 'no conditions, no WHERE').toBe('SELECT 1');
  });

  it('derives SELECT and INSERT lists from one column list checked against the row type', () => {
    type Pair = { a: string; b: number };
    const pairs = Table.of<Pair>()('pairs', ['a', 'b']);
    expect(pairs.columnList).toBe('a, b');
    expect(pairs.insertSql({ orIgnore: true, rows: 2 })).toBe('INSERT OR IGNORE INTO pairs (a, b) VALUES (?, ?), (?, ?)');
    expect(pairs.insertRowSql()).toBe('INSERT INTO pairs (a, b) VALUES (@a, @b)');
    const values: Array<string | number | null> = [];
    pairs.pushValues({ b: 2, a: 'x' }, values);
    expect(values, 'in the order of the list, whatever the order of the object').toEqual(['x', 2]);
    // @ts-expect-error a column of the row left out of the list is a type error
    Table.of<Pair>()('pairs', ['a']);
    expect(TRANSACTIONS.columns, '25 of migration 002, the sequence of 008 and the corporate action of 015').toHaveLength(27);
  });
});

describe('TransactionsRepository', () => {
  it('stores rows in batches (duplicates ignored), reads them back as they were, by index, for the ledger and by id', () => {
    const db = database();
    writeNow(db, (turn) => {
      const repo = new TransactionsRepository(db);
      new AccountsRepository(db).insert(turn, { id: 'acc', name: 'Main', source: 'generic-csv' });
      const importId = newImport(turn, db);
      const imported = syntheticTransactions(450, 3);
      const stored = imported.map((tx, i) => ({ tx, ids: { id: `tx${String(i).padStart(4, '0')}`, importId, accountId: 'acc', tradeDay: tx.tradeDate.slice(0, 10) } }));
      const rows = stored.map(({ tx, ids }) => toRow(tx, ids));
      const inserter = repo.inserter(turn);
      for (const { tx, ids } of stored) inserter.add(tx, ids);
      // The first 10 again are duplicates.
      for (const { tx, ids } of stored.slice(0, 10)) inserter.add(tx, ids);
      expect(inserter.finish(), 'new rows only').toBe(450);

      const index = [...repo.indexNewestFirst()];
      expect(index).toHaveLength(450);
      const newestFirst = [...rows].sort((a, b) => (a.trade_date === b.trade_date ? (a.id < b.id ? 1 : -1) : a.trade_date < b.trade_date ? 1 : -1));
      expect(index.map((r) => r.id), 'trade date, then id, newest first').toEqual(newestFirst.map((r) => r.id));
      expect([...repo.ledgerRows()]).toHaveLength(450);

      const [first, second] = rows;
      if (first === undefined || second === undefined) throw new Error('no rows');
      expect(repo.byIds([second.id, first.id, 'missing']).map((r) => r.id).sort()).toEqual([first.id, second.id]);
      const back = repo.byIds([first.id])[0];
      expect(back, 'every column as stored').toEqual(first);
      const tx = toTransaction(back ?? first, new Map([['acc', 'Main']]));
      const original = imported[0];
      expect(tx).toMatchObject({ id: first.id, importId, accountId: 'acc', accountName: 'Main', brokerRowId: original?.brokerRowId, type: original?.type, amountMinor: original?.amountMinor, tradeDay: first.trade_day });

      expect(repo.hasSource(original?.source ?? '')).toBe(true);
      expect(repo.hasSource('demo')).toBe(false);
      expect(repo.setTradeDay(turn, first.id, '1999-01-01'), 'a changed day').toBe(1);
      expect(repo.setTradeDay(turn, first.id, '1999-01-01'), 'the same day again: no change').toBe(0);
      expect(repo.tradeDates()).toHaveLength(450);
      expect(repo.deleteByImport(turn, importId)).toBe(450);
      expect([...repo.indexNewestFirst()]).toEqual([]);
    });
  });
  it('stores each value in its own column (the inserter passes them by position)', () => {
    const db = database();
    writeNow(db, (turn) => {
      new AccountsRepository(db).insert(turn, { id: 'acc-col', name: 'Columns', source: 'generic-csv' });
      newImport(turn, db);
      // Import id 2: not the 1 of is_option.
      const importId = newImport(turn, db);
      // Every column a value no other column has, so that two values passed in each other's place cannot go unseen.
      const tx: ImportedTransaction = {
        accountName: 'Columns', brokerRowId: 'broker-row', type: 'SELL_TO_OPEN', symbol: 'XYZ240119P00040000', underlying: 'XYZ', isOption: true,
        expiration: '2024-01-19', strike: 40.5, right: 'P', quantity: 3, priceMinor: asMinor(12_345), multiplier: 100, amountMinor: asMinor(370_350), commissionMinor: asMinor(19_500),
        feesMinor: asMinor(777), currency: 'CAD', tradeDate: '2024-01-02T15:04:05.000Z', orderId: 'order-9', description: 'words', source: 'generic-csv',
        inferred: false, previousSymbol: 'OLD', sequence: 41,
      };
      const ids = { id: 'id-1', importId, accountId: 'acc-col', tradeDay: '2024-01-02' };
      const inserter = new TransactionsRepository(db).inserter(turn);
      inserter.add(tx, ids);
      expect(inserter.finish()).toBe(1);
      const row = toRow(tx, ids);
      expect(new Set(Object.values(row)).size, 'no two columns hold the same value').toBe(TRANSACTIONS.columns.length);
      expect(new TransactionsRepository(db).byIds(['id-1'])).toEqual([row]);
      expect(toTransaction(row, new Map()).sequence, "the row's event order reaches the ledger (migration 008)").toBe(41);
    });
  });
});

describe('ImportsRepository and AccountsRepository', () => {
  it('records imports (newest first, paged), finishes them, and removes them', () => {
    const db = database();
    writeNow(db, (turn) => {
      const imports = new ImportsRepository(db);
      const ids = [newImport(turn, db, '2026-01-01T00:00:00.000Z'), newImport(turn, db, '2026-01-02T00:00:00.000Z'), newImport(turn, db, '2026-01-03T00:00:00.000Z')];
      imports.finish(turn, { id: ids[1] ?? 0, imported: 7, duplicates: 2, report_json: '{"x":1}' });
      expect(imports.count()).toBe(3);
      expect(imports.page(2, 0).map((r) => r.id)).toEqual([ids[2], ids[1]]);
      expect(imports.page(2, 2).map((r) => r.id)).toEqual([ids[0]]);
      expect(imports.page(1, 1)[0]).toEqual({ id: ids[1], imported: 7, duplicates: 2, report_json: '{"x":1}' });
      expect(imports.exists(ids[0] ?? 0)).toBe(true);
      expect(imports.delete(turn, ids[0] ?? 0)).toBe(1);
      expect(imports.exists(ids[0] ?? 0)).toBe(false);
    });
  });

  it('adds an account once, lists those with transactions, and deletes the unused', () => {
    const db = database();
    writeNow(db, (turn) => {
      const accounts = new AccountsRepository(db);
      accounts.insert(turn, { id: 'b', name: 'Beta', source: 's' });
      accounts.insert(turn, { id: 'b', name: 'Renamed', source: 's' });
      accounts.insert(turn, { id: 'a', name: 'Alpha', source: 's' });
      const importId = newImport(turn, db);
      const [tx] = syntheticTransactions(1, 1);
      if (tx === undefined) throw new Error('no transaction');
      // Fewer rows than a batch are written by finish().
      const inserter = new TransactionsRepository(db).inserter(turn);
      inserter.add(tx, { id: 't1', importId, accountId: 'b', tradeDay: '2026-01-01' });
      expect(inserter.finish()).toBe(1);
      expect(accounts.inUse(), 'only accounts with transactions; the first name stays').toEqual([{ id: 'b', name: 'Beta' }]);
      expect(accounts.deleteUnused(turn), 'Alpha has none').toBe(1);
    });
  });
});

describe('EventsRepository and ExposureStateRepository', () => {
  it('stores an event once and reads the newest first, filtered by ticker, type and expiration, with a limit', () => {
    const db = database();
    writeNow(db, (turn) => {
      const events = new EventsRepository(db);
      const row = (id: string, ticker: string, type: string, expiration: string, minute: number) => ({
        id,
        ticker,
        event_type: type,
        expiration,
        timestamp: `2026-01-02T15:${String(minute).padStart(2, '0')}:00.000Z`,
        payload: JSON.stringify({ id }),
      });
      expect(events.insert(turn, row('e1', 'SPX', 'flip', '2026-01-16', 1))).toBe(true);
      expect(events.insert(turn, row('e1', 'SPX', 'flip', '2026-01-16', 1)), 'the same id again').toBe(false);
      events.insert(turn, row('e2', 'SPX', 'wall', '2026-02-20', 2));
      events.insert(turn, row('e3', 'QQQ', 'wall', '2026-01-16', 3));
      const ids = (filter: Parameters<EventsRepository['newest']>[0]) => events.newest(filter).map((r) => r.id);
      expect(ids({ limit: 10 })).toEqual(['e3', 'e2', 'e1']);
      expect(ids({ limit: 2 })).toEqual(['e3', 'e2']);
      expect(ids({ tickers: ['SPX'], limit: 10 })).toEqual(['e2', 'e1']);
      expect(ids({ eventType: 'wall', limit: 10 })).toEqual(['e3', 'e2']);
      expect(ids({ expirationFrom: '2026-02-01', limit: 10 })).toEqual(['e2']);
      expect(ids({ expirationTo: '2026-01-31', tickers: ['SPX', 'QQQ'], limit: 10 })).toEqual(['e3', 'e1']);
      expect(ids({ tickers: ["SPX') OR ('1'='1"], limit: 10 }), 'a hostile ticker is a value, matching nothing').toEqual([]);
      expect(events.newest({ limit: 10 })[0]).toEqual({ id: 'e3', payload: '{"id":"e3"}' });
    });
  });

  it('keeps one confirmed state per (ticker, expiration), replaced by the next', () => {
    const db = database();
    writeNow(db, (turn) => {
      const states = new ExposureStateRepository(db);
      states.upsert(turn, { ticker: 'SPX', expiration: '2026-01-16', zone: 'positive', call_wall: 4800, put_wall: null, quote_time: 't1' });
      states.upsert(turn, { ticker: 'SPX', expiration: '2026-01-16', zone: 'negative', call_wall: 4850, put_wall: 4600, quote_time: 't2' });
      states.upsert(turn, { ticker: 'QQQ', expiration: '2026-01-16', zone: 'positive', call_wall: null, put_wall: null, quote_time: 't1' });
      expect(states.forTicker('SPX')).toEqual([{ ticker: 'SPX', expiration: '2026-01-16', zone: 'negative', call_wall: 4850, put_wall: 4600, quote_time: 't2' }]);
    });
  });
});

describe('SnapshotRepository and Generations', () => {
  const snapshot = (quoteTime: string, spot = 100): ChainSnapshot => ({
    symbol: 'SNAP',
    spot,
    quoteTime,
    source: 'generic',
    contracts: [{ root: 'SNAP', expiration: '2099-12-18', strike: 100, right: 'C', openInterest: 10, iv: 0.2, bid: 1, ask: 1.1, multiplier: 100 }],
  });

  it('stores a snapshot once per content, finds the newest, prunes to the newest N; every change raises the generation', () => {
    const db = database();
    writeNow(db, (turn) => {
      const snapshots = new SnapshotRepository(db);
      const generations = new Generations(db);
      const store = (s: ChainSnapshot) =>
        snapshots.insert(turn, { symbol: s.symbol, quoteTime: s.quoteTime, spot: s.spot, source: s.source, contracts: s.contracts.length, expirations: 1 }, packContracts(s.contracts), '2026-01-01T00:00:00.000Z');
      const first = store(snapshot('2099-11-20T15:00:00.000Z'));
      expect(first.inserted).toBe(true);
      expect(store(snapshot('2099-11-20T15:00:00.000Z')), 'the same content again').toEqual({ id: first.id, inserted: false });
      store(snapshot('2099-11-20T17:00:00.000Z', 101));
      store(snapshot('2099-11-20T16:00:00.000Z', 102));
      expect(generations.snapshots(), 'three stored').toBe(3);
      expect(snapshots.latest('SNAP')).toMatchObject({ symbol: 'SNAP', quoteTime: '2099-11-20T17:00:00.000Z', spot: 101, source: 'generic' });
      expect(snapshots.latestQuoteTime('SNAP', first.id)).toBe('2099-11-20T17:00:00.000Z');
      expect(snapshots.summaries()).toEqual([{ symbol: 'SNAP', quote_time: '2099-11-20T17:00:00.000Z', spot: 101, source: 'generic', contracts: 1, expirations: 1, snapshots: 3 }]);
      expect(snapshots.stamps('SNAP').map((s) => s.quote_time).sort(), 'the stamps the journal marks by').toEqual(['2099-11-20T15:00:00.000Z', '2099-11-20T16:00:00.000Z', '2099-11-20T17:00:00.000Z']);
      expect(snapshots.stamps('NONE')).toEqual([]);
      expect(snapshots.prune(turn, 'SNAP', 2), 'the oldest goes').toBe(1);
      expect(generations.snapshots()).toBe(4);
      expect(snapshots.symbols()).toEqual(['SNAP']);
      expect(snapshots.latest('NONE')).toBeNull();

      expect(generations.journal()).toBe(0);
      generations.bumpJournal(turn);
      expect(generations.journal()).toBe(1);
      expect(generations.snapshots(), 'the journal counter is its own').toBe(4);
    });
  });
});

describe('ApiKeysRepository and SettingsRepository', () => {
  it('lists keys without hashes, revokes only active ones, prunes old revoked ones, stamps use', () => {
    const db = database();
    writeNow(db, (turn) => {
      const keys = new ApiKeysRepository(db);
      const hash = (n: number) => Buffer.alloc(32, n);
      keys.insert(turn, { id: 'k1', name: 'one', hash: hash(1), created_at: '2026-01-01T00:00:00.000Z' });
      keys.insert(turn, { id: 'k2', name: 'two', hash: hash(2), created_at: '2026-01-02T00:00:00.000Z' });
      keys.insert(turn, { id: 'k3', name: 'three', hash: hash(3), created_at: '2026-01-03T00:00:00.000Z' });
      expect(keys.active().map((k) => [k.id, Buffer.from(k.hash).equals(hash(Number(k.id.slice(1))))])).toEqual([
        ['k1', true],
        ['k2', true],
        ['k3', true],
      ]);
      expect(keys.revoke(turn, 'k1', '2026-01-05T00:00:00.000Z')).toBe(1);
      expect(keys.revoke(turn, 'k1', '2026-01-06T00:00:00.000Z'), 'revoked already').toBe(0);
      keys.revoke(turn, 'k2', '2026-03-01T00:00:00.000Z');
      keys.touch(turn, 'k3', '2026-03-02T00:00:00.000Z');
      expect(keys.list()).toEqual([
        { id: 'k1', name: 'one', created_at: '2026-01-01T00:00:00.000Z', last_used_at: null, revoked_at: '2026-01-05T00:00:00.000Z' },
        { id: 'k2', name: 'two', created_at: '2026-01-02T00:00:00.000Z', last_used_at: null, revoked_at: '2026-03-01T00:00:00.000Z' },
        { id: 'k3', name: 'three', created_at: '2026-01-03T00:00:00.000Z', last_used_at: '2026-03-02T00:00:00.000Z', revoked_at: null },
      ]);
      expect(keys.pruneRevoked(turn, '2026-02-01T00:00:00.000Z', 20), 'revoked before the cutoff').toBe(1);
      keys.revoke(turn, 'k3', '2026-03-03T00:00:00.000Z');
      expect(keys.pruneRevoked(turn, '2000-01-01T00:00:00.000Z', 1), 'all but the newest revoked one').toBe(1);
      expect(keys.list().map((k) => k.id)).toEqual(['k3']);
    });
  });

  it('saves settings as JSON text, one row per key, replacing the old value', () => {
    const db = database();
    writeNow(db, (turn) => {
      const settings = new SettingsRepository(db);
      settings.save(turn, [
        { key: 'rate', value: '0.05' },
        { key: 'timeZone', value: '"Europe/Paris"' },
      ]);
      settings.save(turn, [{ key: 'rate', value: '0.03' }]);
      expect(settings.all().sort((a, b) => (a.key < b.key ? -1 : 1))).toEqual([
        { key: 'rate', value: '0.03' },
        { key: 'timeZone', value: '"Europe/Paris"' },
      ]);
    });
  });
});
