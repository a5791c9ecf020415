/**
 * Issue 17's manual entries in Chromium against `strikebook serve` (docs/ui.md §Transactions, §Positions): the
 * Transactions page adds, edits and deletes a manual row (imported rows say why they cannot), and the Positions page's
 * needs-attention item "Add opening position" enters the opening a self-written export never bought. Both themes, 1440
 * and 390 wide; screenshots go to test-results/screenshots/ (names start with `manual-`). Expected figures are computed
 * by hand in the test.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { ImportsResponseT, PositionsResponseT, SummaryResponseT, TransactionsResponseT } from '../../src-shared/api/schemas';
import { AMD_WHEEL } from '../amd-wheel';
import { CHAIN_FIXTURES } from '../paths';
import { api, goTo, openPage, repoRoot, screenshot, type Served } from './harness';
import { serveForSuite } from './suite';

const SOLD_BEFORE_HISTORY = readFileSync(join(repoRoot, 'test/fixtures/brokers/generic_sold_before_history_selfwritten.csv'), 'utf8');
const WHEEL = readFileSync(join(repoRoot, 'test/fixtures/brokers/generic_wheel_selfwritten.csv'), 'utf8');
const SIZES = [
  { width: 1440, theme: 'light' },
  { width: 1440, theme: 'dark' },
  { width: 390, theme: 'light' },
  { width: 390, theme: 'dark' },
] as const;

/** The ACME rows of the Transactions table, filtered on the page as a user would. */
async function showAcme(page: Page): Promise<void> {
  await goTo(page, 'Transactions');
  await page.getByPlaceholder('e.g. SPY').fill('ACME');
  const filtered = page.waitForResponse((r) => r.url().includes('/journal/transactions') && r.url().includes('symbol=ACME'));
  await page.getByRole('button', { name: 'Apply' }).click();
  await filtered;
  await page.waitForSelector('[data-testid="transactions-table"] tbody tr');
}

const saleRealized = (page: Page) => page.locator('[data-testid="transactions-table"] tbody tr[data-source="generic-csv"] [data-testid="realized"]').textContent();

/** The refusal the Transactions test asks for on purpose (a BUY without a price): a response, not a page error. */
const expectedRefusal = (error: string) => /http 400: POST .*\/v1\/journal\/transactions|status of 400/.test(error);

async function manualImports(served: Served): Promise<number[]> {
  const { imports } = await api<ImportsResponseT>(served, '/imports');
  return imports.filter((i) => i.kind === 'manual').map((i) => i.id);
}

