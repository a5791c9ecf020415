/**
 * The journal ledger (docs/journal.md): the builder that walks the transactions in order and ties together
 * FIFO lots (lots.ts), campaigns (campaigns.ts), rolls (rolls.ts) and the per-day aggregates per currency
 * (periods.ts). Built once when the transactions change; the period and yearly queries (analytics.ts) only
 * read its day buckets. All money is integer minor units (src-shared/money.ts).
 */
import { CampaignBook, slotHoldings, type CampaignRecord, type CampaignSlot } from './campaigns';
import { CorporateActionWalk, type ActionBook, type Deliverable } from './corporate-actions';
import { slotCollateral, spotAtEntry, type SpotFact, type SpotLookup } from './collateral';
import { attributeRolls, CheckpointCodec, countRolls, firstWhere, SAMPLE_EVERY, type BookLedger, type LedgerCheckpoint, type LedgerCheckpoints } from './checkpoints';
import { BUYS, CLOSING, instantMs, OPENING, rowOrder } from './order';
import { PositionBook, QTY_EPSILON, prorate, tradeValueMinor, type Lot, type OpenPosition, type Position, type RealizedSink } from './lots';
import { FILLS, TRANSACTION_TYPES, type Transaction, type TransactionType } from './model';
import { MANUAL_ACTION_SOURCE, type CorporateActionOutcome } from './constants';
import { DayBook, type CurrencyDays, type DayAgg } from './periods';
import { addRollLegs, matchRolls, type RollLeg, type RollRecord } from './rolls';
import { UnmatchedBook, type UnmatchedOpening } from './unmatched';
import type { LedgerWarnings } from './records';
import { drive, pieceRows, PIECE_ROWS, type Steps } from './pieces';

export type { CampaignRecord, CampaignStep } from './campaigns';
export type { Deliverable } from './corporate-actions';
export type { OpenPosition } from './lots';
export type { CurrencyDays, DayAgg, SymbolAgg } from './periods';
export type { RollRecord } from './rolls';
export type { UnmatchedOpening } from './unmatched';
export type { LedgerWarnings };

const TYPE_INDEX: Record<TransactionType, number> = Object.fromEntries(
  TRANSACTION_TYPES.map((type, index) => [type, index]),
) as Record<TransactionType, number>;

export interface Ledger {
  reportingCurrency: string;
  /** Every currency with transactions, reporting currency first, then alphabetical. */
  currencies: string[];
  byCurrency: Map<string, CurrencyDays>;
  campaigns: CampaignRecord[];
  rolls: RollRecord[];
  positions: OpenPosition[];
  /** Realized P&L booked by each row that closed something (closing fills, settlements), by transaction id. */
  realizedByTx: Map<string, number>;
  /** The openings the history lacks, oldest first (docs/journal.md §Unmatched closes). */
  unmatched: UnmatchedOpening[];
  /** Units each row removed beyond what was open, by transaction id (rows with an unmatched part only). */
  unmatchedByTx: Map<string, number>;
  warnings: LedgerWarnings;
  transactionCount: number;
  /** The latest instant among the transactions (epoch ms), −Infinity without any. */
  lastInstantMs: number;
  /** Closes at which a campaign held naked calls (Reg T collateral, which reads the spot at entry: LedgerOptions.spotAt). */
  regTCloses: number;
  /**
   * The spot at each short option position's entry (account, currency, symbol → each opening from flat, in order), when
   * built with `spotAt`: a book resumed from a checkpoint finds the entries of the positions it restores here.
   */
  entrySpots: Map<string, Array<{ ms: number; fact: SpotFact | null }>>;
  /**
   * Dividends no campaign held the shares for (campaigns.ts `dividendCampaign`), per account and currency, net of
   * withholding: in the summaries' dividends like every dividend, shown on the account (GET /journal/accounts).
   */
  accountDividends: AccountDividends[];
  /** The checkpoints of the build, when asked for (LedgerOptions.checkpointEvery). */
  checkpoints?: LedgerCheckpoints;
  /** What each corporate action (SPLIT / SYMBOL_CHANGE row, or one entered by hand) did, by transaction id. */
  actionOutcomes: Map<string, CorporateActionOutcome>;
  /** The deliverables of the option contracts corporate actions adjusted, by symbol (corporate-actions.ts). */
  deliverables: Map<string, Deliverable>;
  /** The adjusted root each action gave (a replay from a checkpoint gives the same). */
  actionRoots: Map<string, string>;
}

