import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImportReport, SummaryResponseT, TransactionJson, TransactionsResponseT, PerformanceResponseT } from '../../../../../src-shared/api/schemas';
import { buildTestApp, REPO_ROOT, useTestApp } from '../../../../helper';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'brokers');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const PFE = 'tastytrade_v2_21col_PFE_binnaculum.csv';
const TSLL = 'tastytrade_v2_21col_TSLL_wheel_binnaculum.csv';

// A new app for every `it`: each imports the files it reads.
const t = useTestApp({}, 'each');

async function importFile(name: string, query = '') {
  return t.request({ method: 'POST', url: `/v1/imports${query}`, headers: { 'content-type': 'text/csv' }, payload: fixture(name) });
}

/** The PFE wheel, then the TSLL file: the journal the reads below look at. */
async function importBoth(): Promise<void> {
  expect((await importFile(PFE, '?filename=pfe.csv')).statusCode).toBe(201);
  expect((await importFile(TSLL)).statusCode).toBe(201);
}

function count(): number {
  return (t.ctx.db.prepare('SELECT COUNT(*) AS n FROM transactions').get() as { n: number }).n;
}

async function allTransactions(query = ''): Promise<TransactionJson[]> {
  const rows: TransactionJson[] = [];
  for (let page = 1; ; page += 1) {
    const body = (await t.get<TransactionsResponseT>(`/v1/journal/transactions?limit=100&page=${page}${query}`)).body;
    rows.push(...body.transactions);
    if (page >= body.pagination.pages) return rows;
  }
}

