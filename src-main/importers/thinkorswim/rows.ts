/**
 * thinkorswim statement rows, read: the Cash Balance rows and the Account Trade History orders with their legs (a
 * futures option's contract worked out from its text). What they become is mapper.ts's.
 */
import type { OptionRight } from '../../../src-shared/journal/model';
import type { RowReader } from '../common/cells';
import { clockTo24h, dayMonYyToYmd, localToUtc, mdyToYmd } from '../common/dates';
import { rightOf } from '../common/options';
import type { ResultCollector, RowIdentity } from '../common/result';
import { cleanRef } from './schema';
import { absMinor, type Minor } from '../../../src-shared/money';

export interface Context {
  accountName: string;
  zone: string;
  identity: RowIdentity;
  out: ResultCollector;
}

export interface When {
  /** `YYYY-MM-DD HH:MM:SS` (or `YYYY-MM-DD HH:MM` when the file gives no seconds), local to the statement. */
  key: string;
  /** `YYYY-MM-DD HH:MM`: what a time without seconds can be matched on. */
  minute: string;
  tradeDate: string;
  withSeconds: boolean;
}

export interface Contract {
  root: string;
  expiration: string;
  strike: number;
  right: OptionRight;
  multiplier: number;
}

export interface Leg {
  line: number;
  rowId: string;
  side: 'BUY' | 'SELL';
  quantity: number;
  effect: string;
  /** The ticker, or the future (`/NQM22`) for futures options. */
  symbol: string;
  option: Contract | null;
  priceMinor: Minor;
  description: string;
}

export interface Order {
  when: When;
  legs: Leg[];
  matched: boolean;
}

export interface CashRow {
  line: number;
  rowId: string;
  when: When;
  type: string;
  ref: string;
  description: string;
  miscFeesMinor: Minor;
  commissionMinor: Minor;
  amountMinor: Minor;
}

function whenOf(ymd: string | null, clock: string | null, ctx: Context, withSeconds: boolean): When | null {
  if (ymd === null || clock === null) return null;
  const tradeDate = localToUtc(ymd, clock, ctx.zone);
  if (tradeDate === null) return null;
  const minute = `${ymd} ${clock.slice(0, 5)}`;
  return { key: withSeconds ? `${ymd} ${clock}` : minute, minute, tradeDate, withSeconds };
}

export function readCashRow(reader: RowReader, ctx: Context): CashRow | null {
  const timeText = reader.text('TIME');
  const at = whenOf(mdyToYmd(reader.text('DATE')), clockTo24h(timeText), ctx, /:\d{2}:\d{2}/.test(timeText));
  if (at === null) reader.fail('DATE', `not a date and time (1/3/24, 09:35:12): "${reader.text('DATE')} ${timeText}"`);
  const miscFeesMinor = reader.money('Misc Fees');
  const commissionMinor = reader.money('Commissions & Fees');
  const amountMinor = reader.money('AMOUNT');
  if (!reader.ok || at === null) return null;
  const ref = cleanRef(reader.text('REF #'));
  const description = reader.text('DESCRIPTION');
  return {
    line: reader.line,
    rowId: ctx.identity.next(['cash', at.key, reader.text('TYPE'), ref, description, reader.text('Misc Fees'), reader.text('Commissions & Fees'), reader.text('AMOUNT')]),
    when: at,
    type: reader.text('TYPE').toUpperCase(),
    ref,
    description,
    miscFeesMinor,
    commissionMinor,
    amountMinor,
  };
}

const WEEKDAYS: Record<string, number> = { MONDAY: 1, TUESDAY: 2, WEDNESDAY: 3, THURSDAY: 4, FRIDAY: 5 };
const MONTH_INDEX: Record<string, number> = { JAN: 1, FEB: 2, MAR: 3, APR: 4, MAY: 5, JUN: 6, JUL: 7, AUG: 8, SEP: 9, OCT: 10, NOV: 11, DEC: 12 };

/**
 * `/NQM22 1/20 APR 22 (Wednesday) (Wk5)` → the future, its multiplier and the expiration: an explicit day
 * (`1/20 22 APR 22`), else the named weekday of the named calendar week of the month (weeks start on Sunday, as
 * on thinkorswim's calendar: week 5 of April 2022 runs 24–30, its Wednesday is the 27th). Null expiration when
 * the text names neither (monthly and quarterly series: the statement does not say which day).
 */
