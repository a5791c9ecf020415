/**
 * Issue 18's campaigns through the API: a naked call's peak collateral is Reg T at the spot of the snapshot at its
 * entry, and `collateralRule` says so (the UI shows it beside the peak); the campaign list leaves out a chain of
 * shares alone; the summary's "trades by type" leaves out deposits.
 */
import { describe, expect, it } from 'vitest';
import type { CampaignDetailResponseT, CampaignsResponseT, SummaryResponseT } from '../../../../../src-shared/api/schemas';
import type { OptionContract } from '../../../../../src-shared/exposure/model';
import { storeChain, useTestApp } from '../../../../helper';

const t = useTestApp();

function contract(right: 'C' | 'P', strike: number): OptionContract {
  return { root: 'NKD', expiration: '2024-02-16', strike, right, openInterest: 1000, iv: 0.3, bid: 2.4, ask: 2.6, multiplier: 100 };
}

describe('campaigns (issue 18)', () => {
  it('a naked call: Reg T at the entry snapshot’s spot, its rule named; stock-only chains and deposits are left out', async () => {
    // 2024-01-05 10:30 New York: spot 182.10.
    storeChain(t.ctx, { symbol: 'NKD', spot: 182.1, quoteTime: '2024-01-05T15:30:00Z', source: 'generic', contracts: [contract('C', 190), contract('P', 170)] });
    const stored = await t.request({
      method: 'POST',
      url: '/v1/journal/transactions',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        transactions: [
          { account: 'Margin', date: '2024-01-02T14:00:00Z', type: 'DEPOSIT', amount: 50000 },
          { account: 'Margin', date: '2024-01-05T16:00:00Z', type: 'SELL_TO_OPEN', symbol: 'NKD', expiration: '2024-02-16', strike: 190, right: 'C', quantity: 1, price: 2.5 },
          { account: 'Margin', date: '2024-01-08T15:00:00Z', type: 'BUY', symbol: 'VTI', quantity: 0.1, price: 250 },
          { account: 'Margin', date: '2024-01-15T15:00:00Z', type: 'BUY', symbol: 'VTI', quantity: 0.1, price: 250 },
        ],
      }),
    });
    expect(stored.statusCode, stored.body).toBe(201);

    const list = await t.get<CampaignsResponseT>('/v1/journal/chains?asOf=2024-01-20');
    expect(list.status).toBe(200);
    expect(list.body.chains.map((c) => c.underlying), 'VTI bought alone is no campaign').toEqual(['NKD']);
    const [naked] = list.body.chains;
    // OTM 7.90; 20 % of 182.10 = 36.42; 36.42 − 7.90 = 28.52 × 100 = 2,852 + premium 250 = 3,102 (it was $0.00).
    expect(naked?.collateralPeak).toBe(3102);
    expect(naked?.collateralRule).toBe('Reg T, spot 182.10 from the 2024-01-05 snapshot');

    const detail = await t.get<CampaignDetailResponseT>(`/v1/journal/chains/${encodeURIComponent(naked?.id ?? '')}?asOf=2024-01-20`);
    expect(detail.status).toBe(200);
    expect(detail.body.chain.collateralPeak, 'the card').toBe(3102);
    expect(detail.body.timeline.map((s) => s.collateral), 'the timeline').toEqual([3102]);

    const summary = await t.get<SummaryResponseT>('/v1/journal/summary?year=2024');
    expect(summary.body.stats.tradesByType.DEPOSIT, 'a deposit is not a trade').toBeUndefined();
    expect(summary.body.stats.otherRowsByType.DEPOSIT).toBe(1);
    expect(summary.body.stats.chains.opened, 'flat-to-flat chains, stock-only ones included').toBe(2);
  });
});
