/**
 * Issue 21 on the real CBOE downloads of ../shared/fixtures/chains: per-expiration statistics against a hand
 * computation from the rows (max pain by the brute-force scan), delta exposure against Black–Scholes by hand and
 * against the GEX by finite differences, every flip root a sign change of the profile's definition, the grid's rows
 * against /gex per expiration, and the sweep (table exp, Chebyshev interpolants) against the definition to 1e−9.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExpirationsResponseT, GexGridResponseT, GexProfileResponseT, GexResponseT } from '../../../../../src-shared/api/schemas';
import { parseChainFile } from '../../../../../src-main/chains/index';
import { deltaAt } from '../../../../../src-shared/exposure/dex';
import { computeGex, usableContracts } from '../../../../../src-shared/exposure/gex';
import { expirationDetails } from '../../../../../src-shared/exposure/chain-reads';
import { prepareChain, type PreparedChain } from '../../../../../src-shared/exposure/prepare';
import { sweepProfile } from '../../../../../src-shared/exposure/sweep';
import { buildTestApp, type TestApp } from '../../../../helper';
import { CHAIN_TABLE, liveContracts, rawContracts, readChain, settlementGroups } from '../../../../quotedata';
import { bsDelta, handProfile, handStats, RATE } from './chain-figures';

const relative = (a: number, b: number): number => (a === b ? 0 : Math.abs(a - b) / Math.max(Math.abs(b), Number.MIN_VALUE));
const fixture = (file: string) => {
  const row = CHAIN_TABLE.find((r) => r.file === file);
  if (row === undefined) throw new Error(`${file} is not in the fixtures table`);
  return row;
};

/** Every file prepared once, from the parser (the tests compare it with the rows, read by the test's own reader). */
const prepared = new Map<string, PreparedChain>();
function chainOf(file: string): PreparedChain {
  let chain = prepared.get(file);
  if (chain === undefined) {
    const parsed = parseChainFile(readChain(file));
    if (!parsed.ok) throw new Error(`${file}: ${JSON.stringify(parsed.errors.slice(0, 3))}`);
    chain = prepareChain(parsed.snapshot, { rate: RATE });
    prepared.set(file, chain);
  }
  return chain;
}

describe('per-expiration statistics on the twelve real chains, by hand from the rows', () => {
  it.each(CHAIN_TABLE.map((row) => row.file))('%s', (file) => {
    const { spot, quoteTime } = fixture(file);
    const live = liveContracts(rawContracts(readChain(file)), quoteTime);
    const details = expirationDetails(chainOf(file));
    expect(details.length).toBeGreaterThan(0);
    for (const detail of details) {
      const hand = handStats(live, detail.expiration, spot, quoteTime);
      const at = `${file} ${detail.expiration}`;
      expect(detail.atmStrike, `${at}: ATM strike`).toBe(hand.atmStrike);
      expect(detail.straddle === null ? null : relative(detail.straddle, hand.straddle ?? Number.NaN), `${at}: straddle`).toBe(hand.straddle === null ? null : 0);
      expect(detail.atmIV === null ? null : relative(detail.atmIV, hand.atmIV ?? Number.NaN), `${at}: ATM IV`).toBe(hand.atmIV === null ? null : 0);
      expect(detail.expectedMovePct === null ? null : relative(detail.expectedMovePct, (hand.straddle ?? 0) / spot), `${at}: expected move ÷ S`).toBe(hand.straddle === null ? null : 0);
      expect({ callOI: detail.callOI, putOI: detail.putOI, callVolume: detail.callVolume, putVolume: detail.putVolume }, `${at}: OI and volume summed from the rows`).toEqual({
        callOI: hand.callOI,
        putOI: hand.putOI,
        callVolume: hand.callVolume,
        putVolume: hand.putVolume,
      });
      expect(detail.putCallOIRatio, `${at}: put/call OI`).toBe(hand.callOI > 0 ? hand.putOI / hand.callOI : null);
      if (hand.maxPain === null) {
        expect(detail.maxPain).toBeNull();
      } else {
        // The O(n) walk and the scan sum in different orders: the strikes agree unless two pains tie to rounding.
        expect(detail.maxPain, `${at}: max pain`).not.toBeNull();
        expect(relative(hand.pain(detail.maxPain ?? 0), hand.pain(hand.maxPain)), `${at}: the max pain strike's pain is the least`).toBeLessThan(1e-12);
        expect(detail.maxPain, `${at}: max pain against the brute-force scan`).toBe(hand.maxPain);
      }
      expect(detail.skew25, `${at}: 25-delta skew`).toBe(hand.skew25);
    }
  });
});

