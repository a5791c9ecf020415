/**
 * Trades (docs/journal.md §Trades and strategies): the legs of one underlying in one account opened together and
 * managed together until flat. Opening fills of one order (without order ids: of one minute) are a trade's first
 * structure; a later fill that closes one of its lots belongs to it (FIFO, per lot: trade-lots.ts); a roll's new
 * leg joins the trade of the leg it replaces (rolls.ts's rule); the shares an assignment or exercise delivers, and the
 * calls later sold against them, stay in the trade (DESIGN §5 "Assignment, collateral and levels in trades"); any other
 * opening starts a new trade. A close with no known opening books no P&L: it goes to a trade "opened before history"
 * whose P&L is unknown. Built once per ledger build (`buildTrades`); the list and the stats only filter what it made
 * (trade-stats.ts).
 */
import type { CampaignRecord } from './campaigns';
import type { Transaction } from './model';
import { instantMs } from './order';
import { followsAll } from './ledger-walk';
import type { EntryLookup } from './trade-metrics';
import { NO_NODE } from './trade-lots';
import { Grouper, walkTrades, type Node } from './trade-walk';
import { asMinor, type Minor } from '../money';
import type { TradeLeg } from './records';
import type { AccountId } from '../ids';
import { assemble, assembleBeforeHistory, attachCampaigns, type Trade } from './trade-assemble';

export type { TradeLeg };
export { OUTCOMES, type Outcome, type Trade } from './trade-assemble';

export interface TradeOptions {
  /** The ledger's campaigns: each trade's campaign is the one holding its first transaction. */
  campaigns?: readonly CampaignRecord[];
  /** Snapshot facts at an instant (trade-metrics.ts); without it the entry figures and Reg T collateral are null. */
  lookup?: EntryLookup;
}

export interface TradeBook {
  /** Newest opened first (then by id); trades opened before history by their first close. */
  trades: Trade[];
  byId: Map<string, Trade>;
  /**
   * Realized P&L the ledger books on lots outside every trade (shares bought on their own: an assignment's delivery,
   * a plain purchase), per row: with the trades' legs it adds up to the ledger's realized, row by row.
   */
  outsideByTx: Map<string, number>;
  /**
   * What each open trade still holds, per instrument: its own open lots (signed units, entry value and costs), so that
   * it is marked as a position of its own (two trades of one contract each keep their own entry).
   */
  openParts: Map<string, OpenPart[]>;
}

/** An open trade's part of a position: its lots of one instrument. */
export interface OpenPart {
  accountId: AccountId;
  currency: string;
  symbol: string;
  /** Signed: + long, − short. */
  quantity: number;
  entryGrossMinor: number;
  entryCostsMinor: number;
}

export function buildTrades(transactions: readonly Transaction[], options: TradeOptions = {}): TradeBook {
  return assembleBook(walkTrades(transactions), options, null).book;
}

/** The trades assembled from a walk's nodes: before-history ones by node, the others by root with their group's size. */
interface Assembled {
  before: Map<number, Trade>;
  groups: Map<number, { size: number; trade: Trade | null }>;
}

/**
 * The trades of a walk's nodes. With `reuse` (a walk that went on): a trade whose nodes the later rows neither read
 * nor changed, and whose group kept its members, is the one assembled before (its figures are its nodes').
 */
