/**
 * Issue 20's pages in Chromium against `strikebook serve`: the Trades page (table, filters, a trade's detail with its
 * timeline from GET /journal/trades/{id}, its entry on the dealers' map and its note and tags, saved through the API) and the Journal's Strategy report
 * (bars and table by strategy and by regime at entry), on the hand-written AMD trades around the real AMD chain, in both
 * themes at 1440 and 390 px. Expected figures are the API's own answers. Screenshots: test-results/screenshots/trades-*.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnnotationResponseT, StatsResponseT, TradesResponseT } from '../../src-shared/api/schemas';
import { AMD_TRADES } from '../amd-trades';
import { CHAIN_FIXTURES } from '../paths';
import { api, goTo, screenshot, type Served } from './harness';
import { serveForSuite } from './suite';

const AMD_CHAIN = join(CHAIN_FIXTURES, 'AMD_quotedata_2023-08-18close_aryaman.csv');
const THEMES = ['light', 'dark'] as const;
const WIDTHS = [1440, 390] as const;
/** How the detail says the API's `shortStrikeVs` of a sold strike. */
const PLACE_WORDS: Record<string, string> = {
  below_put_wall: 'Sold below the put wall',
  put_wall_to_flip: 'Sold between the put wall and the flip',
  flip_to_call_wall: 'Sold between the flip and the call wall',
  above_call_wall: 'Sold above the call wall',
};

