/**
 * thinkorswim statement → neutral transactions.
 *
 * Trades come from Account Trade History, one transaction per leg (side + position effect give
 * BTO/STO/BTC/STC; STOCK/ETF legs are BUY/SELL). Each order is matched to its Cash Balance TRD row by
 * execution time (and symbol): that row gives the REF # (orderId), commissions and misc fees, and the
 * cash, which is spread over the legs so that their amounts add up to the row exactly.
 * The other Cash Balance rows: RAD "REMOVAL OF OPTION DUE TO EXPIRATION|ASSIGNMENT|EXERCISE" →
 * EXPIRATION/ASSIGNMENT/EXERCISE at 0; TRD "BOT +200 PFE UPON OPTION ASSIGNMENT" (no Trade History leg) →
 * BUY/SELL at AMOUNT/qty; DOI → DIVIDEND (or INTEREST when it says so; withholding stays a negative
 * DIVIDEND); EFN/WIN/WOUT/JRN → DEPOSIT/WITHDRAWAL by sign; interest and fee adjustments → INTEREST/FEE.
 * Amounts are the cash effect: AMOUNT + Misc Fees + Commissions & Fees.
 */
import type { ImportedTransaction, OptionRight, TransactionType } from '../../../src-shared/journal/model';
import { occSymbol } from '../../../src-shared/journal/model';
import type { CsvRecord } from '../common/csv';
import { clockTo24h, dayMonYyToYmd, localToUtc, mdyToYmd } from '../common/dates';
import type { RowIdentity } from '../common/rows';
import { RowReader, pricePerShareMinor, transaction } from '../common/rows';
import type { LineProblem, ParsedRow } from '../types';
import { cleanRef } from './schema';

export const SOURCE = 'thinkorswim-csv';

export interface Context {
  accountName: string;
  zone: string;
  identity: RowIdentity;
  errors: LineProblem[];
  warn(line: number | null, message: string): void;
}

interface Leg {
  line: number;
  rowId: string;
  /** `YYYY-MM-DD HH:MM:SS` local: the key shared with the Cash Balance row. */
  key: string;
  tradeDate: string;
  side: 'BUY' | 'SELL';
  quantity: number;
  effect: string;
  symbol: string;
  option: { expiration: string; strike: number; right: OptionRight } | null;
  priceMinor: number;
  description: string;
}

interface Order {
  key: string;
  legs: Leg[];
  matched: boolean;
}

export interface CashRow {
  line: number;
  rowId: string;
  key: string;
  tradeDate: string;
  type: string;
  ref: string;
  description: string;
  miscFeesMinor: number;
  commissionMinor: number;
  amountMinor: number;
}

function when(ymd: string | null, clock: string | null, ctx: Context): { key: string; tradeDate: string } | null {
  if (ymd === null || clock === null) return null;
  const tradeDate = localToUtc(ymd, clock, ctx.zone);
  return tradeDate === null ? null : { key: `${ymd} ${clock}`, tradeDate };
}

export function readCashRow(record: CsvRecord, columns: Map<string, number>, ctx: Context): CashRow | null {
  const reader = new RowReader(record, columns, ctx.errors);
  const at = when(mdyToYmd(reader.text('DATE')), clockTo24h(reader.text('TIME')), ctx);
  if (at === null) reader.fail('DATE', `not a date and time (1/3/24, 09:35:12): "${reader.text('DATE')} ${reader.text('TIME')}"`);
  const miscFeesMinor = reader.money('Misc Fees');
  const commissionMinor = reader.money('Commissions & Fees');
  const amountMinor = reader.money('AMOUNT');
  if (!reader.ok || at === null) return null;
  const ref = cleanRef(reader.text('REF #'));
  const description = reader.text('DESCRIPTION');
  return {
    line: record.line,
    rowId: ctx.identity.next(['cash', at.key, reader.text('TYPE'), ref, description, reader.text('Misc Fees'), reader.text('Commissions & Fees'), reader.text('AMOUNT')]),
    key: at.key,
    tradeDate: at.tradeDate,
    type: reader.text('TYPE').toUpperCase(),
    ref,
    description,
    miscFeesMinor,
    commissionMinor,
    amountMinor,
  };
}

