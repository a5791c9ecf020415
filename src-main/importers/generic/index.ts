/**
 * The documented neutral CSV (docs/importers.md, "Generic CSV"): one row per transaction, columns named
 * after the model. Validation is strict: every problem is an error naming the line and the column, and
 * nothing is guessed.
 */
import type { RawTransaction, OptionRight, TransactionType } from '../../../src-shared/journal/model';
import { TRANSACTION_TYPES, occSymbol } from '../../../src-shared/journal/model';
import { readOccSymbol } from '../common/options';
import { plainNumber, parseMoney, parseNumber, type Columns } from '../common/cells';
import { checkYmd, dayToUtc, offsetIsoToUtc } from '../common/dates';
import { ResultCollector, RowIdentity, accountFor } from '../common/result';
import { headerNear, scanTable } from '../common/table';
import type { BrokerImporter, ParseOptions, ParseResult } from '../types';
import { BROKER_LABELS } from '../../../src-shared/api/constants';
import { ZERO_MINOR, plainDecimalMinor, type Minor } from '../../../src-shared/money';

export const SOURCE = 'generic-csv';

export const REQUIRED_COLUMNS = ['date', 'type', 'symbol', 'quantity', 'price', 'amount'] as const;
export const OPTIONAL_COLUMNS = [
  'account', 'commission', 'fees', 'currency', 'orderId', 'description',
  'expiration', 'strike', 'right', 'multiplier', 'id', 'underlying', 'previousSymbol',
] as const;
const KNOWN = new Set<string>([...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS].map((name) => name.toLowerCase()));
/**
 * The documented example's column order. A row without an `id` is identified by its cells in this order: a file
 * written in it keeps the ids Strikebook 0.1 gave (it hashed the cells in file order), so re-importing it after
 * an upgrade adds nothing twice, and the same file with its columns shuffled gets the same ids.
 */
const IDENTITY_ORDER = [
  'date', 'account', 'type', 'symbol', 'quantity', 'price', 'commission', 'fees', 'amount', 'currency', 'orderId',
  'description', 'expiration', 'strike', 'right', 'multiplier', 'id', 'underlying', 'previousSymbol',
] as const;

const OPTION_ONLY: ReadonlySet<TransactionType> = new Set<TransactionType>([
  'BUY_TO_OPEN', 'SELL_TO_OPEN', 'BUY_TO_CLOSE', 'SELL_TO_CLOSE', 'ASSIGNMENT', 'EXERCISE', 'EXPIRATION',
]);
/** Share fills: a stock short sale and its cover say so (SELL_SHORT, BUY_TO_COVER); a plain SELL never opens a short. */
const SHARES_ONLY: ReadonlySet<TransactionType> = new Set<TransactionType>(['BUY', 'SELL', 'SELL_SHORT', 'BUY_TO_COVER']);
const NEEDS_SYMBOL: ReadonlySet<TransactionType> = new Set<TransactionType>([
  ...OPTION_ONLY, ...SHARES_ONLY, 'DIVIDEND', 'SPLIT', 'SYMBOL_CHANGE',
]);
/** The sign the cash must have: buys pay, sells and deposits receive. */
const PAYS: ReadonlySet<TransactionType> = new Set<TransactionType>(['BUY', 'BUY_TO_OPEN', 'BUY_TO_CLOSE', 'BUY_TO_COVER', 'WITHDRAWAL']);
const RECEIVES: ReadonlySet<TransactionType> = new Set<TransactionType>(['SELL', 'SELL_TO_OPEN', 'SELL_TO_CLOSE', 'SELL_SHORT', 'DEPOSIT']);

/** The types by their text: one lookup per row of 100k-row files, and the constant's own string kept (not the cell's). */
const TYPES: ReadonlyMap<string, TransactionType> = new Map(TRANSACTION_TYPES.map((type) => [type, type]));

