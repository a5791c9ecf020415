/**
 * Snapshot repository: one row per stored chain (table `snapshots`), its head in columns and its contracts in one
 * payload, whose forms, digest and damage are db/snapshot-payload.ts's.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { SnapshotSourceId } from '../../src-shared/exposure/model';
import { snapshotDigest } from './snapshot-payload';
import { Table } from './sql';
import type { WriteTx } from './writes';

/** A row of `snapshots` (migration 003). */
export type SnapshotRow = {
  id: number;
  symbol: string;
  quote_time: string;
  spot: number;
  source: SnapshotSourceId;
  contracts: number;
  expirations: number;
  digest: string;
  payload: Buffer;
  created_at: string;
};

export const SNAPSHOTS = Table.of<SnapshotRow>()('snapshots', ['id', 'symbol', 'quote_time', 'spot', 'source', 'contracts', 'expirations', 'digest', 'payload', 'created_at']);

/** The newest snapshot of a symbol, as the exposure service loads it. */
export interface StoredSnapshot {
  id: number;
  symbol: string;
  quoteTime: string;
  spot: number;
  source: SnapshotSourceId;
  payload: Buffer;
}

/** A stored snapshot's identity and instant, without its contracts. */
export type SnapshotStamp = Pick<SnapshotRow, 'id' | 'quote_time'>;

/** What is stored of a snapshot beside its packed contracts. */
export interface NewSnapshotHead {
  symbol: string;
  quoteTime: string;
  spot: number;
  source: SnapshotSourceId;
  contracts: number;
  expirations: number;
}

/** A stored snapshot without its contracts: what /v1/snapshots lists. */
export interface SnapshotHeadRow extends NewSnapshotHead {
  id: number;
}

type HeadColumns = Pick<SnapshotRow, 'id' | 'symbol' | 'quote_time' | 'spot' | 'source' | 'contracts' | 'expirations'>;
const HEAD_COLUMNS = SNAPSHOTS.select(['id', 'symbol', 'quote_time', 'spot', 'source', 'contracts', 'expirations']);
const STORED_COLUMNS = SNAPSHOTS.select(['id', 'symbol', 'quote_time', 'spot', 'source', 'payload']);

function toHead(row: HeadColumns): SnapshotHeadRow {
  return { id: row.id, symbol: row.symbol, quoteTime: row.quote_time, spot: row.spot, source: row.source, contracts: row.contracts, expirations: row.expirations };
}

function toStored(row: Pick<SnapshotRow, 'id' | 'symbol' | 'quote_time' | 'spot' | 'source' | 'payload'>): StoredSnapshot {
  return { id: row.id, symbol: row.symbol, quoteTime: row.quote_time, spot: row.spot, source: row.source, payload: row.payload };
}

/** The newest snapshot of each symbol, with the number kept. */
export interface SnapshotSummary {
  symbol: string;
  quote_time: string;
  spot: number;
  source: string;
  contracts: number;
  expirations: number;
  snapshots: number;
}

const NEW_SNAPSHOT_COLUMNS = SNAPSHOTS.columns.filter((column) => column !== 'id');

export class SnapshotRepository {
  private readonly byDigestStatement: Statement<[string, string], number>;
  private readonly insertStatement: Statement<[Omit<SnapshotRow, 'id'>]>;
  private readonly latestQuoteTimeStatement: Statement<[string, number], string>;
  private readonly latestStatement: Statement<[string], Pick<SnapshotRow, 'id' | 'symbol' | 'quote_time' | 'spot' | 'source' | 'payload'>>;
  private readonly pruneStatement: Statement<[string, string, number]>;
  private readonly summariesStatement: Statement<[], SnapshotSummary>;
  private readonly symbolsStatement: Statement<[], string>;
  private readonly listStatement: Statement<[string], HeadColumns>;
  private readonly headByIdStatement: Statement<[number], HeadColumns>;
  private readonly byIdStatement: Statement<[number], Pick<SnapshotRow, 'id' | 'symbol' | 'quote_time' | 'spot' | 'source' | 'payload'>>;
  private readonly atOrBeforeStatement: Statement<[string, string], number>;
  private readonly stampsStatement: Statement<[string], SnapshotStamp>;
  private readonly deleteStatement: Statement<[number]>;

