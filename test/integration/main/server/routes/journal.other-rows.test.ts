/**
 * needsAttention `other_rows` (issue 28, item 5): an import whose rows were kept as OTHER while they move cash says so
 * in its report (a warning with the total) and in GET /v1/journal/positions, per account and currency, until it is
 * undone. The total is written out from the file's own rows.
 */
import { describe, expect, it } from 'vitest';
import type { PositionsResponseT } from '../../../../../src-shared/api/schemas';
import { useTestApp } from '../../../../helper';
import { brokerFixture } from '../../importers/file-totals';

const t = useTestApp();

/** The older TD statement with two fills written in strategies the importer does not split (a ratio, a combo). */
const FILE = brokerFixture('thinkorswim_statement_old_tda_options_selfwritten.csv')
  .replace('SOLD -1 STRANGLE SPY 100 30 JAN 15 212/195 CALL/PUT @1.20,-1.50,120.00', 'SOLD -1/2 BACKRATIO SPY 100 30 JAN 15 212/215 CALL @1.20,-1.50,120.00')
  .replace('SOLD -1 SPY 100 (Weeklys) 9 JAN 15 200 CALL @1.65,-0.75,165.00', 'SOLD -1 COMBO SPY 100 (Weeklys) 9 JAN 15 200 CALL/PUT @1.65,-0.75,165.00');

describe('needsAttention other_rows', () => {
  it('lists the rows kept as OTHER that move cash until their import is undone', async () => {
    const uploaded = await t.request({ method: 'POST', url: '/v1/imports', headers: { 'content-type': 'text/csv' }, payload: FILE });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const report = uploaded.json<{ id: number; warnings: Array<{ line: number | null; message: string }> }>();
    expect(report.warnings.filter((w) => w.line === null).map((w) => w.message)).toEqual([
      "2 rows kept as OTHER carry 282.75 USD of cash (lines 11, 15): counted in the account's cash, in no P&L figure; check what they are",
    ]);
    const positions = (await t.get<PositionsResponseT>('/v1/journal/positions?asOf=2015-02-03T00:00:00Z')).body;
    // 120.00 − 1.50 and 165.00 − 0.75, the two rows' net cash.
    expect(positions.needsAttention.filter((n) => n.kind === 'other_rows').map((n) => [n.accountName, n.quantity, n.cash, n.currency, n.firstDate])).toEqual([['123456789', 2, 282.75, 'USD', '2015-01-08']]);
    const before = (await t.get<PositionsResponseT>('/v1/journal/positions?asOf=2015-01-07T00:00:00Z')).body;
    expect(before.needsAttention.filter((n) => n.kind === 'other_rows'), 'none before the first of them').toEqual([]);
    const undone = await t.request({ method: 'DELETE', url: `/v1/imports/${report.id}` });
    expect(undone.statusCode, undone.body).toBeLessThan(300);
    const after = (await t.get<PositionsResponseT>('/v1/journal/positions')).body;
    expect(after.needsAttention.filter((n) => n.kind === 'other_rows')).toEqual([]);
  });
});
