/**
 * Chains that arrive by themselves, in Chromium (issue 30): `strikebook serve --demo` with a watch folder holding a
 * real quotedata download and a file that is no chain, a backfill of 30 shifted copies, a refresh schedule, and an
 * online source at a closed loopback port. Settings shows what the watch folder did (the failed file with its reason),
 * the schedule and the backfill's outcome; the status line says the source cannot be reached and the file failed;
 * Refresh now says it in one line; the Exposure figures carry their plain words. Screenshots at 1440 and 390, light and
 * dark: test-results/screenshots/arrival-*.
 */
import { createServer as createNetServer } from 'node:net';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppStatusT, BackfillStatusT, WatchStatusT } from '../../src-shared/api/schemas';
import { FIGURE_WORDS } from '../../src-renderer/pages/exposure/figure-words';
import { readChain } from '../quotedata';
import { SMALL_SPX, SMALL_SPX_QUOTE, withQuoteTime, writeShiftedChains } from '../chain-files';
import { tempDir } from '../paths';
import { api, goTo, screenshot, screenshotDir, type Served } from './harness';
import { serveForSuite } from './suite';

const watchDir = tempDir('strikebook-e2e-watch-');
const backfillDir = tempDir('strikebook-e2e-backfill-');
afterAll(() => {
  rmSync(watchDir, { recursive: true, force: true });
  rmSync(backfillDir, { recursive: true, force: true });
});

async function closedPort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > 60_000) throw new Error(`${what}: not within 60 s (${JSON.stringify(value).slice(0, 300)})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

let port = 0;

async function prepare(served: Served): Promise<void> {
  port = await closedPort();
  const json = { 'Content-Type': 'application/json' };
  await api(served, '/settings', {
    method: 'PUT',
    headers: json,
    body: JSON.stringify({
      watchFolder: watchDir,
      refreshSchedule: ['09:45', '15:45'],
      snapshotRetentionBySymbol: { SPX: 200 },
      onlineSource: { enabled: false, baseUrl: `http://127.0.0.1:${port}/options`, watchlist: ['SPX', 'SPY'], intervalSeconds: 300 },
    }),
  });
  writeFileSync(join(watchDir, 'spx-close.csv'), withQuoteTime(readChain(SMALL_SPX), SMALL_SPX_QUOTE));
  writeFileSync(join(watchDir, 'broken.csv'), 'Expiration Date,Calls,Last Sale\nFri Jan 10 2025,not an option,1\n');
  await until(() => api<WatchStatusT>(served, '/chains/watch'), (s) => s.files.length === 2, 'the watch folder handles both files');
  writeShiftedChains(backfillDir, 30, 60);
  await api(served, '/chains/backfill', { method: 'POST', headers: json, body: JSON.stringify({ path: backfillDir }) });
  await until(() => api<BackfillStatusT>(served, '/chains/backfill'), (s) => s.backfill?.state === 'done', 'the backfill ends');
  await api(served, '/chains/refresh', { method: 'POST' });
  await until(() => api<AppStatusT>(served, '/status'), (s) => s.source.state === 'unreachable' && !s.refresh.running, 'the refresh finds the source unreachable');
}

