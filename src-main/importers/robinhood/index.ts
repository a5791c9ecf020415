/**
 * Robinhood account activity CSV:
 * `"Activity Date","Process Date","Settle Date","Instrument","Description","Trans Code","Quantity","Price","Amount"`.
 * Amounts are net (there is no fee column); options are named in the description
 * (`TSLA 7/16/2021 Put $600.00`); stock descriptions span lines (name, CUSIP, "2 ASTS Options Assigned");
 * a disclaimer row (nine empty cells and a tenth with text) ends the file. Dates only: 16:00 New York. Rows are
 * listed newest first (the event order of one day is read bottom-up); share prices are rounded, so a share
 * trade's price is its cash amount per share.
 *
 * Corporate actions (docs/importers.md §Robinhood, docs/journal.md §Corporate actions) come as rows of shares moved
 * without a price, a surrendered quantity written `300S`: SXCH (an exchange: a new CUSIP, a symbol change, a SPAC's
 * merger), MRGS (a merger; MRGC its cash), SPR (a split or reverse split), their option contracts as OCA rows; CIL is
 * cash in lieu of a fraction (`CIL on 0.5 @ $8.00 - NAKD`), SDIV a stock dividend's shares, REC shares received free.
 * Each surrendered / received pair becomes one SPLIT or SYMBOL_CHANGE with its terms (the ratio is the quantities'),
 * a CIL a sale of the fraction at its cash (and part of its action's ratio).
 */
import type { RawTransaction, TransactionType } from '../../../src-shared/journal/model';
import { impliedFeesMinor, pricePerShareMinor } from '../common/amounts';
import type { RowReader} from '../common/cells';
import { parseNumber } from '../common/cells';
import { dayToUtc, mdyToYmd } from '../common/dates';
import { optionFields, rightOf, withOption, type OptionFields } from '../common/options';
import { ResultCollector, RowIdentity, accountFor, transaction } from '../common/result';
import { headerNear, tableReaders } from '../common/table';
import type { BrokerImporter, ParseOptions, ParseResult, ParsedRow } from '../types';
import { BROKER_LABELS } from '../../../src-shared/api/constants';
import { absMinor, addMinor, subMinor } from '../../../src-shared/money';
import { mapRobinhoodActions, ROBINHOOD_ACTION_CODES, type ActionRow } from './corporate-actions';

export const ROBINHOOD_SOURCE = 'robinhood-csv';
const REQUIRED = ['Activity Date', 'Instrument', 'Description', 'Trans Code', 'Quantity', 'Price', 'Amount'] as const;

/** Trans codes → type. Cash movements are typed by the sign of the amount (`DEPOSIT` here means "by sign"). */
const CODES: Record<string, TransactionType> = {
  BUY: 'BUY',
  SELL: 'SELL',
  BTO: 'BUY_TO_OPEN',
  STO: 'SELL_TO_OPEN',
  BTC: 'BUY_TO_CLOSE',
  STC: 'SELL_TO_CLOSE',
  OEXP: 'EXPIRATION',
  OASGN: 'ASSIGNMENT',
  OEXCS: 'EXERCISE',
  CDIV: 'DIVIDEND',
  MDIV: 'DIVIDEND',
  DTAX: 'DIVIDEND',
  INT: 'INTEREST',
  MINT: 'INTEREST',
  SLIP: 'INTEREST',
  GOLD: 'FEE',
  AFEE: 'FEE',
  DFEE: 'FEE',
  ACH: 'DEPOSIT',
  XENT: 'DEPOSIT',
  XENT_RWR: 'DEPOSIT',
  RTP: 'DEPOSIT',
  DCF: 'DEPOSIT',
  ACATI: 'DEPOSIT',
  ACATO: 'DEPOSIT',
  JNLC: 'DEPOSIT',
  JNLS: 'DEPOSIT',
  SPL: 'SPLIT',
};
const CASH_BY_SIGN = new Set(['ACH', 'XENT', 'XENT_RWR', 'RTP', 'DCF', 'ACATI', 'ACATO', 'JNLC', 'JNLS']);
const OPTION_CODES = new Set(['BTO', 'STO', 'BTC', 'STC', 'OEXP', 'OASGN', 'OEXCS']);

