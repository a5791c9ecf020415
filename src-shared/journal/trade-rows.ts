/**
 * What each row does to the trade walk (trade-walk.ts): a fill closes lots (booked to their trades) and opens a node's,
 * or books units opened before the history; a settlement closes an option and moves the shares it delivers; a
 * corporate action adjusts the lots as the ledger does (corporate-actions.ts). The nodes and groups are trade-groups.ts's.
 */
import type { Transaction } from './model';
import { BUYS, CLOSING } from './order';
import { prorate, QTY_EPSILON, tradeValueMinor } from './lots';
import { CorporateActionWalk, type ActionBook } from './corporate-actions';
import { addRollLegs } from './rolls';
import { NO_NODE, type ClosedSlice, type TaggedLot, type TaggedPosition } from './trade-lots';
import { MINOR_PER_UNIT } from '../money';
import { TradeGroups } from './trade-groups';
import { addToStructure, atStrike, impliedSide, slotKey, structureKey, underlyingOf, type Booked } from './trade-nodes';

export class TradeRows extends TradeGroups {
  /** Units a close took from lots: each slice's P&L to the trade of its lot. Returns the trade of the first (NO_NODE without one). */
  protected booked(t: Transaction, ms: number, dir: number, slices: readonly ClosedSlice[], pos: TaggedPosition): number {
    let first = NO_NODE;
    for (const slice of slices) {
      if (slice.node === NO_NODE) {
        this.outsideByTx.set(t.id, (this.outsideByTx.get(t.id) ?? 0) + slice.pnlMinor);
        continue;
      }
      if (pos.isOption) this.release(slice.node, slice.qty * pos.multiplier);
      this.addLeg(slice.node, t, ms, 'close', slice.qty, slice.pnlMinor, dir, { grossMinor: slice.exitGrossMinor, costsMinor: slice.exitCostsMinor });
      if (first === NO_NODE) first = slice.node;
    }
    return first;
  }

  /**
   * Units closed with no open lot: an option's go to the trade opened before history that already holds that contract,
   * else to the one of the same order (minute), else to a new one. Its structure is what the closes imply was open.
   */
  protected beforeHistory(t: Transaction, ms: number, key: string, quantity: number, dir: number, booked: Booked): void {
    if (!t.isOption) return;
    const symbolKey = `${t.accountId}\u0000${t.currency}\u0000${t.symbol}`;
    let index = this.beforeBySymbol.get(symbolKey) ?? this.beforeByKey.get(key);
    if (index === undefined) index = this.createNode(t, ms, true);
    this.beforeBySymbol.set(symbolKey, index);
    this.beforeByKey.set(key, index);
    this.addLeg(index, t, ms, 'close', quantity, null, dir, booked);
    const node = this.nodeAt(index);
    if (node) addToStructure(node, t, impliedSide(t.type), quantity, 0, 0, t.multiplier > 0 ? t.multiplier : 1);
  }

  protected opening(t: Transaction, ms: number, key: string, pos: TaggedPosition, dir: number, qty: number, grossMinor: number, costsMinor: number): number {
    if (!t.isOption && !this.optionKeys.has(key)) {
      this.sharesOutside(t, ms, pos, dir, qty, grossMinor, costsMinor);
      return NO_NODE;
    }
    const index = this.nodeByKey.get(key) ?? this.createNode(t, ms, false);
    this.nodeByKey.set(key, index);
    this.lots.open(pos, t.tradeDay, dir, qty, grossMinor, costsMinor, index);
    const node = this.nodeAt(index);
    if (!node) return index;
    this.addLeg(index, t, ms, 'entry', qty, null, dir, { grossMinor, costsMinor });
    addToStructure(node, t, dir, qty, grossMinor, costsMinor, pos.multiplier);
    if (t.isOption) this.considerCover(index, node);
    return index;
  }

  /**
   * Shares opened by a row of no option order: those an assignment or exercise of a trade's option delivered (at its
   * strike, that day) join that trade; the rest belong to no trade, and stay claimable for the day (their row may come
   * before the option's).
   */
  protected sharesOutside(t: Transaction, ms: number, pos: TaggedPosition, dir: number, qty: number, grossMinor: number, costsMinor: number): void {
    let restQty = qty;
    let restGrossMinor = grossMinor;
    let restCostsMinor = costsMinor;
    for (const delivery of this.deliveries.get(slotKey(t)) ?? []) {
      if (restQty <= QTY_EPSILON) break;
      if (delivery.dir !== dir || delivery.shares <= QTY_EPSILON || !atStrike(t, delivery.priceMinor)) continue;
      const take = Math.min(delivery.shares, restQty);
      const pieceGross = prorate(restGrossMinor, take, restQty);
      const pieceCosts = prorate(restCostsMinor, take, restQty);
      this.lots.open(pos, t.tradeDay, dir, take, pieceGross, pieceCosts, delivery.node);
      this.addLeg(delivery.node, t, ms, 'open', take, null, dir, { grossMinor: pieceGross, costsMinor: pieceCosts });
      delivery.shares -= take;
      restQty -= take;
      restGrossMinor -= pieceGross;
      restCostsMinor -= pieceCosts;
    }
    if (restQty <= QTY_EPSILON) return;
    this.lots.open(pos, t.tradeDay, dir, restQty, restGrossMinor, restCostsMinor, NO_NODE);
    const lot = this.lots.lastLot(pos);
    if (!lot) return;
    const key = slotKey(t);
    const list = this.unclaimed.get(key) ?? [];
    list.push({ t, ms, seq: this.seq, pos, lot, dir });
    this.unclaimed.set(key, list);
  }

