/**
 * The walk behind the trades (docs/journal.md §Trades and strategies): the rows in the ledger's order, through lots
 * that remember their trade (trade-lots.ts). Each opening structure is a node; a roll joins the new leg's node to the
 * replaced leg's (union-find, the earlier node the root); closes with no open lot go to nodes "opened before
 * history". trades.ts turns the nodes into trades.
 */
import { FILLS, type Transaction } from './model';
import { instantMs, rowOrder } from './order';
import { markNotApart } from './ledger-walk';
import { TradeRows } from './trade-rows';
import { OPENING_FILLS, structureKey, type WalkCheckpoint } from './trade-nodes';

export { underlyingOf, type Node, type WalkCheckpoint } from './trade-nodes';

/** The walk: the rows in the ledger's order, each to what it does (trade-rows.ts), with its checkpoints and resumes. */
export class Grouper extends TradeRows {
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
