/**
 * Generic CSV chain (docs/exposure.md): optional leading `# key: value` lines (`spot`, `symbol`,
 * `quoteTime`), then a header naming at least `expiration,strike,right,openInterest,iv` (any order,
 * case-insensitive; `bid`, `ask`, `root`, `multiplier` optional), then one contract per row.
 */
import { isIsoDate } from '../../src-shared/calendar';
import type { OptionContract } from '../../src-shared/exposure/model';
import {
  ErrorList,
  finishSnapshot,
  parseNumberCell,
  parseQuoteTime,
  normaliseSymbol,
  type ChainParseOptions,
  type ChainParseResult,
  type LocatedContract,
  tooManyContracts,
} from './common';
import { parseRight } from './generic-json';
import { hasContent, splitCsvLine, textLines, type TextLine } from './lines';
import { asTicker } from '../../src-shared/ids';

export const GENERIC_REQUIRED_COLUMNS = ['expiration', 'strike', 'right', 'openinterest', 'iv'] as const;
const COLUMN_ALIASES: Record<string, string> = {
  expiration: 'expiration',
  expiry: 'expiration',
  strike: 'strike',
  right: 'right',
  type: 'right',
  openinterest: 'openinterest',
  open_interest: 'openinterest',
  oi: 'openinterest',
  iv: 'iv',
  bid: 'bid',
  ask: 'ask',
  root: 'root',
  multiplier: 'multiplier',
  volume: 'volume',
};

/** The metadata the parser reads (`# spot: 4697.24`, `# quoteTime: ...`, `# symbol: SPX`). */
const META_KEYS = new Set(['spot', 'underlyingprice', 'price', 'quotetime', 'time', 'asof', 'symbol', 'underlying']);

/** A metadata value without the blanks around it and the commas a spreadsheet pads the line with (`100,,,,`). */
function trimTrailingCommas(value: string): string {
  const trimmed = value.trim();
  let end = trimmed.length;
  while (end > 0 && trimmed.charAt(end - 1) === ',') end -= 1;
  return trimmed.slice(0, end).trimEnd();
}