  /**
   * An assignment or exercise of `node`'s option moves `shares` (`dir` +1 in, −1 out) at the strike: shares its stock row
   * already opened outside any trade that day join the node; the rest wait for their row (sharesOutside). Shares it
   * takes out close lots, whose trades decide.
   */
  protected deliver(t: Transaction, node: number, dir: number, shares: number, priceMinor: number): void {
    let rest = shares;
    for (const entry of this.unclaimed.get(slotKey(t)) ?? []) {
      if (rest <= QTY_EPSILON) break;
      if (entry.dir !== dir || entry.lot.node !== NO_NODE || !atStrike(entry.t, priceMinor)) continue;
      const lots = entry.pos.lots;
      const at = lots.indexOf(entry.lot, entry.pos.head);
      const claimed = this.lots.claim(entry.pos, entry.lot, rest, node);
      if (claimed === null) continue;
      this.addLeg(node, entry.t, entry.ms, 'open', claimed.qty, null, dir, claimed, entry.seq);
      rest -= claimed.qty;
      // The lot was split: what is left of the row stays claimable.
      const remainder = lots[at + 1];
      if (remainder && remainder.node === NO_NODE && remainder !== entry.lot) entry.lot = remainder;
    }
    if (rest <= QTY_EPSILON) return;
    const key = slotKey(t);
    const list = this.deliveries.get(key) ?? [];
    list.push({ node, dir, shares: rest, priceMinor });
    this.deliveries.set(key, list);
  }

  fill(t: Transaction, ms: number, key: string): void {
    const pos = this.lots.of(t, underlyingOf(t));
    // The ledger's reading of the types (ledger.ts trade): a BUY_TO_COVER buys, and closes only.
    const dir = BUYS.has(t.type) ? 1 : -1;
    const qty = Math.abs(t.quantity);
    const costsMinor = Math.abs(t.commissionMinor) + Math.abs(t.feesMinor);
    const grossMinor = tradeValueMinor(t, dir, qty, costsMinor);
    const wasSide = pos.side;
    let restQty = qty;
    let restGrossMinor = grossMinor;
    let restCostsMinor = costsMinor;
    let closedQty = 0;
    let closeNode = NO_NODE;
    if (pos.qty > 0 && pos.side === -dir) {
      const closed = this.lots.close(pos, qty, grossMinor, costsMinor);
      closeNode = this.booked(t, ms, dir, closed.slices, pos);
      closedQty = closed.closedQty;
      restQty = closed.restQty;
      restGrossMinor = closed.restGrossMinor;
      restCostsMinor = closed.restCostsMinor;
    }
    let openedNode = NO_NODE;
    let openedQty = 0;
    let openedGrossMinor = 0;
    if (restQty > 0) {
      // A close, or a sale of shares not held, never opens the opposite position (DESIGN §A trader's real history).
      const closesOnly = CLOSING.has(t.type) || (!t.isOption && t.type === 'SELL');
      if (closesOnly) {
        this.beforeHistory(t, ms, key, restQty, dir, { grossMinor: restGrossMinor, costsMinor: restCostsMinor });
      } else {
        openedNode = this.opening(t, ms, key, pos, dir, restQty, restGrossMinor, restCostsMinor);
        openedQty = restQty;
        openedGrossMinor = restGrossMinor;
      }
    }
    if (t.isOption && t.right) {
      const from = this.rollLegs.length;
      addRollLegs(this.rollLegs, t, underlyingOf(t), t.right, { dir, qty, grossMinor, wasSide, closedQty, openedQty, openedGrossMinor });
      // The legs just added (as the ledger makes them) learn their trade (a close: the trade of the first lot it took)
      // and their instant, in place: one object per leg over a 100k-row journal.
      for (let i = from; i < this.rollLegs.length; i += 1) {
        const leg = this.rollLegs[i];
        if (leg) Object.assign(leg, { node: leg.kind === 'close' ? closeNode : openedNode, ms });
      }
    }
  }

