/**
 * CBOE "quotedata.csv" option-chain export (layout in fixtures/README.md): a name line with `Last: <spot>`,
 * a `Date:` line in the browser's locale (New York time unless a zone is given), a 22-column header, then one row per
 * (expiration, strike) with the call on the left of `Strike` and the put on the right.
 */
import { isIsoDate } from '../../src-shared/calendar';
import { excerpt } from '../../src-shared/text';
import type { OptionContract } from '../../src-shared/exposure/model';
import {
  ErrorList,
  finishSnapshot,
  monthNumber,
  parseNumberCell,
  parseOccSymbol,
  type ChainParseOptions,
  type ChainParseResult,
  type LocatedContract,
  tooManyContracts,
} from './common';
import { parseDateText, QUOTE_LINE_EXAMPLES } from './date-text';
import { firstLines, hasContent, splitCsvLine, textLines, type TextLine } from './lines';

/**
 * A CBOE header line: `Expiration Date,Calls,...` (cells may be quoted; `;` or tab when a spreadsheet re-saved it).
 * The blanks around a delimiter are blanks other than a tab (`[^\S\t]`): a tab is a delimiter itself, and as both a
 * blank and a delimiter a run of tabs could be shared out in a square number of ways (docs/importers.md §Linear time).
 */
const HEADER_RE = /^\s*"?Expiration Date"?[^\S\t]*[,;\t][^\S\t]*"?Calls"?[^\S\t]*[,;\t]/i;
/** The start of the header: `Expiration Date` and its delimiter (captured). */
const HEADER_START = /^\s*"?Expiration Date"?[^\S\t]*([,;\t])/i;
/** A `Date:` cell of a line before the header (the line's start or a delimiter, blanks, an optional quote). */
const DATE_CELL = /(?:^|[,;\t"])[^\S\t]*"?Date:/i;
/** The longest quote time read (the longest real spelling is under 60 characters); a longer text is refused unread. */
export const MAX_DATE_TEXT = 120;

/** True when one of the first lines is the CBOE header. */
export function looksLikeCboeCsv(text: string): boolean {
  return firstLines(text.slice(0, 4000), 8).some((l) => HEADER_RE.test(l.text));
}

/**
 * The quote time of a `Date:` line (the whole line or its cell) → UTC ISO, or null. The text after `Date:` runs
 * to the next `,Label:` cell; it may hold commas itself ("Date: 26 May 2023, 5:18 PM EDT,Bid: 0" is not quoted).
 */
export function parseCboeDateLine(text: string): string | null {
  const dateText = dateTextOf(text);
  return dateText === null ? null : quoteTimeOf(dateText);
}

function dateTextOf(line: string): string | null {
  const at = line.search(/Date:/i);
  if (at < 0) return null;
  let rest = line.slice(at + 'Date:'.length);
  const nextCell = nextLabelCell(rest);
  if (nextCell >= 0) rest = rest.slice(0, nextCell);
  return rest.replace(/"/g, '').trim();
}

const BLANK = /\s/;
const LETTER = /\p{L}/u;
const isDelimiter = (char: string): boolean => char === ',' || char === ';' || char === '\t';

/**
 * Where the next `,Label:` cell starts (an optional quote and blanks, a delimiter, blanks, an optional quote, a word of
 * letters and spaces, a colon), or -1: what `/"?\s*[,;\t]\s*"?\p{L}[\p{L} ]*:/u` found, scanned in one pass. The
 * pattern took cubic time on a line of tabs (17–38 s for 3,500 of them): each tab could be a blank or the delimiter.
 * Here the tabs of one run share their answer (the first character after the run), so each character is looked at
 * a bounded number of times.
 */
function nextLabelCell(text: string): number {
  const length = text.length;
  let from = 0;
  while (from < length) {
    let delimiter = from;
    while (delimiter < length && !isDelimiter(text.charAt(delimiter))) delimiter += 1;
    if (delimiter >= length) return -1;
    let word = delimiter + 1;
    while (word < length && BLANK.test(text.charAt(word))) word += 1;
    let end = text.charAt(word) === '"' ? word + 1 : word;
    if (end < length && LETTER.test(text.charAt(end))) {
      end += 1;
      while (end < length && (text.charAt(end) === ' ' || LETTER.test(text.charAt(end)))) end += 1;
      if (text.charAt(end) === ':') {
        let start = delimiter;
        while (start > 0 && BLANK.test(text.charAt(start - 1))) start -= 1;
        return start > 0 && text.charAt(start - 1) === '"' ? start - 1 : start;
      }
    }
    // Delimiters among the blanks after this one (tabs) reach the same word: the next candidate is past them.
    from = Math.max(word, delimiter + 1);
  }
  return -1;
}

/** The quote time of a `Date:` text, or null; a text longer than any real one is not handed to the date reader. */
function quoteTimeOf(dateText: string): string | null {
  return dateText.length > MAX_DATE_TEXT ? null : parseDateText(dateText);
}

/**
 * The dates an expiration cell can mean: CBOE writes `Fri Jan 05 2024`; a spreadsheet may have rewritten it as
 * `2024-01-05`, `1/5/2024` or `5/1/2024` (both readings are returned; the row's OCC symbols decide).
 */
function expirationCandidates(text: string): string[] {
  const trimmed = text.trim();
  const named = /^(?:[A-Z]{3},?\s+)?([A-Z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})$/i.exec(trimmed);
  if (named !== null) {
    const month = monthNumber(named[1] ?? '');
    return month === null ? [] : realDates([{ year: Number(named[3]), month, day: Number(named[2]) }]);
  }
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ][\d:.]+)?$/.exec(trimmed);
  if (iso !== null) return realDates([{ year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) }]);
  const numeric = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})(?:\s+[\d:.]+)?$/.exec(trimmed);
  if (numeric !== null) {
    const yearText = numeric[3] ?? '';
    const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
    const a = Number(numeric[1]);
    const b = Number(numeric[2]);
    return realDates([
      { year, month: a, day: b },
      { year, month: b, day: a },
    ]);
  }
  return [];
}

