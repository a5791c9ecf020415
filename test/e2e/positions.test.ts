/**
 * Issue 10's pages in Chromium against `strikebook serve`: Positions and Campaigns on the real tastytrade TSLL and MPW
 * wheels plus the hand-written AMD wheel marked with the real AMD chain, the account switchers, the Transactions
 * sorting and type filter, in both themes; and both pages on the demo. Expected figures are the API's own answers.
 * Screenshots go to test-results/screenshots/ (names start with `book-`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CampaignDetailResponseT, CampaignsResponseT, PositionsResponseT, TransactionsResponseT } from '../../src-shared/api/schemas';
import { AMD_WHEEL } from '../amd-wheel';
import { CHAIN_FIXTURES } from '../paths';
import { api, goTo, repoRoot, screenshot, type Served } from './harness';
import { serveForSuite } from './suite';

const BROKERS = join(repoRoot, 'test/fixtures/brokers');
const AMD_CHAIN = join(CHAIN_FIXTURES, 'AMD_quotedata_2023-08-18close_aryaman.csv');
const THEMES = ['light', 'dark'] as const;
/** Monday 2023-08-21 08:00 New York: after the AMD quote, before the September expirations. */
const AS_OF_INPUT = '2023-08-21T08:00';
const AS_OF_QUERY = '2023-08-21T08:00:00';

