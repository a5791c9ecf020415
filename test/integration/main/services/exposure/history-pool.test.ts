/**
 * Cold /gex/history through the pool of exposure workers (services/exposure/history-pool.ts): each missing point computed once
 * however many requests miss it together, both workers used, a request given up leaves the rest of its points
 * uncomputed, and every point equals the snapshot's own /gex levels.
 */
import { describe, expect, it } from 'vitest';
import type { GexResponseT } from '../../../../../src-shared/api/schemas';
import type { OptionContract } from '../../../../../src-shared/exposure/model';
import { HISTORY_BATCH, HISTORY_WORKERS } from '../../../../../src-main/services/exposure/history-pool';
import { storeChain, useTestApp } from '../../../../helper';
import { contract, snapshot } from '../../../../exposure-helpers';
import { asTicker } from '../../../../../src-shared/ids';

const SNAPSHOTS = 40;

/** A small book of four weekly expirations, strikes 80–120, its open interest moving with `index`. */
function chain(index: number) {
  const contracts: OptionContract[] = [];
  for (const expiration of ['2026-02-06', '2026-02-13', '2026-02-20', '2026-02-27']) {
    for (let strike = 80; strike <= 120; strike += 2.5) {
      const skew = (100 - strike) / 100;
      contracts.push(contract({ expiration, strike, right: 'C', openInterest: 500 + ((index * 37 + strike * 11) % 900), iv: 0.2 - skew * 0.1 }));
      contracts.push(contract({ expiration, strike, right: 'P', openInterest: 700 + ((index * 53 + strike * 7) % 1100), iv: 0.2 + skew * 0.2 }));
    }
  }
  // Half an hour apart from 2026-02-02 09:30 New York, spot drifting.
  const quoteTime = new Date(Date.parse('2026-02-02T14:30:00Z') + index * 1_800_000).toISOString();
  return snapshot(contracts, 96 + index * 0.2, quoteTime);
}

describe('cold history in the pool of exposure workers', () => {
  const t = useTestApp({ overrides: { snapshotRetention: 1000 } });

  it(`computes each of ${SNAPSHOTS} missing points once for three requests together, in ${HISTORY_WORKERS} workers, equal to /gex`, async () => {
    for (let i = 0; i < SNAPSHOTS; i += 1) storeChain(t.ctx, chain(i));
    const pool = t.ctx.exposure.historyPool;
    const before = pool.computed;
    const query = { symbol: asTicker('XYZ'), expirationsCount: 2, formula: 'per_1pct' as const };
    const answers = await Promise.all([0, 1, 2].map(() => t.ctx.exposure.gexHistory(query)));
    expect(pool.computed - before, 'each point once').toBe(SNAPSHOTS);
    expect(pool.started, `${SNAPSHOTS} points are ${Math.ceil(SNAPSHOTS / HISTORY_BATCH)} batches`).toBe(HISTORY_WORKERS);
    const [first, ...others] = answers.map((answer) => (answer.ok ? answer.value.points : []));
    expect(first).toHaveLength(SNAPSHOTS);
    for (const other of others) expect(other).toStrictEqual(first);
    // Each point is the snapshot's /gex in the same scope.
    for (const point of (first ?? []).filter((_, i) => i % 7 === 0)) {
      const gex = await t.get<GexResponseT>(`/v1/gex?symbol=XYZ&expirationsCount=2&formula=per_1pct&snapshot=${point.snapshotId}`);
      expect(gex.status).toBe(200);
      const { totalGEX, gammaZone, gammaInflection, callWall, putWall } = gex.body;
      expect({ totalGEX, gammaZone, gammaInflection, callWall, putWall, spot: gex.body.stockPrice }).toStrictEqual({
        totalGEX: point.totalGEX,
        gammaZone: point.gammaZone,
        gammaInflection: point.gammaInflection,
        callWall: point.callWall,
        putWall: point.putWall,
        spot: point.spot,
      });
    }
    // Kept: the next request computes nothing.
    const again = await t.ctx.exposure.gexHistory(query);
    expect(again.ok && again.value.points).toStrictEqual(first);
    expect(pool.computed - before).toBe(SNAPSHOTS);
  });

  it('every stored snapshot has its default-scope point in each formula: those histories compute nothing', async () => {
    const pool = t.ctx.exposure.historyPool;
    const before = pool.computed;
    const scopes = t.ctx.db.prepare<[], string>("SELECT DISTINCT scope FROM gex_history WHERE scope LIKE '%||3||' ORDER BY scope").pluck().all();
    expect(scopes).toEqual(['nominal||3||', 'per_1dollar||3||', 'per_1pct||3||']);
    for (const formula of ['nominal', 'per_1dollar', 'per_1pct'] as const) {
      const answer = await t.ctx.exposure.gexHistory({ symbol: asTicker('XYZ'), formula });
      expect(answer.ok && answer.value.points.length).toBe(SNAPSHOTS);
      const last = answer.ok ? answer.value.points.at(-1) : undefined;
      const gex = await t.get<GexResponseT>(`/v1/gex?symbol=XYZ&formula=${formula}`);
      expect(last?.totalGEX).toBe(gex.body.totalGEX);
      expect(last?.callWall).toStrictEqual(gex.body.callWall);
    }
    expect(pool.computed - before).toBe(0);
  });

  it('a request given up stops after the batches already sent; a later one computes only the rest', async () => {
    const pool = t.ctx.exposure.historyPool;
    const before = pool.computed;
    const query = { symbol: asTicker('XYZ'), expirationsCount: 1 };
    const controller = new AbortController();
    const given = t.ctx.exposure.gexHistory(query, controller.signal);
    controller.abort();
    const answer = await given;
    expect(pool.queued, 'nothing left waiting').toBe(0);
    const computed = pool.computed - before;
    expect(computed, 'at most one batch per worker').toBeLessThanOrEqual(HISTORY_WORKERS * HISTORY_BATCH);
    expect(answer.ok && answer.value.points.length).toBe(computed);
    const whole = await t.ctx.exposure.gexHistory(query);
    expect(whole.ok && whole.value.points.length).toBe(SNAPSHOTS);
    expect(pool.computed - before, 'the rest, once').toBe(SNAPSHOTS);
  });
});
