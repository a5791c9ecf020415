/**
 * Schwab rows → neutral transactions. Fees & Comm is one number; it goes to commissionMinor (Schwab's
 * option cost is mostly the $0.65/contract commission) and Amount, already net, is amountMinor.
 */
import type { RawTransaction, TransactionType } from '../../../src-shared/journal/model';
import { transaction } from '../common/result';
import type { LineProblem, RawRow } from '../types';
import type { SchwabRow } from './schema';
import { contractColumns } from '../common/options';
import { ZERO_MINOR, addMinor } from '../../../src-shared/money';

export const SOURCE = 'schwab-csv';

export interface MapContext {
  accountName: string;
  warn(line: number | null, message: string): void;
  skip(problem: LineProblem): void;
  /** Lines that became one transaction (the report lists them: its counts add up). */
  merge(lines: readonly number[], reason: string): void;
}

type Rule =
  | { kind: 'trade' }
  | { kind: 'option-event'; type: TransactionType }
  | { kind: 'cash'; type: TransactionType }
  | { kind: 'transfer' }
  | { kind: 'split' }
  | { kind: 'stock-dividend' }
  | { kind: 'pair'; type: TransactionType }
  | { kind: 'shares-moved' }
  | { kind: 'other'; warning: string | null };

const TRADE_ACTIONS = new Set([
  'buy', 'sell', 'sell short', 'buy to cover', 'reinvest shares',
  'buy to open', 'sell to open', 'buy to close', 'sell to close',
]);

/** The action's rule; exact names first, then the families Schwab keeps adding names to. */
function ruleOf(action: string): Rule {
  const name = action.trim().toLowerCase();
  if (TRADE_ACTIONS.has(name)) return { kind: 'trade' };
  switch (name) {
    case 'expired':
      return { kind: 'option-event', type: 'EXPIRATION' };
    case 'assigned':
      return { kind: 'option-event', type: 'ASSIGNMENT' };
    case 'exchange or exercise':
      return { kind: 'option-event', type: 'EXERCISE' };
    case 'stock split':
      return { kind: 'split' };
    case 'stock div dist':
      return { kind: 'stock-dividend' };
    case 'reverse split':
      return { kind: 'pair', type: 'SPLIT' };
    case 'name change':
    case 'stock merger':
    case 'conversion':
      return { kind: 'pair', type: 'SYMBOL_CHANGE' };
    case 'spin-off':
      return { kind: 'other', warning: 'spin-off shares kept as OTHER: the file has no cost basis split' };
    case 'cash in lieu':
      return { kind: 'other', warning: null };
    case 'journaled shares':
    case 'security transfer':
    case 'internal transfer':
      return { kind: 'shares-moved' };
    default:
      break;
  }
  if (/tax|withholding/.test(name)) return { kind: 'cash', type: 'DIVIDEND' };
  if (/div|cap gain/.test(name)) return { kind: 'cash', type: 'DIVIDEND' };
  if (name.includes('interest')) return { kind: 'cash', type: 'INTEREST' };
  if (name.includes('fee')) return { kind: 'cash', type: 'FEE' };
  if (/moneylink|wire|journal|transfer|deposit|funds|ach|check|sweep/.test(name)) return { kind: 'transfer' };
  return { kind: 'other', warning: `unknown Schwab action "${action}": kept as OTHER` };
}

function base(row: SchwabRow, ctx: MapContext, type: TransactionType): RawTransaction {
  const option = row.option;
  return transaction({
    accountName: ctx.accountName,
    brokerRowId: row.rowId,
    type,
    tradeDate: row.tradeDate,
    source: SOURCE,
    symbol: option ? option.symbol : row.symbol,
    underlying: option ? option.root : row.symbol,
    ...contractColumns(option),
    quantity: Math.abs(row.quantity),
    priceMinor: row.priceMinor,
    multiplier: option ? 100 : 1,
    amountMinor: row.amountMinor,
    commissionMinor: row.feesMinor,
    description: row.description,
  });
}

/** A split row without its pair: the shares it adds (or removes), signed as the file has them. */
function loneSplit(row: SchwabRow, ctx: MapContext): RawTransaction {
  return { ...base(row, ctx, 'SPLIT'), quantity: row.quantity };
}

function tradeType(row: SchwabRow): TransactionType | null {
  const name = row.action.trim().toLowerCase();
  if (row.option) {
    switch (name) {
      case 'buy to open':
        return 'BUY_TO_OPEN';
      case 'sell to open':
        return 'SELL_TO_OPEN';
      case 'buy to close':
        return 'BUY_TO_CLOSE';
      case 'sell to close':
        return 'SELL_TO_CLOSE';
      default:
        // A plain Buy/Sell of an option does not say open or close.
        return null;
    }
  }
  if (name === 'sell short') return 'SELL_SHORT';
  if (name === 'buy to cover') return 'BUY_TO_COVER';
  if (name.startsWith('buy') || name === 'reinvest shares') return 'BUY';
  return 'SELL';
}

