import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExpirationsResponseT, GexResponseT, VannaResponseT } from '../../../../../src-shared/api/schemas';
import { buildTestApp, type TestApp } from '../../../../helper';
import {
  CHAIN_TABLE,
  chainFiles as files,
  expiryMs,
  isAdjusted,
  liveContracts,
  rawContracts,
  readChain,
  settlementGroups,
  type RawContract,
} from '../../../../quotedata';

/** The wall by docs/exposure.md computed from the per-strike rows: largest |value|, ties to the strike nearest spot, then the lower. */
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

const RATE = 0.04;

/**
 * Dealer gamma (shares per $1, the `nominal` unit) of one side at one strike of one expiration, by hand from the
 * file's rows (docs/exposure.md): forward by parity per settlement group, BSM gamma e^{−qT}φ(d1)/(Sσ√T) with
 * e^{−qT} = e^{−rT}F/S, times s·OI·100, for contracts with OI > 0 and 0 < IV ≤ 5.
 */
function handGamma(live: readonly RawContract[], expiration: string, strike: number, right: 'C' | 'P', spot: number, quoteTime: string): number {
  let total = 0;
  for (const { contracts: group, tYears, forward } of settlementGroups(live, expiration, spot, RATE, quoteTime)) {
    for (const c of group) {
      if (c.strike !== strike || c.right !== right || !(c.openInterest > 0) || !(c.iv > 0 && c.iv <= 5)) continue;
      const sigmaSqrtT = c.iv * Math.sqrt(tYears);
      const d1 = (Math.log(forward / strike) + (c.iv * c.iv * tYears) / 2) / sigmaSqrtT;
      const carryDiscount = (Math.exp(-RATE * tYears) * forward) / spot;
      const gamma = (carryDiscount * Math.exp((-d1 * d1) / 2)) / Math.sqrt(2 * Math.PI) / (spot * sigmaSqrtT);
      total += (right === 'C' ? 1 : -1) * gamma * c.openInterest * 100;
    }
  }
  return total;
}

interface IngestReport {
  symbol: string;
  spot: number;
  quoteTime: string;
  contracts: number;
  expirations: number;
  excluded: { expired: number; adjusted: number; unusableIv: number };
}

