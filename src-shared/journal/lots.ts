/**
 * Lots: FIFO per account × instrument × currency. Realized P&L is booked on each closing fill, net of the
 * commissions and fees of both legs, entry costs prorated on partial exits. Money is integer minor units.
 * Conventions: docs/journal.md §Lots and realized P&L.
 */
import { storedTicker, type AccountId } from '../ids';
import { innerMap } from '../maps';
import type { PositionInstrument, Transaction } from './model';
import { QTY_EPSILON, type CampaignSlot, type Lot, type OpenPosition, type Position } from './records';

export { QTY_EPSILON };
export type { Lot, OpenPosition, Position };

/** Where FIFO matching books the realized P&L of each lot it closes. */
export interface RealizedSink {
  bookRealized(pos: Position, day: string, pnlMinor: number, shortLot: boolean): void;
}

/** What is left of an exit after FIFO matching, and how much of it closed lots. */
export interface FifoRest {
  qty: number;
  grossMinor: number;
  costsMinor: number;
  closedQty: number;
}

/** Takes `part` out of a (qty, amount) pool so that the pieces always add up to the whole exactly. */
export function prorate(amountMinor: number, part: number, whole: number): number {
  if (part >= whole - QTY_EPSILON) return amountMinor;
  return Math.round((amountMinor * part) / whole);
}

/** One FIFO slice of a close: the lot's and the exit's shares of `take` units, and the slice's realized P&L. */
export interface FifoSlice {
  entryGross: number;
  entryCosts: number;
  exitGross: number;
  exitCosts: number;
  pnlMinor: number;
}

/**
 * `take` units of `lot` closed against what is left of an exit (`restQty` units for `restGrossMinor`, unsigned, and
 * `restCostsMinor`), on a position of `side`: net of the costs of both legs, each prorated.
 */
export function fifoSlice(lot: Pick<Lot, 'qty' | 'grossMinor' | 'costsMinor'>, side: number, take: number, restQty: number, restGrossMinor: number, restCostsMinor: number): FifoSlice {
  const entryGross = prorate(lot.grossMinor, take, lot.qty);
  const entryCosts = prorate(lot.costsMinor, take, lot.qty);
  const exitGross = prorate(restGrossMinor, take, restQty);
  const exitCosts = prorate(restCostsMinor, take, restQty);
  return { entryGross, entryCosts, exitGross, exitCosts, pnlMinor: (side > 0 ? exitGross - entryGross : entryGross - exitGross) - entryCosts - exitCosts };
}

/** What FIFO matching walks: a position's lots, the first still open at `head`, all on one `side`. */
export interface FifoLots<L extends Pick<Lot, 'qty' | 'grossMinor' | 'costsMinor'>> {
  side: number;
  lots: L[];
  head: number;
}

/**
 * Closes up to `qty` of `pos`'s lots FIFO against an exit of `exitGrossMinor` (unsigned) and `exitCostsMinor`: each lot
 * taken is reduced by its slice, then handed to `onSlice` (the ledger books the slice's P&L, the trade grouping credits
 * the lot's trade); `head` moves past an emptied lot. Returns what is left of the exit. The ledger and the trade grouping
 * share this walk so that their P&L agree slice for slice.
 */
export function closeLotsFifo<L extends Pick<Lot, 'qty' | 'grossMinor' | 'costsMinor'>>(
  pos: FifoLots<L>,
  qty: number,
  exitGrossMinor: number,
  exitCostsMinor: number,
  onSlice: (lot: L, take: number, slice: FifoSlice) => void,
): FifoRest {
  let remQty = qty;
  let remGross = exitGrossMinor;
  let remCosts = exitCostsMinor;
  let closedQty = 0;
  const side = pos.side;
  while (remQty > QTY_EPSILON && pos.head < pos.lots.length) {
    const lot = pos.lots[pos.head];
    if (!lot) break;
    const take = Math.min(lot.qty, remQty);
    const slice = fifoSlice(lot, side, take, remQty, remGross, remCosts);
    lot.qty -= take;
    lot.grossMinor -= slice.entryGross;
    lot.costsMinor -= slice.entryCosts;
    remQty -= take;
    remGross -= slice.exitGross;
    remCosts -= slice.exitCosts;
    closedQty += take;
    if (lot.qty <= QTY_EPSILON) pos.head += 1;
    onSlice(lot, take, slice);
  }
  return { qty: remQty > QTY_EPSILON ? remQty : 0, grossMinor: remGross, costsMinor: remCosts, closedQty };
}

