/**
 * What each row does to the ledger's book (ledger.ts): a fill opens or closes FIFO lots (lots.ts) and counts in its
 * campaign (campaigns.ts) and day (periods.ts); a settlement closes an option; a dividend, interest or fee books its
 * cash; a corporate action adjusts what is open (corporate-actions.ts). The walk over the rows in order, its
 * checkpoints and resumes are ledger-walk.ts's; the Ledger made at the end is ledger.ts's.
 */
import type { AccountId, Ticker } from '../ids';
import { CampaignBook, slotHoldings, type CampaignRecord, type CampaignSlot } from './campaigns';
import { CorporateActionWalk, type ActionBook, type Deliverable } from './corporate-actions';
import { slotCollateral, spotAtEntry, type SpotFact, type SpotLookup } from './collateral';
import { BUYS, CLOSING, instantMs, OPENING } from './order';
import { PositionBook, QTY_EPSILON, prorate, tradeValueMinor, type Lot, type Position, type RealizedSink } from './lots';
import type { Transaction } from './model';
import { MANUAL_ACTION_SOURCE, type CorporateActionOutcome } from './constants';
import { DayBook } from './periods';
import { addRollLegs, type RollLeg } from './rolls';
import { UnmatchedBook } from './unmatched';
import type { LedgerWarnings } from './records';
import type { AccountDividends } from './ledger-types';

/** The key of a short option's entries (Ledger.entrySpots): account, currency, symbol. */
export const entryKey = (accountId: AccountId, currency: string, symbol: string) => `${accountId}\u0000${currency}\u0000${symbol}`;

export class LedgerRows implements RealizedSink {
  protected readonly days = new DayBook();
  /** The spot at each open short option's entry (null: no snapshot described it): its Reg T collateral (collateral.ts). */
  protected readonly entries = new Map<Position, SpotFact | null>();
  protected readonly entrySpots = new Map<string, Array<{ ms: number; fact: SpotFact | null }>>();
  protected readonly campaigns = new CampaignBook((slot) => slotCollateral(slot, this.entries));
  protected readonly positions = new PositionBook(this.campaigns);
  protected readonly legs: RollLeg[] = [];
  protected currentDay: string | null = null;
  protected readonly realizedByTx = new Map<string, number>();
  protected readonly unmatched = new UnmatchedBook();
  protected readonly unmatchedByTx = new Map<string, number>();
  /** The live campaigns a replay started from, with their underlying then. */
  protected readonly restoredUnderlying = new Map<CampaignRecord, string>();
  lastInstantMs = -Infinity;
  /** The row being processed: what it realized, and the campaign and cash of its step (docs/journal.md §Campaigns). */
  protected rowRealizedMinor = 0;
  protected rowBookedRealized = false;
  protected rowStep: { slot: CampaignSlot; cashMinor: number; campaign?: CampaignRecord } | null = null;
  /** Account-level dividends by account and currency (Ledger.accountDividends). */
  protected readonly accountDividends = new Map<string, AccountDividends>();
  readonly warnings: LedgerWarnings = { unmatchedCloses: 0, unmatchedSettlements: 0, openedAgainstOpposite: 0, corporateActionsWithoutLots: 0 };
  /** Splits, symbol changes, mergers... applied to these lots (corporate-actions.ts). */
  protected readonly actions: CorporateActionWalk<Lot, Position>;
  protected readonly actionOutcomes = new Map<string, CorporateActionOutcome>();

  constructor(
    protected readonly reportingCurrency: string,
    protected readonly timeline: boolean,
    protected readonly spotAt?: SpotLookup,
    known?: { deliverables: ReadonlyMap<string, Deliverable>; roots: ReadonlyMap<string, string> },
  ) {
    this.actions = new CorporateActionWalk(this.actionBook(), known);
  }

  /** The ledger's lots, P&L and campaigns as a corporate action changes them. */
  protected actionBook(): ActionBook<Lot, Position> {
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
  protected endRow(t: Transaction): void {
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
  protected noteEntry(pos: Position, t: Transaction): void {
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
  protected unmatchedClose(pos: Position, t: Transaction, qty: number, sign: number, sideKnown: boolean): void {
    const agg = this.days.day(t.currency, t.tradeDay);
    agg.unmatchedCloses += 1;
    agg.unmatchedQuantity += qty;
    this.warnings.unmatchedCloses += 1;
    this.unmatched.add(pos, t, sign * qty, sideKnown);
    this.unmatchedByTx.set(t.id, (this.unmatchedByTx.get(t.id) ?? 0) + qty);
  }

  protected trade(t: Transaction): void {
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
  protected settle(t: Transaction): void {
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

  protected cashRow(t: Transaction): void {
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
  protected corporateAction(t: Transaction): void {
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
  protected renameSlot(accountId: AccountId, currency: string, from: string, to: Ticker): void {
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
}
