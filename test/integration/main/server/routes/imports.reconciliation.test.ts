/**
 * Every import either agrees with every figure its file states about itself or says where and by how much it differs
 * (DESIGN §5 "Reconciliation", docs/journal.md §Reconciliation), over HTTP in-process. Each broker's figure is read from
 * the file here by string arithmetic (file-totals.ts), never by the importer; a file that agrees is ready, the same
 * file with one row altered differs by exactly that row's change. Real files are read from ../shared/fixtures.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImportReport, ImportsResponseT, PositionsResponseT, ReconciliationRowJson } from '../../../../../src-shared/api/schemas';
import { BROKER_FIXTURES_SHARED, REPO_ROOT, useTestApp } from '../../../../helper';
import { columnSum, ibkrTradeTotals, minorOf } from '../../importers/file-totals';

const local = (name: string) => readFileSync(join(REPO_ROOT, 'test/fixtures/brokers', name), 'utf8');
const shared = (name: string) => readFileSync(join(BROKER_FIXTURES_SHARED, name), 'utf8');

const t = useTestApp();

async function importText(text: string, filename: string, broker = 'auto'): Promise<ImportReport> {
  const response = await t.request({ method: 'POST', url: `/v1/imports?filename=${filename}&broker=${broker}`, headers: { 'content-type': 'text/csv' }, payload: text });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<ImportReport>();
}

async function undo(id: number): Promise<void> {
  expect((await t.request({ method: 'DELETE', url: `/v1/imports/${id}` })).statusCode).toBe(200);
}

async function listed(id: number): Promise<ImportReport> {
  const { body } = await t.get<ImportsResponseT>('/v1/imports?limit=100');
  const found = body.imports.find((i) => i.id === id);
  if (found === undefined) throw new Error(`import ${id} not listed`);
  return found;
}

async function attention(): Promise<PositionsResponseT['needsAttention']> {
  return (await t.get<PositionsResponseT>('/v1/journal/positions')).body.needsAttention.filter((n) => n.kind === 'reconciliation');
}

const row = (report: ImportReport, label: string): ReconciliationRowJson => {
  const found = report.reconciliation.find((r) => r.label === label);
  if (found === undefined) throw new Error(`no row "${label}" in ${report.reconciliation.map((r) => r.label).join(' | ')}`);
  return found;
};
/** Cents of minor units (the wire's money). */
const cents = (minor: number) => Math.round(minor / 100) / 100;

/** The file with one line's text replaced (the test's one altered row). */
function altered(text: string, from: string, to: string): string {
  expect(text.split(from).length, `"${from}" occurs once`).toBe(2);
  return text.replace(from, to);
}

