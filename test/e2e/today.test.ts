/**
 * Issue 30's morning routine in Chromium against `strikebook serve --demo` (docs/ui.md §Today, §Rolls): the Today page
 * lists what GET /journal/manage answers, most urgent first, each with its rule in words and links to its trade and its
 * rolls; "Rolls" opens the trade with the roll assistant, whose table is /journal/trades/{id}/rolls's and whose map is
 * the dealers' map of the candidates' expiration; the net-credit filter narrows both as the API does; a rule turned off
 * in Settings leaves Today. Both themes, 1440 and 390 px. The demo market is the day before the demo's today, so its
 * marks are fresh. Screenshots: test-results/screenshots/today-*, rolls-*.
 */
import { describe, expect, it } from 'vitest';
import type { ManageResponseT, RollsResponseT } from '../../src-shared/api/schemas';
import { api, goTo, screenshot } from './harness';
import { serveForSuite } from './suite';

const THEMES = ['light', 'dark'] as const;
const WIDTHS = [1440, 390] as const;

describe('Today and the roll assistant', () => {
  const suite = serveForSuite({ demo: true });

  it('Today: the API’s items, most urgent first, each with its first rule in words and its links', async () => {
    const manage = await api<ManageResponseT>(suite.served(), '/journal/manage');
    expect(manage.items.length, 'the demo book has trades to manage').toBeGreaterThan(0);
    for (const width of WIDTHS) {
      for (const theme of THEMES) {
        await suite.onPage({ width, theme }, async (page) => {
          await goTo(page, 'Today');
          await page.waitForSelector('[data-testid="today-table"]');
          const rows = page.getByTestId('today-item');
          expect(await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-trade-id')))).toEqual(manage.items.map((i) => i.tradeId));
          expect(await page.getByTestId('today-message').allTextContents()).toEqual(manage.items.map((i) => i.rules[0]?.message ?? ''));
          expect(await page.getByTestId('today-count').textContent()).toContain(`of ${manage.open} open trade`);
          expect(await page.getByTestId('today-rules-line').textContent()).toContain('take profit at 50% · manage at 21 DTE');
          if (width === 390) expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scroll').toBeLessThanOrEqual(390);
          await screenshot(page, `today-${width}-${theme}`);
        });
      }
    }
  });

  it('Rolls: from Today to the trade’s rolls, the table the API’s, the candidates on their expiration’s map; the net-credit filter', async () => {
    const manage = await api<ManageResponseT>(suite.served(), '/journal/manage');
    const item = manage.items.find((i) => i.legs.some((l) => l.isOption && l.quantity < 0));
    if (item === undefined) throw new Error('no item with a short option');
    const rolls = await api<RollsResponseT>(suite.served(), `/journal/trades/${encodeURIComponent(item.tradeId)}/rolls`);
    const credit = await api<RollsResponseT>(suite.served(), `/journal/trades/${encodeURIComponent(item.tradeId)}/rolls?minNet=0`);
    const [leg] = rolls.legs;
    if (leg === undefined) throw new Error('no short leg');
    const firstExpiration = leg.expirations.find((e) => leg.candidates.some((c) => c.expiration === e.expiration))?.expiration;
    for (const width of WIDTHS) {
      for (const theme of THEMES) {
        await suite.onPage({ width, theme }, async (page) => {
          await goTo(page, 'Today');
          await page.locator(`[data-testid="today-item"][data-trade-id="${item.tradeId}"]`).getByTestId('today-rolls-link').click();
          await page.waitForSelector('[data-testid="trade-detail"]');
          await page.waitForSelector('[data-testid="rolls-table"]');
          const legSection = page.locator(`[data-testid="rolls-leg"][data-leg="${leg.leg.symbol}"]`);
          expect(await legSection.getByTestId('rolls-row').evaluateAll((els) => els.map((el) => el.getAttribute('data-symbol')))).toEqual(leg.candidates.map((c) => c.symbol));
          const map = legSection.getByTestId('rolls-map');
          await map.locator('.chart canvas').first().waitFor();
          expect(await map.getAttribute('data-expiration')).toBe(firstExpiration);
          expect(await map.getAttribute('data-strikes')).toBe(leg.candidates.filter((c) => c.expiration === firstExpiration).map((c) => c.strike).join(','));
          if (width === 390) expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scroll').toBeLessThanOrEqual(390);
          await legSection.scrollIntoViewIfNeeded();
          await screenshot(page, `rolls-${width}-${theme}`);
          // Net credit only: the rows the API keeps with minNet=0.
          const filtered = page.waitForResponse((r) => r.url().includes('/rolls') && r.url().includes('minNet=0'));
          await page.getByTestId('rolls-credit').check();
          await filtered;
          const kept = credit.legs.find((l) => l.leg.symbol === leg.leg.symbol)?.candidates.map((c) => c.symbol) ?? [];
          await expect.poll(() => legSection.getByTestId('rolls-row').evaluateAll((els) => els.map((el) => el.getAttribute('data-symbol')))).toEqual(kept);
        });
      }
    }
  });

  it('a rule turned off in Settings leaves Today', async () => {
    const before = await api<ManageResponseT>(suite.served(), '/journal/manage');
    const dteOnly = before.items.filter((i) => i.rules.every((r) => r.rule === 'dte')).map((i) => i.tradeId);
    await suite.onPage({ width: 1440, theme: 'light' }, async (page) => {
      await goTo(page, 'Settings');
      await page.waitForSelector('[data-testid="manage-rules"]');
      await page.getByTestId('rule-manageAtDte-on').uncheck();
      await page.getByTestId('manage-rules-save').click();
      await expect.poll(() => page.getByTestId('manage-rules').getByRole('status').textContent()).toContain('Saved');
      await screenshot(page, 'today-settings-rules');
      await goTo(page, 'Today');
      await page.waitForSelector('[data-testid="today-count"]');
      await expect.poll(() => page.getByTestId('today-rules-line').textContent()).not.toContain('DTE');
      const shown = await page.getByTestId('today-item').evaluateAll((els) => els.map((el) => el.getAttribute('data-trade-id')));
      expect(shown).toEqual(before.items.map((i) => i.tradeId).filter((id) => !dteOnly.includes(id)));
    });
    const after = await api<ManageResponseT>(suite.served(), '/journal/manage');
    expect(after.rules.manageAtDte).toBeNull();
  });
});
