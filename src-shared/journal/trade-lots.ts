/**
 * The lots of the trade grouping (docs/journal.md §Trades and strategies): FIFO per account × currency × instrument,
 * as in lots.ts, but every lot remembers the trade (a node of trades.ts) that opened it, so that a close books its
 * P&L on the trade of the lot it takes, whatever order or day it comes on. The walk is lots.ts's (`closeLotsFifo`: `prorate`
 * on entry and exit, the remainder method), so a trade's P&L adds up to the ledger's realized to the minor unit.
 */
import { storedTicker, type AccountId, type Ticker } from '../ids';
import { innerMap } from '../maps';
import { closeLotsFifo, prorate, QTY_EPSILON } from './lots';
import type { PositionInstrument, Transaction } from './model';

/** A lot's trade when it belongs to none: shares bought on their own (an assignment's delivery, a plain purchase). */
export const NO_NODE = -1;

export interface TaggedLot {
  qty: number;
  grossMinor: number;
  costsMinor: number;
  openDay: string;
  node: number;
}

/** What an account holds of one underlying: what a covered call's shares and collateral are judged against. */
export interface SlotHoldings {
  /** Long shares held and their cost (entry value + entry costs of the open lots). */
  sharesLong: number;
  shareCostMinor: number;
  /** Shares promised by the open short calls: contracts × multiplier. */
  shortCallShares: number;
}

export interface TaggedPosition extends PositionInstrument {
  /** +1 long, −1 short, 0 flat. */
  side: number;
  qty: number;
  lots: TaggedLot[];
  head: number;
  slot: SlotHoldings;
}

/** One lot slice a close took: the trade it belonged to, the units, the exit's share booked on them and the realized P&L. */
export interface ClosedSlice {
  node: number;
  qty: number;
  /** The exit's value (unsigned) and costs prorated to these units: the close's cash of the trade's units. */
  exitGrossMinor: number;
  exitCostsMinor: number;
  /** The lot's entry value and costs of these units. */
  entryGrossMinor: number;
  entryCostsMinor: number;
  pnlMinor: number;
}

/** The lot book at a checkpoint of the trade walk (trade-walk.ts): what a walk resumed there starts from. */
export interface TaggedBookState {
  /** How many positions the book had seen (TaggedLotBook.created). */
  positionsSeen: number;
  /** The open positions, by their place in `created`, with copies of their open lots. */
  open: Array<{ seen: number; side: number; qty: number; lots: TaggedLot[] }>;
  /** Every slot's holdings (copies), as kept (a sum of lots kept up to the minor unit, not recomputed). */
  holdings: Array<{ accountId: AccountId; currency: string; underlying: string; held: SlotHoldings }>;
}

/** A close after FIFO matching: the slices it took, and what was left of it (units with no open lot). */
export interface CloseResult {
  slices: ClosedSlice[];
  closedQty: number;
  restQty: number;
  restGrossMinor: number;
  restCostsMinor: number;
}

export class TaggedLotBook {
  /** account → currency → symbol. */
  private readonly positions = new Map<AccountId, Map<string, Map<string, TaggedPosition>>>();
  /** account → currency → underlying. */
  private readonly slots = new Map<AccountId, Map<string, Map<Ticker, SlotHoldings>>>();
  /** Open lots per node: a trade is open while one of its nodes has some. */
  readonly openLots = new Map<number, number>();
  /** While a walk goes on (LiveTrades.extend): the nodes whose open lots changed. */
  touched: Set<number> | null = null;
  /** Every position in the order it was first seen (a resumed walk sees the same ones first again: restore). */
  readonly created: TaggedPosition[] = [];

  holdings(accountId: AccountId, currency: string, underlying: string): SlotHoldings {
    const byUnderlying = innerMap(innerMap(this.slots, accountId), currency);
    let slot = byUnderlying.get(underlying);
    if (!slot) {
      slot = { sharesLong: 0, shareCostMinor: 0, shortCallShares: 0 };
      byUnderlying.set(underlying, slot);
    }
    return slot;
  }

  find(accountId: AccountId, currency: string, symbol: string): TaggedPosition | undefined {
    return this.positions.get(accountId)?.get(currency)?.get(symbol);
  }

