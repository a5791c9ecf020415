/**
 * The brokers' positions exports (docs/importers.md §Positions files), each found by its header's column names:
 * - Schwab: `"Positions for account Individual ...123 as of 12:33 PM ET, 2025/05/04"`, then `"Symbol","Description",
 *   "Qty (Quantity)" (older: "Quantity"),"Price",...,"Cost Basis",...,"Security Type"`; options `AAPL 03/15/2024
 *   180.00 P`; `Cash & Cash Investments` and `Account Total` rows; the all-accounts export repeats the table under
 *   each account's name;
 * - Fidelity `Portfolio_Positions_*.csv`: `Account Number,Account Name,Symbol,Description,Quantity,Last Price,...,
 *   Cost Basis Total,Average Cost Basis,Type`; options ` -AAPL240119P180`; core money market `SPAXX**` and
 *   `Pending Activity` rows; disclaimers and `Date downloaded ...` after the table;
 * - tastytrade: `Account,Symbol,Type,Quantity,Exp Date,DTE,Strike Price,Call/Put,...`, an option's symbol in OCC
 *   form or its root with Exp Date, Strike Price and Call/Put;
 * - Interactive Brokers: an Activity Statement's `Open Positions` section (Summary rows), or a Flex Query of open
 *   positions (`ClientAccountID,AssetClass,Symbol,...,Position,...,CostBasisMoney`);
 * - E*TRADE portfolio download: an `Account Summary` block, then `Symbol,Last Price $,Change $,Change %,Qty #,
 *   Price Paid $,...,Value $`; options `AAPL Jan 19 '24 $180 Put`; `CASH` and `TOTAL` rows.
 */
import { DateTime } from 'luxon';
import { NEW_YORK } from '../../../src-shared/zone';
import { Columns } from '../common/cells';
import { isBlankRecord, type CsvRecord } from '../common/csv';
import { isoToYmd, localToUtc, mdyToYmd } from '../common/dates';
import { optionFields, occOption, rightOf } from '../common/options';
import { dayEndIso } from '../common/statements';
import { nameSet } from '../common/table';
import { parseIbkrOptionSymbol } from '../ibkr/symbols';
import { statementPeriod } from '../ibkr/statements';
import { moneyCell, numberCell, positionOf, type PositionsCollector, type PositionsReader, type PositionsTable } from './common';

/** The cell of a column by any of its names ('' when absent). */
function cellOf(columns: Columns, record: CsvRecord, ...names: string[]): string {
  for (const name of names) {
    const index = columns.index(name);
    if (index !== undefined) return (record.cells[index] ?? '').trim();
  }
  return '';
}

/** A record of one filled cell (a title, an account's name, a disclaimer). */
function soleCell(record: CsvRecord): string | null {
  const filled = record.cells.map((cell) => cell.trim()).filter((cell) => cell !== '');
  return filled.length === 1 ? (filled[0] ?? null) : null;
}

/** `... as of 12:33 PM ET, 2025/05/04` → the instant. */
function schwabAsOf(title: string): string | null {
  const match = /as of (\d{1,2}:\d{2})\s*([AP]M)\s*ET,?\s*(\d{4})\/(\d{2})\/(\d{2})/i.exec(title);
  if (match === null) return null;
  const [, clock = '', meridiem = '', y, m, d] = match;
  const [hourText = '0', minute = '00'] = clock.split(':');
  let hour = Number(hourText) % 12;
  if (meridiem.toUpperCase() === 'PM') hour += 12;
  return localToUtc(`${y}-${m}-${d}`, `${hour}:${minute}`, NEW_YORK);
}

