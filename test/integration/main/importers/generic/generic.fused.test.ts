/**
 * Issue 32: the generic importer reads each row's cells once into a reused GenericRow (the fused reader) instead of a
 * RowReader per row. The previous reader is kept here, verbatim (its row model over RowReader and its loop), and both
 * must give deep-equal parse results — rows, ids, digests, errors with their lines, counts and notes — on the class of
 * input the generic importer meets: every broker fixture as it is (refused alike), the transactions of every real
 * broker file written out as generic CSV in several layouts (with ids, without ids so the content digest identifies each
 * row, columns shuffled, options by root + expiration/strike/right), hand-written edge cases, and seeded random files
 * mixing good and bad cells.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RawTransaction, OptionRight, TransactionType } from '../../../../../src-shared/journal/model';
import { TRANSACTION_TYPES, occSymbol, parseOccSymbol } from '../../../../../src-shared/journal/model';
import type { Minor } from '../../../../../src-shared/money';
import { RowReader } from '../../../../../src-main/importers/common/cells';
import { checkYmd, dayToUtc, offsetIsoToUtc } from '../../../../../src-main/importers/common/dates';
import { ResultCollector, RowIdentity, accountFor } from '../../../../../src-main/importers/common/result';
import { readTable } from '../../../../../src-main/importers/common/table';
import { OPTIONAL_COLUMNS, REQUIRED_COLUMNS, SOURCE, genericImporter } from '../../../../../src-main/importers/generic/index';
import { detectImporter } from '../../../../../src-main/importers/registry';
import type { ParseOptions, ParseResult } from '../../../../../src-main/importers/types';
import { BROKER_FIXTURES_LOCAL, BROKER_FIXTURES_SHARED } from '../../../../paths';
import { seededRandom } from '../../../../../src-shared/demo/random';

// ---- The previous reader (src-main/importers/generic/index.ts before issue 32), kept only as the reference. ----

const KNOWN = new Set<string>([...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS].map((name) => name.toLowerCase()));
const PREVIOUS_IDENTITY_ORDER = [
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

function readRight(reader: RowReader): OptionRight | null {
  const raw = reader.text('right').toUpperCase();
  if (raw === 'C' || raw === 'CALL') return 'C';
  if (raw === 'P' || raw === 'PUT') return 'P';
  reader.fail('right', `expected C, P, CALL or PUT: "${reader.text('right')}"`);
  return null;
}

function previousReadRow(reader: RowReader, accountName: string, identity: RowIdentity): RawTransaction | null {
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
  const tx: RawTransaction = {
    accountName: reader.text('account') || accountName,
    brokerRowId: id !== '' ? `id:${id}` : identity.next(PREVIOUS_IDENTITY_ORDER.filter((name) => reader.has(name)).map((name) => reader.text(name))),
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

function previousParse(text: string, options: ParseOptions): ParseResult {
  const out = new ResultCollector('generic', SOURCE, 'by-dates');
  const table = readTable(out, text, {
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
    const tx = previousReadRow(reader, accountName, identity);
    if (tx && reader.ok) out.add(record.line, tx);
  }
  const result = out.result();
  return result.errors.length > 0 ? { ...result, transactions: [] } : result;
}

// ---- Inputs ----

function sameAsPrevious(text: string, options: ParseOptions = {}): ParseResult {
  const fused = genericImporter.parse(text, options);
  expect(fused).toEqual(previousParse(text, options));
  return fused;
}

const quote = (cell: string): string => (/[",\r\n]/.test(cell) || cell !== cell.trim() ? `"${cell.replace(/"/g, '""')}"` : cell);
const money = (minor: number): string => (minor / 10_000).toFixed(4).replace(/\.?0+$/, '');

interface Layout {
  columns: readonly string[];
  /** Options as root + expiration, strike and right rather than the OCC symbol. */
  splitOptions: boolean;
  eol: string;
}