export function parseGenericCsv(text: string, options: ChainParseOptions = {}): ChainParseResult {
  if (!hasContent(text)) return { ok: false, errors: [{ line: null, message: 'empty file' }] };
  const errors = new ErrorList();
  const meta = new Map<string, { value: string; line: number }>();
  // Metadata lines, then the header; the rows below it are read one at a time.
  const lines = textLines(text);
  let headerLine: TextLine | undefined;
  // next(), not for-of: leaving a for-of loop would close the generator, and the rows are read from it below.
  for (let next = lines.next(); next.done !== true; next = lines.next()) {
    const l = next.value;
    const trimmed = l.text.trim();
    if (trimmed === '') continue;
    if (!trimmed.startsWith('#')) {
      headerLine = l;
      break;
    }
    // The value is cut by hand: `\s*(.*?)\s*,*$` tried every split of a run of blanks (docs/importers.md §Linear time).
    const match = /^#\s*([a-z_]+)\s*[:=](.*)$/i.exec(trimmed);
    const key = (match?.[1] ?? '').toLowerCase();
    // Only the keys read below are kept: a file of a million distinct keys keeps nothing.
    if (match !== null && META_KEYS.has(key)) meta.set(key, { value: trimTrailingCommas(match[2] ?? ''), line: l.line });
  }
  if (headerLine === undefined) return { ok: false, errors: [{ line: null, message: 'missing header line (expiration,strike,right,openInterest,iv,bid,ask)' }] };
  const header = splitCsvLine(headerLine.text).map((h) => COLUMN_ALIASES[h.trim().toLowerCase().replace(/[\s-]/g, '')] ?? h.trim().toLowerCase());
  const column = (name: string): number => header.indexOf(name);
  const missing = GENERIC_REQUIRED_COLUMNS.filter((name) => column(name) < 0);
  if (missing.length > 0) {
    return { ok: false, errors: [{ line: headerLine.line, message: `missing columns: ${missing.join(', ')} (header must name expiration,strike,right,openInterest,iv)` }] };
  }

  let spot: number | null = null;
  const spotMeta = meta.get('spot') ?? meta.get('underlyingprice') ?? meta.get('price');
  if (spotMeta !== undefined) {
    spot = parseNumberCell(spotMeta.value);
    if (spot === null || !(spot > 0)) {
      errors.add(spotMeta.line, `spot "${spotMeta.value}" is not a positive number`);
      spot = null;
    }
  }
  let quoteTime: string | null = null;
  const timeMeta = meta.get('quotetime') ?? meta.get('time') ?? meta.get('asof');
  if (timeMeta !== undefined && options.quoteTime === undefined) {
    quoteTime = parseQuoteTime(timeMeta.value);
    if (quoteTime === null) errors.add(timeMeta.line, `bad date: quoteTime "${timeMeta.value}" is not an ISO 8601 date-time`);
  }
  const symbolMeta = meta.get('symbol') ?? meta.get('underlying');
  const symbol = symbolMeta === undefined || symbolMeta.value === '' ? null : symbolMeta.value;
  const fallbackRoot = normaliseSymbol(options.symbol ?? symbol ?? '');

  const at = {
    expiration: column('expiration'),
    strike: column('strike'),
    right: column('right'),
    openInterest: column('openinterest'),
    iv: column('iv'),
    bid: column('bid'),
    ask: column('ask'),
    root: column('root'),
    multiplier: column('multiplier'),
    volume: column('volume'),
  };
  const located: LocatedContract[] = [];
  for (const l of lines) {
    if (tooManyContracts(located, errors)) break;
    const trimmed = l.text.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const cells = splitCsvLine(l.text);
    const cell = (position: number): string => (position < 0 ? '' : (cells[position] ?? '').trim());
    if (cells.length < header.length) {
      errors.add(l.line, `expected ${header.length} columns, found ${cells.length}`);
      continue;
    }
    const expiration = cell(at.expiration);
    if (!isIsoDate(expiration)) {
      errors.add(l.line, `bad date: expiration "${expiration}" is not YYYY-MM-DD`);
      continue;
    }
    const right = parseRight(cell(at.right));
    if (right === null) {
      errors.add(l.line, `right "${cell(at.right)}" is not C or P`);
      continue;
    }
    const numbers: Record<string, number | null> = {
      strike: parseNumberCell(cell(at.strike)),
      openInterest: parseNumberCell(cell(at.openInterest)),
      iv: parseNumberCell(cell(at.iv)),
      bid: at.bid < 0 || cell(at.bid) === '' ? 0 : parseNumberCell(cell(at.bid)),
      ask: at.ask < 0 || cell(at.ask) === '' ? 0 : parseNumberCell(cell(at.ask)),
      multiplier: at.multiplier < 0 || cell(at.multiplier) === '' ? 100 : parseNumberCell(cell(at.multiplier)),
    };
    const bad = Object.entries(numbers).filter(([, v]) => v === null);
    if (bad.length > 0) {
      errors.add(l.line, bad.map(([k]) => `non-numeric ${k} "${cell(at[k as keyof typeof at])}"`).join('; '));
      continue;
    }
    const strike = numbers.strike ?? 0;
    const openInterest = numbers.openInterest ?? 0;
    const iv = numbers.iv ?? 0;
    const multiplier = numbers.multiplier ?? 100;
    if (!(strike > 0) || openInterest < 0 || iv < 0 || !(multiplier > 0)) {
      errors.add(l.line, 'strike and multiplier must be > 0, openInterest and iv ≥ 0');
      continue;
    }
    const root = cell(at.root) === '' ? fallbackRoot : asTicker(cell(at.root));
    const contract: OptionContract = { root, expiration, strike, right, openInterest, iv, bid: numbers.bid ?? 0, ask: numbers.ask ?? 0, multiplier };
    if (cell(at.volume) !== '') {
      const volume = parseNumberCell(cell(at.volume));
      if (volume === null || volume < 0) {
        errors.add(l.line, `volume "${cell(at.volume)}" is not a number ≥ 0`);
        continue;
      }
      contract.volume = volume;
    }
    located.push({ contract, line: l.line });
  }
  return finishSnapshot({ located, errors, warnings: [], symbol, spot, quoteTime, source: 'generic', options, ivMayBePercent: true, quoteTimeUnreadable: timeMeta !== undefined });
}
