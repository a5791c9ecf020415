/**
 * The journal ledger (docs/journal.md): the builder that walks the transactions in order and ties together
 * FIFO lots (lots.ts), campaigns (campaigns.ts), rolls (rolls.ts) and the per-day aggregates per currency
 * (periods.ts). Built once when the transactions change; the period and yearly queries (analytics.ts) only
 * read its day buckets. All money is integer minor units (src-shared/money.ts). Its parts, each on the one below:
 * the types it hands out (ledger-types.ts), what each row does to the book (ledger-rows.ts), the walk in order with its
 * checkpoints and resumes (ledger-walk.ts), and here what the walk makes (a Ledger, a book at an instant) and the live build.
 */
import { firstWhere, type BookLedger, type LedgerCheckpoint, type LedgerCheckpoints } from './checkpoints';
import { attributeRolls, countRolls } from './roll-counts';
import { slotCollateral, type SpotLookup } from './collateral';
import type { CampaignRecord, CampaignSlot } from './campaigns';
import { instantMs } from './order';
import type { OpenPosition } from './lots';
import type { Transaction } from './model';
import type { CurrencyDays, DayAgg } from './periods';
import { matchRolls } from './rolls';
import type { Ledger, LedgerOptions } from './ledger-types';
import { followsAll, LedgerWalk } from './ledger-walk';

export type { CampaignRecord, CampaignStep } from './campaigns';
export type { Deliverable } from './corporate-actions';
export type { OpenPosition } from './lots';
export type { CurrencyDays, DayAgg, SymbolAgg } from './periods';
export type { RollRecord } from './rolls';
export type { UnmatchedOpening } from './unmatched';
export type { LedgerWarnings } from './records';
export type { AccountDividends, Ledger, LedgerOptions } from './ledger-types';
export { followsAll, markNotApart } from './ledger-walk';

/** The walk and what it makes: the Ledger of the rows walked (finish, publish) or the book at an instant (finishBook). */
class LedgerBuilder extends LedgerWalk {
  /** The open positions, each with its part of its campaign's collateral now (collateral.ts: the figure every page reads), an adjusted contract with what it delivers. */
  private openPositions(): OpenPosition[] {
    const parts = new Map<string, number>();
    const slots = new Set<CampaignSlot>();
    for (const pos of this.positions.all()) if (pos.qty > 0) slots.add(pos.slot);
    for (const slot of slots) {
      for (const [pos, minor] of slotCollateral(slot, this.entries, true).byPosition ?? []) parts.set(`${pos.accountId}\u0000${pos.currency}\u0000${pos.symbol}`, minor);
    }
    const deliverables = this.actions.deliverables;
    return this.positions.open().map((p) => {
      const open: OpenPosition = { ...p, collateralMinor: parts.get(`${p.accountId}\u0000${p.currency}\u0000${p.symbol}`) ?? 0 };
      // An option a corporate action adjusted carries what it delivers.
      const deliverable = p.isOption ? deliverables.get(p.symbol) : undefined;
      if (deliverable !== undefined) open.deliverable = deliverable;
      return open;
    });
  }

  finish(transactionCount: number): Ledger {
    const rolls = matchRolls(this.legs);
    for (const roll of rolls) {
      const agg = this.days.day(roll.currency, roll.day);
      agg.rolls += 1;
      agg.rollCreditsMinor += roll.creditMinor;
      const sym = this.days.symbol(agg, roll.underlying);
      if (sym) sym.rolls += 1;
    }
    const campaigns = this.campaigns.finish();
    attributeRolls(campaigns, rolls);
    const { currencies, byCurrency } = this.days.finish(this.reportingCurrency);
    return {
      reportingCurrency: this.reportingCurrency,
      currencies,
      byCurrency,
      campaigns,
      rolls,
      positions: this.openPositions(),
      realizedByTx: this.realizedByTx,
      unmatched: this.unmatched.list(),
      unmatchedByTx: this.unmatchedByTx,
      warnings: this.warnings,
      transactionCount,
      lastInstantMs: this.lastInstantMs,
      regTCloses: this.campaigns.regTCloses,
      entrySpots: this.entrySpots,
      actionOutcomes: this.actionOutcomes,
      deliverables: this.actions.deliverables,
      actionRoots: this.actions.roots,
      accountDividends: [...this.accountDividends.values()],
    };
  }