/**
 * Strings a file repeats (accounts, underlyings, currencies, descriptions, symbols) are kept once per file: the rows'
 * transactions are held until the import is stored, and in the journal worker's small young generation every copy
 * kept is copied again by each scavenge until it is promoted. Bounded: a file of distinct strings stops adding.
 */
const MAX_SHARED_STRINGS = 20_000;
const MAX_SHARED_LENGTH = 64;

/** A symbol as read once per file: its OCC option, if it is one, and the symbol the transaction carries. */
interface SymbolReading {
  /** The upper-cased cell, as first met. */
  text: string;
  occ: { root: string; expiration: string; strike: number; right: OptionRight } | null;
  /** The canonical OCC symbol of an option (a padded one rebuilt), else the text itself. */
  symbol: string;
}

/** A header of this format: every required column, and no column it does not know (a typo is an error). */
function isGenericHeader(names: Set<string>): boolean {
  return REQUIRED_COLUMNS.every((name) => names.has(name.toLowerCase()));
}

type Field = (typeof REQUIRED_COLUMNS)[number] | (typeof OPTIONAL_COLUMNS)[number];
const FIELDS: readonly Field[] = [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS];

/**
 * One row of the generic fields: each cell trimmed once into a field of its own ('' when the column is absent or the
 * row short), read by the column index found once per file, and the row's first problem reported at its line naming
 * the header's spelling of the column. One object serves every row of a file (`load`): a RowReader per row looked each
 * name up and trimmed the cell again on every one of ~30 reads, most of the import's parse (issue 32).
 */
/** The trimmed cell at `index`, '' when the column is absent (-1, undefined) or the row short (`count` cells). */
function cellAt(cells: readonly string[], index: number | undefined, count: number): string {
  return index === undefined || index < 0 || index >= count ? '' : (cells[index] ?? '').trim();
}

export class GenericRow {
  line = 0;
  ok = true;
  date = '';
  type = '';
  symbol = '';
  quantity = '';
  price = '';
  amount = '';
  account = '';
  commission = '';
  fees = '';
  currency = '';
  orderId = '';
  description = '';
  expiration = '';
  strike = '';
  right = '';
  multiplier = '';
  id = '';
  underlying = '';
  previousSymbol = '';
  /** Column indexes of the fields in FIELDS' order, -1 when the header lacks the column. */
  private readonly at: Int32Array;
  private readonly labels: Map<Field, string>;
  /** The fields the header has, in IDENTITY_ORDER (a row without an id is identified by their cells). */
  readonly identityFields: readonly Field[];
  private readonly shared = new Map<string, string>();
  private readonly symbols = new Map<string, SymbolReading>();
  /** The last currency that passed its check (a file has one or two). */
  checkedCurrency = '';

  constructor(
    columns: Columns,
    private readonly out: ResultCollector,
  ) {
    this.at = Int32Array.from(FIELDS, (field) => columns.index(field) ?? -1);
    this.labels = new Map(FIELDS.map((field) => [field, columns.label(field)]));
    this.identityFields = IDENTITY_ORDER.filter((field) => columns.has(field));
  }

  /** Reads the record's cells (the first `count` of `cells`) into the fields; the row is ok until a cell fails. */
  load(cells: readonly string[], line: number, count = cells.length): void {
    const at = this.at;
    // No closure here: a function made per row is garbage per row (and tsx names each one as it is made).
    this.line = line;
    this.ok = true;
    this.date = cellAt(cells, at[0], count);
    this.type = cellAt(cells, at[1], count);
    this.symbol = cellAt(cells, at[2], count);
    this.quantity = cellAt(cells, at[3], count);
    this.price = cellAt(cells, at[4], count);
    this.amount = cellAt(cells, at[5], count);
    this.account = cellAt(cells, at[6], count);
    this.commission = cellAt(cells, at[7], count);
    this.fees = cellAt(cells, at[8], count);
    this.currency = cellAt(cells, at[9], count);
    this.orderId = cellAt(cells, at[10], count);
    this.description = cellAt(cells, at[11], count);
    this.expiration = cellAt(cells, at[12], count);
    this.strike = cellAt(cells, at[13], count);
    this.right = cellAt(cells, at[14], count);
    this.multiplier = cellAt(cells, at[15], count);
    this.id = cellAt(cells, at[16], count);
    this.underlying = cellAt(cells, at[17], count);
    this.previousSymbol = cellAt(cells, at[18], count);
  }

