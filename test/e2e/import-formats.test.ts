/**
 * Issue 9, "No file is a dead end", in Chromium against `strikebook serve`: a file no importer knows is dropped,
 * its columns mapped, previewed (a line-numbered problem shown, then fixed), saved and imported; the same header
 * dropped again is recognised by itself; a PNG is named as such, with no mapping offered. Both themes; screenshots
 * `import-format-*.png` in test-results/screenshots. Issue 17: a mapping whose actions open and close options while
 * no option is found is not ready (no Save); with the instrument column mapped the options are read from the text.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ChainPostResponse, ImportFormatsResponseT, ImportsResponseT } from '../../src-shared/api/schemas';
import type { Static } from 'typebox';
import { readFileSync } from 'node:fs';
import { CHAIN_FIXTURES, REPO_ROOT } from '../paths';
import { api, goTo, openPage, screenshot } from './harness';
import { serveForSuite } from './suite';

const dir = mkdtempSync(join(tmpdir(), 'sb-e2e-formats-'));
/** A broker export no importer knows (self-written): a title row, then the header, then the rows. */
const ROWS = ['03/15/2024,Bought,AAPL,10,170.25,1.00,"-1,703.50",', '03/18/2024,Sold,AAPL,10,175.00,1.00,"1,749.00",', '03/19/2024,Bonus,AAPL,,,,2.40,'];
const HEADER = 'Trade Day,Side,Ticker,Shares,Fill,Commish,Net,Acct';
const unknownFile = join(dir, 'mybroker-march.csv');
writeFileSync(unknownFile, ['Statement for account ****1234,,,,,,,', HEADER, ...ROWS].join('\r\n'));
/** The same columns in another order, a month later: recognised by the saved format. */
const againFile = join(dir, 'mybroker-april.csv');
writeFileSync(againFile, ['Acct,Net,Commish,Fill,Shares,Ticker,Side,Trade Day', 'IRA,"-880.00",0.00,88.00,10,MSFT,Bought,04/02/2024'].join('\n'));
const otherHeaderFile = join(dir, 'otherbroker.csv');
writeFileSync(otherHeaderFile, ['When,Action,Symbol,Qty,Price,Amount', '2024-05-01 10:30,BUY,SPY,1,500,-500', '2024-05-02 11:00,SELL,SPY,1,501,501'].join('\n'));
const emptyFile = join(dir, 'empty-export.csv');
writeFileSync(emptyFile, '');
/** Issue 17's "custom formats lie": an instrument column that writes the option out behind its action (self-written). */
const writtenOutFile = join(dir, 'written-out.csv');
writeFileSync(writtenOutFile, readFileSync(join(REPO_ROOT, 'test/fixtures/brokers/custom_instrument_written_out_selfwritten.csv')));
const pngFile = join(dir, 'statement-screenshot.png');
writeFileSync(pngFile, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]));

/** A real chain with adjusted roots (AMD1) beside AMD's (read from ../shared; the chain check skips without it). */
const AMD_CHAIN = join(CHAIN_FIXTURES, 'AMD_quotedata_2023-08-18close_aryaman.csv');

/** Responses the flow expects: the unknown file and the PNG are refused (422) before the mapping. */
const expected = (error: string) => /http 422: POST .*\/v1\/imports|status of 422/.test(error);

async function drop(page: Page, file: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose files…' }).click();
  await (await chooser).setFiles(file);
  await page.getByRole('button', { name: /^Import 1 file$/ }).click();
  await page.getByTestId('import-report').first().waitFor();
}

