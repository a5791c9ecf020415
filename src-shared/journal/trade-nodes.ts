/**
 * The nodes of the trade walk (trade-walk.ts) and what they are made of: one opening structure each, its legs and
 * figures, the deliveries and shares waiting within a day, a checkpoint of the walk; and the keys rows are grouped by.
 */
import { storedTicker, type AccountId, type Ticker } from '../ids';
import type { Transaction, TransactionType } from './model';
import type { RollLeg } from './rolls';
import type { StructureLeg } from './strategies';
import type { SlotHoldings, TaggedBookState, TaggedLot, TaggedPosition } from './trade-lots';
import type { TradeLeg } from './records';

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
export interface Delivery {
  node: number;
  /** +1 shares received (a put assigned, a call exercised), −1 delivered. */
  dir: number;
  shares: number;
  /** The strike, in minor units: the stock row's price. */
  priceMinor: number;
}

/** Shares a stock row opened outside any trade on a day, which an assignment later that day may claim (a file that lists the stock leg first). */
export interface Unclaimed {
  t: Transaction;
  ms: number;
  seq: number;
  pos: TaggedPosition;
  lot: TaggedLot;
  dir: number;
}

/** What a row's units were booked at: their value (unsigned) and costs. */
export interface Booked {
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

export interface TradeRollLeg extends RollLeg {
  node: number;
  ms: number;
}

/** Fills that can open a position (BUY and SELL are ambiguous: they open what they do not close). */
export const OPENING_FILLS: ReadonlySet<TransactionType> = new Set<TransactionType>(['BUY_TO_OPEN', 'SELL_TO_OPEN', 'BUY', 'SELL']);
export const MINUTE_MS = 60_000;

export const underlyingOf = (t: Transaction): Ticker => (t.underlying !== '' ? t.underlying : storedTicker(t.symbol));

/**
 * Fills of one structure: one order id on one trading day, or without one the same minute, per account, currency and
 * underlying. The day keeps apart rows of exports that repeat one placeholder number on every row (avion23's
 * tastytrade history says 123456 throughout).
 */
export function structureKey(t: Transaction, ms: number): string {
  const head = `${t.accountId}\u0000${t.currency}\u0000${underlyingOf(t)}\u0000`;
  return t.orderId ? `${head}o${t.tradeDay}\u0000${t.orderId}` : `${head}m${Math.floor(ms / MINUTE_MS)}`;
}

export const slotKey = (t: Transaction): string => `${t.accountId}\u0000${t.currency}\u0000${underlyingOf(t)}`;

/** A stock row at an option's strike (to the minor unit: the row's price is per share, rounded to 4 decimals). */
export const atStrike = (t: Transaction, strikeMinor: number): boolean => Math.abs(t.priceMinor - strikeMinor) <= 1;

/** The shares of one contract of a structure's calls (100 for equity options). */
export function minContractShares(node: Node): number {
  let shares = Infinity;
  for (const leg of node.entry.values()) shares = Math.min(shares, leg.multiplier);
  return Number.isFinite(shares) ? shares : 1;
}

/** A closed-before-history leg's side when it was open: a buy to close or an assignment closed a short, a sale or an exercise a long. */
export function impliedSide(type: TransactionType): number {
  if (type === 'BUY_TO_CLOSE' || type === 'ASSIGNMENT' || type === 'BUY') return -1;
  if (type === 'SELL_TO_CLOSE' || type === 'EXERCISE' || type === 'SELL') return 1;
  return 0;
}

export function addToStructure(node: Node, t: Transaction, side: number, qty: number, grossMinor: number, costsMinor: number, multiplier: number): void {
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

