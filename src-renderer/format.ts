/**
 * Numbers the way traders read them: thousands separators, explicit signs on P&L, money to cents,
 * exposure scaled to $bn / $m / $k, dates as YYYY-MM-DD.
 */
import { dateToUtcMs } from '../src-shared/calendar';
import { NEW_YORK } from '../src-shared/zone';
import { countText, quantityText, symbolText } from '../src-shared/journal/words';

const moneyFormatters = new Map<string, Intl.NumberFormat>();

function moneyFormatter(currency: string, signed: boolean): Intl.NumberFormat {
  const key = `${currency}|${signed ? 1 : 0}`;
  let formatter = moneyFormatters.get(key);
  if (!formatter) {
    try {
      formatter = new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency,
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
        signDisplay: signed ? 'exceptZero' : 'auto',
      });
    } catch {
      formatter = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: signed ? 'exceptZero' : 'auto' });
    }
    moneyFormatters.set(key, formatter);
  }
  return formatter;
}

/**
 * Replaces the ASCII hyphen with a true minus so signed columns line up. A number that rounds to zero keeps no
 * sign: "−0" or "−$0" would read as a loss that isn't there.
 */
function minus(text: string): string {
  if (!/[1-9]/.test(text)) return text.replace(/[-+−]/g, '');
  return text.replace('-', '−');
}

/** Puts the sign of `value` on `magnitude` (|value| as shown), unless what is shown is zero. */
function withSign(value: number, magnitude: string, plus: boolean): string {
  if (!/[1-9]/.test(magnitude)) return magnitude;
  return `${value < 0 ? '−' : plus && value > 0 ? '+' : ''}${magnitude}`;
}

/** `$1,234.56`; with `signed`, `+$1,234.56` / `−$1,234.56`. */
export function fmtMoney(value: number, currency = 'USD', signed = false): string {
  if (!Number.isFinite(value)) return '—';
  const rounded = Math.round(value * 100) / 100;
  return minus(moneyFormatter(currency, signed).format(rounded === 0 ? 0 : rounded));
}

/** Compact money for calendar cells and chart axes: `+$1.2k`, `−$850`, and `$0` for what rounds to zero. */
export function fmtMoneyCompact(value: number, currency = 'USD'): string {
  if (!Number.isFinite(value)) return '—';
  const symbol = currency === 'USD' ? '$' : `${currency} `;
  const abs = Math.abs(value);
  let digits: string;
  if (abs >= 1e6) digits = `${(abs / 1e6).toFixed(abs >= 1e7 ? 1 : 2)}m`;
  else if (abs >= 1e4) digits = `${(abs / 1e3).toFixed(1)}k`;
  else digits = abs.toLocaleString('en-US', { maximumFractionDigits: 0 });
  return withSign(value, `${symbol}${digits}`, true);
}

const intFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
export function fmtInt(value: number): string {
  return Number.isFinite(value) ? minus(intFormat.format(value)) : '—';
}

/**
 * A count with its noun, singular for exactly one: `1 contract`, `2 contracts`, `0.5 shares`, `1,204 expirations`. The
 * one place the UI pluralises, so "1 contracts" cannot come back; a fraction keeps its decimals (src-shared/journal/words.ts).
 */
export function fmtCount(count: number, singular: string, plural = `${singular}s`): string {
  return Number.isFinite(count) ? countText(count, singular, plural) : `— ${plural}`;
}

/** A quantity of shares or contracts: its decimals kept (0.5, 12.3456), none added (100). */
export function fmtQuantity(value: number): string {
  return quantityText(value);
}

/**
 * Days to expiry as shown: never negative (issue 18). An expiration already past reads "expired"; null (a stock) reads
 * nothing.
 */
export function fmtDte(dte: number | null | undefined): string {
  if (dte === null || dte === undefined || !Number.isFinite(dte)) return '';
  return dte < 0 ? 'expired' : fmtInt(dte);
}

/** A price or strike: up to 2 decimals, no trailing zeros beyond what matters (4,700 / 4,697.25). */
export function fmtPrice(value: number | null | undefined, maxDigits = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return minus(value.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: maxDigits }));
}

export function fmtNumber(value: number, digits = 2): string {
  if (!Number.isFinite(value)) return '—';
  return minus(value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }));
}

export function fmtPct(fraction: number | null | undefined, digits = 1): string {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return '—';
  return `${minus((fraction * 100).toFixed(digits))}%`;
}

/**
 * Exposure in the response's unit: dollars as `$1.23bn` / `−$456.7m` / `$12.3k`; the nominal formula is in
 * shares (`1.23m sh`).
 */
export function fmtExposure(value: number | null | undefined, unit: string, signed = true): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  // 'shares per $1 move' is the nominal unit; every other unit is in dollars.
  const dollars = !/share/i.test(unit);
  const abs = Math.abs(value);
  let scaled: string;
  if (abs >= 1e9) scaled = `${(abs / 1e9).toFixed(2)}bn`;
  else if (abs >= 1e6) scaled = `${(abs / 1e6).toFixed(abs >= 1e8 ? 0 : 1)}m`;
  else if (abs >= 1e3) scaled = `${(abs / 1e3).toFixed(1)}k`;
  else scaled = abs.toFixed(0);
  return dollars ? withSign(value, `$${scaled}`, signed) : `${withSign(value, scaled, signed)} sh`;
}

/** `2024-01-05 15:45 ET` style: the snapshot and event times are shown in New York time. */
export function fmtDateTime(iso: string, timeZone: string = NEW_YORK): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const zone = timeZone === NEW_YORK ? 'ET' : timeZone;
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')} ${zone}`;
}

/** `SPY250117P00450000` → `SPY 17 Jan 25 450 P`; plain tickers pass through. */
export function fmtSymbol(symbol: string): string {
  return symbolText(symbol);
}

export function signClass(value: number): string {
  if (value > 0.004) return 'pos';
  if (value < -0.004) return 'neg';
  return 'zero';
}

export function typeLabel(type: string): string {
  return type
    .toLowerCase()
    .split('_')
    .map((w, i) => (i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w))
    .join(' ');
}

// ---------------------------------------------------------------- calendar dates (src-shared/calendar does the arithmetic)

/** The calendar date of an instant in a zone, by Intl (the renderer ships no time-zone library). */
export function dateInTimeZone(epochMs: number, timeZone: string = NEW_YORK): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(epochMs));
}

function toUtc(date: string): Date {
  return new Date(dateToUtcMs(date));
}

export function fmtRange(from: string, to: string): string {
  const f = toUtc(from);
  const t = toUtc(to);
  const opts: Intl.DateTimeFormatOptions = { timeZone: 'UTC', day: 'numeric', month: 'short' };
  const sameYear = f.getUTCFullYear() === t.getUTCFullYear();
  const left = f.toLocaleDateString('en-US', sameYear ? opts : { ...opts, year: 'numeric' });
  const right = t.toLocaleDateString('en-US', { ...opts, year: 'numeric' });
  return from === to ? right : `${left} – ${right}`;
}

export function monthTitle(date: string): string {
  return toUtc(date).toLocaleDateString('en-US', { timeZone: 'UTC', month: 'long', year: 'numeric' });
}
