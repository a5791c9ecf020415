/**
 * The renderer in headless Chromium against `strikebook serve --demo`: every page in both themes, an import
 * through the file chooser, exposure controls, event filters, transactions export and settings. Numbers shown
 * on screen are checked against the API's own answers (the independent source); screenshots go to
 * test-results/screenshots/.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { EventsResponse, GexResponseT, ImportsResponse, TransactionsResponseT } from '../../src-shared/api/schemas';
import type { Static } from 'typebox';
import { api, repoRoot, screenshotDir, watchErrors, type Served } from './harness';
import { serveForSuite } from './suite';

const PAGES = ['journal', 'transactions', 'import', 'exposure', 'events', 'settings'] as const;
const brokerFixture = join(repoRoot, 'test/fixtures/brokers/generic_wheel_selfwritten.csv');

async function openApp(browser: Browser, served: Served, theme: 'light' | 'dark'): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 960 }, colorScheme: theme, acceptDownloads: true });
  const page = await context.newPage();
  const errors = watchErrors(page);
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(served.uiUrl);
  await page.waitForSelector('nav[aria-label="Main"]');
  return { context, page, errors };
}

type Suite = { browser: () => Browser; served: () => Served };

/**
 * Opens the app in `theme`, runs `body` on its page, then asks that the page met no console error, page error or
 * failed request (but those `expected` matches), and closes it.
 */
async function inApp(suite: Suite, theme: 'light' | 'dark', body: (page: Page) => Promise<void>, expected?: RegExp): Promise<void> {
  const { context, page, errors } = await openApp(suite.browser(), suite.served(), theme);
  try {
    await body(page);
    expect(errors.filter((e) => !expected?.test(e)), 'no console errors, page errors or failed requests').toEqual([]);
  } finally {
    await context.close();
  }
}

async function go(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: new RegExp(`^.?\\s*${name}$`, 'i') }).click();
  await page.waitForSelector(`[data-testid="page-${name.toLowerCase()}"]`);
}

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
}