describe('every route on the real CBOE chains', () => {
  let t: TestApp;
  const reports = new Map<string, IngestReport>();
  const rows: string[] = [];
  beforeAll(async () => {
    t = await buildTestApp();
    // Four files are SPX: each gets a symbol of its own (the `symbol` override) so that none hides another.
    for (const [index, file] of files.entries()) {
      const symbol = `${file.split('_')[0]}.${index}`;
      const response = await t.request({ method: 'POST', url: `/v1/chains?symbol=${symbol}`, headers: { 'content-type': 'text/csv' }, payload: readChain(file) });
      expect(response.statusCode, `${file}: ${response.body.slice(0, 300)}`).toBe(201);
      reports.set(file, response.json<IngestReport>());
    }
  }, 120_000);
  afterAll(async () => {
    console.log(
      [
        'file | contracts read | expired | adjusted | IV ≤ 0 or > 5 (with OI) | quote time (UTC) | spot | expirations | figure checked (nearest expiration, nominal)',
        ...rows,
      ].join('\n'),
    );
    await t?.close();
  });

  it('reads all twelve files of the fixtures README', () => {
    expect(files).toEqual(CHAIN_TABLE.map((row) => row.file).sort());
  });

  it.each(CHAIN_TABLE.map((row) => row.file))('%s: the ingest report, /expirations and the nearest /gex agree with a hand computation from the rows', async (file) => {
    const fixture = CHAIN_TABLE.find((row) => row.file === file);
    const report = reports.get(file);
    if (fixture === undefined || report === undefined) throw new Error(`${file} was not ingested`);
    const { quoteTime, spot } = fixture;
    const raw = rawContracts(readChain(file));
    const quoteMs = Date.parse(quoteTime);
    const live = liveContracts(raw, quoteTime);
    const expired = raw.filter((c) => !(expiryMs(c) > quoteMs)).length;
    const adjusted = raw.filter((c) => expiryMs(c) > quoteMs && isAdjusted(c)).length;
    const unusableIv = live.filter((c) => c.openInterest > 0 && !(c.iv > 0 && c.iv <= 5)).length;
    const liveExpirations = [...new Set(live.map((c) => c.expiration))].sort();

    expect(report.contracts, 'every contract of the file is read').toBe(raw.length);
    expect(report.quoteTime, 'the Date: line').toBe(new Date(quoteTime).toISOString());
    expect(report.spot).toBe(spot);
    expect(report.excluded, 'expired at the quote time / adjusted roots / unusable IV, counted from the rows').toEqual({ expired, adjusted, unusableIv });
    expect(report.expirations, 'the report counts what /expirations shows').toBe(liveExpirations.length);

    const symbol = report.symbol;
    const expirations = (await t.get<ExpirationsResponseT>(`/v1/expirations?symbol=${symbol}`)).body;
    expect(expirations.expirations, 'unexpired expirations of standard roots').toEqual(liveExpirations);
    expect(expirations.meta.excludedContracts).toBe(adjusted);
    const nearest = liveExpirations[0] ?? '';
    const detail = expirations.details[0];
    expect(detail?.contracts, 'contracts of the nearest expiration').toBe(live.filter((c) => c.expiration === nearest).length);
    expect(detail?.openInterest).toBe(live.filter((c) => c.expiration === nearest).reduce((sum, c) => sum + c.openInterest, 0));

    const gex = (await t.get<GexResponseT>(`/v1/gex?symbol=${symbol}&expirations=${nearest}`)).body;
    expect(gex.meta.excludedContracts).toBe(adjusted);
    const oi = new Map<number, { callOI: number; putOI: number }>();
    for (const c of live.filter((c) => c.expiration === nearest)) {
      const entry = oi.get(c.strike) ?? { callOI: 0, putOI: 0 };
      if (c.right === 'C') entry.callOI += c.openInterest;
      else entry.putOI += c.openInterest;
      oi.set(c.strike, entry);
    }
    const expectedRows = [...oi.entries()].filter(([, v]) => v.callOI + v.putOI > 0).sort(([a], [b]) => a - b);
    expect(gex.data.map((r) => [r.strike, { callOI: r.callOI, putOI: r.putOI }]), 'per-strike open interest = the rows’ sums').toEqual(expectedRows);

    const figures: string[] = [];
    for (const side of ['call', 'put'] as const) {
      const wall = side === 'call' ? gex.callWall : gex.putWall;
      if (wall === null) continue;
      const hand = handGamma(live, nearest, wall.strike, side === 'call' ? 'C' : 'P', spot, quoteTime);
      expect(wall.gex / hand, `${side} wall ${wall.strike}: engine ${wall.gex} vs hand ${hand}`).toBeCloseTo(1, 9);
      figures.push(`${side} wall ${wall.strike} ${wall.gex.toFixed(1)} (hand ${hand.toFixed(1)})`);
    }
    rows.push(
      [file, raw.length, expired, adjusted, unusableIv, report.quoteTime, spot, `${liveExpirations.length} (nearest ${nearest})`, figures.join(', ') || 'no walls'].join(' | '),
    );
  });

  it.each(files)('%s: /gex (3 nearest and whole chain) and /vanna agree with their own rows', async (file) => {
    const symbol = reports.get(file)?.symbol ?? '';
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
    expect(v.meta.excludedContracts).toBe(expirations.meta.excludedContracts);
    expect(v.keyLevels.vannaRegime).toBe(v.totalVanna >= 0 ? 'positive' : 'negative');
    const bulls = v.data.filter((r) => r.strike > v.stockPrice && r.bull > 0);
    const bullTarget = bulls.length === 0 ? null : bulls.reduce((a, b) => (b.bull > a.bull ? b : a)).strike;
    expect(v.keyLevels.bullDriftTarget, 'bull drift target = strike above spot with the largest positive bull').toBe(bullTarget);
    for (const row of v.data) {
      expect(row.bull, 'bull = VEX − CEX, bear = −VEX − CEX: bull + bear = −2·CEX').toBeCloseTo(-2 * row.charm - row.bear, 3);
    }
  });

  it('NDX 2022-02-04 whole-chain flip is within 1% of the published 14,686', async () => {
    const symbol = reports.get('NDX_quotedata_2022-02-04close_luca.csv')?.symbol ?? 'NDX';
    const ndx = (await t.get<ExpirationsResponseT>(`/v1/expirations?symbol=${symbol}`)).body;
    const g = (await t.get<GexResponseT>(`/v1/gex?symbol=${symbol}&expirations=${ndx.expirations.join(',')}`)).body;
    expect(g.gammaInflection).not.toBeNull();
    expect(Math.abs((g.gammaInflection ?? 0) / 14_686 - 1)).toBeLessThan(0.01);
  });

  it('SPX 2024-01-05 whole chain per 1% is within the published sanity bounds (total −11.00bn, call-side peak 4800)', async () => {
    const symbol = reports.get('SPX_quotedata_2024-01-05close_phammings.csv')?.symbol ?? 'SPX';
    const spx = (await t.get<ExpirationsResponseT>(`/v1/expirations?symbol=${symbol}`)).body;
    const g = (await t.get<GexResponseT>(`/v1/gex?symbol=${symbol}&formula=per_1pct&expirations=${spx.expirations.join(',')}`)).body;
    expect(Math.abs(g.totalGEX / -11.0e9 - 1)).toBeLessThan(0.05);
    expect(g.callWall?.strike).toBe(4800);
  });
});