function realDates(candidates: Array<{ year: number; month: number; day: number }>): string[] {
  const out: string[] = [];
  for (const { year, month, day } of candidates) {
    const iso = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
    if (isIsoDate(iso) && !out.includes(iso)) out.push(iso);
  }
  return out;
}

interface SideColumns {
  symbol: number;
  bid: number;
  ask: number;
  iv: number;
  openInterest: number;
  /** −1 when the side has no Volume column (volume is optional). */
  volume: number;
}

function sideColumns(header: string[], from: number, to: number): { columns: SideColumns | null; missing: string[] } {
  const find = (name: string): number => {
    for (let i = from; i < to; i += 1) if ((header[i] ?? '').trim().toLowerCase() === name) return i;
    return -1;
  };
  const columns = { symbol: from, bid: find('bid'), ask: find('ask'), iv: find('iv'), openInterest: find('open interest'), volume: find('volume') };
  const missing = Object.entries({ Bid: columns.bid, Ask: columns.ask, IV: columns.iv, 'Open Interest': columns.openInterest })
    .filter(([, index]) => index < 0)
    .map(([name]) => name);
  return { columns: missing.length === 0 ? columns : null, missing };
}

function readNumber(cells: string[], column: number, name: string, side: string, line: number, errors: ErrorList, decimalMark: '.' | ','): number | null {
  const raw = cells[column] ?? '';
  const value = parseNumberCell(raw, decimalMark);
  if (value === null) errors.add(line, `non-numeric ${name} "${raw.trim()}" (${side})`);
  return value;
}

/** The delimiter of a header line: a spreadsheet in a decimal-comma locale writes `;`, some exports a tab. */
function delimiterOf(headerText: string): ',' | ';' | '\t' {
  const match = HEADER_START.exec(headerText);
  const found = match?.[1];
  return found === ';' || found === '\t' ? found : ',';
}

