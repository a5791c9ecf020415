/**
 * Shared pieces of the chain parsers: options, results, line-numbered errors, OCC symbols, the underlying
 * of a root, quote times (New York wall clock → UTC) and the checks every format runs on its contracts.
 */
import type { ChainSnapshot, OptionContract, SnapshotSourceId } from '../../src-shared/exposure/model';
import { MAX_USABLE_IV } from '../../src-shared/exposure/prepare';
import { underlyingOfRoot } from '../../src-shared/exposure/roots';
import { isIsoDate, isoInstant } from '../../src-shared/calendar';
import { NEW_YORK, parseDateTimeInZone } from '../../src-shared/zone';
import { MAX_MESSAGE_CHARS } from '../../src-shared/text';
import { MAX_IV, MAX_MULTIPLIER, MAX_OPEN_INTEREST, MAX_STRIKE, MAX_YEAR, MIN_YEAR, saneStrike, saneYear } from '../../src-shared/bounds';
import { SYMBOL_PATTERN } from '../../src-shared/api/schema-kit';
import { asTicker, type Ticker } from '../../src-shared/ids';


export type ChainFormat = 'auto' | 'cboe-csv' | 'cboe-json' | 'schwab-json' | 'yfinance-csv' | 'generic-csv' | 'generic-json';

/** The overrides a file may need, as its reader names them in messages: the API's query parameters or the CLI's options. */
export interface OverrideNames {
  symbol: string;
  spot: string;
  quoteTime: string;
}

export const QUERY_OVERRIDE_NAMES: OverrideNames = { symbol: 'symbol', spot: 'spot', quoteTime: 'quoteTime' };
export const CLI_OVERRIDE_NAMES: OverrideNames = { symbol: '--symbol', spot: '--spot', quoteTime: '--quote-time' };

export interface ChainParseOptions {
  format?: ChainFormat;
  /** Overrides the underlying derived from the file. */
  symbol?: string;
  /** Overrides the file's quote time: ISO 8601; without an offset it is New York time. */
  quoteTime?: string;
  /** Overrides (or supplies) the underlying price. */
  spot?: number;
  /** How messages name the overrides (default the query parameters: `spot`, `quoteTime`, `symbol`). */
  names?: OverrideNames;
}

export interface ChainParseError {
  /** 1-based line of the file, or null when the problem is not tied to one line. */
  line: number | null;
  message: string;
  /** The override that would fix it (`spot`, `quoteTime`, `symbol`): the problem names that parameter. */
  param?: 'symbol' | 'spot' | 'quoteTime';
}

export type ChainParseResult =
  | { ok: true; snapshot: ChainSnapshot; warnings: string[] }
  /** `errorCount`: every error of the file (the list keeps MAX_ERRORS and one entry counting the rest); else the list's length. */
  | { ok: false; errors: ChainParseError[]; errorCount?: number };

/**
 * Contracts a chain may hold. The largest real chain, SPX with every weekly, has about 21,000; a file of more is no
 * chain of one underlying, and its parse and store stay within the memory budget up to here (docs/architecture.md
 * §Reliability and security).
 */
export const MAX_CHAIN_CONTRACTS = 300_000;

/** True (and the error said) once a file has given more than MAX_CHAIN_CONTRACTS contracts: the parser stops reading there. */
export function tooManyContracts(located: readonly LocatedContract[], errors: ErrorList): boolean {
  if (located.length <= MAX_CHAIN_CONTRACTS) return false;
  errors.add(null, `more than ${MAX_CHAIN_CONTRACTS.toLocaleString('en-US')} contracts: no chain of one underlying has that many (a whole SPX chain has about 21,000); the file was read no further`);
  return true;
}

/** Errors kept per file, as in the importers (docs/importers.md §Bounded); the rest are counted in one entry. */
export const MAX_ERRORS = 1_000;

/** A file's errors: the first MAX_ERRORS, each a line of text however long the cell it quotes, and the count of all. */
export class ErrorList {
  private readonly kept: ChainParseError[] = [];
  count = 0;

