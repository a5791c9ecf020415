/**
 * Issue 27's "Expiry unknown" actions in Chromium against `strikebook serve` (docs/ui.md §Positions; docs/journal.md
 * §Positions): each needs-attention expiry_unknown item offers "Expired worthless", and the list offers it in bulk for the
 * options out of the money at the last snapshot before their expiry. A self-written journal of three puts of July 2024
 * with no expiration row: AAA's last snapshot (three trading days before the expiry: no evidence) shows it out of the
 * money, BBB's in the money, CCC has none. Both themes, 1440 and 390 wide; screenshots in test-results/screenshots/
 * (names start with `positions-expiry-`). The Campaigns page names the account's dividend no campaign held the shares for.
 */
import { describe, expect, it } from 'vitest';
import type { ImportsResponseT, PositionsResponseT } from '../../src-shared/api/schemas';
import { api, goTo, screenshot, type Served } from './harness';
import { serveForSuite } from './suite';

const SIZES = [
  { width: 1440, theme: 'light' },
  { width: 1440, theme: 'dark' },
  { width: 390, theme: 'light' },
  { width: 390, theme: 'dark' },
] as const;

const JOURNAL = [
  'date,account,type,symbol,quantity,price,commission,fees,amount,currency',
  '2024-07-01T14:00:00Z,Margin,SELL_TO_OPEN,AAA240719P00045000,1,1.00,0,0,100,USD',
  '2024-07-01T14:00:00Z,Margin,SELL_TO_OPEN,BBB240719P00045000,2,1.00,0,0,200,USD',
  '2024-07-01T14:00:00Z,Margin,SELL_TO_OPEN,CCC240719P00045000,1,1.00,0,0,100,USD',
  // A dividend on shares no campaign of the journal held: the account's.
  '2024-07-10T13:00:00Z,Margin,DIVIDEND,DDD,0,0,0,0,12.34,USD',
].join('\n');

/** A chain of one contract, quoted Tuesday 16 July 16:15 New York: three trading days before Friday's expiry. */
const chain = (symbol: string, spot: number) => ({
  url: `/chains?symbol=${symbol}&spot=${spot}&quoteTime=2024-07-16T20:15:00Z`,
  body: 'expiration,strike,right,openInterest,iv,bid,ask\n2024-08-16,45,P,100,0.3,1,1.2\n',
});

async function undoManualImports(served: Served): Promise<void> {
  const { imports } = await api<ImportsResponseT>(served, '/imports');
  for (const item of imports.filter((i) => i.kind === 'manual')) await api(served, `/imports/${item.id}`, { method: 'DELETE' });
}

describe('Positions: "Expired worthless" on expiries without evidence', () => {
  const suite = serveForSuite({
    demo: false,
    prepare: async (served) => {
      await api(served, '/imports?broker=generic', { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: JOURNAL });
      // AAA at 50 (the 45 put out of the money), BBB at 40 (in the money); CCC none.
      for (const { url, body } of [chain('AAA', 50), chain('BBB', 40)]) await api(served, url, { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body });
    },
  });

  it('the API lists three expiry_unknown items, one out of the money at its last snapshot', async () => {
    const book = await api<PositionsResponseT>(suite.served(), '/journal/positions');
    const items = book.needsAttention.filter((n) => n.kind === 'expiry_unknown').sort((a, b) => a.symbol.localeCompare(b.symbol));
    expect(items.map((n) => [n.symbol, n.quantity, n.lastSnapshot?.outOfTheMoney ?? null])).toEqual([
      ['AAA240719P00045000', -1, true],
      ['BBB240719P00045000', -2, false],
      ['CCC240719P00045000', -1, null],
    ]);
  });

  it('the bulk action books the one out of the money; an item’s own action books it; each disappears, undone after', async () => {
    for (const size of SIZES) {
      await suite.onPage(size, async (page) => {
        const name = `positions-expiry-${size.width}-${size.theme}`;
        await goTo(page, 'Positions');
        const items = page.getByTestId('attention-expiry-unknown');
        await expect.poll(() => items.count()).toBe(3);
        const bulk = page.getByTestId('expire-all-otm');
        expect(await bulk.textContent()).toBe('Expired worthless: the one out of the money at its last snapshot');
        expect(await items.filter({ hasText: 'AAA' }).textContent()).toContain('out of the money');
        expect(await page.getByTestId('expire-one').count()).toBe(3);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(width, 'the page does not scroll sideways').toBeLessThanOrEqual(size.width);
        await screenshot(page, `${name}-items`);

        const booked = page.waitForResponse((r) => r.url().endsWith('/journal/expirations') && r.status() === 201);
        await bulk.click();
        await booked;
        await expect.poll(() => page.getByTestId('positions-message').textContent()).toMatch(/^Booked AAA .* as expired worthless \(import #\d+; undo it on the Import page\)\.$/);
        await expect.poll(() => items.count()).toBe(2);
        expect(await bulk.count(), 'nothing left out of the money at its last snapshot').toBe(0);
        await screenshot(page, `${name}-bulk`);

        const ccc = items.filter({ hasText: 'CCC' });
        const one = page.waitForResponse((r) => r.url().endsWith('/journal/expirations') && r.status() === 201);
        await ccc.getByTestId('expire-one').click();
        await one;
        await expect.poll(() => items.count()).toBe(1);
        await screenshot(page, `${name}-one`);
      });
      await undoManualImports(suite.served());
    }
  });

  it('Campaigns: the dividend no campaign held the shares for is said on the account', async () => {
    for (const size of [SIZES[0], SIZES[3]]) {
      await suite.onPage(size, async (page) => {
        await goTo(page, 'Campaigns');
        await expect.poll(() => page.getByTestId('dividends-outside').textContent()).toBe('Dividends paid while no campaign held the shares (in the Journal\'s dividends, in no campaign): Margin $12.34.');
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(width, 'the page does not scroll sideways').toBeLessThanOrEqual(size.width);
        await screenshot(page, `positions-expiry-campaigns-${size.width}-${size.theme}`);
      });
    }
  });
});
