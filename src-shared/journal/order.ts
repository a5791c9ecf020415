/**
 * The order in which the ledger reads the transactions (docs/journal.md §Money, dates, order): by instant, then by a
 * phase within the instant (opens before closes before settlements), then by id; and what each fill type says about
 * opening and closing.
 */
import { dateToUtcMs, parseInstantMs } from '../calendar';
import { MANUAL_ACTION_SOURCE } from './constants';
import { keepEventOrder } from './event-order';
import type { Transaction, TransactionType } from './model';

/**
 * Order among rows of the same instant: opens before closes before settlements. Date-only exports give
 * every row of a day the same instant, and the id (a hash) would otherwise decide whether a day trade's
 * close comes before its open. A plain BUY comes before a plain SELL: at one instant a purchase is the
 * opening more often than not (a day trade), and a sale that finds shares bought in the same instant is no
 * sale of shares held before the history (docs/journal.md §Unmatched closes). FIFO makes the result the
 * same either way when a lot already exists.
 */
function phaseOf(type: TransactionType): number {
  switch (type) {
    case 'SPLIT':
    case 'SYMBOL_CHANGE':
      return 0;
    case 'BUY_TO_OPEN':
    case 'SELL_TO_OPEN':
    case 'SELL_SHORT':
      return 1;
    case 'BUY':
      return 2;
    case 'SELL':
      return 3;
    case 'BUY_TO_CLOSE':
    case 'SELL_TO_CLOSE':
    case 'BUY_TO_COVER':
      return 4;
    case 'EXPIRATION':
    case 'ASSIGNMENT':
    case 'EXERCISE':
      return 5;
    default:
      return 6;
  }
}

/** Fills that buy (the others sell). */
export const BUYS: ReadonlySet<TransactionType> = new Set<TransactionType>(['BUY_TO_OPEN', 'BUY_TO_CLOSE', 'BUY', 'BUY_TO_COVER']);
/** Fills that say they open: only these count as opening against an opposite position (STO and SELL_SHORT open shorts). */
export const OPENING: ReadonlySet<TransactionType> = new Set<TransactionType>(['BUY_TO_OPEN', 'SELL_TO_OPEN', 'SELL_SHORT']);
/** Fills that say they close: what they find no lot for is an unmatched close, never a new position. */
export const CLOSING: ReadonlySet<TransactionType> = new Set<TransactionType>(['BUY_TO_CLOSE', 'SELL_TO_CLOSE', 'BUY_TO_COVER']);

/**
 * A manual opening (a position held before the history, entered by hand) counts from the start of its trade day: a
 * user knows the day a position was opened, rarely the minute, and an opening dated on the day of the first unmatched
 * close must come before that close whatever the hour (docs/journal.md §Unmatched closes).
 */
function isManualOpening(t: Transaction): boolean {
  return t.source === 'manual' && (OPENING.has(t.type) || t.type === 'BUY');
}

/**
 * A corporate action applies at the start of its day (DESIGN §5 "Corporate actions"): before the day's first row, the
 * ones entered by hand first (so that a file's same action is the duplicate: corporate-actions.ts), then a file's
 * actions on shares, then its rows naming adjusted contracts (they follow the adjustment the shares' action made).
 * The offset from the day's start, in eighths of a millisecond (keys are instant × 8 + phase; a manual opening is −1).
 */
function actionOffset(t: Transaction): number | null {
  if (t.type !== 'SPLIT' && t.type !== 'SYMBOL_CHANGE') return null;
  return t.source === MANUAL_ACTION_SOURCE ? -1.75 : t.isOption ? -1.25 : -1.5;
}

/** Epoch ms of a row's instant; a row whose text is no ISO instant sorts at the start of its trade day. */
export function instantMs(tradeDate: string, tradeDay: string): number {
  const ms = parseInstantMs(tradeDate);
  return Number.isNaN(ms) ? dateToUtcMs(tradeDay) : ms;
}