const SCHWAB: PositionsReader = {
  format: 'schwab-positions',
  label: 'Schwab positions export',
  detect: (names) => names.has('symbol') && names.has('description') && (names.has('qty (quantity)') || names.has('quantity')) && (names.has('security type') || names.has('mkt val (market value)') || names.has('market value')),
  read({ records, headerIndex, columns }, out) {
    const title = records.slice(0, headerIndex).map(soleCell).find((cell) => cell !== null && /^positions for/i.test(cell)) ?? null;
    out.statedAsOf = title === null ? null : schwabAsOf(title);
    // `Positions for account Individual ...123 as of ...`: one account; the all-accounts export names each above its table.
    let account = title === null ? null : (/^positions for account (.+?) as of /i.exec(title)?.[1]?.trim() ?? null);
    const above = records.slice(0, headerIndex).map(soleCell).filter((cell): cell is string => cell !== null && !/^positions for/i.test(cell));
    account = above[above.length - 1] ?? account;
    for (const record of records.slice(headerIndex + 1)) {
      if (isBlankRecord(record)) continue;
      const sole = soleCell(record);
      if (sole !== null) {
        account = sole;
        continue;
      }
      const symbol = cellOf(columns, record, 'Symbol');
      if (symbol === 'Symbol') continue;
      const type = cellOf(columns, record, 'Security Type');
      if (symbol === '' || /^(?:cash|account total|positions total)/i.test(symbol) || /cash and money market/i.test(type)) {
        out.skipped += 1;
        continue;
      }
      const quantity = numberCell(out, record.line, 'Qty (Quantity)', cellOf(columns, record, 'Qty (Quantity)', 'Quantity'));
      const costMinor = moneyCell(out, record.line, 'Cost Basis', cellOf(columns, record, 'Cost Basis'));
      if (quantity === null) continue;
      const position = positionOf({ line: record.line, account, symbol, quantity, costMinor });
      if (position === null) out.problem(record.line, 'Symbol', `not a ticker or an option: "${symbol}"`);
      else out.add(position);
    }
  },
};

/** `Date downloaded Apr-02-2025 10:15 a.m ET` → the instant. */
function fidelityAsOf(text: string): string | null {
  const match = /date downloaded\s+([a-z]{3}-\d{1,2}-\d{4})\s+(\d{1,2}):(\d{2})\s*([ap])\.?\s*m/i.exec(text);
  if (match === null) return null;
  const day = DateTime.fromFormat(match[1] ?? '', 'MMM-d-yyyy', { locale: 'en-US' });
  if (!day.isValid) return null;
  const hour = (Number(match[2]) % 12) + ((match[4] ?? '').toLowerCase() === 'p' ? 12 : 0);
  return localToUtc(day.toISODate() ?? '', `${hour}:${match[3] ?? '00'}`, NEW_YORK);
}

const FIDELITY: PositionsReader = {
  format: 'fidelity-positions',
  label: 'Fidelity positions export',
  detect: (names) => names.has('account number') && names.has('symbol') && names.has('quantity') && (names.has('cost basis total') || names.has('current value') || names.has('last price')),
  read({ records, headerIndex, columns }, out) {
    for (const record of records.slice(headerIndex + 1)) {
      if (isBlankRecord(record)) continue;
      const sole = soleCell(record);
      if (sole !== null) {
        out.statedAsOf ??= fidelityAsOf(sole);
        continue;
      }
      const symbol = cellOf(columns, record, 'Symbol');
      const quantityText = cellOf(columns, record, 'Quantity');
      if (symbol === '' || symbol.includes('**') || /pending activity/i.test(symbol) || quantityText === '') {
        out.skipped += 1;
        continue;
      }
      const quantity = numberCell(out, record.line, 'Quantity', quantityText);
      const costMinor = moneyCell(out, record.line, 'Cost Basis Total', cellOf(columns, record, 'Cost Basis Total'));
      if (quantity === null) continue;
      // The account as the transactions import names it: `Brokerage 333333333`.
      const name = cellOf(columns, record, 'Account Name');
      const number = cellOf(columns, record, 'Account Number');
      const account = name !== '' && number !== '' && !name.includes(number) ? `${name} ${number}` : name || number || null;
      const position = positionOf({ line: record.line, account, symbol, quantity, costMinor });
      if (position === null) out.problem(record.line, 'Symbol', `not a ticker or an option: "${symbol}"`);
      else out.add(position);
    }
  },
};

/** `3/21/25`, `2025-03-21`, `Mar 21, 2025`, `21 Mar 2025` → YYYY-MM-DD. */
function anyDate(text: string): string | null {
  const trimmed = text.trim();
  const direct = mdyToYmd(trimmed) ?? isoToYmd(trimmed);
  if (direct !== null) return direct;
  for (const layout of ['MMM d, yyyy', 'MMM d yyyy', 'd MMM yyyy', 'MMM d, yy']) {
    const day = DateTime.fromFormat(trimmed, layout, { locale: 'en-US' });
    if (day.isValid) return day.toISODate();
  }
  return null;
}

