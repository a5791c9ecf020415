/**
 * The walk behind the trades (docs/journal.md §Trades and strategies): the rows in the ledger's order, through lots
 * that remember their trade (trade-lots.ts). Each opening structure is a node; a roll joins the new leg's node to the
 * replaced leg's (union-find, the earlier node the root); closes with no open lot go to nodes "opened before
 * history". trades.ts turns the nodes into trades.
 */
import { asTicker, type AccountId, type Ticker } from '../ids';
import { FILLS, type Transaction, type TransactionType } from './model';
import { BUYS, CLOSING, instantMs, rowOrder } from './order';
import { prorate, QTY_EPSILON, tradeValueMinor } from './lots';
import { CorporateActionWalk, type ActionBook } from './corporate-actions';
import { addRollLegs, matchRolls, type RollLeg } from './rolls';
import { markNotApart } from './ledger';
import type { StructureLeg } from './strategies';
import { NO_NODE, TaggedLotBook, type ClosedSlice, type SlotHoldings, type TaggedBookState, type TaggedLot, type TaggedPosition } from './trade-lots';
import type { TradeLeg } from './records';
import { MINOR_PER_UNIT } from '../money';

export interface Node {
  beforeHistory: boolean;
  accountId: AccountId;
  accountName: string;
  currency: string;
  underlying: Ticker;
  firstTxId: string;
  openMs: number;
  openedAt: string;
  openDay: string;
  legs: TradeLeg[];
  /** Each leg's place in the walk (merging the legs of trades rolled into one keeps the walk's order). */
  legSeqs: number[];
  /** The first structure, by symbol and side. */
  entry: Map<string, StructureLeg>;
  realizedMinor: number;
  lastClose: { ms: number; at: string; day: string } | null;
  rolls: number;
  /** What the account held of the underlying just before the trade opened. */
  held: SlotHoldings;
  /** The closes that were a roll's old leg (symbol and day): their debit counts against the trade's max profit. */
  rollCloses: Set<string>;
}

/** Shares an assignment or exercise of a trade's option moves, waiting for their stock row (same account, underlying and day). */
interface Delivery {
  node: number;
  /** +1 shares received (a put assigned, a call exercised), −1 delivered. */
  dir: number;
  shares: number;
  /** The strike, in minor units: the stock row's price. */
  priceMinor: number;
}

/** Shares a stock row opened outside any trade on a day, which an assignment later that day may claim (a file that lists the stock leg first). */
interface Unclaimed {
  t: Transaction;
  ms: number;
  seq: number;
  pos: TaggedPosition;
  lot: TaggedLot;
  dir: number;
}

/** What a row's units were booked at: their value (unsigned) and costs. */
interface Booked {
  grossMinor: number;
  costsMinor: number;
}

/**
 * The walk between two days (docs/journal.md §Staying current): what a walk resumed there needs of what came before. A
 * node that holds no open lot and opened no trade before history never changes again (its trade is the one assembled
 * before); the others ("live") keep their figures and how many legs and roll closes they had (those only grow: the
 * first ones of the node as the walk goes on are the ones it had then), their group's root, and a before-history
 * node its structure. The lots as copies; the maps that only grow as counts.
 */
export interface WalkCheckpoint {
  /** Rows walked before it; the first row after it is of `day`. */
  position: number;
  day: string;
  /** The day of the last row before it, and the latest instant of those rows. */
  lastDay: string | null;
  lastMs: number;
  /** The latest instant of those rows as the walk orders them (rowOrder), and whether all are of earlier days than `day`. */
  lastEffectiveMs: number;
  /** As a ledger checkpoint's (LedgerCheckpoint.apart). */
  apart: boolean;
  nodeCount: number;
  live: Array<{ index: number; root: number; legCount: number; rollCloses: number; realizedMinor: number; rolls: number; lastClose: Node['lastClose']; entry: StructureLeg[] | null }>;
  /** Nodes that are no live node's but share a group with one: [node, root]… */
  members: Int32Array;
  lots: TaggedBookState;
  beforeBySymbol: number;
  joinedTo: number;
  promised: Array<[number, number]>;
  covering: Array<[number, number]>;
}

