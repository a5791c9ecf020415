/**
 * The Exposure page over time (issue 11) in Chromium: three real SPX chains of different days (a real history) and
 * the demo's day of snapshots. What the page shows is checked against the API's own answers; screenshots go to
 * test-results/screenshots/ (exposure-time-*, exposure-demo-*, events-paged-*).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { ExpirationsResponseT, GexDiffResponseT, GexResponseT, SnapshotsResponseT } from '../../src-shared/api/schemas';
import { CHAIN_FIXTURES } from '../paths';
import { api, goTo, screenshot, type Served } from './harness';
import { serveForSuite } from './suite';

const SPX_FILES = ['SPX_quotedata_2022-02-04close_luca.csv', 'SPX_quotedata_2023-09-14_carlos.csv', 'SPX_quotedata_2024-01-05close_phammings.csv'];

async function postChains(served: Served): Promise<void> {
  for (const file of SPX_FILES) {
    const response = await fetch(`${served.apiBaseUrl}/chains`, { method: 'POST', headers: { Authorization: `Bearer ${served.key}`, 'Content-Type': 'text/csv' }, body: readFileSync(join(CHAIN_FIXTURES, file)) });
    if (response.status !== 201) throw new Error(`${file}: HTTP ${response.status} ${await response.text()}`);
  }
}

/** A Panel of the page by its id (the id names its title: components/ui.tsx). */
const panel = (id: string) => `section[aria-labelledby="${id}-title"]`;

async function openExposure(page: Page): Promise<void> {
  await goTo(page, 'Exposure');
  await page.waitForSelector('[data-testid="vanna-levels"]');
  await page.waitForSelector(`${panel('gex-profile')} .chart canvas`);
}

describe('Exposure over time on three real SPX chains', () => {
  const suite = serveForSuite({ demo: false, prepare: postChains });

  for (const theme of ['light', 'dark'] as const) {
    it(`picker, profile, levels over time, roll-off, 0DTE switch, compare and the strike tooltip (${theme})`, async () => {
      await suite.onPage({ width: 1440, height: 1000, theme }, async (page) => {
        const served = suite.served();
        const listed = await api<SnapshotsResponseT>(served, '/snapshots?symbol=SPX');
        await openExposure(page);
        const options = page.getByTestId('snapshot-select').locator('option');
        expect(await options.count(), 'one option per stored snapshot').toBe(listed.snapshots.length);
        expect(await options.first().textContent(), 'the newest first, selected by default').toContain('Newest');
        expect(await page.locator(`${panel('gex-profile')} .chart`).getAttribute('data-points')).toBe('201');
        await expect.poll(() => page.locator(`${panel('gex-history')} .chart`).getAttribute('data-points'), { timeout: 20_000 }).toBe(String(listed.snapshots.length));

        const newest = await api<ExpirationsResponseT>(served, '/expirations?symbol=SPX');
        const rolloffRows = page.getByTestId('rolloff').getByRole('listitem');
        expect(await rolloffRows.count(), 'twelve expirations and the rest').toBe(Math.min(newest.details.length, 12) + (newest.details.length > 12 ? 1 : 0));
        const firstShare = newest.details[0]?.gammaShare ?? 0;
        expect(await rolloffRows.first().textContent()).toContain(`${(firstShare * 100).toFixed(1)}%`);

        // The strike tooltip: calls, puts, net and OI of the strike under the pointer.
        const chart = page.locator(`${panel('gex-chart')} .chart`);
        const box = await chart.boundingBox();
        if (box === null) throw new Error('no GEX chart');
        await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
        const tooltip = page.locator(`${panel('gex-chart')} [data-testid="strike-tooltip"]`);
        await tooltip.waitFor({ state: 'visible' });
        const tip = (await tooltip.textContent()) ?? '';
        for (const part of ['Strike', 'Calls', 'Puts', 'Net', 'OI']) expect(tip).toContain(part);
        await screenshot(page, `exposure-time-${theme}`);

        // An older snapshot: the page answers on it (the API's figure for snapshot=).
        const older = listed.snapshots[1];
        if (older === undefined) throw new Error('three snapshots were stored');
        const picked = page.waitForResponse((r) => r.url().includes('/v1/gex?') && r.url().includes(`snapshot=${older.id}`));
        await page.getByTestId('snapshot-select').selectOption(String(older.id));
        await picked;
        const gexOlder = await api<GexResponseT>(served, `/gex?symbol=SPX&snapshot=${older.id}`);
        await expect.poll(() => page.getByTestId('snapshot-info').textContent()).toContain(String(gexOlder.meta.snapshotTime.slice(0, 4)));

        // Compare with the oldest: the stats are the diff's.
        const oldest = listed.snapshots[2];
        if (oldest === undefined) throw new Error('three snapshots were stored');
        const compared = page.waitForResponse((r) => r.url().includes('/v1/gex/diff?'));
        await page.getByTestId('compare-select').selectOption(String(oldest.id));
        await compared;
        await page.getByTestId('compare-stats').waitFor();
        const diff = await api<GexDiffResponseT>(served, `/gex/diff?symbol=SPX&from=${oldest.id}&to=${older.id}&expirationsCount=3`);
        expect(diff.data.length).toBeGreaterThan(0);
        await page.waitForSelector(`${panel('gex-compare')} .chart canvas`);
        await screenshot(page, `exposure-compare-${theme}`);

        // 0DTE: none of these snapshots has one (each was quoted after the close); ex-0DTE is the rest.
        const zero = page.waitForResponse((r) => r.url().includes('/v1/gex?') && r.url().includes('maxDte=0'));
        await page.getByRole('button', { name: '0DTE', exact: true }).click();
        await zero;
        // The answer says why the scope is empty (issue 18: it used to read "positive gamma" over an empty profile).
        const emptyScope = page.getByTestId('empty-scope');
        await emptyScope.waitFor();
        expect(await emptyScope.textContent()).toContain('All expirations in this scope have expired');
        expect(await page.getByTestId('gex-key-numbers').textContent(), 'no zone is claimed for an empty scope').toContain('no contract in scope');
        const ex = page.waitForResponse((r) => r.url().includes('/v1/gex?') && r.url().includes('minDte=1'));
        await page.getByRole('button', { name: 'Ex-0DTE' }).click();
        await ex;
        await page.waitForSelector(`${panel('gex-chart')} .chart canvas`);
      });
    });
  }

  it('labels stay apart at a narrow width; deleting a snapshot from the picker', async () => {
    await suite.onPage({ width: 900, height: 1100, theme: 'light' }, async (page) => {
      page.on('dialog', (dialog) => void dialog.accept());
      await openExposure(page);
      await screenshot(page, 'exposure-time-narrow-light');
      const before = await page.getByTestId('snapshot-select').locator('option').count();
      const deleted = page.waitForResponse((r) => r.url().includes('/v1/snapshots/') && r.request().method() === 'DELETE');
      await page.getByTestId('snapshot-delete').click();
      expect((await deleted).status()).toBe(200);
      await expect.poll(() => page.getByTestId('snapshot-select').locator('option').count()).toBe(before - 1);
      const listed = await api<SnapshotsResponseT>(suite.served(), '/snapshots?symbol=SPX');
      expect(listed.snapshots).toHaveLength(before - 1);
    });
  });
});

