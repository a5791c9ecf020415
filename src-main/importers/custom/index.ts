/**
 * User-defined formats (docs/importers.md, "User-defined formats"): a file no importer recognises is mapped by
 * the user, column by column, to the fields of the neutral transaction; the mapping is saved and becomes one more
 * importer, `custom:<id>`, detected by its header's names (any order) before the built-in brokers. It reads rows
 * through the same table reader, cell grammar and result collector as every importer.
 */
import { TRANSACTION_TYPES, type FormatDateLayout, type FormatZone, type TransactionType } from '../../../src-shared/api/constants';
import type { ImportFormatDraftT, ImportFormatMappingT } from '../../../src-shared/api/schemas';
import type { RawTransaction } from '../../../src-shared/journal/model';
import { NEW_YORK } from '../../../src-shared/zone';
import { fillSign, grossMinor, inferOptionFill, pricePerShareMinor } from '../common/amounts';
import { RowReader, normaliseName } from '../common/cells';
import { checkYmd, clockTo24h, dayToUtc, localToUtc, offsetIsoToUtc } from '../common/dates';
import { contractColumns, occOption, optionFields, rightOf, type OptionFields } from '../common/options';
import { optionFromText, saysOptionEffect } from '../common/option-text';
import { ResultCollector, RowIdentity, accountFor } from '../common/result';
import { nameSet, readTable } from '../common/table';
import type { BrokerImporter, ParseOptions, ParseResult } from '../types';
import { ZERO_MINOR, absMinor, negMinor, addMinor, subMinor, type Minor } from '../../../src-shared/money';

/** The neutral transactions' `source` of every user-defined format (the ids stay stable when a format is re-made). */
export const CUSTOM_SOURCE = 'custom-csv';

/** A saved format as the importer needs it. */
export interface SavedFormat extends ImportFormatDraftT {
  id: string;
}

/** The header's names as one key (normalised, sorted): two formats may not share it, a file's header is matched on it. */
export function headerKey(header: readonly string[]): string {
  return namesKey(nameSet(header));
}

function namesKey(names: Set<string>): string {
  return [...names].sort().join('\u001f');
}

/** Every column the mapping names, with the field (`mapping.date.column`) that names it. */
export function mappedColumns(mapping: ImportFormatMappingT): Array<{ param: string; column: string }> {
  const list: Array<{ param: string; column: string | undefined }> = [
    { param: 'mapping.date.column', column: mapping.date.column },
    { param: 'mapping.date.time', column: mapping.date.time },
    { param: 'mapping.type.column', column: mapping.type.column },
    { param: 'mapping.symbol', column: mapping.symbol },
    { param: 'mapping.option.text', column: mapping.option?.text },
    { param: 'mapping.option.root', column: mapping.option?.root },
    { param: 'mapping.option.expiration', column: mapping.option?.expiration },
    { param: 'mapping.option.strike', column: mapping.option?.strike },
    { param: 'mapping.option.right', column: mapping.option?.right },
    { param: 'mapping.quantity', column: mapping.quantity },
    { param: 'mapping.price', column: mapping.price },
    { param: 'mapping.multiplier', column: mapping.multiplier },
    { param: 'mapping.commission', column: mapping.commission },
    { param: 'mapping.fees', column: mapping.fees },
    { param: 'mapping.amount.column', column: mapping.amount.column },
    { param: 'mapping.account', column: mapping.account },
    { param: 'mapping.currency', column: mapping.currency },
    { param: 'mapping.description', column: mapping.description },
    { param: 'mapping.orderId', column: mapping.orderId },
    { param: 'mapping.rowId', column: mapping.rowId },
  ];
  return list.filter((entry): entry is { param: string; column: string } => entry.column !== undefined);
}

/**
 * What the schema cannot say about a format: every mapped column is in its header, the header names are there
 * and distinct, words are not given twice, and the fields that depend on each other are given together. Each
 * problem names its field.
 */
