/**
 * The book at an instant, in the journal worker (docs/journal.md §Positions, §Campaigns, §Checkpoints).
 *
 * The complete ledger is the journal's rows plus the inferred expirations: options left open past their expiry that a
 * snapshot of the underlying, quoted within one New York trading day after the expiry, shows out of the money. Its
 * build keeps checkpoints; the book at a past instant is the nearest checkpoint before it plus the rows after it,
 * read again from SQLite by id and replayed (a few thousand rows, not the journal). An inferred expiration counts
 * from the instant its evidence was quoted: before that, the option waits under needsAttention.
 */
import { LRUCache } from 'lru-cache';
import { isoInstant, parseInstantMs } from '../../../src-shared/calendar';
import { expiryInstantMs, settlementOf } from '../../../src-shared/exposure/index';
import { firstWhere, rowsEndBy, type BookLedger } from '../../../src-shared/journal/checkpoints';
import { buildLedger, resumeLedger, type Ledger, type OpenPosition, type UnmatchedOpening } from '../../../src-shared/journal/index';
import { parseOccSymbol, type Transaction } from '../../../src-shared/journal/model';
import { instantMs } from '../../../src-shared/journal/order';
import { nextTradingDay } from '../../../src-shared/trading-days';
import { NEW_YORK, dateInZone, dayOfInstant, zonedTimeToMs } from '../../../src-shared/zone';
import type { Generations } from '../../db/generations';
import { CHECKPOINT_EVERY, withRowids, type JournalIndex } from './ledger-index';
import type { JournalMarks } from './marks';

/** The instrument of a position or an unmatched close. */
type Instrument = Pick<OpenPosition, 'accountId' | 'currency' | 'symbol' | 'underlying' | 'isOption' | 'expiration' | 'strike' | 'right' | 'multiplier'>;

/** What the book cannot decide alone (docs/journal.md §Positions, "Needs attention"). */
export interface NeedsAttention extends Instrument {
  kind: 'opened_before_history' | 'expiry_unknown' | 'in_the_money';
  /** The kind as before (older clients read it). */
  reason: 'opened-before-history' | 'no-snapshot-after-expiry' | 'in-the-money';
  /** Signed: the missing opening position (opened_before_history), else the open position. */
  quantity: number;
  sideKnown: boolean;
  /** opened_before_history: New York date and instant of the first unmatched close, and the rows. */
  firstDate: string | null;
  firstTradeDate: string | null;
  closes: number;
  /** in_the_money: the snapshot that shows it. */
  spot: number | null;
  quoteTime: string | null;
}

/** An option closed as an EXPIRATION that no row records: a snapshot shortly after its expiry shows it out of the money. */
export interface InferredExpiration {
  transaction: Transaction;
  spot: number;
  quoteTime: string;
  /** When the evidence was quoted: the expiration counts at instants from then on. */
  evidenceMs: number;
}

/** The book of all accounts at an instant: positions, chains, and what needs attention. */
export interface BookAt {
  ledger: BookLedger;
  needsAttention: NeedsAttention[];
  inferred: InferredExpiration[];
}

/** A whole ledger (day figures, timelines) at an instant, of one account or all. */
export interface LedgerAt {
  ledger: Ledger;
  inferred: InferredExpiration[];
}

export interface BookSettings {
  timeZone: string;
  rate: number;
}

/** The journal's ledger with the inferred expirations, and its checkpoints. */
interface Complete {
  base: Ledger;
  ledger: Ledger;
  inferred: InferredExpiration[];
  byId: Map<string, InferredExpiration>;
  signature: string;
}

function instantOf(tx: Transaction): number {
  return instantMs(tx.tradeDate, tx.tradeDay);
}

/** The last instant a snapshot is evidence of an expiry: the end of the next New York trading day after it. */
function evidenceEndMs(expiration: string): number {
  return zonedTimeToMs(nextTradingDay(expiration), { hour: 23, minute: 59, second: 59 }, NEW_YORK) + 999;
}

