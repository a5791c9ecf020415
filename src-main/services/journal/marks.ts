/**
 * The snapshots as the journal's book reads them (docs/journal.md §Positions): each underlying's quote times, the
 * newest snapshot at or before an instant (the marks), and the first one after an expiry (its evidence). Read on the
 * journal worker's connection through db/snapshots.ts, prepared once per snapshot and kept within a bound.
 */
import type { Database } from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { parseInstantMs } from '../../../src-shared/calendar';
import { computeGex, prepareChain, settlementOf, type PreparedChain } from '../../../src-shared/exposure/index';
import type { OptionContract } from '../../../src-shared/exposure/model';
import { isAdjustedRoot } from '../../../src-shared/exposure/prepare';
import type { DealerLevels, SnapshotQuote, UnderlyingMarks } from '../../../src-shared/journal/book';
import type { OptionRight } from '../../../src-shared/journal/model';
import { SnapshotRepository, storedContracts } from '../../db/snapshots';

/** A stored snapshot's id and quote instant. */
export interface Stamp {
  id: number;
  ms: number;
}

function contractKey(expiration: string, right: OptionRight, strike: number): string {
  return `${expiration}|${right}|${strike}`;
}

/** The `/gex` default-scope levels of a prepared chain (null when it has no unexpired contract). */
function dealerLevels(chain: PreparedChain): DealerLevels | null {
  if (chain.expirations.length === 0) return null;
  const gex = computeGex(chain, { expirations: [], formula: 'nominal' });
  return { callWall: gex.callWall?.strike ?? null, putWall: gex.putWall?.strike ?? null, gammaFlip: gex.gammaInflection, gammaZone: gex.gammaZone };
}

/** Contracts of the prepared snapshots kept for marking (about ten SPX chains' worth). */
const MARKS_MAX_CONTRACTS = 200_000;

export class JournalMarks {
  private readonly snapshots: SnapshotRepository;
  private readonly stamps = new Map<string, Stamp[]>();
  /**
   * Marks per snapshot id, bounded by contracts: a book of forty underlyings keeps all of them, a prepared SPX chain
   * (21k contracts, a few MB) counts for what it weighs.
   */
  private readonly marks = new LRUCache<number, UnderlyingMarks>({ maxSize: MARKS_MAX_CONTRACTS, sizeCalculation: (marks) => Math.max(1, marks.contracts) });

  constructor(
    db: Database,
    private readonly rate: () => number,
  ) {
    this.snapshots = new SnapshotRepository(db);
  }

  /** After the snapshots or the rate changed. */
  clear(): void {
    this.stamps.clear();
    this.marks.clear();
  }

  /** The symbol's snapshots, oldest first. */
  stampsOf(symbol: string): Stamp[] {
    let list = this.stamps.get(symbol);
    if (list === undefined) {
      list = this.snapshots
        .stamps(symbol)
        .map((row) => ({ id: row.id, ms: parseInstantMs(row.quote_time) }))
        .filter((stamp) => Number.isFinite(stamp.ms))
        .sort((a, b) => a.ms - b.ms || a.id - b.id);
      this.stamps.set(symbol, list);
    }
    return list;
  }

  /** The newest snapshot of the symbol at or before the instant. */
  marksAt(symbol: string, asOfMs: number): UnderlyingMarks | null {
    let found: Stamp | undefined;
    for (const stamp of this.stampsOf(symbol)) {
      if (stamp.ms > asOfMs) break;
      found = stamp;
    }
    return found === undefined ? null : this.marksOf(found.id);
  }

  /** The spot and quote time of the newest snapshot at or before the instant, read from its head (no chain prepared). */
  spotAt(symbol: string, atMs: number): { spot: number; quoteTime: string } | null {
    let found: Stamp | undefined;
    for (const stamp of this.stampsOf(symbol)) {
      if (stamp.ms > atMs) break;
      found = stamp;
    }
    const head = found === undefined ? null : this.snapshots.headById(found.id);
    return head === null ? null : { spot: head.spot, quoteTime: head.quoteTime };
  }

  /** The first snapshot of the symbol quoted in [fromMs, toMs], with its instant. */
  firstBetween(symbol: string, fromMs: number, toMs: number): { marks: UnderlyingMarks; ms: number } | null {
    const stamp = this.stampsOf(symbol).find((s) => s.ms >= fromMs && s.ms <= toMs);
    const marks = stamp === undefined ? null : this.marksOf(stamp.id);
    return stamp === undefined || marks === null ? null : { marks, ms: stamp.ms };
  }

  private marksOf(id: number): UnderlyingMarks | null {
    const cached = this.marks.get(id);
    if (cached !== undefined) return cached;
    const row = this.snapshots.byId(id);
    if (row === null) return null;
    const rate = this.rate();
    const contracts = storedContracts(row);
    const chain = prepareChain({ symbol: row.symbol, spot: row.spot, quoteTime: row.quoteTime, source: row.source, contracts }, { rate });
    const byKey = new Map<string, OptionContract>();
    for (const contract of contracts) {
      // An adjusted root (AMD1) shares the strikes but delivers something else: the standard contract is the mark.
      if (isAdjustedRoot(contract.root, row.symbol)) continue;
      const key = contractKey(contract.expiration, contract.right, contract.strike);
      if (!byKey.has(key)) byKey.set(key, contract);
    }
    const marks: UnderlyingMarks = {
      snapshotId: row.id,
      quoteTime: row.quoteTime,
      spot: row.spot,
      rate,
      contracts: contracts.length,
      levels: dealerLevels(chain),
      contract(expiration, strike, right): SnapshotQuote | null {
        const contract = byKey.get(contractKey(expiration, right, strike));
        if (contract === undefined) return null;
        const groups = chain.byExpiration.get(expiration)?.groups ?? [];
        const group = groups.find((g) => g.settlement === settlementOf(contract.root)) ?? groups[0];
        return { bid: contract.bid, ask: contract.ask, iv: contract.iv, tYears: group?.tYears ?? null, forward: group?.forward ?? null };
      },
    };
    this.marks.set(id, marks);
    return marks;
  }
}