describe("each broker's own total line, agreeing and then one row altered", () => {
  it('E*TRADE "Total:" is the net cash of the rows listed (the inferred dividend of a lone reinvestment is no row of the file)', async () => {
    const text = local('etrade_all_transactions_selfwritten.csv');
    const total = minorOf(/^Total:,(.*)$/m.exec(text)?.[1] ?? '');
    expect(total, 'the file says 3,878.52').toBe(38_785_200);
    expect(columnSum(text, 'Amount $'), "the rows' Amount column adds up to it").toBe(total);
    const report = await importText(text, 'etrade.csv');
    expect(report.status).toBe('ready');
    expect(row(report, 'Total:')).toMatchObject({ what: 'cash_total', unit: 'money', line: 5, broker: cents(total), journal: cents(total), difference: 0, ok: true });
    await undo(report.id);
    // The short call's credit read 0.10 higher: the journal's cash is 0.10 above the file's total.
    const changed = await importText(altered(text, ',IWM,--,-1.0,1.20,119.49,', ',IWM,--,-1.0,1.20,119.59,'), 'etrade-altered.csv');
    expect(changed.status).toBe('differs');
    expect(row(changed, 'Total:')).toMatchObject({ broker: 3878.52, journal: 3878.62, difference: 0.1, ok: false });
    await undo(changed.id);
  });

  it('Schwab "Transactions Total" is the net cash of every row', async () => {
    const text = local('schwab_transactions_pfe_wheel_selfwritten.csv');
    const total = minorOf(/^"Transactions Total"(?:,"")*,"([^"]*)"/m.exec(text)?.[1] ?? '');
    expect(total).toBe(columnSum(text, 'Amount', (r) => r.Date !== 'Transactions Total'));
    const report = await importText(text, 'schwab.csv');
    expect(report.status).toBe('ready');
    expect(row(report, 'Transactions Total')).toMatchObject({ broker: 4316.58, journal: 4316.58, difference: 0, ok: true });
    await undo(report.id);
    const changed = await importText(altered(text, '"$0.42","$0.66","$41.34"', '"$0.42","$0.66","$41.24"'), 'schwab-altered.csv');
    expect(row(changed, 'Transactions Total')).toMatchObject({ broker: 4316.58, journal: 4316.48, difference: -0.1, ok: false });
    expect(changed.status).toBe('differs');
    await undo(changed.id);
  });

  it("Fidelity's Cash Balance ($) column: the newest balance less the balance before the oldest row", async () => {
    const text = local('fidelity_history_cash_balance_selfwritten.csv');
    // 2,327.66 after the newest row; 20,000.00 after the oldest, which brought 20,000.00: 0 before it.
    expect(columnSum(text, 'Amount ($)')).toBe(23_276_600);
    const report = await importText(text, 'fidelity.csv');
    expect(report.status).toBe('ready');
    const label = 'Cash Balance ($): the newest row’s balance less the balance before the oldest';
    expect(row(report, label)).toMatchObject({ broker: 2327.66, journal: 2327.66, ok: true, line: 5 });
    await undo(report.id);
    const changed = await importText(altered(text, 'Cash,0.000,,,,,24.00,2347.66,', 'Cash,0.000,,,,,24.50,2347.66,'), 'fidelity-altered.csv');
    expect(row(changed, label)).toMatchObject({ broker: 2327.66, journal: 2328.16, difference: 0.5, ok: false });
    await undo(changed.id);
  });

  it('IBKR: Trades totals, the Realized & Unrealized Performance Summary and Open Positions, each checked; one sale read 10.00 higher differs in exactly its three figures', async () => {
    const text = local('ibkr_activity_statement_reconciled_selfwritten.csv');
    const report = await importText(text, 'ibkr.csv');
    expect(report.reconciliationCount).toBe(20);
    expect(report.reconciliation.filter((r) => !r.ok)).toEqual([]);
    expect(report.status).toBe('ready');
    // The statement's own figures, read from its lines.
    expect(row(report, 'Trades Total (Stocks, USD): Proceeds + Comm/Fee')).toMatchObject({ broker: -13_502, journal: -13_502 });
    expect(row(report, 'Trades Total (Equity and Index Options, USD): Realized P/L')).toMatchObject({ broker: 396.85, journal: 396.85 });
    expect(row(report, 'Realized & Unrealized Performance Summary: SPY 21MAR25 560 P Realized Total')).toMatchObject({ symbol: 'SPY250321P00560000', broker: 247.9, journal: 247.9 });
    expect(row(report, 'Open Positions: AAPL 16MAY25 200 C')).toMatchObject({ unit: 'units', symbol: 'AAPL250516C00200000', broker: -1, journal: -1 });
    await undo(report.id);

    // Sold at 190.20 where the file says 190: 10.00 more cash and 10.00 more realized.
    const changed = await importText(altered(text, '-50,190,189.8,9500,-1,', '-50,190.2,189.8,9510,-1,'), 'ibkr-altered.csv');
    const differing = changed.reconciliation.filter((r) => !r.ok).map((r) => [r.label, r.difference]);
    expect(differing).toEqual([
      ['Trades Total (Stocks, USD): Proceeds + Comm/Fee', 10],
      ['Trades Total (Stocks, USD): Realized P/L', 10],
      ['Realized & Unrealized Performance Summary: AAPL Realized Total', 10],
    ]);
    expect(changed.reconciliationDiffers).toBe(3);
    await undo(changed.id);
  });

  it('the real IBKR statements agree with every Trades total they state (proceeds + Comm/Fee, commissions), within a cent', async () => {
    for (const name of ['ibkr_activity_statement_2021_wheel_divstock.csv', 'ibkr_activity_statement_2022_wheel_divstock.csv']) {
      const text = shared(name);
      const report = await importText(text, name);
      const { totals } = ibkrTradeTotals(text);
      expect(report.status, name).toBe('ready');
      expect(report.reconciliationCount, `${name}: two figures per block`).toBe(totals.size * 2);
      for (const [key, minor] of totals) {
        const [category = '', currency = ''] = key.split('|');
        expect(row(report, `Trades Total (${category}, ${currency}): Proceeds + Comm/Fee`).broker, `${name} ${key}`).toBe(cents(minor));
      }
      await undo(report.id);
    }
  });

  it("a real Schwab sample whose own Transactions Total is not the sum of its rows differs by exactly that (−26,582.91 stated, 400,074.19 in its rows); acknowledged, it leaves needsAttention", async () => {
    const text = shared('schwab_transactions_corpactions_ghostfolio.csv');
    const rows = columnSum(text, 'Amount', (r) => r.Date !== 'Transactions Total');
    const stated = minorOf(/^Transactions Total,+"?([^",]*(?:,\d{3})*\.\d\d)"?\s*$/m.exec(text)?.[1] ?? '');
    expect([rows, stated]).toEqual([4_000_741_900, -265_829_100]);
    const report = await importText(text, 'schwab-sample.csv');
    expect(report.status).toBe('differs');
    expect(row(report, 'Transactions Total')).toMatchObject({ broker: cents(stated), journal: cents(rows), difference: cents(rows - stated), ok: false });
    const items = await attention();
    expect(items.map((n) => n.reconciliation?.importId)).toEqual([report.id]);
    expect(items[0]).toMatchObject({ reason: 'differs-from-broker', reconciliation: { label: 'Transactions Total', difference: 426_657.1 } });

    const ack = await t.request({ method: 'POST', url: `/v1/imports/${report.id}/acknowledge` });
    expect(ack.statusCode, ack.body).toBe(200);
    expect(ack.json()).toMatchObject({ id: report.id, status: 'acknowledged' });
    expect((await listed(report.id)).status).toBe('acknowledged');
    expect(await attention(), 'acknowledged: no longer listed').toEqual([]);
    await undo(report.id);
  });
});

