/**
 * E*TRADE transaction history CSV, in both of its layouts (columns found by name):
 * - older "DownloadTxnHistory": `For Account:,####1234`, then
 *   `TransactionDate,TransactionType,SecurityType,Symbol,Quantity,Amount,Price,Commission,Description`;
 * - newer "All Transactions": `All Transactions Activity Types`, `Account Activity for <name> -1234 from ...`,
 *   `Total:,...`, then `Activity/Trade Date,Transaction Date,Settlement Date,Activity Type,Description,Symbol,
 *   Cusip,Quantity #,Price $,Amount $,Commission,Category,Note`, `--` for empty cells.
 * Options are described `PUT  IWM    02/27/26   260.000` (or named `TSLA Dec 15 '28 $400 Call`, or by an OCC
 * symbol); dates are MM/DD/YY without time: 16:00 New York. Amount is net of commission, quantities are signed.
 *
 * Dividend reinvestments come as two rows: the dividend (Amount > 0) and a `Dividend` (or `Dividend
 * Reinvestment`) row with Quantity > 0 and a negative Amount, "REINVEST" in its description: the first is the
 * dividend as received, the second a BUY of the shares (a lone reinvestment row also books its dividend, as
 * inferred). Withholding is a negative DIVIDEND; ADR custody fees are FEEs, whatever type they are filed under.
 *
 * Sold Short / Bought To Cover on shares are SELL_SHORT / BUY_TO_COVER. Bonds and bills are priced in percent of
 * par: their multiplier is 0.01 when the quantity is face value, 10 when it counts bonds of 1,000 face — whichever
 * makes price × quantity × multiplier the cash (common/amounts.ts, parMultiplier); a redemption is their sale.
 */
import type { RawTransaction } from '../../../src-shared/journal/model';
import { impliedFeesMinor, inferOptionFill, parMultiplier, pricePerShareMinor } from '../common/amounts';
import { RowReader } from '../common/cells';
import { dayToUtc, mdyToYmd } from '../common/dates';
import { withOption, type OptionFields } from '../common/options';
import { ResultCollector, RowIdentity, accountFor, transaction } from '../common/result';
import { HEAD_RECORDS, headerNear, readTable } from '../common/table';
import type { BrokerImporter, ParseOptions, ParseResult } from '../types';
import { BROKER_LABELS } from '../../../src-shared/api/constants';
import { parseEtradeOption } from './options';
import { preambleAccount, stateTotal } from './preamble';
import { ZERO_MINOR, formatMinor, MINOR_PER_UNIT, absMinor, negMinor, addMinor, asMinor, type Minor } from '../../../src-shared/money';

export { parseEtradeOption };
export const ETRADE_SOURCE = 'etrade-csv';

const ALIASES = {
  date: ['TransactionDate', 'Activity/Trade Date', 'Transaction Date'],
  kind: ['TransactionType', 'Activity Type'],
  quantity: ['Quantity', 'Quantity #'],
  price: ['Price', 'Price $'],
  amount: ['Amount', 'Amount $'],
} as const;
const REQUIRED = ['date', 'kind', 'Symbol', 'quantity', 'amount', 'price', 'Commission', 'Description'];

function isEtradeHeader(names: Set<string>): boolean {
  return (names.has('transactiondate') && names.has('transactiontype')) || (names.has('activity/trade date') && names.has('activity type'));
}

type Rule =
  | { kind: 'fill'; side: 'BUY' | 'SELL'; effect: 'OPEN' | 'CLOSE' | null }
  | { kind: 'event'; type: 'EXPIRATION' | 'ASSIGNMENT' | 'EXERCISE' }
  | { kind: 'dividend' }
  | { kind: 'reinvest' }
  | { kind: 'cash'; type: 'INTEREST' | 'FEE' }
  | { kind: 'transfer' }
  | { kind: 'split' }
  | { kind: 'other' };

