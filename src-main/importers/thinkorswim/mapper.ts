/**
 * thinkorswim statement → neutral transactions.
 *
 * Trades come from Account Trade History, one transaction per leg (side + position effect give BTO/STO/BTC/STC;
 * STOCK/ETF legs are BUY/SELL). Each order is matched to its Cash Balance TRD row — the same fill booked again as
 * cash — by execution time (to the minute when Trade History's times carry no seconds), symbol, side, quantity
 * and price: that row gives the REF # (orderId), commissions and misc fees, and the cash, which is spread over
 * the legs so that their amounts add up to the row exactly. A matched TRD row is never a transaction of its own.
 * The other Cash Balance rows: RAD "REMOVAL OF OPTION DUE TO EXPIRATION|ASSIGNMENT|EXERCISE" →
 * EXPIRATION/ASSIGNMENT/EXERCISE at 0; TRD "BOT +200 PFE UPON OPTION ASSIGNMENT" (no Trade History leg) →
 * BUY/SELL at AMOUNT/qty; DOI → DIVIDEND (or INTEREST when it says so; withholding stays a negative DIVIDEND);
 * EFN/WIN/WOUT/JRN → DEPOSIT/WITHDRAWAL by sign; interest and fee adjustments → INTEREST/FEE.
 * Amounts are the cash effect: AMOUNT + Misc Fees + Commissions & Fees.
 *
 * Futures options (`/NQM22 1/20 APR 22 (Wednesday) (Wk5)`, product `/Q4CJ22`) are options on the future with the
 * future's multiplier (20 here); their expiration is the named weekday of the named calendar week of the month.
 * A futures-option leg whose expiration the statement does not give, and a futures leg, are skipped with a reason.
 */
import type { RawTransaction, OptionRight, TransactionType } from '../../../src-shared/journal/model';
import { occSymbol } from '../../../src-shared/journal/model';
import { pricePerShareMinor } from '../common/amounts';
import { dayMonYyToYmd } from '../common/dates';
import { contractColumns } from '../common/options';
import { transaction } from '../common/result';
import { describedOrder } from './described';
import type { StatementFacts } from './figures';
import { inferOptionEffects } from './positions';
import { placeRemovals, type Removal } from './removals';
import type { CashRow, Context, Leg, Order } from './rows';
import { ZERO_MINOR, MINOR_PER_UNIT, absMinor, subMinor, asMinor, type Minor } from '../../../src-shared/money';

export const SOURCE = 'thinkorswim-csv';

function legType(leg: Leg): TransactionType | null {
  // Shares sold to open are a short sale; bought to close, its cover.
  if (leg.option === null) return leg.side === 'SELL' && leg.effect === 'TO OPEN' ? 'SELL_SHORT' : leg.side === 'BUY' && leg.effect === 'TO CLOSE' ? 'BUY_TO_COVER' : leg.side;
  if (leg.effect === 'TO OPEN') return leg.side === 'BUY' ? 'BUY_TO_OPEN' : 'SELL_TO_OPEN';
  if (leg.effect === 'TO CLOSE') return leg.side === 'BUY' ? 'BUY_TO_CLOSE' : 'SELL_TO_CLOSE';
  return null;
}

/** Splits `total` (unsigned minor units) over `count` legs: equal shares, the remainder on the first. */
function spread(total: Minor, count: number): Minor[] {
  const share = Math.floor(total / count);
  return Array.from({ length: count }, (_, index) => asMinor(index === 0 ? total - share * (count - 1) : share));
}

