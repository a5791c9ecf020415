/**
 * Issue 21's chain picture on the Exposure page, in Chromium, on real CBOE chains (SPX 2024-01-05: one flip
 * crossing; NDX 2022-02-04: three): the expirations table, the flip in words, the expected-move band, DEX by strike,
 * the IV term structure and the strike × expiration heat map, each checked against the API's JSON for the same
 * snapshot, formatted here by the test's own rules; both themes at 1440 and 390 px. And the Import page asking a
 * yfinance dump for its spot. Screenshots: test-results/screenshots/exposure-picture-*.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { ExpirationsResponseT, GexGridResponseT, GexProfileResponseT, GexResponseT, SnapshotsResponseT } from '../../src-shared/api/schemas';
import { CHAIN_FIXTURES, REPO_ROOT } from '../paths';
import { api, goTo, openPage, screenshot, type Served } from './harness';
import { serveForSuite } from './suite';
import { FIGURE_WORDS } from '../../src-renderer/pages/exposure/figure-words';

const SPX = join(CHAIN_FIXTURES, 'SPX_quotedata_2024-01-05close_phammings.csv');
const NDX = join(CHAIN_FIXTURES, 'NDX_quotedata_2022-02-04close_luca.csv');
const YFINANCE = join(REPO_ROOT, 'test/fixtures/chains/yfinance_spy_2025-05-16_selfwritten.csv');

async function postChains(served: Served): Promise<void> {
  for (const file of [SPX, NDX]) {
    const response = await fetch(`${served.apiBaseUrl}/chains`, { method: 'POST', headers: { Authorization: `Bearer ${served.key}`, 'Content-Type': 'text/csv' }, body: readFileSync(file) });
    if (response.status !== 201) throw new Error(`${file}: HTTP ${response.status} ${await response.text()}`);
  }
}

const panel = (id: string) => `section[aria-labelledby="${id}-title"]`;

// ---------------------------------------------------------------- the test's own formatting of the API's numbers

const MINUS = '−';
const fixed = (v: number, digits: number) => v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const price = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 2 });
const int = (v: number) => Math.round(v).toLocaleString('en-US');
const pct = (fraction: number, digits: number) => `${(fraction * 100).toFixed(digits)}%`;
/** Exposure scaled as the page promises (docs/ui.md): 1.23bn, 456.7m / 457m from 100m, 12.3k, 850; a sign unless zero. */
function compact(v: number, unit: string): string {
  const abs = Math.abs(v);
  const digits = abs >= 1e9 ? `${(abs / 1e9).toFixed(2)}bn` : abs >= 1e6 ? `${(abs / 1e6).toFixed(abs >= 1e8 ? 0 : 1)}m` : abs >= 1e3 ? `${(abs / 1e3).toFixed(1)}k` : abs.toFixed(0);
  const sign = /[1-9]/.test(digits) ? (v < 0 ? MINUS : '+') : '';
  return /share/.test(unit) ? `${sign}${digits} sh` : `${sign}$${digits}`;
}

type Detail = ExpirationsResponseT['details'][number];

/** One row of the expirations table as the page must write it. */
function expectedRow(d: Detail): string[] {
  const skew = d.skew25 === null ? '—' : (d.skew25 * 100).toFixed(1);
  return [
    d.expiration,
    String(d.dte),
    d.expectedMove === null ? '—' : `±$${fixed(d.expectedMove, 2)}`,
    d.expectedMovePct === null ? '—' : `±${pct(d.expectedMovePct, 2)}`,
    d.maxPain === null ? '—' : price(d.maxPain),
    d.atmIV === null ? '—' : pct(d.atmIV, 1),
    skew === '—' || /^-?0\.0$/.test(skew) ? skew.replace('-', '') : d.skew25 !== null && d.skew25 > 0 ? `+${skew}` : `${MINUS}${skew.slice(1)}`,
    d.putCallOIRatio === null ? '—' : fixed(d.putCallOIRatio, 2),
    int(d.callOI),
    int(d.putOI),
    d.callVolume === null && d.putVolume === null ? '—' : `${int(d.callVolume ?? 0)} / ${int(d.putVolume ?? 0)}`,
    pct(d.gammaShare, 1),
  ];
}

