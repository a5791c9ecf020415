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
import { firstWhere, rowsEndBy, type BookLedger } from '../../../src-shared/journal/checkpoints';
import { buildLedger, resumeLedger, type Ledger, type OpenPosition } from '../../../src-shared/journal/index';
import { LiveLedger } from '../../../src-shared/journal/ledger';
import { drive, type Steps } from '../../../src-shared/journal/pieces';
import type { LedgerCheckpoints } from '../../../src-shared/journal/checkpoints';
import type { Transaction } from '../../../src-shared/journal/model';
import { instantMs } from '../../../src-shared/journal/order';
import type { Generations } from '../../db/generations';
import { openedBeforeHistory, settleExpiries, type InferredExpiration, type NeedsAttention } from './expiry-settlement';
import type { JournalIndex } from './ledger-index';
import type { JournalMarks } from './marks';

/** The book of all accounts at an instant: positions, campaigns, and what needs attention. */
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

export class JournalBook {
  private snapshotsGeneration = Number.NaN;
  private rate = Number.NaN;
  private timeZone = '';
  private base: Ledger | null = null;
  private complete: Complete | null = null;
  /** The last complete ledger: kept across a snapshot change when the inferred expirations stay the same. */
  private previous: Complete | null = null;
  /**
   * The open build of the complete ledger when it is not the base (inferred expirations, naked calls' spots), with the
   * base, inferred expirations and snapshots it was made with: a write the index resumes at a checkpoint resumes it too.
   */
  private completeLive: { live: LiveLedger; ledger: Ledger; checkpoints: LedgerCheckpoints | undefined; base: Ledger; signature: string; generation: number } | null = null;
  /** Books of past instants (all accounts): positions and campaigns of one instant come in pairs. */
  private books = new LRUCache<number, BookAt>({ max: 8 });
  /** Whole ledgers of an account or a past instant (or with timelines): each is as big as the journal's, so two at most. */
  private ledgers = new LRUCache<string, LedgerAt>({ max: 2 });

  constructor(
    private index: JournalIndex,
    readonly marks: JournalMarks,
    private readonly generations: Generations,
    private readonly settings: () => BookSettings,
  ) {}

  /** This version's book over a published index (JournalIndex.published): its own caches of past instants, no open build. */
  published(index: JournalIndex): JournalBook {
    const copy = Object.assign(Object.create(JournalBook.prototype) as JournalBook, this);
    copy.index = index;
    copy.books = new LRUCache<number, BookAt>({ max: 8 });
    copy.ledgers = new LRUCache<string, LedgerAt>({ max: 2 });
    copy.completeLive = null;
    return copy;
  }

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
      this.completeLive = null;
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
    return drive(this.completeSteps());
  }

  /** The complete ledger as completeBook builds it, a piece at a time (pieces.ts). */
  *completeSteps(): Steps<Complete> {
    const base = yield* this.index.ledgerSteps();
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
      ledger = (yield* this.resumedComplete(base, inferred, signature)) ?? (yield* this.builtComplete(base, inferred, signature));
      // The base's own checkpoints are of rows without the inferred ones: of no use now.
      delete base.checkpoints;
    }
    this.complete = { base, ledger, inferred, byId: new Map(inferred.map((i) => [i.transaction.id, i])), signature };
    return this.complete;
  }

  /** The complete ledger from the first row, its build kept open. */
  private *builtComplete(base: Ledger, inferred: readonly InferredExpiration[], signature: string): Steps<Ledger> {
    const rowids: number[] = [];
    const rows = this.index.readTransactions(() => true, rowids);
    for (const item of inferred) {
      rows.push(item.transaction);
      rowids.push(-1);
    }
    const options = { reportingCurrency: base.reportingCurrency, checkpointEvery: this.index.checkpointEvery, spotAt: this.spotAt };
    yield;
    const { live, ledger } = yield* LiveLedger.buildSteps(rows, options, rowids);
    this.completeLive = { live, ledger, checkpoints: ledger.checkpoints, base, signature, generation: this.snapshotsGeneration };
    return ledger;
  }

  /**
   * The complete ledger walked on with the rows added after it, or resumed at its checkpoint before the first day the
   * journal changed since the last one (the index says: rowsSince, changeSince), when its inferred expirations and
   * snapshots are the same (docs/journal.md §Staying current); null otherwise.
   */
  private *resumedComplete(base: Ledger, inferred: readonly InferredExpiration[], signature: string): Steps<Ledger | null> {
    const open = this.completeLive;
    this.completeLive = null;
    if (open === null || open.signature !== signature || open.generation !== this.snapshotsGeneration || open.checkpoints === undefined) return null;
    // Rows added after every row it walked: walked on (the index's extensions), as the base was.
    const added = this.index.rowsSince(open.base, base);
    const extended = added === null ? null : open.live.extend(added);
    if (extended !== null) {
      this.completeLive = { ...open, ledger: extended, checkpoints: extended.checkpoints, base };
      return extended;
    }
    const change = this.index.changeSince(open.base, base);
    if (change === null) return null;
    const previous: Ledger = { ...open.ledger, checkpoints: open.checkpoints };
    const at = LiveLedger.resumePoint(previous, change.fromDay);
    const checkpoint = open.checkpoints.checkpoints[at];
    if (checkpoint === undefined) return null;
    const rowids: number[] = [];
    const rows = this.index.transactionsFromDay(checkpoint.day, rowids);
    for (const item of inferred) {
      if (item.transaction.tradeDay < checkpoint.day) continue;
      rows.push(item.transaction);
      rowids.push(-1);
    }
    const resumed = yield* open.live.resumeSteps(previous, at, rows, rowids);
    if (resumed === null || resumed.ledger.transactionCount !== base.transactionCount + inferred.length) return null;
    this.completeLive = { live: resumed.live, ledger: resumed.ledger, checkpoints: resumed.ledger.checkpoints, base, signature, generation: this.snapshotsGeneration };
    return resumed.ledger;
  }

  /** Inferred expirations and the expiries that need attention at `asOfMs` (expiry-settlement.ts). */
  private settle(positions: readonly OpenPosition[], asOfMs: number): { inferred: InferredExpiration[]; attention: NeedsAttention[] } {
    return settleExpiries(positions, asOfMs, this.marks, this.settings().timeZone);
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
      // A corporate action entered by hand is no stored row (corporate-actions.ts).
      const action = this.index.actionRow(id);
      if (action !== undefined) {
        rows.push(action);
        continue;
      }
      stored.push(id);
      storedRowids.push(rowids?.[k] ?? -1);
    }
    // By rowid (ranges of a file's rows), checked against the ids; by id when the rows moved under the index.
    const read = rowids !== undefined && !storedRowids.includes(-1) ? this.index.ledgerTransactionsAt(storedRowids, stored) : null;
    for (const tx of read ?? this.index.ledgerTransactions(stored)) rows.push(tx);
    // The snapshots' spots when the complete ledger read them (naked calls' Reg T: every page's figure).
    return resumeLedger(complete.ledger, checkpoint, rows, asOfMs, complete.ledger.regTCloses > 0 ? this.spotAt : undefined);
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
