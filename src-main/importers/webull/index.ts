/**
 * Webull orders export: `Name,Symbol,Side,Status,Filled,Total Qty,Price,Avg Price,Time-in-Force,Placed Time,Filled Time`.
 * Only filled orders are trades (cancelled/failed ones are reported as skipped). Options are OCC symbols
 * (`AAPL240119P00180000`); the file says neither open/close (inferred from the running position) nor
 * expirations and assignments (inferred: an option still open after its expiration is assigned or
 * exercised when the underlying's stock trades at the strike for 100 × the contracts within four days
 * after, else it expired; every inferred row is `inferred: true` with a warning).
 * Times like `01/19/2024 15:59:12 EST` are New York time. Webull charges no commission on these; the
 * file carries no fees, so amounts are gross.
 */
import { DateTime } from 'luxon';
import type { ImportedTransaction, TransactionType } from '../../../src-shared/journal/model';
import { parseOccSymbol, occSymbol } from '../../../src-shared/journal/model';
import type { CsvRecord } from '../common/csv';
import {
  NEW_YORK,
  RowIdentity,
  ResultCollector,
  baseTransaction,
  cellAt,
  firstLines,
  grossMinor,
  headerTable,
  moneyCell,
  newYorkInstant,
  numberCell,
  parseUsDate,
} from '../common/importer-kit';
import type { BrokerImporter, ParseOptions, ParseResult } from '../types';

export const WEBULL_SOURCE = 'webull-csv';
const REQUIRED = ['Name', 'Symbol', 'Side', 'Status', 'Filled', 'Avg Price', 'Filled Time'];
/** Calendar days after expiration in which a stock fill at the strike counts as the assignment's delivery. */
const DELIVERY_WINDOW_DAYS = 4;

export function detectWebull(text: string): boolean {
  const header = firstLines(text, 1)[0] ?? '';
  return /^"?Name"?,"?Symbol"?,"?Side"?,"?Status"?,"?Filled"?/.test(header);
}

