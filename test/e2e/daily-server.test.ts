/**
 * Issue 18's server part in Chromium against `strikebook serve --demo`: the Events page opens its live stream with a
 * one-use ticket, never with the key in a URL; a campaign's page shows the rule of its peak collateral (the demo's SPY
 * strangle: Reg T, with the strike for the spot: the demo market has no snapshot of its entry), the same figure its timeline shows that day. Screenshots:
 * test-results/screenshots/daily-server-*.
 */
import { describe, expect, it } from 'vitest';
import type { CampaignDetailResponseT, CampaignsResponseT, SnapshotsResponseT } from '../../src-shared/api/schemas';
import { api, goTo, screenshot } from './harness';
import { serveForSuite } from './suite';

describe('issue 18, server part, on the demo', () => {
  const suite = serveForSuite({ demo: true });

  it('Events: the live stream opens with a ticket; no URL the page asks for carries the key', async () => {
    const served = suite.served();
    await suite.onPage({ width: 1440, theme: 'light' }, async (page) => {
      const urls: string[] = [];
      page.on('request', (request) => urls.push(request.url()));
      await goTo(page, 'Events');
      await expect.poll(() => page.getByTestId('live-state').textContent(), { timeout: 15_000 }).toBe('Live');
      const streams = urls.filter((url) => url.includes('/v1/gex/events/stream?'));
      expect(streams.length, 'the page opened the stream').toBeGreaterThan(0);
      for (const url of streams) expect(url).toMatch(/[&?]ticket=[\w-]{43}/);
      expect(urls.filter((url) => url.includes(served.key) || url.includes('access_token')), 'the key is in no URL').toEqual([]);
      await screenshot(page, 'daily-server-events-live');
    });
  });

  for (const [width, theme] of [
    [1440, 'light'],
    [390, 'dark'],
  ] as const) {
    it(`a strangle's campaign page names its Reg T collateral rule (${width} px, ${theme})`, async () => {
      const served = suite.served();
      const open = await api<CampaignsResponseT>(served, '/journal/chains?status=open&symbol=SPY');
      const spy = open.chains[0];
      // The demo stores a snapshot of each traded underlying 5 minutes before each opening: the naked call's Reg T reads
      // the spot of the SPY snapshot of its entry, one of those stored, dated within the campaign.
      const rule = /^Reg T, spot (\d+\.\d\d) from the (\d{4}-\d\d-\d\d) snapshot$/.exec(spy?.collateralRule ?? '');
      expect(rule, `the demo’s SPY strangle is margined by Reg T, and says where its spot came from: ${spy?.collateralRule ?? ''}`).not.toBeNull();
      const snapshots = await api<SnapshotsResponseT>(served, '/snapshots?symbol=SPY');
      const newYorkDay = (iso: string) => new Date(iso).toLocaleDateString('en-CA', { timeZone: 'America/New_York' });
      expect(snapshots.snapshots.some((x) => x.spot.toFixed(2) === rule?.[1] && newYorkDay(x.quoteTime) === rule[2]), 'a stored SPY snapshot of that spot and day').toBe(true);
      expect((rule?.[2] ?? '') >= (spy?.openedAt ?? '9999'), `quoted within the campaign (opened ${spy?.openedAt ?? ''})`).toBe(true);
      const detail = await api<CampaignDetailResponseT>(served, `/journal/chains/${encodeURIComponent(spy?.id ?? '')}`);
      expect(Math.max(...detail.timeline.map((s) => s.collateral)), 'the timeline’s largest figure is the peak').toBe(detail.chain.collateralPeak);
      await suite.onPage({ width, theme }, async (page) => {
        await page.evaluate((hash) => (window.location.hash = hash), `#/campaigns/${encodeURIComponent(spy?.id ?? '')}`);
        await page.getByTestId('campaign-title').waitFor();
        expect(await page.getByTestId('collateral-rule').textContent()).toBe(` · ${spy?.collateralRule ?? ''}`);
        await screenshot(page, `daily-server-campaign-${width}-${theme}`);
      });
    });
  }
});