  add(line: number | null, message: string, param?: ChainParseError['param']): void {
    this.count += 1;
    if (this.kept.length >= MAX_ERRORS) return;
    const text = message.length <= MAX_MESSAGE_CHARS ? message : `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…`;
    this.kept.push(param === undefined ? { line, message: text } : { line, message: text, param });
  }

  get empty(): boolean {
    return this.count === 0;
  }

  /** The kept errors, then one entry for those not kept. */
  get errors(): ChainParseError[] {
    const more = this.count - this.kept.length;
    if (more === 0) return [...this.kept];
    return [...this.kept, { line: null, message: `and ${more.toLocaleString('en-US')} more error${more === 1 ? '' : 's'} (${this.count.toLocaleString('en-US')} in all; only the first ${MAX_ERRORS.toLocaleString('en-US')} are listed)` }];
  }

  /** The failed parse: the errors and their count. */
  failure(): ChainParseResult {
    return { ok: false, errors: this.errors, errorCount: this.count };
  }
}

/** A contract plus the line it came from, for the checks that run after reading. */
export interface LocatedContract {
  contract: OptionContract;
  line: number | null;
}

export interface OccSymbol {
  root: string;
  expiration: string;
  right: 'C' | 'P';
  strike: number;
}

/** OCC symbol without padding (`SPXW240119C04700000`), also with the padded 21-character form's spaces. */
export function parseOccSymbol(text: string): OccSymbol | null {
  const compact = /^[A-Z0-9]+$/.test(text) ? text : text.replace(/\s+/g, '').replace(/^[-_.]/, '').toUpperCase();
  if (compact.length < 16) return null;
  const right = compact.charAt(compact.length - 9);
  const strikeDigits = compact.slice(-8);
  if ((right !== 'C' && right !== 'P') || !/^\d{8}$/.test(strikeDigits)) return null;
  // Root and date repeat across a whole expiration: parse them once.
  const head = compact.slice(0, -9);
  let parsedHead = occHeadCache.get(head);
  if (parsedHead === undefined) {
    parsedHead = parseOccHead(head);
    if (occHeadCache.size > 10_000) occHeadCache.clear();
    occHeadCache.set(head, parsedHead);
  }
  if (parsedHead === null) return null;
  return { root: parsedHead.root, expiration: parsedHead.expiration, right, strike: Number(strikeDigits) / 1000 };
}

const occHeadCache = new Map<string, { root: string; expiration: string } | null>();
const OCC_HEAD_RE = /^([A-Z][A-Z0-9.]{0,5})(\d{2})(\d{2})(\d{2})$/;

function parseOccHead(head: string): { root: string; expiration: string } | null {
  const match = OCC_HEAD_RE.exec(head);
  if (match === null) return null;
  const [, root = '', yy = '', mm = '', dd = ''] = match;
  const expiration = `20${yy}-${mm}-${dd}`;
  return isIsoDate(expiration) ? { root, expiration } : null;
}

/** The underlying of an OCC root (src-shared/exposure/roots.ts: one map for the chains and the journal). */
export { underlyingOfRoot };

/** The underlying most contracts belong to (by count), or null when there are none. */
export function dominantUnderlying(contracts: readonly OptionContract[]): string | null {
  const byRoot = new Map<string, number>();
  for (const c of contracts) byRoot.set(c.root, (byRoot.get(c.root) ?? 0) + 1);
  const counts = new Map<string, number>();
  for (const [root, count] of byRoot) {
    const u = underlyingOfRoot(root);
    counts.set(u, (counts.get(u) ?? 0) + count);
  }
  let best: string | null = null;
  let bestCount = 0;
  for (const [u, count] of counts) {
    if (count > bestCount) {
      best = u;
      bestCount = count;
    }
  }
  return best;
}

/**
 * An ISO 8601 date-time (`2024-01-05T16:00`, with seconds, `Z` or an offset, or a space instead of `T`);
 * without an offset it is wall-clock time in `zone` (New York unless told). Returns the UTC ISO instant or null.
 */