export function formatProblems(draft: ImportFormatDraftT): Array<{ param: string; message: string }> {
  const problems: Array<{ param: string; message: string }> = [];
  const names = draft.header.map(normaliseName).filter((name) => name !== '');
  if (names.length < 2) problems.push({ param: 'header', message: 'needs at least two named columns' });
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) problems.push({ param: 'header', message: `names the column "${name}" twice` });
    seen.add(name);
  }
  for (const { param, column } of mappedColumns(draft.mapping)) {
    if (!seen.has(normaliseName(column))) problems.push({ param, message: `"${column}" is not a column of the header` });
  }
  const words = new Set<string>();
  draft.mapping.type.words.forEach(({ word }, index) => {
    const key = normaliseName(word);
    if (key === '') problems.push({ param: `mapping.type.words.${index}.word`, message: 'is blank' });
    else if (words.has(key)) problems.push({ param: `mapping.type.words.${index}.word`, message: `"${word}" is given twice` });
    words.add(key);
  });
  const { mapping } = draft;
  if (mapping.amount.column === undefined && mapping.price === undefined) {
    problems.push({ param: 'mapping.amount.column', message: 'needs a column, or a price column to compute it from (price × quantity × multiplier)' });
  }
  const parts = mapping.option === undefined ? [] : (['expiration', 'strike', 'right'] as const).filter((part) => mapping.option?.[part] !== undefined);
  if (parts.length > 0 && parts.length < 3) {
    const lacking = (['expiration', 'strike', 'right'] as const).filter((part) => !parts.includes(part));
    problems.push({ param: `mapping.option.${lacking[0] ?? 'expiration'}`, message: `an option by its parts needs expiration, strike and right (${lacking.join(', ')} missing)` });
  }
  if (parts.length === 3 && mapping.option?.root === undefined && mapping.symbol === undefined) {
    problems.push({ param: 'mapping.option.root', message: 'an option by its parts needs its root (or the symbol column)' });
  }
  return problems;
}

const DATE_PART: Record<FormatDateLayout, RegExp> = {
  'YYYY-MM-DD': /^(\d{4})-(\d{1,2})-(\d{1,2})/,
  'MM/DD/YYYY': /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})(?!\d)/,
  'DD/MM/YYYY': /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})(?!\d)/,
};

/** The calendar date at the start of a cell written in `layout`, and what follows it. */
function datePart(text: string, layout: FormatDateLayout): { ymd: string; rest: string } | null {
  const match = DATE_PART[layout].exec(text);
  if (!match) return null;
  const [whole, a = '', b = '', c = ''] = match;
  const [year, month, day] = layout === 'YYYY-MM-DD' ? [a, b, c] : layout === 'MM/DD/YYYY' ? [c, a, b] : [c, b, a];
  const ymd = checkYmd(`${year.length === 2 ? `20${year}` : year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`);
  return ymd === null ? null : { ymd, rest: text.slice(whole.length) };
}

/**
 * A time, its meridiem and its offset after a date (the text is trimmed). Each run of blanks belongs to the part that
 * follows it, so there is one way to read a text: with `\s*(AM)?\s*(Z)?$` two optional parts shared their blanks,
 * and a time followed by 64,000 spaces and a letter took 13–21 s (docs/importers.md §Linear time).
 */
const TIME_AND_OFFSET = /^[T\s,]*(\d{1,2}:\d{2}(?::\d{2})?)(?:\.\d+)?(?:\s*([ap]\.?m\.?))?(?:\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2}))?$/i;

/**
 * A date cell (and the time column's cell) to a UTC instant: a bare date is 16:00 New York (docs/importers.md,
 * "Dates"); a time with an offset is that instant; a time without one is read in the format's zone.
 */
export function formatInstant(cell: string, timeCell: string | null, layout: FormatDateLayout, zone: FormatZone): string | null {
  // ISO 8601 instants (most exports by programs) need no pattern: read at once (parseInstantMs checks every field).
  if (layout === 'YYYY-MM-DD' && timeCell === null && cell.charCodeAt(10) === 84 /* T */) {
    const iso = offsetIsoToUtc(cell);
    if (iso !== null) return iso;
  }
  const date = datePart(cell.trim(), layout);
  if (date === null) return null;
  const rest = [date.rest.trim(), (timeCell ?? '').trim()].filter((part) => part !== '').join(' ');
  if (rest === '') return dayToUtc(date.ymd);
  const match = TIME_AND_OFFSET.exec(rest);
  if (!match) return null;
  const time = clockTo24h(`${match[1] ?? ''}${match[2] === undefined ? '' : ` ${match[2]}`}`);
  if (time === null) return null;
  const offset = match[3]?.toUpperCase();
  if (offset === undefined) return localToUtc(date.ymd, time, zone === 'utc' ? 'UTC' : NEW_YORK);
  const iso = offset === 'Z' || offset === 'UTC' || offset === 'GMT' ? 'Z' : offset.includes(':') ? offset : `${offset.slice(0, 3)}:${offset.slice(3)}`;
  return offsetIsoToUtc(`${date.ymd}T${time}${iso}`);
}