describe('Exposure over time and events on the demo', () => {
  const suite = serveForSuite({ demo: true });

  for (const theme of ['light', 'dark'] as const) {
    it(`the demo's day of snapshots: picker, history and compare have something to show (${theme})`, async () => {
      await suite.onPage({ width: 1440, height: 1000, theme }, async (page) => {
        await openExposure(page);
        const symbol = await page.getByTestId('symbol-select').inputValue();
        const listed = await api<SnapshotsResponseT>(suite.served(), `/snapshots?symbol=${symbol}`);
        expect(listed.snapshots.length, 'a day of several snapshots').toBeGreaterThan(2);
        await expect.poll(() => page.locator(`${panel('gex-history')} .chart`).getAttribute('data-points'), { timeout: 20_000 }).toBe(String(listed.snapshots.length));
        const second = listed.snapshots[1];
        if (second === undefined) throw new Error('several snapshots');
        await page.getByTestId('compare-select').selectOption(String(second.id));
        await page.getByTestId('compare-stats').waitFor();
        await page.waitForSelector(`${panel('gex-compare')} .chart canvas`);
        await screenshot(page, `exposure-demo-${theme}`);
      });
    });
  }

  it('events: dte at the event beside today’s, and pages of 25', async () => {
    await suite.onPage({ width: 1440, height: 1000, theme: 'light' }, async (page) => {
      await goTo(page, 'Events');
      await page.waitForSelector('[data-testid="events-table"]');
      const all = await api<{ events: Array<{ dte: number; eventDte: number; timestamp: string }> }>(suite.served(), '/gex/events?limit=200&scope=all');
      const rows = page.getByTestId('events-table').locator('tbody tr');
      expect(await rows.count()).toBe(Math.min(all.events.length, 25));
      const first = all.events[0];
      if (first === undefined) throw new Error('the demo has events');
      expect(await rows.first().locator('td:nth-child(4)').textContent()).toBe(String(first.eventDte));
      expect(await rows.first().locator('td:nth-child(5)').textContent()).toBe(String(first.dte));
      if (all.events.length > 25) {
        await page.getByRole('navigation', { name: 'Event pages' }).getByRole('button', { name: /Next/ }).click();
        await expect.poll(() => rows.count()).toBe(Math.min(all.events.length - 25, 25));
      }
      await screenshot(page, 'events-paged-light');
    });
  });
});