function assembleBook(grouper: Grouper, options: TradeOptions, reuse: { touched: ReadonlySet<number>; previous: Assembled } | null): { book: TradeBook; assembled: Assembled } {
  const groups = new Map<number, number[]>();
  const made: Array<{ ms: number; trade: Trade }> = [];
  const assembled: Assembled = { before: new Map(), groups: new Map() };
  grouper.nodes.forEach((node, index) => {
    if (node.beforeHistory) {
      const kept = reuse !== null && !reuse.touched.has(index) ? reuse.previous.before.get(index) : undefined;
      const trade = kept ?? assembleBeforeHistory(node);
      assembled.before.set(index, trade);
      made.push({ ms: node.openMs, trade });
      return;
    }
    const root = grouper.find(index);
    const group = groups.get(root);
    if (group) group.push(index);
    else groups.set(root, [index]);
  });
  const idByRoot = new Map<number, string>();
  for (const [root, indices] of groups) {
    const members = indices.map((index) => grouper.nodes[index]).filter((node): node is Node => node !== undefined);
    const previous = reuse?.previous.groups.get(root);
    let trade: Trade | null;
    if (reuse !== null && previous !== undefined && previous.size === indices.length && !indices.some((index) => reuse.touched.has(index))) trade = previous.trade;
    else {
      const open = indices.some((index) => (grouper.lots.openLots.get(index) ?? 0) > 0);
      trade = assemble(members, open, options.lookup);
    }
    assembled.groups.set(root, { size: indices.length, trade });
    if (trade && members[0]) {
      made.push({ ms: members[0].openMs, trade });
      idByRoot.set(root, trade.id);
    }
  }
  made.sort((a, b) => b.ms - a.ms || (a.trade.id < b.trade.id ? -1 : a.trade.id > b.trade.id ? 1 : 0));
  const trades = made.map((entry) => entry.trade);
  // A kept trade's campaign is the one holding its first row, as before: set again to the same id.
  if (options.campaigns) attachCampaigns(trades, options.campaigns);
  return { book: { trades, byId: new Map(trades.map((trade) => [trade.id, trade])), outsideByTx: new Map(grouper.outsideByTx), openParts: openParts(grouper, idByRoot) }, assembled };
}

/**
 * Trades built with their walk kept open (docs/journal.md §Staying current): rows dated after every row walked extend
 * them, and only the trades whose nodes those rows reached are assembled again. Each extension gives a new TradeBook;
 * the books given before keep their lists (a kept trade is shared: nothing changes it after its assembly but its
 * campaign id, set again to the same value).
 */
export class LiveTrades {
  private lastDay = '';
  private lastMs = -Infinity;

  private constructor(
    private readonly grouper: Grouper,
    private assembled: Assembled,
  ) {}

  /** The trades of `transactions` with their walk kept open; with `checkpointEvery`, checkpoints a write in the middle resumes from. */
  static build(transactions: readonly Transaction[], options: TradeOptions = {}, checkpointEvery = 0): { live: LiveTrades; book: TradeBook } {
    const grouper = walkTrades(transactions, checkpointEvery);
    const { book, assembled } = assembleBook(grouper, options, null);
    const live = new LiveTrades(grouper, assembled);
    live.note(transactions);
    return { live, book };
  }

  private note(rows: readonly Transaction[]): void {
    for (const t of rows) {
      if (t.tradeDay > this.lastDay) this.lastDay = t.tradeDay;
      const ms = instantMs(t.tradeDate, t.tradeDay);
      if (ms > this.lastMs) this.lastMs = ms;
    }
  }

  /**
   * The trades with `rows` walked on (null, and nothing changed, unless every row is of a day after the last one walked
   * and counts after its last instant: as LiveLedger.canExtend). `options` as the build's (the same entry lookup).
   */
  extend(rows: readonly Transaction[], options: TradeOptions = {}): TradeBook | null {
    if (!rows.every((t) => t.tradeDay > this.lastDay && instantMs(t.tradeDate, t.tradeDay) > this.lastMs)) return null;
    const touched = new Set<number>();
    this.grouper.touched = touched;
    this.grouper.lots.touched = touched;
    try {
      this.grouper.walk(rows);
      this.grouper.linkRolls();
      this.grouper.linkCovers();
    } finally {
      this.grouper.touched = null;
      this.grouper.lots.touched = null;
    }
    this.note(rows);
    const { book, assembled } = assembleBook(this.grouper, options, { touched, previous: this.assembled });
    this.assembled = assembled;
    return book;
  }

  /**
   * The day of the checkpoint a write whose rows are all of `day` or later resumes from (the latest at or before it),
   * with its place; null when there is none or the walk met a corporate action (a walk from the first row).
   */
  resumePoint(day: string): { at: number; day: string; position: number } | null {
    const list = this.grouper.checkpoints;
    if (this.grouper.actionsWalked > 0) return null;
    let at = list.length - 1;
    // The latest at or before the day whose rows before it are all of earlier days (the rows from its day on are read again).
    while (at >= 0 && ((list[at]?.day ?? '') > day || list[at]?.apart !== true)) at -= 1;
    const checkpoint = list[at];
    return checkpoint === undefined ? null : { at, day: checkpoint.day, position: checkpoint.position };
  }

