/**
 * Manual and imported rows never double (DESIGN §5; docs/journal.md, "Manual entries"), over HTTP with the app
 * in-process:
 * - an opening entered by hand, then the older file that holds the same sale: the import supersedes the manual row
 *   (listed under `supersededManual`, retired), one position, the premium once; undoing the import restores it;
 * - the reverse order: the files first, then the same opening by hand → 409 DUPLICATE_OF_IMPORTED naming the row;
 * - partial quantities: a manual 2 against an imported 1 + 1 is superseded; against an imported 1 whose close takes 2,
 *   it is superseded too and the missing 1 is an opening the history lacks again.
 * Every figure by hand in the comments.
 */
import { describe, expect, it } from 'vitest';
import type { ImportReport, ImportsResponseT, ManualTransactionsResponseT, PerformanceResponseT, PositionsResponseT, TransactionsResponseT } from '../../../../../src-shared/api/schemas';
import { accountIdFor } from '../../../../../src-main/services/journal/service';
import { useTestApp } from '../../../../helper';

const HEADER = 'date,account,type,symbol,quantity,price,commission,fees,amount,currency';
const PUT = 'XYZ240419P00045000';
/** The older export: the sale to open of 1 put at 1.50 on 1 March (150.00). */
const OLDER = [HEADER, `2024-03-01T15:00:00Z,Main,SELL_TO_OPEN,${PUT},1,1.50,0,0,150,USD`].join('\n');
/** The newer export: the buy to close at 0.20 on 20 March (20.00), and a share purchase that makes the history run to 25 March. */
const NEWER = [HEADER, `2024-03-20T15:00:00Z,Main,BUY_TO_CLOSE,${PUT},1,0.20,0,0,-20,USD`, '2024-03-25T15:00:00Z,Main,BUY,ABC,10,10,0,0,-100,USD'].join('\n');
const MAIN = accountIdFor('generic-csv', 'Main');
/** The opening the Positions page enters for the newer file's close: 1 put sold at 1.50 on 14 March. */
const OPENING = { accountId: MAIN, type: 'SELL_TO_OPEN', symbol: PUT, quantity: 1, price: 1.5, date: '2024-03-14', description: 'Opening position (before the imported history)' };

interface Problem {
  code: string;
  detail: string;
  errors?: Array<{ param: string; message: string }>;
}

/** A new app for every `it` (each replays the steps of its story it needs): no `it` leans on another's rows. */
function harness() {
  const t = useTestApp({}, 'each');
  const upload = async (text: string, filename: string) => {
    const response = await t.request({ method: 'POST', url: `/v1/imports?broker=generic&filename=${filename}`, headers: { 'content-type': 'text/csv' }, payload: text });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<ImportReport>();
  };
  const post = (transactions: unknown[]) => t.request({ method: 'POST', url: '/v1/journal/transactions', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ transactions }) });
  const march = async () => (await t.get<PerformanceResponseT>('/v1/journal/performance?from=2024-03-01&to=2024-03-31')).body.custom?.summary;
  const positions = async (asOf: string) => (await t.get<PositionsResponseT>(`/v1/journal/positions?asOf=${asOf}`)).body;
  const rows = async () => (await t.get<TransactionsResponseT>('/v1/journal/transactions?limit=100')).body.transactions;
  return { t, upload, post, march, positions, rows };
}