const TASTYTRADE: PositionsReader = {
  format: 'tastytrade-positions',
  label: 'tastytrade positions export',
  detect: (names) => names.has('account') && names.has('symbol') && names.has('type') && names.has('quantity') && (names.has('exp date') || names.has('call/put') || names.has('strike price')),
  read({ records, headerIndex, columns }, out) {
    for (const record of records.slice(headerIndex + 1)) {
      if (isBlankRecord(record) || soleCell(record) !== null) continue;
      const symbol = cellOf(columns, record, 'Symbol');
      const type = cellOf(columns, record, 'Type');
      if (symbol === '' || /future|crypto/i.test(type)) {
        out.skipped += 1;
        continue;
      }
      const quantity = numberCell(out, record.line, 'Quantity', cellOf(columns, record, 'Quantity'));
      const costMinor = moneyCell(out, record.line, 'Cost', cellOf(columns, record, 'Cost'));
      if (quantity === null) continue;
      let option = occOption(symbol);
      const expText = cellOf(columns, record, 'Exp Date');
      if (option === null && expText !== '') {
        const expiration = anyDate(expText);
        const right = rightOf(cellOf(columns, record, 'Call/Put'));
        const strike = Number(cellOf(columns, record, 'Strike Price').replace(/[$,]/g, ''));
        option = expiration === null || right === null ? null : optionFields(symbol.split(/\s+/)[0] ?? symbol, expiration, right, strike);
        if (option === null) {
          out.problem(record.line, 'Exp Date', `an option without a readable expiration, strike and right: "${expText}"`);
          continue;
        }
      }
      const position = positionOf({ line: record.line, account: cellOf(columns, record, 'Account') || null, symbol, quantity, costMinor, option });
      if (position === null) out.problem(record.line, 'Symbol', `not a ticker or an option: "${symbol}"`);
      else out.add(position);
    }
  },
};

/** An IBKR category the journal keeps: options and shares. */
function ibkrKind(category: string): 'option' | 'stock' | null {
  if (/option|^opt$/i.test(category)) return 'option';
  if (/^(?:stocks?|etfs?|stk)$/i.test(category)) return 'stock';
  return null;
}

const IBKR_STATEMENT: PositionsReader = {
  format: 'ibkr-open-positions',
  label: 'IBKR Activity Statement (Open Positions)',
  detect: (names) => names.has('statement') && names.has('header') && names.has('field name'),
  read({ records }, out) {
    const period = statementPeriod(records);
    out.statedAsOf = period === null ? null : dayEndIso(period.to);
    const account = records.find((record) => record.cells[0] === 'Account Information' && record.cells[2] === 'Account')?.cells[3]?.trim() ?? null;
    let columns: Columns | null = null;
    for (const record of records) {
      if (record.cells[0] !== 'Open Positions') continue;
      if (record.cells[1] === 'Header') {
        columns = new Columns(record.cells, 2);
        continue;
      }
      const header = columns;
      if (record.cells[1] !== 'Data' || header === null) continue;
      const cell = (name: string) => cellOf(header, record, name);
      const kind = ibkrKind(cell('Asset Category'));
      if ((cell('DataDiscriminator') !== '' && cell('DataDiscriminator') !== 'Summary') || kind === null) {
        out.skipped += 1;
        continue;
      }
      const quantity = numberCell(out, record.line, 'Quantity', cell('Quantity'));
      const costMinor = moneyCell(out, record.line, 'Cost Basis', cell('Cost Basis'));
      const multiplier = numberCell(out, record.line, 'Mult', cell('Mult'));
      if (quantity === null) continue;
      const option = kind === 'option' ? parseIbkrOptionSymbol(cell('Symbol')) : null;
      if (kind === 'option' && option === null) {
        out.problem(record.line, 'Symbol', `not an IBKR option: "${cell('Symbol')}"`);
        continue;
      }
      const position = positionOf({ line: record.line, account, symbol: cell('Symbol'), quantity, costMinor, currency: cell('Currency') || 'USD', option, ...(multiplier === null ? {} : { multiplier }) });
      if (position === null) out.problem(record.line, 'Symbol', `not a ticker: "${cell('Symbol')}"`);
      else out.add(position);
    }
    if (columns === null) out.problem(1, null, 'this Activity Statement has no Open Positions section: include "Open Positions" when you run the statement');
  },
};