const LAYOUT_HINT: Record<FormatDateLayout, string> = { 'YYYY-MM-DD': '2024-03-15', 'MM/DD/YYYY': '03/15/2024', 'DD/MM/YYYY': '15/03/2024' };

const BUYS = new Set<TransactionType>(['BUY', 'BUY_TO_OPEN', 'BUY_TO_CLOSE', 'BUY_TO_COVER']);
const SELLS = new Set<TransactionType>(['SELL', 'SELL_TO_OPEN', 'SELL_TO_CLOSE', 'SELL_SHORT']);
const OPTION_FILLS: Partial<Record<TransactionType, TransactionType>> = { BUY_TO_OPEN: 'BUY', BUY_TO_CLOSE: 'BUY', SELL_TO_OPEN: 'SELL', SELL_TO_CLOSE: 'SELL' };
/** A short sale or cover written on an option row opens or closes the option. */
const SHORT_ON_OPTION: Partial<Record<TransactionType, TransactionType>> = { SELL_SHORT: 'SELL_TO_OPEN', BUY_TO_COVER: 'BUY_TO_CLOSE' };

/** The parser of one saved format. */
class FormatReader {
  private readonly words = new Map<string, TransactionType>();
  private readonly identity = new RowIdentity();
  /** Running option positions, for option rows whose type says only buy or sell. */
  private readonly positions = new Map<string, number>();
  private inferredOpenClose = false;
  /** Rows whose action opens or closes an option while no option was found on them (read as shares: a lie to flag). */
  readonly optionWordsWithoutOption: number[] = [];

  constructor(
    private readonly format: SavedFormat,
    private readonly accountName: string,
    private readonly out: ResultCollector,
  ) {
    for (const { word, type } of format.mapping.type.words) this.words.set(normaliseName(word), type);
  }

  private get mapping(): ImportFormatMappingT {
    return this.format.mapping;
  }

  private typeOf(reader: RowReader): TransactionType | null {
    const column = this.mapping.type.column;
    const cell = reader.text(column);
    const word = this.words.get(normaliseName(cell));
    if (word !== undefined) return word;
    const named = cell.trim().toUpperCase().replace(/[\s-]+/g, '_');
    if ((TRANSACTION_TYPES as readonly string[]).includes(named)) return named as TransactionType;
    reader.fail(column, cell === '' ? 'empty: every row needs a type' : `"${cell}" is not one of the format's words: map it to a transaction type`);
    return null;
  }

  private dateOf(reader: RowReader): string | null {
    const { column, time, layout, zone } = this.mapping.date;
    const iso = formatInstant(reader.text(column), time === undefined ? null : reader.text(time), layout, zone);
    if (iso === null) reader.fail(column, `not a date written ${layout} (${LAYOUT_HINT[layout]}, a time may follow): "${reader.text(column)}${time === undefined ? '' : ` ${reader.text(time)}`}"`);
    return iso;
  }

  private optionOf(reader: RowReader): OptionFields | null {
    const option = this.mapping.option;
    if (option?.text !== undefined && reader.text(option.text) !== '') {
      const parsed = occOption(reader.text(option.text)) ?? optionFromText(reader.text(option.text));
      if (parsed === null) reader.fail(option.text, `not an option (an OCC symbol SPY250117P00450000, or written out: DEF 08/21/2026 100.00 C, SPY Sep 23 2022 371 Call): "${reader.text(option.text)}"`);
      return parsed;
    }
    if (option?.expiration !== undefined && option.strike !== undefined && option.right !== undefined) {
      const cells = [option.expiration, option.strike, option.right].map((column) => reader.value(column));
      if (cells.some((cell) => cell !== '')) {
        const expiration = datePart(reader.text(option.expiration), this.mapping.date.layout)?.ymd ?? checkYmd(reader.text(option.expiration));
        if (expiration === null) {
          reader.fail(option.expiration, `not a date written ${this.mapping.date.layout}: "${reader.text(option.expiration)}"`);
          return null;
        }
        const strike = reader.number(option.strike, { required: true });
        const right = rightOf(reader.text(option.right));
        if (right === null) {
          reader.fail(option.right, `expected C, P, Call or Put: "${reader.text(option.right)}"`);
          return null;
        }
        const root = option.root !== undefined && reader.text(option.root) !== '' ? reader.text(option.root) : this.mapping.symbol === undefined ? '' : reader.text(this.mapping.symbol);
        const parsed = optionFields(root, expiration, right, strike);
        if (parsed === null && reader.ok) reader.fail(option.root ?? this.mapping.symbol ?? option.strike, 'an option needs its root and a positive strike');
        return parsed;
      }
    }
    // The symbol column may hold the contract (OCC or written out: `Sell to Open DEF 08/21/2026 100.00 C`), and so
    // may the description: a row read as shares there would be an option stored as a stock named by the text.
    const symbol = this.mapping.symbol === undefined ? '' : reader.text(this.mapping.symbol);
    const fromSymbol = symbol === '' ? null : (occOption(symbol) ?? optionFromText(symbol));
    if (fromSymbol !== null || this.mapping.description === undefined) return fromSymbol;
    return optionFromText(reader.text(this.mapping.description));
  }

