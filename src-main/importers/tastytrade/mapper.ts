/**
 * tastytrade rows → neutral transactions (docs/journal.md).
 *
 * - Trade: options keep BTO/STO/BTC/STC from the action; stock, ETFs, crypto and futures become BUY/SELL, or
 *   SELL_SHORT/BUY_TO_COVER where the action says the sale opens or the buy closes (a short).
 * - Money Movement / Mark to Market (futures' daily settlement): OTHER, quietly: the trades realize it.
 * - Receive Deliver: Expiration → EXPIRATION, Assignment → ASSIGNMENT, Exercise → EXERCISE (the option
 *   leaves at 0); the stock rows delivered with them (`Buy to Open 100 SCHG @ 103.00`) → BUY/SELL at the
 *   strike. Symbol Change / Stock Merger / Special Dividend pairs (close old, open new) → one
 *   SYMBOL_CHANGE carrying previousSymbol; Reverse/Forward Split pairs → one SPLIT (quantity = new − old).
 *   ACAT transfers in → BUY/SELL (to open) at zero cost basis with a warning; ACAT transfers out → OTHER.
 * - Money Movement: Dividend → DIVIDEND (negative rows are withholding, kept signed), Credit/Debit
 *   Interest and stock-lending income → INTEREST, Balance Adjustment / Fee → FEE, Deposit / Withdrawal /
 *   Transfer → DEPOSIT or WITHDRAWAL by the sign of the cash (tastytrade files "Wire Funds Received"
 *   under Withdrawal), except interest paid under Deposit → INTEREST.
 * - Unknown types → OTHER with a warning, never dropped (their cash still counts).
 */
import type { RawTransaction, TransactionType } from '../../../src-shared/journal/model';
import { transaction } from '../common/result';
import type { RawRow } from '../types';
import type { TastyRow } from './schema';
import { contractColumns } from '../common/options';
import { ZERO_MINOR, addMinor } from '../../../src-shared/money';

export const SOURCE = 'tastytrade-csv';

export interface MapContext {
  accountName: string;
  warn(line: number | null, message: string): void;
  /** Lines that became one transaction (the report lists them: its counts add up). */
  merge(lines: readonly number[], reason: string): void;
}

const OPTION_ACTIONS: Record<string, TransactionType> = {
  BUY_TO_OPEN: 'BUY_TO_OPEN',
  SELL_TO_OPEN: 'SELL_TO_OPEN',
  BUY_TO_CLOSE: 'BUY_TO_CLOSE',
  SELL_TO_CLOSE: 'SELL_TO_CLOSE',
};

function isOptionKind(row: TastyRow): boolean {
  return row.kind === 'option' || row.kind === 'future-option';
}

function base(row: TastyRow, ctx: MapContext, type: TransactionType): RawTransaction {
  const option = row.option;
  return transaction({
    accountName: row.account || ctx.accountName,
    brokerRowId: row.rowId,
    type,
    tradeDate: row.tradeDate,
    source: SOURCE,
    symbol: row.symbol,
    underlying: row.underlying,
    ...contractColumns(option),
    quantity: row.quantity,
    priceMinor: row.priceMinor,
    multiplier: row.multiplier,
    amountMinor: row.totalMinor,
    commissionMinor: row.commissionMinor,
    feesMinor: row.feesMinor,
    currency: row.currency,
    orderId: row.orderId,
    description: row.description,
  });
}

/**
 * BTO/STO/BTC/STC for options; for shares and futures BUY/SELL, or SELL_SHORT/BUY_TO_COVER when the action (or
 * the sub type, on futures rows whose action is a bare BUY/SELL) says the sale opens or the buy closes a short.
 * Null when the action says neither.
 */
function tradeType(row: TastyRow): TransactionType | null {
  const action = row.action.replace(/\s+/g, '_');
  if (isOptionKind(row)) return OPTION_ACTIONS[action] ?? null;
  const effect = /_TO_(OPEN|CLOSE)$/.exec(action)?.[1] ?? /\bto (open|close)$/i.exec(row.subType.trim())?.[1]?.toUpperCase();
  if (action.startsWith('BUY')) return effect === 'CLOSE' ? 'BUY_TO_COVER' : 'BUY';
  if (action.startsWith('SELL')) return effect === 'OPEN' ? 'SELL_SHORT' : 'SELL';
  return null;
}

