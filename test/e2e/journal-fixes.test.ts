/**
 * Issue 10's "fix on the way" list, in Chromium against `strikebook serve`: the journal on real tastytrade files
 * (six years of history and the TSLL and MPW wheels), plurals on self-written one-of-everything files, and every
 * page at 390 px on the demo. Expected figures come from the API's own answers; screenshots go to
 * test-results/screenshots/ (names start with `fix-`).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PerformanceResponseT, SummaryResponseT } from '../../src-shared/api/schemas';
import { api, goTo, PAGE_READY, repoRoot, screenshot, type Served } from './harness';
import { serveForSuite } from './suite';

const BROKERS = join(repoRoot, 'test/fixtures/brokers');
const REAL_FILES = ['tastytrade_v2_20col_history_2018-2024_avion23.csv', 'tastytrade_v2_21col_TSLL_wheel_binnaculum.csv', 'tastytrade_v2_21col_MPW_wheel_binnaculum.csv'];
const PAGES = ['journal', 'transactions', 'import', 'exposure', 'events', 'settings'] as const;
const THEMES = ['light', 'dark'] as const;

async function importFile(served: Served, path: string): Promise<void> {
  await api(served, `/imports?broker=auto&filename=${encodeURIComponent(basename(path))}`, { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: readFileSync(path) });
}

/** `+$1,234.56` / `−$0.12` / `$0.00`: how the page writes a signed amount to the cent. */
function signedMoney(value: number): string {
  const text = `$${Math.abs(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  return value > 0 ? `+${text}` : value < 0 ? `−${text}` : text;
}

async function customRange(page: Page, from: string, to: string): Promise<void> {
  if ((await page.getByRole('button', { name: 'Custom' }).getAttribute('aria-pressed')) !== 'true') await page.getByRole('button', { name: 'Custom' }).click();
  await page.getByLabel('From', { exact: true }).fill(from);
  await page.getByLabel('To', { exact: true }).fill(to);
  const answered = page.waitForResponse((r) => r.url().includes('/journal/performance') && r.url().includes(`from=${from}`) && r.url().includes(`to=${to}`));
  await page.getByRole('button', { name: 'Apply' }).click();
  await answered;
}

/** Whether the document is wider than the window, i.e. the page scrolls sideways. */
function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

describe('journal fixes on real tastytrade files', () => {
  const suite = serveForSuite({
    demo: false,
    prepare: async (served) => {
      for (const file of REAL_FILES) await importFile(served, join(BROKERS, file));
    },
  });

  it('a custom range of seven years draws every day of it, one strip per year, with the API figures', async () => {
    const perf = await api<PerformanceResponseT>(suite.served(), '/journal/performance?from=2018-01-01&to=2024-12-31');
    expect(perf.calendar.days.at(-1)?.date, 'the data has trades up to December 2024 (the old calendar stopped at 2019-01-13)').toBe('2024-12-17');
    for (const theme of THEMES) {
      await suite.onPage({ width: 1440, theme }, async (page) => {
        await page.waitForSelector(PAGE_READY.journal);
        await customRange(page, '2018-01-01', '2024-12-31');
        // Whatever the layout, the days the calendar panel describes (each cell's title starts with its date).
        const panel = page.locator('section.panel', { has: page.getByRole('heading', { name: 'Daily P&L' }) });
        await panel.locator('[title^="2018-01-01"]').waitFor();
        const described = await panel.locator('[title]').evaluateAll((cells) => cells.map((c) => (c.getAttribute('title') ?? '').slice(0, 10)).sort());
        expect(described.at(-1), 'the calendar reaches the end of the range').toBe('2024-12-31');
        const strips = page.locator('[data-layout="years"] .year-strip');
        expect(await strips.evaluateAll((list) => list.map((el) => Number(el.getAttribute('data-year')))), 'one strip per calendar year').toEqual([2018, 2019, 2020, 2021, 2022, 2023, 2024]);
        const titles = await page.locator('[data-layout="years"] [data-date]').evaluateAll((cells) => cells.map((c) => [c.getAttribute('data-date') ?? '', c.getAttribute('title') ?? ''] as const));
        // 7 × 365 days + 29 Feb 2020 and 29 Feb 2024.
        expect(titles.length, 'a cell for every day of the range').toBe(7 * 365 + 2);
        expect(titles[0]?.[0]).toBe('2018-01-01');
        expect(titles.at(-1)?.[0]).toBe('2024-12-31');
        const byDate = new Map(titles);
        for (const day of perf.calendar.days) {
          expect(byDate.get(day.date), `the cell of ${day.date}`).toBe(`${day.date}: ${signedMoney(day.pl)} · ${day.trades} ${day.trades === 1 ? 'trade' : 'trades'}`);
        }
        const overflow = await page.locator('.year-grid').evaluateAll((grids) => grids.filter((g) => g.scrollWidth > g.clientWidth + 1).length);
        expect(overflow, 'the strips fit their panel').toBe(0);
        expect(await scrollsSideways(page)).toBe(false);
        await screenshot(page, `fix-journal-7years-1440-${theme}`);
      });
    }
  });

  it('a calendar day whose P&L rounds to zero reads $0, without a sign', async () => {
    await suite.onPage({ width: 1440, theme: 'light' }, async (page) => {
      await page.waitForSelector(PAGE_READY.journal);
      let tinyDays = 0;
      for (const month of ['2019-12', '2020-12', '2023-12']) {
        const from = `${month}-01`;
        const to = `${month}-31`;
        const perf = await api<PerformanceResponseT>(suite.served(), `/journal/performance?from=${from}&to=${to}`);
        await customRange(page, from, to);
        await page.locator('[data-layout="calendar"]').waitFor();
        for (const day of perf.calendar.days) {
          const shown = (await page.locator(`[data-date="${day.date}"] .heat-pl`).textContent()) ?? '';
          const dollars = Math.round(Math.abs(day.pl));
          if (dollars === 0) {
            tinyDays += 1;
            expect(shown, `${day.date}: ${day.pl} rounds to $0`).toBe('$0');
          } else expect(shown, `${day.date}: ${day.pl}`).toBe(`${day.pl > 0 ? '+' : '−'}$${dollars.toLocaleString('en-US')}`);
        }
        expect(await page.locator('.heat-pl').evaluateAll((cells) => cells.filter((c) => /^[−+-]\$0$/.test(c.textContent ?? '')).length), `no signed $0 in ${month}`).toBe(0);
      }
      // 2019-12-16 (+0.01), 2020-12-31 (+0.02) and 2023-12-29 (−0.12) at least.
      expect(tinyDays, 'the months picked do have days under 50 cents').toBeGreaterThanOrEqual(3);
      await screenshot(page, 'fix-journal-zero-days-1440-light');
    });
  });

  it('the equity curve keeps its last day after Transactions → Journal → "Jump to", also when the window narrows', async () => {
    await suite.onPage({ width: 1440, theme: 'light' }, async (page) => {
      await goTo(page, 'Transactions');
      await page.waitForSelector(PAGE_READY.transactions);
      await goTo(page, 'Journal');
      const jump = page.getByRole('button', { name: /^Jump to \d{4}-\d{2}-\d{2}$/ });
      const latestDay = ((await jump.textContent()) ?? '').replace('Jump to ', '');
      await jump.click();
      const summary = await api<SummaryResponseT>(suite.served(), `/journal/summary?year=${latestDay.slice(0, 4)}`);
      const series = summary.stats.equity.series;
      expect(series.at(-1)?.date, 'the latest trade realized P&L: it is the last day of the curve').toBe(latestDay);
      const chart = page.locator('[aria-label^="Equity curve"]');
      await chart.waitFor();
      const shown = () => chart.evaluate((el: HTMLElement) => `${el.dataset.shownFrom ?? ''} → ${el.dataset.shownTo ?? ''}`);
      const whole = `${series[0]?.date ?? ''} → ${latestDay}`;
      await expect.poll(shown, { message: 'the chart shows the whole year', timeout: 10_000 }).toBe(whole);
      await screenshot(page, 'fix-journal-jump-1440-light');
      // A scrollbar appearing, a narrower window, the sidebar folding away: the chart resizes and must keep every day.
      for (const width of [1425, 1300, 1000, 820, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await expect.poll(shown, { message: `at ${width} px`, timeout: 10_000 }).toBe(whole);
      }
    });
  });

  it('the by-symbol table shows all its columns at 1440 px, for a month and for seven years', async () => {
    await suite.onPage({ width: 1440, theme: 'light' }, async (page) => {
      await page.getByRole('button', { name: /^Jump to / }).click();
      const table = page.getByTestId('by-symbol');
      await table.waitFor();
      const fits = () =>
        table.evaluate((el) => {
          const wrap = el.parentElement?.getBoundingClientRect();
          const last = el.querySelector('thead th:last-child')?.getBoundingClientRect();
          return { tableWidth: el.scrollWidth, wrapWidth: el.parentElement?.clientWidth ?? 0, lastColumnInside: wrap !== undefined && last !== undefined && last.right <= wrap.right + 0.5, lastHeader: el.querySelector('thead th:last-child')?.textContent };
        });
      const month = await fits();
      expect(month.lastHeader).toBe('Trades');
      expect(month.lastColumnInside, `Trades column inside the panel (table ${month.tableWidth} px in ${month.wrapWidth} px)`).toBe(true);
      expect(month.tableWidth).toBeLessThanOrEqual(month.wrapWidth);
      await customRange(page, '2018-01-01', '2024-12-31');
      await page.locator('[data-layout="years"]').waitFor();
      const years = await fits();
      expect(years.lastColumnInside, `seven years: table ${years.tableWidth} px in ${years.wrapWidth} px`).toBe(true);
      expect(years.tableWidth).toBeLessThanOrEqual(years.wrapWidth);
    });
  });
});

/** One of everything: a single put sold and expired, and a chain of one contract in one expiration. */
const ONE_PUT_CSV = [
  'date,account,type,symbol,quantity,price,commission,fees,amount,currency,orderId,description,expiration,strike,right,multiplier,id',
  '2025-03-03T15:00:00Z,Solo,SELL_TO_OPEN,XYZ,1,1.25,0.65,0.02,124.33,USD,B1,Sell 1 XYZ Mar 21 40 put,2025-03-21,40,P,100,p-1',
  '2025-03-21,Solo,EXPIRATION,XYZ250321P00040000,1,0,0,0,0,USD,,Expired worthless,,,,,p-2',
].join('\n');
const ONE_CONTRACT_CHAIN = ['# symbol: XYZ', '# spot: 41.10', '# quoteTime: 2025-03-03T16:00', 'expiration,strike,right,openInterest,iv,bid,ask', '2025-03-21,40,P,1200,0.35,0.55,0.60'].join('\n');
/** A count of one followed by a plural noun, as the UI could write it. */
const ONE_PLURAL = /(?<![\d.,])1 (?:contracts|expirations|trades|symbols|files|transactions|events|new events|active days|days|rows)\b/;

describe('counts of one are singular (self-written one-contract files)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-e2e-one-'));
  const brokerFile = join(dir, 'one_put_selfwritten.csv');
  const chainFile = join(dir, 'XYZ_one_contract_selfwritten.csv');
  writeFileSync(brokerFile, ONE_PUT_CSV);
  writeFileSync(chainFile, ONE_CONTRACT_CHAIN);
  const suite = serveForSuite({ demo: false, prepare: (served) => importFile(served, brokerFile) });

  it('says "1 contract", "1 expiration", "1 symbol", never "1 contracts", on every page', async () => {
    await suite.onPage({ width: 1440, theme: 'light' }, async (page) => {
      await goTo(page, 'Import');
      await page.getByRole('button', { name: 'Option chain snapshot' }).click();
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Choose files…' }).click();
      await (await chooser).setFiles(chainFile);
      await page.getByRole('button', { name: 'Import 1 file' }).click();
      const report = page.getByTestId('import-report');
      await report.waitFor();
      expect(await report.textContent(), 'the chain report').toContain('1 contract · 1 expiration');
      const texts: Record<string, string> = { 'import report': await page.innerText('body') };
      await page.getByRole('button', { name: 'Broker statement' }).click();

      await goTo(page, 'Journal');
      await page.getByRole('button', { name: /^Jump to / }).click();
      await page.getByTestId('by-symbol').waitFor();
      const summary = await api<SummaryResponseT>(suite.served(), '/journal/summary?year=2025');
      expect(summary.stats.expiredContracts, 'the file expires one contract').toBe(1);
      await expect.poll(() => page.getByTestId('year-stats').textContent(), { timeout: 10_000 }).toContain('1 contract');
      expect(await page.getByTestId('page-journal').textContent()).toContain('1 symbol');
      texts.journal = await page.innerText('body');

      await goTo(page, 'Exposure');
      await page.waitForSelector(PAGE_READY.exposure);
      expect(await page.getByTestId('gex-key-numbers').textContent(), 'spot card').toContain('1 contract');
      texts.exposure = await page.innerText('body');
      for (const name of ['Transactions', 'Events', 'Settings', 'Import']) {
        await goTo(page, name);
        await page.waitForTimeout(500);
        texts[name] = await page.innerText('body');
      }
      for (const [where, text] of Object.entries(texts)) expect(ONE_PLURAL.exec(text)?.[0], `${where}: a count of one with a plural`).toBeUndefined();
      // Tooltips and labels too: the calendar cells say "1 trade".
      await goTo(page, 'Journal');
      await page.getByRole('button', { name: /^Jump to / }).click();
      // The jump re-renders the calendar on March 2025: read it once it shows that month, not the one before.
      await page.locator('[data-date="2025-03-03"]').waitFor();
      const labels = await page.locator('[data-date]').evaluateAll((cells) => cells.map((c) => `${c.getAttribute('title') ?? ''} ${c.getAttribute('aria-label') ?? ''}`).join('\n'));
      expect(labels).toContain('1 trade');
      expect(ONE_PLURAL.exec(labels)?.[0]).toBeUndefined();
      await screenshot(page, 'fix-plurals-journal-1440-light');
    });
  });
});

describe('narrow windows (serve --demo)', () => {
  const suite = serveForSuite({ demo: true });

  for (const theme of THEMES) {
    it(`at 390 px in the ${theme} theme no page scrolls sideways and the menu reaches every page`, async () => {
      await suite.onPage({ width: 390, height: 844, theme }, async (page) => {
        expect(await page.getByRole('navigation', { name: 'Main' }).isVisible(), 'the sidebar is folded away').toBe(false);
        for (const name of PAGES) {
          await goTo(page, name);
          await page.waitForSelector(PAGE_READY[name]);
          await page.waitForTimeout(300);
          expect(await scrollsSideways(page), `${name} scrolls sideways at 390 px`).toBe(false);
          expect(await page.getByRole('navigation', { name: 'Main' }).isVisible(), `choosing ${name} closed the menu`).toBe(false);
          await screenshot(page, `fix-${name}-390-${theme}`);
        }
      });
    });
  }

  it('the Menu button is keyboard reachable: Enter opens, Tab walks the links, Enter navigates, Escape closes', async () => {
    await suite.onPage({ width: 820, theme: 'dark' }, async (page) => {
      await page.waitForSelector(PAGE_READY.journal);
      const menu = page.getByRole('button', { name: 'Menu' });
      const nav = page.getByRole('navigation', { name: 'Main' });
      expect(await nav.isVisible()).toBe(false);
      // Skip link first, then the Menu button.
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      expect(await menu.evaluate((el) => el === document.activeElement), 'the second Tab stop is the Menu button').toBe(true);
      await page.keyboard.press('Enter');
      expect(await menu.getAttribute('aria-expanded')).toBe('true');
      expect(await nav.isVisible()).toBe(true);
      await screenshot(page, 'fix-menu-open-820-dark');
      expect(await page.evaluate(() => document.activeElement?.textContent?.trim()), 'focus moves into the menu, on its first page').toMatch(/Today$/);
      // Today, then Journal, then Positions.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toMatch(/Journal$/);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.waitForSelector('[data-testid="page-positions"]');
      expect(await nav.isVisible(), 'choosing a page closes the menu').toBe(false);
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      await menu.click();
      expect(await nav.isVisible()).toBe(true);
      await page.keyboard.press('Escape');
      expect(await nav.isVisible(), 'Escape closes the menu').toBe(false);
      expect(await menu.evaluate((el) => el === document.activeElement), 'and gives focus back to the button').toBe(true);
    });
  });

  it('at 900 px and wider the sidebar stays and there is no Menu button', async () => {
    await suite.onPage({ width: 900, theme: 'light' }, async (page) => {
      await page.waitForSelector(PAGE_READY.journal);
      expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
      await page.setViewportSize({ width: 899, height: 900 });
      await expect.poll(() => page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(true);
      expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    });
  });
});