/** An account's dividends outside every campaign, in one currency. */
export interface AccountDividends {
  accountId: string;
  currency: string;
  dividendsMinor: number;
}

export interface LedgerOptions {
  reportingCurrency: string;
  /** Record each campaign's timeline (CampaignStep per leg): for one campaign's detail, not for every read. */
  timeline?: boolean;
  /** Keep a checkpoint every this many rows (at day boundaries) for the book at past instants (docs/journal.md §Checkpoints). */
  checkpointEvery?: number;
  /** The snapshots' spot at an instant: a naked call's Reg T collateral reads it at the call's entry (else its strike). */
  spotAt?: SpotLookup;
}

class LedgerBuilder implements RealizedSink {
  private readonly days = new DayBook();
  /** The spot at each open short option's entry (null: no snapshot described it): its Reg T collateral (collateral.ts). */
  private readonly entries = new Map<Position, SpotFact | null>();
  private readonly entrySpots = new Map<string, Array<{ ms: number; fact: SpotFact | null }>>();
  private readonly campaigns = new CampaignBook((slot) => slotCollateral(slot, this.entries));
  private readonly positions = new PositionBook(this.campaigns);
  private readonly legs: RollLeg[] = [];
  private currentDay: string | null = null;
  private readonly realizedByTx = new Map<string, number>();
  private readonly unmatched = new UnmatchedBook();
  private readonly unmatchedByTx = new Map<string, number>();
  /** The live campaigns a replay started from, with their underlying then. */
  private readonly restoredUnderlying = new Map<CampaignRecord, string>();
  lastInstantMs = -Infinity;
  /** The row being processed: what it realized, and the campaign and cash of its step (docs/journal.md §Campaigns). */
  private rowRealizedMinor = 0;
  private rowBookedRealized = false;
  private rowStep: { slot: CampaignSlot; cashMinor: number; campaign?: CampaignRecord } | null = null;
  /** Account-level dividends by account and currency (Ledger.accountDividends). */
  private readonly accountDividends = new Map<string, AccountDividends>();
  readonly warnings: LedgerWarnings = { unmatchedCloses: 0, unmatchedSettlements: 0, openedAgainstOpposite: 0, corporateActionsWithoutLots: 0 };
  /** Splits, symbol changes, mergers... applied to these lots (corporate-actions.ts). */
  private readonly actions: CorporateActionWalk<Lot, Position>;
  private readonly actionOutcomes = new Map<string, CorporateActionOutcome>();

  constructor(
    private readonly reportingCurrency: string,
    private readonly timeline: boolean,
    private readonly spotAt?: SpotLookup,
    known?: { deliverables: ReadonlyMap<string, Deliverable>; roots: ReadonlyMap<string, string> },
  ) {
    this.actions = new CorporateActionWalk(this.actionBook(), known);
  }

  /** The ledger's lots, P&L and campaigns as a corporate action changes them. */
  private actionBook(): ActionBook<Lot, Position> {
    const positions = this.positions;
    const day = () => this.currentDay ?? '';
    return {
      heldOf: (accountId, symbol) => positions.heldOf(accountId, symbol),
      find: (accountId, currency, symbol) => positions.find(accountId, symbol, currency),
      positionOf: (accountId, currency, instrument) => positions.ofInstrument(accountId, currency, instrument),
      scale: (pos, factor) => positions.scale(pos, factor),
      move: (from, to) => {
        if (from === to) return true;
        if (to.qty > 0 && to.side !== from.side) {
          this.warnings.corporateActionsWithoutLots += 1;
          return false;
        }
        const entry = this.entries.get(from);
        if (entry !== undefined) this.entries.set(to, entry);
        positions.moveLots(from, to);
        return true;
      },
      sell: (pos, qty, exitGrossMinor) => {
        positions.closeFifo(pos, day(), qty, exitGrossMinor, 0, this);
      },
      takeBasis: (pos, lot, grossMinor, costsMinor, pnlMinor) => {
        positions.takeBasis(pos, lot, grossMinor, costsMinor);
        if (pnlMinor !== 0) this.bookRealized(pos, day(), pnlMinor, pos.side < 0);
      },
      addLot: (pos, openDay, qty, grossMinor, costsMinor) => positions.addLot(pos, day(), openDay, qty, grossMinor, costsMinor),
      realize: (pos, pnlMinor) => this.bookRealized(pos, day(), pnlMinor, false),
      rename: (accountId, currency, from, to) => this.renameSlot(accountId, currency, from, to),
    };
  }

