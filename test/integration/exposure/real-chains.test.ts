import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExpirationsResponseT, GexResponseT, VannaResponseT } from '../../../src-shared/api/schemas';
import { buildTestApp, CHAIN_FIXTURES, type TestApp } from '../../helper';

const files = existsSync(CHAIN_FIXTURES) ? readdirSync(CHAIN_FIXTURES).filter((f) => f.endsWith('.csv')).sort() : [];

/** The wall by DESIGN §4 computed from the per-strike rows: largest |value|, ties to the strike nearest spot, then the lower. */
function wallFrom(rows: GexResponseT['data'], pick: (row: GexResponseT['data'][number]) => number, spot: number): number | null {
  let best: { strike: number; value: number } | null = null;
  for (const row of rows) {
    const value = pick(row);
    if (value <= 0) continue;
    if (
      best === null ||
      value > best.value ||
      (value === best.value && (Math.abs(row.strike - spot) < Math.abs(best.strike - spot) || (Math.abs(row.strike - spot) === Math.abs(best.strike - spot) && row.strike < best.strike)))
    ) {
      best = { strike: row.strike, value };
    }
  }
  return best?.strike ?? null;
}

describe.skipIf(files.length === 0)('every route on the eight real CBOE chains', () => {
  let t: TestApp;
  const symbols = new Map<string, string>();
  beforeAll(async () => {
    t = await buildTestApp();
    // Four files are SPX: each gets a symbol of its own (the `symbol` override) so that none hides another.
    for (const [index, file] of files.entries()) {
      const symbol = `${file.split('_')[0]}.${index}`;
      const response = await t.request({ method: 'POST', url: `/v1/chains?symbol=${symbol}`, headers: { 'content-type': 'text/csv' }, payload: readFileSync(join(CHAIN_FIXTURES, file), 'utf8') });
      expect(response.statusCode, `${file}: ${response.body.slice(0, 300)}`).toBe(201);
      symbols.set(file, response.json<{ symbol: string }>().symbol);
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it.each(files)('%s: /expirations, /gex (3 nearest and whole chain) and /vanna agree with their own rows', async (file) => {
    const symbol = symbols.get(file) ?? '';
    const expirations = (await t.get<ExpirationsResponseT>(`/v1/expirations?symbol=${symbol}`)).body;
    expect(expirations.expirations.length).toBeGreaterThan(0);
    expect(expirations.details.map((d) => d.expiration)).toEqual(expirations.expirations);
    for (const detail of expirations.details) expect(detail.dte).toBeGreaterThanOrEqual(0);

    for (const query of ['', `&expirations=${expirations.expirations.join(',')}`]) {
      const gex = await t.get<GexResponseT>(`/v1/gex?symbol=${symbol}&formula=per_1pct${query}`);
      expect(gex.status).toBe(200);
      const g = gex.body;
      const total = g.data.reduce((sum, row) => sum + row.netGEX, 0);
      expect(Math.abs(g.totalGEX - total), 'totalGEX = Σ netGEX').toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(total)));
      expect(g.callWall?.strike ?? null, 'call wall = argmax callGEX (ties: nearest spot, then lower)').toBe(wallFrom(g.data, (r) => r.callGEX, g.stockPrice));
      expect(g.putWall?.strike ?? null, 'put wall = argmin putGEX').toBe(wallFrom(g.data, (r) => -r.putGEX, g.stockPrice));
      expect(g.gammaZone).toBe(g.totalGEX >= 0 ? 'positive' : 'negative');
      if (g.gammaInflection !== null) {
        expect(g.gammaInflection).toBeGreaterThanOrEqual(0.8 * g.stockPrice);
        expect(g.gammaInflection).toBeLessThanOrEqual(1.2 * g.stockPrice);
      }
      for (const row of g.data) expect(row.callOI + row.putOI, 'a row exists only where there is open interest').toBeGreaterThan(0);
    }

    const vanna = await t.get<VannaResponseT>(`/v1/vanna?symbol=${symbol}`);
    expect(vanna.status).toBe(200);
    const v = vanna.body;
    expect(v.keyLevels.vannaRegime).toBe(v.totalVanna >= 0 ? 'positive' : 'negative');
    const bulls = v.data.filter((r) => r.strike > v.stockPrice && r.bull > 0);
    const bullTarget = bulls.length === 0 ? null : bulls.reduce((a, b) => (b.bull > a.bull ? b : a)).strike;
    expect(v.keyLevels.bullDriftTarget, 'bull drift target = strike above spot with the largest positive bull').toBe(bullTarget);
    for (const row of v.data) {
      expect(row.bull, 'bull = VEX − CEX, bear = −VEX − CEX: bull + bear = −2·CEX').toBeCloseTo(-2 * row.charm - row.bear, 3);
    }
  });

  it('NDX 2022-02-04 whole-chain flip is within 1% of the published 14,686', async () => {
    const symbol = symbols.get('NDX_quotedata_2022-02-04close_luca.csv') ?? 'NDX';
    const ndx = (await t.get<ExpirationsResponseT>(`/v1/expirations?symbol=${symbol}`)).body;
    const g = (await t.get<GexResponseT>(`/v1/gex?symbol=${symbol}&expirations=${ndx.expirations.join(',')}`)).body;
    expect(g.gammaInflection).not.toBeNull();
    expect(Math.abs((g.gammaInflection ?? 0) / 14_686 - 1)).toBeLessThan(0.01);
  });
});