const RULES: Record<string, Rule> = {
  bought: { kind: 'fill', side: 'BUY', effect: null },
  sold: { kind: 'fill', side: 'SELL', effect: null },
  'bought to open': { kind: 'fill', side: 'BUY', effect: 'OPEN' },
  'sold short': { kind: 'fill', side: 'SELL', effect: 'OPEN' },
  'sold to open': { kind: 'fill', side: 'SELL', effect: 'OPEN' },
  'bought to cover': { kind: 'fill', side: 'BUY', effect: 'CLOSE' },
  'bought to close': { kind: 'fill', side: 'BUY', effect: 'CLOSE' },
  'sold to close': { kind: 'fill', side: 'SELL', effect: 'CLOSE' },
  // A bond or bill paid back at maturity: the holding sold at par.
  redemption: { kind: 'fill', side: 'SELL', effect: null },
  'bond redemption': { kind: 'fill', side: 'SELL', effect: null },
  maturity: { kind: 'fill', side: 'SELL', effect: null },
  redeemed: { kind: 'fill', side: 'SELL', effect: null },
  'option expiration': { kind: 'event', type: 'EXPIRATION' },
  'option expired': { kind: 'event', type: 'EXPIRATION' },
  expired: { kind: 'event', type: 'EXPIRATION' },
  expiration: { kind: 'event', type: 'EXPIRATION' },
  'option assignment': { kind: 'event', type: 'ASSIGNMENT' },
  'option assigned': { kind: 'event', type: 'ASSIGNMENT' },
  assigned: { kind: 'event', type: 'ASSIGNMENT' },
  assignment: { kind: 'event', type: 'ASSIGNMENT' },
  'option exercise': { kind: 'event', type: 'EXERCISE' },
  'option exercised': { kind: 'event', type: 'EXERCISE' },
  exercised: { kind: 'event', type: 'EXERCISE' },
  exercise: { kind: 'event', type: 'EXERCISE' },
  dividend: { kind: 'dividend' },
  'qualified dividend': { kind: 'dividend' },
  'non-qualified dividend': { kind: 'dividend' },
  'ordinary dividend': { kind: 'dividend' },
  'cash dividend': { kind: 'dividend' },
  'capital gain': { kind: 'dividend' },
  'capital gains distribution': { kind: 'dividend' },
  'tax withholding': { kind: 'dividend' },
  'foreign tax withheld': { kind: 'dividend' },
  'foreign withholding': { kind: 'dividend' },
  'backup withholding': { kind: 'dividend' },
  reinvest: { kind: 'reinvest' },
  reinvestment: { kind: 'reinvest' },
  'dividend reinvestment': { kind: 'reinvest' },
  interest: { kind: 'cash', type: 'INTEREST' },
  'interest income': { kind: 'cash', type: 'INTEREST' },
  'margin interest': { kind: 'cash', type: 'INTEREST' },
  'credit interest': { kind: 'cash', type: 'INTEREST' },
  fee: { kind: 'cash', type: 'FEE' },
  'service fee': { kind: 'cash', type: 'FEE' },
  'adr fee': { kind: 'cash', type: 'FEE' },
  'misc fee': { kind: 'cash', type: 'FEE' },
  'wire fee': { kind: 'cash', type: 'FEE' },
  transfer: { kind: 'transfer' },
  'online transfer': { kind: 'transfer' },
  deposit: { kind: 'transfer' },
  withdrawal: { kind: 'transfer' },
  wire: { kind: 'transfer' },
  'wire in': { kind: 'transfer' },
  'wire out': { kind: 'transfer' },
  ach: { kind: 'transfer' },
  'direct deposit': { kind: 'transfer' },
  'direct debit': { kind: 'transfer' },
  contribution: { kind: 'transfer' },
  'stock split': { kind: 'split' },
  adjustment: { kind: 'other' },
  journal: { kind: 'other' },
  reorganization: { kind: 'other' },
};

interface Row {
  reader: RowReader;
  day: string;
  tradeDate: string;
  kind: string;
  rule: Rule | undefined;
  symbol: string;
  description: string;
  option: OptionFields | null;
  /** Signed as in the file. */
  quantity: number;
  amountMinor: Minor;
  priceMinor: Minor;
  commissionMinor: Minor;
  rowId: string;
}

/** `REINVEST PRICE $  8.78`, `REIN @  25.0299` → the price per share in the description. */
function reinvestPrice(description: string): Minor | null {
  const match = /\bREIN(?:VEST)?(?:\s+PRICE)?\s*(?:\$|@)\s*(\d+(?:\.\d+)?)/i.exec(description);
  return match?.[1] === undefined ? null : asMinor(Math.round(Number(match[1]) * MINOR_PER_UNIT));
}

function isReinvestment(row: Row): boolean {
  if (row.rule?.kind === 'reinvest') return true;
  return row.rule?.kind === 'dividend' && row.quantity > 0 && row.amountMinor < 0;
}

