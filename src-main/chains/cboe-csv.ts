/**
 * CBOE "quotedata.csv" option-chain export (layout in fixtures/README.md): a name line with `Last: <spot>`,
 * a `Date: <New York time>` line in one of two spellings, a 22-column header, then one row per
 * (expiration, strike) with the call on the left of `Strike` and the put on the right.
 */
import { DateTime } from 'luxon';
import type { OptionContract } from '../../src-shared/exposure/model';
import {
  ErrorList,
  finishSnapshot,
  monthNumber,
  NEW_YORK,
  parseNumberCell,
  parseOccSymbol,
  type ChainParseOptions,
  type ChainParseResult,
  type LocatedContract,
} from './common';
import { splitCsvLine, splitLines } from './lines';

/** True when one of the first lines is the CBOE header. */
export function looksLikeCboeCsv(text: string): boolean {
  return splitLines(text.slice(0, 4000))
    .slice(0, 8)
    .some((l) => /^\s*"?Expiration Date"?\s*,\s*"?Calls"?\s*,/i.test(l.text));
}

/** `January 7, 2024 at 10:52 AM EST` or `February 5 2022, 8:26 PM EST` (New York wall clock) → UTC ISO. */
export function parseCboeDateLine(text: string): string | null {
  const match = /Date:\s*([A-Za-z]+)\.?\s+(\d{1,2}),?\s+(\d{4}),?\s+(?:at\s+)?(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AP]M)?/i.exec(text);
  if (match === null) return null;
  const month = monthNumber(match[1] ?? '');
  if (month === null) return null;
  let hour = Number(match[4]);
  const meridiem = (match[7] ?? '').toUpperCase();
  if (meridiem !== '' && (hour < 1 || hour > 12)) return null;
  if (meridiem === 'PM' && hour < 12) hour += 12;
  if (meridiem === 'AM' && hour === 12) hour = 0;
  const parsed = DateTime.fromObject(
    { year: Number(match[3]), month, day: Number(match[2]), hour, minute: Number(match[5]), second: Number(match[6] ?? 0) },
    { zone: NEW_YORK },
  );
  return parsed.isValid ? parsed.toUTC().toISO({ suppressMilliseconds: true }) : null;
}

/** `Fri Jan 05 2024` → 2024-01-05. */
function parseExpirationCell(text: string): string | null {
  const match = /^(?:[A-Za-z]{3},?\s+)?([A-Za-z]{3,9})\s+(\d{1,2}),?\s+(\d{4})$/.exec(text.trim());
  if (match === null) return null;
  const month = monthNumber(match[1] ?? '');
  if (month === null) return null;
  const date = DateTime.fromObject({ year: Number(match[3]), month, day: Number(match[2]) }, { zone: 'utc' });
  return date.isValid ? date.toISODate() : null;
}

interface SideColumns {
  symbol: number;
  bid: number;
  ask: number;
  iv: number;
  openInterest: number;
}

function sideColumns(header: string[], from: number, to: number): { columns: SideColumns | null; missing: string[] } {
  const find = (name: string): number => {
    for (let i = from; i < to; i += 1) if ((header[i] ?? '').trim().toLowerCase() === name) return i;
    return -1;
  };
  const columns = { symbol: from, bid: find('bid'), ask: find('ask'), iv: find('iv'), openInterest: find('open interest') };
  const missing = Object.entries({ Bid: columns.bid, Ask: columns.ask, IV: columns.iv, 'Open Interest': columns.openInterest })
    .filter(([, index]) => index < 0)
    .map(([name]) => name);
  return { columns: missing.length === 0 ? columns : null, missing };
}

function readNumber(cells: string[], column: number, name: string, side: string, line: number, errors: ErrorList): number | null {
  const raw = cells[column] ?? '';
  const value = parseNumberCell(raw);
  if (value === null) errors.add(line, `non-numeric ${name} "${raw.trim()}" (${side})`);
  return value;
}