describe('imports through the API', () => {
  it('imports the real PFE wheel (tastytrade, auto-detected) and pins Binnaculum’s realized 175.52', async () => {
    const response = await importFile(PFE, '?filename=pfe.csv');
    expect(response.statusCode, response.body).toBe(201);
    const report = response.json<ImportReport>();
    expect(report).toMatchObject({ broker: 'tastytrade', source: 'tastytrade-csv', filename: 'pfe.csv', duplicates: 0, skipped: [] });
    expect(report.imported).toBe(report.rows);
    const summary = (await t.get<SummaryResponseT>('/v1/journal/summary?year=2025')).body;
    // Hand check: (745.00 − 554.00) + (51.00 − 64.00) = 178.00 gross; minus 2.00 commissions and 4 × 0.12 fees.
    expect(summary.stats.totalRealizedPnl, 'Binnaculum PFE campaign: realized 175.52').toBe(175.52);
    expect(summary.stats.optionsPL).toBe(175.52);
  });

  it('re-importing the same file adds nothing (idempotence) and is still recorded', async () => {
    expect((await importFile(PFE)).statusCode).toBe(201);
    const before = count();
    const report = (await importFile(PFE)).json<ImportReport>();
    expect(report.imported).toBe(0);
    expect(report.duplicates).toBe(report.rows);
    expect(count()).toBe(before);
    const imports = (await t.get<{ imports: ImportReport[] }>('/v1/imports')).body.imports;
    expect(imports.map((i) => i.imported)).toEqual([0, before]);
  });

  it('a file with a bad row is refused whole: 422 IMPORT_FAILED with the line, store unchanged', async () => {
    expect((await importFile(PFE)).statusCode).toBe(201);
    const before = count();
    const lines = fixture(TSLL).split('\n');
    lines[5] = (lines[5] ?? '').replace(/^[^,]+/, 'not-a-date');
    const response = await t.request({ method: 'POST', url: '/v1/imports', headers: { 'content-type': 'text/csv' }, payload: lines.join('\n') });
    expect(response.statusCode).toBe(422);
    const problem = response.json<{ code: string; errors: Array<{ line: number; message: string }> }>();
    expect(problem.code).toBe('IMPORT_FAILED');
    expect(problem.errors[0]?.line, 'the problem names line 6 of the file').toBe(6);
    expect(count(), 'nothing was stored').toBe(before);
    expect((await t.get<{ imports: unknown[] }>('/v1/imports')).body.imports, 'the refused file is not recorded').toHaveLength(1);
  });

  it('an unknown layout is 422 UNSUPPORTED_FORMAT; an empty body is 422', async () => {
    const unknown = await t.request({ method: 'POST', url: '/v1/imports', headers: { 'content-type': 'text/csv' }, payload: 'foo,bar\n1,2\n' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json<{ code: string }>().code).toBe('UNSUPPORTED_FORMAT');
    const empty = await t.request({ method: 'POST', url: '/v1/imports', headers: { 'content-type': 'text/csv' }, payload: '' });
    expect(empty.statusCode).toBe(422);
  });

  it('transactions: newest first, paginated, filters equal a brute-force filter of all rows', async () => {
    await importBoth();
    const all = await allTransactions();
    expect(all).toHaveLength(count());
    const keys = all.map((tx) => `${tx.tradeDate}|${tx.id}`);
    expect(keys, 'newest first (tradeDate, then id)').toEqual([...keys].sort().reverse());
    const first = (await t.get<TransactionsResponseT>('/v1/journal/transactions')).body;
    expect(first.pagination).toEqual({ page: 1, limit: 25, total: all.length, pages: Math.ceil(all.length / 25) });
    expect(first.accounts.length).toBeGreaterThanOrEqual(1);

    const account = all[0]?.accountId ?? '';
    for (const [query, keep] of [
      ['&symbol=tsll', (tx: TransactionJson) => tx.underlying === 'TSLL'],
      ['&symbol=PFE&fromDate=2025-10-01', (tx: TransactionJson) => tx.underlying === 'PFE' && tx.tradeDay >= '2025-10-01'],
      ['&fromDate=2024-11-01&toDate=2024-12-31', (tx: TransactionJson) => tx.tradeDay >= '2024-11-01' && tx.tradeDay <= '2024-12-31'],
      [`&accountId=${account}&toDate=2025-01-15`, (tx: TransactionJson) => tx.accountId === account && tx.tradeDay <= '2025-01-15'],
      ['&symbol=NONE', () => false],
    ] as const) {
      const filtered = await allTransactions(query);
      expect(filtered.map((tx) => tx.id), query).toEqual(all.filter(keep).map((tx) => tx.id));
    }
  });

  it('performance answers both periods and a custom range whose calendar covers it', async () => {
    await importBoth();
    const body = (await t.get<PerformanceResponseT>('/v1/journal/performance?date=2025-10-03&from=2025-01-01&to=2025-12-31')).body;
    expect(body.monthly).toMatchObject({ from: '2025-10-01', to: '2025-10-31' });
    expect(body.weekly, '2025-10-03 is a Friday: its week runs Monday 09-29 to Sunday 10-05').toMatchObject({ from: '2025-09-29', to: '2025-10-05' });
    expect(body.range).toEqual({ period: 'custom', from: '2025-01-01', to: '2025-12-31' });
    expect(body.custom?.from).toBe('2025-01-01');
    expect(body.calendar.from).toBe('2025-01-01');
  });

  it('undo removes exactly the rows an import inserted', async () => {
    await importBoth();
    const imports = (await t.get<{ imports: ImportReport[] }>('/v1/imports')).body.imports;
    const tsll = imports.find((i) => i.imported > 0 && i.broker === 'tastytrade' && i.filename === null);
    expect(tsll).toBeDefined();
    const before = count();
    const response = await t.request({ method: 'DELETE', url: `/v1/imports/${tsll?.id ?? 0}` });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ removed: number }>().removed).toBe(tsll?.imported);
    expect(count()).toBe(before - (tsll?.imported ?? 0));
    expect((await allTransactions('&symbol=TSLL')).length).toBe(0);
    const again = await t.request({ method: 'DELETE', url: `/v1/imports/${tsll?.id ?? 0}` });
    expect(again.statusCode).toBe(404);
    const summary = (await t.get<SummaryResponseT>('/v1/journal/summary?year=2025')).body;
    expect(summary.stats.totalRealizedPnl, 'PFE alone again').toBe(175.52);
  });
});

describe('journal time zone', () => {
  it('re-dates stored transactions when the zone changes: a 01:30 UTC fill is the previous day in New York', async () => {
    const app = await buildTestApp();
    try {
      const csv = 'id,date,account,type,symbol,quantity,price,amount\nz1,2025-03-04T01:30:00Z,Z,DEPOSIT,,1,0,100\n';
      expect((await app.request({ method: 'POST', url: '/v1/imports?broker=generic', headers: { 'content-type': 'text/csv' }, payload: csv })).statusCode).toBe(201);
      const day = async () => (await app.get<TransactionsResponseT>('/v1/journal/transactions')).body.transactions[0]?.tradeDay;
      expect(await day(), '01:30 UTC on March 4 is 20:30 EST on March 3').toBe('2025-03-03');
      const put = await app.request({ method: 'PUT', url: '/v1/settings', headers: { 'content-type': 'application/json' }, payload: '{"timeZone":"Europe/London"}' });
      expect(put.statusCode, put.body).toBe(200);
      expect(await day(), 'in London it is already March 4').toBe('2025-03-04');
    } finally {
      await app.close();
    }
  });
});
