/**
 * The ledger's walk (ledger.ts): the rows in processing order (order.ts), each handed to what it does to the book
 * (ledger-rows.ts); the checkpoints kept between days (checkpoints.ts), and a build started again from one of them:
 * a book at a past instant (restore) or a live build resumed (resumeAt, docs/journal.md §Staying current).
 */
import type { SpotFact } from './collateral';
import { CheckpointCodec, firstWhere, SAMPLE_EVERY, type LedgerCheckpoint, type LedgerCheckpoints } from './checkpoints';
import { rowOrder } from './order';
import type { Position } from './lots';
import { FILLS, TRANSACTION_TYPES, type Transaction, type TransactionType } from './model';
import { MANUAL_ACTION_SOURCE } from './constants';
import type { RollRecord } from './rolls';
import type { Ledger } from './ledger-types';
import { entryKey, LedgerRows } from './ledger-rows';

const TYPE_INDEX: Record<TransactionType, number> = Object.fromEntries(
  TRANSACTION_TYPES.map((type, index) => [type, index]),
) as Record<TransactionType, number>;

/**
 * A row of `day` walked after checkpoints of later days: they are not apart any more (their rows before are not all of
 * earlier days and after of theirs). Returns the latest day of a checkpoint still apart.
 */
export function markNotApart(checkpoints: Array<{ day: string; apart: boolean }>, day: string): string | null {
  let latest: string | null = null;
  for (const checkpoint of checkpoints) {
    if (checkpoint.day > day) checkpoint.apart = false;
    else if (checkpoint.apart && (latest === null || checkpoint.day > latest)) latest = checkpoint.day;
  }
  return latest;
}

/** Whether every row counts after `ms` (rowOrder's instants: a manual opening at its day's start, an action before it). */
export function followsAll(rows: readonly Transaction[], ms: number): boolean {
  const { effectiveMs } = rowOrder(rows);
  for (const value of effectiveMs) if (value <= ms) return false;
  return true;
}

export class LedgerWalk extends LedgerRows {
  /** The checkpoints being kept, and the walk's place (a live ledger walks on from here: LiveLedger). */
  protected book: LedgerCheckpoints | null = null;
  protected sinceCheckpoint = 0;
  protected walkedInstantMs = -Infinity;
  protected walked = 0;
  /** The rolls of the days walked so far, and how many legs they were matched from (a live ledger: publish). */
  protected readonly rollsSoFar: RollRecord[] = [];
  protected legsMatched = 0;

  /** The positions in the order the build first saw them (a resumed build sees them so again: resumeAt). */
  get positionsSeen(): readonly Position[] {
    return this.positions.created;
  }

  /** The last day walked (null before any row). */
  get lastDay(): string | null {
    return this.currentDay;
  }