function cashType(row: TastyRow, positive: TransactionType, negative: TransactionType): TransactionType {
  return row.totalMinor >= 0 ? positive : negative;
}

function moneyMovementType(row: TastyRow): TransactionType | null {
  const sub = row.subType.toLowerCase();
  const text = row.description.toUpperCase();
  // A futures position's daily settlement: its gain or loss is realized by the trades (from their prices).
  if (sub === 'mark to market') return 'OTHER';
  if (sub === 'dividend') return 'DIVIDEND';
  if (sub.includes('interest') || sub.includes('lending income')) return 'INTEREST';
  if (sub === 'balance adjustment' || sub === 'fee') return 'FEE';
  if (sub === 'deposit' || sub === 'withdrawal' || sub === 'transfer') {
    if (text.includes('INTEREST')) return 'INTEREST';
    return cashType(row, 'DEPOSIT', 'WITHDRAWAL');
  }
  return null;
}

const CHANGE_SUBTYPES: Record<string, TransactionType> = {
  'symbol change': 'SYMBOL_CHANGE',
  'stock merger': 'SYMBOL_CHANGE',
  'special dividend': 'SYMBOL_CHANGE',
  'reverse split': 'SPLIT',
  'forward split': 'SPLIT',
  'stock split': 'SPLIT',
};

function isOpenLeg(row: TastyRow): boolean {
  if (row.action.includes('OPEN')) return true;
  if (row.action.includes('CLOSE')) return false;
  return /\bopen\b/i.test(row.description);
}

/** One transaction for a corporate action's close (old) and open (new) legs. */
function pairTransaction(close: TastyRow, open: TastyRow, type: TransactionType, ctx: MapContext): RawTransaction {
  const tx = base(open, ctx, type);
  tx.brokerRowId = `${close.rowId}+${open.rowId}`;
  tx.amountMinor = addMinor(close.totalMinor, open.totalMinor);
  tx.commissionMinor = addMinor(close.commissionMinor, open.commissionMinor);
  tx.feesMinor = addMinor(close.feesMinor, open.feesMinor);
  tx.priceMinor = ZERO_MINOR;
  tx.orderId = open.orderId ?? close.orderId;
  tx.description = `${close.description} / ${open.description}`;
  if (type === 'SPLIT') {
    tx.quantity = open.quantity - close.quantity;
    if (close.symbol !== open.symbol) tx.previousSymbol = close.symbol;
  } else {
    tx.previousSymbol = close.symbol;
    if (close.quantity !== open.quantity) {
      ctx.warn(open.line, `${open.subType}: ${close.quantity} ${close.symbol} became ${open.quantity} ${open.symbol}`);
    }
  }
  return tx;
}

/** An unpaired leg of a corporate action keeps its position effect as a plain trade. */
function loneLeg(row: TastyRow, ctx: MapContext): RawTransaction {
  const type = tradeType(row) ?? 'OTHER';
  ctx.warn(row.line, `${row.subType} leg without its counterpart (${row.description}): kept as ${type}`);
  return base(row, ctx, type);
}

/** Groups the legs of corporate actions by date, sub type and instrument, and pairs close with open. */
function pairCorporateActions(rows: TastyRow[], ctx: MapContext): Map<TastyRow, RawTransaction | null> {
  const out = new Map<TastyRow, RawTransaction | null>();
  const groups = new Map<string, TastyRow[]>();
  for (const row of rows) {
    const key = `${row.dateText}|${row.subType.toLowerCase()}|${isOptionKind(row) ? 'option' : 'stock'}`;
    const list = groups.get(key) ?? [];
    list.push(row);
    groups.set(key, list);
  }
  for (const legs of groups.values()) {
    const opens = legs.filter(isOpenLeg);
    const closes = legs.filter((leg) => !isOpenLeg(leg));
    for (const open of opens) {
      const sameContract = (close: TastyRow): boolean =>
        open.option === null ||
        (close.option !== null && close.option.expiration === open.option.expiration && close.option.right === open.option.right);
      const index = closes.findIndex((close) => sameContract(close) && close.quantity === open.quantity);
      const fallback = index >= 0 ? index : closes.findIndex(sameContract);
      const close = fallback >= 0 ? closes.splice(fallback, 1)[0] : undefined;
      const type = CHANGE_SUBTYPES[open.subType.toLowerCase()] ?? 'SYMBOL_CHANGE';
      if (close === undefined) {
        out.set(open, loneLeg(open, ctx));
        continue;
      }
      // The transaction sits at the earlier line of the pair; the other line contributes nothing more.
      const first = close.line < open.line ? close : open;
      const second = first === close ? open : close;
      out.set(first, pairTransaction(close, open, type, ctx));
      out.set(second, null);
      ctx.merge([close.line, open.line], `${open.subType}: ${close.symbol} and ${open.symbol} as one ${type}`);
    }
    for (const close of closes) out.set(close, loneLeg(close, ctx));
  }
  return out;
}