describe('a format of your own for a file no importer knows (issue 9)', () => {
  // The suite's server and browser; each test opens its own page (the 422s of the flow are expected there).
  const suite = serveForSuite({ demo: false });
  const served = () => suite.served();

  it('light: drop, map, preview with a problem, fix, save, import; the same header again is recognised; a PNG is named', async () => {
    const { context, page, errors } = await openPage(suite.browser(), served(), { width: 1440, theme: 'light' });
    try {
      await goTo(page, 'Import');
      await page.getByTestId('dropzone').waitFor();
      // The broker list is the API's registry.
      const registry = await api<ImportFormatsResponseT>(served(), '/import-formats');
      await expect.poll(() => page.getByTestId('broker-select').locator('option').allTextContents()).toEqual(['Detect from header', ...registry.importers.map((i) => i.label)]);

      await drop(page, unknownFile);
      const failed = page.getByTestId('import-report');
      await expect.poll(() => failed.textContent()).toContain("matches no export Strikebook knows");
      await page.getByRole('button', { name: 'Map its columns…' }).click();
      const mapper = page.getByTestId('format-mapper');
      await mapper.getByTestId('mapper-sample').waitFor();
      // The header found below the title row, and its first rows with their lines.
      expect(await mapper.getByTestId('mapper-sample').locator('thead th').allTextContents()).toEqual(['Line', ...HEADER.split(',')]);
      expect(await mapper.getByTestId('mapper-sample').locator('tbody tr td:first-child').allTextContents()).toEqual(['3', '4', '5']);
      // The guesses from the names; the user checks them and sets the name.
      expect(await mapper.getByLabel('Column of Date').inputValue()).toBe('Trade Day');
      expect(await mapper.getByLabel('Column of Amount (net)').inputValue()).toBe('Net');
      await mapper.getByLabel('Column of Commission').selectOption('Commish');
      await mapper.getByLabel('Format name *').fill('My Broker');

      await mapper.getByRole('button', { name: 'Preview' }).click();
      // "Bonus" is no word the page could guess: a problem at its line (5), naming the column.
      const problems = mapper.getByTestId('mapper-errors');
      await problems.waitFor();
      expect(await problems.locator('tbody tr').allTextContents()).toEqual(['5column "Side": "Bonus" is not one of the format\'s words: map it to a transaction type']);
      expect(await mapper.getByRole('button', { name: 'Save format' }).isDisabled(), 'no saving with problems').toBe(true);
      await screenshot(page, 'import-format-problem-light');

      await mapper.getByLabel('Type of “Bonus”').selectOption('DIVIDEND');
      await mapper.getByRole('button', { name: 'Preview' }).click();
      const rows = mapper.getByTestId('mapper-transactions').locator('tbody tr');
      await expect.poll(() => rows.count()).toBe(3);
      expect(await problems.count()).toBe(0);
      // Hand figures: buy 10 × 170.25 + 1.00 commission = −1,703.50 as the file says, a bare date at the 16:00 close,
      // no account in the row: the format's name; the dividend 2.40.
      expect(await rows.nth(0).locator('td').allTextContents()).toEqual(['3', '2024-03-15 16:00 ET', 'Buy', 'AAPL', '10', '170.25', '1.00', '0.00', '−1,703.50', 'My Broker']);
      expect(await rows.nth(2).locator('td').nth(8).textContent()).toBe('2.40');
      await screenshot(page, 'import-format-preview-light');

      await mapper.getByRole('button', { name: 'Save format' }).click();
      const saved = mapper.getByTestId('mapper-saved');
      await saved.waitFor();
      const formats = (await api<ImportFormatsResponseT>(served(), '/import-formats')).formats;
      expect(formats.map((f) => f.name)).toEqual(['My Broker']);
      const id = formats[0]?.importer ?? '';
      expect(await saved.textContent()).toContain(id);
      await saved.getByRole('button', { name: 'Import mybroker-march.csv' }).click();
      await expect.poll(() => page.getByTestId('import-broker').first().textContent()).toBe(id);
      const history = await api<ImportsResponseT>(served(), '/imports');
      expect(history.imports[0]).toMatchObject({ broker: id, imported: 3, filename: 'mybroker-march.csv' });
      // The history names the format (its id in the cell's title).
      const newest = page.getByTestId('import-history').locator('tbody tr').first().locator('td').nth(3);
      await expect.poll(() => newest.textContent()).toBe('My Broker');
      expect(await newest.getAttribute('title')).toBe(id);
      // The saved format is in the broker list now, under the user's formats.
      expect(await page.getByTestId('broker-select').locator('optgroup option').allTextContents()).toEqual(['My Broker']);
      await screenshot(page, 'import-format-imported-light');

      // The same header, columns shuffled: recognised by itself, no mapping offered.
      await drop(page, againFile);
      await expect.poll(() => page.getByTestId('import-broker').first().textContent()).toBe(id);
      expect((await api<ImportsResponseT>(served(), '/imports')).imports[0]).toMatchObject({ broker: id, imported: 1 });

      // A picture: named as such in the page's words, and no mapping offered for it.
      await drop(page, pngFile);
      const report = page.getByTestId('import-report').first();
      await expect.poll(() => report.textContent()).toContain('This is a PNG image, not a CSV export');
      expect(await report.textContent()).toContain('drop that file on the Import page');
      expect(await page.getByRole('button', { name: 'Map its columns…' }).count()).toBe(0);
      await screenshot(page, 'import-format-png-light');
      expect(errors.filter((e) => !expected(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('dark: another unknown header maps with dates and times in New York; a PNG and an empty file are named as such', async () => {
    const { context, page, errors } = await openPage(suite.browser(), served(), { width: 1280, theme: 'dark' });
    try {
      await goTo(page, 'Import');
      await page.getByTestId('dropzone').waitFor();
      await drop(page, otherHeaderFile);
      await page.getByRole('button', { name: 'Map its columns…' }).click();
      const mapper = page.getByTestId('format-mapper');
      await mapper.getByTestId('mapper-sample').waitFor();
      expect(await mapper.getByLabel('Column of Date').inputValue()).toBe('When');
      expect(await mapper.getByLabel('Date layout').inputValue()).toBe('YYYY-MM-DD');
      await mapper.getByRole('button', { name: 'Preview' }).click();
      const rows = mapper.getByTestId('mapper-transactions').locator('tbody tr');
      await expect.poll(() => rows.count()).toBe(2);
      // 10:30 New York on 1 May 2024 (EDT) is 14:30 UTC; the page shows it in New York time.
      expect(await rows.nth(0).locator('td').nth(1).textContent()).toContain('10:30');
      await screenshot(page, 'import-format-preview-dark');
      await mapper.getByRole('button', { name: 'Close' }).click();

      await drop(page, pngFile);
      await expect.poll(() => page.getByTestId('import-report').first().textContent()).toContain('This is a PNG image, not a CSV export');
      await screenshot(page, 'import-format-png-dark');

      // A chain file imported on the page: its report shows what the exposure figures leave out, as the API counts it.
      // The real AMD chain (required, as every real fixture): its adjusted roots are left out, and the report says so.
      {
        await page.getByRole('button', { name: 'Option chain snapshot' }).click();
        await drop(page, AMD_CHAIN);
        const excluded = page.getByTestId('chain-excluded');
        await excluded.waitFor();
        const again = await api<Static<typeof ChainPostResponse>>(served(), '/chains', { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: readFileSync(AMD_CHAIN) });
        expect(again.stored, 'the same snapshot, already stored by the page').toBe(false);
        expect(again.excluded.adjusted).toBeGreaterThan(0);
        const text = (await excluded.textContent()) ?? '';
        expect(text).toContain(`${again.excluded.adjusted.toLocaleString('en-US')} contracts of adjusted roots`);
        if (again.excluded.expired > 0) expect(text).toContain(`${again.excluded.expired.toLocaleString('en-US')} expired contract`);
        await screenshot(page, 'import-format-chain-excluded-dark');
        await page.getByRole('button', { name: 'Broker statement' }).click();
      }
      // An empty file: named so, no mapping offered.
      await drop(page, emptyFile);
      await expect.poll(() => page.getByTestId('import-report').first().textContent()).toContain('The file is empty: there is nothing to import.');
      expect(await page.getByRole('button', { name: 'Map its columns…' }).count()).toBe(0);
      // With the broker picked, the messages name it.
      await page.getByTestId('broker-select').selectOption('schwab');
      await drop(page, pngFile);
      await expect.poll(() => page.getByTestId('import-report').first().textContent()).toContain('This is a PNG image, not a Charles Schwab CSV export');
      await drop(page, emptyFile);
      await expect.poll(() => page.getByTestId('import-report').first().textContent()).toContain('The Charles Schwab file is empty: there is nothing to import.');
      await page.getByTestId('broker-select').selectOption('auto');
      expect(errors.filter((e) => !expected(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('issue 17: actions that open and close with no option mapped are not ready; the written-out instrument column is read', async () => {
    const { context, page, errors } = await openPage(suite.browser(), served(), { width: 1280, theme: 'light' });
    try {
      await goTo(page, 'Import');
      await page.getByTestId('dropzone').waitFor();
      await drop(page, writtenOutFile);
      await page.getByRole('button', { name: 'Map its columns…' }).click();
      const mapper = page.getByTestId('format-mapper');
      await mapper.getByTestId('mapper-sample').waitFor();
      expect(await mapper.getByLabel('Column of Symbol').inputValue(), 'guessed from the header').toBe('Instrument');
      // Without the instrument column nothing names the options: the preview warns and does not offer to save.
      await mapper.getByLabel('Column of Symbol').selectOption('');
      await mapper.getByRole('button', { name: 'Preview' }).click();
      const summary = mapper.getByTestId('mapper-preview').locator('.mapper-summary');
      await expect.poll(() => summary.textContent()).toContain('Options not found');
      expect(await mapper.getByTestId('mapper-warnings').textContent()).toContain('would be stored as shares');
      expect(await mapper.getByRole('button', { name: 'Save format' }).isDisabled()).toBe(true);
      await screenshot(page, 'import-format-options-not-found-light');
      // Mapped: the options come out of "Sell to Open DEF 08/21/2026 100.00 C".
      await mapper.getByLabel('Column of Symbol').selectOption('Instrument');
      await mapper.getByRole('button', { name: 'Preview' }).click();
      await expect.poll(() => summary.textContent()).toContain('Ready');
      const symbols = await mapper.getByTestId('mapper-transactions').locator('tbody tr td:nth-child(4)').allTextContents();
      expect(symbols).toEqual(['DEF260821C00100000', 'DEF260821C00100000', 'DEF']);
      expect(await mapper.getByRole('button', { name: 'Save format' }).isDisabled()).toBe(false);
      await screenshot(page, 'import-format-written-out-light');
      expect(errors.filter((e) => !expected(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