  of(t: Transaction, underlying: Ticker): TaggedPosition {
    return this.ofInstrument(t.accountId, t.currency, { ...t, underlying });
  }

  /** The position of an instrument in an account and currency, flat when new (a corporate action's new symbol). */
  ofInstrument(accountId: AccountId, currency: string, instrument: Pick<TaggedPosition, 'symbol' | 'underlying' | 'isOption' | 'expiration' | 'strike' | 'right' | 'multiplier'>): TaggedPosition {
    const bySymbol = innerMap(innerMap(this.positions, accountId), currency);
    let pos = bySymbol.get(instrument.symbol);
    if (!pos) {
      const underlying = instrument.underlying !== '' ? instrument.underlying : storedTicker(instrument.symbol);
      pos = {
        accountId,
        currency,
        symbol: instrument.symbol,
        underlying,
        isOption: instrument.isOption,
        expiration: instrument.expiration,
        strike: instrument.strike,
        right: instrument.right,
        multiplier: instrument.multiplier > 0 ? instrument.multiplier : 1,
        side: 0,
        qty: 0,
        lots: [],
        head: 0,
        slot: this.holdings(accountId, currency, underlying),
      };
      bySymbol.set(instrument.symbol, pos);
      this.created.push(pos);
    }
    return pos;
  }

  /** The open positions of an account in every currency: the shares of `symbol` and the options on it (lots.ts heldOf). */
  heldOf(accountId: AccountId, symbol: string): TaggedPosition[] {
    const held: TaggedPosition[] = [];
    for (const bySymbol of this.positions.get(accountId)?.values() ?? []) {
      for (const pos of bySymbol.values()) {
        if (pos.qty > 0 && (pos.isOption ? pos.underlying === symbol : pos.symbol === symbol)) held.push(pos);
      }
    }
    return held;
  }

  /** How a lot counts in its slot's holdings (shares and their cost, or the shares a short call promises). */
  private tally(pos: TaggedPosition, sign: number, qty: number, valueMinor: number): void {
    if (!pos.isOption && pos.side > 0) {
      pos.slot.sharesLong += sign * qty;
      pos.slot.shareCostMinor += sign * valueMinor;
    } else if (pos.isOption && pos.side < 0 && pos.right === 'C') {
      pos.slot.shortCallShares += sign * qty * pos.multiplier;
    }
  }

  private countLot(node: number, change: number): void {
    if (node === NO_NODE) return;
    this.touched?.add(node);
    this.openLots.set(node, (this.openLots.get(node) ?? 0) + change);
  }

  open(pos: TaggedPosition, day: string, side: number, qty: number, grossMinor: number, costsMinor: number, node: number): void {
    pos.side = side;
    pos.lots.push({ qty, grossMinor, costsMinor, openDay: day, node });
    pos.qty += qty;
    this.tally(pos, 1, qty, grossMinor + costsMinor);
    this.countLot(node, 1);
  }

  /** Closes up to `qty` FIFO against an exit of `exitGrossMinor` (unsigned) and `exitCostsMinor`, with the ledger's walk (lots.ts closeLotsFifo). */
  close(pos: TaggedPosition, qty: number, exitGrossMinor: number, exitCostsMinor: number): CloseResult {
    const slices: ClosedSlice[] = [];
    const rest = closeLotsFifo(pos, qty, exitGrossMinor, exitCostsMinor, (lot, take, slice) => {
      slices.push({ node: lot.node, qty: take, exitGrossMinor: slice.exitGross, exitCostsMinor: slice.exitCosts, entryGrossMinor: slice.entryGross, entryCostsMinor: slice.entryCosts, pnlMinor: slice.pnlMinor });
      this.tally(pos, -1, take, slice.entryGross + slice.entryCosts);
      pos.qty -= take;
      if (lot.qty <= QTY_EPSILON) this.countLot(lot.node, -1);
    });
    if (pos.qty <= QTY_EPSILON || pos.head >= pos.lots.length) this.flatten(pos);
    return { slices, closedQty: rest.closedQty, restQty: rest.qty, restGrossMinor: rest.grossMinor, restCostsMinor: rest.costsMinor };
  }

  /** The lot an opening just added to `pos` (its last), for a later claim. */
  lastLot(pos: TaggedPosition): TaggedLot | undefined {
    return pos.lots[pos.lots.length - 1];
  }