const IBKR_FLEX: PositionsReader = {
  format: 'ibkr-flex-positions',
  label: 'IBKR Flex Query (open positions)',
  detect: (names) => names.has('symbol') && names.has('assetclass') && (names.has('position') || names.has('quantity')) && (names.has('costbasismoney') || names.has('costbasisprice') || names.has('markprice')),
  read({ records, headerIndex, columns }, out) {
    for (const record of records.slice(headerIndex + 1)) {
      if (isBlankRecord(record)) continue;
      // A Flex file of several sections repeats its header: a row of the same names.
      if (nameSet(record.cells).has('assetclass')) continue;
      const kind = ibkrKind(cellOf(columns, record, 'AssetClass'));
      if (kind === null) {
        out.skipped += 1;
        continue;
      }
      const symbol = cellOf(columns, record, 'Symbol');
      const quantity = numberCell(out, record.line, 'Position', cellOf(columns, record, 'Position', 'Quantity'));
      const costMinor = moneyCell(out, record.line, 'CostBasisMoney', cellOf(columns, record, 'CostBasisMoney'));
      const multiplier = numberCell(out, record.line, 'Multiplier', cellOf(columns, record, 'Multiplier'));
      if (quantity === null) continue;
      let option = kind === 'option' ? (occOption(symbol) ?? parseIbkrOptionSymbol(symbol)) : null;
      if (kind === 'option' && option === null) {
        const expiration = isoToYmd(cellOf(columns, record, 'Expiry'));
        const right = rightOf(cellOf(columns, record, 'Put/Call'));
        const strike = Number(cellOf(columns, record, 'Strike'));
        option = expiration === null || right === null ? null : optionFields(cellOf(columns, record, 'UnderlyingSymbol'), expiration, right, strike);
        if (option === null) {
          out.problem(record.line, 'Symbol', `an option without a readable contract: "${symbol}"`);
          continue;
        }
      }
      const position = positionOf({
        line: record.line,
        account: cellOf(columns, record, 'ClientAccountID') || null,
        symbol,
        quantity,
        costMinor,
        currency: cellOf(columns, record, 'CurrencyPrimary', 'Currency') || 'USD',
        option,
        ...(multiplier === null ? {} : { multiplier }),
      });
      if (position === null) out.problem(record.line, 'Symbol', `not a ticker: "${symbol}"`);
      else out.add(position);
    }
  },
};

const ETRADE: PositionsReader = {
  format: 'etrade-positions',
  label: 'E*TRADE portfolio download',
  detect: (names) => names.has('symbol') && names.has('qty #') && (names.has('price paid $') || names.has('value $')),
  read({ records, headerIndex, columns }, out) {
    // `Account,Net Account Value,...` then `Individual Brokerage -4821,...`: the account of the download.
    const summary = records.slice(0, headerIndex).findIndex((record) => record.cells[0]?.trim() === 'Account');
    const account = summary < 0 ? null : (records[summary + 1]?.cells[0]?.trim() ?? null) || null;
    for (const record of records.slice(headerIndex + 1)) {
      if (isBlankRecord(record) || soleCell(record) !== null) continue;
      const symbol = cellOf(columns, record, 'Symbol');
      if (symbol === '' || /^(?:cash|total)$/i.test(symbol)) {
        out.skipped += 1;
        continue;
      }
      const quantity = numberCell(out, record.line, 'Qty #', cellOf(columns, record, 'Qty #'));
      const paidMinor = moneyCell(out, record.line, 'Price Paid $', cellOf(columns, record, 'Price Paid $'));
      if (quantity === null) continue;
      const position = positionOf({ line: record.line, account, symbol, quantity, costMinor: null });
      if (position === null) {
        out.problem(record.line, 'Symbol', `not a ticker or an option: "${symbol}"`);
        continue;
      }
      // Price Paid is per share (per share of the underlying for an option): the cost is it × the units held.
      out.add({ ...position, costMinor: paidMinor === null ? null : Math.round(paidMinor * Math.abs(quantity) * position.multiplier) });
    }
  },
};

/** Tried in this order, before the generic `symbol,quantity` CSV (a broker's header has those names too). */
export const BROKER_POSITION_READERS: readonly PositionsReader[] = [IBKR_STATEMENT, IBKR_FLEX, FIDELITY, TASTYTRADE, SCHWAB, ETRADE];

export type { PositionsTable, PositionsCollector };
