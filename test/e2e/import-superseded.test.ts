/**
 * The Import page's report of a file whose rows replace an opening entered by hand (docs/journal.md, "Manual entries";
 * issue 27 item 6): a newer export closes a put it never sold, the opening is entered by hand, then the older export
 * holding the same sale is uploaded through the page. The report says the opening was replaced, retired and brought
 * back by undoing the import. 1440 light and 390 dark; screenshots `import-superseded-*`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImportsResponseT, ManualTransactionsResponseT } from '../../src-shared/api/schemas';
import { api, goTo, screenshot, type Served } from './harness';
import { serveForSuite } from './suite';

const HEADER = 'date,account,type,symbol,quantity,price,commission,fees,amount,currency';
const PUT = 'XYZ240419P00045000';
const NEWER = [HEADER, `2024-03-20T15:00:00Z,Main,BUY_TO_CLOSE,${PUT},1,0.20,0,0,-20,USD`].join('\n');
const OLDER = [HEADER, `2024-03-01T15:00:00Z,Main,SELL_TO_OPEN,${PUT},1,1.50,0,0,150,USD`].join('\n');

async function enterOpening(served: Served): Promise<string> {
  const posted = await api<ManualTransactionsResponseT>(served, '/journal/transactions', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ transactions: [{ account: 'Main', type: 'SELL_TO_OPEN', symbol: PUT, quantity: 1, price: 1.5, date: '2024-03-14' }] }),
  });
  return posted.ids[0] ?? '';
}

describe('an import that replaces an opening entered by hand', () => {
  const suite = serveForSuite({
    demo: false,
    prepare: async (served) => {
      await api(served, '/imports?broker=generic', { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: NEWER });
    },
  });

  it('the report lists the opening it replaced; undone, the opening is back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-e2e-superseded-'));
    const file = join(dir, 'older.csv');
    writeFileSync(file, OLDER);
    for (const size of [
      { width: 1440, theme: 'light' },
      { width: 390, theme: 'dark' },
    ] as const) {
      const id = await enterOpening(suite.served());
      await suite.onPage(size, async (page) => {
        await goTo(page, 'Import');
        const chooser = page.waitForEvent('filechooser');
        await page.getByRole('button', { name: 'Choose files…' }).click();
        await (await chooser).setFiles(file);
        await page.waitForSelector('[data-testid="import-queue"]');
        await page.getByRole('button', { name: /^Import 1 file$/ }).click();
        const superseded = page.getByTestId('import-superseded');
        await superseded.waitFor();
        expect(await superseded.textContent()).toBe(
          "1 opening entered by hand replaced by this file's rows of the same positions (retired, not deleted: undoing this import brings it back).Sell to open 1 XYZ 19 Apr 24 45 P on 2024-03-14",
        );
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(width, 'the page does not scroll sideways').toBeLessThanOrEqual(size.width);
        await screenshot(page, `import-superseded-${size.width}-${size.theme}`);
      });
      const { imports } = await api<ImportsResponseT>(suite.served(), '/imports');
      const older = imports.find((i) => i.filename === 'older.csv');
      expect(older?.supersededManual.map((m) => m.id)).toEqual([id]);
      // Back to the start for the next size: the file undone (the opening returns), then the opening's import.
      await api(suite.served(), `/imports/${older?.id ?? 0}`, { method: 'DELETE' });
      const manual = (await api<ImportsResponseT>(suite.served(), '/imports')).imports.find((i) => i.kind === 'manual');
      expect(manual?.rows, 'the opening is back in its import').toBe(1);
      await api(suite.served(), `/imports/${manual?.id ?? 0}`, { method: 'DELETE' });
    }
  });
});