/**
 * The value of a fill as the broker booked it: the cash plus the costs of a sell, minus the cash less the
 * costs of a buy. The per-share price alone is rounded to 4 decimals and loses cents on a large fill (853.81
 * over 300 shares is 2.846033 a share); the booked value is exact, so a flat-to-flat campaign's realized P&L
 * equals its cash to the cent. When a row's cash does not match its price (an importer without amounts, a
 * hand-written row), the price × quantity × multiplier value is used.
 */
export function tradeValueMinor(t: Transaction, dir: number, qty: number, costsMinor: number): number {
  const fromPrice = Math.round(Math.abs(t.priceMinor) * qty * t.multiplier);
  const fromCash = dir < 0 ? t.amountMinor + costsMinor : -t.amountMinor - costsMinor;
  // The price's own rounding (half a minor unit per share), plus one cent: brokers round the net Total on
  // its own (tastytrade books −247.53 for a −247.52 fill with 0.02 of fees), and the cash is what reconciles.
  const tolerance = Math.ceil(0.5 * qty * t.multiplier) + 100;
  return fromCash > 0 && Math.abs(fromCash - fromPrice) <= tolerance ? fromCash : fromPrice;
}

/**
 * What the lots tell the campaigns (campaigns.ts's CampaignBook is the one): the slot a new position joins, and each
 * change of a slot's holdings. The lots report to it and know no campaign: the campaigns stand above them.
 */
export interface SlotSink {
  /** The slot of (account, key, currency), made when new. */
  slot(accountId: AccountId, key: string, currency: string): CampaignSlot;
  /** The slot's holdings changed (a position opened, grew, shrank or closed). */
  touch(slot: CampaignSlot): void;
  /** A lot opens in the slot on `day`: a campaign left open past its expiry moves to a slot of its own first. */
  strandExpired(slot: CampaignSlot, day: string): void;
  /** The slot trades on `day`: its campaign is the current one, opened when none is. */
  active(slot: CampaignSlot, day: string): unknown;
}

/** The positions of a ledger being built: account → currency → symbol, each in the campaign slot of its underlying. */
export class PositionBook {
  private readonly positions = new Map<AccountId, Map<string, Map<string, Position>>>();
  /** Every position in the order it was first seen (a resumed ledger sees the same ones first again: seeFirst). */
  readonly created: Position[] = [];

  constructor(private readonly campaigns: SlotSink) {}

  find(accountId: AccountId, symbol: string, currency: string): Position | undefined {
    return this.positions.get(accountId)?.get(currency)?.get(symbol);
  }

  *all(): Generator<Position> {
    for (const byCurrency of this.positions.values()) {
      for (const bySymbol of byCurrency.values()) yield* bySymbol.values();
    }
  }

  /** The position of the row's instrument, flat when new. */
  of(t: Transaction): Position {
    return this.ofInstrument(t.accountId, t.currency, t);
  }