const WORDS = ['no', 'one', 'two', 'three', 'four', 'five'];
function flipSentence(g: { flipStatus: string; flipRoots: number[]; stockPrice: number }): string {
  if (g.flipRoots.length === 0) return 'no crossing within ±20% of spot';
  const [root] = g.flipRoots;
  if (g.flipRoots.length === 1 && root !== undefined) {
    const away = ((root - g.stockPrice) / g.stockPrice) * 100;
    return `one crossing, ${fixed(Math.abs(away), 2)}% ${away > 0 ? 'above' : 'below'} spot`;
  }
  const shown = g.flipRoots.map(price);
  return `${WORDS[shown.length] ?? shown.length} crossings: ${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

/** Opens the symbol and waits until the page shows its answers, not the first symbol's (both are cboe-csv). */
async function openSymbol(page: Page, served: Served, symbol: string): Promise<void> {
  const exps = await api<ExpirationsResponseT>(served, `/expirations?symbol=${symbol}`);
  const gex = await api<GexResponseT>(served, `/gex?symbol=${symbol}`);
  await goTo(page, 'Exposure');
  await page.getByTestId('symbol-select').selectOption(symbol);
  await expect.poll(() => page.getByTestId('gex-key-numbers').locator('.stat-value').first().textContent(), { timeout: 20_000 }).toBe(price(gex.stockPrice));
  await expect.poll(() => page.getByTestId('expirations-table').locator('tbody tr').count(), { timeout: 20_000 }).toBe(exps.details.length);
  await page.locator('.heat-map canvas').waitFor();
  await page.getByTestId('vanna-levels').waitFor();
}

describe('the chain picture on real SPX and NDX chains (issue 21)', () => {
  const suite = serveForSuite({ demo: false, prepare: postChains });

  for (const theme of ['light', 'dark'] as const) {
    it(`SPX at 1440 px, ${theme}: table, flip words, expected move, DEX, term structure and heat map are the API's`, async () => {
      await suite.onPage({ width: 1440, height: 1000, theme }, async (page) => {
        const served = suite.served();
        await openSymbol(page, served, 'SPX');
        const gex = await api<GexResponseT>(served, '/gex?symbol=SPX');
        const exps = await api<ExpirationsResponseT>(served, '/expirations?symbol=SPX');
        const grid = await api<GexGridResponseT>(served, '/gex/grid?symbol=SPX&formula=nominal');

        // The expirations table: one row per expiration, every cell the API's figure.
        const rows = await page.getByTestId('expirations-table').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())));
        expect(rows).toHaveLength(exps.details.length);
        exps.details.forEach((d, i) => {
          const row = rows[i] ?? [];
          const want = expectedRow(d);
          expect(row[0], `row ${i} date`).toMatch(new RegExp(`^${d.expiration}( AM)?$`));
          expect(row.slice(1), `row ${i} (${d.expiration})`).toEqual(want.slice(1));
        });
        expect(await page.getByTestId('expirations-table').locator('tbody tr.in-scope').count(), 'the scope’s rows marked').toBe(gex.meta.expirations.length);

        // The flip in words, and the expected move of the nearest expiration in scope.
        expect(gex.flipStatus).toBe('ok');
        expect(await page.getByTestId('flip-words').textContent()).toBe(flipSentence(gex));
        expect(await page.getByTestId('profile-flip').textContent()).toContain(flipSentence(gex));
        const nearest = exps.details.find((d) => d.expiration === gex.meta.expirations[0]);
        if (!nearest || nearest.expectedMove === null || nearest.expectedMovePct === null || nearest.maxPain === null) throw new Error('SPX 2024-01-08 has a straddle and max pain');
        const em = nearest.expectedMove;
        // The figures, then the card's line in plain words (figure-words.ts).
        expect(await page.getByTestId('expected-move').textContent()).toBe(`Expected move±$${fixed(em, 2)}±${pct(nearest.expectedMovePct, 2)} to ${nearest.expiration} · max pain ${price(nearest.maxPain)}${FIGURE_WORDS.expectedMove.short}`);
        expect(await page.getByTestId('expected-move-band').textContent()).toBe(
          `Expected move to ${nearest.expiration}: ±$${fixed(em, 2)} (±${pct(nearest.expectedMovePct, 2)}), ${fixed(gex.stockPrice - em, 2)}–${fixed(gex.stockPrice + em, 2)}`,
        );
        expect(await page.getByTestId('strike-levels').textContent()).toContain(`Max pain ${price(nearest.maxPain)} (${nearest.expiration})`);
        expect(await page.getByTestId('total-dex').textContent()).toBe(`Total DEX${compact(gex.totalDEX, 'shares')}${compact(gex.totalDEXNotional, 'USD')} notional${FIGURE_WORDS.totalDex.short}`);
        await screenshot(page, `exposure-picture-${theme}`);

        // DEX by strike: the tooltip of the strike under the pointer is the API's row.
        await page.locator(panel('gex-chart')).getByRole('button', { name: 'Delta', exact: true }).click();
        await expect.poll(() => page.locator('#gex-chart-title').textContent()).toBe('Delta exposure by strike');
        const chart = page.locator(`${panel('gex-chart')} .chart`);
        const box = await chart.boundingBox();
        if (box === null) throw new Error('no strike chart');
        await page.mouse.move(box.x + box.width * 0.45, box.y + box.height * 0.5);
        const tooltip = page.locator(`${panel('gex-chart')} [data-testid="strike-tooltip"]`);
        await tooltip.waitFor({ state: 'visible' });
        const tip = (await tooltip.textContent()) ?? '';
        const strike = Number(/Strike ([\d,.]+)/.exec(tip)?.[1]?.replace(/,/g, ''));
        const row = gex.data.find((r) => r.strike === strike);
        if (!row) throw new Error(`the tooltip's strike ${strike} is not a row of /gex`);
        expect(tip).toContain(`Calls Δ ${compact(row.callDEX, 'shares')}`);
        expect(tip).toContain(`Puts Δ ${compact(row.putDEX, 'shares')}`);
        expect(tip).toContain(`Net Δ ${compact(row.netDEX, 'shares')}`);

        // The IV term structure: one point per expiration with an ATM IV; the first one's figures by keyboard.
        const term = page.locator('.term-chart');
        const withIv = exps.termStructure.filter((p) => p.atmIV !== null);
        expect(await term.getAttribute('data-points')).toBe(String(withIv.length));
        await term.focus();
        await page.keyboard.press('Home');
        const first = withIv[0];
        if (!first || first.atmIV === null) throw new Error('SPX has ATM IVs');
        expect(await page.getByTestId('term-tooltip').textContent()).toBe(`${first.expiration} · ${first.dte} dATM IV ${pct(first.atmIV, 2)}`);

        // The heat map: every cell of the grid on one canvas; a cell's figure by keyboard and by pointer.
        const heat = page.locator('.heat-map');
        expect(await heat.getAttribute('data-cells')).toBe(String(grid.expirations.length * grid.strikes.length));
        expect(await heat.getAttribute('data-rows')).toBe(String(grid.expirations.length));
        expect(await heat.getAttribute('data-columns')).toBe(String(grid.strikes.length));
        expect(await page.locator('.heat-map canvas').count(), 'one canvas, no cell elements').toBe(1);
        const cellOf = async () => {
          const text = (await page.getByTestId('heat-tooltip').textContent()) ?? '';
          const match = /^(\d{4}-\d{2}-\d{2}) \((\d+) d\)Strike ([\d,.]+)Net GEX (.+)$/.exec(text);
          if (!match) throw new Error(`heat map tooltip: ${text}`);
          const r = grid.expirations.indexOf(match[1] ?? '');
          const c = grid.strikes.indexOf(Number((match[3] ?? '').replace(/,/g, '')));
          expect(r, text).toBeGreaterThanOrEqual(0);
          expect(c, text).toBeGreaterThanOrEqual(0);
          expect(match[2], 'the row’s dte is the API’s').toBe(String(exps.details.find((d) => d.expiration === match[1])?.dte));
          return { r, c, shown: match[4] };
        };
        await heat.focus();
        await page.keyboard.press('ArrowDown');
        const byKey = await cellOf();
        expect(byKey.r, 'the first key lands on the first row').toBe(0);
        expect(grid.strikes[byKey.c], 'at spot’s column').toBeGreaterThanOrEqual(grid.stockPrice);
        expect(byKey.shown).toBe(compact(grid.netGEX[0]?.[byKey.c] ?? Number.NaN, grid.unit));
        await page.keyboard.press('ArrowRight');
        expect((await cellOf()).c).toBe(byKey.c + 1);
        const canvas = await page.locator('.heat-map canvas').boundingBox();
        if (canvas === null) throw new Error('no heat map canvas');
        await page.mouse.move(canvas.x + canvas.width * 0.6, canvas.y + canvas.height * 0.3);
        const byPointer = await cellOf();
        expect(byPointer.shown).toBe(compact(grid.netGEX[byPointer.r]?.[byPointer.c] ?? Number.NaN, grid.unit));
        await screenshot(page, `exposure-picture-dex-heat-${theme}`);
        // Within 7 days: the grid the API answers for maxDte=7.
        const week = await api<GexGridResponseT>(served, '/gex/grid?symbol=SPX&formula=nominal&maxDte=7');
        await page.locator(panel('gex-heatmap')).getByRole('button', { name: '≤ 7d' }).click();
        await expect.poll(() => heat.getAttribute('data-cells')).toBe(String(week.expirations.length * week.strikes.length));
        expect(week.expirations.length, 'SPX 2024-01-07 has five expirations within a week').toBe(5);
      });
    });

    it(`SPX at 390 px, ${theme}: no sideways scroll, every panel drawn`, async () => {
      await suite.onPage({ width: 390, height: 900, theme }, async (page) => {
        await openSymbol(page, suite.served(), 'SPX');
        await page.locator('.term-chart svg').waitFor();
        await page.locator(`${panel('oi-chart')} .chart canvas`).first().waitFor();
        const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
        expect(widths.scroll, 'no sideways scroll').toBeLessThanOrEqual(widths.client);
        const canvas = await page.locator('.heat-map canvas').boundingBox();
        expect(canvas?.width ?? 0, 'the heat map fits the phone').toBeLessThanOrEqual(390);
        // The strike chart opens near spot at a phone's width too, its labels fitted (not every strike of the chain).
        const gex = await api<GexResponseT>(suite.served(), '/gex?symbol=SPX');
        expect(await page.locator(`${panel('gex-chart')} .chart-foot`).textContent()).toMatch(new RegExp(`^\\d+ of ${gex.data.length} strikes · `));
        await screenshot(page, `exposure-picture-390-${theme}`);
      });
    });
  }

  it('NDX: three crossings in words, on the card, the profile and the chart’s legend', async () => {
    await suite.onPage({ width: 1440, height: 1000, theme: 'dark' }, async (page) => {
      await openSymbol(page, suite.served(), 'NDX');
      const gex = await api<GexResponseT>(suite.served(), '/gex?symbol=NDX');
      const profile = await api<GexProfileResponseT>(suite.served(), '/gex/profile?symbol=NDX');
      expect(gex.flipStatus).toBe('multiple');
      expect(gex.flipRoots).toHaveLength(3);
      const words = flipSentence(gex);
      const [a, b, c] = gex.flipRoots.map(price);
      expect(words).toBe(`three crossings: ${a}, ${b} and ${c}`);
      expect(await page.getByTestId('flip-words').textContent()).toBe(words);
      expect(await page.getByTestId('profile-flip').textContent()).toContain(flipSentence(profile));
      const others = gex.flipRoots.filter((r) => r !== gex.gammaInflection).map(price);
      expect(await page.getByTestId('strike-levels').textContent()).toContain(`Other crossings ${others.join(' and ')}`);
      await screenshot(page, 'exposure-picture-ndx-dark');
    });
  });
});

