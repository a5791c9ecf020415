/**
 * /journal/chains on the real tastytrade TSLL and MPW wheels (Binnaculum's files, test/fixtures/brokers), against
 * Binnaculum's own per-campaign figures where its conventions and ours define the same thing (docs/journal.md
 * §Campaigns says where they differ).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CampaignDetailResponseT, CampaignsResponseT } from '../../../../../src-shared/api/schemas';
import { useTestApp } from '../../../../helper';
import { REPO_ROOT, SHARED_FIXTURES } from '../../../../paths';

const BINNACULUM = join(SHARED_FIXTURES, 'brokers', 'binnaculum_EXPECTED_operations_TSLL_MPW_PFE.json');

interface Expected {
  openDate: string;
  isOpen: boolean;
  realized: number;
  premium: number;
  commissions: number;
  fees: number;
  dividends: number;
  dividendTaxes: number;
  capitalDeployed: number;
}

const cents = (value: number) => Math.round(value * 100);

describe('campaigns of the real TSLL and MPW wheels against Binnaculum', () => {
  const app = useTestApp();
  const expected = JSON.parse(readFileSync(BINNACULUM, 'utf8')) as Record<'TSLL' | 'MPW', Expected[]>;

  // Both files, read by every it (an it of its own before: shuffled, the TSLL and MPW tests ran first on an empty journal).
  beforeAll(async () => {
    for (const file of ['tastytrade_v2_21col_TSLL_wheel_binnaculum.csv', 'tastytrade_v2_21col_MPW_wheel_binnaculum.csv']) {
      const response = await app.request({ method: 'POST', url: '/v1/imports', headers: { 'content-type': 'text/csv' }, payload: readFileSync(join(REPO_ROOT, 'test/fixtures/brokers', file)) });
      expect(response.statusCode, response.body).toBe(201);
    }
  });

  for (const symbol of ['TSLL', 'MPW'] as const) {
    it(`${symbol}: the same campaigns, opening the same days, open or closed alike; options-only campaigns net the same option cash; dividends net of withholding`, async () => {
      const { body } = await app.get<CampaignsResponseT>(`/v1/journal/chains?symbol=${symbol}&limit=100`);
      const ours = [...body.chains].sort((a, b) => a.openedAt.localeCompare(b.openedAt));
      const theirs = expected[symbol];
      expect(ours.map((c) => [c.openedAt, c.status])).toEqual(theirs.map((e) => [e.openDate, e.isOpen ? 'open' : 'closed']));
      let optionsOnly = 0;
      for (const [index, campaign] of ours.entries()) {
        const e = theirs[index];
        if (e === undefined) continue;
        const detail = (await app.get<CampaignDetailResponseT>(`/v1/journal/chains/${encodeURIComponent(campaign.id)}`)).body;
        expect(detail.timeline.map((s) => s.transactionId)).toEqual(campaign.legs);
        // Binnaculum's premium is the gross option cash; its commissions and fees are the campaign's, shares included.
        // Without share legs both sides name the same cash: premium − commissions − fees = our net option cash.
        if (!detail.timeline.some((s) => s.type === 'BUY' || s.type === 'SELL')) {
          optionsOnly += 1;
          expect(cents(campaign.netOptionCash), `${campaign.openedAt} net option cash`).toBe(cents(e.premium - e.commissions - e.fees));
          expect(cents(campaign.realizedPL), `${campaign.openedAt} realized`).toBe(cents(e.realized));
        }
        // Binnaculum keeps withholding apart; ours is net (docs/journal.md §Figures). Where it books a dividend, so do we.
        if (e.dividends > 0) expect(cents(campaign.dividends), `${campaign.openedAt} dividends`).toBe(cents(e.dividends - e.dividendTaxes));
        // pnl and returns follow from the figures above.
        expect(cents(campaign.pnl)).toBe(cents(campaign.realizedPL + campaign.dividends - campaign.fees));
        // (from the rounded cents here, from minor units there)
        if (campaign.collateralPeak > 0) expect(campaign.returnOnCollateral).toBeCloseTo(campaign.pnl / campaign.collateralPeak, 6);
      }
      expect(optionsOnly).toBeGreaterThanOrEqual(symbol === 'TSLL' ? 5 : 4);
    });
  }

  it('pages: newest opened first, the pages together are the whole list, limit clamped to 100', async () => {
    const whole = (await app.get<CampaignsResponseT>('/v1/journal/chains?limit=100')).body;
    const total = whole.pagination.total;
    expect(whole.chains, 'both files fit in one page of 100').toHaveLength(total);
    expect(total, 'more campaigns than a page of 7').toBeGreaterThan(7);
    const opened = whole.chains.map((c) => c.openedAt);
    expect(opened, 'newest opened first').toEqual([...opened].sort().reverse());
    const paged: string[] = [];
    for (let page = 1; page <= Math.ceil(total / 7); page += 1) {
      const { body } = await app.get<CampaignsResponseT>(`/v1/journal/chains?limit=7&page=${page}`);
      expect(body.pagination).toEqual({ page, limit: 7, total, pages: Math.ceil(total / 7) });
      paged.push(...body.chains.map((c) => c.id));
    }
    expect(paged).toEqual(whole.chains.map((c) => c.id));
    const beyond = (await app.get<CampaignsResponseT>(`/v1/journal/chains?limit=7&page=${Math.ceil(total / 7) + 1}`)).body;
    expect(beyond.chains, 'past the last page: none').toEqual([]);
    expect((await app.get<CampaignsResponseT>('/v1/journal/chains?limit=1000')).body.pagination.limit, 'clamped as transactions are').toBe(100);
    expect((await app.get<CampaignsResponseT>('/v1/journal/chains')).body.pagination.limit, 'default page size').toBe(25);
  });

  it('puts-only campaigns: the peak collateral is Binnaculum’s capital deployed (strike × 100 per open put)', async () => {
    const { body } = await app.get<CampaignsResponseT>('/v1/journal/chains?symbol=TSLL&limit=100');
    const byDate = new Map(body.chains.map((c) => [c.openedAt, c]));
    // Campaigns of short puts only, one at a time at each close (the others hold shares, long options or intraday overlaps).
    for (const date of ['2024-05-30', '2025-07-29', '2025-09-02']) {
      const e = expected.TSLL.find((x) => x.openDate === date);
      expect(byDate.get(date)?.collateralPeak, date).toBe(e?.capitalDeployed);
    }
  });
});
