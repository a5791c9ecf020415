/**
 * The snapshots as the journal's book reads them (docs/journal.md §Positions): each underlying's quote times, the
 * newest snapshot at or before an instant (the marks), and the first one after an expiry (its evidence). Read on the
 * journal worker's connection through db/snapshots.ts, prepared once per snapshot and kept within a bound.
 */
import type { Database } from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { parseInstantMs } from '../../../src-shared/calendar';
import type { LevelsScope } from '../../../src-shared/api/constants';
import { prepareChain, settlementOf, type PreparedChain } from '../../../src-shared/exposure/index';
import type { OptionContract } from '../../../src-shared/exposure/model';
import { isAdjustedRoot } from '../../../src-shared/exposure/prepare';
import { isAdjustedOptionRoot, underlyingOfRoot } from '../../../src-shared/exposure/roots';
import type { SnapshotQuote, UnderlyingMarks } from '../../../src-shared/journal/book';
import { scopedLevels, type ScopedLevels } from '../../../src-shared/journal/levels';
import type { OptionRight } from '../../../src-shared/journal/model';
import { storedContracts } from '../../db/snapshot-payload';
import { SnapshotRepository } from '../../db/snapshots';

/** A stored snapshot's id and quote instant. */
export interface Stamp {
  id: number;
  ms: number;
}

/** Contracts by right, then strike: numbers as keys (a positions read looks up hundreds; a text key per lookup cost more than the rest of its mark). */
interface ByStrike<T> {
  C: Map<number, T>;
  P: Map<number, T>;
}

function strikesOf<T>(map: Map<string, ByStrike<T>>, key: string): ByStrike<T> {
  let sides = map.get(key);
  if (sides === undefined) map.set(key, (sides = { C: new Map(), P: new Map() }));
  return sides;
}

/**
 * A snapshot's contracts as the marks look them up: by root, expiration, right and strike (the SPX chain lists the AM
 * SPX and the PM SPXW contract of one third-Friday strike side by side, at different prices), the roots listed per
 * expiration, and the standard (not adjusted) contracts of each expiration, right and strike for a root the snapshot
 * does not list there (a broker that writes SPX for an SPXW weekly).
 */
class ContractIndex {
  /** By root, then expiration. */
  private readonly byRoot = new Map<string, Map<string, ByStrike<OptionContract>>>();
  private readonly rootsAt = new Map<string, Set<string>>();
  /** By expiration. */
  private readonly standard = new Map<string, ByStrike<OptionContract[]>>();

  constructor(contracts: readonly OptionContract[], symbol: string) {
    for (const contract of contracts) {
      const root = contract.root.toUpperCase();
      let expirations = this.byRoot.get(root);
      if (expirations === undefined) this.byRoot.set(root, (expirations = new Map()));
      const rooted = strikesOf(expirations, contract.expiration)[contract.right];
      if (!rooted.has(contract.strike)) rooted.set(contract.strike, contract);
      let roots = this.rootsAt.get(contract.expiration);
      if (roots === undefined) this.rootsAt.set(contract.expiration, (roots = new Set()));
      roots.add(root);
      // An adjusted root (AMD1) shares the strikes but delivers something else: never the mark of a standard position.
      if (isAdjustedRoot(contract.root, symbol)) continue;
      const standard = strikesOf(this.standard, contract.expiration)[contract.right];
      const list = standard.get(contract.strike);
      if (list === undefined) standard.set(contract.strike, [contract]);
      else if (!list.some((c) => c.root === contract.root)) list.push(contract);
    }
  }

  find(expiration: string, strike: number, right: OptionRight, root: string | null): OptionContract | null {
    const wanted = root?.toUpperCase() ?? null;
    if (wanted !== null) {
      const exact = this.byRoot.get(wanted)?.get(expiration)?.[right].get(strike);
      if (exact !== undefined) return exact;
      // A root the snapshot lists at that expiration has no such strike; an adjusted one is marked from its own rows alone.
      if (this.rootsAt.get(expiration)?.has(wanted) === true || isAdjustedOptionRoot(wanted)) return null;
    }
    const candidates = this.standard.get(expiration)?.[right].get(strike) ?? [];
    if (candidates.length <= 1 || wanted === null) return candidates[0] ?? null;
    const settlement = settlementOf(wanted);
    return candidates.find((c) => settlementOf(c.root) === settlement) ?? candidates[0] ?? null;
  }
}