/** Pairs the new (+quantity) and old (−quantity) rows of one corporate action on one day. */
function mapPairs(rows: SchwabRow[], ctx: MapContext): Map<SchwabRow, RawTransaction | null> {
  const out = new Map<SchwabRow, RawTransaction | null>();
  const groups = new Map<string, SchwabRow[]>();
  for (const row of rows) {
    const key = `${row.day}|${row.action.toLowerCase()}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  for (const legs of groups.values()) {
    const added = legs.filter((leg) => leg.quantity > 0);
    const removed = legs.filter((leg) => leg.quantity < 0);
    for (const next of added) {
      const rule = ruleOf(next.action);
      const type = rule.kind === 'pair' ? rule.type : 'SYMBOL_CHANGE';
      const previous = removed.shift();
      if (previous === undefined) {
        if (type === 'SPLIT') {
          out.set(next, loneSplit(next, ctx));
        } else {
          ctx.warn(next.line, `${next.action} of ${next.symbol} without the removed security's row: kept as OTHER`);
          out.set(next, base(next, ctx, 'OTHER'));
        }
        continue;
      }
      const tx = base(next, ctx, type);
      tx.brokerRowId = `${previous.rowId}+${next.rowId}`;
      tx.amountMinor = addMinor(previous.amountMinor, next.amountMinor);
      tx.commissionMinor = addMinor(previous.feesMinor, next.feesMinor);
      tx.priceMinor = ZERO_MINOR;
      tx.description = `${previous.description} / ${next.description}`;
      // The action's ratio is the account's own: new shares over the old surrendered (docs/journal.md §Corporate actions).
      const oldQuantity = Math.abs(previous.quantity);
      const ratio = oldQuantity > 0 ? next.quantity / oldQuantity : null;
      const name = next.action.trim().toLowerCase();
      if (type === 'SPLIT') {
        // The signed share change; the ticker stays, Schwab names the old lot by CUSIP.
        tx.quantity = next.quantity + previous.quantity;
        tx.corporateAction = { type: 'split', symbol: next.symbol, newSymbol: null, ratio, cashPerShareMinor: null, costFraction: null, quantity: tx.quantity };
      } else {
        const merger = name !== 'name change' || (ratio !== null && Math.abs(ratio - 1) > 1e-9);
        tx.corporateAction = { type: merger ? 'merger' : 'symbol_change', symbol: previous.symbol, newSymbol: next.symbol, ratio, cashPerShareMinor: null, costFraction: null, quantity: null };
        tx.quantity = next.quantity;
        tx.previousSymbol = previous.symbol;
        if (/^[0-9A-Z]{9}$/.test(previous.symbol) && /\d/.test(previous.symbol)) {
          ctx.warn(next.line, `${next.action}: Schwab names the old security by CUSIP ${previous.symbol}, not by its ticker`);
        }
        if (Math.abs(previous.quantity) !== next.quantity) {
          ctx.warn(next.line, `${next.action}: ${Math.abs(previous.quantity)} ${previous.symbol} became ${next.quantity} ${next.symbol}`);
        }
      }
      const first = previous.line < next.line ? previous : next;
      out.set(first, tx);
      out.set(first === previous ? next : previous, null);
      ctx.merge([previous.line, next.line], `${next.action}: ${previous.symbol} and ${next.symbol} as one ${type}`);
    }
    for (const lone of removed) {
      const rule = ruleOf(lone.action);
      if (rule.kind === 'pair' && rule.type === 'SPLIT') {
        out.set(lone, loneSplit(lone, ctx));
      } else {
        ctx.warn(lone.line, `${lone.action} removing ${lone.symbol} without the new security's row: kept as OTHER`);
        out.set(lone, base(lone, ctx, 'OTHER'));
      }
    }
    for (const zero of legs.filter((leg) => leg.quantity === 0)) {
      ctx.warn(zero.line, `${zero.action} without a quantity: kept as OTHER`);
      out.set(zero, base(zero, ctx, 'OTHER'));
    }
  }
  return out;
}

/**
 * Journaled Shares, Security Transfer and Internal Transfer rows move shares (or cash) without a trade:
 * - a stock split booked this way (`TDA TRAN - STOCK SPLIT (NDAQ)`) is a SPLIT;
 * - the same shares out and back in on one day (TD Ameritrade's move to Schwab writes both rows) change
 *   nothing: both are skipped and the lots keep their dates and basis;
 * - shares coming in are a BUY at zero cost basis with a warning (the file has no basis; Schwab's price on
 *   these rows is the market value), like tastytrade's ACAT transfers, so that their later sale closes them
 *   instead of opening a phantom short;
 * - shares going out are OTHER with a warning (the lots stay in the journal);
 * - rows without shares are cash (DEPOSIT/WITHDRAWAL by sign), or skipped when they move nothing.
 */
