/**
 * What a thinkorswim statement states about itself (DESIGN §5 "Reconciliation"), read from its own sections:
 *
 * - the statement's period, from its title line (`Account Statement for 12345678SCHW (margin) since 1/2/24 through 3/28/24`);
 * - Cash Balance's `TOTAL` row: AMOUNT, Misc Fees and Commissions & Fees over the period → `cash_total` (the net cash
 *   of the rows, which is also the change in BALANCE);
 * - Equities (`Symbol,Description,Qty,Trade Price,Mark,Mark Value`), Options (`Symbol,Option Code,Exp,Strike,Type,Qty,
 *   ...`) and Futures Options: the positions held at the statement's end → `position` (an instrument the statement's
 *   rows trade and a present section does not list is flat: quantity 0);
 * - Profits and Losses' `OVERALL TOTALS`: P/L YTD less P/L Open is the year's realized P&L, before commissions and
 *   fees (a real paperMoney statement's P/L Day is its fills' gross cash plus P/L Open, to the cent) → `realized_pl`
 *   from 1 January of the statement's last year, `grossOfCosts`;
 * - Account Summary's `Total Commissions & Fees YTD` → `commissions` from 1 January.
 *
 * The sections also tell the importer what the account holds at the end (short sales written as plain sales,
 * options bought or sold without an open/close effect: positions.ts).
 */
import type { OptionRight } from '../../../src-shared/journal/model';
import { occSymbol } from '../../../src-shared/journal/model';
import type { FileStatement } from '../../../src-shared/journal/statements';
import { ZERO_MINOR, absMinor, subMinor, type Minor } from '../../../src-shared/money';
import { parseMoney, parseNumber, type Columns } from '../common/cells';
import type { CsvRecord } from '../common/csv';
import { dayMonYyToYmd, localToUtc, mdyToYmd } from '../common/dates';
import { isTotalsRow } from '../common/table';
import { findSection, type Section } from './schema';

export interface HeldOption {
  symbol: string;
  root: string;
  expiration: string;
  strike: number;
  right: OptionRight;
  multiplier: number;
  /** Signed contracts. */
  quantity: number;
  line: number;
}

export interface StatementFacts {
  /** `YYYY-MM-DD` of `since` and `through`, null when the title does not say. */
  since: string | null;
  through: string | null;
  /** Stocks at the end, by symbol (signed shares); null when the statement has no Equities section with a header. */
  stocks: Map<string, { quantity: number; line: number }> | null;
  /** Options at the end, by OCC symbol; null when the statement has neither an Options nor a Futures Options section. */
  options: Map<string, HeldOption> | null;
  /** Profits and Losses: each symbol's Mark Value at the end (0: nothing of it held), null without the section. */
  markValues: Map<string, Minor> | null;
  /** The Equities / Options section's title line, for the statements. */
  stocksLine: number | null;
  optionsLine: number | null;
}

function cell(record: CsvRecord, columns: Columns, name: string): string {
  const index = columns.index(name);
  return index === undefined ? '' : (record.cells[index] ?? '').trim();
}

function moneyOf(text: string): Minor | null {
  const parsed = parseMoney(text);
  return parsed.ok ? parsed.value : null;
}

function numberOf(text: string): number | null {
  const parsed = parseNumber(text);
  return parsed.ok ? parsed.value : null;
}

/** `since 1/2/24 through 3/28/24` from the first lines. */
export function periodOf(records: readonly CsvRecord[]): { since: string | null; through: string | null } {
  for (const record of records.slice(0, 8)) {
    const text = record.cells.join(',');
    if (!/Account Statement for/i.test(text)) continue;
    const since = /\bsince\s+(\d{1,2}\/\d{1,2}\/\d{2,4})/i.exec(text)?.[1];
    const through = /\bthrough\s+(\d{1,2}\/\d{1,2}\/\d{2,4})/i.exec(text)?.[1];
    return { since: since === undefined ? null : mdyToYmd(since), through: through === undefined ? null : mdyToYmd(through) };
  }
  return { since: null, through: null };
}

