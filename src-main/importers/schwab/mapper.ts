/**
 * Schwab rows → neutral transactions. Fees & Comm is one number; it goes to commissionMinor (Schwab's
 * option cost is mostly the $0.65/contract commission) and Amount, already net, is amountMinor.
 */
import type { ImportedTransaction, TransactionType } from '../../../src-shared/journal/model';
import { transaction } from '../common/rows';
import type { LineProblem, ParsedRow } from '../types';
import type { SchwabRow } from './schema';

export const SOURCE = 'schwab-csv';

export interface MapContext {
  accountName: string;
  warn(line: number | null, message: string): void;
  skip(problem: LineProblem): void;
}

type Rule =
  | { kind: 'trade' }
  | { kind: 'option-event'; type: TransactionType }
  | { kind: 'cash'; type: TransactionType }
  | { kind: 'transfer' }
  | { kind: 'split' }
  | { kind: 'pair'; type: TransactionType }
  | { kind: 'other'; warning: string | null }
  | { kind: 'skip'; reason: string };

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
    case 'stock div dist':
      return { kind: 'split' };
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
      return { kind: 'skip', reason: 'shares moved between accounts without cash (no cost basis in the file)' };
    default:
      break;
  }
  if (/tax|withholding/.test(name)) return { kind: 'cash', type: 'DIVIDEND' };
  if (/div|cap gain/.test(name)) return { kind: 'cash', type: 'DIVIDEND' };
  if (name.includes('interest')) return { kind: 'cash', type: 'INTEREST' };
  if (name.includes('fee')) return { kind: 'cash', type: 'FEE' };
  if (/moneylink|wire|journal|transfer|deposit|funds|ach|check/.test(name)) return { kind: 'transfer' };
  return { kind: 'other', warning: `unknown Schwab action "${action}": kept as OTHER` };
}

function base(row: SchwabRow, ctx: MapContext, type: TransactionType): ImportedTransaction {
  const option = row.option;
  return transaction({
    accountName: ctx.accountName,
    brokerRowId: row.rowId,
    type,
    tradeDate: row.tradeDate,
    source: SOURCE,
    symbol: option ? option.symbol : row.symbol,
    underlying: option ? option.root : row.symbol,
    isOption: option !== null,
    expiration: option?.expiration ?? null,
    strike: option?.strike ?? null,
    right: option?.right ?? null,
    quantity: Math.abs(row.quantity),
    priceMinor: row.priceMinor,
    multiplier: option ? 100 : 1,
    amountMinor: row.amountMinor,
    commissionMinor: row.feesMinor,
    description: row.description,
  });
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
  if (name.startsWith('buy') || name === 'reinvest shares') return 'BUY';
  return 'SELL';
}

/** Pairs the new (+quantity) and old (−quantity) rows of one corporate action on one day. */
function mapPairs(rows: SchwabRow[], ctx: MapContext): Map<SchwabRow, ImportedTransaction | null> {
  const out = new Map<SchwabRow, ImportedTransaction | null>();
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
          const tx = base(next, ctx, 'SPLIT');
          tx.quantity = next.quantity;
          out.set(next, tx);
        } else {
          ctx.warn(next.line, `${next.action} of ${next.symbol} without the removed security's row: kept as OTHER`);
          out.set(next, base(next, ctx, 'OTHER'));
        }
        continue;
      }
      const tx = base(next, ctx, type);
      tx.brokerRowId = `${previous.rowId}+${next.rowId}`;
      tx.amountMinor = previous.amountMinor + next.amountMinor;
      tx.commissionMinor = previous.feesMinor + next.feesMinor;
      tx.priceMinor = 0;
      tx.description = `${previous.description} / ${next.description}`;
      if (type === 'SPLIT') {
        // The signed share change; the ticker stays, Schwab names the old lot by CUSIP.
        tx.quantity = next.quantity + previous.quantity;
      } else {
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
    }
    for (const lone of removed) {
      const rule = ruleOf(lone.action);
      if (rule.kind === 'pair' && rule.type === 'SPLIT') {
        const tx = base(lone, ctx, 'SPLIT');
        tx.quantity = lone.quantity;
        out.set(lone, tx);
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

export function mapRows(rows: SchwabRow[], ctx: MapContext): ParsedRow[] {
  const paired = mapPairs(rows.filter((row) => ruleOf(row.action).kind === 'pair'), ctx);
  const out: ParsedRow[] = [];
  for (const row of rows) {
    const rule = ruleOf(row.action);
    let tx: ImportedTransaction | null = null;
    switch (rule.kind) {
      case 'pair':
        tx = paired.get(row) ?? null;
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
          tx.priceMinor = 0;
        }
        break;
      case 'cash':
        tx = base(row, ctx, rule.type);
        tx.quantity = 0;
        tx.priceMinor = 0;
        break;
      case 'transfer':
        tx = base(row, ctx, row.amountMinor >= 0 ? 'DEPOSIT' : 'WITHDRAWAL');
        tx.quantity = 0;
        tx.priceMinor = 0;
        break;
      case 'split':
        tx = base(row, ctx, 'SPLIT');
        tx.quantity = row.quantity;
        tx.priceMinor = 0;
        break;
      case 'other':
        if (rule.warning !== null) ctx.warn(row.line, rule.warning);
        tx = base(row, ctx, 'OTHER');
        break;
      case 'skip':
        ctx.skip({ line: row.line, message: `${row.action} ${row.quantity} ${row.symbol}: ${rule.reason}` });
        break;
    }
    if (tx) out.push({ line: row.line, transaction: tx });
  }
  return out;
}