describe("thinkorswim statements' own figures (emitted by the thinkorswim importer, checked here)", () => {
  it('an older TD statement: OVERALL TOTALS 475.00 is realized P&L before commissions and fees, and the journal agrees, at the import and again from the kept statements', async () => {
    const report = await importText(local('thinkorswim_statement_old_tda_options_selfwritten.csv'), 'tda.csv');
    const realized = row(report, 'Profits and Losses OVERALL TOTALS: P/L YTD less P/L Open (before commissions and fees)');
    expect(realized).toMatchObject({ broker: 475, journal: 475, ok: true });
    expect(report.status).toBe('ready');
    // Listed, it is checked again from what the import kept: still before commissions.
    const again = await listed(report.id);
    expect(row(again, realized.label)).toMatchObject({ broker: 475, journal: 475, ok: true });
    expect(again.status).toBe('ready');
    await undo(report.id);
  });

  it('the short sales written as SELL and the PFE wheel agree with every figure they state', async () => {
    for (const name of ['thinkorswim_statement_short_sales_selfwritten.csv', 'thinkorswim_statement_pfe_wheel_selfwritten.csv']) {
      const report = await importText(local(name), name);
      expect(report.reconciliation.filter((r) => !r.ok), name).toEqual([]);
      expect(report.reconciliationCount, name).toBeGreaterThan(0);
      await undo(report.id);
    }
  });
});

