/**
 * Issue 18 (the daily workflow) in Chromium against `strikebook serve --demo`, at 1440 and 390 px in both themes:
 * Positions shows the demo's book marked and on the dealers' map (the demo trades the demo market's symbols), each
 * short strike against its expected move (worked out here from /v1/expirations of the marks' snapshot), the table
 * sorts and filters and fits a phone; Events never shows a negative DTE; a campaign opens on its own page where the
 * user looks; a refused key can always be changed (Change key, a new #key= link); Settings shows the port it serves
 * on; the Journal's Chains card says what its open count counts. Screenshots: test-results/screenshots/daily-*.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { CampaignDetailResponseT, CampaignsResponseT, EventsResponse, ExpirationsResponseT, PositionsResponseT, SummaryResponseT } from '../../src-shared/api/schemas';
import type { Static } from 'typebox';
import { api, goTo, openPage, screenshot, type Served } from './harness';
import { serveForSuite } from './suite';

const THEMES = ['light', 'dark'] as const;
const SIZES = [1440, 390] as const;

function signedMoney(value: number): string {
  const text = `$${Math.abs(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  return value > 0 ? `+${text}` : value < 0 ? `−${text}` : text;
}

/** The expected-move cell as the page should write it, computed here from the API's straddle and the marks' spot. */
async function expectedMoveText(served: Served, data: PositionsResponseT, p: PositionsResponseT['positions'][number]): Promise<string | null> {
  const mark = data.marksAsOf.find((m) => m.symbol === p.underlying);
  if (!mark || p.strike === null || p.quantity >= 0) return null;
  const expirations = await api<ExpirationsResponseT>(served, `/expirations?symbol=${p.underlying}&snapshot=${mark.snapshotId}`);
  const move = expirations.details.find((d) => d.expiration === p.expiration)?.expectedMove ?? null;
  if (move === null) return null;
  const beyond = p.right === 'P' ? mark.spot - move - p.strike : p.strike - (mark.spot + move);
  const pct = (beyond / mark.spot) * 100;
  return `${Math.abs(pct).toFixed(1)}% ${pct < 0 ? 'in' : 'out'}`;
}

async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}

/** Whether an element's right edge is inside the window (a column a phone shows without scrolling). */
async function inView(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).first().boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  return box !== null && box.x >= 0 && box.x + box.width <= width + 0.5;
}

