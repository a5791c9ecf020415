/**
 * The book at an instant, in the journal worker (docs/journal.md §Positions, §Campaigns): the ledger of the
 * transactions up to `asOf` (of one account, or all), options past their expiry closed as inferred expirations when
 * a snapshot at or after the expiry shows them out of the money, and the marks of the newest snapshot of each
 * underlying at or before `asOf`. The snapshots are read on the worker's own connection, never on the event loop.
 */
import type { Database } from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { dateToUtcMs, isoInstant, parseInstantMs } from '../../src-shared/calendar';
import { computeGex, prepareChain, settlementOf, expiryInstantMs, type PreparedChain } from '../../src-shared/exposure/index';
import type { OptionContract } from '../../src-shared/exposure/model';
import { isAdjustedRoot } from '../../src-shared/exposure/prepare';
import type { DealerLevels, SnapshotQuote, UnderlyingMarks } from '../../src-shared/journal/book';
import { buildLedger, type Ledger, type OpenPosition } from '../../src-shared/journal/index';
import { parseOccSymbol, type OptionRight, type Transaction } from '../../src-shared/journal/model';
import { dayOfInstant } from '../../src-shared/zone';
import { Generations } from '../db/generations';
import { SnapshotRepository, unpackContracts } from '../db/snapshots';
import type { JournalIndex } from './journal-index';

/** An option past its expiry with no closing row, not shown out of the money by any snapshot: import the broker's row. */
export interface NeedsAttention {
  position: OpenPosition;
  reason: 'no-snapshot-after-expiry' | 'in-the-money';
  /** The snapshot that shows it in the money (reason in-the-money). */
  spot: number | null;
  quoteTime: string | null;
}

/** An option closed as an EXPIRATION that no row records: a snapshot at or after its expiry shows it out of the money. */
export interface InferredExpiration {
  transaction: Transaction;
  spot: number;
  quoteTime: string;
}

export interface BookLedger {
  ledger: Ledger;
  needsAttention: NeedsAttention[];
  inferred: InferredExpiration[];
}

export interface BookSettings {
  timeZone: string;
  rate: number;
}

interface Stamp {
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

export class JournalBook {
  private readonly snapshots: SnapshotRepository;
  private readonly generations: Generations;
  private snapshotsGeneration = Number.NaN;
  private rate = Number.NaN;
  private baseLedger: Ledger | null = null;
  private readonly stamps = new Map<string, Stamp[]>();
  /**
   * Marks per snapshot id, bounded by contracts: a book of forty underlyings keeps all of them, a prepared SPX chain
   * (21k contracts, a few MB) counts for what it weighs.
   */
  private readonly marks = new LRUCache<number, UnderlyingMarks>({ maxSize: MARKS_MAX_CONTRACTS, sizeCalculation: (marks) => Math.max(1, marks.contracts) });
  /** Ledgers of an account or a past instant: each is as big as the journal's, so only two are kept. */
  private readonly ledgers = new LRUCache<string, BookLedger>({ max: 2 });

  constructor(
    db: Database,
    private readonly index: JournalIndex,
    private readonly settings: () => BookSettings,
  ) {
    this.snapshots = new SnapshotRepository(db);
    this.generations = new Generations(db);
  }

  /** Drops what depends on the snapshots, the rate or the journal when one of them changed. */
  private refresh(full: Ledger): void {
    const generation = this.generations.snapshots();
    const rate = this.settings().rate;
    if (generation !== this.snapshotsGeneration || rate !== this.rate) {
      this.snapshotsGeneration = generation;
      this.rate = rate;
      this.stamps.clear();
      this.marks.clear();
      this.ledgers.clear();
    }
    if (full !== this.baseLedger) {
      this.baseLedger = full;
      this.ledgers.clear();
    }
  }

  /** The symbol's snapshots, oldest first. */
  private stampsOf(symbol: string): Stamp[] {
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
    const list = this.stampsOf(symbol);
    let found: Stamp | undefined;
    for (const stamp of list) {
      if (stamp.ms > asOfMs) break;
      found = stamp;
    }
    return found === undefined ? null : this.marksOf(found.id);
  }

  /** The first snapshot of the symbol in [fromMs, toMs]: the one closest after an expiry. */
  private firstBetween(symbol: string, fromMs: number, toMs: number): UnderlyingMarks | null {
    const stamp = this.stampsOf(symbol).find((s) => s.ms >= fromMs && s.ms <= toMs);
    return stamp === undefined ? null : this.marksOf(stamp.id);
  }

