/**
 * Issue 28's rows kept as OTHER on the Positions page (docs/ui.md §Positions): an older TD statement whose two fills
 * are written in strategies the importer does not split is imported; the page's "Needs attention" lists them in
 * their own section, with their count and cash (120.00 − 1.50 + 165.00 − 0.75 = 282.75, by hand), not among the
 * options in the money. Both themes, 1440 and 390 wide; screenshots start with `positions-other-rows-`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, goTo, repoRoot, screenshot } from './harness';
import { serveForSuite } from './suite';

const FILE = readFileSync(join(repoRoot, 'test/fixtures/brokers/thinkorswim_statement_old_tda_options_selfwritten.csv'), 'utf8')
  .replace('SOLD -1 STRANGLE SPY 100 30 JAN 15 212/195 CALL/PUT @1.20,-1.50,120.00', 'SOLD -1/2 BACKRATIO SPY 100 30 JAN 15 212/215 CALL @1.20,-1.50,120.00')
  .replace('SOLD -1 SPY 100 (Weeklys) 9 JAN 15 200 CALL @1.65,-0.75,165.00', 'SOLD -1 COMBO SPY 100 (Weeklys) 9 JAN 15 200 CALL/PUT @1.65,-0.75,165.00');
const SIZES = [
  { width: 1440, theme: 'light' },
  { width: 390, theme: 'dark' },
] as const;

describe('Positions: rows kept as OTHER', () => {
  const suite = serveForSuite({
    demo: false,
    prepare: async (served) => {
      await api(served, '/imports', { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: FILE });
    },
  });

  it('lists them in their own section with their count and cash', async () => {
    for (const size of SIZES) {
      await suite.onPage(size, async (page) => {
        await goTo(page, 'Positions');
        const item = page.getByTestId('attention-other-rows');
        await item.waitFor();
        expect(await item.textContent()).toBe('123456789: 2 rows carrying +$282.75 (the first on 2015-01-08)');
        expect(await page.getByTestId('attention-in-the-money').count()).toBe(0);
        await screenshot(page, `positions-other-rows-${size.width}-${size.theme}`);
      });
    }
  });
});
