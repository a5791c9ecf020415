/**
 * Issue 18 on real files in Chromium: two real SPX chains of different years (2023-09-14 and 2024-01-05, read from
 * the shared fixtures) with a self-written SPX position opened in September 2023, and the real tastytrade TSLL and MPW
 * wheels imported through POST /v1/imports. Positions "As of" 2023-09-15 draws the dealers' map from the snapshot its
 * marks come from (the newest, another year's chain, lost every short-strike marker); the TSLL file's import report
 * accounts for all 212 rows it read; Campaigns, Transactions and Import keep their key columns in view at 390 px.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { CampaignsResponseT, ExpirationsResponseT, ImportsResponseT, PositionsResponseT, SnapshotsResponseT } from '../../src-shared/api/schemas';
import { BROKER_FIXTURES_SHARED, CHAIN_FIXTURES } from '../paths';
import { api, goTo, screenshot, type Served } from './harness';
import { serveForSuite } from './suite';

const THEMES = ['light', 'dark'] as const;
const SPX_2023 = join(CHAIN_FIXTURES, 'SPX_quotedata_2023-09-14_carlos.csv');
const SPX_2024 = join(CHAIN_FIXTURES, 'SPX_quotedata_2024-01-05close_phammings.csv');
const TSLL = join(BROKER_FIXTURES_SHARED, 'tastytrade_v2_21col_TSLL_wheel_binnaculum.csv');
const MPW = join(BROKER_FIXTURES_SHARED, 'tastytrade_v2_21col_MPW_wheel_binnaculum.csv');

/**
 * Self-written (generic CSV): a December 2023 SPX strangle sold on 1 September 2023, both strikes listed in the real
 * 2023-09-14 chain (SPX231215P04300000 42.90 × 43.50; the 4700 call).
 */
const SPX_STRANGLE = [
  'date,account,type,symbol,quantity,price,commission,fees,amount,orderId,expiration,strike,right,id',
  '2023-09-01T14:00:00Z,Index,SELL_TO_OPEN,SPX,1,38.00,1.00,0.50,3798.50,S1,2023-12-15,4300,P,spx-1',
  '2023-09-01T14:00:00Z,Index,SELL_TO_OPEN,SPX,1,22.00,1.00,0.50,2198.50,S1,2023-12-15,4700,C,spx-2',
].join('\n');
const AS_OF_INPUT = '2023-09-15T10:00';

async function post(served: Served, path: string, body: string): Promise<void> {
  await api(served, path, { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body });
}

async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}

async function inView(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).first().boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  return box !== null && box.x >= 0 && box.x + box.width <= width + 0.5;
}

