/**
 * What an IBKR Activity Statement states about itself (docs/importers.md §Reconciliation), for the journal to check
 * after the insert:
 * - each Trades block's own Total row (per asset category and currency; the next Total of a foreign block is IBKR's
 *   conversion into the base currency, not a figure of its rows): Proceeds + Comm/Fee (the rows' net cash),
 *   −Comm/Fee (commissions) and, where the column is there, Realized P/L;
 * - the Realized & Unrealized Performance Summary: each symbol's Realized Total, in the base currency, for the
 *   symbols the Trades section trades in the base currency (another currency's figure is converted: not comparable);
 * - Open Positions at the period's end: each Summary row (quantity, cost basis), and that the section lists them all.
 */
import { DateTime } from 'luxon';
import type { StatementRows } from '../../../src-shared/journal/statements';
import { addMinor, negMinor, ZERO_MINOR, type Minor } from '../../../src-shared/money';
import { Columns, parseMoney, parseNumber } from '../common/cells';
import type { CsvRecord } from '../common/csv';
import type { ResultCollector } from '../common/result';
import { dayEndIso, dayStartIso, moneyStatement, positionStatement } from '../common/statements';
import { parseIbkrOptionSymbol } from './symbols';

/** `Statement,Data,Period,"January 5, 2021 - December 31, 2021"` → its first and last days. */
export function statementPeriod(records: readonly CsvRecord[]): { from: string; to: string } | null {
  for (const record of records) {
    if ((record.cells[0] ?? '').replace(/^\uFEFF/, '') !== 'Statement' || record.cells[2] !== 'Period') continue;
    const parts = (record.cells[3] ?? '').split(' - ').map((part) => DateTime.fromFormat(part.trim(), 'MMMM d, yyyy', { locale: 'en-US' }));
    const first = parts[0];
    const last = parts[parts.length - 1];
    if (first?.isValid !== true || last?.isValid !== true) return null;
    const from = first.toISODate();
    const to = last.toISODate();
    return from === null || to === null ? null : { from, to };
  }
  return null;
}

/** The journal's rows of an asset category: options, shares (stocks and ETFs); null for what the importer does not map. */
function rowsOf(category: string): StatementRows | null {
  if (/option/i.test(category)) return 'options';
  if (category === 'Stocks' || category === 'ETFs') return 'stocks';
  return null;
}

/** The neutral symbol of an IBKR instrument (OCC without padding for an option), or null when unreadable. */
function neutralSymbol(category: string, symbol: string): string | null {
  if (/option/i.test(category)) return parseIbkrOptionSymbol(symbol)?.symbol ?? null;
  return symbol === '' ? null : symbol;
}

interface Context {
  accountName: string;
  baseCurrency: string;
}

/** A section's rows read by its current header (a section may repeat with another header). */
function eachRow(records: readonly CsvRecord[], section: string, visit: (record: CsvRecord, cell: (name: string) => string, kind: string) => void): boolean {
  let columns: Columns | null = null;
  let seen = false;
  for (const record of records) {
    if (record.cells[0] !== section) continue;
    const kind = (record.cells[1] ?? '').trim();
    if (kind === 'Header') {
      columns = new Columns(record.cells, 2);
      seen = true;
      continue;
    }
    const header = columns;
    if (header === null) continue;
    visit(record, (name) => (record.cells[header.index(name) ?? -1] ?? '').trim(), kind);
  }
  return seen;
}

const money = (text: string): Minor => {
  const parsed = parseMoney(text);
  return parsed.ok && parsed.value !== null ? parsed.value : ZERO_MINOR;
};

export function stateIbkrFigures(out: ResultCollector, records: readonly CsvRecord[], ctx: Context): void {
  const period = statementPeriod(records);
  if (period === null) return;
  const from = dayStartIso(period.from);
  const asOf = dayEndIso(period.to);
  if (from === null || asOf === null) return;
  const symbolCurrency = stateTradeTotals(out, records, ctx, from, asOf);
  stateRealizedSummary(out, records, ctx, from, asOf, symbolCurrency);
  stateOpenPositions(out, records, ctx, asOf, symbolCurrency);
}