/** Transactions as a generic CSV in a layout (the columns a file has, their order, line ends). */
function writeGeneric(transactions: readonly RawTransaction[], layout: Layout): string {
  const value = (tx: RawTransaction, column: string, index: number): string => {
    const split = layout.splitOptions && tx.isOption && tx.expiration !== null && tx.strike !== null && tx.right !== null;
    switch (column) {
      case 'id': return `r${index}`;
      case 'date': return tx.tradeDate;
      case 'account': return tx.accountName;
      case 'type': return tx.type;
      case 'symbol': return split ? tx.underlying : tx.symbol;
      case 'underlying': return tx.underlying;
      case 'quantity': return String(tx.quantity);
      case 'price': return money(tx.priceMinor);
      case 'commission': return money(tx.commissionMinor);
      case 'fees': return money(tx.feesMinor);
      case 'amount': return money(tx.amountMinor);
      case 'currency': return tx.currency;
      case 'orderId': return tx.orderId ?? '';
      case 'description': return tx.description;
      case 'multiplier': return String(tx.multiplier);
      case 'previousSymbol': return tx.previousSymbol ?? '';
      case 'expiration': return split ? (tx.expiration ?? '') : '';
      case 'strike': return split ? String(tx.strike) : '';
      case 'right': return split ? (tx.right ?? '') : '';
      default: return '';
    }
  };
  const lines = [layout.columns.join(','), ...transactions.map((tx, index) => layout.columns.map((column) => quote(value(tx, column, index))).join(','))];
  return `${lines.join(layout.eol)}${layout.eol}`;
}

const ALL = ['id', 'date', 'account', 'type', 'symbol', 'underlying', 'quantity', 'price', 'commission', 'fees', 'amount', 'currency', 'orderId', 'description', 'multiplier', 'previousSymbol'];
const LAYOUTS: ReadonlyArray<{ name: string; layout: Layout }> = [
  { name: 'with ids', layout: { columns: ALL, splitOptions: false, eol: '\n' } },
  { name: 'without ids (content digests)', layout: { columns: ALL.filter((c) => c !== 'id'), splitOptions: false, eol: '\n' } },
  {
    name: 'shuffled columns, options by root, CRLF, no ids',
    layout: { columns: ['description', 'amount', 'right', 'symbol', 'strike', 'date', 'type', 'expiration', 'quantity', 'price', 'fees', 'commission', 'account', 'multiplier', 'previousSymbol'], splitOptions: true, eol: '\r\n' },
  },
  { name: 'only the required columns', layout: { columns: REQUIRED_COLUMNS, splitOptions: false, eol: '\n' } },
];

const sharedFiles = existsSync(BROKER_FIXTURES_SHARED) ? readdirSync(BROKER_FIXTURES_SHARED).filter((name) => name.endsWith('.csv') && !name.includes('EXPECTED')).sort() : [];
const localFiles = readdirSync(BROKER_FIXTURES_LOCAL).filter((name) => name.endsWith('.csv')).sort();
const brokerFiles = [
  ...sharedFiles.map((name) => ({ name: `shared/${name}`, path: join(BROKER_FIXTURES_SHARED, name) })),
  ...localFiles.map((name) => ({ name: `local/${name}`, path: join(BROKER_FIXTURES_LOCAL, name) })),
];

/** Cells per column, good and bad, that a random row draws from. */
const POOL: Readonly<Record<string, readonly string[]>> = {
  id: ['', 'a', 'b', 'c', ' a ', 'x"y'],
  date: ['2024-01-02', ' 2024-03-18 ', '2024-01-03T14:35:12Z', '2024-01-17T18:45:03-05:00', '2024-01-03T14:35:12.000Z', '2024-02-30', '01/02/2024', '', 'yesterday', '2024-03-10T02:30:00-05:00'],
  account: ['', 'IRA', ' Joint  Account ', '****', 'Roth, main'],
  type: ['BUY', 'sell', 'SELL_TO_OPEN', 'BUY_TO_CLOSE', 'ASSIGNMENT', 'DIVIDEND', 'DEPOSIT', 'WITHDRAWAL', 'SPLIT', 'SYMBOL_CHANGE', 'SELL_SHORT', 'EXPIRATION', 'FEE', 'INTEREST', '', 'buy to open', 'TRANSFER'],
  symbol: ['PFE', 'spy', 'SPY250117P00450000', 'SPY   250117P00450000', 'SPXW250117C05000000', '', 'BRK.B', 'AAPL250117X00150000'],
  quantity: ['1', '100', '-2', '0', '1.5', '', '1,000', '(3)', 'x', '1e3', ' 2 ', '--', '1,5'],
  price: ['0.55', '28', '', '-1', '$1,000.50', '(12.50)', '@1.5', 'abc', '1e999', '0.00005', '99999999999999999'],
  commission: ['', '0.65', '-0.65', '--', 'n/a', '$0.65'],
  fees: ['', '0.01', '-0.02', 'x'],
  amount: ['-2800', '54.34', '0', '', '-', '12.5', '-$1,234.56', '(1.00)', '1.2E-4', 'abc', '1e20'],
  currency: ['', 'USD', 'eur', 'US', 'DOLLARS'],
  orderId: ['', 'A100', ' 7 '],
  description: ['', 'Sold 1 PFE Jan 19 28 Put', 'a "quoted" word, and a comma', 'two\nlines', 'Total'],
  expiration: ['', '2024-01-19', '2024-13-01', '01/19/2024'],
  strike: ['', '28', '0', '-5', 'x', '450.5'],
  right: ['', 'P', 'call', 'C', 'X'],
  multiplier: ['', '100', '0', '10', '-1', 'x'],
  underlying: ['', 'PFE', 'spx'],
  previousSymbol: ['', 'FB', 'meta'],
};