/** `01/19/2024 15:59:12 EST` (the zone label is informational: the clock is New York's). */
export function parseWebullTime(text: string): string | null {
  const match = /^(\d{1,2}\/\d{1,2}\/\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(?:EST|EDT|ET)?$/i.exec(text.trim());
  if (!match || match[1] === undefined) return null;
  const date = parseUsDate(match[1]);
  if (!date) return null;
  const hour = Number(match[2]);
  const minute = Number(match[3]);
  const second = match[4] === undefined ? 0 : Number(match[4]);
  if (hour > 23 || minute > 59 || second > 59) return null;
  return newYorkInstant(date, hour, minute, second);
}

interface Fill {
  line: number;
  tx: ImportedTransaction;
  /** + bought, − sold. */
  signed: number;
  matched: boolean;
}

export function parseWebull(text: string, options: ParseOptions): ParseResult {
  return parseWebullAsOf(text, options, new Date());
}

/** `asOf`: positions whose expiration day ended before this instant are settled by inference. */
export function parseWebullAsOf(text: string, options: ParseOptions, asOf: Date): ParseResult {
  const out = new ResultCollector('webull', WEBULL_SOURCE);
  const table = headerTable(out, text, REQUIRED);
  if (table === null) return out.result();
  const { rows, col, needed } = table;
  const accountName = options.accountName ?? 'Webull';
  const ids = new RowIdentity();
  const fills: Fill[] = [];

  for (const record of rows) {
    out.rows += 1;
    if (record.cells.length < needed) {
      out.error(record.line, `line ${record.line}: ${record.cells.length} cells where the header has ${needed} (truncated row)`);
      continue;
    }
    const fill = readFill(out, record, col, accountName, ids);
    if (fill) fills.push(fill);
  }

  // Webull lists newest first; the running position needs oldest first (file order breaks ties).
  fills.sort((a, b) => a.tx.tradeDate.localeCompare(b.tx.tradeDate) || b.line - a.line);
  const positions = new Map<string, { quantity: number; lastLine: number; template: ImportedTransaction }>();
  for (const fill of fills) {
    if (!fill.tx.isOption) {
      fill.tx.type = fill.signed > 0 ? 'BUY' : 'SELL';
      continue;
    }
    const held = positions.get(fill.tx.symbol);
    const before = held?.quantity ?? 0;
    const opening = before === 0 || Math.sign(before) === Math.sign(fill.signed);
    fill.tx.type = fill.signed > 0 ? (opening ? 'BUY_TO_OPEN' : 'BUY_TO_CLOSE') : opening ? 'SELL_TO_OPEN' : 'SELL_TO_CLOSE';
    positions.set(fill.tx.symbol, { quantity: before + fill.signed, lastLine: fill.line, template: fill.tx });
  }
  for (const fill of fills) out.add(fill.line, fill.tx);

  const asOfDay = DateTime.fromJSDate(asOf, { zone: NEW_YORK }).toISODate() ?? '';
  for (const [symbol, held] of positions) {
    const expiration = held.template.expiration;
    if (held.quantity === 0 || expiration === null || expiration >= asOfDay) continue;
    inferSettlement(out, symbol, held.quantity, held.lastLine, held.template, fills);
  }
  out.transactions.sort((a, b) => a.line - b.line);
  return out.result();
}

function readFill(
  out: ResultCollector,
  record: CsvRecord,
  col: (name: string) => number | undefined,
  accountName: string,
  ids: RowIdentity,
): Fill | null {
  const status = cellAt(record, col('Status'));
  const symbol = cellAt(record, col('Symbol')).toUpperCase();
  const side = cellAt(record, col('Side')).toLowerCase();
  if (!/^(partially )?filled$/i.test(status)) {
    out.skip(record.line, `order ${status || 'without status'} (${side} ${symbol}): not filled`);
    return null;
  }
  const filled = numberCell(out, record, col('Filled'), 'Filled', null);
  const avg = moneyCell(out, record, col('Avg Price'), 'Avg Price');
  const rawTime = cellAt(record, col('Filled Time'));
  const tradeDate = parseWebullTime(rawTime);
  if (tradeDate === null) out.error(record.line, `line ${record.line}, column "Filled Time": not a time: "${rawTime}"`);
  if (filled === null || avg === null || tradeDate === null) return null;
  if (filled === 0) {
    out.skip(record.line, `order ${status} (${side} ${symbol}) with nothing filled`);
    return null;
  }
  const buying = side === 'buy';
  if (!buying && side !== 'sell' && side !== 'short') {
    out.error(record.line, `line ${record.line}, column "Side": expected Buy, Sell or Short, got "${side}"`);
    return null;
  }
  const occ = parseOccSymbol(symbol);
  const quantity = Math.abs(filled);
  const priceMinor = Math.abs(avg);
  const tx: ImportedTransaction = {
    ...baseTransaction(WEBULL_SOURCE, accountName),
    brokerRowId: ids.next([symbol, side, rawTime, filled, cellAt(record, col('Avg Price'))]),
    symbol,
    underlying: symbol,
    quantity,
    priceMinor,
    tradeDate,
    description: cellAt(record, col('Name')) || symbol,
  };
  if (occ) {
    Object.assign(tx, {
      symbol: occSymbol(occ.root, occ.expiration, occ.right, occ.strike),
      underlying: occ.root,
      isOption: true,
      expiration: occ.expiration,
      strike: occ.strike,
      right: occ.right,
      multiplier: 100,
    });
  }
  const gross = grossMinor(priceMinor, quantity, tx.multiplier);
  tx.amountMinor = buying ? -gross : gross;
  return { line: record.line, tx, signed: buying ? quantity : -quantity, matched: false };
}

function inferSettlement(
  out: ResultCollector,
  symbol: string,
  position: number,
  line: number,
  template: ImportedTransaction,
  fills: Fill[],
): void {
  const expiration = template.expiration ?? '';
  const strike = template.strike ?? 0;
  const contracts = Math.abs(position);
  const short = position < 0;
  // Short put / long call → shares bought at the strike; short call / long put → shares sold.
  const deliveredBuy = (template.right === 'P') === short;
  const lastDay = DateTime.fromISO(expiration, { zone: NEW_YORK }).plus({ days: DELIVERY_WINDOW_DAYS }).toISODate() ?? expiration;
  const delivery = fills.find((fill) => {
    if (fill.matched || fill.tx.isOption || fill.tx.underlying !== template.underlying) return false;
    const day = DateTime.fromISO(fill.tx.tradeDate, { zone: NEW_YORK }).toISODate() ?? '';
    return (
      day >= expiration &&
      day <= lastDay &&
      fill.signed > 0 === deliveredBuy &&
      fill.tx.quantity === contracts * template.multiplier &&
      fill.tx.priceMinor === Math.round(strike * 10_000)
    );
  });
  let type: TransactionType = 'EXPIRATION';
  if (delivery) {
    delivery.matched = true;
    type = short ? 'ASSIGNMENT' : 'EXERCISE';
  }
  const [year, month, day] = expiration.split('-').map(Number);
  const tradeDate = newYorkInstant({ year: year ?? 0, month: month ?? 0, day: day ?? 0 }) ?? template.tradeDate;
  const what = type === 'EXPIRATION' ? 'expired' : type === 'ASSIGNMENT' ? 'assigned' : 'exercised';
  out.add(line, {
    ...template,
    brokerRowId: `INFERRED|${type}|${symbol}|${contracts}`,
    type,
    quantity: contracts,
    priceMinor: 0,
    amountMinor: 0,
    commissionMinor: 0,
    feesMinor: 0,
    tradeDate,
    orderId: null,
    description: `inferred: ${contracts} ${symbol} ${what}`,
    inferred: true,
  });
  const reason = delivery
    ? `the stock traded ${delivery.tx.quantity} shares at the strike on line ${delivery.line}`
    : 'no stock delivery at the strike follows';
  out.warn(line, `${contracts} ${symbol} still open after its expiration ${expiration}: inferred ${what} (${reason})`);
}

export const webullImporter: BrokerImporter = {
  id: 'webull',
  label: 'Webull orders (CSV)',
  detect: detectWebull,
  parse: parseWebull,
};