/** Reads the Account Trade History legs, grouping further legs (no Exec Time) with their order. */
export function readOrders(rows: CsvRecord[], columns: Map<string, number>, ctx: Context): Order[] {
  const orders: Order[] = [];
  let current: Order | null = null;
  let currentAt: { key: string; tradeDate: string } | null = null;
  for (const record of rows) {
    const reader = new RowReader(record, columns, ctx.errors);
    const execTime = reader.text('Exec Time');
    if (execTime !== '') {
      const match = /^(\S+)\s+(\S+)$/.exec(execTime);
      currentAt = match ? when(mdyToYmd(match[1] ?? ''), clockTo24h(match[2] ?? ''), ctx) : null;
      if (currentAt === null) {
        reader.fail('Exec Time', `not a date and time (1/3/24 09:35:12): "${execTime}"`);
        current = null;
        continue;
      }
      current = { key: currentAt.key, legs: [], matched: false };
      orders.push(current);
    } else if (current === null || currentAt === null) {
      reader.fail('Exec Time', 'a further leg with no order above it');
      continue;
    }
    const sideText = reader.text('Side').toUpperCase();
    if (sideText !== 'BUY' && sideText !== 'SELL') reader.fail('Side', `expected BUY or SELL: "${reader.text('Side')}"`);
    const quantity = Math.abs(reader.number('Qty'));
    const priceMinor = Math.abs(reader.money('Price'));
    const kind = reader.text('Type').toUpperCase();
    let option: Leg['option'] = null;
    if (kind === 'CALL' || kind === 'PUT') {
      const expText = reader.text('Exp').replace(/\([^)]*\)/g, '').trim();
      const expiration = dayMonYyToYmd(expText);
      if (expiration === null) reader.fail('Exp', `not an expiration (17 JAN 25): "${reader.text('Exp')}"`);
      const strikeText = reader.text('Strike').replace(/,/g, '');
      if (!/^\d+(\.\d+)?$/.test(strikeText)) reader.fail('Strike', `not a strike: "${reader.text('Strike')}"`);
      if (expiration !== null) option = { expiration, strike: Number(strikeText), right: kind === 'CALL' ? 'C' : 'P' };
    }
    if (!reader.ok) continue;
    const symbol = reader.text('Symbol').toUpperCase();
    const effect = reader.text('Pos Effect').toUpperCase();
    current.legs.push({
      line: record.line,
      rowId: ctx.identity.next(['trade', currentAt.key, ...record.cells.slice(2)]),
      key: currentAt.key,
      tradeDate: currentAt.tradeDate,
      side: sideText === 'BUY' ? 'BUY' : 'SELL',
      quantity,
      effect,
      symbol,
      option,
      priceMinor,
      description: record.cells.slice(2).filter((cell) => cell.trim() !== '').join(' '),
    });
  }
  return orders.filter((order) => order.legs.length > 0);
}

function legType(leg: Leg): TransactionType | null {
  if (leg.option === null) return leg.side;
  if (leg.effect === 'TO OPEN') return leg.side === 'BUY' ? 'BUY_TO_OPEN' : 'SELL_TO_OPEN';
  if (leg.effect === 'TO CLOSE') return leg.side === 'BUY' ? 'BUY_TO_CLOSE' : 'SELL_TO_CLOSE';
  return null;
}

/** Splits `total` (unsigned minor units) over `count` legs: equal shares, the remainder on the first. */
function spread(total: number, count: number): number[] {
  const share = Math.floor(total / count);
  return Array.from({ length: count }, (_, index) => (index === 0 ? total - share * (count - 1) : share));
}

