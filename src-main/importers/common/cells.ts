/**
 * The one grammar for the cells of broker files: numbers, money and column lookup by name, with errors that
 * name the column (the line travels beside the message, never inside it).
 *
 * Before this module the importers had two toolkits that disagreed: one read `1.2E-4`, `@1.50`, `$12` and `-`
 * as numbers and the other refused them; one wrote "line 62, column …" into messages that the API then
 * prefixed with the line again. Every importer now reads cells through here.
 */
import { MAX_MONEY_MINOR, MAX_MONEY_UNITS } from '../../../src-shared/bounds';
import { ZERO_MINOR, toMinor, parseMoneyMinor, plainDecimalMinor, type Minor } from '../../../src-shared/money';
import { excerpt } from '../../../src-shared/text';
import type { CsvRecord } from './csv';
import type { ResultCollector } from './result';

/** Cells that brokers write for "nothing here". */
const PLACEHOLDERS = new Set(['', '-', '--', 'n/a', 'na', 'none']);

/** True when a cell holds one of the brokers' "nothing here" placeholders (or nothing). */
export function isPlaceholder(raw: string): boolean {
  return PLACEHOLDERS.has(raw.trim().toLowerCase());
}

// Each character has one place to go (docs/importers.md §Linear time): `\d+\.?\d*` gave the digits two.
const DIGITS = /^(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;
const GROUPED = /^\d{1,3}(?:,\d{3})+(?:\.\d*)?$/;

/**
 * A number cell as canonical decimal text (`-1234.5`, `2.6E-4`); '' for an empty cell or a placeholder; null
 * when the cell is not a number. Accepts a sign and a `$` in either order (`-$12`, `$-12`), parentheses for
 * negatives (`(12.50)`), an `@` before prices (Webull), thousands separators in groups of three (`1,000.50`;
 * `1,5` is refused rather than read as 15) and exponents (IBKR writes `-2.637591265E-4`).
 */
const PLAIN = /^-?\d+(?:\.\d+)?$/;

const BLANK = /\s/;

/**
 * What stands before the digits: an `@`, a sign and a `$` in either order, blanks between. Scanned by hand: as a
 * pattern (`^@?\s*([+-]?)\s*\$?\s*([+-]?)\s*`) its runs of blanks could be shared out in many ways, and a cell
 * of blanks made it backtrack for seconds. `end` is where the number's body starts; null for two signs.
 */
function signPrefix(text: string): { sign: string; end: number } | null {
  let at = 0;
  const skipBlanks = () => {
    while (at < text.length && BLANK.test(text.charAt(at))) at += 1;
  };
  if (text.charCodeAt(at) === 64 /* @ */) at += 1;
  let sign = '';
  let dollar = false;
  for (;;) {
    skipBlanks();
    const char = text.charAt(at);
    if ((char === '+' || char === '-') && !dollar && sign === '') {
      sign = char;
    } else if ((char === '+' || char === '-') && dollar) {
      if (sign !== '') return null;
      sign = char;
      at += 1;
      skipBlanks();
      return { sign, end: at };
    } else if (char === '$' && !dollar) {
      dollar = true;
    } else {
      return { sign, end: at };
    }
    at += 1;
  }
}

export function canonicalNumber(raw: string): string | null {
  // Most cells are plain decimals already.
  if (PLAIN.test(raw)) return raw;
  let text = raw.trim();
  if (PLACEHOLDERS.has(text.toLowerCase())) return '';
  let negative = false;
  if (text.startsWith('(') && text.endsWith(')')) {
    negative = true;
    text = text.slice(1, -1).trim();
  }
  const prefix = signPrefix(text);
  if (prefix === null) return null;
  const sign = prefix.sign;
  let body = text.slice(prefix.end).trim();
  if (body.includes(',')) {
    if (!GROUPED.test(body)) return null;
    body = body.replace(/,/g, '');
  }
  if (!DIGITS.test(body)) return null;
  if (sign === '-') negative = !negative;
  return negative ? `-${body}` : body;
}

/**
 * A plain decimal cell's value (most cells of a 100k-row file), NaN for anything else: callers that read cells without
 * a RowReader (the generic importer's fused rows) ask the cell grammar (parseNumber) only then, as RowReader.number does.
 */
export function plainNumber(raw: string): number {
  if (PLAIN.test(raw)) {
    const value = Number(raw);
    if (Number.isFinite(value)) return value;
  }
  return Number.NaN;
}

export type CellNumber = CellValue<number>;

/** A cell read as T (a count, or money in minor units), null when empty, or the error naming the problem. */
export type CellValue<T extends number> = { ok: true; value: T | null } | { ok: false; error: string };

/** A count (shares, contracts, strikes): null for an empty cell. */
export function parseNumber(raw: string): CellNumber {
  const canonical = canonicalNumber(raw);
  if (canonical === null) return { ok: false, error: `not a number: "${excerpt(raw.trim())}"` };
  if (canonical === '') return { ok: true, value: null };
  const value = Number(canonical);
  return Number.isFinite(value) ? { ok: true, value } : { ok: false, error: `not a number: "${excerpt(raw.trim())}"` };
}

/** Money in minor units (exact for decimals, through src-shared/money); null for an empty cell. */
export function parseMoney(raw: string): CellValue<Minor> {
  const canonical = canonicalNumber(raw);
  if (canonical === null) return { ok: false, error: `not a number: "${excerpt(raw.trim())}"` };
  if (canonical === '') return { ok: true, value: null };
  if (/e/i.test(canonical)) {
    const units = Number(canonical);
    return Number.isFinite(units) && Math.abs(units) <= MAX_MONEY_UNITS ? { ok: true, value: toMinor(units) } : { ok: false, error: `amount out of range: "${excerpt(raw.trim())}"` };
  }
  const parsed = parseMoneyMinor(canonical);
  return parsed.ok && Math.abs(parsed.minor) <= MAX_MONEY_MINOR ? { ok: true, value: parsed.minor } : { ok: false, error: `amount out of range: "${excerpt(raw.trim())}"` };
}

/** Header names compare trimmed, case-insensitive and with inner runs of blanks collapsed. */
export function normaliseName(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * The columns of a header by name. `aliases` maps a logical name to the spellings brokers have used for it
 * (`price: ['Price ($)', 'Price', 'Price $']`): the first one present wins. Lookups take a logical name or a
 * header name, in any case.
 */
export class Columns {
  private readonly byName = new Map<string, number>();
  /** Lookups by the caller's own spelling (−1: absent): rows of 100k-row files ask for the same few names. */
  private readonly asked = new Map<string, number>();
  private sortedNames: Array<{ name: string; index: number }> | null = null;
  private readonly display = new Map<number, string>();
  /** Header names in file order (for content keys that do not depend on the column order). */
  readonly names: Array<{ name: string; index: number }> = [];

  constructor(cells: readonly string[], offset = 0, aliases: Readonly<Record<string, readonly string[]>> = {}) {
    cells.forEach((cell, index) => {
      if (index < offset) return;
      const name = normaliseName(cell);
      if (name === '') return;
      if (!this.byName.has(name)) this.byName.set(name, index);
      this.display.set(index, cell.trim());
      this.names.push({ name, index });
    });
    for (const [logical, spellings] of Object.entries(aliases)) {
      const found = spellings.map((spelling) => this.byName.get(normaliseName(spelling))).find((at) => at !== undefined);
      if (found !== undefined) this.byName.set(normaliseName(logical), found);
    }
  }

  index(name: string): number | undefined {
    let index = this.asked.get(name);
    if (index === undefined) {
      index = this.byName.get(normaliseName(name)) ?? -1;
      this.asked.set(name, index);
    }
    return index < 0 ? undefined : index;
  }

  has(name: string): boolean {
    return this.index(name) !== undefined;
  }

  /** The header's own spelling of a column (for messages), else the name asked for. */
  label(name: string): string {
    const index = this.index(name);
    return index === undefined ? name : (this.display.get(index) ?? name);
  }

  /** The required names (or alternatives, `['DateTime', 'TradeDate']`) the header lacks. */
  missing(required: ReadonlyArray<string | readonly string[]>): string[] {
    return required
      .filter((entry) => (typeof entry === 'string' ? !this.has(entry) : !entry.some((name) => this.has(name))))
      .map((entry) => (typeof entry === 'string' ? entry : entry.join(' or ')));
  }

  /** The highest column index, + 1. */
  get width(): number {
    return this.names.reduce((max, { index }) => Math.max(max, index + 1), 0);
  }

  /** A row's content keyed by header name, sorted by name: the same whatever order the columns come in. */
  contentKey(record: CsvRecord): string[] {
    this.sortedNames ??= [...this.names].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.index - b.index));
    return this.sortedNames.map(({ name, index }) => `${name}=${(record.cells[index] ?? '').trim()}`);
  }
}

