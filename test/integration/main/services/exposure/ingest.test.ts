import { describe, expect, it } from 'vitest';
import type { ExpirationsResponseT } from '../../../../../src-shared/api/schemas';
import { useTestApp } from '../../../../helper';
import { readChain } from '../../../../quotedata';

/**
 * A generic chain quoted Monday 2026-02-02 16:30 New York: the 2026-02-02 expiration closed at 16:00, XYZ1 is an
 * adjusted root (alone on 2026-03-20), XYZ lists 2026-02-20 and 2026-03-20.
 */
const CHAIN = [
  '# symbol: XYZ',
  '# spot: 100',
  '# quoteTime: 2026-02-02T16:30',
  'expiration,strike,right,openInterest,iv,bid,ask,root',
  '2026-02-02,100,C,500,0.2,0,0.05,XYZ',
  '2026-02-02,100,P,400,0.2,0,0.05,XYZ',
  '2026-02-20,100,C,1200,0.31,4.1,4.3,XYZ',
  '2026-02-20,100,P,900,0.33,2.8,3.0,XYZ',
  '2026-02-20,105,C,300,7.5,0.1,0.2,XYZ',
  '2026-02-20,105,P,0,0,0,0,XYZ',
  '2026-03-20,100,C,700,0.3,5.1,5.3,XYZ',
  '2026-03-20,100,C,150,0.3,9.1,9.3,XYZ1',
  '2026-04-17,100,P,150,0.3,9.1,9.3,XYZ1',
].join('\n');

describe('POST /v1/chains: what the report counts and what is refused', () => {
  const t = useTestApp();
  const post = (payload: string, query = '') => t.request({ method: 'POST', url: `/v1/chains${query}`, headers: { 'content-type': 'text/csv' }, payload });

  it('counts the expirations /v1/expirations shows (unexpired, standard roots) and the contracts it leaves out', async () => {
    const response = await post(CHAIN);
    expect(response.statusCode, response.body).toBe(201);
    const report = response.json<{ contracts: number; expirations: number; excluded: Record<string, number> }>();
    const expirations = (await t.get<ExpirationsResponseT>('/v1/expirations?symbol=XYZ')).body;
    // 2026-02-02 expired at 16:00, 2026-04-17 has only an XYZ1 contract: two of the file's four dates are shown.
    expect(expirations.expirations).toEqual(['2026-02-20', '2026-03-20']);
    expect(report.expirations, 'the same count as /expirations').toBe(2);
    expect(report.contracts, 'every contract read').toBe(9);
    // Expired: the two 2026-02-02 contracts. Adjusted: both XYZ1 ones. IV 7.5 with OI 300: no exposure; the 105 put
    // has IV 0 but no open interest, so it would contribute nothing anyway and is not counted.
    expect(report.excluded).toEqual({ expired: 2, adjusted: 2, unusableIv: 1 });
    expect(expirations.meta.excludedContracts).toBe(2);
    expect(expirations.details.map((d) => d.contracts), 'XYZ1 is not among the 2026-03-20 contracts').toEqual([4, 1]);
  });

  it('refuses a chain with nothing unexpired at its quote time: 422 naming the quote time and the newest expiration', async () => {
    const late = await post(CHAIN.replace('XYZ', 'LATE'), '?quoteTime=2026-04-17T16:05');
    expect(late.statusCode).toBe(422);
    const problem = late.json<{ code: string; detail: string }>();
    expect(problem.code).toBe('IMPORT_FAILED');
    expect(problem.detail).toContain('2026-04-17 16:05 New York time');
    expect(problem.detail, 'the newest expiration of the file').toContain('the newest expiration is 2026-04-17');
    expect(problem.detail).toContain('quoteTime=');
    const stored = (await t.get<{ symbols: Array<{ symbol: string }> }>('/v1/chains')).body.symbols.map((s) => s.symbol);
    expect(stored, 'nothing stored').not.toContain('LATE');

    // Unexpired contracts exist, but all of them are adjusted.
    const adjustedOnly = await post(CHAIN.replace('XYZ', 'ADJ'), '?quoteTime=2026-03-20T16:05');
    expect(adjustedOnly.statusCode).toBe(422);
    expect(adjustedOnly.json<{ detail: string }>().detail).toMatch(/every unexpired contract .* has an adjusted root \(XYZ1/);
  });

  it('refuses the real one-expiration SPX file quoted after that expiration', async () => {
    const response = await post(readChain('SPX_quotedata_2025-01-06_20rows_dorel.csv'), '?quoteTime=2025-01-07T16:30');
    expect(response.statusCode).toBe(422);
    expect(response.json<{ detail: string }>().detail).toContain('the newest expiration is 2025-01-07');
  });
});