/** The rows of a section that are data: a first cell (the symbol), not a totals row. */
function dataRows(section: Section): CsvRecord[] {
  return section.rows.filter((record) => !isTotalsRow(record) && (record.cells[0] ?? '').trim() !== '');
}

/** `/NQM22 1/20 APR 22 (Wednesday) (Wk5)` → the future's multiplier and expiration (rows.ts reads it the same way). */
export type FuturesOptionReader = (symbolText: string) => { future: string; multiplier: number; expiration: string | null } | null;

function readOptions(section: Section, futures: FuturesOptionReader | null, into: Map<string, HeldOption>): void {
  for (const record of dataRows(section)) {
    const symbolText = cell(record, section.columns, 'Symbol').toUpperCase();
    const right: OptionRight | null = /^CALL/i.test(cell(record, section.columns, 'Type')) ? 'C' : /^PUT/i.test(cell(record, section.columns, 'Type')) ? 'P' : null;
    const strike = numberOf(cell(record, section.columns, 'Strike'));
    const quantity = numberOf(cell(record, section.columns, 'Qty'));
    if (right === null || strike === null || !(strike > 0) || quantity === null) continue;
    let root = symbolText;
    let expiration: string | null;
    let multiplier = 100;
    if (futures !== null) {
      const future = futures(symbolText);
      if (future === null || future.expiration === null) continue;
      const product = cell(record, section.columns, 'Exp').toUpperCase();
      root = product.startsWith('/') ? product : future.future;
      expiration = future.expiration;
      multiplier = future.multiplier;
    } else {
      expiration = dayMonYyToYmd(cell(record, section.columns, 'Exp').replace(/\([^()]*\)/g, '').trim());
    }
    if (expiration === null || root === '') continue;
    const symbol = occSymbol(root, expiration, right, strike);
    const held = into.get(symbol);
    if (held) held.quantity += quantity;
    else into.set(symbol, { symbol, root, expiration, strike, right, multiplier, quantity, line: record.line });
  }
}

export function statementFacts(records: readonly CsvRecord[], sections: readonly Section[], futures: FuturesOptionReader): StatementFacts {
  const { since, through } = periodOf(records);
  const equities = findSection(sections, 'Equities');
  let stocks: StatementFacts['stocks'] = null;
  if (equities?.header && equities.columns.has('Symbol') && equities.columns.has('Qty')) {
    stocks = new Map();
    for (const record of dataRows(equities)) {
      const symbol = cell(record, equities.columns, 'Symbol').toUpperCase();
      const quantity = numberOf(cell(record, equities.columns, 'Qty'));
      if (symbol === '' || quantity === null) continue;
      stocks.set(symbol, { quantity: (stocks.get(symbol)?.quantity ?? 0) + quantity, line: record.line });
    }
  }
  let options: StatementFacts['options'] = null;
  const optionSection = findSection(sections, 'Options');
  const futuresSection = findSection(sections, 'Futures Options');
  for (const [section, reader] of [[optionSection, null], [futuresSection, futures]] as const) {
    if (!section?.header || !section.columns.has('Qty') || !section.columns.has('Strike')) continue;
    options ??= new Map();
    readOptions(section, reader, options);
  }
  let markValues: StatementFacts['markValues'] = null;
  const pl = findSection(sections, 'Profits and Losses');
  if (pl?.header && pl.columns.has('Mark Value')) {
    markValues = new Map();
    for (const record of dataRows(pl)) {
      const value = moneyOf(cell(record, pl.columns, 'Mark Value'));
      if (value !== null) markValues.set(cell(record, pl.columns, 'Symbol').toUpperCase(), value);
    }
  }
  return { since, through, stocks, options, markValues, stocksLine: equities?.titleLine ?? null, optionsLine: optionSection?.titleLine ?? futuresSection?.titleLine ?? null };
}

/** What the figures need from the importer's context. */
export interface FigureContext {
  accountName: string;
  zone: string;
  /** The latest instant of the statement's rows: the end when the title gives no period. */
  lastInstant: string | null;
}

/** An instrument the statement's rows trade (stocks by ticker, options by OCC symbol). */
export interface Traded {
  symbol: string;
  isOption: boolean;
}

