/**
 * Webull orders export: `Name,Symbol,Side,Status,Filled,Total Qty,Price,Avg Price,Time-in-Force,Placed Time,Filled Time`.
 * - What filled is a trade, whatever the order's final status: `Filled` 20 of a `Cancelled` order of 100 is a fill
 *   of 20. Orders with nothing filled are skipped with a reason.
 * - Multi-leg strategies come as a parent row (`GLD Vertical`, `VIX IronCondor`, `GLD CoveredStock`: a Name and no
 *   Symbol, the net price of the combination) followed by one row per leg (no Name): the legs are the fills; the
 *   parent is skipped with a reason.
 * - Options are OCC symbols (`AAPL240119P00180000`) or written out (`SPY 09/23/2022 00:00:00 EDT Call $371.00`, in
 *   Symbol or in Name); a Symbol that is neither an option nor a ticker is an error, never a silent stock trade.
 * - The file says neither open/close (inferred from the running position) nor expirations and assignments
 *   (inferred: an option still open after its expiration is assigned or exercised when the underlying's stock
 *   trades at the strike for 100 × the contracts within four days after, else it expired; every inferred row is
 *   `inferred: true` with a warning).
 * Times like `01/19/2024 15:59:12 EST` are New York time. The file carries no fees, so amounts are gross.
 */
import type { RawTransaction, TransactionType } from '../../../src-shared/journal/model';
import { grossMinor, inferOptionFill } from '../common/amounts';
import type { RowReader } from '../common/cells';
import { addDays, parseInstantMs } from '../../../src-shared/calendar';
import { dateInZone, NEW_YORK, todayIn } from '../../../src-shared/zone';
import { clockTo24h, dayToUtc, localToUtc, mdyToYmd } from '../common/dates';
import { occOption, optionFields, rightOf, withOption, type OptionFields } from '../common/options';
import { ResultCollector, RowIdentity, accountFor, transaction } from '../common/result';
import { headerNear, tableReaders } from '../common/table';
import type { BrokerImporter, ParseOptions, ParseResult } from '../types';
import { BROKER_LABELS } from '../../../src-shared/api/constants';
import { ZERO_MINOR, MINOR_PER_UNIT, absMinor, negMinor } from '../../../src-shared/money';

export const WEBULL_SOURCE = 'webull-csv';
const REQUIRED = ['Name', 'Symbol', 'Side', 'Status', 'Filled', 'Avg Price', 'Filled Time'];
/** Calendar days after expiration in which a stock fill at the strike counts as the assignment's delivery. */
const DELIVERY_WINDOW_DAYS = 4;

function isWebullHeader(names: Set<string>): boolean {
  return ['name', 'symbol', 'side', 'status', 'filled'].every((name) => names.has(name));
}

/** `01/19/2024 15:59:12 EST` (the zone label is informational: the clock is New York's). */
export function parseWebullTime(text: string): string | null {
  const match = /^(\S+)\s+(\d{1,2}:\d{2}(?::\d{2})?)\s*(?:EST|EDT|ET)?$/i.exec(text.trim());
  const ymd = match?.[1] === undefined ? null : mdyToYmd(match[1]);
  const clock = match?.[2] === undefined ? null : clockTo24h(match[2]);
  return ymd === null || clock === null ? null : localToUtc(ymd, clock, NEW_YORK);
}

/** `SPY 09/23/2022 00:00:00 EDT Call $371.00` (Webull's written-out contract) → OCC fields. */
export function parseWebullOptionText(text: string): OptionFields | null {
  const match = /^([A-Z0-9.]+)\s+(\d{1,2}\/\d{1,2}\/\d{4})(?:\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s+[A-Z]{2,4})?)?\s+(Call|Put)\s+\$?([\d,]+(?:\.\d+)?)$/i.exec(text.trim());
  if (!match) return null;
  const [, root = '', date = '', rightText = '', strike = ''] = match;
  const expiration = mdyToYmd(date);
  const right = rightOf(rightText);
  return expiration !== null && right !== null ? optionFields(root, expiration, right, Number(strike.replace(/,/g, ''))) : null;
}