function instrumentOf(p: Instrument): Instrument {
  const { accountId, currency, symbol, underlying, isOption, expiration, strike, right, multiplier } = p;
  return { accountId, currency, symbol, underlying, isOption, expiration, strike, right, multiplier };
}

/** An unmatched close as the positions list it: the opening position the history lacks. */
export function openedBeforeHistory(u: UnmatchedOpening): NeedsAttention {
  const ms = parseInstantMs(u.firstTradeDate);
  return {
    kind: 'opened_before_history',
    reason: 'opened-before-history',
    ...instrumentOf(u),
    quantity: u.quantity,
    sideKnown: u.sideKnown,
    firstDate: Number.isFinite(ms) ? dateInZone(ms, NEW_YORK) : u.firstDay,
    firstTradeDate: u.firstTradeDate,
    closes: u.closes,
    spot: null,
    quoteTime: null,
  };
}

export class JournalBook {
  private snapshotsGeneration = Number.NaN;
  private rate = Number.NaN;
  private timeZone = '';
  private base: Ledger | null = null;
  private complete: Complete | null = null;
  /** The last complete ledger: kept across a snapshot change when the inferred expirations stay the same. */
  private previous: Complete | null = null;
  /** Books of past instants (all accounts): positions and campaigns of one instant come in pairs. */
  private readonly books = new LRUCache<number, BookAt>({ max: 8 });
  /** Whole ledgers of an account or a past instant (or with timelines): each is as big as the journal's, so two at most. */
  private readonly ledgers = new LRUCache<string, LedgerAt>({ max: 2 });

  constructor(
    private readonly index: JournalIndex,
    readonly marks: JournalMarks,
    private readonly generations: Generations,
    private readonly settings: () => BookSettings,
  ) {}

  /** The snapshots' spot at an instant (a naked call's collateral at entry: collateral.ts). */
  private readonly spotAt = (underlying: string, atMs: number) => this.marks.spotAt(underlying, atMs);

  /** Drops what depends on the snapshots, the rate, the zone or the journal when one of them changed. */
  private refresh(base: Ledger): void {
    const generation = this.generations.snapshots();
    const { rate, timeZone } = this.settings();
    if (generation !== this.snapshotsGeneration || rate !== this.rate || timeZone !== this.timeZone) {
      this.snapshotsGeneration = generation;
      this.rate = rate;
      this.timeZone = timeZone;
      this.marks.clear();
      this.books.clear();
      this.ledgers.clear();
      this.previous = this.complete ?? this.previous;
      this.complete = null;
    }
    if (base !== this.base) {
      this.base = base;
      this.books.clear();
      this.ledgers.clear();
      this.complete = null;
      this.previous = null;
    }
  }

  /** The complete ledger: every row plus every inferred expiration, with checkpoints (built once per change). */
  private completeBook(): Complete {
    const base = this.index.ledger();
    this.refresh(base);
    if (this.complete !== null) return this.complete;
    const inferred = this.settle(base.positions, Infinity).inferred;
    const signature = inferred.map((i) => `${i.transaction.id}@${i.evidenceMs}@${i.transaction.tradeDay}`).join(',');
    const previous = this.previous;
    // Naked calls' Reg T collateral reads the snapshots' spot at entry: a ledger with them is built again with the lookup.
    const spots = base.regTCloses > 0;
    if (previous !== null && previous.base === base && previous.signature === signature && !spots) {
      this.complete = { ...previous, inferred, byId: new Map(inferred.map((i) => [i.transaction.id, i])) };
      return this.complete;
    }
    let ledger = base;
    if (inferred.length > 0 || base.checkpoints === undefined || spots) {
      const rowids: number[] = [];
      const rows = this.index.readTransactions(() => true, rowids);
      for (const item of inferred) {
        rows.push(item.transaction);
        rowids.push(-1);
      }
      ledger = withRowids(buildLedger(rows, { reportingCurrency: base.reportingCurrency, checkpointEvery: CHECKPOINT_EVERY, spotAt: this.spotAt }), rowids);
      // The base's own checkpoints are of rows without the inferred ones: of no use now.
      delete base.checkpoints;
    }
    this.complete = { base, ledger, inferred, byId: new Map(inferred.map((i) => [i.transaction.id, i])), signature };
    return this.complete;
  }