function base(what: FileStatement['what'], label: string, line: number | null, asOf: string, from: string | null, ctx: FigureContext): FileStatement {
  return { what, label, line, asOf, from, currency: 'USD', accountName: ctx.accountName, rows: 'all', valueMinor: null, symbol: null, quantity: null, costMinor: null };
}

/**
 * The figures the statement states, for the journal to check (FileStatement). `traded` are the instruments of the
 * statement's own transactions: one not listed in a present positions section is stated flat.
 */
export function statedFigures(sections: readonly Section[], facts: StatementFacts, traded: readonly Traded[], ctx: FigureContext): FileStatement[] {
  const end = facts.through === null ? ctx.lastInstant : localToUtc(facts.through, '23:59:59', ctx.zone);
  if (end === null) return [];
  const start = facts.since === null ? null : localToUtc(facts.since, '00:00:00', ctx.zone);
  const yearStart = localToUtc(`${end.slice(0, 4)}-01-01`, '00:00:00', ctx.zone);
  const out: FileStatement[] = [];

  const cash = findSection(sections, 'Cash Balance');
  const total = cash?.rows.find((record) => isTotalsRow(record));
  if (cash && total) {
    const amount = moneyOf(cell(total, cash.columns, 'AMOUNT'));
    // An empty fee cell (or an older statement's missing Misc Fees column) is none.
    const misc = moneyOf(cell(total, cash.columns, 'Misc Fees')) ?? ZERO_MINOR;
    const commissions = moneyOf(cell(total, cash.columns, 'Commissions & Fees')) ?? ZERO_MINOR;
    if (amount !== null) {
      // Fees are costs whichever sign the TOTAL row gives them (a real example writes Misc Fees $0.51, its rows −0.03 ...).
      const net = subMinor(subMinor(amount, absMinor(commissions)), absMinor(misc));
      out.push({ ...base('cash_total', 'Cash Balance TOTAL (AMOUNT less Misc Fees and Commissions & Fees)', total.line, end, start, ctx), valueMinor: net });
    }
  }

  const pl = findSection(sections, 'Profits and Losses');
  const overall = pl?.rows.find((record) => record.cells.some((text) => /^\s*OVERALL TOTALS\s*$/i.test(text)));
  if (pl && overall) {
    const ytd = moneyOf(cell(overall, pl.columns, 'P/L YTD'));
    const open = moneyOf(cell(overall, pl.columns, 'P/L Open'));
    if (ytd !== null && open !== null) {
      out.push({ ...base('realized_pl', 'Profits and Losses OVERALL TOTALS: P/L YTD less P/L Open (before commissions and fees)', overall.line, end, yearStart, ctx), rows: 'trades', valueMinor: subMinor(ytd, open), grossOfCosts: true });
    }
  }

  const summary = findSection(sections, 'Account Summary');
  if (summary) {
    for (const record of [summary.header, ...summary.rows]) {
      if (record === null || !/^Total Commissions & Fees YTD$/i.test((record.cells[0] ?? '').trim())) continue;
      const value = moneyOf((record.cells[1] ?? '').trim());
      if (value !== null) out.push({ ...base('commissions', 'Account Summary: Total Commissions & Fees YTD', record.line, end, yearStart, ctx), rows: 'trades', valueMinor: absMinor(value) });
    }
  }

  const position = (symbol: string, quantity: number, line: number | null, label: string): FileStatement => ({ ...base('position', label, line, end, null, ctx), symbol, quantity });
  if (facts.stocks !== null) {
    for (const [symbol, held] of facts.stocks) out.push(position(symbol, held.quantity, held.line, 'Equities'));
    for (const { symbol } of traded.filter((t) => !t.isOption && !facts.stocks?.has(t.symbol))) out.push(position(symbol, 0, facts.stocksLine, 'Equities (not listed: none held)'));
  }
  if (facts.options !== null) {
    for (const held of facts.options.values()) out.push(position(held.symbol, held.quantity, held.line, 'Options'));
    for (const { symbol } of traded.filter((t) => t.isOption && !facts.options?.has(t.symbol))) out.push(position(symbol, 0, facts.optionsLine, 'Options (not listed: none held)'));
  }
  return out;
}
