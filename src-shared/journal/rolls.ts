/**
 * Rolls: a close leg and an open leg on the same account, currency, underlying and right, same direction,
 * same quantity, different contract; linked by order id when both legs have one, else by the trading day.
 * Conventions: docs/journal.md §Rolls.
 */
import type { AccountId, Ticker } from '../ids';
import { QTY_EPSILON, prorate } from './lots';
import type { OptionRight, Transaction } from './model';

export interface RollRecord {
  accountId: AccountId;
  underlying: Ticker;
  currency: string;
  day: string;
  right: OptionRight;
  direction: 'short' | 'long';
  quantity: number;
  closeSymbol: string;
  openSymbol: string;
  /** Gross sell-leg credit − gross buy-leg debit (for a short roll: open credit − close debit). */
  creditMinor: number;
  linkedBy: 'order' | 'day';
}

/** One option fill's part in a possible roll. */
export interface RollLeg {
  accountId: AccountId;
  currency: string;
  underlying: Ticker;
  right: OptionRight;
  symbol: string;
  orderId: string | null;
  day: string;
  /** 'close' of a short or long position, or 'open' of one. */
  kind: 'close' | 'open';
  direction: 'short' | 'long';
  /** +1 sell (credit), −1 buy (debit). */
  cashSign: number;
  qty: number;
  grossMinor: number;
  used: boolean;
}

/**
 * Adds to `legs` the roll legs of one option fill of `t` (direction `dir`: +1 buy, −1 sell, `qty` worth
 * `grossMinor`): the part that closed a position (`closedQty`, of side `wasSide`) and the part that opened one.
 */
export function addRollLegs(
  legs: RollLeg[],
  t: Transaction,
  underlying: Ticker,
  right: OptionRight,
  fill: { dir: number; qty: number; grossMinor: number; wasSide: number; closedQty: number; openedQty: number; openedGrossMinor: number },
): void {
  const leg = (kind: 'close' | 'open', direction: 'short' | 'long', qty: number, grossMinor: number): RollLeg => ({
    accountId: t.accountId,
    currency: t.currency,
    underlying,
    right,
    symbol: t.symbol,
    orderId: t.orderId,
    day: t.tradeDay,
    kind,
    direction,
    cashSign: -fill.dir,
    qty,
    grossMinor,
    used: false,
  });
  if (fill.closedQty > 0) legs.push(leg('close', fill.wasSide < 0 ? 'short' : 'long', fill.closedQty, prorate(fill.grossMinor, fill.closedQty, fill.qty)));
  if (fill.openedQty > 0) legs.push(leg('open', fill.dir < 0 ? 'short' : 'long', fill.openedQty, fill.openedGrossMinor));
}

/**
 * The rolls among the legs of one day and one underlying. Fills of one order on one contract count as one leg;
 * order-linked pairs are taken first, then pairs of the same day among legs that do not both have an order id.
 */
function matchGroup<L extends RollLeg>(group: L[], rolls: RollRecord[], onMatch: ((close: L, open: L, linkedBy: 'order' | 'day') => void) | undefined): void {
  const legs: L[] = [];
  for (const leg of group) {
    if (leg.orderId) {
      const same = legs.find(
        (o) => o.orderId === leg.orderId && o.symbol === leg.symbol && o.kind === leg.kind && o.direction === leg.direction && o.accountId === leg.accountId && o.currency === leg.currency,
      );
      if (same) {
        same.qty += leg.qty;
        same.grossMinor += leg.grossMinor;
        continue;
      }
    }
    legs.push(leg);
  }
  const closes = legs.filter((leg) => leg.kind === 'close');
  const opens = legs.filter((leg) => leg.kind === 'open');
  if (closes.length === 0 || opens.length === 0) return;
  const fits = (close: L, open: L) =>
    !open.used &&
    open.accountId === close.accountId &&
    open.currency === close.currency &&
    open.right === close.right &&
    open.direction === close.direction &&
    open.symbol !== close.symbol &&
    Math.abs(open.qty - close.qty) <= QTY_EPSILON;
  const record = (close: L, open: L, linkedBy: 'order' | 'day') => {
    close.used = true;
    open.used = true;
    onMatch?.(close, open, linkedBy);
    rolls.push({
      accountId: close.accountId,
      underlying: close.underlying,
      currency: close.currency,
      day: close.day,
      right: close.right,
      direction: close.direction,
      quantity: close.qty,
      closeSymbol: close.symbol,
      openSymbol: open.symbol,
      creditMinor: close.cashSign * close.grossMinor + open.cashSign * open.grossMinor,
      linkedBy,
    });
  };
  for (const close of closes) {
    if (!close.orderId) continue;
    const open = opens.find((o) => o.orderId === close.orderId && fits(close, o));
    if (open) record(close, open, 'order');
  }
  for (const close of closes) {
    if (close.used) continue;
    const open = opens.find((o) => !(o.orderId && close.orderId) && fits(close, o));
    if (open) record(close, open, 'day');
  }
}

/**
 * The rolls among legs recorded in processing order (so each trading day is one run), sorted by day. `onMatch` sees
 * each matched pair (legs of one order on one contract are merged into the first of them): the trades follow rolls.
 */
export function matchRolls<L extends RollLeg>(legs: readonly L[], onMatch?: (close: L, open: L, linkedBy: 'order' | 'day') => void): RollRecord[] {
  const rolls: RollRecord[] = [];
  let start = 0;
  while (start < legs.length) {
    const day = legs[start]?.day;
    let end = start;
    const byUnderlying = new Map<string, L[]>();
    for (; end < legs.length; end += 1) {
      const leg = legs[end];
      if (!leg || leg.day !== day) break;
      const group = byUnderlying.get(leg.underlying);
      if (group) group.push(leg);
      else byUnderlying.set(leg.underlying, [leg]);
    }
    for (const group of byUnderlying.values()) if (group.length > 1) matchGroup(group, rolls, onMatch);
    start = end;
  }
  rolls.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  return rolls;
}