describe('an opening entered by hand, then the older file that holds the same sale', () => {
  const h = harness();

  /** The newer file, then the opening entered by hand that its close lacks. */
  async function enteredByHand(): Promise<{ manualId: string; manualImport: number }> {
    await h.upload(NEWER, 'newer.csv');
    expect((await h.positions('2024-03-26')).needsAttention.map((n) => [n.kind, n.symbol, n.quantity, n.firstDate])).toEqual([['opened_before_history', PUT, -1, '2024-03-20']]);
    const response = await h.post([OPENING]);
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json<ManualTransactionsResponseT>();
    // Premium 150.00 once; the close books 150 − 20 = 130.
    expect(await h.march()).toMatchObject({ premiumsCollected: 150, optionsPL: 130 });
    return { manualId: body.ids[0] ?? '', manualImport: body.importId };
  }

  /** Then the older file, whose sale is the same opening. */
  async function olderImported({ manualId, manualImport }: { manualId: string; manualImport: number }): Promise<number> {
    const report = await h.upload(OLDER, 'older.csv');
    expect(report).toMatchObject({ imported: 1, supersededManualCount: 1 });
    expect(report.supersededManual).toEqual([
      { id: manualId, importId: manualImport, accountId: MAIN, type: 'SELL_TO_OPEN', symbol: PUT, quantity: 1, tradeDate: '2024-03-14T20:00:00.000Z', importedQuantity: 1 },
    ]);
    return report.id;
  }

  it('the newer file closes a put it never sold; the opening entered by hand matches it', async () => {
    const { manualId } = await enteredByHand();
    expect((await h.rows()).find((r) => r.id === manualId)).toMatchObject({ source: 'manual', type: 'SELL_TO_OPEN' });
  });

  it('the older file: its sale supersedes the manual opening, listed in the report; one position, the premium once', async () => {
    const manual = await enteredByHand();
    const { manualId, manualImport } = manual;
    const olderImport = await olderImported(manual);
    // Without the rule: 300 of premium and a phantom short put left open after the close.
    expect(await h.march()).toMatchObject({ premiumsCollected: 150, optionsPL: 130 });
    expect((await h.positions('2024-03-15')).positions.map((p) => [p.symbol, p.quantity])).toEqual([[PUT, -1]]);
    expect((await h.positions('2024-03-26')).positions.map((p) => p.symbol), 'flat after the close').toEqual(['ABC']);
    expect((await h.rows()).map((r) => r.id), 'the manual row is out of the transactions').not.toContain(manualId);
    // The report stays in the history (GET /imports reads it back), and the manual import counts what it still holds.
    const imports = (await h.t.get<ImportsResponseT>('/v1/imports')).body.imports;
    expect(imports.find((i) => i.id === olderImport)).toMatchObject({ supersededManualCount: 1, supersededManual: [{ id: manualId }] });
    expect(imports.find((i) => i.id === manualImport)).toMatchObject({ kind: 'manual', rows: 0 });
  });

  it('undo of the older import restores the manual opening: the same figures from it', async () => {
    const manual = await enteredByHand();
    const { manualId, manualImport } = manual;
    const olderImport = await olderImported(manual);
    const undo = await h.t.request({ method: 'DELETE', url: `/v1/imports/${olderImport}` });
    expect(undo.statusCode, undo.body).toBe(200);
    expect(undo.json()).toEqual({ id: olderImport, removed: 1 });
    const row = (await h.rows()).find((r) => r.id === manualId);
    expect(row).toMatchObject({ source: 'manual', type: 'SELL_TO_OPEN', quantity: 1, price: 1.5, tradeDay: '2024-03-14', importId: manualImport });
    expect(await h.march()).toMatchObject({ premiumsCollected: 150, optionsPL: 130 });
    expect((await h.t.get<ImportsResponseT>('/v1/imports')).body.imports.find((i) => i.id === manualImport)).toMatchObject({ rows: 1 });
  });
});

describe('the reverse order: the files first, then the same opening by hand', () => {
  const h = harness();

  it('409 DUPLICATE_OF_IMPORTED naming the imported sale (its id, date and file); nothing is stored', async () => {
    await h.upload(OLDER, 'older.csv');
    await h.upload(NEWER, 'newer.csv');
    const sale = (await h.rows()).find((r) => r.type === 'SELL_TO_OPEN');
    const before = (await h.rows()).length;
    const response = await h.post([{ account: 'Main', type: 'DEPOSIT', amount: 5, date: '2024-03-02' }, OPENING]);
    expect(response.statusCode, response.body).toBe(409);
    const problem = response.json<Problem>();
    expect(problem.code).toBe('DUPLICATE_OF_IMPORTED');
    expect(problem.errors).toEqual([{ param: 'transactions.1', message: `duplicates imported transaction ${sale?.id ?? '?'} (2024-03-01T15:00:00.000Z, import ${sale?.importId ?? 0}, older.csv)` }]);
    expect(problem.detail).toContain('SELL_TO_OPEN 1 XYZ240419P00045000 on 2024-03-14');
    expect(problem.detail).toContain('"older.csv" (generic)');
    expect((await h.rows()).length, 'all or none: the deposit is not stored either').toBe(before);
    expect(await h.march()).toMatchObject({ premiumsCollected: 150, optionsPL: 130 });
  });

  it('an opening dated after the imported history is new activity: stored', async () => {
    await h.upload(OLDER, 'older.csv');
    await h.upload(NEWER, 'newer.csv');
    const response = await h.post([{ ...OPENING, date: '2024-03-27' }]);
    expect(response.statusCode, response.body).toBe(201);
  });
});

