/**
 * The Corporate Actions section of an IBKR Activity Statement (docs/importers.md §Interactive Brokers): each row moves
 * one security's shares, its Description names the action and its ratio —
 * `AAPL(US0378331005) Split 4 for 1 (AAPL, APPLE INC, US0378331005)`, `SSL(CA...) Merged(Acquisition) WITH US... 1 for 16
 * (RGLD, ROYAL GOLD INC, US...)`, `WBD(US...) Spinoff  1 for 10 (VNT, VONTIER CORP, US...)` — the old security before its
 * ISIN, the row's own security in the closing parenthesis. The rows of one action (the new shares and the old ones
 * surrendered) become one SPLIT or SYMBOL_CHANGE with the terms the description states: the ratio is IBKR's `A for B`
 * (A new per B old), the cash a merger pays is its rows' Proceeds. The action applies at the start of its Report Date
 * (the Date/Time is the evening before, after the close).
 */
import type { CorporateActionType } from '../../../src-shared/api/constants';
import type { CorporateActionTerms, RawTransaction } from '../../../src-shared/journal/model';
import { addMinor, asMinor, ZERO_MINOR, type Minor } from '../../../src-shared/money';
import type { RowReader } from '../common/cells';
import { dayToUtc, isoToYmd } from '../common/dates';
import { transaction, type ResultCollector, type RowIdentity } from '../common/result';

/** One row of the section, read. */
export interface IbkrActionRow {
  line: number;
  /** The Description without its closing `(TICKER, NAME, ISIN)`: the rows of one action share it. */
  action: string;
  description: string;
  /** The ticker before the first ISIN: the old security. */
  oldTicker: string;
  /** The row's own security (the closing parenthesis). */
  ticker: string;
  day: string;
  currency: string;
  quantity: number;
  proceedsMinor: Minor;
  rowId: string;
  isStock: boolean;
}

/** Reads a Data row of the section; null (with a note) for a row it cannot read. */
export function readIbkrActionRow(out: ResultCollector, reader: RowReader, ids: RowIdentity): IbkrActionRow | null {
  const description = reader.text('Description');
  const parts = descriptionParts(description);
  const reportDay = isoToYmd(reader.text('Report Date'));
  const timeDay = isoToYmd(reader.text('Date/Time').slice(0, 10));
  const day = reportDay ?? timeDay;
  const quantity = reader.number('Quantity', { empty: 0 });
  const proceedsMinor = reader.has('Proceeds') ? reader.money('Proceeds') : ZERO_MINOR;
  if (!reader.ok) return null;
  if (parts === null || day === null) {
    out.skip(reader.line, `corporate action "${description}" not read (no "TICKER(ISIN) action (TICKER, NAME, ISIN)" or no date): enter it by hand`);
    return null;
  }
  const { oldTicker, rest, ticker } = parts;
  return {
    line: reader.line,
    action: `${oldTicker}|${rest}`,
    description,
    oldTicker: oldTicker.toUpperCase(),
    ticker: ticker.toUpperCase(),
    day,
    currency: reader.text('Currency') || 'USD',
    quantity,
    proceedsMinor,
    rowId: ids.next(['ibkr-ca', day, description, quantity, reader.text('Proceeds')]),
    isStock: /stock/i.test(reader.text('Asset Category')),
  };
}

/**
 * `TICKER(ISIN) action... (ROW TICKER, NAME, ISIN)` cut at its parentheses (indexes, not a backtracking pattern: the
 * text is the file's): the old ticker, the action between, the row's own ticker. Null for another shape.
 */
function descriptionParts(description: string): { oldTicker: string; rest: string; ticker: string } | null {
  const text = description.trim();
  const tail = text.lastIndexOf('(');
  const first = text.indexOf('(');
  const firstClose = text.indexOf(')', first);
  if (!text.endsWith(')') || first <= 0 || tail <= firstClose || firstClose < 0) return null;
  const oldTicker = text.slice(0, first).trim();
  const ticker = (text.slice(tail + 1, -1).split(',')[0] ?? '').trim();
  if (/\s/.test(oldTicker) || oldTicker === '' || ticker === '') return null;
  return { oldTicker, rest: text.slice(firstClose + 1, tail).trim(), ticker };
}

/** IBKR's `A for B`: A new shares per B old, as a ratio (read by words: no pattern searched through the text). */
function ratioOf(text: string): number | null {
  const words = text.split(/\s+/);
  for (let i = 1; i + 1 < words.length; i += 1) {
    if ((words[i] ?? '').toLowerCase() !== 'for') continue;
    const a = Number(words[i - 1]);
    const b = Number(words[i + 1]);
    if (a > 0 && b > 0 && Number.isFinite(a) && Number.isFinite(b)) return a / b;
  }
  return null;
}