export function futuresOption(symbolText: string): { future: string; multiplier: number; expiration: string | null } | null {
  const match = /^(\/[A-Z0-9]+)\s+\d+\/(\d+(?:\.\d+)?)\s+(?:(\d{1,2})\s+)?([A-Z]{3})\s+(\d{2})\b(.*)$/i.exec(symbolText.trim());
  if (!match) return null;
  const [, future = '', multiplierText = '', dayText, monthText = '', yearText = '', tags = ''] = match;
  const month = MONTH_INDEX[monthText.toUpperCase()];
  const year = 2000 + Number(yearText);
  const multiplier = Number(multiplierText);
  if (month === undefined || !(multiplier > 0)) return null;
  const iso = (day: number): string => `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  if (dayText !== undefined) return { future: future.toUpperCase(), multiplier, expiration: dayMonYyToYmd(`${dayText} ${monthText} ${yearText}`) };
  const weekday = /\((MONDAY|TUESDAY|WEDNESDAY|THURSDAY|FRIDAY)\)/i.exec(tags)?.[1]?.toUpperCase();
  const week = Number(/\(WK(\d)\)/i.exec(tags)?.[1] ?? NaN);
  let expiration: string | null = null;
  if (weekday !== undefined && week >= 1) {
    const firstWeekday = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
    const day = 1 - firstWeekday + (week - 1) * 7 + (WEEKDAYS[weekday] ?? 0);
    const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
    if (day >= 1 && day <= lastDay) expiration = iso(day);
  }
  return { future: future.toUpperCase(), multiplier, expiration };
}

/** Reads the Account Trade History legs, grouping further legs (no Exec Time) with their order. */
export function readOrders(readers: readonly RowReader[], ctx: Context): Order[] {
  const orders: Order[] = [];
  let current: Order | null = null;
  for (const reader of readers) {
    const execTime = reader.text('Exec Time');
    if (execTime !== '') {
      const match = /^(\S+)\s+(\S+)$/.exec(execTime);
      const when = match ? whenOf(mdyToYmd(match[1] ?? ''), clockTo24h(match[2] ?? ''), ctx, /:\d{2}:\d{2}$/.test(match[2] ?? '')) : null;
      if (when === null) {
        reader.fail('Exec Time', `not a date and time (1/3/24 09:35:12): "${execTime}"`);
        current = null;
        continue;
      }
      current = { when, legs: [], matched: false };
      orders.push(current);
    } else if (current === null) {
      reader.fail('Exec Time', 'a further leg with no order above it');
      continue;
    }
    const leg = readLeg(reader, current.when, ctx);
    if (leg !== null) current.legs.push(leg);
  }
  return orders.filter((order) => order.legs.length > 0);
}

function readLeg(reader: RowReader, when: When, ctx: Context): Leg | null {
  const sideText = reader.text('Side').toUpperCase();
  if (sideText !== 'BUY' && sideText !== 'SELL') reader.fail('Side', `expected BUY or SELL: "${reader.text('Side')}"`);
  const quantity = Math.abs(reader.number('Qty', { required: true }));
  const priceMinor = absMinor(reader.money('Price'));
  const kind = reader.text('Type').toUpperCase();
  const symbolText = reader.text('Symbol').toUpperCase();
  const description = reader.columns.names.map(({ index }) => reader.record.cells[index]?.trim() ?? '').filter((cell) => cell !== '' && cell !== reader.text('Exec Time')).join(' ');
  let option: Contract | null = null;
  let symbol = symbolText;
  if (kind === 'CALL' || kind === 'PUT') {
    const right = rightOf(kind) ?? 'C';
    const strikeText = reader.text('Strike');
    const strike = reader.number('Strike', { required: true });
    if (reader.ok && !(strike > 0)) reader.fail('Strike', `not a strike: "${strikeText}"`);
    if (symbolText.startsWith('/')) {
      const future = futuresOption(symbolText);
      if (future === null) {
        reader.fail('Symbol', `not a futures option (/NQM22 1/20 APR 22 ...): "${reader.text('Symbol')}"`);
        return null;
      }
      if (!reader.ok) return null;
      if (future.expiration === null) {
        ctx.out.skip(reader.line, `futures option ${symbolText} ${strikeText} ${kind}: the statement does not give its expiration date; not imported`);
        return null;
      }
      symbol = future.future;
      const root = (reader.text('Exp').startsWith('/') ? reader.text('Exp') : future.future).toUpperCase();
      option = { root, expiration: future.expiration, strike, right, multiplier: future.multiplier };
    } else {
      // `[^()]`: a run of `(` without a `)` is read once, not once from each of its characters.
      const expText = reader.text('Exp').replace(/\([^()]*\)/g, '').trim();
      const expiration = dayMonYyToYmd(expText);
      if (expiration === null) reader.fail('Exp', `not an expiration (17 JAN 25): "${reader.text('Exp')}"`);
      if (expiration !== null) option = { root: symbolText, expiration, strike, right, multiplier: 100 };
    }
  } else if (kind === 'FUTURE' || symbolText.startsWith('/')) {
    if (reader.ok) ctx.out.skip(reader.line, `futures trade ${symbolText}: futures are not journal instruments; not imported`);
    return null;
  }
  if (!reader.ok) return null;
  return {
    line: reader.line,
    rowId: ctx.identity.next(['trade', when.key, ...reader.columns.contentKey(reader.record).filter((cell) => !cell.startsWith('exec time='))]),
    side: sideText === 'BUY' ? 'BUY' : 'SELL',
    quantity,
    effect: reader.text('Pos Effect').toUpperCase(),
    symbol,
    option,
    priceMinor,
    description,
  };
}