  /**
   * Gives up to `qty` units of an open lot of `pos` to trade `node` (an assignment's shares, booked before the option's
   * row): the front of the lot, split off with lots.ts's remainder method when the lot is larger, so FIFO order and the
   * lot's total value are unchanged. Returns the units given, their entry value and costs (null when the lot is gone).
   */
  claim(pos: TaggedPosition, lot: TaggedLot, qty: number, node: number): { qty: number; grossMinor: number; costsMinor: number } | null {
    const at = pos.lots.indexOf(lot, pos.head);
    if (at < 0 || lot.qty <= QTY_EPSILON || lot.node === node) return null;
    const take = Math.min(qty, lot.qty);
    if (take < lot.qty - QTY_EPSILON) {
      const grossMinor = prorate(lot.grossMinor, take, lot.qty);
      const costsMinor = prorate(lot.costsMinor, take, lot.qty);
      pos.lots.splice(at + 1, 0, { qty: lot.qty - take, grossMinor: lot.grossMinor - grossMinor, costsMinor: lot.costsMinor - costsMinor, openDay: lot.openDay, node: lot.node });
      this.countLot(lot.node, 1);
      lot.qty = take;
      lot.grossMinor = grossMinor;
      lot.costsMinor = costsMinor;
    }
    this.countLot(lot.node, -1);
    lot.node = node;
    this.countLot(node, 1);
    return { qty: take, grossMinor: lot.grossMinor, costsMinor: lot.costsMinor };
  }

  /** Long shares of `pos` per trade node (NO_NODE: outside trades), in FIFO order of their first lot: units and cost. */
  sharesByNode(pos: TaggedPosition | undefined): Map<number, { shares: number; costMinor: number }> {
    const byNode = new Map<number, { shares: number; costMinor: number }>();
    if (!pos || pos.isOption || pos.side <= 0) return byNode;
    for (let i = pos.head; i < pos.lots.length; i += 1) {
      const lot = pos.lots[i];
      if (!lot || lot.qty <= QTY_EPSILON) continue;
      const held = byNode.get(lot.node) ?? { shares: 0, costMinor: 0 };
      held.shares += lot.qty;
      held.costMinor += lot.grossMinor + lot.costsMinor;
      byNode.set(lot.node, held);
    }
    return byNode;
  }

  private flatten(pos: TaggedPosition): void {
    for (let i = pos.head; i < pos.lots.length; i += 1) {
      const lot = pos.lots[i];
      if (lot) this.countLot(lot.node, -1);
    }
    if (pos.side !== 0) this.tally(pos, -1, Math.max(pos.qty, 0), this.openValue(pos));
    pos.qty = 0;
    pos.side = 0;
    pos.lots = [];
    pos.head = 0;
  }

  private openValue(pos: TaggedPosition): number {
    let value = 0;
    for (let i = pos.head; i < pos.lots.length; i += 1) {
      const lot = pos.lots[i];
      if (lot) value += lot.grossMinor + lot.costsMinor;
    }
    return value;
  }

  /** Every open lot with its position's key and side: what each trade still holds (trades.ts openParts). */
  *eachOpenLot(): Generator<{ accountId: AccountId; currency: string; symbol: string; side: number; node: number; qty: number; grossMinor: number; costsMinor: number }> {
    for (const [accountId, byCurrency] of this.positions) {
      for (const [currency, bySymbol] of byCurrency) {
        for (const [symbol, pos] of bySymbol) {
          if (pos.side === 0) continue;
          for (let i = pos.head; i < pos.lots.length; i += 1) {
            const lot = pos.lots[i];
            if (lot && lot.qty > QTY_EPSILON) yield { accountId, currency, symbol, side: pos.side, node: lot.node, qty: lot.qty, grossMinor: lot.grossMinor, costsMinor: lot.costsMinor };
          }
        }
      }
    }
  }