describe('checked again whenever the journal changes', () => {
  it('a statement whose first purchase is missing: realized and the position differ until the opening is entered; the cash total keeps saying the row is missing', async () => {
    const text = local('ibkr_activity_statement_reconciled_selfwritten.csv');
    const missing = 'Trades,Data,Order,Stocks,USD,AAPL,"2025-01-10, 10:15:00",100,180,181.2,-18000,-1,18001,0,120,O';
    const report = await importText(altered(text, `${missing}\r\n`, ''), 'ibkr-cut.csv');
    expect(report.status).toBe('differs');
    const differing = () => report.reconciliation.filter((r) => !r.ok);
    expect(differing().map((r) => [r.label, r.broker, r.journal])).toEqual([
      ['Trades Total (Stocks, USD): Proceeds + Comm/Fee', -13_502, 4_499],
      ['Trades Total (Stocks, USD): Comm/Fee', 2, 1],
      ['Trades Total (Stocks, USD): Realized P/L', 498.5, 0],
      ['Realized & Unrealized Performance Summary: AAPL Realized Total', 498.5, 0],
      ['Open Positions: AAPL', 50, 0],
    ]);
    expect(row(report, 'Trades Total (Stocks, USD): Realized P/L').note, 'the sale found no opening').toMatch(/1 close in scope found no opening/);
    const accountId = report.accounts[0]?.id ?? '';
    expect((await attention()).filter((n) => n.reconciliation?.importId === report.id)).toHaveLength(5);

    // The opening entered by hand, as the statement's own row has it: 100 at 180, commission 1.
    const manual = await t.request({
      method: 'POST',
      url: '/v1/journal/transactions',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ transactions: [{ accountId, type: 'BUY', symbol: 'AAPL', quantity: 100, price: 180, commission: 1, date: '2025-01-10T15:15:00Z' }] }),
    });
    expect(manual.statusCode, manual.body).toBe(201);
    const after = await listed(report.id);
    // Realized, the position and the commissions agree now; the file's cash total still counts its missing row (18,001 paid).
    expect(after.reconciliation.filter((r) => !r.ok).map((r) => [r.label, r.difference])).toEqual([['Trades Total (Stocks, USD): Proceeds + Comm/Fee', 18_001]]);
    expect(row(after, 'Open Positions: AAPL').journal).toBe(50);

    // Undo the opening: they differ again.
    await undo(manual.json<{ importId: number }>().importId);
    expect((await listed(report.id)).reconciliationDiffers).toBe(5);
    await undo(report.id);
    expect(await attention()).toEqual([]);
  });

  it('a position the Open Positions section leaves out differs (the broker holds nothing of it)', async () => {
    const text = local('ibkr_activity_statement_reconciled_selfwritten.csv');
    const report = await importText(altered(text, 'Open Positions,Data,Summary,Stocks,USD,XYZ,100,1,50,5000,48,4800,-200,\r\n', ''), 'ibkr-no-xyz.csv');
    expect(report.reconciliation.filter((r) => !r.ok)).toMatchObject([{ label: 'Open Positions: nothing else held', symbol: 'XYZ', broker: 0, journal: 100, difference: 100 }]);
    await undo(report.id);
  });

  it('acknowledge: 404 for an import that does not exist; an import whose file states nothing stays ready', async () => {
    expect((await t.request({ method: 'POST', url: '/v1/imports/999999/acknowledge' })).statusCode).toBe(404);
    const report = await importText(local('generic_wheel_selfwritten.csv'), 'generic.csv');
    expect(report).toMatchObject({ status: 'ready', reconciliation: [], reconciliationCount: 0 });
    const ack = await t.request({ method: 'POST', url: `/v1/imports/${report.id}/acknowledge` });
    expect(ack.json()).toEqual({ id: report.id, acknowledgedAt: null, status: 'ready' });
    await undo(report.id);
  });
});