  bookRealized(pos: Position, day: string, pnlMinor: number, shortLot: boolean): void {
    const agg = this.days.day(pos.currency, day);
    const sym = this.days.symbol(agg, pos.underlying);
    agg.plEvents += 1;
    if (pos.isOption) {
      agg.optionsPLMinor += pnlMinor;
      if (sym) sym.optionsPLMinor += pnlMinor;
      if (shortLot) agg.lockedInMinor += pnlMinor;
    } else {
      agg.stockPLMinor += pnlMinor;
      if (sym) sym.stockPLMinor += pnlMinor;
    }
    this.campaigns.active(pos.slot, day).realizedMinor += pnlMinor;
    this.rowRealizedMinor += pnlMinor;
    this.rowBookedRealized = true;
  }

  /** After a row: its realized P&L by id, and its step in the campaign it belongs to, with the campaign's state after it. */
  private endRow(t: Transaction): void {
    if (this.rowBookedRealized) this.realizedByTx.set(t.id, this.rowRealizedMinor);
    const step = this.rowStep;
    if (step) {
      const campaign = step.campaign ?? step.slot.current ?? step.slot.last;
      if (campaign) {
        campaign.legs.push(t.id);
        if (t.isOption) campaign.optionLegs += 1;
      }
      if (campaign && this.timeline) {
        const held = slotHoldings(step.slot);
        // Replaced by the figure at the day's close (CampaignBook.endOfDay) when the slot was touched that day.
        const { collateralMinor } = slotCollateral(step.slot, this.entries);
        campaign.steps.push({
          txId: t.id,
          day: t.tradeDay,
          type: t.type,
          symbol: t.symbol,
          quantity: t.quantity,
          cashMinor: step.cashMinor,
          realizedMinor: this.rowRealizedMinor,
          sharesHeld: held.sharesHeld,
          shareCostMinor: held.shareCostMinor,
          netOptionCashMinor: campaign.netOptionCashMinor,
          collateralMinor,
        });
      }
    }
    this.rowRealizedMinor = 0;
    this.rowBookedRealized = false;
    this.rowStep = null;
  }

  /** A short option opened from flat: the spot at its entry, for its Reg T collateral (collateral.ts). */
  private noteEntry(pos: Position, t: Transaction): void {
    if (this.spotAt === undefined) {
      this.entries.set(pos, null);
      return;
    }
    const ms = instantMs(t.tradeDate, t.tradeDay);
    const fact = spotAtEntry(this.spotAt, pos.underlying, ms);
    this.entries.set(pos, fact);
    const key = entryKey(pos.accountId, pos.currency, pos.symbol);
    const list = this.entrySpots.get(key);
    if (list) list.push({ ms, fact });
    else this.entrySpots.set(key, [{ ms, fact }]);
  }

  /** `qty` units of the row found nothing open: their P&L is unknown; the opening they need is `sign` × qty. */
  private unmatchedClose(pos: Position, t: Transaction, qty: number, sign: number, sideKnown: boolean): void {
    const agg = this.days.day(t.currency, t.tradeDay);
    agg.unmatchedCloses += 1;
    agg.unmatchedQuantity += qty;
    this.warnings.unmatchedCloses += 1;
    this.unmatched.add(pos, t, sign * qty, sideKnown);
    this.unmatchedByTx.set(t.id, (this.unmatchedByTx.get(t.id) ?? 0) + qty);
  }