describe('delta exposure on the real chains', () => {
  it.each(CHAIN_TABLE.map((row) => row.file))('%s: DEX per strike of the nearest expiration by hand; d(DEX)/dS = Σ Γ·OI·m by central differences over the whole chain', (file) => {
    const { spot, quoteTime } = fixture(file);
    const chain = chainOf(file);
    const live = liveContracts(rawContracts(readChain(file)), quoteTime);
    const nearest = chain.expirations[0]?.expiration ?? '';
    const gex = computeGex(chain, { expirations: [nearest], formula: 'nominal', exact: true });
    const groups = settlementGroups(live, nearest, spot, RATE, quoteTime);
    for (const row of gex.data) {
      let call = 0;
      let put = 0;
      for (const group of groups) {
        for (const c of group.contracts) {
          if (c.strike !== row.strike || !(c.openInterest > 0) || !(c.iv > 0 && c.iv <= 5)) continue;
          const dex = bsDelta(c, group, spot) * c.openInterest * 100;
          if (c.right === 'C') call += dex;
          else put += dex;
        }
      }
      expect(Math.abs(row.callDEX - call), `${file} ${nearest} ${row.strike} call DEX`).toBeLessThanOrEqual(1e-9 * Math.max(Math.abs(call), 1e-6));
      expect(Math.abs(row.putDEX - put), `${file} ${nearest} ${row.strike} put DEX`).toBeLessThanOrEqual(1e-9 * Math.max(Math.abs(put), 1e-6));
    }
    const all = chain.expirations.map((e) => e.expiration);
    const whole = computeGex(chain, { expirations: all, formula: 'nominal', exact: true });
    const contracts = usableContracts(chain, chain.expirations);
    expect(relative(deltaAt(chain, contracts, spot), whole.totalDEX), 'deltaAt(S) is totalDEX').toBeLessThan(1e-9);
    expect(whole.totalDEXNotional).toBeCloseTo(whole.totalDEX * spot, 3);
    const h = 1e-5 * spot;
    const slope = (deltaAt(chain, contracts, spot + h) - deltaAt(chain, contracts, spot - h)) / (2 * h);
    // The open interest's own gamma is positive on both sides; /gex signs it for the dealers (puts negative).
    const gammaShares = whole.data.reduce((sum, row) => sum + row.callGEX - row.putGEX, 0);
    expect(relative(slope, gammaShares), `${file}: (DEX(S+h) − DEX(S−h))/2h against Σ Γ·OI·m`).toBeLessThan(1e-4);
  });
});

describe('the sweep against the definition', () => {
  it.each(CHAIN_TABLE.map((row) => row.file))('%s: the whole chain’s gamma and vanna profiles to 1e−9 relative (1e−13 of the largest |P| where P is near 0)', (file) => {
    const chain = chainOf(file);
    const indices = usableContracts(chain, chain.expirations);
    for (const kind of ['gamma', 'vanna'] as const) {
      const sweep = sweepProfile(chain, indices, kind);
      const definition = Array.from(sweep.levels, (x) => {
        let sum = 0;
        for (const i of indices) {
          const d = (chain.d1[i] ?? 0) + Math.log(x / chain.spot) * (chain.invSigmaSqrtT[i] ?? 0);
          const bell = (kind === 'gamma' ? (chain.gammaCoef[i] ?? 0) : (chain.vannaCoef[i] ?? 0)) * Math.exp(-0.5 * d * d);
          sum += kind === 'gamma' ? bell : bell * (d - (chain.sigmaSqrtT[i] ?? 0));
        }
        return kind === 'gamma' ? sum / x : sum * x * 0.01;
      });
      const largest = Math.max(...definition.map(Math.abs));
      definition.forEach((value, p) => {
        expect(Math.abs((sweep.values[p] ?? 0) - value), `${file} ${kind} at ${sweep.levels[p]}`).toBeLessThanOrEqual(1e-9 * Math.abs(value) + 1e-13 * largest);
      });
    }
  });
});

