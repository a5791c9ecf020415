/**
 * One story everywhere (issue 27 item 9): a file that starts after some positions were opened holds closes without an
 * opening. Its import report counts each as a warning, in the very sentence the Positions page's needs-attention item
 * shows (src-shared/journal/words.ts, NeedsAttention.tsx); an assignment is said as one; the warning goes once the
 * opening is entered; the import history says the same.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport, PositionsResponseT } from '../../../../../src-shared/api/schemas';
import { openedBeforeHistoryText } from '../../../../../src-shared/journal/words';
import { useTestApp } from '../../../../helper';

const t = useTestApp();

const HEADER = 'id,date,account,type,symbol,underlying,quantity,price,commission,fees,amount,currency,orderId,description\n';
/**
 * Two closes from before the window: a put assigned (its shares delivered at the strike, which open a long), and a
 * call bought back; and one round trip that opens and closes inside it.
 */
const FILE =
  HEADER +
  [
    'ob-1,2025-01-17T21:30:00Z,Late start,ASSIGNMENT,SPY250117P00450000,SPY,1,0,0,0,0,USD,,Assigned 1 SPY 450 put',
    'ob-2,2025-01-17T21:30:00Z,Late start,BUY,SPY,SPY,100,450,0,0,-45000,USD,,Bought 100 SPY (put assignment)',
    'ob-3,2025-01-21T15:00:00Z,Late start,BUY_TO_CLOSE,SPY250221C00600000,SPY,2,1.10,0,0,-220,USD,,Bought to close 2 SPY 600 calls',
    'ob-4,2025-01-22T15:00:00Z,Late start,SELL_TO_OPEN,QQQ250221P00400000,QQQ,1,2.00,0,0,200,USD,o-4,Sold 1 QQQ 400 put',
    'ob-5,2025-01-23T15:00:00Z,Late start,BUY_TO_CLOSE,QQQ250221P00400000,QQQ,1,1.00,0,0,-100,USD,o-5,Bought 1 QQQ 400 put',
  ].join('\n') +
  '\n';

const ASSIGNED = 'Late start · SPY 17 Jan 25 450 P: 1 contract assigned (first on 2025-01-17) that the history never sold: opened before the first imported row. Its P&L is left out until you enter the opening.';
const BOUGHT_BACK = 'Late start · SPY 21 Feb 25 600 C: 2 contracts bought back (first on 2025-01-21) that the history never sold: opened before the first imported row. Its P&L is left out until you enter the opening.';

describe('the import report counts closes without an opening (issue 27 item 9)', () => {
  let report: ImportReport;
  let importId = 0;
  // The file imported once, before either test: each reads the report or the history on its own.
  beforeAll(async () => {
    const uploaded = await t.request({ method: 'POST', url: '/v1/imports?broker=generic', headers: { 'content-type': 'text/csv' }, payload: FILE });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    report = uploaded.json<ImportReport>();
    importId = report.id;
  });

  it('as warnings, in the sentence of the Positions page (an assignment said as one)', async () => {
    expect(report.openedBeforeHistory).toBe(2);
    expect(report.warningCount).toBe(2);
    // Written out by hand: what was removed, how many, when, and what the history lacks.
    expect(report.warnings.map((w) => w.message)).toEqual([ASSIGNED, BOUGHT_BACK]);
    // The Positions page writes each item with the same function: the same sentence, word for word.
    const positions = (await t.get<PositionsResponseT>('/v1/journal/positions')).body;
    const items = positions.needsAttention.filter((n) => n.kind === 'opened_before_history');
    expect(items.map((n) => openedBeforeHistoryText(n))).toEqual(report.warnings.map((w) => w.message));
    expect(items.map((n) => n.closedBy)).toEqual([['ASSIGNMENT'], ['BUY_TO_CLOSE']]);
  });

  it('the import history says the same; an opening entered takes its warning away', async () => {
    const listed = (await t.get<{ imports: ImportReport[] }>('/v1/imports')).body.imports.find((i) => i.id === importId);
    expect(listed?.warnings.map((w) => w.message)).toEqual([ASSIGNED, BOUGHT_BACK]);
    const added = await t.request({
      method: 'POST',
      url: '/v1/journal/transactions',
      payload: { transactions: [{ account: 'Late start', type: 'SELL_TO_OPEN', symbol: 'SPY250221C00600000', quantity: 2, price: 3, date: '2025-01-02' }] },
    });
    expect(added.statusCode, added.body).toBe(201);
    const after = (await t.get<{ imports: ImportReport[] }>('/v1/imports')).body.imports.find((i) => i.id === importId);
    expect(after?.openedBeforeHistory).toBe(1);
    expect(after?.warningCount).toBe(1);
    expect(after?.warnings.map((w) => w.message)).toEqual([ASSIGNED]);
    // The opening taken back: the journal as the other test reads it, whichever runs first.
    expect((await t.request({ method: 'DELETE', url: `/v1/imports/${added.json<{ importId: number }>().importId}` })).statusCode).toBe(200);
  });
});