function orderTransactions(order: Order, cash: CashRow | null, ctx: Context): ParsedRow[] {
  const commissions = spread(Math.abs(cash?.commissionMinor ?? 0), order.legs.length);
  const fees = spread(Math.abs(cash?.miscFeesMinor ?? 0), order.legs.length);
  let grossLeft = cash?.amountMinor ?? 0;
  return order.legs.map((leg, index) => {
    const multiplier = leg.option ? 100 : 1;
    const sign = leg.side === 'SELL' ? 1 : -1;
    let grossMinor = sign * Math.round(leg.priceMinor * leg.quantity * multiplier);
    if (cash !== null) {
      // The last leg takes what the others leave, so the legs add up to the cash row exactly.
      if (index === order.legs.length - 1) grossMinor = grossLeft;
      grossLeft -= grossMinor;
    }
    const commissionMinor = commissions[index] ?? 0;
    const feesMinor = fees[index] ?? 0;
    let type = legType(leg);
    if (type === null) {
      ctx.warn(leg.line, `option leg with position effect "${leg.effect}": kept as OTHER`);
      type = 'OTHER';
    }
    const option = leg.option;
    const tx = transaction({
      accountName: ctx.accountName,
      brokerRowId: leg.rowId,
      type,
      tradeDate: leg.tradeDate,
      source: SOURCE,
      symbol: option ? occSymbol(leg.symbol, option.expiration, option.right, option.strike) : leg.symbol,
      underlying: leg.symbol,
      isOption: option !== null,
      expiration: option?.expiration ?? null,
      strike: option?.strike ?? null,
      right: option?.right ?? null,
      quantity: leg.quantity,
      priceMinor: leg.priceMinor,
      multiplier,
      amountMinor: grossMinor - commissionMinor - feesMinor,
      commissionMinor,
      feesMinor,
      orderId: cash?.ref || null,
      description: cash ? `${cash.description} | ${leg.description}` : leg.description,
    });
    return { line: leg.line, transaction: tx };
  });
}

const STRATEGIES = /^(?:VERTICAL|CALENDAR|COMBO|COVERED|DIAGONAL|DBL DIAG|STRADDLE|STRANGLE|BUTTERFLY|CONDOR|IRON CONDOR|VERT ROLL|CUSTOM|COLLAR|BACKRATIO|UNBALANCED)\s+/;

/** `tIP SOLD -2 VERTICAL PFE 100 ...` → side, quantity and symbol; null when not a BOT/SOLD line. */
function tradeLine(description: string): { side: 'BUY' | 'SELL'; quantity: number; symbol: string; rest: string } | null {
  const match = /\b(BOT|SOLD)\s+([+-]?[\d,]*\.?\d+)\s+(.*)$/.exec(description.toUpperCase());
  if (!match?.[1] || !match[2] || match[3] === undefined) return null;
  const rest = match[3].replace(STRATEGIES, '');
  return {
    side: match[1] === 'BOT' ? 'BUY' : 'SELL',
    quantity: Math.abs(Number(match[2].replace(/,/g, ''))),
    symbol: rest.split(/\s+/)[0] ?? '',
    rest,
  };
}

const REMOVAL = /REMOVAL OF OPTION DUE TO (EXPIRATION|ASSIGNMENT|EXERCISE)\s+([+-]?[\d,]*\.?\d+)\s+(\S+)\s+(\d+)\s+(?:\([^)]*\)\s+)?(\d{1,2}\s+[A-Z]{3}\s+\d{2,4})\s+(\d+(?:\.\d+)?)\s+(CALL|PUT)/;

function cashBase(row: CashRow, ctx: Context, type: TransactionType): ImportedTransaction {
  const commissionMinor = Math.abs(row.commissionMinor);
  const feesMinor = Math.abs(row.miscFeesMinor);
  // `ORDINARY DIVIDEND~PFE` names the security after the tilde (`~NO DESCRIPTION` does not).
  const symbol = /~([A-Z0-9./]+)\s*$/.exec(row.description.toUpperCase())?.[1] ?? '';
  return transaction({
    accountName: ctx.accountName,
    brokerRowId: row.rowId,
    type,
    tradeDate: row.tradeDate,
    source: SOURCE,
    symbol,
    underlying: symbol,
    amountMinor: row.amountMinor - commissionMinor - feesMinor,
    commissionMinor,
    feesMinor,
    orderId: row.ref || null,
    description: row.description,
  });
}