  private marksOf(id: number): UnderlyingMarks | null {
    const cached = this.marks.get(id);
    if (cached !== undefined) return cached;
    const row = this.snapshots.byId(id);
    if (row === null) return null;
    const rate = this.settings().rate;
    const contracts = unpackContracts(row.payload);
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

  /**
   * The ledger at `asOfMs` of one account or all: the transactions up to that instant, plus the inferred
   * expirations of options past their expiry that a snapshot shows out of the money.
   */
  ledgerAt(asOfMs: number, accountId?: string, timeline = false): BookLedger {
    const full = this.index.ledger();
    this.refresh(full);
    const everything = asOfMs >= full.lastInstantMs;
    const key = `${timeline ? 'timeline' : 'figures'}|${accountId ?? '*'}|${everything ? 'all' : asOfMs}`;
    const keep = (tx: Transaction) => (accountId === undefined || tx.accountId === accountId) && (everything || instantOf(tx) <= asOfMs);
    const options = { reportingCurrency: full.reportingCurrency, timeline };
    let base = accountId === undefined && everything && !timeline ? { ledger: full, needsAttention: [], inferred: [] } : this.ledgers.get(key);
    if (base === undefined) {
      base = { ledger: buildLedger(this.index.readTransactions(keep), options), needsAttention: [], inferred: [] };
      this.ledgers.set(key, base);
    }
    const { inferred, needsAttention } = this.settleExpired(base.ledger, asOfMs);
    if (inferred.length === 0) return { ledger: base.ledger, needsAttention, inferred };
    const inferredKey = `${key}|${inferred.map((i) => i.transaction.id).join(',')}`;
    const cached = this.ledgers.get(inferredKey);
    if (cached !== undefined) return cached;
    const transactions = this.index.readTransactions(keep);
    for (const item of inferred) transactions.push(item.transaction);
    const result = { ledger: buildLedger(transactions, options), needsAttention, inferred };
    this.ledgers.set(inferredKey, result);
    return result;
  }

  /** Options of the ledger past their expiry at `asOfMs`: inferred expirations (out of the money) or needing attention. */
  private settleExpired(ledger: Ledger, asOfMs: number): { inferred: InferredExpiration[]; needsAttention: NeedsAttention[] } {
    const inferred: InferredExpiration[] = [];
    const needsAttention: NeedsAttention[] = [];
    const zone = this.settings().timeZone;
    for (const position of ledger.positions) {
      if (!position.isOption || position.expiration === null || position.strike === null || position.right === null) continue;
      const root = parseOccSymbol(position.symbol)?.root ?? position.underlying;
      const expiryMs = expiryInstantMs(position.expiration, settlementOf(root));
      if (!(expiryMs <= asOfMs)) continue;
      const after = this.firstBetween(position.underlying, expiryMs, asOfMs);
      if (after === null) {
        needsAttention.push({ position, reason: 'no-snapshot-after-expiry', spot: null, quoteTime: null });
        continue;
      }
      const outOfTheMoney = position.right === 'C' ? after.spot < position.strike : after.spot > position.strike;
      if (!outOfTheMoney) {
        needsAttention.push({ position, reason: 'in-the-money', spot: after.spot, quoteTime: after.quoteTime });
        continue;
      }
      const tradeDate = isoInstant(expiryMs);
      inferred.push({
        spot: after.spot,
        quoteTime: after.quoteTime,
        transaction: {
          id: `inferred:${position.accountId}:${position.currency}:${position.symbol}`,
          accountId: position.accountId,
          accountName: '',
          brokerRowId: '',
          importId: 0,
          type: 'EXPIRATION',
          symbol: position.symbol,
          underlying: position.underlying,
          isOption: true,
          expiration: position.expiration,
          strike: position.strike,
          right: position.right,
          quantity: Math.abs(position.quantity),
          priceMinor: 0,
          multiplier: position.multiplier,
          amountMinor: 0,
          commissionMinor: 0,
          feesMinor: 0,
          currency: position.currency,
          tradeDate,
          tradeDay: dayOfInstant(tradeDate, zone),
          orderId: null,
          description: `Inferred expiration: out of the money (spot ${after.spot} at ${after.quoteTime})`,
          source: 'inferred',
          inferred: true,
        },
      });
    }
    return { inferred, needsAttention };
  }
}

function instantOf(tx: Transaction): number {
  const ms = parseInstantMs(tx.tradeDate);
  return Number.isNaN(ms) ? dateToUtcMs(tx.tradeDay) : ms;
}
