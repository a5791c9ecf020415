/**
 * Volume by strike on /gex rows (issue 21 item 5): each strike's callVolume and putVolume are the Volume columns of a
 * real CBOE quotedata file summed by the test's own reader (test/quotedata.ts), over the
 * expirations /gex used; a snapshot whose source has no volume answers null, never 0.
 */
import { describe, expect, it } from 'vitest';
import type { GexResponseT } from '../../../../../src-shared/api/schemas';
import { storeChain, useTestApp } from '../../../../helper';
import { CHAIN_TABLE, liveContracts, rawContracts, readChain } from '../../../../quotedata';

const t = useTestApp();

/** Per strike of the given expirations: Σ volume and Σ open interest by side, from the file's rows. */
function handSums(file: string, quoteTime: string, expirations: readonly string[]) {
  const sums = new Map<number, { callVolume: number; putVolume: number; callOI: number; putOI: number }>();
  for (const c of liveContracts(rawContracts(readChain(file)), quoteTime)) {
    if (!expirations.includes(c.expiration)) continue;
    const row = sums.get(c.strike) ?? { callVolume: 0, putVolume: 0, callOI: 0, putOI: 0 };
    if (c.right === 'C') {
      row.callVolume += c.volume;
      row.callOI += Math.max(c.openInterest, 0);
    } else {
      row.putVolume += c.volume;
      row.putOI += Math.max(c.openInterest, 0);
    }
    sums.set(c.strike, row);
  }
  return sums;
}

describe('volume by strike on /gex, summed by hand from a real quotedata file', () => {
  it.each([
    ['SPX_quotedata_2024-01-05close_phammings.csv', ''],
    ['SPY_quotedata_2025-05-16_photon1c.csv', '&minDte=0'],
  ])('%s', async (file, scope) => {
    const fixture = CHAIN_TABLE.find((row) => row.file === file);
    if (fixture === undefined) throw new Error(`${file} is not in the fixtures table`);
    const posted = await t.request({ method: 'POST', url: '/v1/chains', headers: { 'content-type': 'text/csv' }, payload: readChain(file) });
    expect(posted.statusCode, posted.body).toBeLessThan(300);
    const { id } = posted.json<{ id: number }>();
    const gex = await t.get<GexResponseT>(`/v1/gex?symbol=${fixture.symbol}&snapshot=${id}${scope}`);
    expect(gex.status).toBe(200);
    const hand = handSums(file, fixture.quoteTime, gex.body.meta.expirations);
    // The rows are the strikes with open interest (docs/exposure.md); volume traded at a strike without any is not a row.
    const withOpenInterest = [...hand].filter(([, s]) => s.callOI + s.putOI > 0).map(([strike]) => strike).sort((a, b) => a - b);
    expect(gex.body.data.map((r) => r.strike)).toEqual(withOpenInterest);
    let traded = 0;
    for (const row of gex.body.data) {
      const expected = hand.get(row.strike);
      expect({ strike: row.strike, callVolume: row.callVolume, putVolume: row.putVolume }).toEqual({ strike: row.strike, callVolume: expected?.callVolume, putVolume: expected?.putVolume });
      traded += (row.callVolume ?? 0) + (row.putVolume ?? 0);
    }
    expect(traded, 'the chain traded: a test of zeros would pass anything').toBeGreaterThan(1000);
  });
});

describe('a snapshot without volume', () => {
  it('answers null volumes, not zeros', async () => {
    const contracts = [4900, 5000, 5100].flatMap((strike) =>
      (['C', 'P'] as const).map((right) => ({ root: 'NOVOL', expiration: '2099-12-18', strike, right, openInterest: 100, iv: 0.2, bid: 1, ask: 1.2, multiplier: 100 })),
    );
    storeChain(t.ctx, { symbol: 'NOVOL', spot: 5000, quoteTime: '2099-11-20T15:00:00.000Z', source: 'generic', contracts });
    const gex = await t.get<GexResponseT>('/v1/gex?symbol=NOVOL');
    expect(gex.status).toBe(200);
    expect(gex.body.data.map((r) => [r.callVolume, r.putVolume])).toEqual([
      [null, null],
      [null, null],
      [null, null],
    ]);
  });
});