describe('the chain picture through the API', () => {
  let t: TestApp;
  const FILES = ['SPX_quotedata_2024-01-05close_phammings.csv', 'NDX_quotedata_2023-05-26_ayour.csv', 'AMD_quotedata_2023-08-18close_aryaman.csv'];
  beforeAll(async () => {
    t = await buildTestApp();
    for (const file of FILES) {
      const response = await t.request({ method: 'POST', url: '/v1/chains', headers: { 'content-type': 'text/csv' }, payload: readChain(file) });
      expect(response.statusCode, response.body.slice(0, 300)).toBe(201);
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it.each(FILES)('%s: /expirations carries the engine’s statistics and the term structure', async (file) => {
    const symbol = fixture(file).symbol;
    const body = (await t.get<ExpirationsResponseT>(`/v1/expirations?symbol=${symbol}`)).body;
    const details = expirationDetails(chainOf(file));
    expect(body.details).toEqual(details);
    expect(body.termStructure).toEqual(details.map(({ expiration, dte, atmIV }) => ({ expiration, dte, atmIV })));
    expect(body.details.some((d) => d.skew25 !== null && d.straddle !== null && d.callVolume !== null), 'real chains have skews, straddles and volume').toBe(true);
  });

  it('SPX whole chain: every flip root is a sign change of the definition, /gex and /gex/profile agree', async () => {
    const file = FILES[0] ?? '';
    const { spot, quoteTime } = fixture(file);
    const gex = (await t.get<GexResponseT>('/v1/gex?symbol=SPX&minDte=0&formula=per_1pct')).body;
    const profile = (await t.get<GexProfileResponseT>('/v1/gex/profile?symbol=SPX&minDte=0')).body;
    expect(gex.flipRoots.length).toBeGreaterThan(0);
    expect(gex.flipStatus).toBe(gex.flipRoots.length === 1 ? 'ok' : 'multiple');
    expect(profile.flipRoots).toEqual(gex.flipRoots);
    expect(profile.flipStatus).toBe(gex.flipStatus);
    expect(gex.gammaInflection, 'the inflection is the root nearest S').toBe([...gex.flipRoots].sort((a, b) => Math.abs(a - spot) - Math.abs(b - spot))[0]);
    const P = handProfile(liveContracts(rawContracts(readChain(file)), quoteTime), gex.meta.expirations, spot, quoteTime);
    for (const root of gex.flipRoots) {
      const step = 1e-6 * spot;
      expect(Math.sign(P(root - step)), `the definition changes sign across ${root}`).toBe(-Math.sign(P(root + step)));
    }
    expect(gex.totalDEX).toBeCloseTo(gex.data.reduce((sum, row) => sum + row.netDEX, 0), 3);
  });

  it('NDX (AM and PM settlements): the grid’s rows are /gex per expiration over the strikes within [0.8S, 1.2S]', async () => {
    const grid = (await t.get<GexGridResponseT>('/v1/gex/grid?symbol=NDX&formula=per_1dollar')).body;
    const expirations = (await t.get<ExpirationsResponseT>('/v1/expirations?symbol=NDX')).body.expirations;
    expect(grid.expirations, 'default: the whole chain').toEqual(expirations);
    expect(grid.unit).toBe('USD of delta per $1 move');
    expect(grid.strikes.every((k) => k >= 0.8 * grid.stockPrice && k <= 1.2 * grid.stockPrice)).toBe(true);
    for (const [index, expiration] of grid.expirations.entries()) {
      const gex = (await t.get<GexResponseT>(`/v1/gex?symbol=NDX&expirations=${expiration}&formula=per_1dollar`)).body;
      const within = gex.data.filter((r) => r.strike >= 0.8 * gex.stockPrice && r.strike <= 1.2 * gex.stockPrice);
      const row = grid.netGEX[index] ?? [];
      const sum = row.reduce((a, b) => a + b, 0);
      const expected = within.reduce((a, r) => a + r.netGEX, 0);
      expect(Math.abs(sum - expected), `${expiration}: row sum`).toBeLessThanOrEqual(1e-9 * Math.max(...within.map((r) => Math.abs(r.netGEX)), 1));
      for (const r of within) {
        const k = grid.strikes.indexOf(r.strike);
        expect(Math.abs((row[k] ?? Number.NaN) - r.netGEX), `${expiration} ${r.strike}`).toBeLessThanOrEqual(1e-12 * Math.abs(r.netGEX));
      }
    }
    const near = (await t.get<GexGridResponseT>('/v1/gex/grid?symbol=NDX&maxDte=7')).body;
    expect(near.expirations, 'maxDte=7').toEqual(expirations.filter((e) => (Date.parse(e) - Date.parse('2023-05-26')) / 86_400_000 <= 7));
  });
});