  /** The book now, as copies (a checkpoint of the walk). */
  state(): TaggedBookState {
    const open: TaggedBookState['open'] = [];
    this.created.forEach((pos, seen) => {
      if (pos.side === 0) return;
      const lots: TaggedLot[] = [];
      for (let i = pos.head; i < pos.lots.length; i += 1) {
        const lot = pos.lots[i];
        if (lot) lots.push({ ...lot });
      }
      open.push({ seen, side: pos.side, qty: pos.qty, lots });
    });
    const holdings: TaggedBookState['holdings'] = [];
    for (const [accountId, byCurrency] of this.slots) {
      for (const [currency, byUnderlying] of byCurrency) {
        for (const [underlying, held] of byUnderlying) holdings.push({ accountId, currency, underlying, held: { ...held } });
      }
    }
    return { positionsSeen: this.created.length, open, holdings };
  }

  /** Starts from a checkpoint's state: the positions `seen` (a book's `created`) flat in that order, then the open ones. */
  restore(state: TaggedBookState, seen: readonly TaggedPosition[]): void {
    for (const { accountId, currency, underlying, held } of state.holdings) innerMap(innerMap(this.slots, accountId), currency).set(underlying, { ...held });
    for (let n = 0; n < state.positionsSeen; n += 1) {
      const pos = seen[n];
      if (pos !== undefined) this.ofInstrument(pos.accountId, pos.currency, pos);
    }
    for (const { seen: at, side, qty, lots } of state.open) {
      const pos = this.created[at];
      if (pos === undefined) continue;
      pos.side = side;
      pos.qty = qty;
      pos.lots = lots.map((lot) => ({ ...lot }));
      pos.head = 0;
      for (const lot of pos.lots) if (lot.node !== NO_NODE) this.openLots.set(lot.node, (this.openLots.get(lot.node) ?? 0) + 1);
    }
  }

  /** Every open lot × `factor`, each keeping its basis and its trade (lots.ts scale). */
  scale(pos: TaggedPosition, factor: number): void {
    if (pos.qty <= 0) return;
    const newQty = pos.qty * factor;
    if (newQty <= QTY_EPSILON) {
      this.flatten(pos);
      return;
    }
    for (let i = pos.head; i < pos.lots.length; i += 1) {
      const lot = pos.lots[i];
      if (lot) lot.qty *= factor;
    }
    this.tally(pos, 1, newQty - pos.qty, 0);
    pos.qty = newQty;
  }

  /** Basis taken out of an open lot (a merger's cash part, a spin-off's share). */
  takeBasis(pos: TaggedPosition, lot: TaggedLot, grossMinor: number, costsMinor: number): void {
    lot.grossMinor -= grossMinor;
    lot.costsMinor -= costsMinor;
    this.tally(pos, -1, 0, grossMinor + costsMinor);
  }

  /** A long lot added by a corporate action on `openDay`, in the trade `node`; the lots stay in opening order (lots.ts addLot). */
  addLot(pos: TaggedPosition, openDay: string, qty: number, grossMinor: number, costsMinor: number, node: number): void {
    if (pos.qty <= 0) {
      pos.lots = [];
      pos.head = 0;
    }
    this.open(pos, openDay, 1, qty, grossMinor, costsMinor, node);
    const last = pos.lots[pos.lots.length - 2];
    if (last !== undefined && last.openDay > openDay) {
      pos.lots = pos.lots.slice(pos.head);
      pos.head = 0;
      pos.lots.sort((a, b) => (a.openDay < b.openDay ? -1 : a.openDay > b.openDay ? 1 : 0));
    }
  }

  /** The open lots of `from` continue in `to` with their trades, merged by open day (lots.ts moveLots); false when `to` is open on the other side. */
  move(from: TaggedPosition, to: TaggedPosition): boolean {
    if (from === to || from.qty <= 0) return true;
    if (to.qty > 0 && to.side !== from.side) return false;
    const moved = from.lots.slice(from.head);
    const side = from.side;
    const qty = from.qty;
    const value = this.openValue(from);
    this.tally(from, -1, qty, value);
    from.qty = 0;
    from.side = 0;
    from.lots = [];
    from.head = 0;
    to.lots = to.lots.slice(to.head).concat(moved);
    // Array.prototype.sort is stable: lots of the same day keep their FIFO order.
    to.lots.sort((a, b) => (a.openDay < b.openDay ? -1 : a.openDay > b.openDay ? 1 : 0));
    to.head = 0;
    to.side = side;
    to.qty += qty;
    this.tally(to, 1, qty, value);
    return true;
  }
}