describe('issue 18 on the demo', () => {
  const suite = serveForSuite({ demo: true });

  for (const theme of THEMES) {
    for (const width of SIZES) {
      it(`Positions at ${width} px (${theme}): the demo's book marked, on the dealers' map, against its expected moves`, async () => {
        const served = suite.served();
        const data = await api<PositionsResponseT>(served, '/journal/positions');
        expect(data.positions.length, 'the demo leaves positions open').toBeGreaterThan(0);
        const expected = new Map<string, string | null>();
        for (const p of data.positions) expected.set(p.symbol, await expectedMoveText(served, data, p));
        await suite.onPage({ width, height: 900, theme }, async (page) => {
          await goTo(page, 'Positions');
          await page.waitForSelector('[data-testid="positions-table"]');
          expect(await page.locator('[data-testid="position-row"]').count()).toBe(data.positions.length);
          expect(await page.getByTestId('positions-left-out').textContent(), 'every position marked by a fresh snapshot').toBe('all marked');
          expect(await page.getByTestId('mark-unmarked').count()).toBe(0);
          expect(await page.getByTestId('positions-unrealized').textContent()).toContain(signedMoney(data.totals.unrealizedPL));
          // Each underlying with short options is drawn on the dealers' map of the snapshot its marks come from.
          for (const mark of data.marksAsOf) {
            const shorts = data.positions.filter((p) => p.underlying === mark.symbol && p.isOption && p.quantity < 0);
            if (shorts.length === 0) continue;
            const map = page.getByTestId(`map-${mark.symbol}`);
            await map.locator('canvas').first().waitFor();
            expect(await map.getAttribute('data-snapshot-id'), `${mark.symbol}: the marks' snapshot`).toBe(String(mark.snapshotId));
            const legend = page.getByTestId(`map-shorts-${mark.symbol}`).locator('li[data-strike]');
            expect((await legend.evaluateAll((items) => items.map((i) => Number(i.getAttribute('data-strike'))))).sort()).toEqual(shorts.map((p) => p.strike ?? 0).sort());
            expect(await legend.evaluateAll((items) => items.every((i) => i.getAttribute('data-strike') === i.getAttribute('data-drawn-at'))), 'every short strike is listed and drawn at itself').toBe(true);
          }
          if (width === 1440) {
            for (const p of data.positions) {
              const text = expected.get(p.symbol) ?? null;
              if (text === null) continue;
              await expect.poll(() => page.locator(`[data-testid="position-row"][data-symbol="${p.symbol}"] [data-testid="move-distance"]`).textContent(), { message: `${p.symbol} vs its expected move` }).toBe(text);
            }
          } else {
            expect(await scrollsSideways(page), 'the page fits 390 px').toBe(false);
            const fits = await page.getByTestId('positions-table').evaluate((table) => table.getBoundingClientRect().width <= (table.parentElement?.clientWidth ?? 0) + 0.5);
            expect(fits, 'the table fits its box: nothing to scroll to').toBe(true);
            for (const col of ['instrument', 'qty', 'unrealized', 'dte']) expect(await inView(page, `[data-testid="position-row"] td[data-col="${col}"]`), `${col} in view`).toBe(true);
          }
          await screenshot(page, `daily-positions-demo-${width}-${theme}`);
        });
      });
    }
  }

  it('Positions: a header sorts within the groups (DTE: the underlying that expires first on top), options only, maps on demand', async () => {
    const data = await api<PositionsResponseT>(suite.served(), '/journal/positions');
    const options = data.positions.filter((p) => p.isOption);
    const nearest = [...options].sort((a, b) => (a.dte ?? 0) - (b.dte ?? 0))[0];
    await suite.onPage({ width: 1440, theme: 'light' }, async (page) => {
      await goTo(page, 'Positions');
      await page.waitForSelector('[data-testid="positions-table"]');
      await page.getByTestId('sort-dte').click();
      expect(await page.locator('[data-testid="positions-table"] tbody').first().getAttribute('data-testid')).toBe(`book-${nearest?.underlying ?? ''}`);
      // Within each group the DTEs ascend (shares, without one, last).
      for (const group of await page.locator('[data-testid="positions-table"] tbody').all()) {
        const dtes = (await group.locator('td[data-col="dte"]').allTextContents()).filter((t) => t !== '').map(Number);
        expect(dtes).toEqual([...dtes].sort((a, b) => a - b));
      }
      await page.getByTestId('options-only').check();
      await expect.poll(() => page.locator('[data-testid="position-row"]').count(), { message: 'the shares leave' }).toBe(options.length);
      const withShorts = [...new Set(options.filter((p) => p.quantity < 0).map((p) => p.underlying))];
      const symbol = withShorts[0] ?? '';
      await page.getByTestId(`map-toggle-${symbol}`).click();
      expect(await page.getByTestId(`map-${symbol}`).count(), 'Hide map').toBe(0);
      await page.getByTestId(`map-toggle-${symbol}`).click();
      await page.getByTestId(`map-${symbol}`).locator('canvas').first().waitFor();
      await screenshot(page, 'daily-positions-sorted-dte');
    });
  });

  for (const theme of THEMES) {
    it(`Events (${theme}): DTE today is never negative; an expiration already past says "expired"`, async () => {
      const events = await api<Static<typeof EventsResponse>>(suite.served(), '/gex/events?limit=25&scope=all');
      // The Events page lists every scope by default (per expiration, the book, your strikes), as scope=all does.
      // The demo market is the trading day before today: its own 0DTE books (a Monday, Wednesday or Friday of SPX and
      // SPY) have expired by now. On other days there may be none; the format is checked all the same (and by
      // test/unit/renderer/pages/daily-figures.test.ts).
      const past = events.events.filter((e) => e.dte < 0).length;
      await suite.onPage({ width: 1440, theme }, async (page) => {
        await goTo(page, 'Events');
        await page.waitForSelector('[data-testid="events-table"]');
        const cells = await page.getByTestId('event-dte').allTextContents();
        expect(cells.length).toBe(25);
        expect(cells.every((text) => text === 'expired' || /^\d+$/.test(text)), cells.join(' ')).toBe(true);
        expect(cells.filter((text) => text === 'expired').length).toBe(past);
        await screenshot(page, `daily-events-${theme}`);
      });
    });
  }

  for (const theme of THEMES) {
    for (const width of SIZES) {
      it(`Campaigns at ${width} px (${theme}): a row opens its own page at the top, back returns to the same list, short campaigns are not annualized`, async () => {
        const served = suite.served();
        const all = await api<CampaignsResponseT>(served, '/journal/chains?limit=100');
        const open = await api<CampaignsResponseT>(served, '/journal/chains?limit=100&status=open');
        // The last open campaign on the list: far down the page before issue 18.
        const target = open.chains.at(-1);
        expect(target).toBeDefined();
        const detail = await api<CampaignDetailResponseT>(served, `/journal/chains/${encodeURIComponent(target?.id ?? '')}`);
        await suite.onPage({ width, height: 900, theme }, async (page) => {
          await goTo(page, 'Campaigns');
          await page.waitForSelector('[data-testid="campaigns-table"]');
          expect(await page.getByTestId('campaign-row').count()).toBe(all.chains.length);
          if (width === 1440) {
            const short = all.chains.filter((c) => c.days < 7 || c.annualizedReturn === null).length;
            expect(await page.locator('[data-testid="campaigns-table"] [data-testid="annualized-na"]').count(), 'n/a where under 7 days').toBe(short);
          } else {
            expect(await scrollsSideways(page)).toBe(false);
            expect(await inView(page, '[data-testid="campaign-row"] td:nth-child(7)'), 'P&L in view at 390 px').toBe(true);
            expect(await inView(page, '[data-testid="campaign-row"] td:nth-child(1)'), 'the underlying in view').toBe(true);
          }
          await page.getByRole('group', { name: 'Status' }).getByRole('button', { name: 'Open' }).click();
          await expect.poll(() => page.getByTestId('campaign-row').count()).toBe(open.chains.length);
          await page.getByTestId('campaign-row').last().click();
          await page.getByTestId('campaign-title').waitFor();
          expect(await page.evaluate(() => window.location.hash)).toBe(`#/campaigns/${encodeURIComponent(target?.id ?? '')}?status=open`);
          const box = await page.getByTestId('campaign-title').boundingBox();
          expect(box !== null && box.y >= 0 && box.y < 900, 'the campaign opens where the user looks').toBe(true);
          await page.waitForSelector('[data-testid="campaign-timeline"]');
          expect(await page.locator('[data-testid="campaign-timeline"] tbody tr').count()).toBe(detail.timeline.length);
          await screenshot(page, `daily-campaign-detail-${width}-${theme}`);
          await page.getByTestId('campaign-back').click();
          await page.waitForSelector('[data-testid="campaigns-table"]');
          expect(await page.getByRole('group', { name: 'Status' }).getByRole('button', { name: 'Open' }).getAttribute('aria-pressed'), 'back to the same filter').toBe('true');
          expect(await page.getByTestId('campaign-row').count()).toBe(open.chains.length);
          await screenshot(page, `daily-campaigns-${width}-${theme}`);
        });
      });
    }
  }

  it('a campaign is deep-linkable, and its old address (?id=) moves to its own page', async () => {
    const served = suite.served();
    const first = (await api<CampaignsResponseT>(served, '/journal/chains?limit=1')).chains[0];
    const id = encodeURIComponent(first?.id ?? '');
    const { context, page, errors } = await openPage(suite.browser(), served, { width: 1440, theme: 'dark' });
    try {
      await page.evaluate((hash) => (window.location.hash = hash), `#/campaigns/${id}`);
      expect(await page.getByTestId('campaign-title').textContent()).toBe(`${first?.underlying ?? ''} campaign`);
      await page.evaluate((hash) => (window.location.hash = hash), `#/campaigns?id=${id}`);
      await expect.poll(() => page.evaluate(() => window.location.hash)).toBe(`#/campaigns/${id}`);
      await page.getByTestId('campaign-title').waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('Journal: the Chains card says its open count is what is open now, and opens that list', async () => {
    const served = suite.served();
    const summary = await api<SummaryResponseT>(served, '/journal/summary');
    const open = await api<CampaignsResponseT>(served, '/journal/chains?limit=100&status=open');
    expect(summary.stats.chains.open, 'the current year counts what is open now').toBe(open.pagination.total);
    await suite.onPage({ width: 1440, theme: 'light' }, async (page) => {
      await page.waitForSelector('[data-testid="year-stats"]');
      expect(await page.getByTestId('open-chains').textContent()).toBe(`${summary.stats.chains.open} open now`);
      await page.getByTestId('open-chains').click();
      await expect.poll(() => page.getByTestId('campaign-row').count()).toBe(open.chains.length);
    });
  });

  it('Journal and Exposure at 390 px: no summary card cuts its sub-line short ("459 tra…")', async () => {
    await suite.onPage({ width: 390, height: 844, theme: 'light' }, async (page) => {
      for (const [name, ready] of [
        ['Journal', '[data-testid="year-stats"]'],
        ['Exposure', '[data-testid="gex-key-numbers"]'],
      ] as const) {
        await goTo(page, name);
        await page.waitForSelector(ready);
        await page.waitForTimeout(300);
        const cut = await page.locator('.stat-sub').evaluateAll((subs) => subs.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent));
        expect(cut, `${name}: sub-lines wider than their card`).toEqual([]);
      }
    });
  });

  for (const theme of THEMES) {
    it(`Settings (${theme}): the port it serves on now, the setting labelled "on next start"; Change key… and Cancel`, async () => {
      const served = suite.served();
      const port = new URL(served.apiBaseUrl).port;
      await suite.onPage({ width: 1440, theme }, async (page) => {
        await goTo(page, 'Settings');
        await page.waitForSelector('[data-testid="data-dir"]');
        expect(await page.getByTestId('serving-port').textContent()).toContain(`Serving now on port ${port}`);
        expect(await page.getByText('Port on next start', { exact: true }).count()).toBe(1);
        expect(await page.getByTestId('port-setting').inputValue(), 'the stored setting').toBe('7717');
        await screenshot(page, `daily-settings-${theme}`);
        await page.getByRole('button', { name: 'Change key…' }).click();
        await page.getByTestId('key-screen').waitFor();
        await page.getByRole('button', { name: 'Cancel' }).click();
        await page.waitForSelector('[data-testid="data-dir"]');
      });
    });
  }

  it('Keys: a refused key offers Change key (not only Retry); a new #key= link opened in the same tab replaces it', async () => {
    const served = suite.served();
    const { context, page, errors } = await openPage(suite.browser(), served, { width: 1440, theme: 'light' });
    try {
      await page.waitForSelector('[data-testid="summary-cards"]');
      // A key rotated elsewhere: this tab still holds the old one.
      await page.evaluate(() => sessionStorage.setItem('strikebook.apiKey', 'sb_rotated_away_0000000000000000000000000000'));
      await page.reload();
      const change = page.getByRole('button', { name: 'Change key' }).first();
      await change.waitFor();
      await screenshot(page, 'daily-key-refused');
      await change.click();
      await page.getByTestId('key-screen').waitFor();
      expect(await page.getByRole('alert').textContent()).toContain('The server refused the API key');
      await page.getByLabel('API key').fill(served.key);
      await page.getByRole('button', { name: 'Connect' }).click();
      await page.waitForSelector('[data-testid="summary-cards"]');
      expect(await page.evaluate(() => sessionStorage.getItem('strikebook.apiKey'))).toBe(served.key);

      // Refused again; this time the right link is opened in the same tab: only the hash changes, no reload.
      await page.evaluate(() => sessionStorage.setItem('strikebook.apiKey', 'sb_rotated_away_0000000000000000000000000000'));
      await page.reload();
      await page.getByRole('button', { name: 'Change key' }).first().waitFor();
      await page.evaluate((key) => (window.location.hash = `#key=${encodeURIComponent(key)}`), served.key);
      await page.waitForSelector('[data-testid="summary-cards"]');
      expect(await page.evaluate(() => window.location.hash), 'the key leaves the address bar').not.toContain('key=');
      expect(await page.evaluate(() => sessionStorage.getItem('strikebook.apiKey'))).toBe(served.key);

      // A link to a page with a key: the page is kept, the key leaves the address.
      await page.evaluate((key) => (window.location.hash = `#/settings&key=${encodeURIComponent(key)}`), served.key);
      await page.waitForSelector('[data-testid="data-dir"]');
      expect(await page.evaluate(() => window.location.hash)).toBe('#/settings');
      // A link whose key cannot be one says why, and Cancel keeps the key the page has.
      await page.evaluate(() => (window.location.hash = '#/settings&key=%ZZ'));
      await page.getByTestId('key-screen').waitFor();
      expect(await page.getByRole('alert').textContent()).toContain('not validly percent-encoded');
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.waitForSelector('[data-testid="data-dir"]');
      expect(errors.filter((e) => !/\b401\b/.test(e)), 'nothing but the refused requests').toEqual([]);
    } finally {
      await context.close();
    }
  });

  for (const theme of THEMES) {
    it(`Transactions and Import at 390 px (${theme}): the symbol and the amount, the file and what it imported, in view`, async () => {
      await suite.onPage({ width: 390, height: 844, theme }, async (page) => {
        await goTo(page, 'Transactions');
        await page.waitForSelector('[data-testid="transactions-table"]');
        expect(await scrollsSideways(page)).toBe(false);
        expect(await inView(page, '[data-testid="transactions-table"] tbody tr .tx-symbol'), 'symbol').toBe(true);
        expect(await inView(page, '[data-testid="transactions-table"] tbody tr [data-testid="amount"]'), 'amount').toBe(true);
        await screenshot(page, `daily-transactions-390-${theme}`);
        await goTo(page, 'Import');
        await page.waitForSelector('[data-testid="import-history"]');
        expect(await scrollsSideways(page)).toBe(false);
        expect(await inView(page, '[data-testid="import-history"] tbody tr td.import-file'), 'file').toBe(true);
        expect(await inView(page, '[data-testid="import-history"] tbody tr td:nth-child(7)'), 'imported').toBe(true);
        await screenshot(page, `daily-import-390-${theme}`);
      });
    });
  }
});