/** Rows that read cleanly whichever optional columns the file has (options by OCC symbol), with the cells' own blanks. */
const VALID_ROWS: ReadonlyArray<Readonly<Record<string, string>>> = [
  { date: '2024-01-02', type: 'BUY', symbol: 'PFE', quantity: '100', price: '28', amount: '-2800', commission: '0', description: 'a "quoted", word' },
  { date: ' 2024-01-03T14:35:12Z', type: 'sell_to_open', symbol: 'PFE240119P00028000', quantity: '1', price: '0.55', amount: '54.34', fees: '0.01', account: 'IRA' },
  { date: '2024-01-17T18:45:03-05:00', type: 'BUY_TO_CLOSE', symbol: 'SPY   250117P00450000', quantity: '1', price: '$1.50', amount: '(150.65)', commission: '0.65', orderId: 'A1' },
  { date: '2024-03-18', type: 'DIVIDEND', symbol: 'PFE', quantity: '0', price: '0', amount: '-12.60', description: 'two\nlines' },
  { date: '2024-03-19', type: 'DEPOSIT', symbol: '', quantity: '0', price: '0', amount: '1,000.00', currency: 'usd' },
  { date: '2024-03-20', type: 'SPLIT', symbol: 'PFE', quantity: '-50', price: '0', amount: '0', multiplier: '1' },
  { date: '2024-03-21', type: 'SPLIT', symbol: 'PFE', quantity: '-50', price: '0', amount: '0', multiplier: '1' },
];

function randomCleanFile(seed: number): string {
  const next = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const columns = [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS.filter((column) => column !== 'id' && next() < 0.6)].sort(() => next() - 0.5);
  const rows = Array.from({ length: 1 + Math.floor(next() * 20) }, () => {
    const row = pick(VALID_ROWS);
    return columns.map((column) => quote(row[column] ?? '')).join(',');
  });
  return `${[columns.join(','), ...rows].join(pick(['\n', '\r\n']))}\n`;
}

function randomFile(seed: number): string {
  const next = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const optional = OPTIONAL_COLUMNS.filter(() => next() < 0.6);
  const columns = [...REQUIRED_COLUMNS, ...optional].sort(() => next() - 0.5);
  const header = columns.map((column) => (next() < 0.1 ? ` ${column.toUpperCase()} ` : column));
  const eol = pick(['\n', '\r\n', '\r']);
  const lines: string[] = [];
  if (next() < 0.2) lines.push('Account history for a test', '');
  lines.push(header.join(','));
  const rows = 1 + Math.floor(next() * 30);
  for (let r = 0; r < rows; r += 1) {
    const shape = next();
    if (shape < 0.04) lines.push('');
    else if (shape < 0.06) lines.push(',,,');
    else if (shape < 0.08) lines.push(`${columns.map(() => '').join(',')},Transactions Total`);
    else if (shape < 0.1) lines.push('"Some prose, a disclaimer"');
    else {
      let cells = columns.map((column) => quote(pick(POOL[column] ?? [''])));
      if (next() < 0.05) cells = [...cells, 'extra'];
      if (next() < 0.05) cells = cells.slice(0, Math.floor(next() * cells.length));
      lines.push(cells.join(','));
    }
  }
  const body = lines.join(eol) + (next() < 0.7 ? eol : '');
  return next() < 0.2 ? `\uFEFF${body}` : body;
}

// ---- The checks ----

