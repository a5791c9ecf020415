/**
 * An option a corporate action adjusted is marked only from a chain that lists its adjusted root (DESIGN §5
 * "Corporate actions"): a short Xilinx put through AMD's acquisition of Xilinx (1.7234 AMD per XLNX, 2022-02-14)
 * becomes an AMD1 put delivering 172.34 AMD shares, and the real AMD chain of 2023-08-18's close lists AMD1 beside
 * the standard AMD contracts, at other prices. Figures by hand from the file's rows.
 */
import { describe, expect, it } from 'vitest';
import type { PositionsResponseT } from '../../../../../src-shared/api/schemas';
import { useTestApp } from '../../../../helper';
import { readChain } from '../../../../quotedata';

const t = useTestApp();

function send(method: 'POST', url: string, body: unknown) {
  return t.request({ method, url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
}

describe('an adjusted contract marked from its own root', () => {
  it('XLNX 2024-01-19 80 put → AMD1 put: marked at the AMD1 row’s mid, 0.40, never at the AMD row’s 2.495', async () => {
    const chain = await t.request({ method: 'POST', url: '/v1/chains?symbol=AMD', headers: { 'content-type': 'text/csv' }, payload: readChain('AMD_quotedata_2023-08-18close_aryaman.csv') });
    expect(chain.statusCode, chain.body).toBe(201);
    const sold = await send('POST', '/v1/journal/transactions', { transactions: [{ account: 'Acct', type: 'SELL_TO_OPEN', symbol: 'XLNX', expiration: '2024-01-19', strike: 80, right: 'P', quantity: 1, price: 5, date: '2021-12-01' }] });
    expect(sold.statusCode, sold.body).toBe(201);
    const merger = await send('POST', '/v1/journal/corporate-actions', { type: 'merger', symbol: 'XLNX', newSymbol: 'AMD', ratio: 1.7234, date: '2022-02-14' });
    expect(merger.statusCode, merger.body).toBe(201);
    const { body } = await t.get<PositionsResponseT>('/v1/journal/positions?asOf=2023-08-21T03:00Z');
    const [put] = body.positions;
    expect(body.positions).toHaveLength(1);
    expect(put).toMatchObject({ symbol: 'AMD1240119P00080000', underlying: 'AMD', quantity: -1, strike: 80, costBasis: -500 });
    expect(put?.deliverable, '1.7234 × 100 AMD shares a contract, under AMD1').toEqual({ root: 'AMD1', shares: [{ symbol: 'AMD', quantity: 172.34 }], cash: 0 });
    // The file's AMD1240119P00080000 row: bid 0.01, ask 0.79 (the standard AMD240119P00080000: 2.46 / 2.53).
    expect(put?.mark?.price, '(0.01 + 0.79) / 2').toBeCloseTo(0.4, 10);
    expect(put?.marketValue, '−1 × 0.40 × 100').toBe(-40);
    expect(put?.unrealizedPL, '−40 − (−500)').toBe(460);
    expect(put?.greeks, 'no greeks: its deliverable is not 100 shares').toBeNull();
  });
});
