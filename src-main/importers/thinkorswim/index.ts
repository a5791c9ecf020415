import { RowReader } from '../common/cells';
import { NEW_YORK } from '../../../src-shared/zone';
import { ResultCollector, RowIdentity, accountFor } from '../common/result';
import { fileHead, isTotalsRow, readCsv } from '../common/table';
import { detectTdTransactions, parseTdTransactions } from './transactions';
import type { BrokerImporter, ParseOptions, ParseResult } from '../types';
import { SOURCE, mapStatement } from './mapper';
import type { CashRow, Context } from './rows';
import { futuresOption, readCashRow, readOrders } from './rows';
import { statedFigures, statementFacts, type Traded } from './figures';
import { shortsFromStatement } from './positions';
import { FILLS } from '../../../src-shared/journal/model';
import { CASH_REQUIRED, TRADES_REQUIRED, accountOf, findSection, readSections, zoneOf } from './schema';
import { BROKER_LABELS } from '../../../src-shared/api/constants';

export function parseThinkorswim(text: string, options: ParseOptions): ParseResult {
  // The account statement lists each section oldest first.
  const out = new ResultCollector('thinkorswim', SOURCE, 'oldest-first');
  const records = readCsv(out, text);
  if (records === null) return out.result();
  const sections = readSections(records);
  const cash = findSection(sections, 'Cash Balance');
  const trades = findSection(sections, 'Account Trade History');
  if (cash === null && trades === null) {
    out.error(1, 'not a thinkorswim account statement: no "Cash Balance" or "Account Trade History" section');
    return out.result();
  }
  for (const [section, required] of [
    [cash, CASH_REQUIRED],
    [trades, TRADES_REQUIRED],
  ] as const) {
    if (section === null) continue;
    const missing = section.header ? section.columns.missing(required) : [...required];
    if (missing.length > 0) out.error(section.header?.line ?? section.titleLine, `${section.title}: the header lacks the column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`);
  }
  if (out.errors.length > 0) return out.result();

  const cashRecords = (cash?.rows ?? []).filter((record) => !isTotalsRow(record));
  const typeIndex = cash?.columns.index('TYPE');
  const typeOf = (cells: readonly string[]): string => (typeIndex === undefined ? '' : (cells[typeIndex] ?? '').trim().toUpperCase());
  const zone = zoneOf(cashRecords.filter((record) => typeOf(record.cells) === 'BAL').map((record) => record.cells.join(' ')));
  if (zone === null) out.warn(null, 'the statement names no time zone: times read as New York time');
  const ctx: Context = {
    accountName: accountFor(accountOf(records), options, 'thinkorswim'),
    zone: zone ?? NEW_YORK,
    identity: new RowIdentity(),
    out,
  };

  const cashRows: CashRow[] = [];
  for (const record of cashRecords) {
    // Opening balances are not transactions.
    if (typeOf(record.cells) === 'BAL') continue;
    out.rows += 1;
    if (cash === null) continue;
    const row = readCashRow(new RowReader(record, cash.columns, out), ctx);
    if (row) cashRows.push(row);
  }
  const tradeRecords = (trades?.rows ?? []).filter((record) => !isTotalsRow(record));
  out.rows += tradeRecords.length;
  const orders = trades ? readOrders(tradeRecords.map((record) => new RowReader(record, trades.columns, out)), ctx) : [];
  if (out.errors.length > 0) return out.result();
  const facts = statementFacts(records, sections, futuresOption);
  mapStatement(orders, cashRows, ctx, facts);
  // Plain sales of shares the statement's end shows short (positions.ts); the rows stay in event order.
  const reread = shortsFromStatement(out.transactions, facts);
  out.transactions.splice(0, out.transactions.length, ...reread);
  // Made in the Cash Balance's order (oldest first, each fill at its cash row): that is the event order.
  out.numberInAddOrder();
  const traded = new Map<string, Traded>();
  for (const { transaction: tx } of out.transactions) {
    if (FILLS.has(tx.type) || tx.type === 'EXPIRATION' || tx.type === 'ASSIGNMENT' || tx.type === 'EXERCISE') traded.set(tx.symbol, { symbol: tx.symbol, isOption: tx.isOption });
  }
  const lastInstant = out.transactions.reduce<string | null>((latest, row) => (latest === null || row.transaction.tradeDate > latest ? row.transaction.tradeDate : latest), null);
  for (const statement of statedFigures(sections, facts, [...traded.values()], { accountName: ctx.accountName, zone: ctx.zone, lastInstant })) out.state(statement);
  return out.result();
}

export const thinkorswimImporter: BrokerImporter = {
  id: 'thinkorswim',
  label: BROKER_LABELS.thinkorswim,
  formats: 'account statement CSV (Cash Balance and Account Trade History; stocks, options, futures options; older TD Ameritrade statements), and TD Ameritrade transactions.csv',
  detect(head) {
    if (detectTdTransactions(head)) return true;
    return head.records.some((record) => {
      const first = record.cells.filter((cell) => cell.trim() !== '');
      return first.length === 1 && /^(?:Account Statement for |Cash Balance$|Account Trade History$)/i.test(first[0]?.trim() ?? '');
    });
  },
  parse: (text, options) => (detectTdTransactions(fileHead(text)) ? parseTdTransactions(text, options) : parseThinkorswim(text, options)),
};