  /**
   * The ledger so far, as finish makes it, without changing what a later walk goes on from (a live ledger): what the
   * walk goes on changing (days, campaigns, maps, lists) is copied; the rolls of the days walked are matched once, as
   * every later row is of a later day (matchRolls pairs legs within a day and marks them used).
   */
  publish(transactionCount: number): Ledger {
    const fresh = matchRolls(this.legs.slice(this.legsMatched));
    this.legsMatched = this.legs.length;
    for (const roll of fresh) this.rollsSoFar.push(roll);
    const rolls = this.rollsSoFar.slice();
    const { currencies, byCurrency: liveDays } = this.days.finish(this.reportingCurrency);
    const byCurrency = new Map<string, CurrencyDays>();
    const copies = new Map<DayAgg, DayAgg>();
    for (const [currency, days] of liveDays) {
      byCurrency.set(currency, {
        ...days,
        aggs: days.aggs.map((agg) => {
          const copy: DayAgg = { ...agg, typeCounts: agg.typeCounts.slice(), symbols: new Map([...agg.symbols].map(([symbol, row]) => [symbol, { ...row }])) };
          copies.set(agg, copy);
          return copy;
        }),
      });
    }
    for (const roll of rolls) {
      const live = this.days.day(roll.currency, roll.day);
      const agg = copies.get(live) ?? live;
      agg.rolls += 1;
      agg.rollCreditsMinor += roll.creditMinor;
      const sym = agg.symbols.get(roll.underlying);
      if (sym) sym.rolls += 1;
    }
    const campaigns = this.campaigns.finish().map((c) => ({ ...c, legs: c.legs.slice(), steps: c.steps.map((step) => ({ ...step })), collateralBasis: { ...c.collateralBasis } }));
    attributeRolls(campaigns, rolls);
    const ledger: Ledger = {
      reportingCurrency: this.reportingCurrency,
      currencies,
      byCurrency,
      campaigns,
      rolls,
      positions: this.openPositions(),
      realizedByTx: new Map(this.realizedByTx),
      unmatched: this.unmatched.list().map((u) => ({ ...u })),
      unmatchedByTx: new Map(this.unmatchedByTx),
      warnings: { ...this.warnings },
      transactionCount,
      lastInstantMs: this.lastInstantMs,
      regTCloses: this.campaigns.regTCloses,
      entrySpots: new Map([...this.entrySpots].map(([key, list]) => [key, list.slice()])),
      actionOutcomes: new Map(this.actionOutcomes),
      deliverables: new Map(this.actions.deliverables),
      actionRoots: new Map(this.actions.roots),
      accountDividends: [...this.accountDividends.values()].map((d) => ({ ...d })),
    };
    const book = this.book;
    if (book !== null) {
      // The codec only grows (a live build never seals it): the checkpoints published keep reading their offsets.
      const checkpoints: LedgerCheckpoints = { ids: book.ids.slice(0, this.walked), samplesMs: book.samplesMs.slice(), checkpoints: book.checkpoints.map((c) => ({ ...c })), codec: book.codec };
      if (book.rowids !== undefined) checkpoints.rowids = book.rowids.slice();
      countRolls(checkpoints, campaigns, rolls);
      ledger.checkpoints = checkpoints;
    }
    return ledger;
  }

  /**
   * The book after a replay from `checkpoint`: the complete ledger's rolls of the days before it and the replayed
   * days' own. A live campaign starts with its rolls before the checkpoint and counts the replayed ones (all again when a
   * rename moved it since: rolls count under a campaign's last name); the frozen campaigns are the complete ones.
   */
  finishBook(complete: Ledger, checkpoint: LedgerCheckpoint | null): BookLedger {
    const before = checkpoint === null ? [] : complete.rolls.slice(0, firstWhere(complete.rolls.length, (i) => (complete.rolls[i]?.day ?? '') >= checkpoint.day));
    const replayed = matchRolls(this.legs);
    const campaigns = this.campaigns.finish();
    const frozen = checkpoint === null ? 0 : checkpoint.campaignCount;
    const counting: CampaignRecord[] = [];
    const renamed: CampaignRecord[] = [];
    campaigns.forEach((campaign, index) => {
      if (index < frozen && campaign === complete.campaigns[index]) return;
      const was = this.restoredUnderlying.get(campaign);
      if (was === undefined || was === campaign.underlying) counting.push(campaign);
      else renamed.push(campaign);
    });
    attributeRolls(counting, replayed);
    const rolls = before.concat(replayed);
    for (const campaign of renamed) campaign.rolls = 0;
    attributeRolls(renamed, rolls);
    return { reportingCurrency: this.reportingCurrency, campaigns, rolls, positions: this.openPositions(), unmatched: this.unmatched.list(), lastInstantMs: this.lastInstantMs };
  }
}

/** Builds the ledger from all transactions (any order: they are processed by instant, then phase, then id; rows of one instant from one import in their file's event order). */
export function buildLedger(transactions: readonly Transaction[], options: LedgerOptions): Ledger {
  const builder = new LedgerBuilder(options.reportingCurrency, options.timeline === true, options.spotAt);
  const checkpoints = builder.process(transactions, options.checkpointEvery ?? 0);
  const ledger = builder.finish(transactions.length);
  if (checkpoints !== null) {
    checkpoints.codec.seal();
    countRolls(checkpoints, ledger.campaigns, ledger.rolls);
    ledger.checkpoints = checkpoints;
  }
  return ledger;
}

/**
 * The book at `untilMs` from a checkpoint of `complete`'s build (null: from the start) and rows after it, in any order;
 * those that count after the instant are left out (docs/journal.md §Checkpoints).
 */
