/**
 * `POST /v1/demo` on Thanksgiving 2026 (the server's clock): Positions shows the demo's open book marked by the demo
 * market of the day before (DESIGN §2, issue 18: no "UNMARKED" cards, no $0 market value, no stale marks, no negative
 * DTE), the dealers' levels of that snapshot, and nothing that needs attention.
 */
import { describe, expect, it } from 'vitest';
import type { GexResponseT, PositionsResponseT } from '../../../../src-shared/api/schemas';
import { manualClock } from '../../../clock';
import { useTestApp } from '../../../helper';

describe('the demo book through the API', () => {
  const t = useTestApp({ clock: manualClock('2026-11-26T17:00:00Z') });

  it('every position is marked by a fresh snapshot of 25 November, with levels, and the totals leave nothing out', async () => {
    const loaded = await t.request({ method: 'POST', url: '/v1/demo' });
    expect(loaded.statusCode).toBe(200);
    const { status, body } = await t.get<PositionsResponseT>('/v1/journal/positions');
    expect(status).toBe(200);
    expect(body.demo).toBe(true);
    expect(body.needsAttention).toEqual([]);
    expect(body.positions.map((p) => p.underlying).sort()).toEqual(['AAPL', 'AAPL', 'SPY', 'SPY', 'TSLA']);
    expect(body.totals.unmarkedCount).toBe(0);
    expect(body.totals.staleCount).toBe(0);
    // The market value is the sum of quantity × mark × multiplier (independent of the server's totals).
    const hand = body.positions.reduce((sum, p) => sum + p.quantity * (p.mark?.price ?? Number.NaN) * p.multiplier, 0);
    expect(body.totals.marketValue).toBeCloseTo(hand, 1);
    expect(Math.abs(body.totals.marketValue)).toBeGreaterThan(1000);
    for (const mark of body.marksAsOf) {
      expect(mark.quoteTime, `${mark.symbol}: the 16:00 New York snapshot of the day before Thanksgiving`).toBe('2026-11-25T21:00:00.000Z');
      expect(mark.stale).toBe(false);
    }
    for (const p of body.positions.filter((x) => x.isOption)) {
      expect(p.dte ?? -1, `${p.symbol}: DTE`).toBeGreaterThan(0);
      expect(p.levels, `${p.symbol}: the dealers' levels of its snapshot`).not.toBeNull();
      expect(p.greeks, `${p.symbol}: greeks from the snapshot's IV`).not.toBeNull();
    }
    // The dealers' map of each underlying answers for the same snapshot the marks come from.
    for (const mark of body.marksAsOf) {
      const gex = await t.get<GexResponseT>(`/v1/gex?symbol=${mark.symbol}&snapshot=${mark.snapshotId}`);
      expect(gex.status).toBe(200);
      expect(gex.body.meta.snapshotId).toBe(mark.snapshotId);
    }
  });
});