export function parseCboeCsv(text: string, options: ChainParseOptions = {}): ChainParseResult {
  const errors = new ErrorList();
  const warnings: string[] = [];
  if (!hasContent(text)) return { ok: false, errors: [{ line: null, message: 'empty file' }] };

  // The header among the first 20 lines; the rows below it are read one at a time (next(), not for-of, which would
  // close the generator when the loop is left).
  const lines = textLines(text);
  const head: TextLine[] = [];
  let headerLine: TextLine | undefined;
  for (let next = lines.next(); next.done !== true && head.length < 20; next = lines.next()) {
    if (HEADER_START.test(next.value.text)) {
      headerLine = next.value;
      break;
    }
    head.push(next.value);
  }
  if (headerLine === undefined) {
    return { ok: false, errors: [{ line: null, message: 'missing header line: "Expiration Date,Calls,...,Strike,Puts,..." (not a CBOE quotedata file?)' }] };
  }
  const delimiter = delimiterOf(headerLine.text);
  const decimalMark = delimiter === ';' ? ',' : '.';
  const header = splitCsvLine(headerLine.text, delimiter).map((cell) => cell.trim());
  const headerLineNumber = headerLine.line;

  let spot: number | null = null;
  let quoteTime: string | null = null;
  let dateLineSeen = false;
  for (const l of head) {
    for (const cell of splitCsvLine(l.text, delimiter)) {
      const trimmed = cell.trim();
      const last = /^Last:(.+)$/i.exec(trimmed);
      if (last !== null && spot === null) {
        spot = parseNumberCell((last[1] ?? '').trim(), decimalMark);
        if (spot === null || !(spot > 0)) {
          errors.add(l.line, `spot "${trimmed}" is not a positive number`);
          spot = null;
        }
      }
    }
    // The whole line, not its cells: an unquoted date line holds commas of its own.
    if (!dateLineSeen && DATE_CELL.test(l.text)) {
      dateLineSeen = true;
      // quoteTime= replaces the line: nothing to read (and nothing to refuse) then.
      if (options.quoteTime !== undefined) continue;
      const dateText = dateTextOf(l.text) ?? '';
      quoteTime = quoteTimeOf(dateText);
      if (quoteTime === null) {
        errors.add(
          l.line,
          `bad date: cannot read the quote time "${excerpt(dateText)}": expected a date and time such as ${QUOTE_LINE_EXAMPLES} ` +
            `(New York time unless a zone is given); or give the time as ${options.names?.quoteTime ?? 'quoteTime'}= (ISO 8601, e.g. 2024-01-07T10:52, New York time)`,
        );
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
    return errors.failure();
  }
  // Rows need the columns that are read, not the header's width: a spreadsheet pads some lines with empty cells.
  const needed = Math.max(strikeAt, ...Object.values(callColumns), ...Object.values(putColumns)) + 1;

  const located: LocatedContract[] = [];
  const expirationCache = new Map<string, string[]>();
  const sides = [
    { right: 'C' as const, columns: callColumns, label: 'call' },
    { right: 'P' as const, columns: putColumns, label: 'put' },
  ];
  for (const l of lines) {
    if (tooManyContracts(located, errors)) break;
    if (l.text.trim() === '') continue;
    const cells = splitCsvLine(l.text, delimiter);
    if (cells.every((cell) => cell.trim() === '')) continue; // a blank row saved by a spreadsheet: `,,,,`
    if (cells.length < needed) {
      errors.add(l.line, `expected ${header.length} columns, found ${cells.length}`);
      continue;
    }
    const expirationText = cells[0] ?? '';
    let expirations = expirationCache.get(expirationText);
    if (expirations === undefined) {
      expirations = expirationCandidates(expirationText);
      // A chain has tens of expirations; a hostile file must not grow the cache with every line.
      if (expirationCache.size < 1_000) expirationCache.set(expirationText, expirations);
    }
    if (expirations.length === 0) {
      errors.add(l.line, `bad date: expiration "${expirationText.trim()}" is not a date like "Fri Jan 05 2024"`);
      continue;
    }
    const strike = parseNumberCell(cells[strikeAt] ?? '', decimalMark);
    if (strike === null || !(strike > 0)) {
      errors.add(l.line, `strike "${(cells[strikeAt] ?? '').trim()}" is not a positive number`);
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
      if (!expirations.includes(occ.expiration) || occ.right !== side.right || Math.abs(occ.strike - strike) > 1e-6) {
        errors.add(l.line, `${side.label} symbol ${symbolText} does not match the row (${expirations.join(' or ')}, strike ${strike})`);
        continue;
      }
      const bid = readNumber(cells, side.columns.bid, 'Bid', side.label, l.line, errors, decimalMark);
      const ask = readNumber(cells, side.columns.ask, 'Ask', side.label, l.line, errors, decimalMark);
      const iv = readNumber(cells, side.columns.iv, 'IV', side.label, l.line, errors, decimalMark);
      const openInterest = readNumber(cells, side.columns.openInterest, 'Open Interest', side.label, l.line, errors, decimalMark);
      if (bid === null || ask === null || iv === null || openInterest === null) continue;
      if (iv < 0 || openInterest < 0) {
        errors.add(l.line, `negative ${iv < 0 ? 'IV' : 'Open Interest'} (${side.label})`);
        continue;
      }
      const contract: OptionContract = { root: occ.root, expiration: occ.expiration, strike, right: side.right, openInterest, iv, bid, ask, multiplier: 100 };
      // Volume is carried where the file has it (an empty cell: no volume for this contract); exposure does not use it.
      const volumeCell = side.columns.volume < 0 ? '' : (cells[side.columns.volume] ?? '');
      if (volumeCell !== '') {
        const volume = parseNumberCell(volumeCell, decimalMark);
        if (volume !== null) {
          contract.volume = volume;
        } else if (volumeCell.trim() !== '') {
          errors.add(l.line, `non-numeric Volume "${volumeCell.trim()}" (${side.label})`);
          continue;
        }
      }
      located.push({ contract, line: l.line });
    }
  }
  // The quotedata IV column is always a decimal (1.07 = 107%): a volatile chain is never refused for it.
  return finishSnapshot({ located, errors, warnings, symbol: null, spot, quoteTime, source: 'cboe-csv', options, ivMayBePercent: false, quoteTimeUnreadable: dateLineSeen });
}