describe('manual entries in the browser', () => {
  const suite = serveForSuite({
    demo: false,
    prepare: async (served) => {
      for (const file of [WHEEL, SOLD_BEFORE_HISTORY]) await api(served, '/imports?broker=generic', { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: file });
    },
  });

  it('Transactions: add an opening BUY (the sale realizes +$197.95), edit its price (+$97.95), delete it; imported rows cannot be edited', async () => {
    for (const size of SIZES) {
      const { context, page, errors } = await openPage(suite.browser(), suite.served(), size);
      try {
        const name = `manual-transactions-${size.width}-${size.theme}`;
        await showAcme(page);
        expect(await saleRealized(page), 'the sale of shares never bought realizes nothing').toBe('—');
        // The file's row says where it comes from, and offers no edit.
        await expect.poll(() => page.locator('tr[data-source="generic-csv"] [data-testid="row-imported"]').textContent()).toMatch(/^import #\d+$/);
        expect(await page.locator('tr[data-source="generic-csv"] [data-testid="row-edit"]').count()).toBe(0);

        await page.getByTestId('add-transaction').click();
        await page.getByTestId('tx-type').selectOption('BUY');
        await page.getByTestId('tx-account').selectOption({ label: 'Cash' });
        await page.getByTestId('tx-date').fill('2024-03-14');
        await page.getByTestId('tx-time').fill('09:45');
        await page.getByTestId('tx-symbol').fill('acme');
        await page.getByTestId('tx-quantity').fill('100');
        await page.getByTestId('tx-fees').fill('1');
        // No price: the server refuses, and says so at the field.
        await page.getByTestId('tx-submit').click();
        await expect.poll(() => page.getByTestId('transaction-editor').locator('.field-error').allTextContents()).toContain('required for BUY');
        expect(await page.getByTestId('transaction-editor').getByRole('alert').allTextContents(), 'the price field shown: a line points at it (FormRefusal)').toEqual(['The server refused it: see the fields marked below.']);
        await screenshot(page, `${name}-refused`);
        await page.getByTestId('tx-price').fill('10');
        const added = page.waitForResponse((r) => r.url().endsWith('/journal/transactions') && r.request().method() === 'POST' && r.status() === 201);
        await page.getByTestId('tx-submit').click();
        await added;
        await expect.poll(() => page.getByTestId('transactions-message').textContent()).toContain('Added 1 transaction');
        // (12.00 − 10.00) × 100 = 200.00, less the opening's 1.00 fees and the sale's 1.00 commission + 0.05 fees.
        await expect.poll(() => saleRealized(page)).toBe('+$197.95');
        const manualRow = page.locator('[data-testid="transactions-table"] tbody tr[data-source="manual"]');
        // −(100 × 10.00 + 1.00): the cash of a fill entered without an amount.
        await expect.poll(() => manualRow.textContent()).toContain('−$1,001.00');
        // 09:45 New York on 2024-03-14 is EDT (from March 10): 13:45Z.
        const stored = async () => (await api<TransactionsResponseT>(suite.served(), '/journal/transactions?symbol=ACME&limit=100')).transactions.find((tx) => tx.source === 'manual')?.tradeDate;
        expect(await stored()).toBe('2024-03-14T13:45:00.000Z');
        await screenshot(page, `${name}-added`);

        await manualRow.getByTestId('row-edit').click();
        await expect.poll(() => page.getByTestId('tx-price').inputValue()).toBe('10');
        expect(await page.getByTestId('tx-time').inputValue(), 'the edit shows the time it was entered at').toBe('09:45');
        await page.getByTestId('tx-price').fill('11');
        const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.status() === 200);
        await page.getByTestId('tx-submit').click();
        await saved;
        // (12.00 − 11.00) × 100 − 1.00 − 1.05.
        await expect.poll(() => saleRealized(page)).toBe('+$97.95');
        expect(await stored(), 'an edit of the price keeps the instant').toBe('2024-03-14T13:45:00.000Z');
        await screenshot(page, `${name}-edited`);

        await manualRow.getByTestId('row-delete').click();
        await screenshot(page, `${name}-confirm-delete`);
        const deleted = page.waitForResponse((r) => r.request().method() === 'DELETE' && r.status() === 200);
        await manualRow.getByTestId('row-delete-confirm').click();
        await deleted;
        await expect.poll(() => manualRow.count()).toBe(0);
        await expect.poll(() => saleRealized(page)).toBe('—');
        expect(await manualImports(suite.served()), 'the import the row was alone in went with it').toEqual([]);
        expect(errors.filter((error) => !expectedRefusal(error)), 'no console errors, page errors or failed requests but the refusal asked for').toEqual([]);
      } finally {
        await context.close();
      }
    }
  });

  it('Positions: the needs-attention item of the sale offers "Add opening position"; entered, the item disappears and the figures follow (needs the ledger of issue 17)', async () => {
    const before = await api<PositionsResponseT>(suite.served(), '/journal/positions');
    const item = (before.needsAttention as ReadonlyArray<{ kind?: string; symbol: string; firstDate?: string | null; quantity: number }>).find((n) => n.kind === 'opened_before_history' && n.symbol === 'ACME');
    // The ledger of issue 17 is merged: the sale of ACME with no opening in the history is listed.
    if (item === undefined) throw new Error('no opened_before_history item for ACME: the sale before the history starts is not listed as needing attention');
    expect(item).toMatchObject({ firstDate: '2024-03-15', quantity: 100 });
    const realized2024 = async () => (await api<SummaryResponseT>(suite.served(), '/journal/summary?year=2024')).stats.totalRealizedPnl;
    const realizedBefore = await realized2024();
    for (const size of SIZES) {
      await suite.onPage(size, async (page) => {
        const name = `manual-opening-${size.width}-${size.theme}`;
        await goTo(page, 'Positions');
        const acme = page.locator('[data-testid="attention-opened-before-history"]', { hasText: 'ACME' });
        await acme.waitFor();
        await screenshot(page, `${name}-item`);
        await acme.getByTestId('add-opening').click();
        // Prefilled: the day before the first unmatched close, the missing quantity; the price is the user's.
        expect(await acme.getByTestId('opening-date').inputValue()).toBe('2024-03-14');
        expect(await acme.getByTestId('opening-quantity').inputValue()).toBe('100');
        await acme.getByTestId('opening-price').fill('10');
        await acme.getByTestId('opening-fees').fill('1');
        await screenshot(page, `${name}-form`);
        const reloaded = page.waitForResponse((r) => r.url().includes('/journal/positions') && r.request().method() === 'GET');
        await acme.getByTestId('opening-submit').click();
        await reloaded;
        await expect.poll(() => acme.count()).toBe(0);
        await expect.poll(() => page.getByTestId('positions-message').textContent()).toContain('Added the opening of ACME');
        await screenshot(page, `${name}-entered`);
        // The sale now realizes (12.00 − 10.00) × 100 − 1.00 (the opening's fees) − 1.05 (the sale's costs) = 197.95.
        expect(await realized2024()).toBeCloseTo(realizedBefore + 197.95, 2);
        const opening = await api<TransactionsResponseT>(suite.served(), '/journal/transactions?symbol=ACME&type=BUY');
        expect(opening.transactions).toMatchObject([{ source: 'manual', quantity: 100, price: 10, fees: 1, tradeDay: '2024-03-14' }]);
        for (const id of await manualImports(suite.served())) await api(suite.served(), `/imports/${id}`, { method: 'DELETE' });
      });
    }
  });
});

