/**
 * trades.parquet (docs/research.md §trades): the journal's trades read by DuckDB, their P&L exact DECIMAL(18,4) sums
 * equal to the journal's, per underlying and in total, and written again only when the journal changes.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SummaryResponseT } from '../../../../../src-shared/api/schemas';
import { DEMO_JOURNAL_SEED, demoTransactions } from '../../../../../src-shared/demo/journal';
import { NO_NOTES } from '../../../../../src-shared/journal/import-report';
import { buildTrades } from '../../../../../src-shared/journal/trades';
import { LakeRepository } from '../../../../../src-main/db/lake';
import { toTransaction } from '../../../../../src-main/db/transactions';
import { exportLake, type ExportSummary } from '../../../../../src-main/services/lake/export';
import { buildTestApp, type TestApp } from '../../../../helper';
import { documentedQueries, openDuck, query, scratchFolders, type Duck } from '../../../../duck';

/** Minor units (1/10,000) as DuckDB prints a DECIMAL(18,4) sum. */
function decimal(total: bigint): string {
  const sign = total < 0n ? '-' : '';
  const abs = total < 0n ? -total : total;
  return `${sign}${abs / 10000n}.${String(abs % 10000n).padStart(4, '0')}`;
}

describe('trades.parquet', () => {
  const folders = scratchFolders();
  const transactions = demoTransactions(DEMO_JOURNAL_SEED, '2026-11-20');
  let app: TestApp;
  let duck: Duck;
  let lake: string;
  let first: ExportSummary;
  /** The journal's trades: its stored transactions, as the journal reads them, grouped. */
  const journalTrades = () => {
    const rows = [...new LakeRepository(app.ctx.db).transactions()];
    return buildTrades(rows.map((row) => toTransaction(row, new Map(rows.map((r) => [r.account_id, r.account_name])))));
  };
  const exported = (): ExportSummary => {
    const result = exportLake(app.ctx.db, { out: lake }, 0.04);
    if (!result.ok) throw new Error(`export failed: ${JSON.stringify(result.error)}`);
    return result.value;
  };

  beforeAll(async () => {
    app = await buildTestApp();
    await app.ctx.journal.store('demo', 'demo', transactions.map((transaction, index) => ({ line: index + 1, transaction })), transactions.length, NO_NOTES, 'demo');
    lake = join(folders.make('strikebook-lake-'), 'lake');
    first = exported();
    duck = await openDuck();
    // The documented views of the journal's files (this lake has no snapshot: the others would find no file).
    const views = query(documentedQueries(lake), 'views').split('\n').filter((line) => / VIEW (?:transactions|trades) /.test(line));
    expect(views).toHaveLength(2);
    await duck.run(views.join('\n'));
  }, 120_000);

  afterAll(async () => {
    duck.close();
    await app.close();
    folders.removeAll();
  });

  it('one row per trade of the journal, money as DECIMAL(18,4)', async () => {
    const book = journalTrades();
    expect(book.trades.length).toBeGreaterThan(10);
    expect(first.trades).toBe('written');
    expect(first.rows.trades).toBe(book.trades.length);
    const [described] = await duck.rows(`SELECT column_type FROM (DESCRIBE trades) WHERE column_name = 'pnl'`);
    expect(described?.column_type).toBe('DECIMAL(18,4)');
    const [counts] = await duck.rows("SELECT count(*) AS n, count(*) FILTER (WHERE status = 'open') AS open, count(pnl) AS known FROM trades");
    expect(counts?.n).toBe(String(book.trades.length));
    expect(counts?.open).toBe(String(book.trades.filter((t) => t.status === 'open').length));
    expect(counts?.known).toBe(String(book.trades.filter((t) => t.pnlMinor !== null).length));
  });

  it('Σ pnl per underlying is the journal’s trades’, and with the lots outside every trade the journal’s realized P&L', async () => {
    const book = journalTrades();
    const expected = new Map<string, bigint>();
    for (const trade of book.trades) if (trade.pnlMinor !== null) expected.set(trade.underlying, (expected.get(trade.underlying) ?? 0n) + BigInt(trade.pnlMinor));
    const rows = await duck.rows(query(documentedQueries(lake), 'trade P&L by underlying'));
    expect(new Map(rows.map((r) => [String(r.underlying), String(r.pnl)]))).toEqual(new Map([...expected].map(([underlying, total]) => [underlying, decimal(total)])));

    // The journal's own figure, from its summaries (one a year, rounded to cents): Σ trades' P&L + Σ outside.
    const [total] = await duck.rows('SELECT sum(pnl)::VARCHAR AS pnl FROM trades');
    const outside = [...book.outsideByTx.values()].reduce((a, b) => a + BigInt(b), 0n);
    const years = [...new Set(transactions.map((t) => Number(t.tradeDate.slice(0, 4))))];
    let journalCents = 0;
    for (const year of years) {
      const summary = await app.get<SummaryResponseT>(`/v1/journal/summary?year=${year}`);
      expect(summary.status).toBe(200);
      journalCents += Math.round(summary.body.stats.totalRealizedPnl * 100);
    }
    const lakeCents = Number(String(total?.pnl).replace('.', '')) / 100 + Number(outside) / 100;
    expect(journalCents, 'the demo journal realizes P&L').not.toBe(0);
    expect(Math.abs(lakeCents - journalCents), `${years.length} yearly figures, each rounded to a cent`).toBeLessThanOrEqual(years.length);
  });

  it('a second export leaves it unchanged', async () => {
    const again = exported();
    expect(again.trades).toBe('unchanged');
    expect(again.files).toBe(0);
  });
});