describe('chains that arrive by themselves', () => {
  const suite = serveForSuite({ demo: true, prepare });

  for (const theme of ['light', 'dark'] as const) {
    it(`Settings at 1440, ${theme}: the watch folder's files, the schedule, the backfill; the status line`, async () => {
      await suite.onPage({ width: 1440, height: 1000, theme }, async (page) => {
        const served = suite.served();
        await goTo(page, 'Settings');
        const status = await api<AppStatusT>(served, '/status');
        const line = page.getByTestId('status-line');
        await expect.poll(() => line.textContent()).toContain(`cannot reach 127.0.0.1:${port}`);
        expect(await line.textContent()).toContain('Watch folder: broken.csv failed:');
        expect(status.messages.map((m) => m.text)).toEqual(expect.arrayContaining([expect.stringContaining('broken.csv failed')]));

        const watch = page.getByTestId('watch-status');
        await watch.waitFor();
        const failed = watch.locator('tr[data-outcome="failed"]');
        expect(await failed.locator('code').first().textContent()).toBe('broken.csv');
        const reason = (await failed.locator('.reason').textContent()) ?? '';
        const served2 = await api<WatchStatusT>(served, '/chains/watch');
        const fromApi = served2.files.find((f) => f.name === 'broken.csv')?.reason ?? '?';
        expect(reason).toContain(fromApi.split('\n')[0] ?? '?');
        expect(reason).toContain('failed/broken.csv.reason.txt');
        expect(await watch.locator('tr[data-outcome="imported"] code').first().textContent()).toBe('spx-close.csv');

        const schedule = page.getByTestId('schedule-status');
        expect(await schedule.textContent()).toMatch(/^Next refresh \d{4}-\d{2}-\d{2} (09|15):45 ET \(trading days only\)/);
        expect(await page.getByTestId('refresh-schedule').inputValue()).toBe('09:45, 15:45');

        const backfill = page.getByTestId('backfill-progress');
        await backfill.waitFor();
        // The newest copy is the watched file's chain: stored already.
        expect(await backfill.textContent()).toMatch(/30 files\s*29 stored\s*1 already stored\s*0 failed/);
        expect(await page.getByTestId('backfill-path').inputValue()).toBe(backfillDir);
        await page.locator('#arrival-title').scrollIntoViewIfNeeded();
        await screenshot(page, `arrival-settings-1440-${theme}`);
      });
    }, 120_000);

    it(`at 390, ${theme}: the status in the top bar, Settings without sideways scrolling`, async () => {
      await suite.onPage({ width: 390, height: 844, theme }, async (page) => {
        const badge = page.getByTestId('status-badge');
        await badge.waitFor();
        expect(await badge.getAttribute('title')).toContain('cannot reach');
        await goTo(page, 'Settings');
        await page.getByTestId('watch-status').waitFor();
        await page.getByTestId('backfill-progress').waitFor();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        const wide = await page.evaluate(() => {
          const culprits: string[] = [];
          const visit = (root: Element, depth: number) => {
            for (const child of [...root.children]) {
              if (!(child instanceof HTMLElement)) continue;
              const before = document.documentElement.scrollWidth;
              const display = child.style.display;
              child.style.display = 'none';
              const after = document.documentElement.scrollWidth;
              child.style.display = display;
              if (after < before) {
                culprits.push(`${'>'.repeat(depth)}${child.tagName}.${child.className} (${before}→${after})`);
                if (depth < 8) visit(child, depth + 1);
              }
            }
          };
          visit(document.body, 0);
          return culprits;
        });
        await screenshot(page, `arrival-settings-390-${theme}`);
        await page.getByTestId('watch-status').screenshot({ path: join(screenshotDir, `arrival-watch-390-${theme}.png`) });
        await page.locator('.topbar').screenshot({ path: join(screenshotDir, `arrival-topbar-390-${theme}.png`) });
        expect(await page.locator('.topbar-page').evaluate((el) => el.scrollWidth <= el.clientWidth), 'the page name whole').toBe(true);
        expect(overflow, `no sideways scrolling: ${wide.join(' | ')}`).toBeLessThanOrEqual(0);
        await page.getByRole('button', { name: 'Menu' }).click();
        await page.getByTestId('status-line').waitFor();
        await screenshot(page, `arrival-menu-390-${theme}`);
      });
    }, 120_000);
  }

  it('Refresh now: an unreachable source in one line, the symbols named once', async () => {
    await suite.onPage({ width: 1440, height: 900, theme: 'light' }, async (page) => {
      await goTo(page, 'Exposure');
      await page.getByTestId('refresh-now').click();
      const problem = page.getByTestId('refresh-source-problem');
      await problem.waitFor({ timeout: 30_000 });
      expect(await problem.locator('strong').textContent()).toBe(`cannot reach 127.0.0.1:${port}: connection refused (nothing answers on port ${port})`);
      expect(await page.getByTestId('refresh-table').count(), 'no row per symbol').toBe(0);
      expect(await page.getByTestId('refresh-skipped').textContent()).toMatch(/^Not fetched: SPX, SPY/);
      await screenshot(page, 'arrival-refresh-offline');
    });
  }, 120_000);

  for (const [width, theme] of [
    [1440, 'light'],
    [1440, 'dark'],
    [390, 'light'],
    [390, 'dark'],
  ] as const) {
    it(`Exposure at ${width}, ${theme}: each figure with its plain words`, async () => {
      await suite.onPage({ width, height: 1000, theme }, async (page) => {
        await goTo(page, 'Exposure');
        await page.getByTestId('vanna-levels').waitFor({ timeout: 30_000 });
        for (const [id, key] of [
          ['total-gex', 'totalGex'],
          ['gamma-flip', 'gammaFlip'],
          ['call-wall', 'callWall'],
          ['put-wall', 'putWall'],
          ['total-dex', 'totalDex'],
          ['expected-move', 'expectedMove'],
        ] as const) {
          const stat = page.getByTestId(id);
          expect(await stat.locator('.stat-explain').textContent(), id).toBe(FIGURE_WORDS[key].short);
          expect(await stat.getAttribute('title'), id).toBe(FIGURE_WORDS[key].long);
        }
        expect(await page.getByTestId('total-vanna').locator('.stat-sub').textContent()).toBe(FIGURE_WORDS.totalVanna.short);
        expect(await page.getByTestId('total-charm').getAttribute('title')).toBe(FIGURE_WORDS.totalCharm.long);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
        await screenshot(page, `arrival-exposure-${width}-${theme}`);
        if (width === 390) {
          await page.getByTestId('total-gex').locator('..').screenshot({ path: join(screenshotDir, `arrival-figures-390-${theme}.png`) });
          await page.getByTestId('vanna-levels').screenshot({ path: join(screenshotDir, `arrival-vanna-390-${theme}.png`) });
        }
      });
    }, 120_000);
  }
});