describe('a yfinance dump on the Import page: spot asked for and sent', () => {
  const suite = serveForSuite({ demo: false });

  it('the refusal names spot; the form sends spot and quote time; the chain is stored with them', async () => {
    const { context, page, errors } = await openPage(suite.browser(), suite.served(), { width: 1280, theme: 'light' });
    try {
      await goTo(page, 'Import');
      await page.getByRole('button', { name: 'Option chain snapshot' }).click();
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Choose files…' }).click();
      await (await chooser).setFiles(YFINANCE);
      await page.getByRole('button', { name: /^Import 1 file$/ }).click();
      const form = page.getByTestId('chain-retry');
      await form.waitFor();
      expect(await page.getByTestId('import-report').textContent()).toContain('pass spot');
      expect(await form.getByLabel(/Spot/).evaluate((input) => input === document.activeElement), 'the missing value has the focus').toBe(true);
      // Nothing given: the form says what is missing and sends nothing.
      await form.getByRole('button', { name: /^Import / }).click();
      expect(await form.getByRole('alert').textContent()).toBe('Give spot to import this file.');
      await form.getByLabel(/Spot/).fill('589.25');
      await form.getByLabel(/Quote time/).fill('2025-05-16T16:00');
      await screenshot(page, 'import-yfinance-form-light');
      const sent = page.waitForResponse((r) => r.url().includes('/v1/chains?') && r.request().method() === 'POST');
      await form.getByRole('button', { name: /^Import / }).click();
      const response = await sent;
      expect(response.status()).toBe(201);
      const query = new URL(response.url()).searchParams;
      expect(query.get('spot')).toBe('589.25');
      expect(query.get('quoteTime')).toBe('2025-05-16T16:00');
      await expect.poll(() => page.getByTestId('import-report').textContent()).toContain('Stored');
      // 16:00 New York on 16 May 2025 (EDT) is 20:00 UTC.
      const listed = await api<SnapshotsResponseT>(suite.served(), '/snapshots?symbol=SPY');
      expect(listed.snapshots.map((s) => [s.spot, s.quoteTime, s.contracts])).toEqual([[589.25, '2025-05-16T20:00:00.000Z', 20]]);
      expect(await page.getByTestId('import-report').textContent()).toContain('SPY · spot 589.25 · 20 contracts · 2 expirations · quoted 2025-05-16 16:00 ET');
      await screenshot(page, 'import-yfinance-spot-light');
      // The first refusal (422) is the flow's own; nothing else may fail.
      expect(errors.filter((e) => !/http 422: POST .*\/v1\/chains|status of 422/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
