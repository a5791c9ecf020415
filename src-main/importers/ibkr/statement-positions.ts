/**
 * What an IBKR Activity Statement says about its options beyond the trades: the period's end, the positions held at
 * its start (implied when the export has no open/close codes) and the contract sizes. activity.ts reads the trades
 * with them.
 */
import { DateTime } from 'luxon';
import { Columns, parseNumber } from '../common/cells';
import type { CsvRecord } from '../common/csv';
import { parseIbkrOptionSymbol } from './symbols';

/** The last day of `Statement,Data,Period,"January 5, 2021 - December 31, 2021"`, as YYYY-MM-DD. */
export function statementPeriodEnd(records: CsvRecord[]): string | null {
  for (const record of records) {
    if (record.cells[0] !== 'Statement' || record.cells[2] !== 'Period') continue;
    const last = (record.cells[3] ?? '').split(' - ').pop() ?? '';
    const date = DateTime.fromFormat(last.trim(), 'MMMM d, yyyy', { locale: 'en-US' });
    return date.isValid ? date.toISODate() : null;
  }
  return null;
}

/**
 * Statements exported without O/C codes (the fixtures' trades-only export keeps only A, C, Ep) leave
 * opening vs closing to be inferred from the running position, which is unknown at the period start. An
 * option that expired before the period ended must be flat at its end, so its position at the start is
 * minus the file's net quantity (a lone buy of a put sold last year is a close, not an open).
 */
export function impliedStartPositions(records: CsvRecord[], periodEnd: string | null): Map<string, number> {
  const starts = new Map<string, number>();
  if (periodEnd === null) return starts;
  let columns: Columns | null = null;
  const net = new Map<string, number>();
  for (const record of records) {
    if (record.cells[0] !== 'Trades') continue;
    if (record.cells[1] === 'Header') columns = new Columns(record.cells, 2);
    if (record.cells[1] !== 'Data' || columns === null) continue;
    const cell = (name: string): string => record.cells[columns?.index(name) ?? -1]?.trim() ?? '';
    const discriminator = cell('DataDiscriminator');
    if (!/option/i.test(cell('Asset Category')) || (discriminator !== '' && discriminator !== 'Order' && discriminator !== 'Trade')) continue;
    const option = parseIbkrOptionSymbol(cell('Symbol'));
    const quantity = parseNumber(cell('Quantity'));
    if (!option || !quantity.ok || quantity.value === null || option.expiration >= periodEnd) continue;
    net.set(option.symbol, (net.get(option.symbol) ?? 0) + quantity.value);
  }
  for (const [symbol, quantity] of net) if (quantity !== 0) starts.set(symbol, -quantity);
  return starts;
}

/** An option's contract size and underlying, where the statement says them (adjusted options differ from 100). */
export interface ContractSize {
  multiplier: number;
  underlying: string | null;
}

/**
 * Contract sizes of the statement's options: its Financial Instrument Information section (Multiplier, and the
 * Underlying where the section has the column), else what each option's own trades show, Proceeds / (quantity ×
 * price) when that is a whole number other than 100 (an adjusted option, `OPEN1 17OCT25 9 C` after a corporate
 * action: 50 in the case seen). Its expiration row (price 0) then uses the same size.
 */
export function contractSizes(records: readonly CsvRecord[]): Map<string, ContractSize> {
  const sizes = new Map<string, ContractSize>();
  const derived = new Map<string, number>();
  let info: Columns | null = null;
  let trades: Columns | null = null;
  for (const record of records) {
    const [section, kind] = record.cells;
    if (kind === 'Header' && section === 'Financial Instrument Information') info = new Columns(record.cells, 2);
    if (kind === 'Header' && section === 'Trades') trades = new Columns(record.cells, 2);
    if (kind !== 'Data') continue;
    const columns = section === 'Financial Instrument Information' ? info : section === 'Trades' ? trades : null;
    if (columns === null) continue;
    const cell = (name: string): string => record.cells[columns.index(name) ?? -1]?.trim() ?? '';
    if (!/option/i.test(cell('Asset Category'))) continue;
    const symbol = cell('Symbol');
    if (section === 'Financial Instrument Information') {
      const multiplier = parseNumber(cell('Multiplier'));
      if (multiplier.ok && multiplier.value !== null && multiplier.value > 0) sizes.set(symbol, { multiplier: multiplier.value, underlying: cell('Underlying') || null });
      continue;
    }
    const [quantity, price, proceeds] = [parseNumber(cell('Quantity')), parseNumber(cell('T. Price')), parseNumber(cell('Proceeds'))];
    if (!quantity.ok || !price.ok || !proceeds.ok || !quantity.value || !price.value || !proceeds.value) continue;
    const ratio = Math.abs(proceeds.value) / (Math.abs(quantity.value) * Math.abs(price.value));
    const whole = Math.round(ratio);
    if (whole > 0 && whole !== 100 && Math.abs(ratio - whole) <= whole * 0.005) derived.set(symbol, whole);
  }
  for (const [symbol, multiplier] of derived) if (!sizes.has(symbol)) sizes.set(symbol, { multiplier, underlying: null });
  return sizes;
}