  constructor(db: Database) {
    this.byDigestStatement = db.prepare<[string, string], number>('SELECT id FROM snapshots WHERE symbol = ? AND digest = ?').pluck();
    this.insertStatement = db.prepare<[Omit<SnapshotRow, 'id'>]>(SNAPSHOTS.insertRowSql({ columns: NEW_SNAPSHOT_COLUMNS }));
    this.latestQuoteTimeStatement = db.prepare<[string, number], string>('SELECT quote_time FROM snapshots WHERE symbol = ? AND id != ? ORDER BY quote_time DESC, id DESC LIMIT 1').pluck();
    this.latestStatement = db.prepare(`SELECT ${STORED_COLUMNS} FROM snapshots WHERE symbol = ? ORDER BY quote_time DESC, id DESC LIMIT 1`);
    this.listStatement = db.prepare(`SELECT ${HEAD_COLUMNS} FROM snapshots WHERE symbol = ? ORDER BY quote_time DESC, id DESC`);
    this.byIdStatement = db.prepare(`SELECT ${STORED_COLUMNS} FROM snapshots WHERE id = ?`);
    this.headByIdStatement = db.prepare(`SELECT ${HEAD_COLUMNS} FROM snapshots WHERE id = ?`);
    this.atOrBeforeStatement = db.prepare<[string, string], number>('SELECT id FROM snapshots WHERE symbol = ? AND quote_time <= ? ORDER BY quote_time DESC, id DESC LIMIT 1').pluck();
    this.stampsStatement = db.prepare<[string], SnapshotStamp>(`SELECT ${SNAPSHOTS.select(['id', 'quote_time'])} FROM snapshots WHERE symbol = ?`);
    this.deleteStatement = db.prepare<[number]>('DELETE FROM snapshots WHERE id = ?');
    this.pruneStatement = db.prepare<[string, string, number]>(
      'DELETE FROM snapshots WHERE symbol = ? AND id NOT IN (SELECT id FROM snapshots WHERE symbol = ? ORDER BY quote_time DESC, id DESC LIMIT ?)',
    );
    this.summariesStatement = db.prepare<[], SnapshotSummary>(
      `SELECT s.symbol, s.quote_time, s.spot, s.source, s.contracts, s.expirations, c.n AS snapshots
       FROM (SELECT symbol, MAX(quote_time) AS qt, COUNT(*) AS n FROM snapshots GROUP BY symbol) c
       JOIN snapshots s ON s.symbol = c.symbol AND s.quote_time = c.qt
       GROUP BY s.symbol ORDER BY s.symbol`,
    );
    this.symbolsStatement = db.prepare<[], string>('SELECT DISTINCT symbol FROM snapshots ORDER BY symbol').pluck();
  }

  /**
   * Inserts unless this exact snapshot (same symbol and content) is stored already. `head.contracts` and
   * `head.expirations` count the file's contracts and their expirations (expired ones included). `digest`, when the
   * caller computed it off the event loop (IngestPlan.digest), must be snapshotDigest's.
   */
  insert(_turn: WriteTx, snapshot: NewSnapshotHead, payload: Buffer, createdAt: string, digest = snapshotDigest(snapshot, payload)): { id: number; inserted: boolean } {
    const existing = this.byDigestStatement.get(snapshot.symbol, digest);
    if (existing !== undefined) return { id: existing, inserted: false };
    const result = this.insertStatement.run({
      symbol: snapshot.symbol,
      quote_time: snapshot.quoteTime,
      spot: snapshot.spot,
      source: snapshot.source,
      contracts: snapshot.contracts,
      expirations: snapshot.expirations,
      digest,
      payload,
      created_at: createdAt,
    });
    return { id: Number(result.lastInsertRowid), inserted: true };
  }

  latestQuoteTime(symbol: string, excludingId: number): string | null {
    return this.latestQuoteTimeStatement.get(symbol, excludingId) ?? null;
  }

  latest(symbol: string): StoredSnapshot | null {
    const row = this.latestStatement.get(symbol);
    return row === undefined ? null : toStored(row);
  }

  byId(id: number): StoredSnapshot | null {
    const row = this.byIdStatement.get(id);
    return row === undefined ? null : toStored(row);
  }

  /** One stored snapshot without its contracts, or null. */
  headById(id: number): SnapshotHeadRow | null {
    const row = this.headByIdStatement.get(id);
    return row === undefined ? null : toHead(row);
  }

  /** The symbol's snapshots, newest first (quote time, then id), without their contracts. */
  list(symbol: string): SnapshotHeadRow[] {
    return this.listStatement.all(symbol).map(toHead);
  }

  /** The id of the symbol's newest snapshot quoted at or before the instant (ISO 8601 UTC, as stored). */
  atOrBefore(symbol: string, instant: string): number | null {
    return this.atOrBeforeStatement.get(symbol, instant) ?? null;
  }

  /**
   * The symbol's snapshots as id and quote time, in no order: the journal's marks pick among them by instant (quote
   * times written with and without fractions compare right as instants, not as text).
   */
  stamps(symbol: string): SnapshotStamp[] {
    return this.stampsStatement.all(symbol);
  }

  /** Deletes one snapshot (its history points go with it: ON DELETE CASCADE); false when there was none. */
  delete(_turn: WriteTx, id: number): boolean {
    return this.deleteStatement.run(id).changes > 0;
  }

  /** Keeps the newest `keep` snapshots of the symbol. */
  prune(_turn: WriteTx, symbol: string, keep: number): number {
    return this.pruneStatement.run(symbol, symbol, Math.max(1, keep)).changes;
  }

  summaries(): SnapshotSummary[] {
    return this.summariesStatement.all();
  }

  symbols(): string[] {
    return this.symbolsStatement.all();
  }
}