const AMD_CHAIN = join(CHAIN_FIXTURES, 'AMD_quotedata_2023-08-18close_aryaman.csv');

describe('stale marks and expiries without evidence, labelled with why', () => {
  // The AMD wheel marked from the 2023-08-18 chain, read today: years of trading days old.
  const suite = serveForSuite({
    demo: false,
    prepare: async (served) => {
      await api(served, '/imports?broker=generic', { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: AMD_WHEEL });
      await api(served, '/chains?symbol=AMD', { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: readFileSync(AMD_CHAIN, 'utf8') });
    },
  });

  it('Positions: the stale mark says its day and age and the totals what they leave out; each expiry_unknown item says what to import (needs the ledger of issue 17)', async () => {
    const book = await api<PositionsResponseT>(suite.served(), '/journal/positions');
    const shares = book.positions.find((p) => p.symbol === 'AMD') as (PositionsResponseT['positions'][number] & { mark: { stale?: boolean; ageDays?: number } | null }) | undefined;
    // The marks of issue 17 carry their age: the AMD shares are marked from the 2023 chain, with its age.
    if (shares?.mark?.stale === undefined || shares.mark.ageDays === undefined) throw new Error('the AMD shares carry no mark with its age (mark.stale, mark.ageDays)');
    expect(shares.mark.stale, 'a 2023 snapshot is no mark today').toBe(true);
    const expiries = (book.needsAttention as ReadonlyArray<{ kind?: string }>).filter((n) => n.kind === 'expiry_unknown').length;
    for (const size of SIZES) {
      await suite.onPage(size, async (page) => {
        await goTo(page, 'Positions');
        const note = page.getByTestId('stale-AMD');
        // The quote of 2023-08-21T02:35Z is 2023-08-20 in New York.
        await expect.poll(() => note.textContent()).toContain(`mark from 2023-08-20, ${shares.mark?.ageDays?.toLocaleString('en-US') ?? ''} trading days old`);
        expect(await page.getByTestId('mark-stale').count()).toBe(1);
        expect(await page.getByTestId('positions-left-out').textContent()).toBe('1 stale: left out');
        // The only open position left out: the sums over no marked position are unknown, "—", never $0.00.
        expect(book.positions).toHaveLength(1);
        expect(await page.getByTestId('positions-market-value').locator('.stat-value').textContent()).toBe('—');
        expect(await page.getByTestId('positions-unrealized').locator('.stat-value').textContent()).toBe('—');
        expect(await page.getByTestId('group-unrealized-AMD').textContent()).toBe('—');
        expect(await page.getByTestId('attention-expiry-unknown').count()).toBe(expiries);
        expect(await page.getByTestId('needs-attention').textContent()).toContain('import the broker');
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(width, 'the page does not scroll sideways').toBeLessThanOrEqual(size.width);
        await screenshot(page, `manual-stale-${size.width}-${size.theme}`);
      });
    }
  });
});
