/**
 * The Import page with a bounded report (docs/importers.md §Bounded): a Webull export of 3,000 cancelled orders and
 * one fill, uploaded through the page. The report counts every skipped row (the API's skippedCount), lists them by
 * reason with their counts, and says that only the first lines of each reason are listed; the history counts them too.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImportsResponseT } from '../../src-shared/api/schemas';
import { api, goTo, screenshot } from './harness';
import { serveForSuite } from './suite';

const ORDERS = 3_000;
const HEADER = 'Name,Symbol,Side,Status,Filled,Total Qty,Price,Avg Price,Time-in-Force,Placed Time,Filled Time';
const FILLED = 'Apple Inc,AAPL,Buy,Filled,200,200,180.00,180.00,DAY,01/22/2024 09:30:00 EST,01/22/2024 09:30:00 EST';
const cancelled = (i: number) => `SPY 240315 Call 480.00,SPY240315C00480000,Buy,Cancelled,0,2,@6.20,,DAY,01/10/2024 ${String(9 + (i % 7)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:10 EST,`;

describe('an import with thousands of skipped rows', () => {
  const suite = serveForSuite({ demo: false });

  it('shows every count, the reasons with theirs, and says the lines listed are the first of each reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-e2e-skipped-'));
    const file = join(dir, 'webull-orders.csv');
    writeFileSync(file, [HEADER, FILLED, ...Array.from({ length: ORDERS }, (_, i) => cancelled(i))].join('\n'));
    await suite.onPage({ width: 1440, theme: 'light' }, async (page) => {
      await goTo(page, 'Import');
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Choose files…' }).click();
      await (await chooser).setFiles(file);
      await page.waitForSelector('[data-testid="import-queue"]');
      await page.getByRole('button', { name: /^Import 1 file$/ }).click();
      const report = page.getByTestId('import-report');
      await report.waitFor();
      const stored = (await api<ImportsResponseT>(suite.served(), '/imports')).imports[0];
      expect(stored?.skippedCount).toBe(ORDERS);
      expect(await report.locator('.report-numbers dd').nth(3).textContent(), 'skipped, as the server counts them').toBe(ORDERS.toLocaleString('en-US'));
      await report.locator('summary', { hasText: 'Skipped rows and warnings' }).click();
      expect(await page.getByTestId('skipped-reasons').textContent()).toBe(`${ORDERS.toLocaleString('en-US')} rows skipped: order Cancelled (buy SPY240315C00480000): nothing filled`);
      expect(await report.textContent()).toContain(`The first lines of each reason are listed (5 of ${ORDERS.toLocaleString('en-US')}).`);
      expect(await report.locator('table.problems tbody tr').count(), 'five lines of the one reason').toBe(5);
      const history = page.locator('[data-testid="import-history"] tbody tr').first();
      await expect.poll(() => history.textContent()).toContain(ORDERS.toLocaleString('en-US'));
      await screenshot(page, 'import-skipped-reasons');
    });
  });
});