interface TradeRollLeg extends RollLeg {
  node: number;
  ms: number;
}

/** Fills that can open a position (BUY and SELL are ambiguous: they open what they do not close). */
const OPENING_FILLS: ReadonlySet<TransactionType> = new Set<TransactionType>(['BUY_TO_OPEN', 'SELL_TO_OPEN', 'BUY', 'SELL']);
const MINUTE_MS = 60_000;

export const underlyingOf = (t: Transaction): Ticker => (t.underlying !== '' ? t.underlying : asTicker(t.symbol));

/**
 * Fills of one structure: one order id on one trading day, or without one the same minute, per account, currency and
 * underlying. The day keeps apart rows of exports that repeat one placeholder number on every row (avion23's
 * tastytrade history says 123456 throughout).
 */
function structureKey(t: Transaction, ms: number): string {
  const head = `${t.accountId}\u0000${t.currency}\u0000${underlyingOf(t)}\u0000`;
  return t.orderId ? `${head}o${t.tradeDay}\u0000${t.orderId}` : `${head}m${Math.floor(ms / MINUTE_MS)}`;
}

export class Grouper {
  readonly lots = new TaggedLotBook();
  readonly nodes: Node[] = [];
  private readonly parent: number[] = [];
  private readonly nodeByKey = new Map<string, number>();
  private readonly beforeByKey = new Map<string, number>();
  private readonly beforeBySymbol = new Map<string, number>();
  readonly rollLegs: TradeRollLeg[] = [];
  /** Realized P&L of lots outside every trade (shares bought on their own), per row. */
  readonly outsideByTx = new Map<string, number>();
  /** Calls sold against a trade's shares: the node of those shares (joined to it after the walk, as rolls are). */
  readonly joinedTo = new Map<number, number>();
  /** Shares of a node promised to the open calls joined to it, and what each joined call node still covers. */
  private readonly promised = new Map<number, number>();
  private readonly covering = new Map<number, number>();
  private readonly deliveries = new Map<string, Delivery[]>();
  private readonly unclaimed = new Map<string, Unclaimed[]>();
  private deliveryDay = '';
  private seq = 0;
  /** Roll legs already matched (a walk that goes on matches only its own days': linkRolls). */
  private legsLinked = 0;
  /** While a walk goes on (LiveTrades.extend): the nodes it read or changed, whose trades are assembled again. */
  touched: Set<number> | null = null;
  /** Checkpoints kept while walking (every `checkpointEvery` rows, at a day boundary), the rows walked and their ids in order. */
  readonly checkpoints: WalkCheckpoint[] = [];
  checkpointEvery = 0;
  private sinceCheckpoint = 0;
  private lastDay: string | null = null;
  private lastMs = -Infinity;
  private lastEffectiveMs = -Infinity;
  private maxDay: string | null = null;
  private lastCheckpointDay: string | null = null;
  readonly ids: string[] = [];
  /** Corporate actions walked (a walk with one is not resumed: what they adjust is kept as the walk ends it). */
  actionsWalked = 0;

  /** Structure keys with an option fill: shares bought in one of them are part of the trade (a buy-write). */
  constructor(private readonly optionKeys: Set<string> = new Set()) {}

  /** The node at an index, noted as touched while a walk goes on. */
  private nodeAt(index: number): Node | undefined {
    this.touched?.add(index);
    return this.nodes[index];
  }