describe('issue 18 on real files', () => {
  const suite = serveForSuite({
    demo: false,
    prepare: async (served) => {
      await post(served, '/chains?symbol=SPX', readFileSync(SPX_2023, 'utf8'));
      await post(served, '/chains?symbol=SPX', readFileSync(SPX_2024, 'utf8'));
      await post(served, '/imports?broker=generic', SPX_STRANGLE);
      await post(served, '/imports?broker=auto', readFileSync(MPW, 'utf8'));
    },
  });

  for (const theme of THEMES) {
    for (const width of [1440, 390] as const) {
      it(`Positions as of 2023-09-15 at ${width} px (${theme}): the map is the marks' 2023 snapshot with both short strikes on it, not the newest (2024)`, async () => {
        const served = suite.served();
        const snapshots = await api<SnapshotsResponseT>(served, '/snapshots?symbol=SPX');
        const of2023 = snapshots.snapshots.find((s) => s.quoteTime.startsWith('2023-09-14'));
        const newest = snapshots.snapshots[0];
        expect(of2023 && newest && newest.id !== of2023.id, 'two snapshots, the 2024 one newest').toBe(true);
        const data = await api<PositionsResponseT>(served, `/journal/positions?asOf=${AS_OF_INPUT}:00`);
        expect(data.marksAsOf.map((m) => m.snapshotId)).toEqual([of2023?.id]);
        const mark = data.marksAsOf[0];
        const expirations = await api<ExpirationsResponseT>(served, `/expirations?symbol=SPX&snapshot=${of2023?.id ?? 0}`);
        const move = expirations.details.find((d) => d.expiration === '2023-12-15')?.expectedMove ?? null;
        expect(move, 'the chain prices a December move').not.toBeNull();
        await suite.onPage({ width, height: 900, theme }, async (page) => {
          await goTo(page, 'Positions');
          const gexAsked = page.waitForRequest((r) => r.url().includes('/v1/gex?') && r.url().includes('symbol=SPX'));
          await page.getByTestId('positions-asof').fill(AS_OF_INPUT);
          const request = new URL((await gexAsked).url());
          expect(request.searchParams.get('snapshot'), 'the map asks for the snapshot the marks come from').toBe(String(of2023?.id));
          const map = page.getByTestId('map-SPX');
          await map.locator('canvas').first().waitFor();
          expect(await map.getAttribute('data-snapshot-id')).toBe(String(of2023?.id));
          const legend = page.getByTestId('map-shorts-SPX').locator('li[data-strike]');
          expect(await legend.evaluateAll((items) => items.map((i) => [i.getAttribute('data-strike'), i.getAttribute('data-drawn-at')]))).toEqual([
            ['4300', '4300'],
            ['4700', '4700'],
          ]);
          if (width === 1440 && mark && move !== null) {
            // By hand: the put is (spot − move − 4300) / spot beyond the band, the call (4700 − spot − move) / spot.
            const put = ((mark.spot - move - 4300) / mark.spot) * 100;
            const call = ((4700 - mark.spot - move) / mark.spot) * 100;
            const text = (pct: number) => `${Math.abs(pct).toFixed(1)}% ${pct < 0 ? 'in' : 'out'}`;
            expect(await page.locator('[data-symbol="SPX231215P04300000"] [data-testid="move-distance"]').textContent()).toBe(text(put));
            expect(await page.locator('[data-symbol="SPX231215C04700000"] [data-testid="move-distance"]').textContent()).toBe(text(call));
          } else {
            expect(await scrollsSideways(page)).toBe(false);
          }
          await screenshot(page, `daily-positions-asof-${width}-${theme}`);
        });
      });
    }
  }

  it('Import: the real TSLL file read 212 rows and imported 210, and the report says where the other 2 went', async () => {
    await suite.onPage({ width: 1440, theme: 'light' }, async (page) => {
      await goTo(page, 'Import');
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Choose files…' }).click();
      await (await chooser).setFiles(TSLL);
      await page.getByRole('button', { name: /^Import 1 file$/ }).click();
      const line = page.getByTestId('import-merged');
      await line.waitFor();
      const history = await api<ImportsResponseT>(suite.served(), '/imports');
      const report = history.imports.find((i) => i.filename === 'tastytrade_v2_21col_TSLL_wheel_binnaculum.csv');
      expect(report && [report.rows, report.imported, report.duplicates, report.skipped.length, report.mergedCount]).toEqual([212, 210, 0, 0, 2]);
      // The server lists the two special-dividend pairs (issue 18's server part): 212 = 210 imported + 2 merged.
      expect(report?.merged.map((m) => m.lines.length)).toEqual([2, 2]);
      expect(await line.textContent()).toMatch(/^2 rows merged into another row's transaction: lines \d+ \+ \d+ \(Special Dividend: /);
      await screenshot(page, 'daily-import-report-tsll');
    });
  });

  for (const theme of THEMES) {
    it(`Campaigns, Transactions and Import at 390 px on the real wheels (${theme}): the key columns in view`, async () => {
      const campaigns = await api<CampaignsResponseT>(suite.served(), '/journal/chains?limit=100');
      await suite.onPage({ width: 390, height: 844, theme }, async (page) => {
        await goTo(page, 'Campaigns');
        await page.waitForSelector('[data-testid="campaigns-table"]');
        expect(await page.getByTestId('campaign-row').count()).toBe(campaigns.chains.length);
        expect(await scrollsSideways(page)).toBe(false);
        expect(await inView(page, '[data-testid="campaign-row"] td:nth-child(1)'), 'underlying').toBe(true);
        expect(await inView(page, '[data-testid="campaign-row"] td:nth-child(7)'), 'P&L').toBe(true);
        await screenshot(page, `daily-campaigns-real-390-${theme}`);
        await page.getByTestId('campaign-row').first().click();
        await page.getByTestId('campaign-title').waitFor();
        expect(await scrollsSideways(page)).toBe(false);
        await goTo(page, 'Transactions');
        await page.waitForSelector('[data-testid="transactions-table"]');
        expect(await scrollsSideways(page)).toBe(false);
        expect(await inView(page, '[data-testid="transactions-table"] tbody tr .tx-symbol'), 'symbol').toBe(true);
        expect(await inView(page, '[data-testid="transactions-table"] tbody tr [data-testid="amount"]'), 'amount').toBe(true);
        await screenshot(page, `daily-transactions-real-390-${theme}`);
        await goTo(page, 'Import');
        await page.waitForSelector('[data-testid="import-history"]');
        expect(await scrollsSideways(page)).toBe(false);
        expect(await inView(page, '[data-testid="import-history"] tbody tr td:nth-child(7)'), 'imported').toBe(true);
        await screenshot(page, `daily-import-real-390-${theme}`);
      });
    });
  }
});