  /**
   * Walks the rows in processing order, up to those counting at `untilMs`; with `every`, keeps a checkpoint at the first
   * day boundary after each `every` rows. Called again (a live ledger), it walks on with rows that all come after those
   * walked (LiveLedger.extend checks it); `rowids` (by input index) are kept by position instead of the input order.
   */
  process(transactions: readonly Transaction[], every = 0, untilMs = Infinity, rowids?: readonly number[]): LedgerCheckpoints | null {
    const { order, effectiveMs, lastInstantMs } = rowOrder(transactions);
    const count = order.length;
    const base = this.walked;
    if (every > 0 && this.book === null) {
      this.book = { ids: new Array<string>(count), samplesMs: new Float64Array(Math.ceil(count / SAMPLE_EVERY)), checkpoints: [], codec: new CheckpointCodec() };
      if (rowids === undefined) this.book.order = order;
      else this.book.rowids = new Int32Array(count);
    } else if (this.book !== null && count > 0) {
      // Walking on: the arrays as long as a build of every row would make them.
      const samples = new Float64Array(Math.ceil((base + count) / SAMPLE_EVERY));
      samples.set(this.book.samplesMs.subarray(0, Math.min(this.book.samplesMs.length, samples.length)));
      this.book.samplesMs = samples;
      if (this.book.rowids !== undefined) {
        const grown = new Int32Array(base + count);
        grown.set(this.book.rowids);
        this.book.rowids = grown;
      }
    }
    const book = this.book;
    const checkpointEvery = every > 0 ? every : this.every;
    if (every > 0) this.every = every;
    for (let n = 0; n < count; n += 1) {
      const k = base + n;
      const index = order[n] ?? 0;
      const t = transactions[index];
      if (!t) continue;
      if ((effectiveMs[index] ?? 0) > untilMs) break;
      if (this.currentDay !== null && t.tradeDay !== this.currentDay) {
        this.campaigns.endOfDay(this.currentDay);
        if (book && this.sinceCheckpoint >= checkpointEvery) {
          book.checkpoints.push(this.capture(book.codec, k, t.tradeDay, this.walkedInstantMs));
          if (this.lastCheckpointDay === null || t.tradeDay > this.lastCheckpointDay) this.lastCheckpointDay = t.tradeDay;
          this.sinceCheckpoint = 0;
        }
      }
      if (this.maxDay === null || t.tradeDay > this.maxDay) this.maxDay = t.tradeDay;
      // A row of an earlier day than a checkpoint's, walked after it: the rows from that checkpoint's day on are not the ones after it.
      if (book && this.lastCheckpointDay !== null && t.tradeDay < this.lastCheckpointDay) this.lastCheckpointDay = markNotApart(book.checkpoints, t.tradeDay);
      this.currentDay = t.tradeDay;
      if (k === this.resumedAt) this.resumedDay = t.tradeDay;
      if (book) {
        book.ids[k] = t.id;
        if (k % SAMPLE_EVERY === 0) book.samplesMs[k / SAMPLE_EVERY] = effectiveMs[index] ?? 0;
        if (book.rowids !== undefined && rowids !== undefined) {
          // A rowid past 32 bits (never, for rows SQLite numbered itself) is read by id instead.
          const rowid = rowids[index] ?? -1;
          book.rowids[k] = rowid <= 0x7fffffff ? rowid : -1;
        } else if (book.rowids !== undefined) book.rowids[k] = -1;
        this.sinceCheckpoint += 1;
      }
      this.walkedInstantMs = Math.max(this.walkedInstantMs, effectiveMs[index] ?? 0);
      // An action entered by hand is no transaction of the journal (one row per account it applies to): not counted.
      if (t.source !== MANUAL_ACTION_SOURCE) {
        const counts = this.days.day(t.currency, t.tradeDay).typeCounts;
        const typeIndex = TYPE_INDEX[t.type];
        counts[typeIndex] = (counts[typeIndex] ?? 0) + 1;
      }
      if (FILLS.has(t.type)) this.trade(t);
      else if (t.type === 'EXPIRATION' || t.type === 'ASSIGNMENT' || t.type === 'EXERCISE') this.settle(t);
      else if (t.type === 'DIVIDEND' || t.type === 'INTEREST' || t.type === 'FEE') this.cashRow(t);
      else if (t.type === 'SPLIT' || t.type === 'SYMBOL_CHANGE') this.corporateAction(t);
      this.endRow(t);
    }
    this.walked = base + count;
    // The end of the last day: a walk that goes on starts with a later day, whose change finds no slot touched since.
    if (this.currentDay !== null) this.campaigns.endOfDay(this.currentDay);
    // The rows' own latest instant; of those walked when the walk stopped at an instant.
    this.lastInstantMs = Math.max(this.lastInstantMs, untilMs === Infinity ? lastInstantMs : this.walkedInstantMs);
    return book;
  }

  protected every = 0;
  /** The latest day walked (rows of a date-only export count at the day's UTC start: the order by instant may go back a day). */
  protected maxDay: string | null = null;
  /** The latest day of a checkpoint still apart (markNotApart). */
  protected lastCheckpointDay: string | null = null;
  /** A resumed build (resumeAt): the position of the checkpoint it started from, and the day of the first row walked there. */
  protected resumedAt = -1;
  protected resumedDay: string | null = null;