  private trade(t: Transaction): void {
    const day = t.tradeDay;
    const pos = this.positions.of(t);
    const dir = BUYS.has(t.type) ? 1 : -1;
    const qty = Math.abs(t.quantity);
    const costsMinor = Math.abs(t.commissionMinor) + Math.abs(t.feesMinor);
    const grossMinor = tradeValueMinor(t, dir, qty, costsMinor);
    // What may not open: the closing types, and a plain SELL of shares (a short sale says SELL_SHORT). A plain SELL
    // of an option comes only from files without an open/close flag, where selling to open is the common case.
    const mayOpen = !CLOSING.has(t.type) && !(t.type === 'SELL' && !pos.isOption);

    const agg = this.days.day(t.currency, day);
    agg.trades += 1;
    agg.commissionsMinor += costsMinor;
    const sym = this.days.symbol(agg, pos.underlying);
    if (sym) sym.trades += 1;

    const wasSide = pos.side;
    let rest = { qty, grossMinor, costsMinor, closedQty: 0 };
    if (pos.qty > 0 && pos.side === -dir) {
      rest = this.positions.closeFifo(pos, day, qty, grossMinor, costsMinor, this);
      if (OPENING.has(t.type)) this.warnings.openedAgainstOpposite += 1;
    }
    let openedQty = 0;
    let openedGrossMinor = 0;
    let unmatchedQty = 0;
    if (rest.qty > 0) {
      if (!mayOpen) {
        // Opened before the history starts: no position, no P&L against a zero basis (a sell removes a long).
        unmatchedQty = rest.qty;
        this.unmatchedClose(pos, t, rest.qty, -dir, true);
      } else {
        if (dir < 0 && pos.isOption && pos.qty <= QTY_EPSILON) this.noteEntry(pos, t);
        this.positions.openLot(pos, day, dir, rest.qty, rest.grossMinor, rest.costsMinor);
        openedQty = rest.qty;
        openedGrossMinor = rest.grossMinor;
        if (dir < 0 && pos.isOption) {
          this.campaigns.active(pos.slot, day).premiumsMinor += rest.grossMinor;
          agg.premiumsMinor += rest.grossMinor;
          if (sym) sym.premiumsMinor += rest.grossMinor;
        }
      }
    }
    // The campaign sees the part of the row whose story it holds; the unmatched units belong to one before the history.
    const knownQty = qty - unmatchedQty;
    if (knownQty > QTY_EPSILON) {
      const campaign = this.campaigns.active(pos.slot, day);
      const knownCashMinor = prorate(dir < 0 ? grossMinor - costsMinor : -grossMinor - costsMinor, knownQty, qty);
      if (pos.isOption) campaign.netOptionCashMinor += knownCashMinor;
      campaign.commissionsMinor += prorate(costsMinor, knownQty, qty);
      this.rowStep = { slot: pos.slot, cashMinor: knownCashMinor };
    }

    if (pos.isOption && pos.right) {
      addRollLegs(this.legs, t, pos.underlying, pos.right, { dir, qty, grossMinor, wasSide, closedQty: rest.closedQty, openedQty, openedGrossMinor });
    }
  }

  /** EXPIRATION, ASSIGNMENT, EXERCISE: the option leaves at 0; the stock legs are separate BUY/SELL rows. */
  private settle(t: Transaction): void {
    const day = t.tradeDay;
    const agg = this.days.day(t.currency, day);
    const qty = Math.abs(t.quantity);
    if (t.type === 'EXPIRATION') {
      agg.expiredOptions += 1;
      agg.expiredContracts += qty;
    } else if (t.type === 'ASSIGNMENT') {
      agg.assignments += 1;
    }
    const costsMinor = Math.abs(t.commissionMinor) + Math.abs(t.feesMinor);
    agg.commissionsMinor += costsMinor;
    if (!t.isOption) {
      const stock = this.positions.of(t);
      this.rowStep = { slot: stock.slot, cashMinor: -costsMinor };
      // Stock delivered by an assignment comes as its own BUY/SELL at the strike; a stock-side settlement row carries nothing more.
      if (costsMinor !== 0) {
        this.bookRealized(stock, day, -costsMinor, false);
        this.campaigns.active(stock.slot, day).commissionsMinor += costsMinor;
      } else agg.plEvents += 1;
      return;
    }
    const pos = this.positions.of(t);
    // Quantity 0 on a settlement row means "the whole position" (some exports leave it blank).
    const wanted = qty > 0 ? qty : pos.qty;
    const closable = Math.min(wanted, pos.qty);
    let closedQty = 0;
    if (closable > QTY_EPSILON) {
      // The costs of the units that were open; those of the rest belong to the unknown P&L of the unmatched part.
      const matchedCostsMinor = prorate(costsMinor, closable, wanted);
      const campaign = this.campaigns.active(pos.slot, day);
      campaign.netOptionCashMinor -= matchedCostsMinor;
      campaign.commissionsMinor += matchedCostsMinor;
      if (t.type === 'ASSIGNMENT') campaign.assignments += 1;
      this.rowStep = { slot: pos.slot, cashMinor: -matchedCostsMinor };
      closedQty = this.positions.closeFifo(pos, day, closable, 0, matchedCostsMinor, this).closedQty;
    } else {
      agg.plEvents += 1;
    }
    const unmatched = qty > 0 ? qty - closedQty : 0;
    if (unmatched > QTY_EPSILON) {
      // Assigned: it was short; exercised: long; expired: the row does not say (taken as short, the common case).
      this.unmatchedClose(pos, t, unmatched, t.type === 'EXERCISE' ? 1 : -1, t.type !== 'EXPIRATION');
    }
    if (unmatched > QTY_EPSILON || wanted <= QTY_EPSILON) this.warnings.unmatchedSettlements += 1;
  }

