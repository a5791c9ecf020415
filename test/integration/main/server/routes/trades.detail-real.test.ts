/**
 * GET /journal/trades/{id} over real broker files (../shared/fixtures/brokers through test/paths.ts; skipped when
 * absent), imported through the API: the detail of every trade is its row of /journal/trades, its timeline is the
 * row's legs, and a closed trade's timeline cash adds up to its pnl (each row rounded to the cent on its own: within half
 * a cent a row; to the minor unit in test/unit/shared/journal/trades.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TradeDetailResponseT, TradeJson, TradesResponseT } from '../../../../../src-shared/api/schemas';
import { manualClock } from '../../../../clock';
import { useTestApp } from '../../../../helper';
import { BROKER_FIXTURES_SHARED } from '../../../../paths';

/** A wheel with rolls and assignments (tastytrade), and a Robinhood wheel whose history starts mid-way (trades opened before it). */
const FILES = ['tastytrade_v2_21col_MPW_wheel_binnaculum.csv', 'robinhood_activity_wheel_real_optionstradingtracker.csv'];

describe('the detail of every trade of real files', () => {
  const t = useTestApp({ clock: manualClock('2026-03-09T00:00:00Z') });

  it.each(FILES)('%s: each detail equals its list row, its timeline the legs; a closed trade’s cash adds up to its pnl', async (file) => {
    const before = await t.get<TradesResponseT>('/v1/journal/trades?limit=1');
    const imported = await t.request({ method: 'POST', url: '/v1/imports', headers: { 'content-type': 'text/csv' }, payload: readFileSync(join(BROKER_FIXTURES_SHARED, file), 'utf8') });
    expect(imported.statusCode, imported.body).toBe(201);
    const list: TradeJson[] = [];
    for (let page = 1; ; page += 1) {
      const { body } = await t.get<TradesResponseT>(`/v1/journal/trades?limit=100&page=${page}`);
      list.push(...body.trades);
      if (page >= body.pagination.pages) break;
    }
    const added = list.length - before.body.pagination.total;
    expect(added, 'the file makes trades').toBeGreaterThan(10);
    let closed = 0;
    let rolled = 0;
    for (const row of list) {
      const { status, body } = await t.get<TradeDetailResponseT>(`/v1/journal/trades/${encodeURIComponent(row.id)}`);
      expect(status, row.id).toBe(200);
      expect(body.trade, row.id).toEqual(row);
      expect(body.timeline.map((e) => [e.transactionId, e.type, e.symbol, e.tradeDate, e.date, e.role, e.quantity, e.realizedPL])).toEqual(
        row.legs.map((leg) => [leg.transactionId, leg.type, leg.symbol, leg.tradeDate, leg.date, leg.role, leg.quantity, leg.realizedPL]),
      );
      for (const entry of body.timeline) expect(entry.price === null || entry.rowQuantity === null, `${row.id}: the row of ${entry.transactionId} is read`).toBe(false);
      if (row.legs.some((leg) => leg.role === 'open')) rolled += 1;
      if (row.status !== 'closed' || row.pnl === null) {
        if (row.openedBeforeHistory) expect(body.timeline.every((e) => e.runningRealizedPL === null)).toBe(true);
        continue;
      }
      closed += 1;
      const cashCents = body.timeline.reduce((sum, e) => sum + Math.round(e.cash * 100), 0);
      expect(Math.abs(cashCents - Math.round(row.pnl * 100)), `${row.id}: Σ cash ${cashCents / 100} vs pnl ${row.pnl}`).toBeLessThanOrEqual(Math.ceil(body.timeline.length / 2));
      expect(body.timeline.at(-1)?.runningRealizedPL, row.id).toBe(row.pnl);
    }
    expect(closed).toBeGreaterThan(5);
    if (file.startsWith('tastytrade')) expect(rolled, 'the MPW wheel rolls').toBeGreaterThan(0);
  });
});
