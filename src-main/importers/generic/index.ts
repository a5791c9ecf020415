/**
 * The documented neutral CSV (docs/importers.md, "Generic CSV"): one row per transaction, columns named
 * after the model. Validation is strict: every problem is an error naming the line and the column, and
 * nothing is guessed.
 */
import type { ImportedTransaction, OptionRight, TransactionType } from '../../../src-shared/journal/model';
import { TRANSACTION_TYPES, occSymbol, parseOccSymbol } from '../../../src-shared/journal/model';
import { RowReader } from '../common/cells';
import { checkYmd, dayToUtc, offsetIsoToUtc } from '../common/dates';
import { ResultCollector, RowIdentity, accountFor } from '../common/result';
import { headerNear, readTable } from '../common/table';
import type { BrokerImporter, ParseOptions, ParseResult } from '../types';
import { BROKER_LABELS } from '../../../src-shared/api/constants';
import type { Minor } from '../../../src-shared/money';

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

/** A Set rather than the list's includes(): asked once per row of 100k-row files. */
const TYPE_SET: ReadonlySet<string> = new Set<string>(TRANSACTION_TYPES);

function isTransactionType(text: string): text is TransactionType {
  return TYPE_SET.has(text);
}

function readDate(reader: RowReader): string | null {
  const raw = reader.text('date');
  const day = checkYmd(raw);
  const iso = day !== null ? dayToUtc(day) : offsetIsoToUtc(raw);
  if (iso === null) {
    reader.fail('date', `expected YYYY-MM-DD or an ISO 8601 date-time with offset (2024-03-15T14:30:00Z, 2024-03-15T10:30:00-04:00): "${raw}"`);
  }
  return iso;
}

function unsignedMoney(reader: RowReader, column: string): Minor {
  const minor = reader.money(column);
  if (minor < 0) reader.fail(column, `must not be negative: "${reader.text(column)}"`);
  return minor;
}

/** A header of this format: every required column, and no column it does not know (a typo is an error). */
function isGenericHeader(names: Set<string>): boolean {
  return REQUIRED_COLUMNS.every((name) => names.has(name.toLowerCase()));
}

function readRight(reader: RowReader): OptionRight | null {
  const raw = reader.text('right').toUpperCase();
  if (raw === 'C' || raw === 'CALL') return 'C';
  if (raw === 'P' || raw === 'PUT') return 'P';
  reader.fail('right', `expected C, P, CALL or PUT: "${reader.text('right')}"`);
  return null;
}