function isRobinhoodHeader(names: Set<string>): boolean {
  return names.has('activity date') && names.has('trans code') && names.has('instrument');
}

/** `TSLA 7/16/2021 Put $600.00`, `Option Expiration for OPEN 10/17/2025 Call $9.00`. */
export function parseRobinhoodOption(description: string): OptionFields | null {
  const match = /(?:^|for\s+)([A-Z0-9.]+)\s+(\d{1,2}\/\d{1,2}\/\d{4})\s+(Call|Put)\s+\$([\d,]+(?:\.\d+)?)\s*$/i.exec(description.trim());
  if (!match) return null;
  const [, root = '', date = '', rightText = '', strike = ''] = match;
  const expiration = mdyToYmd(date);
  const right = rightOf(rightText);
  return expiration !== null && right !== null ? optionFields(root, expiration, right, Number(strike.replace(/,/g, ''))) : null;
}

export function parseRobinhood(text: string, options: ParseOptions): ParseResult {
  const out = new ResultCollector('robinhood', ROBINHOOD_SOURCE, 'newest-first');
  // The disclaimer row at the end (nine empty cells and a tenth with text) and rows of empty cells are not data.
  const accountName = accountFor(null, options, 'Robinhood');
  const ids = new RowIdentity();
  const readers = tableReaders(out, text, {
    isHeader: isRobinhoodHeader,
    required: REQUIRED,
    what: 'a Robinhood account activity export',
    headerHint: '"Activity Date","Process Date","Settle Date","Instrument","Description","Trans Code","Quantity","Price","Amount"',
  });
  const actions: ActionRow[] = [];
  for (const reader of readers) {
    const code = reader.text('Trans Code').toUpperCase();
    if (ROBINHOOD_ACTION_CODES.has(code)) {
      const row = readActionRow(reader, code, ids);
      if (row !== null) actions.push(row);
    } else {
      mapRow(out, reader, accountName, ids);
    }
  }
  mapRobinhoodActions(out, actions, accountName);
  // In file order (a corporate action's transaction is added after the rows, at its first line).
  numberDeliveriesFirst([...out.transactions].sort((a, b) => a.line - b.line));
  return out.result();
}

/** The share row of an assignment or exercise: `Buy`/`Sell` described `68 AMZN Options Assigned` / `1 AMZN Option Exercised`. */
const DELIVERY = /\bOptions? (?:Assigned|Exercised)\b/i;

/**
 * The event order (docs/importers.md "Event order"): newest first, so bottom-up — except that shares an assignment or
 * exercise delivers come before the other rows of their day. A day's assignments and exercises settle together after
 * the close, listed in no order: a put spread settled in the money books the short put's shares in and the long
 * put's out, and read bottom-up the sale could come first (an unmatched sale, then a phantom long of the shares).
 * Moving a purchase earlier in its day changes nothing a sale of shares held already does (FIFO takes the oldest
 * lot first).
 */
function numberDeliveriesFirst(rows: readonly ParsedRow[]): void {
  const order = rows.map((row, index) => ({ row, index, first: row.transaction.type === 'BUY' && DELIVERY.test(row.transaction.description) }));
  order.sort((a, b) => {
    const day = a.row.transaction.tradeDate < b.row.transaction.tradeDate ? -1 : a.row.transaction.tradeDate > b.row.transaction.tradeDate ? 1 : 0;
    return day !== 0 ? day : a.first === b.first ? b.index - a.index : a.first ? -1 : 1;
  });
  order.forEach(({ row }, sequence) => {
    row.transaction.sequence = sequence;
  });
}

/**
 * A multi-line description on one line, its lines joined with ` / ` (blank lines dropped). Split, not replaced: the
 * search `\s*\r?\n\s*` read a run of blanks to its end from each of its characters (docs/importers.md §Linear time).
 */
function joinLines(text: string): string {
  if (!text.includes('\n')) return text;
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' / ');
}