export function parseQuoteTime(text: string, zone: string = NEW_YORK): string | null {
  const trimmed = text.trim().replace(/^(\d{4}-\d{2}-\d{2}) (\d)/, '$1T$2');
  // The longest ISO date-time is 35 characters: a longer text is not one, and the date library never sees it.
  if (trimmed.length > 64 || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(trimmed)) return null;
  const ms = parseDateTimeInZone(trimmed, zone);
  return Number.isNaN(ms) ? null : isoInstant(ms, { compact: true });
}

const MONTHS: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12,
};

export function monthNumber(name: string): number | null {
  return MONTHS[name.slice(0, 3).toLowerCase()] ?? null;
}

/** Characters spreadsheets and localised pages put between groups of three digits (besides `,` and `.`). */
const GROUPING_SPACES = /[\s'\u2019]/g;
const COMMA_GROUPS = /^[-+]?\d{1,3}(,\d{3})+$/;
const DOT_GROUPS = /^[-+]?\d{1,3}(\.\d{3})+$/;
// One way to read each character (docs/importers.md §Linear time): `\d+\.?\d*` gave a run of digits many.
const PLAIN_NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?$/i;

/**
 * A finite number from a cell; null for anything else. `decimalMark` is `.` for comma-separated files and
 * `,` for the semicolon-separated ones a spreadsheet writes in a decimal-comma locale. The other mark, spaces
 * (also non-breaking and narrow no-break ones) and apostrophes are accepted only as separators of groups of
 * three digits (`1,234.5`, `130 859 611`, `1.234,5`), so that `0,1064` in a comma file is an error rather than
 * 1064. A leading `$` is dropped.
 */
export function parseNumberCell(text: string, decimalMark: '.' | ',' = '.'): number | null {
  // Fast path for plain numbers; Number('') and Number('  ') are 0, hence the first-character check.
  const first = text.charCodeAt(0);
  if (decimalMark === '.' && ((first >= 48 && first <= 57) || first === 45 || first === 46)) {
    const direct = Number(text);
    if (Number.isFinite(direct)) return direct;
  }
  let trimmed = text.trim().replace(/^\$/, '');
  if (trimmed === '') return null;
  const groupMark = decimalMark === '.' ? ',' : '.';
  const parts = trimmed.split(decimalMark);
  if (parts.length > 2) return null;
  const integer = (parts[0] ?? '').replace(GROUPING_SPACES, groupMark);
  if (integer.includes(groupMark) && !(decimalMark === '.' ? COMMA_GROUPS : DOT_GROUPS).test(integer)) return null;
  trimmed = integer.split(groupMark).join('') + (parts.length === 2 ? `.${parts[1] ?? ''}` : '');
  if (!PLAIN_NUMBER.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

/** A chain file's underlying as a Ticker: its index marks (`_SPX`, `^SPX`, `$SPX`, `.SPX`) dropped, then asTicker. */
export function normaliseSymbol(symbol: string): Ticker {
  return asTicker(symbol.trim().replace(/^[_^$.]+/, ''));
}

/**
 * What is out of range in a contract, as a message for its line; null when it is sane (docs/importers.md §Sane
 * ranges). Every way a chain arrives runs it: the chain files' parsers (finishSnapshot), the lake's import
 * (lake/rows.ts) and a snapshot stored inline (planIngest).
 */
export function contractProblem(c: OptionContract): string | null {
  const what = `${c.root} ${c.expiration} ${c.strike} ${c.right}`;
  if (!saneYear(c.expiration)) return `${what}: the expiration is outside the years ${MIN_YEAR}–${MAX_YEAR}`;
  if (!saneStrike(c.strike)) return `${what}: the strike is not above 0 and at most ${MAX_STRIKE.toLocaleString('en-US')}`;
  if (!(c.openInterest >= 0 && c.openInterest <= MAX_OPEN_INTEREST)) return `${what}: the open interest ${c.openInterest} is not between 0 and ${MAX_OPEN_INTEREST.toLocaleString('en-US')}`;
  if (!(c.iv >= 0 && c.iv <= MAX_IV)) return `${what}: the IV ${c.iv} is not between 0 and ${MAX_IV} (a decimal: 0.25 for 25%)`;
  if (!(Math.abs(c.bid) <= MAX_STRIKE && Math.abs(c.ask) <= MAX_STRIKE)) return `${what}: the bid or ask is beyond ${MAX_STRIKE.toLocaleString('en-US')}`;
  if (!(c.multiplier > 0 && c.multiplier <= MAX_MULTIPLIER)) return `${what}: the multiplier ${c.multiplier} is not above 0 and at most ${MAX_MULTIPLIER.toLocaleString('en-US')}`;
  if (c.volume !== undefined && !(c.volume >= 0 && c.volume <= MAX_OPEN_INTEREST)) return `${what}: the volume ${c.volume} is not between 0 and ${MAX_OPEN_INTEREST.toLocaleString('en-US')}`;
  return null;
}

const SYMBOL_RE = new RegExp(SYMBOL_PATTERN);

/**
 * What is wrong with a snapshot's symbol, spot and quote time, each with the override that would fix it; [] when
 * they are sane. The symbol must be a ticker as every route takes it (SYMBOL_PATTERN): `../../../ETC` stored would be
 * listed by /v1/chains and refused by every route of its own.
 */
export function headProblems(head: { symbol?: string; spot?: number; quoteTime?: string }): Array<{ param: 'symbol' | 'spot' | 'quoteTime'; message: string }> {
  const problems: Array<{ param: 'symbol' | 'spot' | 'quoteTime'; message: string }> = [];
  const { symbol, spot, quoteTime } = head;
  if (symbol !== undefined && !SYMBOL_RE.test(symbol)) problems.push({ param: 'symbol', message: `the symbol "${symbol.slice(0, 40)}" is not a ticker (a letter or digit, then up to 15 letters, digits or . _ / ^ -)` });
  if (spot !== undefined && (!(spot > 0) || !Number.isFinite(spot))) problems.push({ param: 'spot', message: `the spot ${spot} is not a positive number` });
  else if (spot !== undefined && spot > MAX_STRIKE) problems.push({ param: 'spot', message: `the spot ${spot} is above ${MAX_STRIKE.toLocaleString('en-US')}` });
  if (quoteTime !== undefined && (!saneYear(quoteTime) || Number.isNaN(Date.parse(quoteTime)))) problems.push({ param: 'quoteTime', message: `the quote time ${quoteTime.slice(0, 40)} is outside the years ${MIN_YEAR}–${MAX_YEAR}` });
  return problems;
}

/**
 * The checks of a parsed snapshot that did not come from a chain file (the lake, the demo, a test): its head, every
 * contract's ranges, no contract twice. At most `max` messages; [] when it may be stored.
 */
export function snapshotProblems(snapshot: ChainSnapshot, max = 20): string[] {
  const problems = headProblems(snapshot).map((p) => p.message);
  if (snapshot.contracts.length === 0) problems.push('no contracts');
  const seen = new Set<string>();
  for (const contract of snapshot.contracts) {
    if (problems.length >= max) break;
    const insane = contractProblem(contract);
    if (insane !== null) problems.push(insane);
    const key = `${contract.root}|${contract.expiration}|${contract.strike}|${contract.right}`;
    if (seen.has(key)) problems.push(`duplicated contract ${contract.root} ${contract.expiration} ${contract.strike} ${contract.right}`);
    seen.add(key);
  }
  return problems.slice(0, max);
}

/**
 * Checks that every format shares, then builds the snapshot: no contracts, IV given in percent, duplicated
 * contracts (same root, expiration, strike and right), missing spot or quote time.
 */
export function finishSnapshot(input: {
  located: LocatedContract[];
  errors: ErrorList;
  warnings: string[];
  symbol: string | null;
  spot: number | null;
  quoteTime: string | null;
  /** The file has a quote time the parser could not read and has said so: no second "no quote time" error. */
  quoteTimeUnreadable?: boolean;
  source: SnapshotSourceId;
  options: ChainParseOptions;
  /** False for CBOE's own formats, whose IV is always a decimal. */
  ivMayBePercent: boolean;
}): ChainParseResult {
  const { located, errors, warnings, options } = input;
  if (located.length === 0 && errors.empty) errors.add(null, 'no option contracts found in the file');

  // IV in percent, for the formats whose authors write IV themselves: a typical (median) positive IV above 5
  // (500%) is no real chain, while 10.64 for 10.64% gives medians of 10 to 100. A lower bar would refuse real
  // high-volatility chains (TSLA's median IV is about 1.0, i.e. 100%). Single contracts above 5 contribute nothing.
  if (input.ivMayBePercent) {
    let positiveCount = 0;
    for (const { contract } of located) if (contract.iv > 0) positiveCount += 1;
    const positive = new Float64Array(positiveCount);
    let k = 0;
    for (const { contract } of located) if (contract.iv > 0) positive[k++] = contract.iv;
    positive.sort();
    const median = positive[Math.floor(positive.length / 2)] ?? 0;
    if (median > MAX_USABLE_IV) {
      let reported = 0;
      for (const { contract, line } of located) {
        if (contract.iv > MAX_USABLE_IV && reported < 5) {
          errors.add(line, `IV looks like percent (${contract.iv}; typical IV in this file is ${median}): give IV as a decimal, 0.1064 for 10.64%`);
          reported += 1;
        }
      }
    }
  }

  // Sane ranges (docs/importers.md §Sane ranges): a strike of 1e300 or an expiration in 9999 is no chain's.
  for (const { contract, line } of located) {
    const insane = contractProblem(contract);
    if (insane !== null) errors.add(line, insane);
  }

  // Nested maps (root|expiration → strike/right) avoid building one string key per contract.
  const seen = new Map<string, Map<number, number | null>>();
  for (const { contract, line } of located) {
    const head = `${contract.root}|${contract.expiration}`;
    let byStrike = seen.get(head);
    if (byStrike === undefined) {
      byStrike = new Map();
      seen.set(head, byStrike);
    }
    const key = contract.right === 'C' ? contract.strike : -contract.strike;
    const first = byStrike.get(key);
    if (first !== undefined) {
      errors.add(line, `duplicated contract ${contract.root} ${contract.expiration} ${contract.strike} ${contract.right}${first === null ? '' : ` (first on line ${first})`}`);
    } else {
      byStrike.set(key, line);
    }
  }

  const names = options.names ?? QUERY_OVERRIDE_NAMES;
  const spot = options.spot ?? input.spot;
  if (spot === null || !(spot > 0) || !Number.isFinite(spot)) errors.add(null, `no spot price: the file gives no underlying price (pass ${names.spot})`, 'spot');

  let quoteTime = input.quoteTime;
  if (options.quoteTime !== undefined) {
    quoteTime = parseQuoteTime(options.quoteTime);
    if (quoteTime === null) errors.add(null, `${names.quoteTime} option is not an ISO 8601 date-time: ${options.quoteTime}`, 'quoteTime');
  }
  if (quoteTime === null && options.quoteTime === undefined && input.quoteTimeUnreadable !== true) errors.add(null, `no quote time: the file gives none (pass ${names.quoteTime})`, 'quoteTime');

  const symbolSource = options.symbol ?? input.symbol ?? dominantUnderlying(located.map((l) => l.contract));
  const symbol = symbolSource === null ? '' : normaliseSymbol(symbolSource);
  if (symbol === '' && located.length > 0) errors.add(null, `no underlying symbol: pass ${names.symbol}`, 'symbol');

  // The head's ranges and the symbol's grammar, as every snapshot's (headProblems); what is missing was said above.
  const head = headProblems({ ...(symbol === '' ? {} : { symbol }), ...(spot !== null && spot > 0 && Number.isFinite(spot) ? { spot } : {}), ...(quoteTime === null ? {} : { quoteTime }) });
  for (const { param, message } of head) errors.add(null, message, param);

  if (!errors.empty || spot === null || quoteTime === null) return errors.failure();
  return {
    ok: true,
    snapshot: { symbol, spot, quoteTime, source: input.source, contracts: located.map((l) => l.contract) },
    warnings,
  };
}