function signedMoney(value: number): string {
  const text = `$${Math.abs(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  return value > 0 ? `+${text}` : value < 0 ? `−${text}` : text;
}

async function post(served: Served, path: string, body: string): Promise<void> {
  await api(served, path, { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body });
}

describe('trades and the strategy report', () => {
  const suite = serveForSuite({
    demo: false,
    prepare: async (served) => {
      await post(served, '/chains?symbol=AMD', readFileSync(AMD_CHAIN, 'utf8'));
      await post(served, '/imports?broker=generic', AMD_TRADES);
    },
  });

  it('Trades: every trade of the API with its P&L; a detail with legs, the entry on the dealers’ map, and a note saved', async () => {
    const list = await api<TradesResponseT>(suite.served(), '/journal/trades');
    expect(list.trades).toHaveLength(4);
    const puts = list.trades.find((t) => t.mainLeg?.strike === 95);
    if (puts === undefined || puts.levelsAtEntry === null) throw new Error('the 95 put trade has no levels at entry');
    for (const width of WIDTHS) {
      for (const theme of THEMES) {
        await suite.onPage({ width, theme }, async (page) => {
          await goTo(page, 'Trades');
          await page.waitForSelector('[data-testid="trades-table"]');
          expect(await page.getByTestId('trade-row').count()).toBe(list.trades.length);
          const row = page.locator(`[data-testid="trade-row"][data-trade-id="${puts.id}"]`);
          await expect.poll(() => row.textContent()).toContain(signedMoney(puts.pnl ?? 0));
          expect(await row.textContent()).toContain('AMD');
          // An open trade without a mark has no total: "—", never its realized part dressed as one ($0.00).
          const unmarked = list.trades.filter((t) => t.status === 'open' && t.unrealizedPL === null);
          expect(unmarked.length, 'the AMD file leaves a put open past its chain').toBeGreaterThan(0);
          for (const t of unmarked) expect(await page.locator(`[data-testid="trade-row"][data-trade-id="${t.id}"] [data-testid="trade-pnl"]`).textContent()).toMatch(/^—( unmarked)?$/);
          if (width === 390) {
            // The key columns (strategy, underlying, P&L) in view, and no sideways scroll of the page.
            const pnl = await row.locator('td').nth(9).boundingBox();
            expect((pnl?.x ?? 0) + (pnl?.width ?? 0), 'the P&L cell inside the window').toBeLessThanOrEqual(390);
            expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
          }
          await screenshot(page, `trades-list-${width}-${theme}`);
          await row.getByRole('button', { name: 'Short put' }).click();
          await page.waitForSelector('[data-testid="trade-detail"]');
          // "Sold below the put wall" (or wherever the API placed it), and the map of the snapshot at entry.
          expect(await page.getByTestId('entry-place').textContent()).toBe(PLACE_WORDS[puts.levelsAtEntry?.shortStrikeVs ?? 'none']);
          await page.waitForSelector('[data-testid="entry-map"] .chart canvas');
          expect(await page.locator('[data-testid="trade-legs"] tbody tr').count()).toBe(puts.legs.length);
          // The timeline of GET /journal/trades/{id}: the last row's realized P&L so far is the trade's P&L (wide windows
          // show that column; at 390 the key ones stay), and its cash column holds the API's cash of the sale.
          if (width === 1440) {
            await expect.poll(() => page.locator('[data-testid="timeline-running"]').last().textContent(), { timeout: 20_000 }).toBe(signedMoney(puts.pnl ?? 0));
            expect(await page.locator('[data-testid="trade-legs"] tbody tr').first().textContent()).toContain(signedMoney(puts.credit ?? 0));
          }
          await screenshot(page, `trades-detail-${width}-${theme}`);
          // Opened, the detail holds the focus; Escape closes it and gives the focus back to the row's button.
          expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('trade-detail-close');
          await page.keyboard.press('Escape');
          await expect.poll(() => page.getByTestId('trade-detail').count()).toBe(0);
          expect(await page.evaluate(() => location.hash)).not.toContain('trade=');
          expect(await page.evaluate(() => document.activeElement?.closest('[data-testid="trade-row"]')?.getAttribute('data-trade-id'))).toBe(puts.id);
        });
      }
    }
    await suite.onPage({ width: 1440, theme: 'light' }, async (page) => {
      await goTo(page, 'Trades');
      await page.locator(`[data-testid="trade-row"][data-trade-id="${puts.id}"]`).click();
      await page.waitForSelector('[data-testid="trade-annotation"]');
      await page.getByLabel('Note').fill('Sold below the wall into earnings');
      await page.getByLabel('Tags').fill('Earnings, wheel');
      const saved = page.waitForResponse((r) => r.url().includes(`/journal/trades/${puts.id}/annotation`) && r.request().method() === 'PUT');
      await page.getByRole('button', { name: 'Save note' }).click();
      expect((await saved).status()).toBe(200);
      await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      const tagged = await api<TradesResponseT>(suite.served(), '/journal/trades?tag=earnings');
      expect(tagged.trades.map((t) => [t.id, t.note, t.tags])).toEqual([[puts.id, 'Sold below the wall into earnings', ['earnings', 'wheel']]]);
      // The tag filter finds it.
      await page.getByTestId('tag-filter').fill('wheel');
      const filtered = page.waitForResponse((r) => r.url().includes('/journal/trades') && r.url().includes('tag=wheel'));
      await page.getByTestId('tag-filter').press('Enter');
      await filtered;
      await expect.poll(() => page.getByTestId('trade-row').count()).toBe(1);
      // Its campaign's page takes a note of its own.
      await page.locator(`[data-testid="trade-row"][data-trade-id="${puts.id}"]`).click();
      await page.getByRole('link', { name: 'its campaign' }).click();
      const form = page.getByTestId('campaign-annotation');
      await form.waitFor();
      await form.getByLabel('Note').fill('AMD, summer 2023');
      await form.getByLabel('Tags').fill('wheel');
      const campaignSaved = page.waitForResponse((r) => r.url().includes('/journal/chains/') && r.url().endsWith('/annotation') && r.request().method() === 'PUT');
      await form.getByRole('button', { name: 'Save note' }).click();
      expect((await campaignSaved).status()).toBe(200);
      await form.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      const stored = await api<AnnotationResponseT>(suite.served(), `/journal/chains/${encodeURIComponent(puts.campaignId ?? '')}/annotation`);
      expect([stored.note, stored.tags]).toEqual(['AMD, summer 2023', ['wheel']]);
      await screenshot(page, 'trades-campaign-note-1440-light');
    });
  });

  it('Strategy report on the Journal: bars and table by strategy and by regime at entry, as /journal/stats says', async () => {
    const byStrategy = await api<StatsResponseT>(suite.served(), '/journal/stats?groupBy=strategy');
    const byZone = await api<StatsResponseT>(suite.served(), '/journal/stats?groupBy=zoneAtEntry');
    expect(byStrategy.rows.length).toBeGreaterThan(0);
    for (const width of WIDTHS) {
      for (const theme of THEMES) {
        await suite.onPage({ width, theme }, async (page) => {
          await goTo(page, 'Journal');
          const report = page.getByTestId('strategy-report');
          await report.scrollIntoViewIfNeeded();
          await page.waitForSelector('[data-testid="strategy-table"]');
          expect(await page.locator('[data-testid="strategy-table"] tbody tr').count()).toBe(byStrategy.rows.length);
          for (const row of byStrategy.rows) {
            await expect.poll(() => page.locator(`[data-testid="stat-bars"] [data-key="${row.key ?? 'untagged'}"]`).textContent()).toContain(signedMoney(row.pnl));
          }
          const answered = page.waitForResponse((r) => r.url().includes('/journal/stats') && r.url().includes('groupBy=zoneAtEntry'));
          await page.getByRole('group', { name: 'Group trades by' }).getByRole('button', { name: 'Regime' }).click();
          await answered;
          await expect.poll(() => report.getAttribute('data-group')).toBe('zoneAtEntry');
          expect(await page.locator('[data-testid="strategy-table"] tbody tr').count()).toBe(byZone.rows.length);
          if (width === 390) expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scroll').toBeLessThanOrEqual(390);
          await report.screenshot({ path: join('test-results', 'screenshots', `trades-report-${width}-${theme}.png`) });
          await screenshot(page, `trades-journal-${width}-${theme}`);
        });
      }
    }
  });

  it('a trade opened before the history says its figures are unknown, never ∞ (issue 27)', async () => {
    // A buy-back of an XYZ put sold before the file starts (last: the other tests count four trades).
    await post(
      suite.served(),
      '/imports?broker=generic',
      [
        'date,account,type,symbol,quantity,price,commission,fees,amount,currency,orderId,description,expiration,strike,right,multiplier,id',
        '2023-08-22T15:00:00Z,Trades,BUY_TO_CLOSE,XYZ,1,0.50,0.65,0.01,-50.66,USD,B1,close,2023-09-15,50,P,100,b1',
      ].join('\n'),
    );
    const list = await api<TradesResponseT>(suite.served(), '/journal/trades?symbol=XYZ');
    const [before] = list.trades;
    expect([before?.openedBeforeHistory, before?.maxLoss, before?.collateral]).toEqual([true, null, null]);
    await suite.onPage({ width: 1440, theme: 'light' }, async (page) => {
      await goTo(page, 'Trades');
      const row = page.locator(`[data-testid="trade-row"][data-trade-id="${before?.id ?? ''}"]`);
      await row.waitFor();
      expect(await row.textContent()).toContain('unknown');
      expect(await row.textContent()).not.toContain('∞');
      await row.click();
      await page.waitForSelector('[data-testid="trade-detail"]');
      expect(await page.getByTestId('trade-max-loss').textContent()).toContain('unknown');
      await screenshot(page, 'trades-before-history-1440-light');
    });
  });
});

describe('trades on the demo', () => {
  const suite = serveForSuite({ demo: true });

  it('the demo journal’s trades and its strategy report by strike vs levels, as the API says', async () => {
    const list = await api<TradesResponseT>(suite.served(), '/journal/trades?limit=100');
    const places = await api<StatsResponseT>(suite.served(), '/journal/stats?groupBy=strikeVsLevels');
    expect(list.pagination.total).toBeGreaterThan(0);
    await suite.onPage({ width: 390, theme: 'light' }, async (page) => {
      await goTo(page, 'Trades');
      await page.waitForSelector('[data-testid="trades-table"]');
      // The demo's widest figures (five-digit P&L, open and unmarked): every row's P&L cell inside a phone's window.
      const rights = await page.locator('[data-testid="trade-row"] td:nth-child(10)').evaluateAll((cells) => cells.map((cell) => cell.getBoundingClientRect().right));
      expect(rights).toHaveLength(list.trades.length);
      expect(Math.max(...rights), 'the P&L column inside the window').toBeLessThanOrEqual(390);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scroll').toBeLessThanOrEqual(390);
      await screenshot(page, 'trades-demo-390-light');
    });
    await suite.onPage({ width: 1440, theme: 'dark' }, async (page) => {
      await goTo(page, 'Trades');
      await page.waitForSelector('[data-testid="trades-table"]');
      expect(await page.getByTestId('trade-row').count()).toBe(list.trades.length);
      await page.getByTestId('trade-row').first().click();
      await page.waitForSelector('[data-testid="trade-detail"]');
      await screenshot(page, 'trades-demo-1440-dark');
      await goTo(page, 'Journal');
      await page.getByRole('group', { name: 'Group trades by' }).getByRole('button', { name: 'Strike vs levels' }).click();
      await expect.poll(() => page.getByTestId('strategy-report').getAttribute('data-group')).toBe('strikeVsLevels');
      expect(await page.locator('[data-testid="strategy-table"] tbody tr').count()).toBe(places.rows.length);
      await page.getByTestId('strategy-report').screenshot({ path: join('test-results', 'screenshots', 'trades-demo-report-1440-dark.png') });
    });
  });

  it('the demo’s losing assigned TSLA cycle is a loss on Trades and in the strategy report, by strategy and by outcome (issue 27)', async () => {
    const list = await api<TradesResponseT>(suite.served(), '/journal/trades?limit=100&symbol=TSLA');
    const lost = list.trades.find((t) => t.outcome === 'assigned' && (t.pnl ?? 0) < 0);
    if (lost === undefined || lost.pnl === null || lost.optionPL === null) throw new Error('the demo has no losing assigned TSLA trade');
    expect(lost.optionPL, 'its options alone made money (the broker statement’s view)').toBeGreaterThan(0);
    const byStrategy = await api<StatsResponseT>(suite.served(), '/journal/stats?groupBy=strategy');
    const byOutcome = await api<StatsResponseT>(suite.served(), '/journal/stats?groupBy=outcome');
    const shortPut = byStrategy.rows.find((r) => r.key === 'short_put');
    expect(shortPut?.losses ?? 0).toBeGreaterThan(0);
    for (const width of WIDTHS) {
      for (const theme of THEMES) {
        await suite.onPage({ width, theme }, async (page) => {
          await goTo(page, 'Trades');
          await page.waitForSelector('[data-testid="trades-table"]');
          const row = page.locator(`[data-testid="trade-row"][data-trade-id="${lost.id}"]`);
          await expect.poll(() => row.textContent()).toContain(signedMoney(lost.pnl ?? 0));
          expect(await row.textContent()).toContain('assigned');
          if (width === 390) expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scroll').toBeLessThanOrEqual(390);
          await screenshot(page, `trades-demo-list-${width}-${theme}`);
          await row.getByRole('button', { name: 'Short put' }).click();
          await page.waitForSelector('[data-testid="trade-detail"]');
          expect(await page.getByTestId('trade-option-pl').textContent()).toContain(signedMoney(lost.optionPL ?? 0));
          await screenshot(page, `trades-demo-assigned-${width}-${theme}`);

          await goTo(page, 'Journal');
          const report = page.getByTestId('strategy-report');
          await report.scrollIntoViewIfNeeded();
          await page.waitForSelector('[data-testid="strategy-table"]');
          const putRow = page.locator('[data-testid="strategy-table"] tbody tr[data-key="short_put"]');
          await expect.poll(() => putRow.textContent()).toContain(`${((shortPut?.winRate ?? 0) * 100).toFixed(0)}%`);
          await report.screenshot({ path: join('test-results', 'screenshots', `trades-demo-report-strategy-${width}-${theme}.png`) });
          const answered = page.waitForResponse((r) => r.url().includes('/journal/stats') && r.url().includes('groupBy=outcome'));
          await page.getByRole('group', { name: 'Group trades by' }).getByRole('button', { name: 'Outcome' }).click();
          await answered;
          await expect.poll(() => report.getAttribute('data-group')).toBe('outcome');
          expect(await page.locator('[data-testid="strategy-table"] tbody tr').count()).toBe(byOutcome.rows.length);
          const assigned = byOutcome.rows.find((r) => r.key === 'assigned');
          await expect.poll(() => page.locator('[data-testid="stat-bars"] [data-key="assigned"]').textContent()).toContain(signedMoney(assigned?.pnl ?? 0));
          if (width === 390) expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scroll').toBeLessThanOrEqual(390);
          await report.screenshot({ path: join('test-results', 'screenshots', `trades-demo-report-outcome-${width}-${theme}.png`) });
        });
      }
    }
  });
});