  /**
   * After the walk of a resumed build: the checkpoint it started from sits before the first row walked there, of that
   * row's day (a build of these rows would have put it there); none when no row came after it (nor would a build).
   */
  settleResumed(): void {
    const book = this.book;
    const at = book === null ? -1 : book.checkpoints.findIndex((c) => c.position === this.resumedAt);
    const checkpoint = book?.checkpoints[at];
    if (book === null || checkpoint === undefined) return;
    // No row after it: no later checkpoint either.
    if (this.resumedDay === null) book.checkpoints.splice(at);
    else checkpoint.day = this.resumedDay;
    this.resumedAt = -1;
  }

  /** The book between two days, before row `position` (docs/journal.md §Checkpoints). */
  protected capture(codec: CheckpointCodec, position: number, day: string, lastInstantMs: number): LedgerCheckpoint {
    const slots = this.campaigns.slotStates();
    const live = new Set<number>();
    for (const slot of slots) {
      if (slot.current >= 0) live.add(slot.current);
      if (slot.last >= 0) live.add(slot.last);
      if (slot.holder >= 0) live.add(slot.holder);
    }
    return {
      position,
      day,
      lastInstantMs,
      campaignCount: this.campaigns.count,
      positions: codec.packPositions(this.positions.all()),
      slots: codec.packSlots(slots),
      live: codec.packLive([...live].flatMap((index) => {
        const campaign = this.campaigns.at(index);
        return campaign ? [{ index, campaign }] : [];
      })),
      liveRolls: new Int32Array(0),
      unmatched: this.unmatched.list().map((u) => ({ ...u })),
      warnings: { ...this.warnings },
      accountDividends: [...this.accountDividends.values()].map((d) => ({ ...d })),
      regTCloses: this.campaigns.regTCloses,
      positionsSeen: this.positions.created.length,
      apart: this.maxDay !== null && this.maxDay < day,
    };
  }

  /** Starts from a checkpoint of the build that made `complete`: its campaigns, slots, open positions and unmatched closes. */
  restore(checkpoint: LedgerCheckpoint, complete: Ledger): void {
    const codec = complete.checkpoints?.codec;
    if (codec === undefined) throw new Error('ledger: a checkpoint of a build without checkpoints');
    const campaigns = codec.liveCampaigns(checkpoint, complete.campaigns);
    campaigns.forEach((campaign, index) => {
      if (campaign !== complete.campaigns[index]) this.restoredUnderlying.set(campaign, campaign.underlying);
    });
    this.campaigns.restore(campaigns, codec.unpackSlots(checkpoint.slots));
    for (const pos of codec.unpackPositions(checkpoint.positions, (accountId, underlying, currency) => this.campaigns.slot(accountId, underlying, currency))) {
      this.positions.adopt(pos);
      // The spot at the entry of a short option open at the checkpoint: the complete build's, of its last opening before it.
      if (pos.isOption && pos.side < 0) {
        const episodes = complete.entrySpots.get(entryKey(pos.accountId, pos.currency, pos.symbol)) ?? [];
        let fact: SpotFact | null = null;
        for (const episode of episodes) if (episode.ms <= checkpoint.lastInstantMs) fact = episode.fact;
        this.entries.set(pos, fact);
      }
    }
    this.unmatched.restore(checkpoint.unmatched);
    Object.assign(this.warnings, checkpoint.warnings);
    this.lastInstantMs = checkpoint.lastInstantMs;
  }