const TICKER = /^[A-Z][A-Z0-9.\-/]{0,11}$/;
/** Index option roots settled in cash: no shares are delivered, and the orders export has no settlement row. */
const CASH_SETTLED = /^(?:SPX|SPXW|XSP|NDX|NDXP|RUT|RUTW|VIX|VIXW|DJX|OEX|XEO|MRUT)$/;

interface Fill {
  line: number;
  tx: RawTransaction;
  /** + bought, − sold. */
  signed: number;
  /** Side `Short`: a short sale of shares. */
  short: boolean;
  matched: boolean;
}

export function parseWebull(text: string, options: ParseOptions): ParseResult {
  const out = new ResultCollector('webull', WEBULL_SOURCE, 'newest-first');
  const accountName = accountFor(null, options, 'Webull');
  const ids = new RowIdentity();
  const fills: Fill[] = [];
  const readers = tableReaders(out, text, {
    isHeader: isWebullHeader,
    required: REQUIRED,
    what: 'a Webull orders export',
    headerHint: 'Name,Symbol,Side,Status,Filled,Total Qty,Price,Avg Price,Time-in-Force,Placed Time,Filled Time',
  });
  for (const reader of readers) {
    const fill = readFill(out, reader, accountName, ids);
    if (fill) fills.push(fill);
  }
  if (out.errors.length > 0) return out.result();

  // Webull lists newest first; the running position needs oldest first (file order breaks ties).
  fills.sort((a, b) => a.tx.tradeDate.localeCompare(b.tx.tradeDate) || b.line - a.line);
  const positions = new Map<string, number>();
  const shares = new Map<string, number>();
  const lastFill = new Map<string, Fill>();
  for (const fill of fills) {
    if (!fill.tx.isOption) {
      // Side Short sells short; a buy while the shares are short covers them.
      const held = shares.get(fill.tx.symbol) ?? 0;
      shares.set(fill.tx.symbol, held + fill.signed);
      fill.tx.type = fill.signed > 0 ? (held < 0 ? 'BUY_TO_COVER' : 'BUY') : fill.short ? 'SELL_SHORT' : 'SELL';
      continue;
    }
    fill.tx.type = inferOptionFill(positions, fill.tx.symbol, fill.signed);
    lastFill.set(fill.tx.symbol, fill);
  }
  for (const fill of fills) out.add(fill.line, fill.tx);

  const asOfDay = todayIn(NEW_YORK, options.asOf ?? new Date());
  for (const [symbol, held] of positions) {
    const last = lastFill.get(symbol);
    const expiration = last?.tx.expiration ?? null;
    if (held === 0 || last === undefined || expiration === null || expiration >= asOfDay) continue;
    inferSettlement(out, symbol, held, last, fills);
  }
  return out.result();
}

/** The contract or ticker a row trades: OCC or written-out Symbol, a written-out Name, else a ticker. */
function instrumentOf(reader: RowReader): { option: OptionFields | null; ticker: string } | null {
  const symbol = reader.text('Symbol').toUpperCase();
  const option = occOption(symbol) ?? parseWebullOptionText(reader.text('Symbol')) ?? parseWebullOptionText(reader.text('Name'));
  if (option !== null) return { option, ticker: option.underlying };
  if (!TICKER.test(symbol)) {
    reader.fail('Symbol', `neither a ticker nor an option contract: "${reader.text('Symbol')}"`);
    return null;
  }
  return { option: null, ticker: symbol };
}

