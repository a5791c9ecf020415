/**
 * The demo stores a snapshot of each traded underlying just before each opening (issue 27 item 11): every trade of the
 * demo has its levels, regime and delta at entry, so the reports by regime, strike against the levels and delta show
 * rows (they showed one "No snapshot at entry" row each); a second load prices nothing again.
 */
import { describe, expect, it } from 'vitest';
import type { StatsResponseT, TradesResponseT } from '../../../../src-shared/api/schemas';
import { manualClock } from '../../../clock';
import { useTestApp } from '../../../helper';

describe('the demo reports by entry', () => {
  const t = useTestApp({ clock: manualClock('2026-11-26T17:00:00Z') });

  it('regime, strike vs levels and delta at entry have rows beyond "unknown"; every trade has its entry snapshot 5 minutes before it', async () => {
    const loaded = await t.request({ method: 'POST', url: '/v1/demo' });
    expect(loaded.statusCode, loaded.body).toBe(200);
    const stats = async (groupBy: string) => (await t.get<StatsResponseT>(`/v1/journal/stats?groupBy=${groupBy}`)).body.rows;
    const zones = await stats('zoneAtEntry');
    expect(zones.map((r) => r.key).sort(), 'both regimes, none without a snapshot').toEqual(['negative', 'positive']);
    const places = await stats('strikeVsLevels');
    expect(places.length).toBeGreaterThanOrEqual(2);
    expect(places.some((r) => r.key === 'unknown')).toBe(false);
    const deltas = await stats('deltaAtEntry');
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    expect(deltas.some((r) => r.key === 'unknown')).toBe(false);
    // The three reports count the same closed trades.
    const closed = (await stats('strategy')).reduce((n, r) => n + r.trades, 0);
    for (const rows of [zones, places, deltas]) expect(rows.reduce((n, r) => n + r.trades, 0)).toBe(closed);

    const trades = (await t.get<TradesResponseT>('/v1/journal/trades?limit=100')).body.trades;
    expect(trades.length).toBeGreaterThan(30);
    for (const trade of trades) {
      expect(trade.levelsAtEntry, trade.id).not.toBeNull();
      expect(trade.deltaAtEntry, trade.id).not.toBeNull();
      expect(Date.parse(trade.openedAt ?? '') - Date.parse(trade.entrySnapshot?.quoteTime ?? ''), `${trade.id}: quoted 5 minutes before the opening`).toBe(5 * 60_000);
      // A sold put's own delta is negative, a sold call's positive; short premium sellers sell out of the money (|Δ| < 0.5).
      const delta = trade.deltaAtEntry ?? 0;
      expect(Math.sign(delta), trade.id).toBe(trade.mainLeg?.right === 'P' ? -1 : 1);
      expect(Math.abs(delta), trade.id).toBeLessThan(0.5);
    }
  });

  it('a second load finds them stored: nothing new', async () => {
    const again = await t.request({ method: 'POST', url: '/v1/demo' });
    expect(again.json()).toEqual({ transactions: 0, snapshots: 0, events: 0 });
  });
});