  /**
   * Walks rows in the ledger's order: all of them, or (a walk that goes on) rows that all come after those walked.
   * The rolls and covers are linked after (linkRolls, linkCovers).
   */
  walk(transactions: readonly Transaction[]): void {
    const { order, effectiveMs: ms } = rowOrder(transactions);
    const keys: Array<string | undefined> = new Array<string | undefined>(transactions.length);
    for (let i = 0; i < transactions.length; i += 1) {
      const t = transactions[i];
      if (!t || !FILLS.has(t.type)) continue;
      const key = structureKey(t, ms[i] ?? 0);
      keys[i] = key;
      if (t.isOption && OPENING_FILLS.has(t.type)) this.optionKeys.add(key);
    }
    for (let k = 0; k < order.length; k += 1) {
      const index = order[k] ?? 0;
      const t = transactions[index];
      if (!t) continue;
      if (this.lastDay !== null && t.tradeDay !== this.lastDay && this.checkpointEvery > 0 && this.sinceCheckpoint >= this.checkpointEvery) {
        this.checkpoints.push(this.capture(t.tradeDay));
        if (this.lastCheckpointDay === null || t.tradeDay > this.lastCheckpointDay) this.lastCheckpointDay = t.tradeDay;
        this.sinceCheckpoint = 0;
      }
      if (this.lastCheckpointDay !== null && t.tradeDay < this.lastCheckpointDay) this.lastCheckpointDay = markNotApart(this.checkpoints, t.tradeDay);
      if (this.resumedAt >= 0 && this.firstDayAfter === null) this.firstDayAfter = t.tradeDay;
      this.lastDay = t.tradeDay;
      if (this.maxDay === null || t.tradeDay > this.maxDay) this.maxDay = t.tradeDay;
      this.lastMs = Math.max(this.lastMs, instantMs(t.tradeDate, t.tradeDay));
      this.lastEffectiveMs = Math.max(this.lastEffectiveMs, ms[index] ?? 0);
      this.sinceCheckpoint += 1;
      this.ids.push(t.id);
      if (t.type === 'SPLIT' || t.type === 'SYMBOL_CHANGE') this.actionsWalked += 1;
      this.row(t, ms[index] ?? 0, keys[index]);
    }
  }

  /** The walk between two days, before a row of `day` (WalkCheckpoint); the rolls and covers so far linked first. */
  private capture(day: string): WalkCheckpoint {
    this.linkRolls();
    this.linkCovers();
    const liveNodes = new Set<number>();
    for (const [node, count] of this.lots.openLots) if (count > 0) liveNodes.add(node);
    for (const node of this.beforeBySymbol.values()) liveNodes.add(node);
    const liveRoots = new Set<number>();
    for (const node of liveNodes) liveRoots.add(this.find(node));
    const members: number[] = [];
    for (let index = 0; index < this.nodes.length; index += 1) {
      if (liveNodes.has(index)) continue;
      const root = this.find(index);
      if (liveRoots.has(root)) members.push(index, root);
    }
    const live: WalkCheckpoint['live'] = [];
    for (const index of [...liveNodes].sort((a, b) => a - b)) {
      const node = this.nodes[index];
      if (node === undefined) continue;
      live.push({
        index,
        root: this.find(index),
        legCount: node.legs.length,
        rollCloses: node.rollCloses.size,
        realizedMinor: node.realizedMinor,
        rolls: node.rolls,
        lastClose: node.lastClose === null ? null : { ...node.lastClose },
        entry: node.beforeHistory ? [...node.entry.values()].map((leg) => ({ ...leg })) : null,
      });
    }
    const nonZero = (map: ReadonlyMap<number, number>): Array<[number, number]> => [...map].filter(([, value]) => value !== 0);
    return {
      position: this.ids.length,
      day,
      lastDay: this.lastDay,
      lastMs: this.lastMs,
      lastEffectiveMs: this.lastEffectiveMs,
      apart: this.maxDay !== null && this.maxDay < day,
      nodeCount: this.nodes.length,
      live,
      members: Int32Array.from(members),
      lots: this.lots.state(),
      beforeBySymbol: this.beforeBySymbol.size,
      joinedTo: this.joinedTo.size,
      promised: nonZero(this.promised),
      covering: nonZero(this.covering),
    };
  }