function orderTransactions(order: Order, cash: CashRow | null, ctx: Context): void {
  const commissions = spread(absMinor(cash?.commissionMinor ?? ZERO_MINOR), order.legs.length);
  const fees = spread(absMinor(cash?.miscFeesMinor ?? ZERO_MINOR), order.legs.length);
  let grossLeft: number = cash?.amountMinor ?? ZERO_MINOR;
  // Trade History without seconds: the cash row has the exact time.
  const tradeDate = cash !== null && !order.when.withSeconds ? cash.when.tradeDate : order.when.tradeDate;
  order.legs.forEach((leg, index) => {
    const option = leg.option;
    const multiplier = option?.multiplier ?? 1;
    const sign = leg.side === 'SELL' ? 1 : -1;
    let grossMinor = sign * Math.round(leg.priceMinor * leg.quantity * multiplier);
    if (cash !== null) {
      // The last leg takes what the others leave, so the legs add up to the cash row exactly.
      if (index === order.legs.length - 1) grossMinor = grossLeft;
      grossLeft -= grossMinor;
    }
    const commissionMinor = commissions[index] ?? ZERO_MINOR;
    const feesMinor = fees[index] ?? ZERO_MINOR;
    let type = legType(leg);
    if (type === null) {
      ctx.out.warn(leg.line, `option leg with position effect "${leg.effect}": kept as OTHER`);
      type = 'OTHER';
    }
    ctx.out.add(
      leg.line,
      transaction({
        accountName: ctx.accountName,
        brokerRowId: leg.rowId,
        type,
        tradeDate,
        source: SOURCE,
        symbol: option ? occSymbol(option.root, option.expiration, option.right, option.strike) : leg.symbol,
        underlying: leg.symbol,
        ...contractColumns(option),
        quantity: leg.quantity,
        priceMinor: leg.priceMinor,
        multiplier,
        amountMinor: asMinor(grossMinor - commissionMinor - feesMinor),
        commissionMinor,
        feesMinor,
        orderId: cash?.ref || null,
        description: cash ? `${cash.description} | ${leg.description}` : leg.description,
      }),
    );
  });
}

const STRATEGIES = /^(?:VERTICAL|CALENDAR|COMBO|COVERED|DIAGONAL|DBL DIAG|STRADDLE|STRANGLE|BUTTERFLY|CONDOR|IRON CONDOR|VERT ROLL|CUSTOM|COLLAR|BACKRATIO|UNBALANCED)\s+/;

interface TradeLine {
  side: 'BUY' | 'SELL';
  quantity: number;
  /** The ticker or future, exchange suffix dropped (`/NQM22:XCME` → `/NQM22`). */
  symbol: string;
  priceMinor: Minor | null;
  rest: string;
}

/**
 * `SOLD -2 VERTICAL ...`: the side, a signed quantity as the statements write it (`-2`, `+1,000`, `.5`) and the rest.
 * The quantity has one way to read each character: `[\d,]*\.?\d+` could split a run of digits anywhere, and a
 * description of digits took quadratic time (docs/importers.md §Linear time). REMOVAL below reads it alike.
 */
const TRADE = /\b(BOT|SOLD)\s+([+-]?(?:\d[\d,]*(?:\.\d+)?|\.\d+))\s(.*)$/;
const PRICE = /^(?:\d+(?:\.\d+)?|\.\d+)$/;

/** `tIP SOLD -2 VERTICAL PFE 100 ... @.61` → side, quantity, symbol and price; null when not a BOT/SOLD line. */
function tradeLine(description: string): TradeLine | null {
  const match = TRADE.exec(description.toUpperCase());
  if (!match?.[1] || !match[2] || match[3] === undefined) return null;
  const rest = match[3].trimStart().replace(STRATEGIES, '');
  // The price is what follows the last `@` (a price has no `@`): found by hand, not by a search ending in `\s*$`.
  const at = rest.lastIndexOf('@');
  const priceText = at < 0 ? '' : rest.slice(at + 1).trim();
  const price = PRICE.test(priceText) ? priceText : undefined;
  const first = rest.split(/\s+/)[0] ?? '';
  const colon = first.indexOf(':');
  return {
    side: match[1] === 'BOT' ? 'BUY' : 'SELL',
    quantity: Math.abs(Number(match[2].replace(/,/g, ''))),
    symbol: colon < 0 ? first : first.slice(0, colon),
    priceMinor: price === undefined ? null : asMinor(Math.round(Number(price) * MINOR_PER_UNIT)),
    rest,
  };
}

const REMOVAL =
  /REMOVAL OF OPTION DUE TO (EXPIRATION|ASSIGNMENT|EXERCISE)\s+([+-]?(?:\d[\d,]*(?:\.\d+)?|\.\d+))\s+(\S+)\s+(\d+)\s+(?:\([^()]*\)\s+)?(\d{1,2}\s+[A-Z]{3}\s+\d{2,4})\s+(\d+(?:\.\d+)?)\s+(CALL|PUT)/;

