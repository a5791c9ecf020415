/**
 * Settings → Export for research in Chromium against `strikebook serve --demo`: the headless page exports into the
 * data folder's exports/ and reports what the API's job says; with a desktop bridge (the preload's
 * chooseExportFolder, stood in for by an init script) the chosen folder is shown and a folder the server never
 * granted is refused with its message. Screenshots: test-results/screenshots/research-export-*.png.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExportsResponseT } from '../../src-shared/api/schemas';
import { api, goTo, screenshot, watchErrors } from './harness';
import { serveForSuite } from './suite';

describe('Settings: export for research', () => {
  const suite = serveForSuite({ demo: true });

  it('headless: exports into <data folder>/exports with a progress bar, then the report of the job', async () => {
    for (const theme of ['light', 'dark'] as const) {
      await suite.onPage({ width: 1440, theme }, async (page) => {
        await goTo(page, 'Settings');
        const served = suite.served();
        await expect.poll(() => page.getByTestId('export-folder').textContent()).toBe(`${served.dataDir}/exports`);
        expect(await page.getByRole('button', { name: 'Choose folder…' }).count(), 'no folder dialog in a browser').toBe(0);
        await page.getByTestId('export-start').click();
        await page.getByTestId('export-report').waitFor({ timeout: 60_000 });
        const { exports } = await api<ExportsResponseT>(served, '/exports');
        const job = exports[0];
        expect(job?.state).toBe('done');
        const report = (await page.getByTestId('export-report').textContent()) ?? '';
        expect(report).toContain(`Exported to ${served.dataDir}/exports`);
        const written = job?.summary?.snapshots.written ?? 0;
        const skipped = job?.summary?.snapshots.skipped ?? 0;
        expect(existsSync(join(served.dataDir, 'exports', 'contracts', 'symbol=SPX'))).toBe(true);
        if (theme === 'light') {
          expect(written, 'the first export writes the demo’s snapshots').toBeGreaterThan(0);
          expect(report, 'the numbers of the API’s job').toContain(`${written} snapshots written (${(job?.summary?.rows.contracts ?? 0).toLocaleString('en-US')} contract rows), ${skipped} already there`);
        } else {
          expect(written, 'the second adds nothing').toBe(0);
          expect(report).toContain(`Nothing new: all ${skipped} snapshots and the journal were there already.`);
        }
        await page.getByTestId('export-report').scrollIntoViewIfNeeded();
        await screenshot(page, `research-export-headless-1440-${theme}`);
      });
    }
  }, 180_000);

  it('desktop: the chosen folder is shown; a folder the server never granted is refused with its message', async () => {
    const served = suite.served();
    const context = await suite.browser().newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
    try {
      // What the preload exposes in the desktop app; the dialog's answer stands in for the user's choice.
      await context.addInitScript(
        ([apiBaseUrl, token]) => {
          Object.defineProperty(window, 'strikebook', {
            value: Object.freeze({ apiBaseUrl, token, chooseExportFolder: async () => ({ folder: 'notgranted', path: '/home/trader/research' }) }),
          });
        },
        [served.apiBaseUrl, served.key],
      );
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(served.uiUrl.replace(/#.*$/, ''));
      await page.waitForSelector('nav[aria-label="Main"]', { state: 'attached' });
      await goTo(page, 'Settings');
      await page.getByRole('button', { name: 'Choose folder…' }).click();
      await expect.poll(() => page.getByTestId('export-folder').textContent()).toBe('/home/trader/research');
      await page.getByTestId('export-start').click();
      await page.getByText('No export folder with id notgranted.').waitFor();
      expect(errors.filter((e) => !e.includes('http 404: POST') && !e.includes('404 (Not Found)')), 'only the refused POST').toEqual([]);
      await screenshot(page, 'research-export-desktop-refused-1440-light');
    } finally {
      await context.close();
    }
  }, 120_000);
});