  /** The position of an instrument in an account and currency, flat when new (a corporate action's new symbol). */
  ofInstrument(accountId: AccountId, currency: string, instrument: Pick<PositionInstrument, 'symbol' | 'underlying' | 'isOption' | 'expiration' | 'strike' | 'right' | 'multiplier'>): Position {
    const bySymbol = innerMap(innerMap(this.positions, accountId), currency);
    let pos = bySymbol.get(instrument.symbol);
    if (!pos) {
      const underlying = instrument.underlying !== '' ? instrument.underlying : storedTicker(instrument.symbol);
      pos = {
        accountId,
        symbol: instrument.symbol,
        underlying,
        currency,
        isOption: instrument.isOption,
        right: instrument.right,
        expiration: instrument.expiration,
        strike: instrument.strike,
        multiplier: instrument.multiplier > 0 ? instrument.multiplier : 1,
        side: 0,
        qty: 0,
        lots: [],
        head: 0,
        openCostMinor: 0,
        slot: this.campaigns.slot(accountId, underlying, currency),
      };
      bySymbol.set(instrument.symbol, pos);
      this.created.push(pos);
    }
    return pos;
  }

  /** The open positions of an account in every currency: the shares of `symbol` and the options on it. */
  heldOf(accountId: AccountId, symbol: string): Position[] {
    const held: Position[] = [];
    for (const bySymbol of this.positions.get(accountId)?.values() ?? []) {
      for (const pos of bySymbol.values()) {
        if (pos.qty > 0 && (pos.isOption ? pos.underlying === symbol : pos.symbol === symbol)) held.push(pos);
      }
    }
    return held;
  }

  setQty(pos: Position, qty: number): void {
    const wasOpen = pos.qty > QTY_EPSILON;
    pos.qty = qty < QTY_EPSILON ? 0 : qty;
    const isOpen = pos.qty > 0;
    if (!isOpen) {
      pos.side = 0;
      pos.lots = [];
      pos.head = 0;
      pos.openCostMinor = 0;
    }
    if (wasOpen !== isOpen) {
      pos.slot.openPositions += isOpen ? 1 : -1;
      if (isOpen) pos.slot.members.add(pos);
      else pos.slot.members.delete(pos);
    }
    this.campaigns.touch(pos.slot);
  }

  /**
   * Closes up to `qty` of the position FIFO on `day` against an exit of `exitGrossMinor` (unsigned) and
   * `exitCostsMinor`, booking each lot's realized P&L in `sink`; returns what is left of the exit.
   */
  closeFifo(pos: Position, day: string, qty: number, exitGrossMinor: number, exitCostsMinor: number, sink: RealizedSink): FifoRest {
    const shortLot = pos.side < 0;
    const rest = closeLotsFifo(pos, qty, exitGrossMinor, exitCostsMinor, (_lot, _take, slice) => {
      sink.bookRealized(pos, day, slice.pnlMinor, shortLot);
      pos.openCostMinor -= slice.entryGross + slice.entryCosts;
    });
    if (rest.closedQty > 0) this.setQty(pos, pos.qty - rest.closedQty);
    return rest;
  }

  openLot(pos: Position, day: string, side: number, qty: number, grossMinor: number, costsMinor: number): void {
    // A flat position left in a campaign's own slot (its expiry unknown) opens in its underlying's slot again.
    if (pos.qty <= 0 && pos.slot.key !== pos.slot.underlying) pos.slot = this.campaigns.slot(pos.accountId, pos.slot.underlying, pos.currency);
    this.campaigns.strandExpired(pos.slot, day);
    this.campaigns.active(pos.slot, day);
    pos.side = side;
    pos.lots.push({ qty, grossMinor, costsMinor, openDay: day });
    pos.openCostMinor += grossMinor + costsMinor;
    this.setQty(pos, pos.qty + qty);
  }

  /** Every open lot × `factor`, each keeping its basis (a split; 0: the position is gone). */
  scale(pos: Position, factor: number): void {
    if (pos.qty <= 0) return;
    const newQty = pos.qty * factor;
    if (newQty <= QTY_EPSILON) {
      this.setQty(pos, 0);
      return;
    }
    for (let i = pos.head; i < pos.lots.length; i += 1) {
      const lot = pos.lots[i];
      if (lot) lot.qty *= factor;
    }
    this.setQty(pos, newQty);
  }

  /** Basis taken out of an open lot (a merger's cash part, a spin-off's share). */
  takeBasis(pos: Position, lot: Lot, grossMinor: number, costsMinor: number): void {
    lot.grossMinor -= grossMinor;
    lot.costsMinor -= costsMinor;
    pos.openCostMinor -= grossMinor + costsMinor;
  }