  /**
   * A walk resumed at checkpoint `at` of `previous` (a walk whose rows before it are this journal's still): its nodes
   * before the checkpoint (a live one as it was then), lots, groups, covers and what it booked outside trades, less what
   * the rows after the checkpoint added. The rows from there on are walked next (walk).
   */
  static resumed(previous: Grouper, at: number): Grouper {
    const checkpoint = previous.checkpoints[at];
    if (checkpoint === undefined) throw new Error('trades: resumed at a checkpoint the walk does not have');
    const grouper = new Grouper();
    grouper.checkpointEvery = previous.checkpointEvery;
    for (let n = 0; n <= at; n += 1) {
      const kept = previous.checkpoints[n];
      if (kept !== undefined) grouper.checkpoints.push(kept);
    }
    for (let k = 0; k < checkpoint.position; k += 1) grouper.ids.push(previous.ids[k] ?? '');
    const dropped = new Set(previous.ids.slice(checkpoint.position));
    for (const [id, minor] of previous.outsideByTx) if (!dropped.has(id)) grouper.outsideByTx.set(id, minor);
    grouper.seq = checkpoint.position;
    grouper.lastDay = checkpoint.lastDay;
    grouper.maxDay = checkpoint.lastDay;
    grouper.lastMs = checkpoint.lastMs;
    grouper.lastEffectiveMs = checkpoint.lastEffectiveMs;
    grouper.resumedAt = grouper.checkpoints.length - 1;
    for (const kept of grouper.checkpoints) if (kept.apart && (grouper.lastCheckpointDay === null || kept.day > grouper.lastCheckpointDay)) grouper.lastCheckpointDay = kept.day;
    // Frozen nodes are shared (nothing changes them again); their groups' roots are the smallest node of each, as now.
    for (let index = 0; index < checkpoint.nodeCount; index += 1) {
      const node = previous.nodes[index];
      if (node === undefined) continue;
      grouper.nodes.push(node);
      grouper.parent.push(previous.find(index));
    }
    for (let n = 0; n + 1 < checkpoint.members.length; n += 2) grouper.parent[checkpoint.members[n] ?? 0] = checkpoint.members[n + 1] ?? 0;
    for (const state of checkpoint.live) {
      const node = previous.nodes[state.index];
      if (node === undefined) continue;
      const rollCloses = new Set<string>();
      for (const close of node.rollCloses) {
        if (rollCloses.size >= state.rollCloses) break;
        rollCloses.add(close);
      }
      grouper.nodes[state.index] = {
        ...node,
        legs: node.legs.slice(0, state.legCount),
        legSeqs: node.legSeqs.slice(0, state.legCount),
        entry: state.entry === null ? node.entry : new Map(state.entry.map((leg) => [`${leg.symbol}\u0000${leg.side}`, { ...leg }])),
        realizedMinor: state.realizedMinor,
        rolls: state.rolls,
        lastClose: state.lastClose === null ? null : { ...state.lastClose },
        rollCloses,
      };
      grouper.parent[state.index] = state.root;
    }
    grouper.lots.restore(checkpoint.lots, previous.lots.created);
    let n = 0;
    for (const [key, index] of previous.beforeBySymbol) {
      if (n++ >= checkpoint.beforeBySymbol) break;
      grouper.beforeBySymbol.set(key, index);
    }
    n = 0;
    for (const [index, target] of previous.joinedTo) {
      if (n++ >= checkpoint.joinedTo) break;
      grouper.joinedTo.set(index, target);
    }
    for (const [index, shares] of checkpoint.promised) grouper.promised.set(index, shares);
    for (const [index, shares] of checkpoint.covering) grouper.covering.set(index, shares);
    // Keys name a day (an order's) or a minute: those of the nodes before it, for a row of the same minute.
    for (const [key, index] of previous.nodeByKey) if (index < checkpoint.nodeCount) grouper.nodeByKey.set(key, index);
    for (const [key, index] of previous.beforeByKey) if (index < checkpoint.nodeCount) grouper.beforeByKey.set(key, index);
    return grouper;
  }

  /** A resumed walk (resumed): the checkpoint it started from, whose day becomes the first row's walked there (none: dropped). */
  private resumedAt = -1;
  private firstDayAfter: string | null = null;