describe('the fused generic reader gives what the previous reader gave', () => {
  it.each(brokerFiles)('$name as it is', ({ path }) => {
    sameAsPrevious(readFileSync(path, 'utf8'));
  });

  describe.each(LAYOUTS)('each broker file\'s transactions written as generic CSV, $name', ({ layout }) => {
    it.each(brokerFiles)('$name', ({ path }) => {
      const text = readFileSync(path, 'utf8');
      const importer = detectImporter(text);
      const transactions = importer === null ? [] : importer.parse(text, { asOf: new Date('2100-01-01T00:00:00Z') }).transactions.map((row) => row.transaction);
      const written = writeGeneric(transactions, layout);
      const result = sameAsPrevious(written, { accountName: 'Given' });
      // Not a vacuous comparison: the written file is read, row for row.
      if (transactions.length > 0) expect(result.rows).toBe(transactions.length);
    });
  });

  it('hand-written edge cases: quotes, embedded commas and line breaks, BOM, CRLF, blank and ragged rows, bad cells with their lines', () => {
    const HEADER = 'date,type,symbol,quantity,price,amount';
    const cases: string[] = [
      `\uFEFF${HEADER},description\r\n2024-01-02,BUY,PFE,100,28,-2800,"bought, at ""28"""\r\n\r\n2024-01-03,SELL,PFE,100,29,2900,"two\r\nlines"\r\n`,
      `${HEADER}\n2024-01-02,BUY,PFE,100,28,-2800\n,,,,,\n\n2024-01-03,BUY,PFE,1,x,-1\n2024-01-04,BUY,PFE,1,1\n2024-01-05,BUY,PFE,1,1,-1,extra\n2024-01-06,BUY,PFE,1,1,-1,\n`,
      `${HEADER},id\n2024-01-02,BUY,PFE,1,1,-1,a\n2024-01-02,BUY,PFE,1,1,-1,a\n2024-01-02,BUY,PFE,1,1,-1,\n2024-01-02,BUY,PFE,1,1,-1,\n`,
      `${HEADER},expiration,strike,right\n2024-01-02,SELL_TO_OPEN,PFE,1,0.55,54.35,2024-01-19,28,\n2024-01-02,SELL_TO_OPEN,PFE,1,0.55,54.35,,28,P\n2024-01-02,SELL_TO_OPEN,PFE,1,0.55,54.35,2024-01-19,28,X\n2024-01-02,SELL_TO_OPEN,PFE,1,0.55,54.35,2024-01-19,-1,P\n`,
      `${HEADER},bogus\n2024-01-02,BUY,PFE,1,1,-1,\n`,
      `Title of the file\nAccount: 123\n\n${HEADER}\n2024-01-02,BUY,PFE,1,1,-1\n"Transactions Total",,,,,-1\nDownloaded on 2024-02-01\n`,
      `${HEADER}\n2024-01-02,BUY,PFE,1,1,"-1`,
      `date,type,symbol,quantity,price\n2024-01-02,BUY,PFE,1,1\n`,
      `Date , TYPE,Symbol,Quantity,PRICE,Amount,Commission,Fees,Currency\n2024-01-02,buy,pfe,1,$1.00,($1.65),0.65,--,usd\n2024-01-02,SELL,pfe,1,1,-5,0.65,0,usd\n`,
      `${HEADER}\r2024-01-02,BUY,PFE,1,1,-1\r2024-01-03,SPLIT,PFE,-1,0,0\r2024-01-04,SYMBOL_CHANGE,META,1,0,0\r`,
      `${HEADER},date\n2024-01-02,BUY,PFE,1,1,-1,2025-01-01\n`,
      `${HEADER}\n`,
      '',
    ];
    for (const text of cases) sameAsPrevious(text);
    for (const text of cases) sameAsPrevious(text, { accountName: 'Given' });
  });

  it('300 seeded random files in random layouts: half of good rows, half mixing good and bad cells', () => {
    let errors = 0;
    let transactions = 0;
    for (let seed = 1; seed <= 300; seed += 1) {
      const result = sameAsPrevious(seed % 2 === 0 ? randomCleanFile(seed) : randomFile(seed));
      errors += result.errorCount;
      transactions += result.transactions.length;
    }
    // Both kinds of outcome are exercised, not only refusals.
    expect(errors).toBeGreaterThan(100);
    expect(transactions).toBeGreaterThan(100);
  });
});