function cashBase(row: CashRow, ctx: Context, type: TransactionType): RawTransaction {
  const commissionMinor = absMinor(row.commissionMinor);
  const feesMinor = absMinor(row.miscFeesMinor);
  // `ORDINARY DIVIDEND~PFE` names the security after the tilde (`~NO DESCRIPTION` does not).
  const symbol = /~([A-Z0-9./]+)\s*$/.exec(row.description.toUpperCase())?.[1] ?? '';
  return transaction({
    accountName: ctx.accountName,
    brokerRowId: row.rowId,
    type,
    tradeDate: row.when.tradeDate,
    source: SOURCE,
    symbol,
    underlying: symbol,
    amountMinor: subMinor(subMinor(row.amountMinor, commissionMinor), feesMinor),
    commissionMinor,
    feesMinor,
    orderId: row.ref || null,
    description: row.description,
  });
}

function cashTransaction(row: CashRow, ctx: Context, placed?: Removal): RawTransaction {
  const text = row.description.toUpperCase();
  const net = row.amountMinor - Math.abs(row.commissionMinor) - Math.abs(row.miscFeesMinor);
  if (placed !== undefined) {
    // A removal that names no option, placed on the statement's open position (removals.ts).
    const { contract } = placed;
    const tx = cashBase(row, ctx, placed.event);
    Object.assign(tx, { symbol: occSymbol(contract.root, contract.expiration, contract.right, contract.strike), underlying: contract.root, ...contractColumns(contract), quantity: placed.quantity, multiplier: contract.multiplier });
    return tx;
  }
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
    const upon = trade !== null && /UPON OPTION (?:ASSIGNMENT|EXERCISE)|^\S+\s+@/.test(trade.rest);
    if (trade !== null && upon && !/\b(?:CALL|PUT)\b/.test(trade.rest)) {
      const tx = cashBase(row, ctx, trade.side);
      tx.symbol = trade.symbol;
      tx.underlying = trade.symbol;
      tx.quantity = trade.quantity;
      tx.priceMinor = pricePerShareMinor(row.amountMinor, trade.quantity, 1);
      return tx;
    }
    ctx.out.warn(row.line, `trade "${row.description}" has no Account Trade History leg: kept as OTHER`);
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
    // A removal naming no option that no position fits has had its warning (removals.ts).
    if (row.type === 'RAD' && !text.includes('REMOVAL OF OPTION DUE TO')) ctx.out.warn(row.line, `receive/deliver "${row.description}" not understood: kept as OTHER`);
    return cashBase(row, ctx, 'OTHER');
  }
  ctx.out.warn(row.line, `unknown Cash Balance type "${row.type}" (${row.description}): kept as OTHER`);
  return cashBase(row, ctx, 'OTHER');
}

/** An option fill (or spread) read from a TRD row's description, its legs' open/close still to be decided (positions.ts). */
function describedOrderOf(row: CashRow): Order | null {
  const read = describedOrder(row.description);
  if (read === null) return null;
  const legs: Leg[] = read.legs.map((leg, index) => ({
    line: row.line,
    rowId: `${row.rowId}:${index + 1}`,
    side: leg.side,
    quantity: leg.quantity,
    effect: '',
    symbol: leg.root,
    option: { root: leg.root, expiration: leg.expiration, strike: leg.strike, right: leg.right, multiplier: leg.multiplier },
    priceMinor: leg.priceMinor,
    description: `${leg.side} ${leg.quantity} ${leg.root} ${leg.expiration} ${leg.strike} ${leg.right === 'C' ? 'CALL' : 'PUT'}${read.strategy === '' ? '' : ` (${read.strategy} leg ${index + 1})`}`,
  }));
  return { when: row.when, legs, matched: true };
}

/** Does the TRD row's description name this leg's contract (`... /Q4CJ22:XCME 13450 CALL @140.50`: future, strike, right)? */
function namesContract(trade: TradeLine, leg: Leg): boolean {
  if (leg.symbol !== trade.symbol) return false;
  if (leg.option === null) return !/\b(?:CALL|PUT)\b/.test(trade.rest);
  const strike = String(leg.option.strike).replace('.', '\\.');
  return new RegExp(`(^|\\s)${strike}(\\.0+)?\\s+${leg.option.right === 'C' ? 'CALL' : 'PUT'}\\b`).test(trade.rest);
}

/** Same contract, side, quantity and price. */
function describesLeg(trade: TradeLine, leg: Leg): boolean {
  return namesContract(trade, leg) && leg.side === trade.side && leg.quantity === trade.quantity && (trade.priceMinor === null || trade.priceMinor === leg.priceMinor);
}