  /**
   * Starts a live build again at checkpoint `at` of `previous` (published by a live build whose rows before it are the
   * journal's still): its book as restore makes it, and what the build had made of the rows before it, taken from
   * `previous` — the day figures of the days before, the rolls of those days, the P&L and unmatched units per row, the
   * corporate actions' outcomes — less what rows at or after the checkpoint had added (docs/journal.md §Staying current).
   */
  resumeAt(previous: Ledger, at: number, every: number, seen: readonly Position[]): void {
    this.every = every;
    const book = previous.checkpoints;
    const checkpoint = book?.checkpoints[at];
    if (book === undefined || checkpoint === undefined) throw new Error('ledger: resumed at a checkpoint it does not have');
    const position = checkpoint.position;
    // Records the build goes on changing: copies with no rolls (publish attributes every roll again).
    const campaigns = book.codec.liveCampaigns(checkpoint, previous.campaigns).map((c) => ({ ...c, rolls: 0 }));
    this.campaigns.restore(campaigns, book.codec.unpackSlots(checkpoint.slots));
    this.positions.seeFirst(seen.slice(0, checkpoint.positionsSeen));
    for (const pos of book.codec.unpackPositions(checkpoint.positions, (accountId, underlying, currency) => this.campaigns.slot(accountId, underlying, currency))) {
      this.positions.adopt(pos);
      if (pos.isOption && pos.side < 0) {
        const episodes = previous.entrySpots.get(entryKey(pos.accountId, pos.currency, pos.symbol)) ?? [];
        let fact: SpotFact | null = null;
        for (const episode of episodes) if (episode.ms <= checkpoint.lastInstantMs) fact = episode.fact;
        this.entries.set(pos, fact);
      }
    }
    this.unmatched.restore(checkpoint.unmatched);
    Object.assign(this.warnings, checkpoint.warnings);
    this.campaigns.regTCloses = checkpoint.regTCloses;
    for (const d of checkpoint.accountDividends) this.accountDividends.set(`${d.accountId}\u0000${d.currency}`, { ...d });
    for (const [key, list] of previous.entrySpots) {
      const kept = list.filter((episode) => episode.ms <= checkpoint.lastInstantMs);
      if (kept.length > 0) this.entrySpots.set(key, kept);
    }
    // The rows from the checkpoint on are walked again: what they booked before is dropped.
    for (const [id, minor] of previous.realizedByTx) this.realizedByTx.set(id, minor);
    for (const [id, qty] of previous.unmatchedByTx) this.unmatchedByTx.set(id, qty);
    for (let k = position; k < book.ids.length; k += 1) {
      const id = book.ids[k] ?? '';
      this.realizedByTx.delete(id);
      this.unmatchedByTx.delete(id);
    }
    this.days.restoreBefore(previous.byCurrency, checkpoint.day);
    for (const roll of previous.rolls) if (roll.day < checkpoint.day) this.rollsSoFar.push(roll);
    // The last day walked before the checkpoint: a later row starts a new day there (its close already made).
    let lastDay: string | null = null;
    for (const days of previous.byCurrency.values()) {
      const before = days.days[firstWhere(days.days.length, (i) => (days.days[i] ?? '') >= checkpoint.day) - 1];
      if (before !== undefined && (lastDay === null || before > lastDay)) lastDay = before;
    }
    this.currentDay = lastDay;
    this.maxDay = lastDay;
    for (const kept of book.checkpoints.slice(0, at + 1)) if (kept.apart && (this.lastCheckpointDay === null || kept.day > this.lastCheckpointDay)) this.lastCheckpointDay = kept.day;
    this.lastInstantMs = checkpoint.lastInstantMs;
    this.walkedInstantMs = checkpoint.lastInstantMs;
    this.walked = position;
    this.resumedAt = position;
    this.sinceCheckpoint = 0;
    const samples = new Float64Array(Math.ceil(position / SAMPLE_EVERY));
    samples.set(book.samplesMs.subarray(0, samples.length));
    this.book = { ids: book.ids.slice(0, position), samplesMs: samples, checkpoints: book.checkpoints.slice(0, at + 1).map((c) => ({ ...c })), codec: book.codec };
    if (book.rowids !== undefined) this.book.rowids = book.rowids.slice(0, position);
  }
}
