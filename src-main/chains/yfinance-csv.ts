/**
 * yfinance `Ticker.option_chain(date)` DataFrames written with pandas' `to_csv`: a header naming
 * `contractSymbol,lastTradeDate,strike,lastPrice,bid,ask,change,percentChange,volume,openInterest,impliedVolatility,
 * inTheMoney,contractSize,currency` (after pandas' unnamed index column, unless `index=False`), one contract per row.
 * Calls and puts are two frames: concatenated, or one side alone (accepted with a warning). The dump carries no spot
 * and no time of its own: `spot` must be given, and without `quoteTime` the newest `lastTradeDate` stands for it (a
 * warning says so). Decisions in docs/exposure.md, "yfinance option_chain CSV".
 */
import type { OptionContract } from '../../src-shared/exposure/model';
import { ErrorList, finishSnapshot, parseNumberCell, parseOccSymbol, tooManyContracts, type ChainParseOptions, type ChainParseResult, type LocatedContract } from './common';
import { firstLines, splitCsvLine, textLines } from './lines';

const REQUIRED = ['contractSymbol', 'strike', 'bid', 'ask', 'openInterest', 'impliedVolatility'] as const;

function isHeader(cells: readonly string[]): boolean {
  return cells.includes('contractSymbol') && cells.includes('impliedVolatility');
}

/** True when one of the first lines is a yfinance option_chain header. */
export function looksLikeYfinanceCsv(text: string): boolean {
  return firstLines(text.slice(0, 4000), 5).some((l) => isHeader(splitCsvLine(l.text).map((cell) => cell.trim())));
}

/** `2024-01-05 20:59:58+00:00` (pandas, tz-aware) or without the offset (older yfinance: UTC) → epoch ms; NaN otherwise. */
const TRADE_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})?$/;
export function lastTradeMs(text: string): number {
  const match = TRADE_TIME.exec(text.trim());
  if (match === null) return Number.NaN;
  const [, year, month, day, hour, minute, second, zone] = match;
  const utc = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
  if (zone === undefined || zone === 'Z') return utc;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return utc - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
}

/** A cell pandas leaves empty for NaN: `fallback`; a number otherwise; null when it is neither. */
function numberOr(text: string, fallback: number | undefined): number | null | undefined {
  return text.trim() === '' ? fallback : parseNumberCell(text);
}

export function parseYfinanceCsv(text: string, options: ChainParseOptions = {}): ChainParseResult {
  const head = firstLines(text, 20);
  const headerAt = head.findIndex((l) => isHeader(splitCsvLine(l.text).map((cell) => cell.trim())));
  if (headerAt < 0) return { ok: false, errors: [{ line: null, message: 'missing header line naming contractSymbol and impliedVolatility (not a yfinance option_chain CSV?)' }] };
  const headerLine = head[headerAt];
  const header = splitCsvLine(headerLine?.text ?? '').map((cell) => cell.trim());
  const missing = REQUIRED.filter((name) => !header.includes(name));
  if (missing.length > 0) return { ok: false, errors: [{ line: headerLine?.line ?? null, message: `missing columns: ${missing.join(', ')}` }] };
  const at = (name: string) => header.indexOf(name);
  const column = { symbol: at('contractSymbol'), strike: at('strike'), bid: at('bid'), ask: at('ask'), openInterest: at('openInterest'), iv: at('impliedVolatility'), volume: at('volume'), lastTrade: at('lastTradeDate') };
  const headerText = headerLine?.text.trim() ?? '';

  const errors = new ErrorList();
  const warnings: string[] = [];
  const located: LocatedContract[] = [];
  const sides = { C: 0, P: 0 };
  let newestTradeMs = Number.NEGATIVE_INFINITY;
  // The rows one at a time (a generator: a 50 MB file is not held as millions of line objects).
  const headerLineNumber = headerLine?.line ?? 0;
  for (const l of textLines(text)) {
    if (tooManyContracts(located, errors)) break;
    if (l.line <= headerLineNumber || l.text.trim() === '') continue;
    // The second frame of `calls.to_csv(f); puts.to_csv(f, mode='a')` repeats the header.
    if (l.text.trim() === headerText) continue;
    const cells = splitCsvLine(l.text);
    const cell = (position: number): string => (position < 0 ? '' : (cells[position] ?? '').trim());
    const symbolText = cell(column.symbol);
    const occ = parseOccSymbol(symbolText);
    if (occ === null) {
      errors.add(l.line, `contractSymbol "${symbolText}" is not an OCC option symbol (root + YYMMDD + C/P + strike×1000)`);
      continue;
    }
    const strike = parseNumberCell(cell(column.strike));
    if (strike === null || Math.abs(strike - occ.strike) > 1e-6) {
      errors.add(l.line, `strike "${cell(column.strike)}" does not match ${symbolText}`);
      continue;
    }
    // pandas writes NaN as an empty cell: no quote (0), no open interest reported (0), no IV (0: no exposure).
    const values = {
      bid: numberOr(cell(column.bid), 0),
      ask: numberOr(cell(column.ask), 0),
      openInterest: numberOr(cell(column.openInterest), 0),
      impliedVolatility: numberOr(cell(column.iv), 0),
      volume: numberOr(cell(column.volume), undefined),
    };
    const bad = Object.entries(values).filter(([, v]) => v === null).map(([k]) => k);
    if (bad.length > 0) {
      errors.add(l.line, `non-numeric ${bad.join(', ')}`);
      continue;
    }
    const { bid, ask, openInterest, impliedVolatility, volume } = values;
    if ((impliedVolatility ?? 0) < 0 || (openInterest ?? 0) < 0 || (volume ?? 0) < 0) {
      errors.add(l.line, `negative ${(impliedVolatility ?? 0) < 0 ? 'impliedVolatility' : (openInterest ?? 0) < 0 ? 'openInterest' : 'volume'}`);
      continue;
    }
    const contract: OptionContract = {
      root: occ.root,
      expiration: occ.expiration,
      strike,
      right: occ.right,
      openInterest: openInterest ?? 0,
      iv: impliedVolatility ?? 0,
      bid: bid ?? 0,
      ask: ask ?? 0,
      multiplier: 100,
    };
    if (typeof volume === 'number') contract.volume = volume;
    const traded = lastTradeMs(cell(column.lastTrade));
    if (traded > newestTradeMs) newestTradeMs = traded;
    sides[occ.right] += 1;
    located.push({ contract, line: l.line });
  }
  if (located.length > 0 && (sides.C === 0 || sides.P === 0)) {
    warnings.push(`only ${sides.C === 0 ? 'puts' : 'calls'} in the file (one option_chain frame): exposure, the parity forward and the ATM figures see one side`);
  }
  let quoteTime: string | null = null;
  if (options.quoteTime === undefined && Number.isFinite(newestTradeMs)) {
    quoteTime = new Date(newestTradeMs).toISOString().replace('.000Z', 'Z');
    warnings.push(`the file has no quote time: the newest lastTradeDate (${quoteTime}) stands for it; pass ${options.names?.quoteTime ?? 'quoteTime'} to set it`);
  }
  return finishSnapshot({ located, errors, warnings, symbol: null, spot: null, quoteTime, source: 'yfinance-csv', options, ivMayBePercent: false });
}