/** How well an unmatched order fits a TRD row booked at the same time; -1 when it cannot be that row. */
function fit(order: Order, row: CashRow, trade: TradeLine | null): number {
  const sameTime = order.when.withSeconds && row.when.withSeconds ? order.when.key === row.when.key : order.when.minute === row.when.minute;
  if (!sameTime) return -1;
  if (trade === null) return 0;
  const first = order.legs[0];
  if (first === undefined || first.symbol !== trade.symbol) return /UPON OPTION/.test(trade.rest) ? -1 : 0;
  if (order.legs.length > 1) return 1;
  // One leg: the description names its contract; a different strike or right is another fill at the same second.
  if (!namesContract(trade, first)) return -1;
  let score = 1;
  if (first.side === trade.side) score += 1;
  if (first.quantity === trade.quantity) score += 2;
  if (trade.priceMinor !== null && first.priceMinor === trade.priceMinor) score += 1;
  return score;
}

/**
 * Matches orders to TRD rows and maps everything. First by time (to the second, or to the minute when Trade
 * History gives no seconds); then, for what is left, by the fill itself — same day, contract, side, quantity
 * and price, nearest in time — because Trade History's execution time can differ from the time the cash was
 * booked (a real paperMoney statement books a 21:01:15 fill at 19:53:32, another 7 seconds apart).
 */
export function mapStatement(orders: Order[], cashRows: CashRow[], ctx: Context, facts: StatementFacts): void {
  const matchedBy = new Map<CashRow, Order>();
  for (const row of cashRows) {
    if (row.type !== 'TRD') continue;
    const trade = tradeLine(row.description);
    let best: Order | null = null;
    let bestFit = -1;
    for (const order of orders) {
      if (order.matched) continue;
      const score = fit(order, row, trade);
      if (score > bestFit) {
        best = order;
        bestFit = score;
      }
    }
    if (best !== null && (bestFit > 0 || (trade !== null && !/UPON OPTION/.test(trade.rest)))) {
      best.matched = true;
      matchedBy.set(row, best);
    }
  }
  for (const row of cashRows) {
    if (row.type !== 'TRD' || matchedBy.has(row)) continue;
    const trade = tradeLine(row.description);
    if (trade === null) continue;
    const day = row.when.minute.slice(0, 10);
    const distance = (order: Order): number => Math.abs(Date.parse(order.when.tradeDate) - Date.parse(row.when.tradeDate));
    const candidates = orders
      .filter((order) => !order.matched && order.legs.length === 1 && order.when.minute.slice(0, 10) === day)
      .filter((order) => order.legs[0] !== undefined && describesLeg(trade, order.legs[0]))
      .sort((a, b) => distance(a) - distance(b));
    const best = candidates[0];
    if (best === undefined) continue;
    best.matched = true;
    matchedBy.set(row, best);
  }
  // TRD rows no Trade History leg fills (older TD statements have no such section): options from the description.
  const described: Order[] = [];
  for (const row of cashRows) {
    if (row.type !== 'TRD' || matchedBy.has(row)) continue;
    const order = describedOrderOf(row);
    if (order === null) continue;
    described.push(order);
    matchedBy.set(row, order);
  }
  inferOptionEffects([...orders, ...described], facts);
  const removals = placeRemovals([...orders, ...described], cashRows, ctx);
  for (const row of cashRows) {
    const order = matchedBy.get(row);
    if (order !== undefined) orderTransactions(order, row, ctx);
    else ctx.out.add(row.line, cashTransaction(row, ctx, removals.get(row)));
  }
  // Fills after the last cash row belong to the next statement's Cash Balance (the futures session runs past
  // midnight): without their cash and fees they would distort this one, so they wait for that statement.
  const lastCash = cashRows.reduce<string | null>((latest, row) => (latest === null || row.when.tradeDate > latest ? row.when.tradeDate : latest), null);
  for (const order of orders) {
    if (order.matched) continue;
    const first = order.legs[0];
    if (lastCash !== null && order.when.tradeDate > lastCash) {
      for (const leg of order.legs) {
        ctx.out.skip(leg.line, `fill at ${order.when.key} comes after the last Cash Balance row: its cash and fees are in the next statement`);
      }
      continue;
    }
    ctx.out.warn(first?.line ?? null, `trade at ${order.when.key} has no Cash Balance row: amount from price × quantity, fees unknown`);
    orderTransactions(order, null, ctx);
  }
}