function signedMoney(value: number): string {
  const text = `$${Math.abs(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  return value > 0 ? `+${text}` : value < 0 ? `−${text}` : text;
}

async function post(served: Served, path: string, body: string): Promise<void> {
  await api(served, path, { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body });
}

describe('positions and campaigns on real files', () => {
  const suite = serveForSuite({
    demo: false,
    prepare: async (served) => {
      for (const file of ['tastytrade_v2_21col_TSLL_wheel_binnaculum.csv', 'tastytrade_v2_21col_MPW_wheel_binnaculum.csv']) await post(served, '/imports?broker=auto', readFileSync(join(BROKERS, file), 'utf8'));
      await post(served, '/imports?broker=generic', AMD_WHEEL);
      await post(served, '/chains?symbol=AMD', readFileSync(AMD_CHAIN, 'utf8'));
    },
  });

  it('Positions: the AMD book marked at a past instant, its unrealized as the API says, the GEX map beside it; the account switcher', async () => {
    const all = await api<PositionsResponseT>(suite.served(), `/journal/positions?asOf=${AS_OF_QUERY}`);
    const ira = all.accounts.find((a) => a.name === 'IRA');
    expect(ira).toBeDefined();
    const iraOnly = await api<PositionsResponseT>(suite.served(), `/journal/positions?asOf=${AS_OF_QUERY}&accountId=${ira?.id ?? ''}`);
    expect(iraOnly.totals.unrealizedPL).toBe(-365.9);
    for (const theme of THEMES) {
      await suite.onPage({ width: 1440, theme }, async (page) => {
        await goTo(page, 'Positions');
        const answered = page.waitForResponse((r) => r.url().includes('/journal/positions') && r.url().includes('asOf='));
        await page.getByTestId('positions-asof').fill(AS_OF_INPUT);
        await answered;
        // One table grouped by underlying (issue 18): AMD's group is a tbody of it.
        await page.waitForSelector('[data-testid="positions-table"] [data-testid="book-AMD"]');
        await expect.poll(() => page.getByTestId('positions-unrealized').textContent()).toContain(signedMoney(all.totals.unrealizedPL));
        // The dealers' map of AMD is drawn beside the book (a canvas in the panel).
        await page.waitForSelector('[data-testid="book-AMD"] .chart canvas');
        await screenshot(page, `book-positions-real-${theme}`);
        const switched = page.waitForResponse((r) => r.url().includes('/journal/positions') && r.url().includes(`accountId=${ira?.id ?? ''}`));
        await page.getByTestId('account-select').selectOption({ label: 'IRA' });
        await switched;
        await expect.poll(() => page.getByTestId('positions-unrealized').textContent()).toContain(signedMoney(-365.9));
        const rows = await page.locator('[data-testid="book-AMD"] [data-testid="position-row"]').count();
        expect(rows).toBe(iraOnly.positions.length);
        await screenshot(page, `book-positions-ira-${theme}`);
      });
    }
  });

  it('Campaigns: every campaign of the API, a detail with its timeline; the Journal card opens the open ones', async () => {
    const campaigns = await api<CampaignsResponseT>(suite.served(), '/journal/chains?limit=100');
    const open = campaigns.chains.filter((c) => c.status === 'open');
    const tsll = campaigns.chains.find((c) => c.underlying === 'TSLL' && c.openedAt === '2024-11-20');
    expect(tsll).toBeDefined();
    const detail = await api<CampaignDetailResponseT>(suite.served(), `/journal/chains/${encodeURIComponent(tsll?.id ?? '')}`);
    for (const theme of THEMES) {
      await suite.onPage({ width: 1440, theme }, async (page) => {
        await goTo(page, 'Campaigns');
        await page.waitForSelector('[data-testid="campaigns-table"]');
        expect(await page.locator('[data-testid="campaigns-table"] tbody tr').count()).toBe(campaigns.chains.length);
        await page.locator('[data-testid="campaigns-table"] tbody tr', { hasText: 'TSLL' }).filter({ hasText: '2024-11-20' }).click();
        await page.waitForSelector('[data-testid="campaign-timeline"]');
        expect(await page.locator('[data-testid="campaign-timeline"] tbody tr').count()).toBe(detail.timeline.length);
        await screenshot(page, `book-campaign-detail-${theme}`);
        await goTo(page, 'Journal');
        await page.getByTestId('open-chains').click();
        await page.waitForSelector('[data-testid="page-campaigns"]');
        await expect.poll(() => page.locator('[data-testid="campaigns-table"] tbody tr').count()).toBe(open.length);
        await screenshot(page, `book-campaigns-open-${theme}`);
      });
    }
  });

  it('Transactions: a header sorts the whole list on the server; the type filter; realized per row', async () => {
    const byAmount = await api<TransactionsResponseT>(suite.served(), '/journal/transactions?sort=-amount&limit=25');
    const assignments = await api<TransactionsResponseT>(suite.served(), '/journal/transactions?type=ASSIGNMENT&limit=25');
    for (const theme of THEMES) {
      await suite.onPage({ width: 1440, theme }, async (page) => {
        await goTo(page, 'Transactions');
        const sorted = page.waitForResponse((r) => r.url().includes('/journal/transactions') && r.url().includes('sort=-amount'));
        await page.getByTestId('sort-amount').click();
        await sorted;
        const first = byAmount.transactions[0];
        await expect.poll(() => page.locator('[data-testid="transactions-table"] tbody tr').first().textContent()).toContain(signedMoney(first?.amount ?? 0));
        const filtered = page.waitForResponse((r) => r.url().includes('type=ASSIGNMENT'));
        await page.getByTestId('type-filter').selectOption('ASSIGNMENT');
        await filtered;
        await expect.poll(() => page.locator('[data-testid="transactions-table"] tbody tr').count()).toBe(assignments.transactions.length);
        const realized = await page.getByTestId('realized').allTextContents();
        // (sorted by amount within the type: the same rows as the API's type filter, in the page's order)
        expect(realized.filter((text) => text !== '—').length).toBe(assignments.transactions.filter((t) => t.realizedPL !== null).length);
        await screenshot(page, `book-transactions-${theme}`);
      });
    }
  });
});

describe('positions and campaigns on the demo', () => {
  const suite = serveForSuite({ demo: true });

  it('both pages show the demo book in both themes', async () => {
    const positions = await api<PositionsResponseT>(suite.served(), '/journal/positions');
    const campaigns = await api<CampaignsResponseT>(suite.served(), '/journal/chains?limit=100');
    expect(campaigns.chains.length).toBeGreaterThan(0);
    for (const theme of THEMES) {
      await suite.onPage({ width: 1440, theme }, async (page) => {
        await goTo(page, 'Positions');
        if (positions.positions.length > 0) await page.waitForSelector('[data-testid="positions-table"]');
        // The page head's figures (PageFigures): the demo badge where the API says demo, then the count it gives.
        const head = (testId: string) => page.locator(`[data-testid="${testId}"] .page-title`);
        const count = positions.positions.length;
        await expect.poll(() => head('page-positions').innerText()).toContain(`${count} open position${count === 1 ? '' : 's'}`);
        expect(await head('page-positions').locator('.badge-demo').count(), 'the demo book says so').toBe(positions.demo ? 1 : 0);
        await screenshot(page, `book-positions-demo-${theme}`);
        await goTo(page, 'Campaigns');
        await page.waitForSelector('[data-testid="campaigns-table"]');
        expect(await page.locator('[data-testid="campaigns-table"] tbody tr').count()).toBe(campaigns.chains.length);
        expect(await head('page-campaigns').innerText()).toContain(`${campaigns.pagination.total} campaign${campaigns.pagination.total === 1 ? '' : 's'}`);
        await screenshot(page, `book-campaigns-demo-${theme}`);
      });
    }
  });
});
