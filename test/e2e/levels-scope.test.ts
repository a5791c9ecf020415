/**
 * Issue 27's levels scope and underlying roots in Chromium against `strikebook serve` (docs/journal.md §Levels scope,
 * §Underlying roots): a short SPY strangle on the real SPY chain of 2023-09-14, held on Positions and Trades against its
 * own expiration's levels (named beside them), the scope switched to the nearest three; the strangle's entry sentence
 * and map naming both short legs; and an NDXP put without any NDX chain asking for the NDX chain. Both themes, 1440 and
 * 390 px. Expected figures are the API's own answers. Screenshots: test-results/screenshots/levels-*.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PositionsResponseT, TradesResponseT } from '../../src-shared/api/schemas';
import { CHAIN_FIXTURES } from '../paths';
import { api, goTo, screenshot } from './harness';
import { serveForSuite } from './suite';

const SPY_CHAIN = join(CHAIN_FIXTURES, 'SPY_quotedata_2023-09-14_carlos.csv');
const THEMES = ['light', 'dark'] as const;
const WIDTHS = [1440, 390] as const;
/** Friday 2023-09-15 16:00 New York: the strangle is open, the Thursday chain 1 trading day old. */
const AS_OF_INPUT = '2023-09-15T16:00';

describe('levels scope and underlying roots on Positions and Trades', () => {
  const suite = serveForSuite({
    demo: false,
    prepare: async (served) => {
      await api(served, '/chains?symbol=SPY', { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: readFileSync(SPY_CHAIN, 'utf8') });
      const leg = (strike: number, right: 'P' | 'C', price: number) => ({ account: 'Margin', date: '2023-09-15T14:00:00Z', type: 'SELL_TO_OPEN', symbol: 'SPY', expiration: '2023-10-06', strike, right, quantity: 2, price, orderId: 'S1' });
      const ndxp = { account: 'Margin', date: '2023-09-14T15:00:00Z', type: 'SELL_TO_OPEN', symbol: 'NDXP', expiration: '2023-09-29', strike: 14500, right: 'P', quantity: 1, price: 40 };
      await api(served, '/journal/transactions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ transactions: [leg(440, 'P', 1.62), leg(460, 'C', 1.04), ndxp] }) });
    },
  });

  it('Positions: own expiration’s walls named beside them, the nearest three on request; the NDXP put asks for an NDX chain', async () => {
    const query = '/journal/positions?asOf=2023-09-15T16:00:00';
    const own = await api<PositionsResponseT>(suite.served(), query);
    const nearest = await api<PositionsResponseT>(suite.served(), `${query}&levelsScope=nearest`);
    const put = (body: PositionsResponseT) => body.positions.find((p) => p.symbol === 'SPY231006P00440000');
    expect([put(own)?.levels?.putWall, put(own)?.levels?.scope, put(nearest)?.levels?.putWall, put(nearest)?.levels?.scope]).toEqual([445, 'own', 450, 'nearest']);
    expect(own.positions.find((p) => p.symbol.startsWith('NDXP'))?.underlying, 'an NDXP put is NDX’s').toBe('NDX');
    for (const width of WIDTHS) {
      for (const theme of THEMES) {
        await suite.onPage({ width, theme }, async (page) => {
          await goTo(page, 'Positions');
          const answered = page.waitForResponse((r) => r.url().includes('/journal/positions') && r.url().includes('asOf='));
          await page.getByTestId('positions-asof').fill(AS_OF_INPUT);
          await answered;
          const levels = page.locator('[data-testid="book-SPY"] [data-testid="group-levels"]');
          await expect.poll(() => levels.textContent()).toContain('put wall 445');
          expect(await levels.textContent()).toContain('own expiration 06 Oct 23');
          expect(await page.getByTestId('positions-unmarked-note').textContent()).toContain('load an NDX chain');
          expect(await page.getByTestId('positions-unmarked-note').textContent()).not.toContain('NDXP');
          if (width === 390) expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scroll').toBeLessThanOrEqual(390);
          // The dealers' map of the strangle's own expiration, named so.
          await page.waitForSelector('[data-testid="map-SPY"] .chart canvas');
          expect(await page.getByTestId('map-scope-SPY').textContent()).toContain('own expiration 06 Oct 23');
          await screenshot(page, `levels-positions-own-${width}-${theme}`);
          const switched = page.waitForResponse((r) => r.url().includes('/journal/positions') && r.url().includes('levelsScope=nearest'));
          await page.getByTestId('levels-scope').getByRole('button', { name: '3 nearest' }).click();
          await switched;
          await expect.poll(() => levels.textContent()).toContain('put wall 450');
          expect(await levels.textContent()).toContain('3 nearest expirations');
          await expect.poll(() => page.getByTestId('map-scope-SPY').textContent()).toContain('3 nearest expirations');
          await page.waitForSelector('[data-testid="map-SPY"] .chart canvas');
          await screenshot(page, `levels-positions-nearest-${width}-${theme}`);
        });
      }
    }
  });

  it('Trades: the strangle’s entry names both short legs against its own expiration’s levels, its map draws both; nearest on request', async () => {
    const { trades } = await api<TradesResponseT>(suite.served(), '/journal/trades');
    const strangle = trades.find((t) => t.strategy === 'short_strangle');
    if (strangle === undefined || strangle.levelsAtEntry === null) throw new Error('no strangle with levels at entry');
    expect(strangle.levelsAtEntry.shortStrikes.map((s) => s.place)).toEqual(['below_put_wall', 'above_call_wall']);
    for (const width of WIDTHS) {
      for (const theme of THEMES) {
        await suite.onPage({ width, theme }, async (page) => {
          await goTo(page, 'Trades');
          await page.locator(`[data-testid="trade-row"][data-trade-id="${strangle.id}"]`).getByRole('button', { name: 'Short strangle' }).click();
          await page.waitForSelector('[data-testid="trade-detail"]');
          expect(await page.getByTestId('entry-place').textContent()).toBe('Sold the 440 put below the put wall and the 460 call above the call wall');
          expect(await page.getByTestId('entry-scope').textContent()).toBe('(own expiration 06 Oct 23)');
          const map = page.getByTestId('entry-map');
          await page.waitForSelector('[data-testid="entry-map"] .chart canvas');
          expect(await map.getAttribute('data-strikes')).toBe('440P,460C');
          if (width === 390) expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scroll').toBeLessThanOrEqual(390);
          await page.getByTestId('trade-detail').scrollIntoViewIfNeeded();
          await screenshot(page, `levels-trade-own-${width}-${theme}`);
          const switched = page.waitForResponse((r) => r.url().includes('/journal/trades?') && r.url().includes('levelsScope=nearest'));
          await page.getByTestId('levels-scope').getByRole('button', { name: '3 nearest' }).click();
          await switched;
          await page.locator(`[data-testid="trade-row"][data-trade-id="${strangle.id}"]`).getByRole('button', { name: 'Short strangle' }).click();
          await expect.poll(() => page.getByTestId('entry-scope').textContent()).toContain('3 nearest expirations');
          await page.waitForSelector('[data-testid="entry-map"] .chart canvas');
          await screenshot(page, `levels-trade-nearest-${width}-${theme}`);
        });
      }
    }
  });
});
