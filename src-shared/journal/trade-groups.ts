/**
 * The trade walk's groups (trade-walk.ts): the nodes (one opening structure each), the groups a roll or a covered call
 * joins them into (union-find, the earlier node the root), the legs each node books, and the covers a call sold
 * against a trade's shares makes. What each row does is trade-rows.ts's; the walk in order trade-walk.ts's.
 */
import type { Transaction } from './model';
import { QTY_EPSILON } from './lots';
import { matchRolls } from './rolls';
import { NO_NODE, TaggedLotBook } from './trade-lots';
import type { TradeLeg } from './records';
import { minContractShares, underlyingOf, type Booked, type Delivery, type Node, type TradeRollLeg, type Unclaimed } from './trade-nodes';

export class TradeGroups {
  readonly lots = new TaggedLotBook();
  readonly nodes: Node[] = [];
  protected readonly parent: number[] = [];
  protected readonly nodeByKey = new Map<string, number>();
  protected readonly beforeByKey = new Map<string, number>();
  protected readonly beforeBySymbol = new Map<string, number>();
  readonly rollLegs: TradeRollLeg[] = [];
  /** Realized P&L of lots outside every trade (shares bought on their own), per row. */
  readonly outsideByTx = new Map<string, number>();
  /** Calls sold against a trade's shares: the node of those shares (joined to it after the walk, as rolls are). */
  readonly joinedTo = new Map<number, number>();
  /** Shares of a node promised to the open calls joined to it, and what each joined call node still covers. */
  protected readonly promised = new Map<number, number>();
  protected readonly covering = new Map<number, number>();
  protected readonly deliveries = new Map<string, Delivery[]>();
  protected readonly unclaimed = new Map<string, Unclaimed[]>();
  protected deliveryDay = '';
  protected seq = 0;
  /** Roll legs already matched (a walk that goes on matches only its own days': linkRolls). */
  protected legsLinked = 0;
  /** While a walk goes on (LiveTrades.extend): the nodes it read or changed, whose trades are assembled again. */
  touched: Set<number> | null = null;

  /** Structure keys with an option fill: shares bought in one of them are part of the trade (a buy-write). */
  constructor(protected readonly optionKeys: Set<string> = new Set()) {}

  /** The node at an index, noted as touched while a walk goes on. */
  protected nodeAt(index: number): Node | undefined {
    this.touched?.add(index);
    return this.nodes[index];
  }

  find(node: number): number {
    let root = node;
    while ((this.parent[root] ?? root) !== root) root = this.parent[root] ?? root;
    let at = node;
    while (at !== root) {
      const next = this.parent[at] ?? root;
      this.parent[at] = root;
      at = next;
    }
    return root;
  }