  /** `text`, or the same text met before in this file (MAX_SHARED_STRINGS). */
  share(text: string): string {
    if (text.length > MAX_SHARED_LENGTH) return text;
    const known = this.shared.get(text);
    if (known !== undefined) return known;
    if (this.shared.size < MAX_SHARED_STRINGS) this.shared.set(text, text);
    return text;
  }

  /** The symbol (upper-cased) read as an OCC option or not, once per distinct symbol of the file. */
  readSymbol(text: string): SymbolReading {
    const known = this.symbols.get(text);
    if (known !== undefined) return known;
    const occ = readOccSymbol(text);
    // An unpadded OCC symbol is already the canonical one (rebuilding it gives the same text).
    const reading = { text, occ, symbol: occ === null || !/\s/.test(text) ? text : occSymbol(occ.root, occ.expiration, occ.right, occ.strike) };
    // Bounded like share(): a file of long or distinct cells keeps nothing more.
    if (text.length <= MAX_SHARED_LENGTH && this.symbols.size < MAX_SHARED_STRINGS) this.symbols.set(text, reading);
    return reading;
  }

  /** Records a problem with a cell (once per row: the first problem is the one to fix), as RowReader.fail does. */
  fail(field: Field, message: string): void {
    if (!this.ok) return;
    this.ok = false;
    this.out.error(this.line, `column "${this.labels.get(field) ?? field}": ${message}`);
  }

  /** A number as written (signed); an empty cell is 0, or an error when `required` (RowReader.number's grammar). */
  number(field: Field, raw: string, required = false): number {
    const plain = plainNumber(raw);
    if (!Number.isNaN(plain)) return plain;
    const parsed = parseNumber(raw);
    if (!parsed.ok) {
      this.fail(field, parsed.error);
      return 0;
    }
    if (parsed.value === null) {
      if (required) this.fail(field, 'empty');
      return 0;
    }
    return parsed.value;
  }

  /** Money in minor units; an empty cell is 0 (RowReader.money's grammar). */
  money(field: Field, raw: string): Minor {
    const plain = plainDecimalMinor(raw);
    if (!Number.isNaN(plain)) return plain;
    const parsed = parseMoney(raw);
    if (!parsed.ok) {
      this.fail(field, parsed.error);
      return ZERO_MINOR;
    }
    return parsed.value ?? ZERO_MINOR;
  }

  /** Money that must not be negative. */
  unsignedMoney(field: Field, raw: string): Minor {
    const minor = this.money(field, raw);
    if (minor < 0) this.fail(field, `must not be negative: "${raw}"`);
    return minor;
  }
}

function readDate(row: GenericRow): string | null {
  const raw = row.date;
  const day = checkYmd(raw);
  const iso = day !== null ? dayToUtc(day) : offsetIsoToUtc(raw);
  if (iso === null) {
    row.fail('date', `expected YYYY-MM-DD or an ISO 8601 date-time with offset (2024-03-15T14:30:00Z, 2024-03-15T10:30:00-04:00): "${raw}"`);
  }
  return iso;
}

function readRight(row: GenericRow): OptionRight | null {
  const raw = row.right.toUpperCase();
  if (raw === 'C' || raw === 'CALL') return 'C';
  if (raw === 'P' || raw === 'PUT') return 'P';
  row.fail('right', `expected C, P, CALL or PUT: "${row.right}"`);
  return null;
}