function mapShareMoves(rows: SchwabRow[], ctx: MapContext): Map<SchwabRow, RawTransaction | null> {
  const out = new Map<SchwabRow, RawTransaction | null>();
  const pending = rows.filter((row) => row.symbol !== '' && row.quantity !== 0 && !/stock split/i.test(row.description));
  for (const outgoing of pending.filter((row) => row.quantity < 0)) {
    const incoming = pending.find((row) => row.quantity > 0 && !out.has(row) && row.day === outgoing.day && row.symbol === outgoing.symbol && row.quantity === -outgoing.quantity);
    if (incoming === undefined) continue;
    for (const [row, other] of [[outgoing, incoming], [incoming, outgoing]] as const) {
      out.set(row, null);
      ctx.skip({ line: row.line, message: `${row.action} ${row.quantity} ${row.symbol}: moved between the file's own accounts (line ${other.line} has the other side); the lots keep their dates and basis` });
    }
  }
  for (const row of rows) {
    if (out.has(row)) continue;
    if (row.symbol === '' || row.quantity === 0) {
      if (row.amountMinor === 0) {
        out.set(row, null);
        ctx.skip({ line: row.line, message: `${row.action} "${row.description}" moves neither shares nor cash` });
        continue;
      }
      const tx = base(row, ctx, row.amountMinor >= 0 ? 'DEPOSIT' : 'WITHDRAWAL');
      tx.quantity = 0;
      tx.priceMinor = ZERO_MINOR;
      out.set(row, tx);
    } else if (/stock split/i.test(row.description)) {
      const tx = base(row, ctx, 'SPLIT');
      tx.quantity = row.quantity;
      tx.priceMinor = ZERO_MINOR;
      out.set(row, tx);
    } else if (row.quantity > 0) {
      const tx = base(row, ctx, row.option ? 'BUY_TO_OPEN' : 'BUY');
      tx.priceMinor = ZERO_MINOR;
      ctx.warn(row.line, `${row.action}: ${row.quantity} ${row.symbol} came in without a cost basis in the file: opened at zero basis, so a later sale realizes the full proceeds`);
      out.set(row, tx);
    } else {
      ctx.warn(row.line, `${row.action}: ${-row.quantity} ${row.symbol} left the account: kept as OTHER (the file has no price for it; its lots stay open in the journal)`);
      out.set(row, base(row, ctx, 'OTHER'));
    }
  }
  return out;
}

export function mapRows(rows: SchwabRow[], ctx: MapContext): RawRow[] {
  const paired = mapPairs(rows.filter((row) => ruleOf(row.action).kind === 'pair'), ctx);
  const moved = mapShareMoves(rows.filter((row) => ruleOf(row.action).kind === 'shares-moved'), ctx);
  const out: RawRow[] = [];
  for (const row of rows) {
    const rule = ruleOf(row.action);
    let tx: RawTransaction | null = null;
    switch (rule.kind) {
      case 'pair':
        tx = paired.get(row) ?? null;
        break;
      case 'shares-moved':
        tx = moved.get(row) ?? null;
        break;
      case 'trade': {
        const type = tradeType(row);
        if (type === null) ctx.warn(row.line, `"${row.action}" of option ${row.symbol} does not say open or close: kept as OTHER`);
        tx = base(row, ctx, type ?? 'OTHER');
        break;
      }
      case 'option-event':
        if (row.option === null) {
          ctx.warn(row.line, `"${row.action}" on ${row.symbol}, which is not an option symbol: kept as OTHER`);
          tx = base(row, ctx, 'OTHER');
        } else {
          tx = base(row, ctx, rule.type);
          tx.priceMinor = ZERO_MINOR;
        }
        break;
      case 'cash':
        tx = base(row, ctx, rule.type);
        tx.quantity = 0;
        tx.priceMinor = ZERO_MINOR;
        break;
      case 'transfer':
        tx = base(row, ctx, row.amountMinor >= 0 ? 'DEPOSIT' : 'WITHDRAWAL');
        tx.quantity = 0;
        tx.priceMinor = ZERO_MINOR;
        break;
      case 'split':
        tx = base(row, ctx, 'SPLIT');
        tx.quantity = row.quantity;
        tx.priceMinor = ZERO_MINOR;
        break;
      case 'stock-dividend':
        // Shares received at zero cost (docs/journal.md §Corporate actions), whether or not the file bought the stock.
        tx = base(row, ctx, 'SPLIT');
        tx.quantity = row.quantity;
        tx.priceMinor = ZERO_MINOR;
        tx.corporateAction = { type: 'stock_dividend', symbol: row.symbol, newSymbol: null, ratio: null, cashPerShareMinor: null, costFraction: null, quantity: row.quantity };
        break;
      case 'other':
        if (rule.warning !== null) ctx.warn(row.line, rule.warning);
        tx = base(row, ctx, 'OTHER');
        break;
    }
    if (tx) out.push({ line: row.line, transaction: tx });
  }
  return out;
}