  private cashRow(t: Transaction): void {
    const day = t.tradeDay;
    const agg = this.days.day(t.currency, day);
    const underlying = t.underlying !== '' ? t.underlying : t.isOption ? '' : t.symbol;
    const sym = this.days.symbol(agg, underlying);
    const slot = underlying !== '' ? this.campaigns.find(t.accountId, underlying, t.currency) : undefined;
    agg.plEvents += 1;
    if (t.type === 'DIVIDEND') {
      agg.dividendsMinor += t.amountMinor;
      if (sym) sym.dividendsMinor += t.amountMinor;
      const campaign = slot ? this.campaigns.dividendCampaign(slot, day) : null;
      if (campaign) campaign.dividendsMinor += t.amountMinor;
      if (slot && campaign) this.rowStep = { slot, cashMinor: t.amountMinor, campaign };
      if (!campaign) {
        const key = `${t.accountId}\u0000${t.currency}`;
        const held = this.accountDividends.get(key);
        if (held) held.dividendsMinor += t.amountMinor;
        else this.accountDividends.set(key, { accountId: t.accountId, currency: t.currency, dividendsMinor: t.amountMinor });
      }
    } else if (t.type === 'INTEREST') {
      agg.interestMinor += t.amountMinor;
      if (sym) sym.interestMinor += t.amountMinor;
    } else {
      const feeMinor = t.amountMinor !== 0 ? -t.amountMinor : Math.abs(t.commissionMinor) + Math.abs(t.feesMinor);
      agg.feesMinor += feeMinor;
      if (sym) sym.feesMinor += feeMinor;
      const campaign = slot ? this.campaigns.attach(slot) : null;
      if (campaign) campaign.feesMinor += feeMinor;
      if (slot && campaign) this.rowStep = { slot, cashMinor: -feeMinor };
    }
  }

  /**
   * SPLIT / SYMBOL_CHANGE: a corporate action (corporate-actions.ts), read from a file or entered by hand. Its step goes
   * to the campaign of what it left open, with the cash it paid (a fraction, a merger's cash part).
   */
  private corporateAction(t: Transaction): void {
    const result = this.actions.apply(t);
    this.actionOutcomes.set(t.id, result.outcome);
    // A file's row that finds nothing to change says the history lacks something; one entered by hand for every
    // account finds nothing in most of them.
    if ((result.outcome === 'nothing_held' || result.outcome === 'not_applied') && t.source !== MANUAL_ACTION_SOURCE) this.warnings.corporateActionsWithoutLots += 1;
    if (result.position !== null) this.rowStep = { slot: result.position.slot, cashMinor: result.cashMinor };
  }