function receiveDeliver(row: TastyRow, ctx: MapContext): RawTransaction {
  const sub = row.subType.toLowerCase();
  let type: TransactionType | null = null;
  if (sub === 'expiration') type = 'EXPIRATION';
  else if (sub.includes('assignment')) type = 'ASSIGNMENT';
  else if (sub.includes('exercise')) type = 'EXERCISE';
  if (type !== null && isOptionKind(row)) {
    const tx = base(row, ctx, type);
    // Cash-settled index options carry their settlement in Value; physical ones leave at 0.
    if (tx.amountMinor === 0) tx.priceMinor = ZERO_MINOR;
    return tx;
  }
  if (sub === 'acat') {
    // Shares or options transferred in open a position (else their later sale would open a phantom short).
    // The file has no cost basis: they enter at zero cost, and the warning says so.
    const incoming = /_TO_OPEN$/i.test(row.action.replace(/\s+/g, '_')) ? tradeType(row) : null;
    if (incoming !== null) {
      ctx.warn(row.line, `ACAT transfer of ${row.quantity} ${row.symbol} opens the position at zero cost basis (the file has none): its sale realizes the full proceeds`);
      return base(row, ctx, incoming);
    }
    ctx.warn(row.line, `ACAT transfer of ${row.quantity} ${row.symbol} kept as OTHER: the position leaves the account and the file has no cost basis`);
    return base(row, ctx, 'OTHER');
  }
  const trade = tradeType(row);
  if (trade !== null) return base(row, ctx, trade);
  ctx.warn(row.line, `unknown Receive Deliver "${row.subType}" (${row.description}): kept as OTHER`);
  return base(row, ctx, 'OTHER');
}

export function mapRows(rows: TastyRow[], ctx: MapContext): RawRow[] {
  const corporate = rows.filter((row) => row.type.toLowerCase() === 'receive deliver' && CHANGE_SUBTYPES[row.subType.toLowerCase()] !== undefined);
  const paired = pairCorporateActions(corporate, ctx);
  const out: RawRow[] = [];
  for (const row of rows) {
    if (paired.has(row)) {
      const tx = paired.get(row);
      if (tx) out.push({ line: row.line, transaction: tx });
      continue;
    }
    const code = row.type.toLowerCase();
    let tx: RawTransaction;
    if (code === 'trade') {
      const type = tradeType(row);
      if (type === null) ctx.warn(row.line, `trade with unknown action "${row.action}": kept as OTHER`);
      tx = base(row, ctx, type ?? 'OTHER');
    } else if (code === 'receive deliver') {
      tx = receiveDeliver(row, ctx);
    } else if (code === 'money movement') {
      const type = moneyMovementType(row);
      if (type === null) ctx.warn(row.line, `unknown Money Movement "${row.subType}" (${row.description}): kept as OTHER`);
      tx = base(row, ctx, type ?? 'OTHER');
      tx.quantity = 0;
      tx.priceMinor = ZERO_MINOR;
      tx.multiplier = 1;
    } else {
      ctx.warn(row.line, `unknown transaction type "${row.type}": kept as OTHER`);
      tx = base(row, ctx, 'OTHER');
    }
    out.push({ line: row.line, transaction: tx });
  }
  return out;
}