  /** EXPIRATION, ASSIGNMENT, EXERCISE of an option: its lots close at 0 (quantity 0 is the whole position). */
  settle(t: Transaction, ms: number): void {
    const costsMinor = Math.abs(t.commissionMinor) + Math.abs(t.feesMinor);
    if (!t.isOption) {
      // A stock-side settlement row closes no lot; the ledger books its costs as stock P&L, outside any trade.
      if (costsMinor !== 0) this.outsideByTx.set(t.id, (this.outsideByTx.get(t.id) ?? 0) - costsMinor);
      return;
    }
    const pos = this.lots.of(t, underlyingOf(t));
    const qty = Math.abs(t.quantity);
    const wanted = qty > 0 ? qty : pos.qty;
    const side = pos.side;
    let closedQty = 0;
    if (pos.qty > 0) {
      const closed = this.lots.close(pos, Math.min(wanted, pos.qty), 0, costsMinor);
      this.booked(t, ms, 0, closed.slices, pos);
      closedQty = closed.closedQty;
      if ((t.type === 'ASSIGNMENT' || t.type === 'EXERCISE') && t.strike !== null && t.right !== null) {
        // A short put assigned or a long call exercised brings the shares in; a short call or a long put takes them out.
        const dir = (t.right === 'P') === side < 0 ? 1 : -1;
        const priceMinor = Math.round(t.strike * MINOR_PER_UNIT);
        for (const slice of closed.slices) if (slice.node !== NO_NODE) this.deliver(t, slice.node, dir, slice.qty * pos.multiplier, priceMinor);
      }
    }
    // The row's costs went to the units that were open (lots.close above); without any, to the unmatched ones.
    if (wanted - closedQty > QTY_EPSILON || wanted === 0) this.beforeHistory(t, ms, structureKey(t, ms), Math.max(0, wanted - closedQty), 0, { grossMinor: 0, costsMinor: closedQty > 0 ? 0 : costsMinor });
  }

  /** Corporate actions on these lots, as the ledger applies them to its own (corporate-actions.ts). */
  protected readonly actions = new CorporateActionWalk(this.actionBook());
  /** The corporate action being applied: where its P&L goes. */
  protected actionRow: { t: Transaction; ms: number } | null = null;

  /** The trade walk's lots as a corporate action changes them: a lot's P&L goes to its trade, as a close's does. */
  protected actionBook(): ActionBook<TaggedLot, TaggedPosition> {
    const lots = this.lots;
    const outside = (pnlMinor: number) => {
      const row = this.actionRow;
      if (row !== null && pnlMinor !== 0) this.outsideByTx.set(row.t.id, (this.outsideByTx.get(row.t.id) ?? 0) + pnlMinor);
    };
    return {
      heldOf: (accountId, symbol) => lots.heldOf(accountId, symbol),
      find: (accountId, currency, symbol) => lots.find(accountId, currency, symbol),
      positionOf: (accountId, currency, instrument) => lots.ofInstrument(accountId, currency, instrument),
      scale: (pos, factor) => lots.scale(pos, factor),
      move: (from, to) => lots.move(from, to),
      sell: (pos, qty, exitGrossMinor) => {
        const row = this.actionRow;
        const closed = lots.close(pos, qty, exitGrossMinor, 0);
        if (row !== null) this.booked(row.t, row.ms, -1, closed.slices, pos);
      },
      takeBasis: (pos, lot, grossMinor, costsMinor, pnlMinor) => {
        lots.takeBasis(pos, lot, grossMinor, costsMinor);
        const row = this.actionRow;
        if (pnlMinor === 0 || row === null) return;
        if (lot.node === NO_NODE) outside(pnlMinor);
        else this.addLeg(lot.node, row.t, row.ms, 'close', 0, pnlMinor, -1, { grossMinor: pnlMinor + grossMinor + costsMinor, costsMinor: 0 });
      },
      addLot: (pos, openDay, qty, grossMinor, costsMinor, from) => lots.addLot(pos, openDay, qty, grossMinor, costsMinor, from?.node ?? NO_NODE),
      realize: (_pos, pnlMinor) => outside(pnlMinor),
      rename: () => undefined,
    };
  }

  /** SPLIT / SYMBOL_CHANGE: a corporate action; the lots keep their trades. */
  corporateAction(t: Transaction, ms: number): void {
    this.actionRow = { t, ms };
    this.actions.apply(t);
    this.actionRow = null;
  }

  /** One row; `key` is its structure key (fills only). */
  row(t: Transaction, ms: number, key: string | undefined): void {
    this.seq += 1;
    if (t.tradeDay !== this.deliveryDay) {
      // An assignment's stock row comes the same day as the option's: what waited is forgotten at the day's end.
      this.deliveryDay = t.tradeDay;
      this.deliveries.clear();
      this.unclaimed.clear();
    }
    if (key !== undefined) this.fill(t, ms, key);
    else if (t.type === 'EXPIRATION' || t.type === 'ASSIGNMENT' || t.type === 'EXERCISE') this.settle(t, ms);
    else if (t.type === 'SPLIT' || t.type === 'SYMBOL_CHANGE') this.corporateAction(t, ms);
  }
}