  /** The earlier trade takes in the later one. */
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra === rb) return;
    if (ra < rb) this.parent[rb] = ra;
    else this.parent[ra] = rb;
  }

  protected createNode(t: Transaction, ms: number, beforeHistory: boolean): number {
    const index = this.nodes.length;
    const held = this.lots.holdings(t.accountId, t.currency, underlyingOf(t));
    this.nodes.push({
      beforeHistory,
      accountId: t.accountId,
      accountName: t.accountName,
      currency: t.currency,
      underlying: underlyingOf(t),
      firstTxId: t.id,
      openMs: ms,
      openedAt: t.tradeDate,
      openDay: t.tradeDay,
      legs: [],
      legSeqs: [],
      entry: new Map(),
      realizedMinor: 0,
      lastClose: null,
      rolls: 0,
      held: { ...held },
      rollCloses: new Set(),
    });
    this.parent.push(index);
    return index;
  }

  /**
   * `booked`: the units' value (unsigned) and costs as the lots booked them, `dir` the row's (+1 buy, −1 sell); `seq` the
   * row's place in the walk (an earlier row's, for shares an assignment claims after their stock row).
   */
  protected addLeg(index: number, t: Transaction, ms: number, role: TradeLeg['role'], quantity: number, realizedMinor: number | null, dir: number, booked: Booked, seq = this.seq): void {
    const node = this.nodeAt(index);
    if (!node) return;
    const cashMinor = (dir === 0 ? 0 : -dir * booked.grossMinor) - booked.costsMinor;
    const last = node.legs[node.legs.length - 1];
    if (last && node.legSeqs[node.legSeqs.length - 1] === seq && last.role === role && last.txId === t.id) {
      last.quantity += quantity;
      last.cashMinor += cashMinor;
      last.costsMinor += booked.costsMinor;
      if (last.realizedMinor !== null && realizedMinor !== null) last.realizedMinor += realizedMinor;
    } else {
      const leg: TradeLeg = { txId: t.id, type: t.type, symbol: t.symbol, isOption: t.isOption, tradeDate: t.tradeDate, day: t.tradeDay, role, quantity, realizedMinor, cashMinor, costsMinor: booked.costsMinor, roll: 0 };
      let at = node.legs.length;
      while (at > 0 && (node.legSeqs[at - 1] ?? 0) > seq) at -= 1;
      node.legs.splice(at, 0, leg);
      node.legSeqs.splice(at, 0, seq);
    }
    if (role === 'close') {
      if (realizedMinor !== null) node.realizedMinor += realizedMinor;
      if (node.lastClose) {
        node.lastClose.ms = ms;
        node.lastClose.at = t.tradeDate;
        node.lastClose.day = t.tradeDay;
      } else {
        node.lastClose = { ms, at: t.tradeDate, day: t.tradeDay };
      }
    }
  }

  /**
   * A structure of short calls only, sold while a trade holds shares that no call of its own covers yet: the calls are
   * sold against those shares and join that trade (the wheel's covered calls stay in the assigned put's trade). The
   * trade whose shares came first is taken (its shares, not promised to its other calls, are counted until they cover).
   */
  protected considerCover(index: number, node: Node): void {
    let callShares = 0;
    for (const leg of node.entry.values()) {
      if (!leg.isOption || leg.side > 0 || leg.right !== 'C') {
        const target = this.joinedTo.get(index);
        if (target !== undefined) {
          this.promised.set(target, (this.promised.get(target) ?? 0) - (this.covering.get(index) ?? 0));
          this.covering.delete(index);
          this.joinedTo.delete(index);
        }
        return;
      }
      callShares += leg.quantity * leg.multiplier;
    }
    const stock = this.lots.find(node.accountId, node.currency, node.underlying);
    const held = this.lots.sharesByNode(stock);
    const joined = this.joinedTo.get(index);
    const candidates = joined === undefined ? [...held.keys()] : [joined];
    for (const target of candidates) {
      const shares = held.get(target);
      if (target === NO_NODE || target === index || !shares || shares.shares <= QTY_EPSILON) continue;
      const already = this.covering.get(index) ?? 0;
      const free = shares.shares - (this.promised.get(target) ?? 0);
      const add = Math.min(callShares - already, Math.max(free, 0));
      if (joined === undefined && add < Math.min(callShares, minContractShares(node)) - QTY_EPSILON) continue;
      this.joinedTo.set(index, target);
      this.promised.set(target, (this.promised.get(target) ?? 0) + add);
      this.covering.set(index, already + add);
      return;
    }
  }

  /** Shares a joined call node's closed contracts no longer promise. */
  protected release(index: number, shares: number): void {
    const target = this.joinedTo.get(index);
    const covering = this.covering.get(index);
    if (target === undefined || covering === undefined) return;
    const freed = Math.min(covering, shares);
    this.covering.set(index, covering - freed);
    this.promised.set(target, (this.promised.get(target) ?? 0) - freed);
  }

  /**
   * After the walk: a roll joins its new leg's trade to the replaced leg's and counts on the replaced leg's node. A
   * pair linked only by its day joins when the new leg came at or after the close (a date-only export's rows share
   * one instant): an opening earlier that day, while the old leg was still on, started a trade of its own.
   */
  linkRolls(): void {
    // Legs pair within a day (matchRolls): a walk that goes on brings only later days, whose legs are matched alone.
    const legs = this.legsLinked === 0 ? this.rollLegs : this.rollLegs.slice(this.legsLinked);
    this.legsLinked = this.rollLegs.length;
    matchRolls(legs, (close, open, linkedBy) => {
      if (close.node === NO_NODE || open.node === NO_NODE || (linkedBy === 'day' && open.ms < close.ms)) return;
      const node = this.nodeAt(close.node);
      if (node) {
        node.rolls += 1;
        node.rollCloses.add(`${close.symbol}\u0000${close.day}`);
      }
      this.union(close.node, open.node);
    });
  }

  /** After the walk: calls sold against a trade's shares join that trade (considerCover). */
  linkCovers(): void {
    for (const [index, target] of this.joinedTo) this.union(target, index);
  }
}