export interface RowOrder {
  /** Input indexes in processing order. */
  order: Uint32Array;
  /** Per input index: the instant the row counts at (its own, or its day's first for a manual opening). */
  effectiveMs: Float64Array;
  /** The latest instant of the rows' own (−Infinity without any). */
  lastInstantMs: number;
}

/**
 * The processing order of rows given in any order: instant, then phase, rows without the broker's event order
 * (`sequence`: manual entries, older imports) before rows with it, then id; then, within each instant, each import's
 * sequenced rows in the broker's event order (event-order.ts). The ledger and every walk that must agree with it
 * (trade-walk.ts) read rows in this order.
 */
export function rowOrder(transactions: readonly Transaction[]): RowOrder {
  const count = transactions.length;
  // One number per row: instant × 8 + phase (exact: epoch ms × 8 stays far below 2^53).
  const keys = new Float64Array(count);
  const effectiveMs = new Float64Array(count);
  const order = new Uint32Array(count);
  let lastInstantMs = -Infinity;
  // Rows that count from the start of their day: manual openings and corporate actions.
  const manual: number[] = [];
  const actions = new Set<number>();
  for (let i = 0; i < count; i += 1) {
    const t = transactions[i];
    if (!t) continue;
    const ms = instantMs(t.tradeDate, t.tradeDay);
    if (ms > lastInstantMs) lastInstantMs = ms;
    keys[i] = ms * 8 + phaseOf(t.type);
    effectiveMs[i] = ms;
    order[i] = i;
    if (isManualOpening(t) || actionOffset(t) !== null) manual.push(i);
  }
  // Rows moved to the start of one day keep the order of their own instants (for every other row, equal keys mean
  // equal instants).
  const ownMs = manual.length > 0 ? effectiveMs.slice() : null;
  if (manual.length > 0) {
    const dayStart = new Map<string, number>();
    for (let i = 0; i < count; i += 1) {
      const t = transactions[i];
      const ms = effectiveMs[i] ?? 0;
      if (t && !(ms >= (dayStart.get(t.tradeDay) ?? Infinity))) dayStart.set(t.tradeDay, ms);
    }
    for (const i of manual) {
      const t = transactions[i];
      const start = dayStart.get(t?.tradeDay ?? '') ?? Infinity;
      const offset = t === undefined ? null : actionOffset(t);
      // Just before the day's first row (start × 8 − 2 is the largest key an earlier instant can have: −1.75 to −1
      // sort after every one of them; quarters of a key are exact at these magnitudes).
      if (offset !== null && start <= (effectiveMs[i] ?? 0)) {
        effectiveMs[i] = start;
        keys[i] = start * 8 + offset;
        actions.add(i);
      } else if (start < (effectiveMs[i] ?? 0)) {
        effectiveMs[i] = start;
        keys[i] = start * 8 - 1;
      }
    }
  }
  order.sort((a, b) => {
    const diff = (keys[a] ?? 0) - (keys[b] ?? 0);
    if (diff !== 0) return diff;
    const own = ownMs === null ? 0 : (ownMs[a] ?? 0) - (ownMs[b] ?? 0);
    if (own !== 0) return own;
    const sequenced = (transactions[a]?.sequence === undefined ? 0 : 1) - (transactions[b]?.sequence === undefined ? 0 : 1);
    if (sequenced !== 0) return sequenced;
    const ida = transactions[a]?.id ?? '';
    const idb = transactions[b]?.id ?? '';
    return ida < idb ? -1 : ida > idb ? 1 : 0;
  });
  // Rows of one instant from one import keep the broker's event order where the import recorded it.
  // A corporate action's rows keep their class (hand, shares, contracts) apart: the file's order only within one.
  keepEventOrder(order, transactions, (i) => (actions.has(i) ? (keys[i] ?? 0) : Math.floor((keys[i] ?? 0) / 8)));
  return { order, effectiveMs, lastInstantMs };
}