  /**
   * A new walk resumed at checkpoint `at` with `rows`, every row of the journal from its day on (docs/journal.md §Staying
   * current): the trades whose nodes the rows before it closed for good are the ones assembled before; the others are
   * assembled again. Null when the rows hold a corporate action. This walk and its books stay as they are.
   */
  resume(at: number, rows: readonly Transaction[], options: TradeOptions = {}): { live: LiveTrades; book: TradeBook } | null {
    const checkpoint = this.grouper.checkpoints[at];
    if (checkpoint === undefined || this.grouper.actionsWalked > 0 || rows.some((t) => t.type === 'SPLIT' || t.type === 'SYMBOL_CHANGE')) return null;
    // Every row walked again must come after those before the checkpoint (else the order before it changed).
    if (!followsAll(rows, checkpoint.lastEffectiveMs)) return null;
    const grouper = Grouper.resumed(this.grouper, at);
    const touched = new Set<number>(checkpoint.live.map((node) => node.index));
    grouper.touched = touched;
    grouper.lots.touched = touched;
    try {
      grouper.walk(rows);
      grouper.settleResumed();
      grouper.linkRolls();
      grouper.linkCovers();
    } finally {
      grouper.touched = null;
      grouper.lots.touched = null;
    }
    for (let index = checkpoint.nodeCount; index < grouper.nodes.length; index += 1) touched.add(index);
    const { book, assembled } = assembleBook(grouper, options, { touched, previous: this.assembled });
    const live = new LiveTrades(grouper, assembled);
    live.lastDay = checkpoint.lastDay ?? '';
    live.lastMs = checkpoint.lastMs;
    live.note(rows);
    return { live, book };
  }
}

/** The open lots of each trade, added up per instrument. */
function openParts(grouper: Grouper, idByRoot: ReadonlyMap<number, string>): Map<string, OpenPart[]> {
  const parts = new Map<string, Map<string, OpenPart>>();
  for (const lot of grouper.lots.eachOpenLot()) {
    if (lot.node === NO_NODE) continue;
    const id = idByRoot.get(grouper.find(lot.node));
    if (id === undefined) continue;
    const bySymbol = parts.get(id) ?? new Map<string, OpenPart>();
    parts.set(id, bySymbol);
    const key = `${lot.accountId}\u0000${lot.currency}\u0000${lot.symbol}`;
    const part = bySymbol.get(key) ?? { accountId: lot.accountId, currency: lot.currency, symbol: lot.symbol, quantity: 0, entryGrossMinor: 0, entryCostsMinor: 0 };
    part.quantity += lot.side * lot.qty;
    part.entryGrossMinor += lot.grossMinor;
    part.entryCostsMinor += lot.costsMinor;
    bySymbol.set(key, part);
  }
  return new Map([...parts].map(([id, bySymbol]) => [id, [...bySymbol.values()]]));
}

/** One row of a trade's timeline: its leg, the row it comes from (null if the journal no longer has it) and the realized P&L so far. */
export interface TimelineEntry {
  leg: Trade['legs'][number];
  transaction: Transaction | null;
  /** The trade's realized P&L after this row (openings add nothing); null for a trade opened before history. */
  runningRealizedMinor: Minor | null;
}

/**
 * A trade's timeline: its legs in the order they were booked, each with its row (price, instrument) and the realized
 * P&L so far, which ends at the trade's P&L. No figure is computed here that the walk did not book.
 */
export function tradeTimeline(trade: Trade, rowsById: ReadonlyMap<string, Transaction>): TimelineEntry[] {
  let runningMinor = 0;
  return trade.legs.map((leg) => {
    runningMinor += leg.realizedMinor ?? 0;
    return { leg, transaction: rowsById.get(leg.txId) ?? null, runningRealizedMinor: trade.openedBeforeHistory ? null : asMinor(runningMinor) };
  });
}