export function resumeLedger(complete: Ledger, checkpoint: LedgerCheckpoint | null, rows: readonly Transaction[], untilMs = Infinity, spotAt?: SpotLookup): BookLedger {
  const builder = new LedgerBuilder(complete.reportingCurrency, false, spotAt, { deliverables: complete.deliverables, roots: complete.actionRoots });
  if (checkpoint !== null) builder.restore(checkpoint, complete);
  builder.process(rows, 0, untilMs);
  return builder.finishBook(complete, checkpoint);
}

/**
 * A ledger build kept open in the journal worker (docs/journal.md §Staying current): rows dated after every row it
 * walked extend it (the daily import, a manual entry of today) instead of a build from the first row. Each extension
 * publishes a new Ledger; the ones published before are never changed (reads answer from them meanwhile).
 */
export class LiveLedger {
  private count: number;
  private constructor(
    private readonly builder: LedgerBuilder,
    count: number,
    private readonly options: LedgerOptions,
  ) {
    this.count = count;
  }

  /** Builds the ledger of `transactions` and keeps the build open; `rowids` by input index (checkpoints by stored row). */
  static build(transactions: readonly Transaction[], options: LedgerOptions, rowids?: readonly number[]): { live: LiveLedger; ledger: Ledger } {
    const builder = new LedgerBuilder(options.reportingCurrency, options.timeline === true, options.spotAt);
    builder.process(transactions, options.checkpointEvery ?? 0, Infinity, rowids);
    const live = new LiveLedger(builder, transactions.length, options);
    return { live, ledger: builder.publish(transactions.length) };
  }

  /** The last day walked (null: none), and the latest instant. */
  get lastDay(): string | null {
    return this.builder.lastDay;
  }

  /**
   * Whether `rows` can extend the build: every one is of a day after the last day walked and counts after its last
   * instant. Not otherwise: a row of the last day or before changes what came after it (the day's start, where manual
   * openings and corporate actions sort: order.ts; the rolls of its day; a campaign closed at that day's close).
   */
  canExtend(rows: readonly Transaction[]): boolean {
    const lastDay = this.builder.lastDay;
    const lastMs = this.builder.lastInstantMs;
    return rows.every((t) => lastDay === null || (t.tradeDay > lastDay && instantMs(t.tradeDate, t.tradeDay) > lastMs));
  }

  /** The ledger with `rows` walked on from the end (null, and nothing changed, when canExtend says no). */
  extend(rows: readonly Transaction[], rowids?: readonly number[]): Ledger | null {
    if (!this.canExtend(rows)) return null;
    this.builder.process(rows, 0, Infinity, rowids);
    this.count += rows.length;
    return this.builder.publish(this.count);
  }

  /**
   * The checkpoint of `ledger` (the last one this build published) a write whose rows are all of `day` or later resumes
   * from: the latest whose day is at or before it; −1 when none, or when the journal holds corporate actions (a build
   * from the first row: resume refuses rows with one too).
   */
  static resumePoint(ledger: Ledger, day: string): number {
    // A corporate action adjusts what it finds as the build ends it (the deliverables, the roots, flat positions' slots).
    if (ledger.actionOutcomes.size > 0) return -1;
    const list = ledger.checkpoints?.checkpoints ?? [];
    let at = firstWhere(list.length, (i) => (list[i]?.day ?? '') > day) - 1;
    // Only where every row before it is of an earlier day (the rows of its day on are the ones read again).
    while (at >= 0 && list[at]?.apart !== true) at -= 1;
    return at;
  }

  /**
   * A new live build resumed at checkpoint `at` of `previous` (this build's last published ledger) with `rows`: every row
   * of the journal from the checkpoint's day on, in any order (docs/journal.md §Staying current). The rows before the
   * checkpoint are the build's still; this build and its ledgers stay as they are.
   */
  resume(previous: Ledger, at: number, rows: readonly Transaction[], rowids?: readonly number[]): { live: LiveLedger; ledger: Ledger } | null {
    if (previous.actionOutcomes.size > 0 || rows.some((t) => t.type === 'SPLIT' || t.type === 'SYMBOL_CHANGE')) return null;
    // Every row walked again must come after those before the checkpoint (else the order before it changed: a build).
    const checkpoint = previous.checkpoints?.checkpoints[at];
    if (checkpoint === undefined || !followsAll(rows, checkpoint.lastInstantMs)) return null;
    const builder = new LedgerBuilder(this.options.reportingCurrency, this.options.timeline === true, this.options.spotAt, { deliverables: previous.deliverables, roots: previous.actionRoots });
    builder.resumeAt(previous, at, this.options.checkpointEvery ?? 0, this.builder.positionsSeen);
    const position = previous.checkpoints?.checkpoints[at]?.position ?? 0;
    builder.process(rows, 0, Infinity, rowids);
    builder.settleResumed();
    const count = position + rows.length;
    return { live: new LiveLedger(builder, count, this.options), ledger: builder.publish(count) };
  }
}