/** The kind of action and its ratio (new per old) as IBKR's description states them, or null. */
function kindOf(text: string): { type: CorporateActionType; ratio: number | null } | null {
  if (/\bSplit \d/i.test(text)) return { type: 'split', ratio: ratioOf(text) };
  if (/\bMerged\(/i.test(text)) return { type: 'merger', ratio: ratioOf(text) };
  if (/\bSpin-?off\b/i.test(text)) return { type: 'spinoff', ratio: ratioOf(text) };
  if (/\bStock Dividend\b/i.test(text)) return { type: 'stock_dividend', ratio: ratioOf(text) };
  if (/\b(?:Symbol Change|Change of Listing|Name Change|CUSIP\/ISIN Change)\b/i.test(text)) return { type: 'symbol_change', ratio: 1 };
  return null;
}

/** Maps the section's rows (read in file order) into `out`. */
export function mapIbkrActions(out: ResultCollector, rows: readonly IbkrActionRow[], accountName: string): void {
  const groups = new Map<string, IbkrActionRow[]>();
  for (const row of rows) {
    if (!row.isStock) {
      // An option's adjustment follows its underlying's action (the journal adjusts open contracts as the OCC does).
      out.skip(row.line, `option row of a corporate action ("${row.description}"): the contract is adjusted with its underlying's action`);
      continue;
    }
    const key = `${row.day}|${row.action}`;
    const list = groups.get(key);
    if (list) list.push(row);
    else groups.set(key, [row]);
  }
  for (const group of groups.values()) {
    const [first] = group;
    if (first === undefined) continue;
    const kind = kindOf(first.action);
    if (kind === null) {
      for (const row of group) out.skip(row.line, `corporate action "${row.description}" not mapped automatically: enter it by hand`);
      continue;
    }
    const received = group.filter((r) => r.quantity > 0);
    const surrendered = group.filter((r) => r.quantity < 0);
    const newRow = received.find((r) => r.ticker !== first.oldTicker) ?? received[0];
    const newTicker = newRow?.ticker ?? first.oldTicker;
    const oldQuantity = -surrendered.filter((r) => r.ticker === first.oldTicker || surrendered.length === 1).reduce((sum, r) => sum + r.quantity, 0);
    const cashMinor = group.reduce((sum, r) => addMinor(sum, r.proceedsMinor), ZERO_MINOR);
    const renamed = newTicker !== first.oldTicker;
    const type = kind.type;
    const moves = type === 'symbol_change' || type === 'merger';
    const terms: CorporateActionTerms = {
      type,
      symbol: first.oldTicker,
      newSymbol: type === 'spinoff' || renamed ? newTicker : null,
      ratio: kind.ratio,
      cashPerShareMinor: type === 'merger' && cashMinor !== 0 && oldQuantity > 0 ? asMinor(cashMinor / oldQuantity) : null,
      costFraction: null,
      quantity: type === 'spinoff' || type === 'stock_dividend' ? received.reduce((sum, r) => sum + r.quantity, 0) : null,
    };
    const net = group.filter((r) => r.ticker === newTicker).reduce((sum, r) => sum + r.quantity, 0);
    const tx: RawTransaction = transaction({
      accountName,
      brokerRowId: group.map((r) => r.rowId).join('+'),
      type: moves ? 'SYMBOL_CHANGE' : 'SPLIT',
      tradeDate: dayToUtc(first.day) ?? `${first.day}T20:00:00.000Z`,
      source: 'ibkr-activity-csv',
      symbol: type === 'spinoff' ? first.oldTicker : newTicker,
      underlying: type === 'spinoff' ? first.oldTicker : newTicker,
      quantity: moves ? received.reduce((sum, r) => sum + r.quantity, 0) : net,
      amountMinor: cashMinor,
      currency: first.currency,
      description: group.map((r) => r.description).join(' / '),
      corporateAction: terms,
    });
    if (moves || renamed) tx.previousSymbol = first.oldTicker;
    if (type === 'spinoff') out.warn(first.line, `spin-off of ${newTicker} from ${first.oldTicker}: the statement states no cost split, so the new shares start at zero basis; enter the action by hand with its costFraction to move the basis`);
    const lines = group.map((r) => r.line);
    out.add(Math.min(...lines), tx);
    if (lines.length > 1) out.merge(lines, `corporate action ${first.oldTicker} → ${newTicker} as one ${tx.type} (${type.replace('_', ' ')})`);
  }
}