export function parseCboeCsv(text: string, options: ChainParseOptions = {}): ChainParseResult {
  const errors = new ErrorList();
  const warnings: string[] = [];
  const lines = splitLines(text);
  if (lines.every((l) => l.text.trim() === '')) return { ok: false, errors: [{ line: null, message: 'empty file' }] };

  const headerAt = lines.findIndex((l, index) => index < 20 && /^\s*"?Expiration Date"?\s*,/i.test(l.text));
  if (headerAt < 0) {
    return { ok: false, errors: [{ line: null, message: 'missing header line: "Expiration Date,Calls,...,Strike,Puts,..." (not a CBOE quotedata file?)' }] };
  }
  const headerLine = lines[headerAt];
  const header = splitCsvLine(headerLine?.text ?? '').map((cell) => cell.trim());
  const headerLineNumber = headerLine?.line ?? null;

  let spot: number | null = null;
  let quoteTime: string | null = null;
  for (const l of lines.slice(0, headerAt)) {
    for (const cell of splitCsvLine(l.text)) {
      const trimmed = cell.trim();
      const last = /^Last:\s*(.+)$/i.exec(trimmed);
      if (last !== null && spot === null) {
        spot = parseNumberCell(last[1] ?? '');
        if (spot === null || !(spot > 0)) {
          errors.add(l.line, `spot "${trimmed}" is not a positive number`);
          spot = null;
        }
      }
      if (/^Date:/i.test(trimmed) && quoteTime === null) {
        quoteTime = parseCboeDateLine(trimmed);
        if (quoteTime === null && options.quoteTime === undefined) errors.add(l.line, `bad date: cannot read the quote time "${trimmed}"`);
      }
    }
  }

  const lower = header.map((h) => h.toLowerCase());
  const callsAt = lower.indexOf('calls');
  const strikeAt = lower.indexOf('strike');
  const putsAt = lower.indexOf('puts');
  const missing: string[] = [];
  if (lower[0] !== 'expiration date') missing.push('Expiration Date');
  if (callsAt < 0) missing.push('Calls');
  if (strikeAt < 0) missing.push('Strike');
  if (putsAt < 0) missing.push('Puts');
  let callColumns: SideColumns | null = null;
  let putColumns: SideColumns | null = null;
  if (missing.length === 0) {
    const calls = sideColumns(header, callsAt, strikeAt);
    const puts = sideColumns(header, putsAt, header.length);
    missing.push(...calls.missing.map((m) => `${m} (calls)`), ...puts.missing.map((m) => `${m} (puts)`));
    callColumns = calls.columns;
    putColumns = puts.columns;
  }
  if (missing.length > 0 || callColumns === null || putColumns === null) {
    errors.add(headerLineNumber, `missing columns: ${missing.join(', ')}`);
    return { ok: false, errors: errors.errors };
  }

  const located: LocatedContract[] = [];
  const expirationCache = new Map<string, string | null>();
  const sides = [
    { right: 'C' as const, columns: callColumns, label: 'call' },
    { right: 'P' as const, columns: putColumns, label: 'put' },
  ];
  for (let index = headerAt + 1; index < lines.length && !errors.full; index += 1) {
    const l = lines[index];
    if (l === undefined || l.text.trim() === '') continue;
    const cells = splitCsvLine(l.text);
    if (cells.length < header.length) {
      errors.add(l.line, `expected ${header.length} columns, found ${cells.length}`);
      continue;
    }
    const expirationText = cells[0] ?? '';
    let expiration = expirationCache.get(expirationText);
    if (expiration === undefined) {
      expiration = parseExpirationCell(expirationText);
      expirationCache.set(expirationText, expiration);
    }
    if (expiration === null) {
      errors.add(l.line, `bad date: expiration "${expirationText}" is not a date like "Fri Jan 05 2024"`);
      continue;
    }
    const strike = parseNumberCell(cells[strikeAt] ?? '');
    if (strike === null || !(strike > 0)) {
      errors.add(l.line, `strike "${cells[strikeAt] ?? ''}" is not a positive number`);
      continue;
    }
    for (const side of sides) {
      const symbolText = (cells[side.columns.symbol] ?? '').trim();
      if (symbolText === '') continue; // a strike listed on one side only
      const occ = parseOccSymbol(symbolText);
      if (occ === null) {
        errors.add(l.line, `${side.label} symbol "${symbolText}" is not an OCC option symbol (root + YYMMDD + C/P + strike×1000)`);
        continue;
      }
      if (occ.expiration !== expiration || occ.right !== side.right || Math.abs(occ.strike - strike) > 1e-6) {
        errors.add(l.line, `${side.label} symbol ${symbolText} does not match the row (${expiration}, strike ${strike})`);
        continue;
      }
      const bid = readNumber(cells, side.columns.bid, 'Bid', side.label, l.line, errors);
      const ask = readNumber(cells, side.columns.ask, 'Ask', side.label, l.line, errors);
      const iv = readNumber(cells, side.columns.iv, 'IV', side.label, l.line, errors);
      const openInterest = readNumber(cells, side.columns.openInterest, 'Open Interest', side.label, l.line, errors);
      if (bid === null || ask === null || iv === null || openInterest === null) continue;
      if (iv < 0 || openInterest < 0) {
        errors.add(l.line, `negative ${iv < 0 ? 'IV' : 'Open Interest'} (${side.label})`);
        continue;
      }
      const contract: OptionContract = { root: occ.root, expiration, strike, right: side.right, openInterest, iv, bid, ask, multiplier: 100 };
      located.push({ contract, line: l.line });
    }
  }
  return finishSnapshot({ located, errors, warnings, symbol: null, spot, quoteTime, source: 'cboe-csv', options });
}