/** The first of the option's own cells that is filled, when some but not all are. */
function firstOptionCell(row: GenericRow): Field | null {
  const filled = (row.expiration !== '' ? 1 : 0) + (row.strike !== '' ? 1 : 0) + (row.right !== '' ? 1 : 0);
  if (filled === 0 || filled === 3) return null;
  return row.expiration !== '' ? 'expiration' : row.strike !== '' ? 'strike' : 'right';
}

/** One row of the generic fields (also the rules of manual entries, services/manual-entries.ts: one grammar for both). */
export function readRow(row: GenericRow, accountName: string, identity: RowIdentity): RawTransaction | null {
  const tradeDate = readDate(row);
  const typeText = row.type.toUpperCase();
  const type = TYPES.get(typeText) ?? null;
  if (type === null) row.fail('type', `"${row.type}" is not one of ${TRANSACTION_TYPES.join(', ')}`);
  const reading = row.readSymbol(row.symbol.toUpperCase());
  const symbolText = reading.text;
  const quantity = row.number('quantity', row.quantity, true);
  const priceMinor = row.unsignedMoney('price', row.price);
  const amountMinor = row.money('amount', row.amount);
  if (row.amount === '') row.fail('amount', 'required (0 when no cash moved)');
  const commissionMinor = row.unsignedMoney('commission', row.commission);
  const feesMinor = row.unsignedMoney('fees', row.fees);
  const currency = row.share(row.currency.toUpperCase() || 'USD');
  if (currency !== row.checkedCurrency) {
    if (/^[A-Z]{3}$/.test(currency)) row.checkedCurrency = currency;
    else row.fail('currency', `expected a 3-letter ISO code: "${row.currency}"`);
  }

  // An option is named by its OCC symbol, or by symbol = root plus expiration, strike and right.
  const occ = reading.occ;
  let option: { root: string; expiration: string; strike: number; right: OptionRight } | null = occ;
  if (option === null && (row.expiration !== '' || row.strike !== '' || row.right !== '')) {
    const partial = firstOptionCell(row);
    if (partial !== null) {
      row.fail(partial, 'an option needs all of expiration, strike and right');
    } else {
      const expiration = checkYmd(row.expiration);
      if (expiration === null) row.fail('expiration', `expected YYYY-MM-DD: "${row.expiration}"`);
      const strikeText = row.strike;
      const strike = row.number('strike', strikeText);
      if (!(strike > 0)) row.fail('strike', `expected a positive number: "${strikeText}"`);
      const right = readRight(row);
      if (expiration !== null && right !== null && strike > 0) option = { root: symbolText, expiration, strike, right };
    }
  }
  let multiplier = option ? 100 : 1;
  if (row.multiplier !== '') {
    multiplier = row.number('multiplier', row.multiplier);
    if (!(multiplier > 0)) row.fail('multiplier', `must be positive: "${row.multiplier}"`);
  }
  if (type !== null) {
    if (NEEDS_SYMBOL.has(type) && symbolText === '') row.fail('symbol', `required for ${type}`);
    if (OPTION_ONLY.has(type) && option === null && symbolText !== '') {
      row.fail('symbol', `${type} needs an option: an OCC symbol (SPY250117P00450000) or expiration, strike and right`);
    }
    if (SHARES_ONLY.has(type) && option !== null) {
      row.fail('type', `${type} is for shares; options use BUY_TO_OPEN, SELL_TO_OPEN, BUY_TO_CLOSE or SELL_TO_CLOSE`);
    }
    if (type !== 'SPLIT' && quantity < 0) row.fail('quantity', `must not be negative for ${type} (only SPLIT is signed): "${row.quantity}"`);
    if (PAYS.has(type) && amountMinor > 0) row.fail('amount', `${type} pays cash: the amount must be ≤ 0, got "${row.amount}"`);
    // The amount is net: closing a $0.01 option can receive less than its commission, so check the gross.
    if (RECEIVES.has(type) && amountMinor + commissionMinor + feesMinor < 0) {
      row.fail('amount', `${type} receives cash: amount + commission + fees must be ≥ 0, got "${row.amount}"`);
    }
    if (type === 'SYMBOL_CHANGE' && row.previousSymbol === '') row.fail('previousSymbol', 'required for SYMBOL_CHANGE');
  }
  if (!row.ok || tradeDate === null || type === null) return null;
  const id = row.id;
  // Every field is given: written out rather than through transaction()'s defaults (a spread per row of 100k).
  const tx: RawTransaction = {
    accountName: row.account === '' ? accountName : row.share(row.account),
    brokerRowId: id !== '' ? `id:${id}` : identity.next(row.identityFields.map((field) => row[field])),
    type,
    tradeDate,
    source: SOURCE,
    // An unpadded OCC symbol is already the canonical one (rebuilding it gives the same text).
    symbol: option === null ? symbolText : option === occ ? reading.symbol : occSymbol(option.root, option.expiration, option.right, option.strike),
    underlying: row.underlying === '' ? (option ? option.root : symbolText) : row.share(row.underlying.toUpperCase()),
    // The contract's columns written out (contractColumns would spread a new object per row).
    isOption: option !== null,
    expiration: option === null ? null : option.expiration,
    strike: option === null ? null : option.strike,
    right: option === null ? null : option.right,
    quantity,
    priceMinor,
    multiplier,
    amountMinor,
    commissionMinor,
    feesMinor,
    currency,
    orderId: row.orderId || null,
    description: row.share(row.description),
    // Numbered with the file's other rows (ResultCollector.result): a field of the literal, not one added to 100k objects then.
    sequence: undefined,
  };
  const previous = row.previousSymbol.toUpperCase();
  if (previous !== '') tx.previousSymbol = previous;
  return tx;
}