function readFill(out: ResultCollector, reader: RowReader, accountName: string, ids: RowIdentity): Fill | null {
  const status = reader.text('Status');
  const name = reader.text('Name');
  const symbolText = reader.text('Symbol');
  const side = reader.text('Side').toLowerCase();
  if (symbolText === '' && name !== '') {
    out.skip(reader.line, `strategy order "${name}" (${status}): its legs follow on their own lines`);
    return null;
  }
  const filled = reader.number('Filled', { required: true });
  if (!reader.ok) return null;
  if (filled === 0) {
    out.skip(reader.line, `order ${status || 'without status'} (${side} ${symbolText}): nothing filled`);
    return null;
  }
  const avg = reader.money('Avg Price', { required: true });
  const rawTime = reader.text('Filled Time');
  const tradeDate = parseWebullTime(rawTime);
  if (tradeDate === null) reader.fail('Filled Time', `not a time: "${rawTime}"`);
  const buying = side === 'buy';
  if (!buying && side !== 'sell' && side !== 'short') reader.fail('Side', `expected Buy, Sell or Short, got "${reader.text('Side')}"`);
  const instrument = instrumentOf(reader);
  if (!reader.ok || tradeDate === null || instrument === null) return null;
  if (/cancel|fail|expire|reject/i.test(status)) out.warn(reader.line, `order ${status} after ${filled} of ${reader.text('Total Qty') || '?'} filled: the ${filled} filled are a trade`);
  const quantity = Math.abs(filled);
  const priceMinor = absMinor(avg);
  let tx = transaction({
    accountName,
    brokerRowId: ids.next([symbolText, side, rawTime, reader.text('Filled'), reader.text('Avg Price')]),
    type: 'OTHER',
    tradeDate,
    source: WEBULL_SOURCE,
    symbol: instrument.ticker,
    underlying: instrument.ticker,
    quantity,
    priceMinor,
    description: name || symbolText,
  });
  if (instrument.option) tx = withOption(tx, instrument.option);
  const gross = grossMinor(priceMinor, quantity, tx.multiplier);
  tx.amountMinor = buying ? negMinor(gross) : gross;
  return { line: reader.line, tx, signed: buying ? quantity : -quantity, short: side === 'short', matched: false };
}

function inferSettlement(out: ResultCollector, symbol: string, position: number, last: Fill, fills: Fill[]): void {
  const template = last.tx;
  const expiration = template.expiration ?? '';
  const strike = template.strike ?? 0;
  const contracts = Math.abs(position);
  const short = position < 0;
  // Short put / long call → shares bought at the strike; short call / long put → shares sold.
  const deliveredBuy = (template.right === 'P') === short;
  const lastDay = addDays(expiration, DELIVERY_WINDOW_DAYS);
  const delivery = fills.find((fill) => {
    if (fill.matched || fill.tx.isOption || fill.tx.underlying !== template.underlying) return false;
    const day = dateInZone(parseInstantMs(fill.tx.tradeDate), NEW_YORK);
    return (
      day >= expiration &&
      day <= lastDay &&
      fill.signed > 0 === deliveredBuy &&
      fill.tx.quantity === contracts * template.multiplier &&
      fill.tx.priceMinor === Math.round(strike * MINOR_PER_UNIT)
    );
  });
  let type: TransactionType = 'EXPIRATION';
  if (delivery) {
    delivery.matched = true;
    type = short ? 'ASSIGNMENT' : 'EXERCISE';
  }
  const what = type === 'EXPIRATION' ? 'expired' : type === 'ASSIGNMENT' ? 'assigned' : 'exercised';
  out.add(last.line, {
    ...template,
    brokerRowId: `INFERRED|${type}|${symbol}|${contracts}`,
    type,
    quantity: contracts,
    priceMinor: ZERO_MINOR,
    amountMinor: ZERO_MINOR,
    commissionMinor: ZERO_MINOR,
    feesMinor: ZERO_MINOR,
    tradeDate: dayToUtc(expiration) ?? template.tradeDate,
    orderId: null,
    description: `inferred: ${contracts} ${symbol} ${what}`,
    inferred: true,
  });
  const reason = delivery
    ? `the stock traded ${delivery.tx.quantity} shares at the strike on line ${delivery.line}`
    : CASH_SETTLED.test(template.underlying)
      ? 'cash-settled index option: a settlement amount, if it was in the money, is not in the orders export; check it'
      : 'no stock delivery at the strike follows';
  out.warn(last.line, `${contracts} ${symbol} still open after its expiration ${expiration}: inferred ${what} (${reason})`);
}

export const webullImporter: BrokerImporter = {
  id: 'webull',
  label: BROKER_LABELS.webull,
  formats: 'orders CSV (fills incl. partial fills of cancelled orders, strategy legs; expirations and assignments inferred and flagged)',
  detect: headerNear(isWebullHeader),
  parse: parseWebull,
};