function cashTransaction(row: CashRow, ctx: Context): ImportedTransaction {
  const text = row.description.toUpperCase();
  const net = row.amountMinor - Math.abs(row.commissionMinor) - Math.abs(row.miscFeesMinor);
  if (row.type === 'RAD') {
    const removal = REMOVAL.exec(text);
    const expiration = removal?.[5] !== undefined ? dayMonYyToYmd(removal[5]) : null;
    if (removal && expiration !== null) {
      const [, event, qty, root, mult, , strikeText, rightText] = removal;
      const type: TransactionType = event === 'EXPIRATION' ? 'EXPIRATION' : event === 'ASSIGNMENT' ? 'ASSIGNMENT' : 'EXERCISE';
      const right: OptionRight = rightText === 'CALL' ? 'C' : 'P';
      const strike = Number(strikeText);
      const tx = cashBase(row, ctx, type);
      const ticker = root ?? '';
      Object.assign(tx, {
        symbol: occSymbol(ticker, expiration, right, strike),
        underlying: ticker,
        isOption: true,
        expiration,
        strike,
        right,
        quantity: Math.abs(Number((qty ?? '0').replace(/,/g, ''))),
        multiplier: Number(mult),
      });
      return tx;
    }
  }
  if (row.type === 'TRD') {
    const trade = tradeLine(row.description);
    const upon = trade !== null && /UPON OPTION (ASSIGNMENT|EXERCISE)|^\S+\s+@/.test(trade.rest);
    if (trade !== null && upon && !/\b(CALL|PUT)\b/.test(trade.rest)) {
      const tx = cashBase(row, ctx, trade.side);
      tx.symbol = trade.symbol;
      tx.underlying = trade.symbol;
      tx.quantity = trade.quantity;
      tx.priceMinor = pricePerShareMinor(row.amountMinor, trade.quantity, 1);
      return tx;
    }
    ctx.warn(row.line, `trade "${row.description}" has no Account Trade History leg: kept as OTHER`);
    return cashBase(row, ctx, 'OTHER');
  }
  if (text.includes('INTEREST')) return cashBase(row, ctx, 'INTEREST');
  if (row.type === 'DOI') return cashBase(row, ctx, 'DIVIDEND');
  if (/\bFEE\b/.test(text)) return cashBase(row, ctx, 'FEE');
  if (['EFN', 'WIN', 'WOUT', 'WIR', 'JRN', 'ACH', 'CSH'].includes(row.type)) {
    if (text.includes('MARK TO THE MARKET')) return cashBase(row, ctx, 'OTHER');
    return cashBase(row, ctx, net >= 0 ? 'DEPOSIT' : 'WITHDRAWAL');
  }
  if (row.type === 'ADJ' || row.type === 'LIQ' || row.type === 'RAD') {
    if (row.type === 'RAD') ctx.warn(row.line, `receive/deliver "${row.description}" not understood: kept as OTHER`);
    return cashBase(row, ctx, 'OTHER');
  }
  ctx.warn(row.line, `unknown Cash Balance type "${row.type}" (${row.description}): kept as OTHER`);
  return cashBase(row, ctx, 'OTHER');
}

/** Matches orders to TRD rows and maps everything, in file order. */
export function mapStatement(orders: Order[], cashRows: CashRow[], ctx: Context): ParsedRow[] {
  const out: ParsedRow[] = [];
  const byKey = new Map<string, Order[]>();
  for (const order of orders) byKey.set(order.key, [...(byKey.get(order.key) ?? []), order]);
  for (const row of cashRows) {
    if (row.type === 'TRD') {
      const trade = tradeLine(row.description);
      const candidates = (byKey.get(row.key) ?? []).filter((order) => !order.matched);
      const order =
        candidates.find((candidate) => trade !== null && candidate.legs[0]?.symbol === trade.symbol) ?? (trade !== null && !/UPON OPTION/.test(trade.rest) ? candidates[0] : undefined);
      if (order) {
        order.matched = true;
        out.push(...orderTransactions(order, row, ctx));
        continue;
      }
    }
    out.push({ line: row.line, transaction: cashTransaction(row, ctx) });
  }
  for (const order of orders) {
    if (order.matched) continue;
    const first = order.legs[0];
    ctx.warn(first?.line ?? null, `trade at ${order.key} has no Cash Balance row: amount from price × quantity, fees unknown`);
    out.push(...orderTransactions(order, null, ctx));
  }
  return out.sort((a, b) => a.line - b.line);
}