  /**
   * A long lot added by a corporate action: opened on `openDay` (a spin-off's keeps its parent lot's), in the campaign
   * active on `day`; the lots stay in opening order.
   */
  addLot(pos: Position, day: string, openDay: string, qty: number, grossMinor: number, costsMinor: number): void {
    this.campaigns.active(pos.slot, day);
    if (pos.qty <= 0) {
      pos.lots = [];
      pos.head = 0;
    }
    pos.side = 1;
    pos.lots.push({ qty, grossMinor, costsMinor, openDay });
    const last = pos.lots[pos.lots.length - 2];
    if (last !== undefined && last.openDay > openDay) {
      // Array.prototype.sort is stable: lots of the same day keep their FIFO order.
      pos.lots = pos.lots.slice(pos.head);
      pos.head = 0;
      pos.lots.sort((a, b) => (a.openDay < b.openDay ? -1 : a.openDay > b.openDay ? 1 : 0));
    }
    pos.openCostMinor += grossMinor + costsMinor;
    this.setQty(pos, pos.qty + qty);
  }

  /** The open lots of `from` continue in `to`, merged by open day (FIFO order kept within a day). */
  moveLots(from: Position, to: Position): void {
    const movedQty = from.qty;
    const movedSide = from.side;
    const moved = from.lots.slice(from.head);
    const movedCostMinor = from.openCostMinor;
    this.setQty(from, 0);
    to.openCostMinor += movedCostMinor;
    // Array.prototype.sort is stable: lots of the same day keep their FIFO order.
    to.lots = to.lots.slice(to.head).concat(moved);
    to.lots.sort((a, b) => (a.openDay < b.openDay ? -1 : a.openDay > b.openDay ? 1 : 0));
    to.head = 0;
    to.side = movedSide;
    this.setQty(to, to.qty + movedQty);
  }

  /**
   * Positions a build had seen before a checkpoint, flat, in the order it first saw them (a resumed ledger: the book's
   * order, which the open positions and the checkpoints list, is the one a build from the first row makes).
   */
  seeFirst(positions: readonly Position[]): void {
    for (const pos of positions) this.ofInstrument(pos.accountId, pos.currency, pos);
  }

  /** A position restored from a checkpoint, open in its slot. */
  adopt(pos: Position): void {
    const bySymbol = innerMap(innerMap(this.positions, pos.accountId), pos.currency);
    const seen = bySymbol.get(pos.symbol);
    if (seen === undefined) this.created.push(pos);
    else this.created[this.created.indexOf(seen)] = pos;
    bySymbol.set(pos.symbol, pos);
    pos.slot.openPositions += 1;
    pos.slot.members.add(pos);
  }

  /** Every open position with the entry value and costs of its open lots. */
  open(): OpenPosition[] {
    const positions: OpenPosition[] = [];
    for (const pos of this.all()) {
      if (pos.qty <= 0) continue;
      let entryGrossMinor = 0;
      let entryCostsMinor = 0;
      let openedDay = '';
      for (let i = pos.head; i < pos.lots.length; i += 1) {
        const lot = pos.lots[i];
        if (!lot) continue;
        entryGrossMinor += lot.grossMinor;
        entryCostsMinor += lot.costsMinor;
        if (openedDay === '' || lot.openDay < openedDay) openedDay = lot.openDay;
      }
      positions.push({
        accountId: pos.accountId,
        symbol: pos.symbol,
        underlying: pos.underlying,
        currency: pos.currency,
        isOption: pos.isOption,
        expiration: pos.expiration,
        strike: pos.strike,
        right: pos.right,
        multiplier: pos.multiplier,
        campaignId: pos.slot.current?.id ?? null,
        quantity: pos.side * pos.qty,
        entryGrossMinor,
        entryCostsMinor,
        openedDay,
      });
    }
    return positions;
  }
}

