/**
 * "Refresh now" in Chromium (issue 21 item 4): `strikebook serve` with no chain and one open short put on QQQ, its
 * online source pointed at a local CBOE stand-in that serves SPY (a real quotedata download rewritten as delayed-quotes
 * JSON by the test) and QQQ, and answers 404 for MISSING. The button on the empty Exposure page fetches the watchlist
 * and the position's underlying, shows each symbol's result, and the page then draws the chains; the OI chart's
 * volume toggle draws the API's per-strike volume. Screenshots: test-results/screenshots/exposure-refresh-*.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GexResponseT, RefreshPassT } from '../../src-shared/api/schemas';
import { delayedQuotesFromQuotedata, smallChain } from '../delayed-quotes';
import { api, goTo, screenshot, type Served } from './harness';
import { serveForSuite } from './suite';

const SPY_FILE = 'SPY_quotedata_2025-05-16_photon1c.csv';

let standIn: Server;
let baseUrl = '';

beforeAll(async () => {
  // Quoted a minute ago: the online source refuses quote times after the poll.
  const quoted = new Date(Date.now() - 60_000).toISOString().replace('T', ' ').slice(0, 19);
  const spy = delayedQuotesFromQuotedata(SPY_FILE);
  standIn = createServer((request, response) => {
    const name = (request.url ?? '').replace(/^\/options\//, '');
    const body = name === 'SPY.json' ? spy : name === 'QQQ.json' ? smallChain('QQQ', 'QQQ', quoted) : null;
    // A moment per symbol, so that the page shows the pass while it runs.
    setTimeout(() => {
      if (body === null) response.writeHead(404).end('not found');
      else response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    }, 300);
  });
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  const address = standIn.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/options`;
});
afterAll(async () => {
  standIn.closeAllConnections();
  await new Promise((resolve) => standIn.close(resolve));
});

async function prepare(served: Served): Promise<void> {
  const json = { 'Content-Type': 'application/json' };
  await api(served, '/settings', { method: 'PUT', headers: json, body: JSON.stringify({ onlineSource: { enabled: false, baseUrl, watchlist: ['SPY', 'MISSING'], intervalSeconds: 300 }, watchlistIncludesPositions: true }) });
  const opened = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
  await api(served, '/journal/transactions', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ transactions: [{ account: 'Browser test', date: opened, type: 'SELL_TO_OPEN', symbol: 'QQQ', expiration: '2099-12-17', strike: 95, right: 'P', quantity: 1, price: 2.1 }] }),
  });
}

describe('Refresh now on the Exposure page', () => {
  const suite = serveForSuite({ demo: false, prepare });

  it('fetches the watchlist and the open position’s underlying, shows each result, then the chains; volume by strike is the API’s', async () => {
    await suite.onPage({ width: 1440, height: 1000, theme: 'light' }, async (page) => {
      const served = suite.served();
      await goTo(page, 'Exposure');
      await page.getByText('No option chains yet').waitFor();
      await page.getByTestId('refresh-now').click();
      const table = page.getByTestId('refresh-table');
      await table.waitFor();
      expect(await table.locator('tbody tr td:first-child').allTextContents()).toEqual(['SPY', 'MISSING', 'QQQ']);
      expect(await table.locator('tbody tr td:nth-child(2)').allTextContents()).toEqual(['watchlist', 'watchlist', 'open position']);
      await expect.poll(() => page.getByTestId('refresh-summary').textContent(), { timeout: 30_000 }).toMatch(/^2 stored, 1 failed · finished /);
      const pass = await api<RefreshPassT>(served, '/chains/refresh');
      const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-state'), (tr.querySelector('td:last-child')?.textContent ?? '').trim()]));
      expect(rows.map(([state]) => state)).toEqual(pass.symbols.map((s) => s.state));
      expect(rows[1]).toEqual(['failed', 'HTTP 404']);
      const spy = pass.symbols.find((s) => s.symbol === 'SPY');
      expect(rows[0]?.[1]).toMatch(new RegExp(`^${(spy?.contracts ?? 0).toLocaleString('en-US')} contracts at `));
      // The refreshed chains are on the page without a reload.
      await page.getByTestId('symbol-select').waitFor();
      expect(await page.getByTestId('symbol-select').locator('option').allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/^QQQ/), expect.stringMatching(/^SPY/)]));
      await screenshot(page, 'exposure-refresh-done');

      // Volume by strike on SPY: the tooltip's volumes are the API's row.
      await page.getByTestId('symbol-select').selectOption('SPY');
      const gex = await api<GexResponseT>(served, '/gex?symbol=SPY');
      const panel = page.locator('section[aria-labelledby="oi-chart-title"]');
      await expect.poll(() => page.getByTestId('snapshot-info').textContent(), { timeout: 20_000 }).toMatch(/source online/);
      await panel.getByRole('button', { name: 'Volume', exact: true }).click();
      await expect.poll(() => page.locator('#oi-chart-title').textContent()).toBe('Volume by strike');
      const chart = panel.locator('.chart');
      await chart.scrollIntoViewIfNeeded();
      const box = await chart.boundingBox();
      if (box === null) throw new Error('no volume chart');
      await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
      const tooltip = panel.getByTestId('strike-tooltip');
      await tooltip.waitFor({ state: 'visible' });
      const tip = (await tooltip.textContent()) ?? '';
      const strike = Number(/Strike ([\d,.]+)/.exec(tip)?.[1]?.replace(/,/g, ''));
      const row = gex.data.find((r) => r.strike === strike);
      if (row === undefined || row.callVolume === null || row.putVolume === null) throw new Error(`no volume row at ${strike}: ${tip}`);
      const flat = tip.replace(/\s+/g, '');
      expect(flat).toContain(`Callvolume${Math.round(row.callVolume).toLocaleString('en-US')}`);
      expect(flat).toContain(`Putvolume${Math.round(row.putVolume).toLocaleString('en-US')}`);
      await screenshot(page, 'exposure-refresh-volume');
    });
  }, 120_000);

  it('on Positions too: the held underlying’s chain marks the book', async () => {
    await suite.onPage({ width: 1440, height: 900, theme: 'light' }, async (page) => {
      await goTo(page, 'Positions');
      await page.getByTestId('refresh-now').click();
      await expect.poll(() => page.getByTestId('refresh-summary').textContent(), { timeout: 30_000 }).toMatch(/^2 stored, 1 failed · finished /);
      const positions = await api<{ positions: Array<{ underlying: string; mark: { price: number } | null }> }>(suite.served(), '/journal/positions');
      expect(positions.positions.find((p) => p.underlying === 'QQQ')?.mark, 'QQQ is marked by the refreshed chain').not.toBeNull();
      await screenshot(page, 'exposure-refresh-positions');
    });
  }, 120_000);

  it('at 390 px, dark: the button and the results fit', async () => {
    await suite.onPage({ width: 390, height: 844, theme: 'dark' }, async (page) => {
      await goTo(page, 'Exposure');
      await page.getByTestId('refresh-now').click();
      await expect.poll(() => page.getByTestId('refresh-summary').textContent(), { timeout: 30_000 }).toMatch(/^2 stored, 1 failed · finished /);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, 'no sideways scroll').toBeLessThanOrEqual(0);
      await screenshot(page, 'exposure-refresh-narrow-dark');
    });
  }, 120_000);
});