  /**
   * The shares and options of `from` go on under `to` (a symbol change, a merger): when `to` holds nothing yet, its
   * slot takes the open campaign and positions of `from`'s, so the story goes on as one campaign under the new name.
   */
  private renameSlot(accountId: string, currency: string, from: string, to: string): void {
    const oldSlot = this.campaigns.find(accountId, from, currency);
    const newSlot = this.campaigns.slot(accountId, to, currency);
    if (oldSlot === undefined || oldSlot === newSlot || newSlot.openPositions > 0 || newSlot.current !== null) return;
    newSlot.current = oldSlot.current;
    newSlot.last = oldSlot.current ?? newSlot.last;
    if (newSlot.current) newSlot.current.underlying = to;
    oldSlot.current = null;
    for (const pos of [...oldSlot.members]) {
      if (pos.qty <= 0) continue;
      pos.slot = newSlot;
      oldSlot.members.delete(pos);
      newSlot.members.add(pos);
      oldSlot.openPositions -= 1;
      newSlot.openPositions += 1;
    }
    this.campaigns.touch(newSlot);
  }

  /** The checkpoints being kept, and the walk's place (a live ledger walks on from here: LiveLedger). */
  private book: LedgerCheckpoints | null = null;
  private sinceCheckpoint = 0;
  private walkedInstantMs = -Infinity;
  private walked = 0;
  /** The rolls of the days walked so far, and how many legs they were matched from (a live ledger: publish). */
  private readonly rollsSoFar: RollRecord[] = [];
  private legsMatched = 0;

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

  private every = 0;
  /** The latest day walked (rows of a date-only export count at the day's UTC start: the order by instant may go back a day). */
  private maxDay: string | null = null;
  /** The latest day of a checkpoint still apart (markNotApart). */
  private lastCheckpointDay: string | null = null;
  /** A resumed build (resumeAt): the position of the checkpoint it started from, and the day of the first row walked there. */
  private resumedAt = -1;
  private resumedDay: string | null = null;

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
  private capture(codec: CheckpointCodec, position: number, day: string, lastInstantMs: number): LedgerCheckpoint {
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

const entryKey = (accountId: string, currency: string, symbol: string) => `${accountId}\u0000${currency}\u0000${symbol}`;

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
    return drive(LiveLedger.buildSteps(transactions, options, rowids, Infinity));
  }

  /** LiveLedger.build a piece of about `pieceSize` rows at a time (pieces.ts; without rowids, in one piece). */
  static *buildSteps(transactions: readonly Transaction[], options: LedgerOptions, rowids?: readonly number[], pieceSize = PIECE_ROWS): Steps<{ live: LiveLedger; ledger: Ledger }> {
    const builder = new LedgerBuilder(options.reportingCurrency, options.timeline === true, options.spotAt);
    if (rowids === undefined || transactions.length <= pieceSize) builder.process(transactions, options.checkpointEvery ?? 0, Infinity, rowids);
    else {
      for (const piece of pieceRows(transactions, rowids, pieceSize)) {
        builder.process(piece.rows, options.checkpointEvery ?? 0, Infinity, piece.rowids);
        yield;
      }
    }
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
    return drive(this.resumeSteps(previous, at, rows, rowids, Infinity));
  }

  /** LiveLedger.resume a piece of about `pieceSize` rows at a time (pieces.ts). */
  *resumeSteps(previous: Ledger, at: number, rows: readonly Transaction[], rowids?: readonly number[], pieceSize = PIECE_ROWS): Steps<{ live: LiveLedger; ledger: Ledger } | null> {
    if (previous.actionOutcomes.size > 0 || rows.some((t) => t.type === 'SPLIT' || t.type === 'SYMBOL_CHANGE')) return null;
    // Every row walked again must come after those before the checkpoint (else the order before it changed: a build).
    const checkpoint = previous.checkpoints?.checkpoints[at];
    if (checkpoint === undefined || !followsAll(rows, checkpoint.lastInstantMs)) return null;
    const builder = new LedgerBuilder(this.options.reportingCurrency, this.options.timeline === true, this.options.spotAt, { deliverables: previous.deliverables, roots: previous.actionRoots });
    builder.resumeAt(previous, at, this.options.checkpointEvery ?? 0, this.builder.positionsSeen);
    const position = previous.checkpoints?.checkpoints[at]?.position ?? 0;
    if (rowids === undefined || rows.length <= pieceSize) builder.process(rows, 0, Infinity, rowids);
    else {
      for (const piece of pieceRows(rows, rowids, pieceSize)) {
        builder.process(piece.rows, 0, Infinity, piece.rowids);
        yield;
      }
    }
    builder.settleResumed();
    const count = position + rows.length;
    return { live: new LiveLedger(builder, count, this.options), ledger: builder.publish(count) };
  }
}