/**
 * Typed access to one record's cells by column name. Each bad cell adds one error to the collector naming the
 * column (and the record's line) and turns `ok` false; callers drop a row that is not ok.
 */
export class RowReader {
  ok = true;

  constructor(
    readonly record: CsvRecord,
    readonly columns: Columns,
    private readonly out: ResultCollector,
  ) {}

  get line(): number {
    return this.record.line;
  }

  has(column: string): boolean {
    return this.columns.has(column);
  }

  /** The trimmed cell, '' when the column is absent or the row short. */
  text(column: string): string {
    const index = this.columns.index(column);
    return index === undefined ? '' : (this.record.cells[index] ?? '').trim();
  }

  /** Like text, with the brokers' placeholders (`--`, `N/A`) read as empty. */
  value(column: string): string {
    const text = this.text(column);
    return isPlaceholder(text) ? '' : text;
  }

  /** A date cell read by `parse` (to YYYY-MM-DD or an instant); null, and an error at the cell, when it cannot be. */
  date(column: string, parse: (text: string) => string | null): string | null {
    const raw = this.text(column);
    const value = parse(raw);
    if (value === null) this.fail(column, `not a date: "${raw}"`);
    return value;
  }

  /** Records a problem with a cell (once per row: the first problem is the one to fix). */
  fail(column: string, message: string): void {
    if (!this.ok) return;
    this.ok = false;
    this.out.error(this.record.line, `column "${this.columns.label(column)}": ${message}`);
  }