/** A corporate action's row, read (its pairing and mapping: corporate-actions.ts). */
function readActionRow(reader: RowReader, code: string, ids: RowIdentity): ActionRow | null {
  const rawDate = reader.text('Activity Date');
  const day = reader.date('Activity Date', mdyToYmd);
  const rawQuantity = reader.text('Quantity');
  const surrendered = /S$/i.test(rawQuantity.trim());
  const parsed = parseNumber(rawQuantity.trim().replace(/S$/i, ''));
  if (!parsed.ok) reader.fail('Quantity', parsed.error);
  const amountMinor = reader.money('Amount');
  const rawDescription = reader.text('Description');
  const tradeDate = day === null ? null : dayToUtc(day);
  if (!reader.ok || day === null || tradeDate === null) return null;
  const instrument = reader.text('Instrument').toUpperCase();
  return {
    line: reader.line,
    code,
    day,
    tradeDate,
    instrument,
    description: joinLines(rawDescription),
    quantity: Math.abs(parsed.ok ? (parsed.value ?? 0) : 0),
    surrendered,
    amountMinor,
    option: code === 'OCA' ? parseRobinhoodOption(rawDescription) : null,
    rowId: ids.next([rawDate, instrument, rawDescription, code, rawQuantity, reader.text('Price'), reader.text('Amount')]),
  };
}

function mapRow(out: ResultCollector, reader: RowReader, accountName: string, ids: RowIdentity): void {
  const rawDate = reader.text('Activity Date');
  const day = reader.date('Activity Date', mdyToYmd);
  const instrument = reader.text('Instrument');
  const rawDescription = reader.text('Description');
  const description = joinLines(rawDescription);
  const code = reader.text('Trans Code').toUpperCase();
  // Short positions may be written `5S`.
  const rawQuantity = reader.text('Quantity').replace(/S$/i, '');
  const parsedQuantity = parseNumber(rawQuantity);
  if (!parsedQuantity.ok) reader.fail('Quantity', parsedQuantity.error);
  const quantity = parsedQuantity.ok ? (parsedQuantity.value ?? 0) : 0;
  const price = reader.money('Price');
  const amount = reader.money('Amount');
  const option = OPTION_CODES.has(code) ? parseRobinhoodOption(rawDescription) : null;
  if (OPTION_CODES.has(code) && option === null) reader.fail('Description', `no option contract in "${description}"`);
  const tradeDate = day === null ? null : dayToUtc(day);
  if (!reader.ok || tradeDate === null) return;

  let type: TransactionType | undefined = CODES[code];
  if (type === undefined) {
    type = 'OTHER';
    out.warn(reader.line, `unknown Robinhood trans code "${code}" (${description}): kept as OTHER`);
  }
  if (CASH_BY_SIGN.has(code)) type = amount >= 0 ? 'DEPOSIT' : 'WITHDRAWAL';

  let tx: RawTransaction = transaction({
    accountName,
    brokerRowId: ids.next([rawDate, instrument, rawDescription, code, rawQuantity, reader.text('Price'), reader.text('Amount')]),
    type,
    tradeDate,
    source: ROBINHOOD_SOURCE,
    symbol: instrument,
    underlying: instrument,
    quantity: Math.abs(quantity),
    priceMinor: absMinor(price),
    amountMinor: amount,
    description,
  });
  if (option) tx = withOption(tx, option);
  if (type === 'SPLIT') out.warn(reader.line, `split of ${instrument} imported from the share quantity; check it`);
  tx.feesMinor = impliedFeesMinor(tx);
  if (!tx.isOption && (type === 'BUY' || type === 'SELL') && tx.quantity > 0 && amount !== 0) {
    // Share prices are rounded in the file (to the cent, and fractional lots to fewer digits): the lot's cost is
    // the cash amount, so the price is the amount's gross per share (a sale's fee added back).
    const grossMinor = type === 'BUY' ? subMinor(absMinor(amount), tx.feesMinor) : addMinor(absMinor(amount), tx.feesMinor);
    tx.priceMinor = pricePerShareMinor(grossMinor, tx.quantity, 1);
  }
  out.add(reader.line, tx);
}

export const robinhoodImporter: BrokerImporter = {
  id: 'robinhood',
  label: BROKER_LABELS.robinhood,
  formats: 'account activity CSV (net amounts, multi-line descriptions, OEXP/OASGN/OEXCS, corporate actions SXCH/MRGS/SPR/OCA/CIL/SDIV/REC)',
  detect: headerNear(isRobinhoodHeader),
  parse: parseRobinhood,
};