  /**
   * Options of `positions` past their expiry at `asOfMs` (Infinity: whenever): inferred expirations where a snapshot
   * quoted within one trading day after the expiry (and by asOf) shows them out of the money; the others need attention.
   */
  private settle(positions: readonly OpenPosition[], asOfMs: number): { inferred: InferredExpiration[]; attention: NeedsAttention[] } {
    const inferred: InferredExpiration[] = [];
    const attention: NeedsAttention[] = [];
    for (const position of positions) {
      if (!position.isOption || position.expiration === null || position.strike === null || position.right === null) continue;
      const root = parseOccSymbol(position.symbol)?.root ?? position.underlying;
      const expiryMs = expiryInstantMs(position.expiration, settlementOf(root));
      if (!(expiryMs <= asOfMs)) continue;
      const open = { ...instrumentOf(position), quantity: position.quantity, sideKnown: true, firstDate: null, firstTradeDate: null, closes: 0 };
      const evidence = this.marks.firstBetween(position.underlying, expiryMs, Math.min(asOfMs, evidenceEndMs(position.expiration)));
      if (evidence === null) {
        attention.push({ ...open, kind: 'expiry_unknown', reason: 'no-snapshot-after-expiry', spot: null, quoteTime: null });
        continue;
      }
      const { spot, quoteTime } = evidence.marks;
      const outOfTheMoney = position.right === 'C' ? spot < position.strike : spot > position.strike;
      if (!outOfTheMoney) {
        attention.push({ ...open, kind: 'in_the_money', reason: 'in-the-money', spot, quoteTime });
        continue;
      }
      const tradeDate = isoInstant(expiryMs);
      inferred.push({
        spot,
        quoteTime,
        evidenceMs: evidence.ms,
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
          tradeDay: dayOfInstant(tradeDate, this.settings().timeZone),
          orderId: null,
          description: `Inferred expiration: out of the money (spot ${spot} at ${quoteTime})`,
          source: 'inferred',
          inferred: true,
        },
      });
    }
    return { inferred, attention };
  }

  /**
   * The book at `asOfMs` from the nearest checkpoint: the rows after it up to the instant, without the inferred
   * expirations whose evidence comes later (`pending`), with `extra` ones (options a later row closes). The checkpoint
   * is taken before every such row, so that leaving one out or adding one is a matter of the replayed rows.
   */
  private replay(complete: Complete, asOfMs: number, pending: readonly InferredExpiration[], extra: readonly InferredExpiration[]): BookLedger {
    const checkpoints = complete.ledger.checkpoints;
    if (checkpoints === undefined) throw new Error('journal book: the complete ledger has no checkpoints');
    const { ids, rowids, checkpoints: list } = checkpoints;
    // The latest checkpoint whose rows all count by asOf and come before every row to leave out or add (a checkpoint
    // sits between two days: the rows after it count after its last instant).
    let startBefore = asOfMs;
    for (const item of [...pending, ...extra]) {
      const ms = instantOf(item.transaction);
      if (ms <= asOfMs) startBefore = Math.min(startBefore, ms - 1);
    }
    const first = firstWhere(list.length, (i) => (list[i]?.lastInstantMs ?? 0) > startBefore) - 1;
    const checkpoint = list[first] ?? null;
    // The rows up to asOf (and up to a sample's worth past it: the walk stops at asOf, resumeLedger).
    const end = rowsEndBy(checkpoints, asOfMs);
    const skip = new Set(pending.map((item) => item.transaction.id));
    const stored: string[] = [];
    const storedRowids: number[] = [];
    const rows: Transaction[] = extra.map((item) => item.transaction);
    for (let k = checkpoint?.position ?? 0; k < end; k += 1) {
      const id = ids[k] ?? '';
      if (skip.has(id)) continue;
      const inferred = complete.byId.get(id);
      if (inferred !== undefined) {
        rows.push(inferred.transaction);
        continue;
      }
      stored.push(id);
      storedRowids.push(rowids?.[k] ?? -1);
    }
    // By rowid (ranges of a file's rows), checked against the ids; by id when the rows moved under the index.
    const read = rowids !== undefined && !storedRowids.includes(-1) ? this.index.ledgerTransactionsAt(storedRowids, stored) : null;
    for (const tx of read ?? this.index.ledgerTransactions(stored)) rows.push(tx);
    return resumeLedger(complete.ledger, checkpoint, rows, asOfMs);
  }

  /** The book of all accounts at `asOfMs`: positions, campaigns, unmatched closes and expiries that need attention. */
  bookAt(asOfMs: number): BookAt {
    const complete = this.completeBook();
    const cached = this.books.get(asOfMs);
    if (cached !== undefined) return cached;
    const pending = complete.inferred.filter((i) => i.evidenceMs > asOfMs);
    const applied = complete.inferred.filter((i) => i.evidenceMs <= asOfMs && instantOf(i.transaction) <= asOfMs);
    let ledger: BookLedger = asOfMs >= complete.ledger.lastInstantMs && pending.length === 0 ? complete.ledger : this.replay(complete, asOfMs, pending, []);
    let settled = this.settle(ledger.positions, asOfMs);
    if (settled.inferred.length > 0) {
      // Options that a later row closes, past their expiry now, with the evidence in: expired here too.
      const extra = settled.inferred;
      ledger = this.replay(complete, asOfMs, pending, extra);
      settled = this.settle(ledger.positions, asOfMs);
      applied.push(...extra);
    }
    const book: BookAt = { ledger, needsAttention: [...ledger.unmatched.map(openedBeforeHistory), ...settled.attention], inferred: applied };
    this.books.set(asOfMs, book);
    return book;
  }

  /**
   * The whole ledger at `asOfMs` of one account or all (performance, summary, a campaign's timeline): the complete one
   * when it is the same, else built from the rows up to the instant and the inferred expirations known by then.
   */
  ledgerAt(asOfMs: number, accountId?: string, timeline = false): LedgerAt {
    const complete = this.completeBook();
    const pendingAny = complete.inferred.some((i) => i.evidenceMs > asOfMs);
    const everything = asOfMs >= complete.ledger.lastInstantMs && !pendingAny;
    if (everything && accountId === undefined && !timeline) return { ledger: complete.ledger, inferred: complete.inferred };
    const key = `${timeline ? 'timeline' : 'figures'}|${accountId ?? '*'}|${everything ? 'all' : asOfMs}`;
    const cached = this.ledgers.get(key);
    if (cached !== undefined) return cached;
    const ours = (tx: Transaction) => accountId === undefined || tx.accountId === accountId;
    const rows = this.index.readTransactions((tx) => ours(tx) && (everything || instantOf(tx) <= asOfMs));
    const inferred = complete.inferred.filter((i) => ours(i.transaction) && i.evidenceMs <= asOfMs && instantOf(i.transaction) <= asOfMs);
    for (const item of inferred) rows.push(item.transaction);
    const options = { reportingCurrency: complete.base.reportingCurrency, timeline, spotAt: this.spotAt };
    let ledger = buildLedger(rows, options);
    const extra = this.settle(ledger.positions, asOfMs).inferred;
    if (extra.length > 0) {
      for (const item of extra) rows.push(item.transaction);
      inferred.push(...extra);
      ledger = buildLedger(rows, options);
    }
    const result = { ledger, inferred };
    this.ledgers.set(key, result);
    return result;
  }
}