  /** Money in minor units; an empty cell is `empty` (0 unless told), or an error when `required`. */
  money(column: string, options: { required?: boolean; empty?: Minor } = {}): Minor {
    const raw = this.text(column);
    // Plain decimals (most cells) need neither the cell grammar nor a result object.
    const plain = plainDecimalMinor(raw);
    return Number.isNaN(plain) ? this.read(parseMoney(raw), column, options, ZERO_MINOR) : plain;
  }

  /** Money, or null when the cell is empty. */
  optionalMoney(column: string): Minor | null {
    const parsed = parseMoney(this.text(column));
    if (!parsed.ok) {
      this.fail(column, parsed.error);
      return null;
    }
    return parsed.value;
  }

  /** A number as written (signed); an empty cell is `empty` (0 unless told), or an error when `required`. */
  number(column: string, options: { required?: boolean; empty?: number } = {}): number {
    const raw = this.text(column);
    if (PLAIN.test(raw)) {
      const value = Number(raw);
      if (Number.isFinite(value)) return value;
    }
    return this.read(parseNumber(raw), column, options, 0);
  }

  private read<T extends number>(parsed: CellValue<T>, column: string, options: { required?: boolean; empty?: T }, zero: T): T {
    if (!parsed.ok) {
      this.fail(column, parsed.error);
      return zero;
    }
    if (parsed.value === null) {
      if (options.required) this.fail(column, 'empty');
      return options.empty ?? zero;
    }
    return parsed.value;
  }
}
