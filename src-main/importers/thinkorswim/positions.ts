/**
 * Open or close, long or short, from what the statement says the account holds at its end (figures.ts), for fills
 * whose rows do not say it:
 *
 * - Options read from a Cash Balance description (described.ts) say buy or sell only. Each contract's position is
 *   replayed in time from the position before the statement — the Options section's quantity at the end less the
 *   statement's own fills, for a contract not expired by then; else none — and a fill against the position that
 *   it does not exceed closes, any other opens (one that crosses zero opens: the ledger nets it, docs/journal.md).
 * - Shares sold with no Account Trade History leg are a plain `SELL`, and a plain sale never opens a short
 *   (docs/journal.md §Unmatched closes). When the statement's own end says otherwise — its Equities section's
 *   quantity (a symbol not listed: none held), else a Profits and Losses Mark Value of 0 (nothing held) or below 0
 *   (a short) — the shares held before the statement are the end less the statement's own fills, and the part of a
 *   sale beyond what is held then is a `SELL_SHORT`, the part of a buy that brings a short back toward flat a
 *   `BUY_TO_COVER` (a row that is partly both is split in two, its cash prorated). Without such a statement a sale
 *   beyond the holding stays an unmatched close.
 */
import type { ImportedTransaction, TransactionType } from '../../../src-shared/journal/model';
import { occSymbol } from '../../../src-shared/journal/model';
import { asMinor } from '../../../src-shared/money';
import type { ParsedRow } from '../types';
import type { StatementFacts } from './figures';
import type { Order } from './rows';

const EPSILON = 1e-9;

function contractKey(leg: Order['legs'][number]): string | null {
  const option = leg.option;
  return option === null ? null : occSymbol(option.root, option.expiration, option.right, option.strike);
}

/** Sets `effect` (TO OPEN / TO CLOSE) on the option legs that have none, replaying the positions in time. */
export function inferOptionEffects(orders: readonly Order[], facts: StatementFacts): void {
  if (!orders.some((order) => order.legs.some((leg) => leg.option !== null && leg.effect === ''))) return;
  const inOrder = [...orders].sort((a, b) => (a.when.tradeDate < b.when.tradeDate ? -1 : a.when.tradeDate > b.when.tradeDate ? 1 : 0));
  const change = new Map<string, number>();
  for (const order of inOrder) {
    for (const leg of order.legs) {
      const key = contractKey(leg);
      if (key !== null) change.set(key, (change.get(key) ?? 0) + (leg.side === 'BUY' ? leg.quantity : -leg.quantity));
    }
  }
  const held = new Map<string, number>();
  const startOf = (key: string, expiration: string): number => {
    // A contract expired by the statement's end may have left by a removal the statement does not name: no start.
    if (facts.options === null || facts.through === null || expiration < facts.through) return 0;
    return (facts.options.get(key)?.quantity ?? 0) - (change.get(key) ?? 0);
  };
  for (const order of inOrder) {
    for (const leg of order.legs) {
      const key = contractKey(leg);
      if (key === null || leg.option === null) continue;
      const before = held.get(key) ?? startOf(key, leg.option.expiration);
      const delta = leg.side === 'BUY' ? leg.quantity : -leg.quantity;
      if (leg.effect === '') leg.effect = before !== 0 && Math.sign(before) !== Math.sign(delta) && Math.abs(delta) <= Math.abs(before) + EPSILON ? 'TO CLOSE' : 'TO OPEN';
      held.set(key, before + delta);
    }
  }
}

const STOCK_SIGN: Partial<Record<TransactionType, number>> = { BUY: 1, BUY_TO_COVER: 1, SELL: -1, SELL_SHORT: -1 };

/** The shares held at the statement's end, when it says: a number, `'short'` (a negative Mark Value, quantity not given) or null. */
function endOf(symbol: string, facts: StatementFacts): number | 'short' | null {
  if (facts.stocks !== null) return facts.stocks.get(symbol)?.quantity ?? 0;
  const mark = facts.markValues?.get(symbol);
  if (mark === undefined) return null;
  return mark === 0 ? 0 : mark < 0 ? 'short' : null;
}

/** `tx` cut in two at `quantity`: the first part typed `first`, the rest `second`, cash and costs prorated exactly. */
function split(tx: ImportedTransaction, quantity: number, first: TransactionType, second: TransactionType): [ImportedTransaction, ImportedTransaction] {
  const part = (total: number): number => Math.round((total * quantity) / tx.quantity);
  const head = { ...tx, type: first, quantity, amountMinor: asMinor(part(tx.amountMinor)), commissionMinor: asMinor(part(tx.commissionMinor)), feesMinor: asMinor(part(tx.feesMinor)) };
  const rest = {
    ...tx,
    type: second,
    brokerRowId: `${tx.brokerRowId}#${second === 'SELL_SHORT' ? 'short' : 'rest'}`,
    quantity: tx.quantity - quantity,
    amountMinor: asMinor(tx.amountMinor - head.amountMinor),
    commissionMinor: asMinor(tx.commissionMinor - head.commissionMinor),
    feesMinor: asMinor(tx.feesMinor - head.feesMinor),
  };
  return [head, rest];
}

/**
 * Plain sales and buys of shares re-read as short sales and covers where the statement's end says the account was
 * short (above). `rows` are in event order; the answer too, a split row's two parts at its line.
 */
export function shortsFromStatement(rows: readonly ParsedRow[], facts: StatementFacts): ParsedRow[] {
  const change = new Map<string, number>();
  let plain = false;
  for (const { transaction: tx } of rows) {
    const sign = STOCK_SIGN[tx.type];
    if (tx.isOption || sign === undefined) continue;
    change.set(tx.symbol, (change.get(tx.symbol) ?? 0) + sign * tx.quantity);
    if (tx.type === 'SELL' || tx.type === 'BUY') plain = true;
  }
  if (!plain) return [...rows];
  const held = new Map<string, number>();
  for (const symbol of change.keys()) {
    const end = endOf(symbol, facts);
    if (end === null) continue;
    held.set(symbol, end === 'short' ? 0 : end - (change.get(symbol) ?? 0));
  }
  const out: ParsedRow[] = [];
  for (const row of rows) {
    const tx = row.transaction;
    const before = held.get(tx.symbol);
    const sign = STOCK_SIGN[tx.type];
    if (tx.isOption || sign === undefined || before === undefined) {
      out.push(row);
      continue;
    }
    held.set(tx.symbol, before + sign * tx.quantity);
    if (tx.type === 'SELL' && tx.quantity > Math.max(before, 0) + EPSILON) {
      const kept = Math.max(before, 0);
      if (kept <= EPSILON) out.push({ line: row.line, transaction: { ...tx, type: 'SELL_SHORT' } });
      else for (const part of split(tx, kept, 'SELL', 'SELL_SHORT')) out.push({ line: row.line, transaction: part });
    } else if (tx.type === 'BUY' && before < -EPSILON) {
      const covered = Math.min(tx.quantity, -before);
      if (covered >= tx.quantity - EPSILON) out.push({ line: row.line, transaction: { ...tx, type: 'BUY_TO_COVER' } });
      else for (const part of split(tx, covered, 'BUY_TO_COVER', 'BUY')) out.push({ line: row.line, transaction: part });
    } else {
      out.push(row);
    }
  }
  return out;
}