/** The Trades blocks' own totals; returns the currency each traded symbol is in. */
function stateTradeTotals(out: ResultCollector, records: readonly CsvRecord[], ctx: Context, from: string, asOf: string): Map<string, string> {
  const symbolCurrency = new Map<string, string>();
  const groups = new Map<string, { rows: StatementRows; currency: string; line: number; labels: Set<string>; cashMinor: Minor; commMinor: Minor; realizedMinor: Minor | null }>();
  let last = { category: '', currency: '' };
  let consumed = true;
  eachRow(records, 'Trades', (record, cell, kind) => {
    const category = cell('Asset Category');
    const currency = cell('Currency');
    const discriminator = cell('DataDiscriminator');
    if (kind === 'Data' && (discriminator === '' || discriminator === 'Order' || discriminator === 'Trade')) {
      last = { category, currency };
      consumed = false;
      const symbol = neutralSymbol(category, cell('Symbol'));
      if (symbol !== null) symbolCurrency.set(symbol, currency);
      return;
    }
    if (kind !== 'Total' || consumed || category !== last.category || currency !== last.currency) return;
    consumed = true;
    const rows = rowsOf(category);
    if (rows === null) return;
    const comm = cell('Comm/Fee');
    const realizedText = cell('Realized P/L');
    const key = `${rows}|${currency}`;
    const group = groups.get(key) ?? { rows, currency, line: record.line, labels: new Set<string>(), cashMinor: ZERO_MINOR, commMinor: ZERO_MINOR, realizedMinor: realizedText === '' ? null : ZERO_MINOR };
    group.labels.add(category);
    group.cashMinor = addMinor(group.cashMinor, money(cell('Proceeds')), money(comm));
    group.commMinor = addMinor(group.commMinor, money(comm));
    group.realizedMinor = group.realizedMinor === null || realizedText === '' ? null : addMinor(group.realizedMinor, money(realizedText));
    groups.set(key, group);
  });
  for (const group of groups.values()) {
    const what = `Trades Total (${[...group.labels].join(', ')}, ${group.currency})`;
    const common = { line: group.line, asOf, from, currency: group.currency, accountName: ctx.accountName, rows: group.rows };
    out.state(moneyStatement({ ...common, what: 'cash_total', label: `${what}: Proceeds + Comm/Fee`, valueMinor: group.cashMinor }));
    out.state(moneyStatement({ ...common, what: 'commissions', label: `${what}: Comm/Fee`, valueMinor: negMinor(group.commMinor) }));
    if (group.realizedMinor !== null) out.state(moneyStatement({ ...common, what: 'realized_pl', label: `${what}: Realized P/L`, valueMinor: group.realizedMinor }));
  }
  return symbolCurrency;
}

/** Each symbol's Realized Total of the Realized & Unrealized Performance Summary, where it is in the symbol's own currency. */
function stateRealizedSummary(out: ResultCollector, records: readonly CsvRecord[], ctx: Context, from: string, asOf: string, symbolCurrency: ReadonlyMap<string, string>): void {
  eachRow(records, 'Realized & Unrealized Performance Summary', (record, cell, kind) => {
    const category = cell('Asset Category');
    if (kind !== 'Data' || /^total/i.test(category) || rowsOf(category) === null) return;
    const symbol = neutralSymbol(category, cell('Symbol'));
    const realized = parseMoney(cell('Realized Total'));
    if (symbol === null || !realized.ok || realized.value === null || symbolCurrency.get(symbol) !== ctx.baseCurrency) return;
    out.state(
      moneyStatement({
        what: 'realized_pl',
        label: `Realized & Unrealized Performance Summary: ${cell('Symbol')} Realized Total`,
        line: record.line,
        asOf,
        from,
        currency: ctx.baseCurrency,
        accountName: ctx.accountName,
        rows: 'trades',
        symbol,
        valueMinor: realized.value,
      }),
    );
  });
}

/** Open Positions at the period's end: each Summary row, and one statement per currency that the section lists them all. */
function stateOpenPositions(out: ResultCollector, records: readonly CsvRecord[], ctx: Context, asOf: string, symbolCurrency: ReadonlyMap<string, string>): void {
  const currencies = new Set<string>([ctx.baseCurrency, ...symbolCurrency.values()]);
  const headerLine = records.find((record) => record.cells[0] === 'Open Positions' && record.cells[1] === 'Header')?.line ?? null;
  const present = eachRow(records, 'Open Positions', (record, cell, kind) => {
    const category = cell('Asset Category');
    const discriminator = cell('DataDiscriminator');
    if (kind !== 'Data' || (discriminator !== '' && discriminator !== 'Summary')) return;
    const rows = rowsOf(category);
    const symbol = neutralSymbol(category, cell('Symbol'));
    const quantity = parseNumber(cell('Quantity'));
    const currency = cell('Currency');
    if (rows === null || symbol === null || !quantity.ok || quantity.value === null) return;
    currencies.add(currency);
    const cost = parseMoney(cell('Cost Basis'));
    out.state(
      positionStatement({
        label: `Open Positions: ${cell('Symbol')}`,
        line: record.line,
        asOf,
        currency,
        accountName: ctx.accountName,
        rows,
        symbol,
        quantity: quantity.value,
        costMinor: cost.ok ? cost.value : null,
      }),
    );
  });
  if (!present) return;
  for (const currency of [...currencies].sort()) {
    out.state(positionStatement({ label: 'Open Positions: nothing else held', line: headerLine, asOf, currency, accountName: ctx.accountName, symbol: null, quantity: 0 }));
  }
}