describe('renderer in Chromium (serve --demo)', () => {
  const suite = serveForSuite({ demo: true });

  for (const theme of ['light', 'dark'] as const) {
    it(`renders every page in the ${theme} theme without console errors`, async () => {
      await inApp(suite, theme, async (page) => {
        expect(await page.evaluate(() => window.location.hash), 'the key leaves the address bar').not.toContain('key=');
        expect(await page.evaluate(() => sessionStorage.getItem('strikebook.apiKey')), 'the key moves to sessionStorage').toBe(suite.served().key);
        expect(await page.evaluate(() => document.documentElement.dataset.theme), 'first visit follows the system scheme').toBe(theme);
        for (const name of PAGES) {
          await go(page, name);
          // Charts and tables are filled once their data arrived.
          if (name === 'journal') await page.waitForSelector('[data-testid="year-stats"]');
          if (name === 'transactions') await page.waitForSelector('[data-testid="transactions-table"]');
          if (name === 'import') await page.waitForSelector('[data-testid="import-history"]');
          if (name === 'exposure') await page.waitForSelector('[data-testid="vanna-levels"]');
          if (name === 'events') await page.waitForSelector('[data-testid="events-table"]');
          if (name === 'settings') await page.waitForSelector('[data-testid="data-dir"]');
          await page.waitForTimeout(300);
          await shot(page, `${name}-${theme}`);
        }
      });
    });
  }

  it('journal: period switcher, summary cards and year view match the API', async () => {
    await inApp(suite, 'light', async (page) => {
    await page.waitForSelector('[data-testid="year-stats"]');
    const perf = await api<{ monthly: { summary: { realizedPL: number }; from: string }; demo: boolean }>(suite.served(), '/journal/performance?period=monthly');
    const cards = page.getByTestId('summary-cards');
    const realizedText = (await cards.locator('.stat').first().locator('.stat-value').textContent()) ?? '';
    const expected = `${perf.monthly.summary.realizedPL > 0 ? '+' : perf.monthly.summary.realizedPL < 0 ? '−' : ''}$${Math.abs(perf.monthly.summary.realizedPL).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    expect(realizedText, 'the Realized P&L card shows the API monthly realizedPL, signed, to cents').toBe(expected);
    expect(await page.locator('.badge-demo').count(), 'demo data is labelled').toBeGreaterThan(0);
    const weekly = page.waitForResponse((r) => r.url().includes('period=weekly'));
    await page.getByRole('button', { name: 'Week' }).click();
    await weekly;
    const custom = page.waitForResponse((r) => r.url().includes('/journal/performance') && r.url().includes('from='));
    await page.getByRole('button', { name: 'Custom' }).click();
    await custom;
    await page.waitForTimeout(300);
    await shot(page, 'journal-custom-light');
    });
  });

  it('imports a broker CSV through the file chooser, shows the report, lists line-numbered problems and undoes', async () => {
    await inApp(suite, 'light', async (page) => {
    await go(page, 'Import');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose files…' }).click();
    await (await chooser).setFiles(brokerFixture);
    await page.waitForSelector('[data-testid="import-queue"]');
    await page.getByRole('button', { name: /^Import 1 file$/ }).click();
    const report = page.getByTestId('import-report');
    await report.waitFor();
    const imports = await api<Static<typeof ImportsResponse>>(suite.served(), '/imports');
    const latest = imports.imports.find((i) => i.filename === 'generic_wheel_selfwritten.csv');
    expect(latest, 'the server recorded the upload').toBeDefined();
    if (!latest) return;
    expect(await page.getByTestId('import-broker').textContent(), 'the report names the detected broker').toBe(latest.broker);
    expect(await report.locator('.report-numbers dd').nth(1).textContent(), 'imported count as the server reports it').toBe(latest.imported.toLocaleString('en-US'));
    await shot(page, 'import-report-light');

    // A file with a bad price on line 3 (line 1 is the header): all or nothing, and the line is named.
    const dir = mkdtempSync(join(tmpdir(), 'sb-e2e-bad-'));
    const lines = readFileSync(brokerFixture, 'utf8').split(/\r?\n/);
    const broken = [...lines];
    broken[2] = (broken[2] ?? '').replace(',0.55,', ',abc,');
    const badFile = join(dir, 'broken.csv');
    writeFileSync(badFile, broken.join('\n'));
    const chooser2 = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose files…' }).click();
    await (await chooser2).setFiles(badFile);
    await page.getByRole('button', { name: /^Import 1 file$/ }).click();
    const failed = page.locator('.report-error');
    await failed.waitFor();
    const lineCells = await failed.locator('tbody tr td:first-child').allTextContents();
    expect(lineCells, 'the broken row is reported on line 3 of the file').toContain('3');
    await shot(page, 'import-error-light');

    // Undo from the history table.
    const deleted = page.waitForResponse((r) => r.request().method() === 'DELETE' && r.url().includes(`/imports/${latest.id}`));
    await page.getByRole('button', { name: `Undo import ${latest.id}` }).click();
    await deleted;
    await page.waitForTimeout(300);
    const after = await api<Static<typeof ImportsResponse>>(suite.served(), '/imports');
    expect(after.imports.some((i) => i.id === latest.id), 'undo removed the import').toBe(false);
    // The 422 of the broken file is an expected response, not a page error.
    }, /http 422: POST .*\/v1\/imports|status of 422/);
  });

  it('exposure: formula and expirations drive the /gex request and the key numbers', async () => {
    await inApp(suite, 'dark', async (page) => {
    await go(page, 'Exposure');
    await page.waitForSelector('[data-testid="gex-key-numbers"]');
    const symbol = await page.getByTestId('symbol-select').inputValue();
    const totalCard = page.getByTestId('gex-key-numbers').locator('.stat').nth(1).locator('.stat-value');
    await expect.poll(() => totalCard.textContent(), { message: 'nominal GEX is in shares', timeout: 10_000 }).toMatch(/sh$/);

    const pct = page.waitForResponse((r) => r.url().includes('/v1/gex?') && r.url().includes('formula=per_1pct'));
    await page.getByRole('button', { name: '$ / 1%' }).click();
    const pctBody = (await (await pct).json()) as GexResponseT;
    await page.waitForTimeout(200);
    expect(pctBody.meta.formula, 'the request carried the formula').toBe('per_1pct');
    await expect.poll(() => totalCard.textContent(), { message: 'per-1% GEX is in dollars', timeout: 10_000 }).toMatch(/^[+−]?\$/);

    const one = page.waitForResponse((r) => r.url().includes('/v1/gex?') && r.url().includes('expirationsCount=1'));
    await page.getByRole('group', { name: 'Number of expirations' }).getByRole('button', { name: '1' }).click();
    const oneBody = (await (await one).json()) as GexResponseT;
    expect(oneBody.meta.expirations.length, 'one expiration in scope').toBe(1);
    await expect.poll(async () => page.getByTestId('gex-key-numbers').locator('.stat').nth(5).locator('.stat-value').textContent()).toBe('1');

    await page.getByRole('button', { name: 'Pick dates' }).click();
    const chips = page.getByTestId('expiration-picks').locator('label.chip');
    await expect.poll(() => chips.count(), { message: 'one checkbox per available expiration', timeout: 10_000 }).toBe(Math.min(40, oneBody.meta.availableExpirations.length));
    const picked = page.waitForResponse((r) => r.url().includes('/v1/gex?') && r.url().includes('expirations='));
    await chips.nth(0).locator('input').check();
    const pickedBody = (await (await picked).json()) as GexResponseT;
    expect(pickedBody.meta.expirations, 'the first available expiration alone').toEqual([oneBody.meta.availableExpirations[0]]);
    const two = page.waitForResponse((r) => r.url().includes('/v1/gex?') && /expirations=[^&]*%2C|expirations=[^&]*,/.test(r.url()));
    await chips.nth(1).locator('input').check();
    const twoBody = (await (await two).json()) as GexResponseT;
    expect(twoBody.meta.expirations.length, 'two picked expirations').toBe(2);

    const vannaScope = page.getByTestId('vanna-scope');
    const pinned = page.waitForResponse((r) => r.url().includes('/v1/vanna') && r.url().includes('expiration='));
    const firstExp = await vannaScope.locator('option').nth(1).getAttribute('value');
    await vannaScope.selectOption(firstExp ?? '');
    expect((await pinned).status(), 'vanna for one pinned expiration').toBe(200);
    await page.waitForTimeout(300);
    await expect.poll(() => page.getByTestId('snapshot-info').textContent(), { message: 'snapshot time and source are shown', timeout: 10_000 }).toContain('source demo');
    expect(symbol.length).toBeGreaterThan(0);
    await shot(page, 'exposure-picked-dark');
    });
  });

  it('events: filters by ticker, type and dte like the API does; the live stream connects', async () => {
    await inApp(suite, 'light', async (page) => {
    await go(page, 'Events');
    await page.waitForSelector('[data-testid="events-table"]');
    await expect.poll(async () => page.getByTestId('live-state').textContent(), { timeout: 10_000 }).toContain('Live');
    const ticker = (await page.locator('fieldset.exp-picks label.chip').first().textContent())?.trim() ?? '';
    await page.locator('fieldset.exp-picks label.chip').first().locator('input').check();
    await page.getByRole('button', { name: 'Walls' }).click();
    await page.getByLabel('Min DTE').fill('0');
    await page.getByLabel('Max DTE').fill('30');
    const filtered = page.waitForResponse((r) => r.url().includes('/v1/gex/events?') && r.url().includes('maxDte=30'));
    await page.getByRole('button', { name: 'Apply' }).click();
    await filtered;
    await page.waitForTimeout(300);
    const expected = await api<Static<typeof EventsResponse>>(suite.served(), `/gex/events?tickers=${ticker}&eventType=wall&minDte=0&maxDte=30&scope=all&limit=200`);
    const rows = page.getByTestId('events-table').locator('tbody tr');
    const count = expected.events.length;
    if (count === 0) expect(await page.getByTestId('events-table').count()).toBe(0);
    else {
      await expect.poll(() => rows.count(), { message: 'the table lists what the API lists for the same filter', timeout: 10_000 }).toBe(count);
      const tickers = new Set(await rows.locator('td:nth-child(2)').allTextContents());
      expect([...tickers], 'only the chosen ticker').toEqual([ticker]);
      const types = await rows.locator('td:nth-child(6)').allTextContents();
      expect(types.every((t) => t.endsWith('wall')), 'only wall events').toBe(true);
    }
    await shot(page, 'events-filtered-light');
    });
  });

  it('transactions: filters, pages and a CSV export with every matching row', async () => {
    await inApp(suite, 'light', async (page) => {
    await go(page, 'Transactions');
    await page.waitForSelector('[data-testid="transactions-table"]');
    const all = await api<TransactionsResponseT>(suite.served(), '/journal/transactions?limit=100');
    const symbol = all.transactions[0]?.underlying ?? '';
    await page.getByLabel('Symbol').fill(symbol.toLowerCase());
    const filteredResponse = page.waitForResponse((r) => r.url().includes(`symbol=${symbol}`));
    await page.getByRole('button', { name: 'Apply' }).click();
    await filteredResponse;
    await page.waitForTimeout(200);
    const expected = await api<TransactionsResponseT>(suite.served(), `/journal/transactions?symbol=${symbol}&limit=25`);
    const rows = page.getByTestId('transactions-table').locator('tbody tr');
    await expect.poll(() => rows.count(), { message: 'first page has what the API returns', timeout: 10_000 }).toBe(expected.transactions.length);
    if (expected.pagination.pages > 1) {
      const second = page.waitForResponse((r) => r.url().includes('page=2'));
      await page.getByRole('button', { name: 'Next ›' }).click();
      await second;
    }
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await (await download).path();
    const csv = readFileSync(file, 'utf8').trim().split('\r\n');
    expect(csv[0]?.startsWith('tradeDate,tradeDay,account,type,symbol'), 'header row').toBe(true);
    expect(csv.length - 1, 'one CSV row per matching transaction, over all pages').toBe(expected.pagination.total);
    await shot(page, 'transactions-filtered-light');
    });
  });

  it('theme toggle is remembered across reloads and is a real, focusable button', async () => {
    await inApp(suite, 'light', async (page) => {
    const toggle = page.getByRole('button', { name: /Switch to dark theme/ });
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.reload();
    await page.waitForSelector('nav[aria-label="Main"]');
    expect(await page.evaluate(() => document.documentElement.dataset.theme), 'remembered in localStorage').toBe('dark');
    // After the reload the key comes from sessionStorage: the page still loads data.
    await page.waitForSelector('[data-testid="summary-cards"]');
    });
  });

  it('settings: copy and rotate the key; the page keeps working with the new key', async () => {
    await inApp(suite, 'light', async (page) => {
    await go(page, 'Settings');
    await page.waitForSelector('[data-testid="data-dir"]');
    expect(await page.getByTestId('data-dir').textContent(), 'the data folder of this server').toBe(suite.served().dataDir);
    await page.getByRole('button', { name: 'Copy API key' }).click();
    await page.getByText(/copied|Copy failed/).waitFor();
    await page.getByRole('button', { name: 'Rotate key…' }).click();
    await page.getByText('New key created.', { exact: false }).waitFor();
    const newKey = (await page.getByTestId('api-key').textContent()) ?? '';
    expect(newKey, 'a different key').not.toBe(suite.served().key);
    const oldKeyResponse = await fetch(`${suite.served().apiBaseUrl}/journal/summary`, { headers: { Authorization: `Bearer ${suite.served().key}` } });
    expect(oldKeyResponse.status, 'the old key stops working').toBe(401);
    suite.served().key = newKey;
    await go(page, 'Journal');
    await page.waitForSelector('[data-testid="summary-cards"]');
    });
  });
});

describe('renderer on an empty data folder', () => {
  const suite = serveForSuite({ demo: false });

  it('empty states say what to do, and "Load demo data" fills the journal', async () => {
    await inApp(suite, 'dark', async (page) => {
    await page.getByRole('heading', { name: 'Your journal is empty' }).waitFor();
    await shot(page, 'empty-journal-dark');
    await go(page, 'Exposure');
    await page.getByRole('heading', { name: 'No option chains yet' }).waitFor();
    await shot(page, 'empty-exposure-dark');
    await go(page, 'Events');
    await page.getByRole('heading', { name: 'No exposure events yet' }).waitFor();
    await go(page, 'Journal');
    await page.getByRole('button', { name: 'Load demo data' }).click();
    await page.waitForSelector('[data-testid="summary-cards"]', { timeout: 30_000 });
    });
  });

  it('without a key the page explains where to get one', async () => {
    const context = await suite.browser().newContext();
    const page = await context.newPage();
    try {
      await page.goto(suite.served().uiUrl.replace(/#.*$/, ''));
      await page.getByText('This page needs the API key').waitFor();
      await shot(page, 'no-key-light');
    } finally {
      await context.close();
    }
  });
});