export function parseEtrade(text: string, options: ParseOptions): ParseResult {
  const out = new ResultCollector('etrade', ETRADE_SOURCE, 'newest-first');
  const table = readTable(out, text, {
    isHeader: isEtradeHeader,
    required: REQUIRED,
    aliases: ALIASES,
    what: 'an E*TRADE transaction history',
    headerHint: '"TransactionDate,TransactionType,SecurityType,..." or "Activity/Trade Date,Transaction Date,Settlement Date,Activity Type,..."',
  });
  if (table === null) return out.result();
  const accountName = accountFor(preambleAccount(table.preamble.map((record) => record.cells)), options, 'E*TRADE');
  const ids = new RowIdentity();
  const rows: Row[] = [];
  for (const record of table.rows) {
    const row = readRow(new RowReader(record, table.columns, out), accountName, ids);
    if (row) rows.push(row);
  }
  if (out.errors.length > 0) return out.result();

  // E*TRADE lists newest first; the running position for plain Bought/Sold options needs oldest first.
  const chronological = rows.map((row, order) => ({ row, order })).sort((a, b) => a.row.day.localeCompare(b.row.day) || b.order - a.order);
  const positions = new Map<string, number>();
  const multipliers = new Map<string, number>();
  let inferred = 0;
  for (const { row } of chronological) {
    const tx = mapRow(out, row, accountName, positions, multipliers);
    if (tx === null) continue;
    if (tx.inferredFill) inferred += 1;
    out.add(row.reader.line, tx.transaction);
  }
  bookLoneReinvestments(out, rows, accountName);
  stateTotal(out, table.preamble, accountName);
  if (inferred > 0) {
    out.warn(null, `${inferred} option trade(s) say only Bought/Sold; opening or closing was inferred from the running position in this file`);
  }
  return out.result();
}

function readRow(reader: RowReader, accountName: string, ids: RowIdentity): Row | null {
  const rawDate = reader.text('date');
  const day = reader.date('date', mdyToYmd);
  const kind = reader.text('kind');
  const securityType = reader.value('SecurityType').toUpperCase();
  const symbol = reader.value('Symbol');
  const description = reader.text('Description').replace(/\s+/g, ' ');
  const quantity = reader.number('quantity');
  const amountMinor = reader.money('amount');
  const priceMinor = absMinor(reader.money('price'));
  const commissionMinor = absMinor(reader.money('Commission'));
  const optionNamed = securityType === 'OPTN' || securityType === 'OPT' || /^(?:CALL|PUT)\s/i.test(description);
  const option = optionNamed ? (parseEtradeOption(description) ?? parseEtradeOption(symbol)) : parseEtradeOption(symbol);
  if (optionNamed && option === null) reader.fail('Description', `no option contract in "${description}"`);
  const tradeDate = day === null ? null : dayToUtc(day);
  if (!reader.ok || day === null || tradeDate === null) return null;
  return {
    reader,
    day,
    tradeDate,
    kind,
    rule: RULES[kind.trim().toLowerCase()],
    symbol: option?.underlying ?? symbol.toUpperCase(),
    description,
    option,
    quantity,
    amountMinor,
    priceMinor,
    commissionMinor,
    rowId: ids.next([accountName, rawDate, kind, securityType, reader.text('Symbol'), reader.text('quantity'), reader.text('amount'), reader.text('price'), reader.text('Commission'), description]),
  };
}

function mapRow(
  out: ResultCollector,
  row: Row,
  accountName: string,
  positions: Map<string, number>,
  multipliers: Map<string, number>,
): { transaction: RawTransaction; inferredFill: boolean } | null {
  let tx: RawTransaction = transaction({
    accountName,
    brokerRowId: row.rowId,
    type: 'OTHER',
    tradeDate: row.tradeDate,
    source: ETRADE_SOURCE,
    symbol: row.symbol,
    underlying: row.symbol,
    quantity: Math.abs(row.quantity),
    priceMinor: row.priceMinor,
    amountMinor: row.amountMinor,
    commissionMinor: row.commissionMinor,
    description: row.description,
  });
  if (row.option) tx = withOption(tx, row.option);
  const rule = row.rule;
  let inferredFill = false;
  if (/\bADR\b/i.test(row.description) && /\bFEE\b/i.test(row.description) && row.amountMinor <= 0) {
    tx.type = 'FEE';
  } else if (isReinvestment(row)) {
    tx.type = 'BUY';
    tx.priceMinor = reinvestPrice(row.description) ?? (row.quantity !== 0 ? pricePerShareMinor(row.amountMinor, row.quantity, 1) : ZERO_MINOR);
  } else if (rule === undefined) {
    out.warn(row.reader.line, `unknown E*TRADE transaction type "${row.kind}": kept as OTHER`);
  } else if (rule.kind === 'fill') {
    if (row.option === null) tx.type = rule.side === 'SELL' && rule.effect === 'OPEN' ? 'SELL_SHORT' : rule.side === 'BUY' && rule.effect === 'CLOSE' ? 'BUY_TO_COVER' : rule.side;
    else if (rule.effect !== null) tx.type = `${rule.side}_TO_${rule.effect}`;
    else if (/\bOPENING\b/i.test(row.description)) tx.type = `${rule.side}_TO_OPEN`;
    else if (/\bCLOSING\b/i.test(row.description)) tx.type = `${rule.side}_TO_CLOSE`;
    else {
      tx.type = inferOptionFill(positions, row.option.symbol, rule.side === 'BUY' ? tx.quantity : -tx.quantity);
      inferredFill = true;
    }
  } else if (rule.kind === 'event') {
    if (row.option === null) {
      out.warn(row.reader.line, `"${row.kind}" on ${row.symbol || 'a row'} that names no option: kept as OTHER`);
    } else {
      tx.type = rule.type;
      tx.priceMinor = ZERO_MINOR;
    }
  } else if (rule.kind === 'dividend') {
    tx.type = 'DIVIDEND';
  } else if (rule.kind === 'reinvest') {
    tx.type = 'BUY';
  } else if (rule.kind === 'cash') {
    tx.type = rule.type;
  } else if (rule.kind === 'transfer') {
    tx.type = row.amountMinor >= 0 ? 'DEPOSIT' : 'WITHDRAWAL';
  } else if (rule.kind === 'split') {
    tx.type = 'SPLIT';
    tx.quantity = row.quantity;
    tx.priceMinor = ZERO_MINOR;
  }
  if (tx.type === 'DIVIDEND' || tx.type === 'INTEREST' || tx.type === 'FEE' || tx.type === 'DEPOSIT' || tx.type === 'WITHDRAWAL') {
    tx.quantity = 0;
    tx.priceMinor = ZERO_MINOR;
  }
  if (row.option !== null && !inferredFill) {
    const before = positions.get(row.option.symbol) ?? 0;
    const sign = tx.type === 'BUY_TO_OPEN' || tx.type === 'BUY_TO_CLOSE' ? 1 : tx.type === 'SELL_TO_OPEN' || tx.type === 'SELL_TO_CLOSE' ? -1 : 0;
    // Expiration, assignment and exercise flatten the contract.
    positions.set(row.option.symbol, tx.type === 'EXPIRATION' || tx.type === 'ASSIGNMENT' || tx.type === 'EXERCISE' ? 0 : before + sign * tx.quantity);
  }
  if (row.option === null && rule?.kind === 'fill') priceAtPar(tx, multipliers);
  tx.feesMinor = impliedFeesMinor(tx);
  return { transaction: tx, inferredFill };
}