  private unsignedMoney(reader: RowReader, column: string | undefined): Minor {
    return column === undefined ? ZERO_MINOR : absMinor(reader.money(column));
  }

  read(reader: RowReader): RawTransaction | null {
    const mapping = this.mapping;
    const tradeDate = this.dateOf(reader);
    let type = this.typeOf(reader);
    const option = this.optionOf(reader);
    const signedQuantity = reader.number(mapping.quantity);
    const quantity = type === 'SPLIT' ? signedQuantity : Math.abs(signedQuantity);
    let multiplier = option === null ? 1 : 100;
    if (mapping.multiplier !== undefined && reader.value(mapping.multiplier) !== '') {
      multiplier = reader.number(mapping.multiplier);
      if (!(multiplier > 0)) reader.fail(mapping.multiplier, `must be positive: "${reader.text(mapping.multiplier)}"`);
    }
    const commissionMinor = this.unsignedMoney(reader, mapping.commission);
    const feesMinor = this.unsignedMoney(reader, mapping.fees);
    let priceMinor = this.unsignedMoney(reader, mapping.price);
    const currency = (mapping.currency === undefined ? '' : reader.text(mapping.currency).toUpperCase()) || 'USD';
    if (mapping.currency !== undefined && !/^[A-Z]{3}$/.test(currency)) reader.fail(mapping.currency, `expected a 3-letter ISO code: "${reader.text(mapping.currency)}"`);
    if (type !== null && fillSign(type) !== 0 && quantity === 0) reader.fail(mapping.quantity, `empty: a ${type} needs its quantity`);
    if (!reader.ok || tradeDate === null || type === null) return null;
    if (option === null && (OPTION_FILLS[type] !== undefined || saysOptionEffect(reader.text(mapping.type.column)))) this.optionWordsWithoutOption.push(reader.line);

    // An option type on a stock row is the stock trade; buy or sell on an option row is opening or closing by the
    // running position (one warning for the file).
    if (option === null && OPTION_FILLS[type] !== undefined) type = OPTION_FILLS[type] ?? type;
    if (option !== null) type = SHORT_ON_OPTION[type] ?? type;
    if (option !== null && (type === 'BUY' || type === 'SELL')) {
      type = inferOptionFill(this.positions, option.symbol, type === 'BUY' ? quantity : -quantity);
      if (!this.inferredOpenClose) this.out.warn(reader.line, 'options traded as "buy" or "sell" are opening or closing by the running position, in file order: map the open/close words to their types to say which');
      this.inferredOpenClose = true;
    } else if (option !== null && fillSign(type) !== 0) {
      this.positions.set(option.symbol, (this.positions.get(option.symbol) ?? 0) + fillSign(type) * quantity);
    }

    const amountMinor = this.amountOf(reader, type, priceMinor, quantity, multiplier, commissionMinor, feesMinor);
    if (amountMinor === null) return null;
    if (mapping.price === undefined && fillSign(type) !== 0) {
      // The price is the gross: what the net amount is before commission and fees.
      const gross = SELLS.has(type) ? addMinor(amountMinor, commissionMinor, feesMinor) : subMinor(subMinor(negMinor(amountMinor), commissionMinor), feesMinor);
      priceMinor = pricePerShareMinor(gross, quantity, multiplier);
    }
    const symbolText = mapping.symbol === undefined ? '' : reader.text(mapping.symbol);
    const fileAccount = mapping.account === undefined ? null : reader.text(mapping.account);
    return {
      accountName: accountFor(fileAccount, { accountName: this.accountName }, this.format.name),
      brokerRowId: this.rowId(reader),
      type,
      tradeDate,
      source: CUSTOM_SOURCE,
      symbol: option === null ? symbolText : option.symbol,
      underlying: option === null ? symbolText : option.underlying,
      ...contractColumns(option),
      // The fill, in the order of the neutral model (docs/journal.md §The neutral transaction).
      quantity, priceMinor, multiplier, amountMinor, commissionMinor, feesMinor,
      currency,
      orderId: (mapping.orderId === undefined ? '' : reader.value(mapping.orderId)) || null,
      description: mapping.description === undefined ? '' : reader.text(mapping.description),
    };
  }

