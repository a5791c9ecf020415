/**
 * POST /v1/journal/reconcile and GET /v1/journal/reconciliations over HTTP in-process (docs/journal.md
 * §Reconciliation): each broker's positions export (self-written in its real columns) of a book the journal holds
 * agrees with it; a positions file with each kind of difference gives each fix, and the fixes applied leave only what
 * no row can fix; a saved balance assertion flags the later import that breaks it, until undone or acknowledged.
 * The journal: test/fixtures/brokers/generic_positions_journal_selfwritten.csv, two accounts holding at 2025-03-31
 * AAPL 50 (cost 9,000.50: 50 × 180 + 0.50), XYZ 100 (5,000: a put assigned at 50), a short AAPL 16 May 25 200 call
 * (credit 200 less 1.05 of costs: −198.95) and KO 100 (6,000); the second also a short SPY 21 Mar 25 560 put that no
 * row closes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AccountsResponseT, ImportReport, PositionsResponseT, ReconcileResponseT, ReconciliationsResponseT } from '../../../../../src-shared/api/schemas';
import { REPO_ROOT, useTestApp } from '../../../../helper';

const fixture = (name: string) => readFileSync(join(REPO_ROOT, 'test/fixtures/brokers', name), 'utf8');
// A new app for every `it` (its book imported below): one `it`'s assertions and fixes never reach another.
const t = useTestApp({}, 'each');

async function reconcile(body: string, query: string, contentType = 'text/csv') {
  const response = await t.request({ method: 'POST', url: `/v1/journal/reconcile?${query}`, headers: { 'content-type': contentType }, payload: body });
  return { status: response.statusCode, body: response.json<ReconcileResponseT & { code?: string; detail?: string; errors?: Array<{ param?: string; line?: number; message: string }> }>() };
}

async function importText(text: string, filename: string): Promise<ImportReport> {
  const response = await t.request({ method: 'POST', url: `/v1/imports?filename=${filename}`, headers: { 'content-type': 'text/csv' }, payload: text });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<ImportReport>();
}

async function addRows(rows: unknown[]): Promise<number> {
  const response = await t.request({ method: 'POST', url: '/v1/journal/transactions', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ transactions: rows }) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ importId: number }>().importId;
}

let individual = '';
let margin = '';

// The journal of two accounts every test reconciles against, imported afresh for each.
beforeEach(async () => {
  await importText(fixture('generic_positions_journal_selfwritten.csv'), 'book.csv');
  const { body } = await t.get<AccountsResponseT>('/v1/journal/accounts');
  individual = body.accounts.find((a) => a.name === 'Individual ...4821')?.id ?? '';
  margin = body.accounts.find((a) => a.name === 'Margin ...7300')?.id ?? '';
  expect([individual, margin].every((id) => id !== ''), 'the journal has both accounts').toBe(true);
});

describe('a broker positions file against the book', () => {

  const exports: Array<[string, string]> = [
    ['schwab_positions_selfwritten.csv', 'schwab-positions'],
    ['fidelity_positions_selfwritten.csv', 'fidelity-positions'],
    ['tastytrade_positions_selfwritten.csv', 'tastytrade-positions'],
    ['ibkr_flex_positions_selfwritten.csv', 'ibkr-flex-positions'],
    ['etrade_positions_selfwritten.csv', 'etrade-positions'],
    ['generic_positions_selfwritten.csv', 'generic-csv'],
  ];
  for (const [file, format] of exports) {
    it(`${file}: read as ${format}, every position agrees (quantities and costs)`, async () => {
      const { status, body } = await reconcile(fixture(file), `asOf=2025-03-31&accountId=${individual}`);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body).toMatchObject({ format, accountId: individual, positions: 4, matched: 4, differences: [], assertionId: null });
      // 2025-03-31 is the end of that New York day.
      expect(body.asOf).toBe('2025-04-01T03:59:59.999Z');
    });
  }

  it('JSON {positions}: the same book; without asOf, the instant is now', async () => {
    const positions = [
      { symbol: 'AAPL', quantity: 50, cost: 9000.5 },
      { symbol: 'AAPL250516C00200000', quantity: -1, cost: -198.95 },
      { symbol: 'KO', quantity: 100 },
      { symbol: 'XYZ', quantity: 100, cost: 5000 },
    ];
    const { status, body } = await reconcile(JSON.stringify({ positions }), `accountId=${individual}`, 'application/json');
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ format: 'json', matched: 4, differences: [] });
  });

  it("an IBKR Activity Statement's Open Positions section, at the statement's own period end", async () => {
    const report = await importText(fixture('ibkr_activity_statement_reconciled_selfwritten.csv'), 'ibkr.csv');
    const accountId = report.accounts[0]?.id ?? '';
    const { status, body } = await reconcile(fixture('ibkr_activity_statement_reconciled_selfwritten.csv'), `accountId=${accountId}`);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ format: 'ibkr-open-positions', asOf: '2025-04-01T03:59:59.999Z', positions: 4, matched: 4, differences: [] });
    expect((await t.request({ method: 'DELETE', url: `/v1/imports/${report.id}` })).statusCode).toBe(200);
  });

  it('a positions file with each kind of difference, each with its fix; the fixes applied leave only the cost, which no row fixes', async () => {
    const { status, body } = await reconcile(fixture('generic_positions_differences_selfwritten.csv'), `asOf=2025-03-31&accountId=${margin}`);
    expect(status, JSON.stringify(body)).toBe(200);
    const by = (symbol: string) => body.differences.find((d) => d.symbol === symbol);
    expect(body.matched).toBe(0);
    expect(body.differences.map((d) => [d.symbol, d.kind, d.fix.kind])).toEqual([
      ['AAPL', 'quantity', 'corporate_action'],
      ['AAPL250516C00200000', 'missing_at_broker', 'add_closing'],
      ['KO', 'cost', 'review'],
      ['MSFT', 'missing_in_journal', 'add_opening'],
      ['SPY250321P00560000', 'missing_at_broker', 'mark_expired'],
      ['XYZ', 'missing_at_broker', 'corporate_action'],
      ['XYZN', 'missing_in_journal', 'corporate_action'],
    ]);
    // 100 at the broker against 50: 2 for 1, the 50 new shares added by a SPLIT row.
    expect(by('AAPL')?.fix).toMatchObject({ corporateAction: { type: 'split', ratio: 2 }, transactions: [{ type: 'SPLIT', quantity: 50, accountId: margin }] });
    expect(by('KO')).toMatchObject({ broker: { quantity: 100, cost: 5900 }, journal: { quantity: 100, cost: 6000 } });
    // The broker's cost of 10 MSFT, 4,000: an opening at 400.
    expect(by('MSFT')?.fix).toMatchObject({ needsPrice: false, transactions: [{ type: 'BUY', symbol: 'MSFT', quantity: 10, price: 400 }] });
    expect(by('SPY250321P00560000')?.fix.transactions).toMatchObject([{ type: 'EXPIRATION', quantity: 1, date: '2025-03-21' }]);
    // XYZ held by the journal, XYZN by the broker, the same 100 shares at the same cost: one rename fixes both.
    expect(by('XYZ')?.fix).toEqual(by('XYZN')?.fix);
    expect(by('XYZ')?.fix).toMatchObject({ corporateAction: { type: 'symbol_change', symbol: 'XYZ', newSymbol: 'XYZN', ratio: 1 }, transactions: [{ type: 'SYMBOL_CHANGE', symbol: 'XYZN', previousSymbol: 'XYZ', quantity: 100 }] });
    expect(by('AAPL250516C00200000')?.fix).toMatchObject({ needsPrice: true, transactions: [{ type: 'BUY_TO_CLOSE', quantity: 1 }] });

    // Every fix applied once (the rename is shared), the call bought back at 3.10.
    const seen = new Set<string>();
    for (const difference of body.differences) {
      const key = JSON.stringify(difference.fix.transactions);
      if (difference.fix.transactions.length === 0 || seen.has(key)) continue;
      seen.add(key);
      await addRows(difference.fix.transactions.map((row) => ({ ...row, ...(difference.fix.needsPrice ? { price: 3.1 } : {}) })));
    }
    const again = await reconcile(fixture('generic_positions_differences_selfwritten.csv'), `asOf=2025-03-31&accountId=${margin}`);
    expect(again.body.differences.map((d) => [d.symbol, d.kind])).toEqual([['KO', 'cost']]);
    expect(again.body.matched, 'AAPL 100, MSFT 10, XYZN 100 agree now').toBe(3);
  });

  it('refusals: a transaction history, an empty file, bad JSON fields, an unknown account, a file over 5 MB', async () => {
    const history = await reconcile(fixture('schwab_transactions_pfe_wheel_selfwritten.csv'), '');
    expect(history.status).toBe(422);
    expect(history.body.detail).toMatch(/Charles Schwab transaction history, not a positions file/);
    expect((await reconcile('', '')).status).toBe(422);
    const json = await reconcile(JSON.stringify({ positions: [{ symbol: 'AAPL', quantity: 'ten' }, { symbol: 'KO', quantity: 1, price: 2 }] }), '', 'application/json');
    expect(json.status).toBe(422);
    expect(json.body.errors?.map((e) => e.param)).toEqual(['positions.0.quantity', 'positions.1.price']);
    const csv = await reconcile('symbol,quantity\nAAPL,x\n$$$,3\n', '');
    expect(csv.body.errors?.map((e) => [e.line, e.message])).toEqual([
      [2, expect.stringContaining('not a number')],
      [3, 'not a ticker or an option: "$$$"'],
    ]);
    expect((await reconcile('symbol,quantity\nAAPL,1\n', 'accountId=acc_nobody')).status).toBe(404);
    const big = `symbol,quantity\n${'AAPL,1\n'.repeat(800_000)}`;
    expect((await reconcile(big, '')).status).toBe(413);
  });
});

describe('balance assertions', () => {
  it('saved, it holds; a later import that breaks it differs, is listed under needsAttention, and holds again once undone', async () => {
    const saved = await reconcile(fixture('schwab_positions_selfwritten.csv'), `asOf=2025-03-31&accountId=${individual}&save=true`);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const id = saved.body.assertionId;
    expect(id).not.toBeNull();
    const list = async () => (await t.get<ReconciliationsResponseT>('/v1/journal/reconciliations')).body.reconciliations;
    expect((await list())[0]).toMatchObject({ id, asOf: '2025-04-01T03:59:59.999Z', accountId: individual, format: 'schwab-positions', positions: 4, holds: true, matched: 4 });

    // An import of another account leaves it alone.
    const other = await importText('date,account,type,symbol,quantity,price,amount\n2025-03-20,Other,BUY,KO,10,60,-600\n', 'other.csv');
    expect(other.status).toBe('ready');
    // 10 more KO in the asserted account before 2025-03-31: the book says 110 where the broker said 100.
    const later = await importText('date,account,type,symbol,quantity,price,amount\n2025-03-20,Individual ...4821,BUY,KO,10,60,-600\n', 'later.csv');
    expect(later.status).toBe('differs');
    expect(later.reconciliation).toMatchObject([{ what: 'position', label: `Balance assertion #${id} of 2025-03-31`, symbol: 'KO', broker: 100, journal: 110, difference: 10, ok: false, assertionId: id, note: 'Add the sale' }]);
    expect((await list())[0]?.holds).toBe(false);
    const items = (await t.get<PositionsResponseT>(`/v1/journal/positions?accountId=${individual}`)).body.needsAttention.filter((n) => n.kind === 'reconciliation');
    expect(items.map((n) => [n.reconciliation?.importId, n.symbol, n.accountId])).toEqual([[later.id, 'KO', individual]]);

    expect((await t.request({ method: 'DELETE', url: `/v1/imports/${later.id}` })).statusCode).toBe(200);
    expect((await list())[0]?.holds).toBe(true);
    expect((await t.get<PositionsResponseT>('/v1/journal/positions')).body.needsAttention.filter((n) => n.kind === 'reconciliation')).toEqual([]);
  });

  it('broken again and acknowledged: the import says acknowledged and leaves needsAttention', async () => {
    // Its own assertion, saved here (each test has its own app).
    const saved = await reconcile(fixture('schwab_positions_selfwritten.csv'), `asOf=2025-03-31&accountId=${individual}&save=true`);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const later = await importText('date,account,type,symbol,quantity,price,amount\n2025-03-21,Individual ...4821,SELL,KO,40,61,2440\n', 'later2.csv');
    expect(later.reconciliation[0]).toMatchObject({ symbol: 'KO', broker: 100, journal: 60, ok: false });
    const ack = await t.request({ method: 'POST', url: `/v1/imports/${later.id}/acknowledge` });
    expect(ack.json()).toMatchObject({ status: 'acknowledged' });
    expect((await t.get<PositionsResponseT>('/v1/journal/positions')).body.needsAttention.filter((n) => n.kind === 'reconciliation')).toEqual([]);
  });

  it('keeps the last 100 assertions', async () => {
    const body = JSON.stringify({ positions: [{ symbol: 'KO', quantity: 1 }] });
    for (let i = 0; i < 101; i += 1) expect((await reconcile(body, 'asOf=2025-01-31&save=true', 'application/json')).status).toBe(200);
    const list = (await t.get<ReconciliationsResponseT>('/v1/journal/reconciliations')).body.reconciliations;
    expect(list).toHaveLength(100);
    expect(list.every((a) => a.asOf.startsWith('2025-02-01')), 'the oldest (the Schwab one) went first').toBe(true);
  });
});