/**
 * A share fill whose price × quantity is not its cash but 1/100 or 10 × it is a bond or bill priced in percent of
 * par (its multiplier, kept per security for its redemption, which may carry no price).
 */
function priceAtPar(tx: RawTransaction, multipliers: Map<string, number>): void {
  const cashMinor = addMinor(absMinor(tx.amountMinor), tx.amountMinor < 0 ? negMinor(tx.commissionMinor) : tx.commissionMinor);
  const multiplier = parMultiplier(tx.priceMinor, tx.quantity, cashMinor) ?? multipliers.get(tx.symbol) ?? null;
  if (multiplier === null || multiplier === 1) return;
  multipliers.set(tx.symbol, multiplier);
  tx.multiplier = multiplier;
  if (tx.priceMinor === 0) tx.priceMinor = pricePerShareMinor(cashMinor, tx.quantity, multiplier);
}

/**
 * A reinvestment whose dividend has no row of its own in the file (the newer layout can write the reinvestment
 * alone) books that dividend too, as received, so that the dividend figures hold what was paid.
 */
function bookLoneReinvestments(out: ResultCollector, rows: readonly Row[], accountName: string): void {
  // What was paid per security and day, net of its withholding: a reinvestment buys at most that.
  const paid = new Map<string, number>();
  for (const row of rows) {
    if (isReinvestment(row) || row.rule?.kind !== 'dividend') continue;
    const key = `${row.symbol}|${row.day}`;
    paid.set(key, (paid.get(key) ?? 0) + row.amountMinor);
  }
  for (const row of rows.filter(isReinvestment)) {
    const key = `${row.symbol}|${row.day}`;
    const available = paid.get(key) ?? 0;
    if (available >= -row.amountMinor) {
      paid.set(key, available + row.amountMinor);
      continue;
    }
    out.add(
      row.reader.line,
      transaction({
        accountName,
        brokerRowId: `${row.rowId}|dividend`,
        type: 'DIVIDEND',
        tradeDate: row.tradeDate,
        source: ETRADE_SOURCE,
        symbol: row.symbol,
        underlying: row.symbol,
        amountMinor: negMinor(row.amountMinor),
        description: `dividend reinvested: ${row.description}`,
        inferred: true,
      }),
    );
    out.warn(row.reader.line, `reinvestment of ${formatMinor(negMinor(row.amountMinor))} in ${row.symbol} has no dividend row in the file: the dividend is booked as received (inferred)`);
  }
}

export const etradeImporter: BrokerImporter = {
  id: 'etrade',
  label: BROKER_LABELS.etrade,
  formats: 'transaction history CSV (DownloadTxnHistory, older and newer "All Transactions" layouts)',
  // The header may stand anywhere in the head (lines of text before it): all of it is read.
  detect: headerNear(isEtradeHeader, HEAD_RECORDS),
  parse: parseEtrade,
};
