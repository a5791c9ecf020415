/**
 * The event order end to end (issue 17): a Robinhood day listed newest first (STO, STC, BTO of one call) uploaded
 * through POST /v1/imports is stored with each row's sequence (migration 008), and the journal read from the store
 * replays the day bottom-up: the long is bought and sold, the later sale opens a short.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImportReport, PerformanceResponseT, PositionsResponseT } from '../../../../../src-shared/api/schemas';
import { useTestApp } from '../../../../helper';
import { REPO_ROOT } from '../../../../paths';

const app = useTestApp();
const FILE = readFileSync(join(REPO_ROOT, 'test/fixtures/brokers/robinhood_newest_first_selfwritten.csv'));

describe('event order through the store', () => {
  it('stores the sequence and the journal keeps the 575.00 sale open', async () => {
    const response = await app.request({ method: 'POST', url: '/v1/imports', headers: { 'content-type': 'text/csv' }, payload: FILE });
    expect(response.statusCode).toBe(201);
    expect(response.json<ImportReport>().imported).toBe(6);

    const stored = app.ctx.db.prepare("SELECT type, sequence FROM transactions WHERE symbol = 'OPEN251121C00009000' ORDER BY sequence").all();
    // Bottom-up from the deposit (0) and the share buy (1): bought, sold to close, sold to open.
    expect(stored).toEqual([
      { type: 'BUY_TO_OPEN', sequence: 2 },
      { type: 'SELL_TO_CLOSE', sequence: 3 },
      { type: 'SELL_TO_OPEN', sequence: 4 },
    ]);

    const positions = (await app.get<PositionsResponseT>('/v1/journal/positions?asOf=2025-10-21T00:00:00Z')).body.positions;
    expect(positions.filter((p) => p.isOption).map((p) => [p.symbol, p.quantity])).toEqual([['OPEN251121C00009000', -5]]);
    const performance = (await app.get<PerformanceResponseT>('/v1/journal/performance?period=monthly&date=2025-10-20')).body;
    // 5 × (1.20 − 1.00) × 100 − 0.16 − 0.15 on the options; 1,299.97 − 1,234.98 on the shares.
    expect([performance.monthly.summary.optionsPL, performance.monthly.summary.stockPL]).toEqual([99.69, 64.99]);
  });
});