  /** The row's own id when the format maps one (made unique within the file), else its content keyed by column name. */
  private rowId(reader: RowReader): string {
    const own = this.mapping.rowId === undefined ? '' : reader.value(this.mapping.rowId);
    return own !== '' ? `id:${this.identity.own(own)}` : this.identity.next(reader.columns.contentKey(reader.record));
  }

  /** The net cash: the amount column (signed as written, or by the type), else computed from the price. */
  private amountOf(reader: RowReader, type: TransactionType, priceMinor: Minor, quantity: number, multiplier: number, commissionMinor: Minor, feesMinor: Minor): Minor | null {
    const { column, sign } = this.mapping.amount;
    const written = column !== undefined && reader.value(column) !== '';
    if (written) {
      const minor = reader.money(column);
      if (!reader.ok) return null;
      if (sign === 'by-type' && BUYS.has(type)) return negMinor(absMinor(minor));
      if (sign === 'by-type' && SELLS.has(type)) return absMinor(minor);
      return minor;
    }
    if (this.mapping.price === undefined || fillSign(type) === 0) {
      // A trade needs its cash; other rows without an amount moved none.
      if (fillSign(type) !== 0) {
        reader.fail(column ?? this.mapping.quantity, 'empty: a trade needs its amount (or map the price to compute it)');
        return null;
      }
      return ZERO_MINOR;
    }
    const gross = grossMinor(priceMinor, quantity, multiplier);
    return subMinor(subMinor(SELLS.has(type) ? gross : negMinor(gross), commissionMinor), feesMinor);
  }
}

/** A format's parse, and how many rows say an option opens or closes while the format found no option on them. */
export interface FormatParseResult extends ParseResult {
  optionActionsWithoutOption: number;
}

/** Parses a file with a saved (or previewed) format. */
export function parseWithFormat(format: SavedFormat, text: string, options: ParseOptions): FormatParseResult {
  const out = new ResultCollector(`custom:${format.id}`, CUSTOM_SOURCE, 'by-dates');
  // Unknown brokers, either way: the file's own dates say which.
  const key = headerKey(format.header);
  const table = readTable(out, text, {
    isHeader: (names) => namesKey(names) === key,
    required: mappedColumns(format.mapping).map(({ column }) => column),
    what: `a file of the format "${format.name}"`,
    headerHint: format.header.filter((cell) => cell.trim() !== '').join(','),
  });
  if (table === null) return { ...out.result(), optionActionsWithoutOption: 0 };
  const reader = new FormatReader(format, options.accountName ?? '', out);
  for (const record of table.rows) {
    const row = new RowReader(record, table.columns, out);
    const tx = reader.read(row);
    if (tx !== null && row.ok) out.add(record.line, tx);
  }
  const flagged = reader.optionWordsWithoutOption;
  if (flagged.length > 0) {
    const column = format.mapping.type.column;
    out.warn(
      flagged[0] ?? null,
      `${flagged.length === 1 ? '1 row says' : `${flagged.length} rows say`} in "${column}" that an option opens or closes, but the format finds no option on ${flagged.length === 1 ? 'it' : 'them'}: ${flagged.length === 1 ? 'it' : 'they'} would be stored as shares. Map the option: an OCC symbol column, its parts, or a column that writes it out (DEF 08/21/2026 100.00 C)`,
    );
  }
  // With errors the file is refused whole (parseImport's caller); the rows read well stay for the preview.
  return { ...out.result(), optionActionsWithoutOption: flagged.length };
}

/** A saved format as one more importer of the registry (`custom:<id>`): detected by its header's names. */
export function customImporter(format: SavedFormat): BrokerImporter {
  const key = headerKey(format.header);
  return {
    id: `custom:${format.id}`,
    label: format.name,
    formats: `your mapping of ${format.header.filter((cell) => cell.trim() !== '').length} columns`,
    detect: (head) => head.records.some((record) => namesKey(nameSet(record.cells)) === key),
    parse: (text, options) => parseWithFormat(format, text, options),
  };
}
