/**
 * Issue 17 on the Journal page, in Chromium against `strikebook serve`: the Commissions card shows what every trade
 * was charged (the API's `commissions`), the standalone fees beside it, and the Realized P&L card says when closes of
 * positions opened before the history are left out. A self-written generic file; figures from the API and by hand.
 * Screenshots go to test-results/screenshots/ (names start with `commissions-`).
 */
import { describe, expect, it } from 'vitest';
import type { PerformanceResponseT } from '../../src-shared/api/schemas';
import { api, PAGE_READY, screenshot } from './harness';
import { serveForSuite } from './suite';

const JOURNAL = [
  'date,account,type,symbol,quantity,price,commission,fees,amount,currency',
  // A put sold and bought back: 1.00 + 0.12 and 0.12 of costs.
  '2024-03-04T15:00:00Z,IRA,SELL_TO_OPEN,PFE240419P00027000,1,0.80,1.00,0.12,78.88,USD',
  '2024-03-11T15:00:00Z,IRA,BUY_TO_CLOSE,PFE240419P00027000,1,0.20,0,0.12,-20.12,USD',
  // 100 shares bought and sold: 0.50 + 0.50.
  '2024-03-12T15:00:00Z,IRA,BUY,KO,100,60,0.50,0,-6000.50,USD',
  '2024-03-14T15:00:00Z,IRA,SELL,KO,100,61,0.50,0,6099.50,USD',
  // 30 shares sold that the file never bought: an unmatched close (its 1.00 commission is still charged).
  '2024-03-15T15:00:00Z,IRA,SELL,XYZ,30,20,1.00,0,599.00,USD',
  '2024-03-18T15:00:00Z,IRA,FEE,,0,0,0,0,-5.00,USD',
].join('\n');

/** `+$1,234.56` / `−$0.12` / `$0.00`: how the page writes a signed amount to the cent. */
function signedMoney(value: number): string {
  const text = `$${Math.abs(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  return value > 0 ? `+${text}` : value < 0 ? `−${text}` : text;
}

describe('the Journal page: commissions and unmatched closes', () => {
  const suite = serveForSuite({
    demo: false,
    prepare: async (served) => {
      await api(served, '/imports?broker=generic&filename=commissions.csv', { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: JOURNAL });
    },
  });

  it('shows the commissions of the month beside the standalone fees, and the close without an opening', async () => {
    const march = (await api<PerformanceResponseT>(suite.served(), '/journal/performance?date=2024-03-15')).monthly.summary;
    // 1.12 + 0.12 + 0.50 + 0.50 + 1.00 = 3.24; the FEE row alone is 5.00.
    expect(march.commissions).toBe(3.24);
    expect(march.fees).toBe(5);
    expect(march.unmatched).toEqual({ closes: 1, quantity: 30 });
    // Put 80 − 20 − 1.24 = 58.76; shares 100 − 1.00 = 99; the XYZ sale books nothing.
    expect(march.realizedPL).toBe(157.76);
    for (const theme of ['light', 'dark'] as const) {
      for (const width of [1440, 390]) {
        await suite.onPage({ width, theme }, async (page) => {
          await page.waitForSelector(PAGE_READY.journal);
          // The month of the file: the page offers to jump to the latest trade (18 March 2024).
          await page.getByRole('button', { name: 'Jump to 2024-03-18' }).click();
          await page.waitForFunction(() => document.querySelector('[data-testid="commissions-card"]')?.textContent?.includes('3.24') === true);
          const card = page.getByTestId('commissions-card');
          await expect.poll(() => card.textContent()).toContain(signedMoney(-3.24));
          expect(await card.textContent()).toContain(`fees ${signedMoney(-5)}`);
          expect(await page.getByTestId('realized-card').textContent()).toContain('1 close without an opening: P&L unknown');
          expect(await page.getByTestId('realized-card').textContent()).toContain(signedMoney(157.76));
          // The year's figure, in the trading-days panel: the same 3.24 (no other trade in 2024).
          expect(await page.getByTestId('year-commissions').textContent()).toBe(signedMoney(-3.24));
          await screenshot(page, `commissions-${width}-${theme}`);
        });
      }
    }
  });
});
