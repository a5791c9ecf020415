import type { Database } from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { deflateSync, inflateSync, constants } from 'node:zlib';
import type { ChainSnapshot, OptionContract, SnapshotSourceId } from '../../src-shared/exposure/model';

/**
 * Snapshot repository. Contracts are stored column-wise (dictionary-coded roots and expirations, numeric
 * columns) in one deflated JSON blob: a 21k-contract SPX chain takes a few hundred KB and one row.
 */
interface Packed {
  v: 1;
  roots: string[];
  expirations: string[];
  root: number[];
  expiration: number[];
  strike: number[];
  right: string;
  oi: number[];
  iv: number[];
  bid: number[];
  ask: number[];
  multiplier: number[];
}

export function packContracts(contracts: readonly OptionContract[]): Buffer {
  const roots: string[] = [];
  const expirations: string[] = [];
  const rootIndex = new Map<string, number>();
  const expirationIndex = new Map<string, number>();
  const packed: Packed = { v: 1, roots, expirations, root: [], expiration: [], strike: [], right: '', oi: [], iv: [], bid: [], ask: [], multiplier: [] };
  let rights = '';
  for (const c of contracts) {
    let r = rootIndex.get(c.root);
    if (r === undefined) {
      r = roots.push(c.root) - 1;
      rootIndex.set(c.root, r);
    }
    let e = expirationIndex.get(c.expiration);
    if (e === undefined) {
      e = expirations.push(c.expiration) - 1;
      expirationIndex.set(c.expiration, e);
    }
    packed.root.push(r);
    packed.expiration.push(e);
    packed.strike.push(c.strike);
    rights += c.right;
    packed.oi.push(c.openInterest);
    packed.iv.push(c.iv);
    packed.bid.push(c.bid);
    packed.ask.push(c.ask);
    packed.multiplier.push(c.multiplier);
  }
  packed.right = rights;
  return deflateSync(JSON.stringify(packed), { level: constants.Z_BEST_SPEED });
}

export function unpackContracts(blob: Buffer): OptionContract[] {
  const packed = JSON.parse(inflateSync(blob).toString('utf8')) as Packed;
  const contracts: OptionContract[] = new Array<OptionContract>(packed.strike.length);
  for (let i = 0; i < packed.strike.length; i += 1) {
    contracts[i] = {
      root: packed.roots[packed.root[i] ?? 0] ?? '',
      expiration: packed.expirations[packed.expiration[i] ?? 0] ?? '',
      strike: packed.strike[i] ?? 0,
      right: packed.right[i] === 'P' ? 'P' : 'C',
      openInterest: packed.oi[i] ?? 0,
      iv: packed.iv[i] ?? 0,
      bid: packed.bid[i] ?? 0,
      ask: packed.ask[i] ?? 0,
      multiplier: packed.multiplier[i] ?? 100,
    };
  }
  return contracts;
}

export interface SnapshotRow {
  id: number;
  symbol: string;
  quoteTime: string;
  spot: number;
  source: SnapshotSourceId;
  contracts: number;
  expirations: number;
}

export interface SnapshotSummary {
  symbol: string;
  quote_time: string;
  spot: number;
  source: string;
  contracts: number;
  expirations: number;
  snapshots: number;
}

export class SnapshotRepository {
  constructor(private readonly db: Database) {}

  /** Inserts unless this exact snapshot (same symbol and content) is stored already. */
  insert(snapshot: ChainSnapshot, payload: Buffer): { id: number; inserted: boolean } {
    const expirationCount = new Set(snapshot.contracts.map((c) => c.expiration)).size;
    const digest = createHash('sha256').update(`${snapshot.quoteTime}|${snapshot.spot}|`).update(payload).digest('hex');
    const existing = this.db.prepare('SELECT id FROM snapshots WHERE symbol = ? AND digest = ?').get(snapshot.symbol, digest) as { id: number } | undefined;
    if (existing) return { id: existing.id, inserted: false };
    const result = this.db
      .prepare('INSERT INTO snapshots (symbol, quote_time, spot, source, contracts, expirations, digest, payload, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(snapshot.symbol, snapshot.quoteTime, snapshot.spot, snapshot.source, snapshot.contracts.length, expirationCount, digest, payload, new Date().toISOString());
    return { id: Number(result.lastInsertRowid), inserted: true };
  }

  latestQuoteTime(symbol: string, excludingId: number): string | null {
    const row = this.db.prepare('SELECT quote_time FROM snapshots WHERE symbol = ? AND id != ? ORDER BY quote_time DESC, id DESC LIMIT 1').get(symbol, excludingId) as { quote_time: string } | undefined;
    return row?.quote_time ?? null;
  }

  latest(symbol: string): (SnapshotRow & { payload: Buffer }) | null {
    const row = this.db
      .prepare('SELECT id, symbol, quote_time AS quoteTime, spot, source, contracts, expirations, payload FROM snapshots WHERE symbol = ? ORDER BY quote_time DESC, id DESC LIMIT 1')
      .get(symbol) as (SnapshotRow & { payload: Buffer }) | undefined;
    return row ?? null;
  }

  /** Keeps the newest `keep` snapshots of the symbol. */
  prune(symbol: string, keep: number): number {
    return this.db
      .prepare('DELETE FROM snapshots WHERE symbol = ? AND id NOT IN (SELECT id FROM snapshots WHERE symbol = ? ORDER BY quote_time DESC, id DESC LIMIT ?)')
      .run(symbol, symbol, Math.max(1, keep)).changes;
  }

  summaries(): SnapshotSummary[] {
    return this.db
      .prepare(
        `SELECT s.symbol, s.quote_time, s.spot, s.source, s.contracts, s.expirations, c.n AS snapshots
         FROM (SELECT symbol, MAX(quote_time) AS qt, COUNT(*) AS n FROM snapshots GROUP BY symbol) c
         JOIN snapshots s ON s.symbol = c.symbol AND s.quote_time = c.qt
         GROUP BY s.symbol ORDER BY s.symbol`,
      )
      .all() as SnapshotSummary[];
  }

  symbols(): string[] {
    return (this.db.prepare('SELECT DISTINCT symbol FROM snapshots ORDER BY symbol').all() as Array<{ symbol: string }>).map((r) => r.symbol);
  }
}
