/**
 * Levels over time at scale in Chromium: 6,500 stored snapshots (a self-written 272-contract chain in 13 variants,
 * half an hour apart, 14 a day, stored straight into the served data folder). The chart draws them downsampled
 * (components/charts/downsample.ts), every point once zoomed in; its history is the API's, computed cold by the
 * server's pool. Screenshots: test-results/screenshots/exposure-levels-6500-*.png.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { GexHistoryResponseT } from '../../src-shared/api/schemas';
import type { OptionContract } from '../../src-shared/exposure/model';
import { openDataFolder } from '../../src-main/context';
import { packContracts } from '../../src-main/db/snapshot-payload';
import { SnapshotRepository } from '../../src-main/db/snapshots';
import { writeNow } from '../../src-main/db/writes';
import { api, goTo, screenshot, screenshotDir, type Served } from './harness';
import { serveForSuite } from './suite';

const SNAPSHOTS = 6500;
const VARIANTS = 13;

/** A book of four expirations, strikes 80–120; `variant` moves its open interest (so the walls and the flip move). */
function contracts(variant: number): OptionContract[] {
  const book: OptionContract[] = [];
  for (const expiration of ['2026-12-18', '2027-01-15', '2027-02-19', '2027-03-19']) {
    for (let strike = 80; strike <= 120; strike += 2.5) {
      const skew = (100 - strike) / 100;
      const common = { root: 'LVL', expiration, strike, bid: 0, ask: 0, multiplier: 100 };
      book.push({ ...common, right: 'C', openInterest: 400 + ((variant * 37 + strike * 11) % 900), iv: 0.2 - skew * 0.1 });
      book.push({ ...common, right: 'P', openInterest: 600 + ((variant * 53 + strike * 7) % 1300), iv: 0.22 + skew * 0.25 });
    }
  }
  return book;
}

/** 6,500 snapshots back from 2026-11-20 16:00 New York, spot wandering between 94 and 106. */
async function storeSnapshots(served: Served): Promise<void> {
  const folder = openDataFolder({ dataDir: served.dataDir, busyTimeoutMs: 10_000 });
  try {
    const payloads = Array.from({ length: VARIANTS }, (_, v) => packContracts(contracts(v)));
    const repository = new SnapshotRepository(folder.db);
    const close = Date.parse('2026-11-20T21:00:00Z');
    writeNow(folder.db, (turn) => {
      for (let i = 0; i < SNAPSHOTS; i += 1) {
        const quoteTime = new Date(close - Math.floor(i / 14) * 86_400_000 - (i % 14) * 1_800_000).toISOString();
        const spot = 100 + 4 * Math.sin(i / 211) + 2 * Math.sin(i / 37);
        const payload = payloads[Math.floor(i / 40) % VARIANTS] ?? Buffer.alloc(0);
        repository.insert(turn, { symbol: 'LVL', quoteTime, spot, source: 'generic', contracts: 272, expirations: 4 }, payload, '2026-11-20T21:00:00.000Z');
      }
    });
  } finally {
    folder.db.close();
  }
}

const history = '#gex-history-title';
/** The panel alone, to look at its lines. */
const panelShot = (page: Page, name: string) => page.locator('section[aria-labelledby="gex-history-title"]').screenshot({ path: join(screenshotDir, `exposure-levels-6500-${name}-panel.png`) });
const chartOf = (page: Page) => page.locator(`section[aria-labelledby="gex-history-title"] .chart`);

describe('Levels over time over 6,500 snapshots', () => {
  const suite = serveForSuite({ demo: false, prepare: storeSnapshots });

  it('draws them downsampled, every point once zoomed in, and the history is the API’s', async () => {
    await suite.onPage({ width: 1440, height: 1000, theme: 'light' }, async (page) => {
      const served = suite.served();
      try {
        await goTo(page, 'Exposure');
        await page.waitForSelector(history, { timeout: 120_000 });
      } catch (error) {
        await screenshot(page, 'exposure-levels-6500-failed');
        throw error;
      }
      const chart = chartOf(page);
      await expect.poll(() => chart.getAttribute('data-points'), { timeout: 120_000 }).toBe(String(SNAPSHOTS));
      await page.locator(history).scrollIntoViewIfNeeded();
      await expect.poll(() => chart.getAttribute('data-bucket')).not.toBeNull();
      const bucket = Number(await chart.getAttribute('data-bucket'));
      const drawn = Number(await chart.getAttribute('data-drawn'));
      const box = await chart.boundingBox();
      if (box === null) throw new Error('no levels chart');
      // About 1,100 px for 6,500 snapshots: buckets of 8, at most four points of each drawn (and the crossings).
      expect(bucket).toBeGreaterThanOrEqual(4);
      expect(drawn).toBeLessThan(SNAPSHOTS / 2);
      expect(drawn).toBeGreaterThan(SNAPSHOTS / bucket);
      await screenshot(page, 'exposure-levels-6500-whole');
      await panelShot(page, 'whole');

      // The points are the API's: the first and last spot of the legend.
      const answer = await api<GexHistoryResponseT>(served, '/gex/history?symbol=LVL');
      expect(answer.points).toHaveLength(SNAPSHOTS);
      const legend = (await page.locator('.legend-spot').textContent()) ?? '';
      expect(legend).toContain((answer.points[0]?.spot ?? 0).toFixed(2));

      // Zoomed in with the wheel until a pixel holds at most one snapshot: every point drawn.
      await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5);
      for (let step = 0; step < 60 && (await chart.getAttribute('data-bucket')) !== '1'; step += 1) {
        await page.mouse.wheel(0, -300);
        await page.waitForTimeout(50);
      }
      await expect.poll(() => chart.getAttribute('data-bucket')).toBe('1');
      expect(await chart.getAttribute('data-drawn')).toBe(String(SNAPSHOTS));
      await panelShot(page, 'zoomed');
    });
  }, 300_000);
});