/** A snapshot as the roll assistant reads it: its marks (quotes, levels), the prepared chain and the raw contracts. */
export interface SnapshotChain {
  marks: UnderlyingMarks;
  symbol: string;
  chain: PreparedChain;
  contracts: readonly OptionContract[];
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
  /** The prepared chain and contracts behind each cached marks object (the roll assistant reads whole series). */
  private readonly chains = new WeakMap<UnderlyingMarks, SnapshotChain>();

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

  /**
   * The symbol's snapshots, oldest first. Snapshots are stored under the chain's symbol: a root (SPXW, AMD1) finds its
   * chain's (docs/journal.md §Underlying roots), should a row still name one.
   */
  stampsOf(symbol: string): Stamp[] {
    const chainSymbol = underlyingOfRoot(symbol);
    let list = this.stamps.get(chainSymbol);
    if (list === undefined) {
      list = this.snapshots
        .stamps(chainSymbol)
        .map((row) => ({ id: row.id, ms: parseInstantMs(row.quote_time) }))
        .filter((stamp) => Number.isFinite(stamp.ms))
        .sort((a, b) => a.ms - b.ms || a.id - b.id);
      this.stamps.set(chainSymbol, list);
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

  /**
   * The snapshot of the symbol quoted in [fromMs, toMs] nearest to `targetMs` (an expiry instant: its evidence), the
   * later one of two as near; with its instant.
   */
  nearestBetween(symbol: string, fromMs: number, toMs: number, targetMs: number): { marks: UnderlyingMarks; ms: number } | null {
    let best: Stamp | undefined;
    for (const stamp of this.stampsOf(symbol)) {
      if (stamp.ms < fromMs) continue;
      if (stamp.ms > toMs) break;
      if (best === undefined || Math.abs(stamp.ms - targetMs) <= Math.abs(best.ms - targetMs)) best = stamp;
    }
    const marks = best === undefined ? null : this.marksOf(best.id);
    return best === undefined || marks === null ? null : { marks, ms: best.ms };
  }

  /** The newest snapshot of the symbol (its chain's) at or before the instant: its id and instant. */
  stampAt(symbol: string, atMs: number): Stamp | null {
    let found: Stamp | null = null;
    for (const stamp of this.stampsOf(symbol)) {
      if (stamp.ms > atMs) break;
      found = stamp;
    }
    return found;
  }

  /** A stored snapshot by id with its prepared chain and contracts (the roll assistant); null when there is none. */
  snapshotChain(id: number): SnapshotChain | null {
    const marks = this.marksOf(id);
    return marks === null ? null : (this.chains.get(marks) ?? null);
  }

  private marksOf(id: number): UnderlyingMarks | null {
    const cached = this.marks.get(id);
    if (cached !== undefined) return cached;
    const row = this.snapshots.byId(id);
    if (row === null) return null;
    const rate = this.rate();
    const contracts = storedContracts(row);
    const chain = prepareChain({ symbol: row.symbol, spot: row.spot, quoteTime: row.quoteTime, source: row.source, contracts }, { rate });
    const index = new ContractIndex(contracts, row.symbol);
    // Levels per scope and expiration, computed when first asked (a book holds a few expirations of an underlying).
    const levels = new Map<string, ScopedLevels | null>();
    // Each contract's quote, made when first asked for: the positions of one read share them.
    const quotes = new Map<OptionContract, SnapshotQuote>();
    const marks: UnderlyingMarks = {
      snapshotId: row.id,
      quoteTime: row.quoteTime,
      spot: row.spot,
      rate,
      contracts: contracts.length,
      levelsIn(scope: LevelsScope, expiration: string | null): ScopedLevels | null {
        const key = scope === 'own' ? `own|${expiration ?? ''}` : scope;
        const known = levels.get(key);
        if (known !== undefined) return known;
        const computed = scopedLevels(chain, scope, expiration);
        levels.set(key, computed);
        return computed;
      },
      contract(expiration, strike, right, root): SnapshotQuote | null {
        const contract = index.find(expiration, strike, right, root ?? null);
        if (contract === null) return null;
        let quote = quotes.get(contract);
        if (quote === undefined) {
          const groups = chain.byExpiration.get(expiration)?.groups ?? [];
          const group = groups.find((g) => g.settlement === settlementOf(contract.root)) ?? groups[0];
          quote = { bid: contract.bid, ask: contract.ask, iv: contract.iv, tYears: group?.tYears ?? null, forward: group?.forward ?? null };
          quotes.set(contract, quote);
        }
        return quote;
      },
    };
    this.marks.set(id, marks);
    this.chains.set(marks, { marks, symbol: row.symbol, chain, contracts });
    return marks;
  }
}
