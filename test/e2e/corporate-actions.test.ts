/**
 * Corporate actions in Chromium against `strikebook serve` (docs/ui.md §Transactions, docs/journal.md §Corporate
 * actions): a Robinhood history whose export left out its SPAC merger (IPOE → SOFI) lists the file's own actions; the
 * Corporate actions panel enters the merger by hand, the figures follow (2021 realized 248.44, by hand in
 * test/integration/main/importers/robinhood/robinhood.corporate-actions.test.ts), a refused entry names its field,
 * Undo takes it back. Both themes, 1440 and 390 wide; screenshots in test-results/screenshots/ (`corporate-actions-`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { SummaryResponseT } from '../../src-shared/api/schemas';
import { api, goTo, openPage, repoRoot, screenshot } from './harness';
import { serveForSuite } from './suite';

const WHOLE = readFileSync(join(repoRoot, 'test/fixtures/brokers/robinhood_spac_merger_selfwritten.csv'), 'utf8');
/** The export without the merger's SXCH / OCA records. */
const WITHOUT_MERGER = WHOLE.replace(/"6\/1\/2021"[^\n]*(?:\n(?!")[^\n]*)?\n/g, (record) => (/"(?:SXCH|OCA)"/.test(record) ? '' : record));
const SIZES = [
  { width: 1440, theme: 'light' },
  { width: 1440, theme: 'dark' },
  { width: 390, theme: 'light' },
  { width: 390, theme: 'dark' },
] as const;

/** A refusal the test asks for on purpose: a response, not a page error. */
const expectedRefusal = (error: string) => /http 400: POST .*\/v1\/journal\/corporate-actions|status of 400/.test(error);

async function panel(page: Page) {
  await goTo(page, 'Transactions');
  const section = page.getByTestId('corporate-actions');
  await section.waitFor();
  await page.getByTestId('corporate-actions-table').waitFor();
  return section;
}

describe('corporate actions in the browser', () => {
  const suite = serveForSuite({
    demo: false,
    prepare: async (served) => {
      await api(served, '/imports?broker=robinhood', { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: WITHOUT_MERGER });
    },
  });
  const realized2021 = async () => (await api<SummaryResponseT>(suite.served(), '/journal/summary?year=2021')).stats.totalRealizedPnl;

  it('lists the file’s actions; enters the SPAC merger by hand (2021 realizes 248.44), refuses a spin-off without its cost split, undoes', async () => {
    for (const size of SIZES) {
      const { context, page, errors } = await openPage(suite.browser(), suite.served(), size);
      try {
        const name = `corporate-actions-${size.width}-${size.theme}`;
        const section = await panel(page);
        const rows = section.getByTestId('corporate-action-row');
        // The NAKD reverse split and the free HLX share of the file.
        await expect.poll(() => rows.count()).toBe(2);
        expect(await rows.first().textContent()).toContain('1-for-10');
        expect(await realized2021(), 'before: only the free HLX share is known').toBe(3.5);

        await page.getByTestId('add-corporate-action').click();
        const form = page.getByTestId('corporate-action-form');
        await form.getByTestId('ca-type').selectOption('spinoff');
        await form.getByTestId('ca-date').fill('2021-06-01');
        await form.getByTestId('ca-symbol').fill('ipoe');
        await form.getByTestId('ca-newSymbol').fill('sofi');
        await form.getByTestId('ca-ratio').fill('1');
        await form.getByTestId('ca-submit').click();
        await expect.poll(() => form.locator('.field-error').allTextContents()).toContain('required for a spinoff: the part of the basis the new shares take (the issuer’s tax notice states it)');
        // The refusal names a field the form shows (FormRefusal): a line above the fields points at it, no banner.
        expect(await form.getByRole('alert').allTextContents()).toEqual(['The server refused it: see the fields marked below.']);
        await form.scrollIntoViewIfNeeded();
        await screenshot(page, `${name}-refused`);

        await form.getByTestId('ca-type').selectOption('symbol_change');
        const added = page.waitForResponse((r) => r.url().endsWith('/journal/corporate-actions') && r.request().method() === 'POST' && r.status() === 201);
        await form.getByTestId('ca-submit').click();
        await added;
        await expect.poll(() => page.getByTestId('corporate-actions-message').textContent()).toMatch(/^Added the symbol change of IPOE on 2021-06-01 as import #\d+\./);
        await expect.poll(() => rows.count()).toBe(3);
        const merger = rows.filter({ hasText: 'IPOE → SOFI' });
        await expect.poll(() => merger.textContent()).toContain('Applied');
        expect(await realized2021(), '125 + 3.50 + 119.94').toBe(248.44);
        await section.scrollIntoViewIfNeeded();
        await screenshot(page, `${name}-added`);

        const undone = page.waitForResponse((r) => r.request().method() === 'DELETE' && r.status() === 200);
        await page.getByTestId('corporate-action-undo').click();
        await undone;
        await expect.poll(() => rows.count()).toBe(2);
        expect(await realized2021()).toBe(3.5);
        expect(errors.filter((error) => !expectedRefusal(error)), 'no console errors, page errors or failed requests but the refusal asked for').toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});
