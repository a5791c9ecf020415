/**
 * The journal ledger (docs/journal.md): the builder that walks the transactions in order and ties together
 * FIFO lots (lots.ts), chains (chains.ts), rolls (rolls.ts) and the per-day aggregates per currency
 * (periods.ts). Built once when the transactions change; the period and yearly queries (analytics.ts) only
 * read its day buckets. All money is integer minor units (src-shared/money.ts).
 */
import { ChainBook, slotHoldings, type ChainRecord, type ChainSlot } from './chains';
import { PositionBook, QTY_EPSILON, tradeValueMinor, type OpenPosition, type Position, type RealizedSink } from './lots';
import { FILL_TYPES, TRANSACTION_TYPES, type Transaction, type TransactionType } from './model';
import { processingOrder } from './event-order';
import { DayBook, type CurrencyDays } from './periods';
import { addRollLegs, matchRolls, type RollLeg, type RollRecord } from './rolls';

export type { ChainRecord, ChainStep } from './chains';
export type { OpenPosition } from './lots';
export type { CurrencyDays, DayAgg, SymbolAgg } from './periods';
export type { RollRecord } from './rolls';
export { instantMs, phaseOf, processingOrder } from './event-order';

const TYPE_INDEX: Record<TransactionType, number> = Object.fromEntries(
  TRANSACTION_TYPES.map((type, index) => [type, index]),
) as Record<TransactionType, number>;

const TRADE_TYPES: ReadonlySet<TransactionType> = new Set<TransactionType>(FILL_TYPES);

export interface LedgerWarnings {
  /** BUY_TO_CLOSE / SELL_TO_CLOSE with no (or not enough) open lot: realized with zero basis. */
  unmatchedCloses: number;
  /** EXPIRATION / ASSIGNMENT / EXERCISE with no (or not enough) open option lot. */
  unmatchedSettlements: number;
  /** BUY_TO_OPEN / SELL_TO_OPEN that met an opposite position in the same instrument (netted FIFO). */
  openedAgainstOpposite: number;
  /** SPLIT / SYMBOL_CHANGE that found no open lot to adjust, or a SYMBOL_CHANGE without previousSymbol. */
  corporateActionsWithoutLots: number;
}

export interface Ledger {
  reportingCurrency: string;
  /** Every currency with transactions, reporting currency first, then alphabetical. */
  currencies: string[];
  byCurrency: Map<string, CurrencyDays>;
  chains: ChainRecord[];
  rolls: RollRecord[];
  positions: OpenPosition[];
  /** Realized P&L booked by each row that closed something (closing fills, settlements), by transaction id. */
  realizedByTx: Map<string, number>;
  warnings: LedgerWarnings;
  transactionCount: number;
  /** The latest instant among the transactions (epoch ms), −Infinity without any. */
  lastInstantMs: number;
}

export interface LedgerOptions {
  reportingCurrency: string;
  /** Record each chain's timeline (ChainStep per leg): for one campaign's detail, not for every read. */
  timeline?: boolean;
}

class LedgerBuilder implements RealizedSink {
  private readonly days = new DayBook();
  private readonly chains = new ChainBook();
  private readonly positions = new PositionBook(this.chains);
  private readonly legs: RollLeg[] = [];
  private currentDay: string | null = null;
  private readonly realizedByTx = new Map<string, number>();
  lastInstantMs = -Infinity;
  /** The row being processed: what it realized, and the chain and cash of its step (docs/journal.md §Campaigns). */
  private rowRealizedMinor = 0;
  private rowBookedRealized = false;
  private rowStep: { slot: ChainSlot; cashMinor: number } | null = null;
  readonly warnings: LedgerWarnings = { unmatchedCloses: 0, unmatchedSettlements: 0, openedAgainstOpposite: 0, corporateActionsWithoutLots: 0 };