describe('partial quantities', () => {
  const h = harness();
  const CALL = 'XYZ240419C00055000';
  const call = (type: string, quantity: number, day: string, price: number) => `2024-03-${day}T15:00:00Z,Main,${type},${CALL},${quantity},${price},0,0,${(type === 'SELL_TO_OPEN' ? 1 : -1) * quantity * price * 100},USD`;

  it('a manual 2 against an imported 1 + 1: superseded, the files’ two fills are the position', async () => {
    await h.upload([HEADER, call('BUY_TO_CLOSE', 2, '20', 0.1)].join('\n'), 'close.csv');
    expect((await h.post([{ ...OPENING, symbol: CALL, quantity: 2, price: 1 }])).statusCode).toBe(201);
    const report = await h.upload([HEADER, call('SELL_TO_OPEN', 1, '01', 1), call('SELL_TO_OPEN', 1, '05', 1.2)].join('\n'), 'two-fills.csv');
    expect(report.supersededManual.map((m) => [m.symbol, m.quantity, m.importedQuantity])).toEqual([[CALL, 2, 2]]);
    // 100 + 120 of premium; the close of 2 at 0.10 (20): 220 − 20 = 200.
    expect(await h.march()).toMatchObject({ premiumsCollected: 220, optionsPL: 200 });
    expect((await h.positions('2024-03-26')).needsAttention).toEqual([]);
  });

  it('a manual 2 against an imported 1 whose close takes 2: superseded; the missing 1 is an opening the history lacks again', async () => {
    const put = 'XYZ240419P00040000';
    const row = (type: string, quantity: number, day: string, price: number) => `2024-03-${day}T15:00:00Z,Other,${type},${put},${quantity},${price},0,0,${(type === 'SELL_TO_OPEN' ? 1 : -1) * quantity * price * 100},USD`;
    const other = accountIdFor('generic-csv', 'Other');
    await h.upload([HEADER, row('BUY_TO_CLOSE', 2, '20', 0.1)].join('\n'), 'other-close.csv');
    expect((await h.post([{ ...OPENING, accountId: other, symbol: put, quantity: 2, price: 1 }])).statusCode).toBe(201);
    const report = await h.upload([HEADER, row('SELL_TO_OPEN', 1, '01', 1)].join('\n'), 'other-open.csv');
    expect(report.supersededManual.map((m) => [m.symbol, m.quantity, m.importedQuantity])).toEqual([[put, 2, 1]]);
    const attention = (await h.positions('2024-03-26')).needsAttention.filter((n) => n.accountId === other);
    expect(attention.map((n) => [n.kind, n.symbol, n.quantity, n.firstDate])).toEqual([['opened_before_history', put, -1, '2024-03-20']]);
    expect((await h.positions('2024-03-26')).positions.filter((p) => p.accountId === other), 'never a doubled or phantom position').toEqual([]);
  });
});

describe('a manual import keeps a superseded row through the deletion of its other rows', () => {
  const h = harness();

  it('deleting its last active row leaves the import (importRemoved false); undoing the file brings the opening back into it', async () => {
    await h.upload(NEWER, 'newer.csv');
    const posted = await h.post([OPENING, { accountId: MAIN, type: 'DEPOSIT', amount: 5, date: '2024-03-02' }]);
    expect(posted.statusCode, posted.body).toBe(201);
    const { importId, ids } = posted.json<ManualTransactionsResponseT>();
    const older = await h.upload(OLDER, 'older.csv');
    expect(older.supersededManual.map((m) => m.id)).toEqual([ids[0]]);
    const deleted = await h.t.request({ method: 'DELETE', url: `/v1/journal/transactions/${ids[1] ?? ''}` });
    expect(deleted.json()).toEqual({ id: ids[1], importId, importRemoved: false });
    expect((await h.t.request({ method: 'DELETE', url: `/v1/imports/${older.id}` })).statusCode).toBe(200);
    expect((await h.rows()).find((r) => r.id === ids[0])).toMatchObject({ importId, type: 'SELL_TO_OPEN' });
  });
});
