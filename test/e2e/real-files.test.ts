/**
 * The UI on an empty data folder fed with real files through its own Import page: two real tastytrade wheel
 * exports and, when the shared fixtures are present, the real CBOE SPX 2024-01-05 chain. The figures on
 * screen are checked against the API's answers and, for PFE, against Binnaculum's published 175.52.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GexResponseT, SummaryResponseT } from '../../src-shared/api/schemas';
import { api, repoRoot, screenshotDir, watchErrors } from './harness';
import { serveForSuite } from './suite';

const BROKERS = join(repoRoot, 'test/fixtures/brokers');
const PFE = join(BROKERS, 'tastytrade_v2_21col_PFE_binnaculum.csv');
const TSLL = join(BROKERS, 'tastytrade_v2_21col_TSLL_wheel_binnaculum.csv');
const SPX = join(repoRoot, '..', 'shared', 'fixtures', 'chains', 'SPX_quotedata_2024-01-05close_phammings.csv');

const digits = (text: string | null) => (text ?? '').replace(/[^0-9.+−-]/g, '');

describe('real broker files and a real chain through the UI (empty data folder)', () => {
  const suite = serveForSuite({ demo: false });

  it('imports real tastytrade wheels and the SPX chain; Journal and Exposure show what the API computes', async () => {
    const context = await suite.browser().newContext({ viewport: { width: 1440, height: 960 }, colorScheme: 'light' });
    const page = await context.newPage();
    const errors = watchErrors(page);
    try {
      await page.goto(suite.served().uiUrl);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Import$/ }).click();
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Choose files…' }).click();
      await (await chooser).setFiles([PFE, TSLL]);
      await page.getByRole('button', { name: /^Import 2 files$/ }).click();
      await page.getByTestId('import-report').first().waitFor();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="import-report"]').length >= 2, undefined, { timeout: 30_000 });
      const brokers = await page.getByTestId('import-broker').allTextContents();
      expect(brokers, 'both files detected as tastytrade').toEqual(['tastytrade', 'tastytrade']);

      if (existsSync(SPX)) {
        await page.getByRole('button', { name: 'Option chain snapshot' }).click();
        const chainChooser = page.waitForEvent('filechooser');
        await page.getByRole('button', { name: 'Choose files…' }).click();
        await (await chainChooser).setFiles(SPX);
        await page.getByRole('button', { name: /^Import 1 file$/ }).click();
        await page.getByTestId('import-report').first().waitFor({ timeout: 60_000 });
      }

      // Journal, year 2025: realized P&L as the API computes it (PFE alone is Binnaculum's 175.52).
      const summary = await api<SummaryResponseT>(suite.served(), '/journal/summary?year=2025');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Journal$/ }).click();
      await page.getByTestId('page-journal').waitFor();
      await page.getByRole('button', { name: 'Previous year' }).click();
      const yearStats = page.getByTestId('year-stats');
      await yearStats.waitFor();
      const realized = summary.stats.totalRealizedPnl.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      await page.waitForFunction((text) => document.querySelector('[data-testid="year-stats"]')?.textContent?.includes(text) ?? false, realized, { timeout: 15_000 });
      await page.screenshot({ path: join(screenshotDir, 'real-journal-2025-light.png'), fullPage: true });

      if (existsSync(SPX)) {
        const gex = await api<GexResponseT>(suite.served(), '/gex?symbol=SPX');
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Exposure$/ }).click();
        const numbers = page.getByTestId('gex-key-numbers');
        await numbers.waitFor();
        const text = digits(await numbers.textContent());
        expect(text, 'the call wall of the API is on screen').toContain(String(gex.callWall?.strike));
        expect(text, 'the put wall of the API is on screen').toContain(String(gex.putWall?.strike));
        await page.screenshot({ path: join(screenshotDir, 'real-exposure-spx-light.png'), fullPage: true });
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
