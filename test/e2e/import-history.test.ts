/**
 * The Import page's history in Chromium against `strikebook serve`: more imports than one page holds, paged
 * newest first, and an undo that empties the last page steps back to the one before. What the page shows is
 * checked against the API's own list.
 */
import { describe, expect, it } from 'vitest';
import type { ImportsResponseT } from '../../src-shared/api/schemas';
import { api, goTo, PAGE_READY, type Served } from './harness';
import { serveForSuite } from './suite';

/** One page of the history holds 25 imports (the API's default limit); one more makes a second page. */
const IMPORTS = 26;

/** A one-row generic CSV, different for each n so that no import is a duplicate of another. */
function oneRow(n: number): string {
  return `id,date,type,symbol,quantity,price,amount,account\nh${n},2024-03-${String((n % 28) + 1).padStart(2, '0')},SELL,XYZ,${n + 1},10,${(n + 1) * 10},History\n`;
}

describe('import history pages', () => {
  const suite = serveForSuite({
    demo: false,
    prepare: async (served: Served) => {
      for (let n = 0; n < IMPORTS; n += 1) {
        await api(served, `/imports?broker=generic&filename=h${n}.csv`, { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: oneRow(n) });
      }
    },
  });

  it('pages newest first, and steps back when an undo empties the last page', async () => {
    const first = await api<ImportsResponseT>(suite.served(), '/imports?page=1');
    const second = await api<ImportsResponseT>(suite.served(), '/imports?page=2');
    expect(first.pagination.pages).toBe(2);
    expect(second.imports.map((imp) => imp.filename), 'the oldest import is alone on page 2').toEqual(['h0.csv']);
    await suite.onPage({ width: 1440, theme: 'light' }, async (page) => {
      page.on('dialog', (dialog) => void dialog.accept());
      await goTo(page, 'Import');
      await page.waitForSelector(PAGE_READY.import);
      const pager = page.getByRole('navigation', { name: 'History pages' });
      const rows = page.locator('[data-testid="import-history"] tbody tr');
      await expect.poll(() => pager.textContent()).toContain('Page 1 of 2');
      await expect.poll(() => rows.count()).toBe(first.imports.length);
      expect(await rows.first().locator('td').nth(2).textContent(), 'newest first').toBe(first.imports[0]?.filename);
      expect(await pager.getByRole('button', { name: '‹ Newer' }).isDisabled()).toBe(true);

      await pager.getByRole('button', { name: 'Older ›' }).click();
      await expect.poll(() => pager.textContent()).toContain('Page 2 of 2');
      // The pager names the page at the click; its rows follow when the page's answer arrives.
      await expect.poll(() => rows.count()).toBe(1);
      expect(await rows.first().locator('td').nth(2).textContent()).toBe('h0.csv');
      expect(await pager.getByRole('button', { name: 'Older ›' }).isDisabled()).toBe(true);

      await page.getByRole('button', { name: `Undo import ${second.imports[0]?.id}` }).click();
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'undone' }).textContent()).toContain('1 transaction removed');
      // Page 2 is empty now: the page goes back to page 1, which holds every import left, and needs no pager.
      await expect.poll(() => rows.count()).toBe(IMPORTS - 1);
      expect(await pager.count(), 'one page left: no pager').toBe(0);
    });
  });
});