  /** After the walk of a resumed walk: its checkpoint sits before the first row walked after it, of that row's day (as a walk from the first row puts it). */
  settleResumed(): void {
    const checkpoint = this.checkpoints[this.resumedAt];
    if (checkpoint === undefined) return;
    const first = this.ids.length > checkpoint.position ? this.firstDayAfter : null;
    if (first === null) this.checkpoints.splice(this.resumedAt);
    else if (first !== checkpoint.day) this.checkpoints[this.resumedAt] = { ...checkpoint, day: first };
    this.resumedAt = -1;
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

  private createNode(t: Transaction, ms: number, beforeHistory: boolean): number {
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
  private addLeg(index: number, t: Transaction, ms: number, role: TradeLeg['role'], quantity: number, realizedMinor: number | null, dir: number, booked: Booked, seq = this.seq): void {
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

  /** Units a close took from lots: each slice's P&L to the trade of its lot. Returns the trade of the first (NO_NODE without one). */
  private booked(t: Transaction, ms: number, dir: number, slices: readonly ClosedSlice[], pos: TaggedPosition): number {
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
  private beforeHistory(t: Transaction, ms: number, key: string, quantity: number, dir: number, booked: Booked): void {
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

  private opening(t: Transaction, ms: number, key: string, pos: TaggedPosition, dir: number, qty: number, grossMinor: number, costsMinor: number): number {
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
  private sharesOutside(t: Transaction, ms: number, pos: TaggedPosition, dir: number, qty: number, grossMinor: number, costsMinor: number): void {
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
  private deliver(t: Transaction, node: number, dir: number, shares: number, priceMinor: number): void {
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

  /**
   * A structure of short calls only, sold while a trade holds shares that no call of its own covers yet: the calls are
   * sold against those shares and join that trade (the wheel's covered calls stay in the assigned put's trade). The
   * trade whose shares came first is taken (its shares, not promised to its other calls, are counted until they cover).
   */
  private considerCover(index: number, node: Node): void {
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
  private release(index: number, shares: number): void {
    const target = this.joinedTo.get(index);
    const covering = this.covering.get(index);
    if (target === undefined || covering === undefined) return;
    const freed = Math.min(covering, shares);
    this.covering.set(index, covering - freed);
    this.promised.set(target, (this.promised.get(target) ?? 0) - freed);
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
  private readonly actions = new CorporateActionWalk(this.actionBook());
  /** The corporate action being applied: where its P&L goes. */
  private actionRow: { t: Transaction; ms: number } | null = null;

  /** The trade walk's lots as a corporate action changes them: a lot's P&L goes to its trade, as a close's does. */
  private actionBook(): ActionBook<TaggedLot, TaggedPosition> {
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

const slotKey = (t: Transaction): string => `${t.accountId}\u0000${t.currency}\u0000${underlyingOf(t)}`;

/** A stock row at an option's strike (to the minor unit: the row's price is per share, rounded to 4 decimals). */
const atStrike = (t: Transaction, strikeMinor: number): boolean => Math.abs(t.priceMinor - strikeMinor) <= 1;

/** The shares of one contract of a structure's calls (100 for equity options). */
function minContractShares(node: Node): number {
  let shares = Infinity;
  for (const leg of node.entry.values()) shares = Math.min(shares, leg.multiplier);
  return Number.isFinite(shares) ? shares : 1;
}

/** A closed-before-history leg's side when it was open: a buy to close or an assignment closed a short, a sale or an exercise a long. */
function impliedSide(type: TransactionType): number {
  if (type === 'BUY_TO_CLOSE' || type === 'ASSIGNMENT' || type === 'BUY') return -1;
  if (type === 'SELL_TO_CLOSE' || type === 'EXERCISE' || type === 'SELL') return 1;
  return 0;
}

function addToStructure(node: Node, t: Transaction, side: number, qty: number, grossMinor: number, costsMinor: number, multiplier: number): void {
  const entryKey = `${t.symbol}\u0000${side}`;
  const leg = node.entry.get(entryKey);
  if (leg) {
    leg.quantity += qty;
    leg.grossMinor += grossMinor;
    leg.costsMinor += costsMinor;
  } else {
    node.entry.set(entryKey, { symbol: t.symbol, isOption: t.isOption, expiration: t.expiration, strike: t.strike, right: t.right, multiplier, side, quantity: qty, grossMinor, costsMinor });
  }
}

/** The nodes of a whole journal: every row walked in the ledger's order, then the rolls linked (with `checkpointEvery`, checkpoints kept). */
export function walkTrades(transactions: readonly Transaction[], checkpointEvery = 0): Grouper {
  const grouper = new Grouper();
  grouper.checkpointEvery = checkpointEvery;
  grouper.walk(transactions);
  grouper.linkRolls();
  grouper.linkCovers();
  return grouper;
}