export function parseGeneric(text: string, options: ParseOptions): ParseResult {
  const out = new ResultCollector('generic', SOURCE, 'by-dates');
  // Written by people and programs, either way: the file's own dates say which.
  const table = scanTable(out, text, {
    // Most of the required names make the header (the rest are reported missing).
    isHeader: (names) => REQUIRED_COLUMNS.filter((name) => names.has(name)).length >= 4,
    required: REQUIRED_COLUMNS,
    what: 'a Strikebook generic CSV',
    headerHint: `${REQUIRED_COLUMNS.join(',')},...`,
  });
  if (table === null) return out.result();
  const unknown = table.header.cells.map((cell) => cell.trim()).filter((name) => name !== '' && !KNOWN.has(name.toLowerCase()));
  if (unknown.length > 0) {
    out.error(table.header.line, `unknown columns: ${unknown.join(', ')} (allowed: ${[...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS].join(', ')})`);
    return out.result();
  }
  const identity = new RowIdentity();
  const ids = new Map<string, number>();
  const accountName = accountFor(null, options, 'Generic');
  const row = new GenericRow(table.columns, out);
  const rows = table.rows;
  while (rows.next()) {
    const line = rows.line;
    row.load(rows.cells, line, rows.count);
    const id = row.id;
    if (id !== '') {
      const seenAt = ids.get(id);
      if (seenAt !== undefined) row.fail('id', `"${id}" already used on line ${seenAt}`);
      ids.set(id, line);
    }
    const tx = readRow(row, accountName, identity);
    if (tx && row.ok) out.add(line, tx);
  }
  const result = out.result();
  return result.errors.length > 0 ? { ...result, transactions: [] } : result;
}

export const genericImporter: BrokerImporter = {
  id: 'generic',
  label: BROKER_LABELS.generic,
  formats: `Strikebook's neutral CSV: ${REQUIRED_COLUMNS.join(', ')}, and optional columns such as expiration, strike, right, commission, fees`,
  detect: headerNear((names) => isGenericHeader(names) && [...names].every((name) => KNOWN.has(name))),
  parse: parseGeneric,
};