/** One row of the generic fields (also the rules of manual entries, services/manual-entries.ts: one grammar for both). */
export function readRow(reader: RowReader, accountName: string, identity: RowIdentity): ImportedTransaction | null {
  const tradeDate = readDate(reader);
  const typeText = reader.text('type').toUpperCase();
  const type = isTransactionType(typeText) ? typeText : null;
  if (type === null) reader.fail('type', `"${reader.text('type')}" is not one of ${TRANSACTION_TYPES.join(', ')}`);
  const symbolText = reader.text('symbol').toUpperCase();
  const quantity = reader.number('quantity', { required: true });
  const priceMinor = unsignedMoney(reader, 'price');
  const amountMinor = reader.money('amount');
  if (reader.text('amount') === '') reader.fail('amount', 'required (0 when no cash moved)');
  const commissionMinor = unsignedMoney(reader, 'commission');
  const feesMinor = unsignedMoney(reader, 'fees');
  const currency = reader.text('currency').toUpperCase() || 'USD';
  if (!/^[A-Z]{3}$/.test(currency)) reader.fail('currency', `expected a 3-letter ISO code: "${reader.text('currency')}"`);

  // An option is named by its OCC symbol, or by symbol = root plus expiration, strike and right.
  const occ = parseOccSymbol(symbolText);
  let option: { root: string; expiration: string; strike: number; right: OptionRight } | null = occ;
  // Most rows are shares or OCC symbols: the cells are looked at (and a list made) only when the row has some.
  const optionCells = option === null && (reader.text('expiration') !== '' || reader.text('strike') !== '' || reader.text('right') !== '') ? ['expiration', 'strike', 'right'].filter((column) => reader.text(column) !== '') : [];
  if (option === null && optionCells.length > 0) {
    if (optionCells.length < 3) {
      reader.fail(optionCells[0] ?? 'expiration', 'an option needs all of expiration, strike and right');
    } else {
      const expiration = checkYmd(reader.text('expiration'));
      if (expiration === null) reader.fail('expiration', `expected YYYY-MM-DD: "${reader.text('expiration')}"`);
      const strikeText = reader.text('strike');
      const strike = reader.number('strike');
      if (!(strike > 0)) reader.fail('strike', `expected a positive number: "${strikeText}"`);
      const right = readRight(reader);
      if (expiration !== null && right !== null && strike > 0) option = { root: symbolText, expiration, strike, right };
    }
  }
  let multiplier = option ? 100 : 1;
  if (reader.text('multiplier') !== '') {
    multiplier = reader.number('multiplier');
    if (!(multiplier > 0)) reader.fail('multiplier', `must be positive: "${reader.text('multiplier')}"`);
  }
  if (type !== null) {
    if (NEEDS_SYMBOL.has(type) && symbolText === '') reader.fail('symbol', `required for ${type}`);
    if (OPTION_ONLY.has(type) && option === null && symbolText !== '') {
      reader.fail('symbol', `${type} needs an option: an OCC symbol (SPY250117P00450000) or expiration, strike and right`);
    }
    if (SHARES_ONLY.has(type) && option !== null) {
      reader.fail('type', `${type} is for shares; options use BUY_TO_OPEN, SELL_TO_OPEN, BUY_TO_CLOSE or SELL_TO_CLOSE`);
    }
    if (type !== 'SPLIT' && quantity < 0) reader.fail('quantity', `must not be negative for ${type} (only SPLIT is signed): "${reader.text('quantity')}"`);
    if (PAYS.has(type) && amountMinor > 0) reader.fail('amount', `${type} pays cash: the amount must be ≤ 0, got "${reader.text('amount')}"`);
    // The amount is net: closing a $0.01 option can receive less than its commission, so check the gross.
    if (RECEIVES.has(type) && amountMinor + commissionMinor + feesMinor < 0) {
      reader.fail('amount', `${type} receives cash: amount + commission + fees must be ≥ 0, got "${reader.text('amount')}"`);
    }
    if (type === 'SYMBOL_CHANGE' && reader.text('previousSymbol') === '') reader.fail('previousSymbol', 'required for SYMBOL_CHANGE');
  }
  if (!reader.ok || tradeDate === null || type === null) return null;
  const id = reader.text('id');
  // Every field is given: written out rather than through transaction()'s defaults (a spread per row of 100k).
  const tx: ImportedTransaction = {
    accountName: reader.text('account') || accountName,
    brokerRowId: id !== '' ? `id:${id}` : identity.next(IDENTITY_ORDER.filter((name) => reader.has(name)).map((name) => reader.text(name))),
    type,
    tradeDate,
    source: SOURCE,
    // An unpadded OCC symbol is already the canonical one (rebuilding it gives the same text).
    symbol: option === null ? symbolText : option === occ && !/\s/.test(symbolText) ? symbolText : occSymbol(option.root, option.expiration, option.right, option.strike),
    underlying: reader.text('underlying').toUpperCase() || (option ? option.root : symbolText),
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
    orderId: reader.text('orderId') || null,
    description: reader.text('description'),
  };
  const previous = reader.text('previousSymbol').toUpperCase();
  if (previous !== '') tx.previousSymbol = previous;
  return tx;
}

export function parseGeneric(text: string, options: ParseOptions): ParseResult {
  const out = new ResultCollector('generic', SOURCE, 'by-dates');
  // Written by people and programs, either way: the file's own dates say which.
  const table = readTable(out, text, {
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
  for (const record of table.rows) {
    const reader = new RowReader(record, table.columns, out);
    const id = reader.text('id');
    const seenAt = ids.get(id);
    if (id !== '' && seenAt !== undefined) reader.fail('id', `"${id}" already used on line ${seenAt}`);
    if (id !== '') ids.set(id, record.line);
    const tx = readRow(reader, accountName, identity);
    if (tx && reader.ok) out.add(record.line, tx);
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