  constructor(
    private readonly reportingCurrency: string,
    private readonly timeline: boolean,
  ) {}

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
    this.chains.active(pos.slot, day).realizedMinor += pnlMinor;
    this.rowRealizedMinor += pnlMinor;
    this.rowBookedRealized = true;
  }

  /** After a row: its realized P&L by id, and its step in the chain it belongs to, with the chain's state after it. */
  private endRow(t: Transaction): void {
    if (this.rowBookedRealized) this.realizedByTx.set(t.id, this.rowRealizedMinor);
    const step = this.rowStep;
    if (step) {
      const chain = step.slot.current ?? step.slot.last;
      if (chain) chain.legs.push(t.id);
      if (chain && this.timeline) {
        const held = slotHoldings(step.slot);
        const collateralMinor = held.shareCostMinor + held.shortPutNotionalMinor;
        chain.steps.push({
          txId: t.id,
          day: t.tradeDay,
          type: t.type,
          symbol: t.symbol,
          quantity: t.quantity,
          cashMinor: step.cashMinor,
          realizedMinor: this.rowRealizedMinor,
          sharesHeld: held.sharesHeld,
          shareCostMinor: held.shareCostMinor,
          netOptionCashMinor: chain.netOptionCashMinor,
          collateralMinor,
        });
      }
    }
    this.rowRealizedMinor = 0;
    this.rowBookedRealized = false;
    this.rowStep = null;
  }

  private trade(t: Transaction): void {
    const day = t.tradeDay;
    const pos = this.positions.of(t);
    const dir = t.type === 'BUY_TO_OPEN' || t.type === 'BUY_TO_CLOSE' || t.type === 'BUY' || t.type === 'BUY_TO_COVER' ? 1 : -1;
    const qty = Math.abs(t.quantity);
    const costsMinor = Math.abs(t.commissionMinor) + Math.abs(t.feesMinor);
    const grossMinor = tradeValueMinor(t, dir, qty, costsMinor);
    const closingOnly = t.type === 'BUY_TO_CLOSE' || t.type === 'SELL_TO_CLOSE';
    const openingOnly = t.type === 'BUY_TO_OPEN' || t.type === 'SELL_TO_OPEN';

    const agg = this.days.day(t.currency, day);
    agg.trades += 1;
    const sym = this.days.symbol(agg, pos.underlying);
    if (sym) sym.trades += 1;
    const chain = this.chains.active(pos.slot, day);
    const cashMinor = dir < 0 ? grossMinor - costsMinor : -grossMinor - costsMinor;
    if (pos.isOption) chain.netOptionCashMinor += cashMinor;
    this.rowStep = { slot: pos.slot, cashMinor };

    const wasSide = pos.side;
    let rest = { qty, grossMinor, costsMinor, closedQty: 0 };
    if (pos.qty > 0 && pos.side === -dir) {
      rest = this.positions.closeFifo(pos, day, qty, grossMinor, costsMinor, this);
      if (openingOnly) this.warnings.openedAgainstOpposite += 1;
    }
    let openedQty = 0;
    let openedGrossMinor = 0;
    if (rest.qty > 0) {
      if (closingOnly) {
        // No lot to close (history starts mid-position): zero basis, flagged.
        this.warnings.unmatchedCloses += 1;
        const pnl = (dir < 0 ? rest.grossMinor : -rest.grossMinor) - rest.costsMinor;
        this.bookRealized(pos, day, pnl, dir > 0);
      } else {
        this.positions.openLot(pos, day, dir, rest.qty, rest.grossMinor, rest.costsMinor);
        openedQty = rest.qty;
        openedGrossMinor = rest.grossMinor;
        if (dir < 0 && pos.isOption) {
          chain.premiumsMinor += rest.grossMinor;
          agg.premiumsMinor += rest.grossMinor;
          if (sym) sym.premiumsMinor += rest.grossMinor;
        }
      }
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
    if (!t.isOption) {
      this.rowStep = { slot: this.positions.of(t).slot, cashMinor: -costsMinor };
      // Stock delivered by an assignment comes as its own BUY/SELL at the strike; a stock-side settlement row carries nothing more.
      if (costsMinor !== 0) this.bookRealized(this.positions.of(t), day, -costsMinor, false);
      else agg.plEvents += 1;
      return;
    }
    const pos = this.positions.of(t);
    this.rowStep = { slot: pos.slot, cashMinor: -costsMinor };
    if (pos.slot.current !== null) {
      pos.slot.current.netOptionCashMinor -= costsMinor;
      if (t.type === 'ASSIGNMENT') pos.slot.current.assignments += 1;
    }
    // Quantity 0 on a settlement row means "the whole position" (some exports leave it blank).
    const wanted = qty > 0 ? qty : pos.qty;
    let rest = { qty: wanted, grossMinor: 0, costsMinor, closedQty: 0 };
    if (pos.qty > 0) rest = this.positions.closeFifo(pos, day, Math.min(wanted, pos.qty), 0, costsMinor, this);
    const unmatched = qty > 0 ? wanted - rest.closedQty : pos.qty > 0 ? 0 : 1;
    if (unmatched > QTY_EPSILON) this.warnings.unmatchedSettlements += 1;
    if (rest.closedQty === 0 && rest.costsMinor !== 0) {
      this.bookRealized(pos, day, -rest.costsMinor, pos.side < 0);
    } else if (rest.closedQty === 0) {
      agg.plEvents += 1;
    }
  }

  private cashRow(t: Transaction): void {
    const day = t.tradeDay;
    const agg = this.days.day(t.currency, day);
    const underlying = t.underlying !== '' ? t.underlying : t.isOption ? '' : t.symbol;
    const sym = this.days.symbol(agg, underlying);
    const slot = underlying !== '' ? this.chains.find(t.accountId, underlying, t.currency) : undefined;
    agg.plEvents += 1;
    if (t.type === 'DIVIDEND') {
      agg.dividendsMinor += t.amountMinor;
      if (sym) sym.dividendsMinor += t.amountMinor;
      const chain = slot ? this.chains.attach(slot) : null;
      if (chain) chain.dividendsMinor += t.amountMinor;
      if (slot && chain) this.rowStep = { slot, cashMinor: t.amountMinor };
    } else if (t.type === 'INTEREST') {
      agg.interestMinor += t.amountMinor;
      if (sym) sym.interestMinor += t.amountMinor;
    } else {
      const feeMinor = t.amountMinor !== 0 ? -t.amountMinor : Math.abs(t.commissionMinor) + Math.abs(t.feesMinor);
      agg.feesMinor += feeMinor;
      if (sym) sym.feesMinor += feeMinor;
      const chain = slot ? this.chains.attach(slot) : null;
      if (chain) chain.feesMinor += feeMinor;
      if (slot && chain) this.rowStep = { slot, cashMinor: -feeMinor };
    }
  }

  /** SPLIT: `quantity` is the signed change of the position. */
  private split(t: Transaction): void {
    if (!this.positions.split(this.positions.find(t.accountId, t.symbol, t.currency), t.quantity)) this.warnings.corporateActionsWithoutLots += 1;
  }

  /** SYMBOL_CHANGE: the lots of previousSymbol continue under symbol (and the chain under the new underlying). */
  private symbolChange(t: Transaction): void {
    const previous = t.previousSymbol;
    const old = previous ? this.positions.find(t.accountId, previous, t.currency) : undefined;
    if (!previous || !old || old.qty <= 0 || previous === t.symbol) {
      this.warnings.corporateActionsWithoutLots += 1;
      return;
    }
    const target = this.positions.of(t);
    const oldSlot = old.slot;
    const newUnderlying = t.underlying !== '' ? t.underlying : t.symbol;
    if (!old.isOption && target.slot !== oldSlot && target.slot.openPositions === 0 && !target.slot.current) {
      // The whole story continues under the new name: move the slot rather than end one chain and start another.
      const newSlot = target.slot;
      newSlot.current = oldSlot.current;
      newSlot.last = oldSlot.current ?? newSlot.last;
      if (newSlot.current) newSlot.current.underlying = newUnderlying;
      oldSlot.current = null;
      for (const pos of this.positions.all()) {
        if (pos.slot === oldSlot && pos.qty > 0) {
          pos.slot = newSlot;
          oldSlot.members.delete(pos);
          newSlot.members.add(pos);
          oldSlot.openPositions -= 1;
          newSlot.openPositions += 1;
        }
      }
    }
    if (target.qty > 0 && target.side !== old.side) {
      this.warnings.corporateActionsWithoutLots += 1;
      return;
    }
    this.positions.moveLots(old, target);
  }

  process(transactions: readonly Transaction[]): void {
    const count = transactions.length;
    const { order, ms } = processingOrder(transactions);
    for (let i = 0; i < count; i += 1) {
      const instant = ms[i] ?? -Infinity;
      if (instant > this.lastInstantMs) this.lastInstantMs = instant;
    }
    for (let k = 0; k < count; k += 1) {
      const t = transactions[order[k] ?? 0];
      if (!t) continue;
      if (this.currentDay !== null && t.tradeDay !== this.currentDay) this.chains.endOfDay(this.currentDay);
      this.currentDay = t.tradeDay;
      const counts = this.days.day(t.currency, t.tradeDay).typeCounts;
      const typeIndex = TYPE_INDEX[t.type];
      counts[typeIndex] = (counts[typeIndex] ?? 0) + 1;
      if (TRADE_TYPES.has(t.type)) this.trade(t);
      else if (t.type === 'EXPIRATION' || t.type === 'ASSIGNMENT' || t.type === 'EXERCISE') this.settle(t);
      else if (t.type === 'DIVIDEND' || t.type === 'INTEREST' || t.type === 'FEE') this.cashRow(t);
      else if (t.type === 'SPLIT') this.split(t);
      else if (t.type === 'SYMBOL_CHANGE') this.symbolChange(t);
      this.endRow(t);
    }
    if (this.currentDay !== null) this.chains.endOfDay(this.currentDay);
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
    const chains = this.chains.finish();
    attributeRolls(chains, rolls);
    const { currencies, byCurrency } = this.days.finish(this.reportingCurrency);
    return {
      reportingCurrency: this.reportingCurrency,
      currencies,
      byCurrency,
      chains,
      rolls,
      positions: this.positions.open(),
      realizedByTx: this.realizedByTx,
      warnings: this.warnings,
      transactionCount,
      lastInstantMs: this.lastInstantMs,
    };
  }
}

/** Each roll counts in the chain of its slot that was open on the roll's day. */
function attributeRolls(chains: readonly ChainRecord[], rolls: readonly RollRecord[]): void {
  const bySlot = new Map<string, ChainRecord[]>();
  for (const chain of chains) {
    const key = `${chain.accountId}\u0000${chain.currency}\u0000${chain.underlying}`;
    const list = bySlot.get(key);
    if (list) list.push(chain);
    else bySlot.set(key, [chain]);
  }
  for (const roll of rolls) {
    const list = bySlot.get(`${roll.accountId}\u0000${roll.currency}\u0000${roll.underlying}`) ?? [];
    const chain = list.find((c) => c.openDay <= roll.day && (c.closeDay === null || roll.day <= c.closeDay));
    if (chain) chain.rolls += 1;
  }
}

/** Builds the ledger from all transactions (any order: they are processed by instant, then phase, then id; rows of one instant from one import in their file's event order). */
export function buildLedger(transactions: readonly Transaction[], options: LedgerOptions): Ledger {
  const builder = new LedgerBuilder(options.reportingCurrency, options.timeline === true);
  builder.process(transactions);
  return builder.finish(transactions.length);
}
