/**
 * The demo shows the headline feature (DESIGN §2, issue 18): the demo wheel trades the demo market's symbols and leaves
 * open a covered call, a cash-secured put and a strangle, on contracts the demo market lists, marked by snapshots of the
 * last trading day before the demo's today (fresh), with expirations on NYSE trading days and no negative DTE.
 */
import { describe, expect, it } from 'vitest';
import { addDays, daysBetween } from '../../../../src-shared/calendar';
import { DEMO_JOURNAL_SEED, demoTransactions } from '../../../../src-shared/demo/journal';
import { DEMO_SEED, DEMO_SYMBOLS, demoMarket, demoMarketDay } from '../../../../src-shared/demo/market';
import { buildLedger } from '../../../../src-shared/journal/index';
import { isTradingDay, tradingDaysAfter } from '../../../../src-shared/trading-days';
import { dayOfInstant } from '../../../../src-shared/zone';
import { stored } from '../../../journal-helpers';

/** What is open at the end of the demo journal of `today`: signed quantities by symbol. */
function openBook(today: string) {
  const rows = demoTransactions(DEMO_JOURNAL_SEED, today);
  const ledger = buildLedger(stored(rows), { reportingCurrency: 'USD' });
  return { rows, ledger, open: ledger.positions.filter((p) => p.quantity !== 0) };
}

describe('the demo journal on the demo market', () => {
  it('the market day is the last NYSE trading day before today', () => {
    // Thanksgiving 2026 (Thu 26 Nov) → Wed 25; a Monday → the Friday; Tue 5 Jan 2027 → Mon 4; New Year's Day → 31 Dec.
    expect(demoMarketDay('2026-11-26')).toBe('2026-11-25');
    expect(demoMarketDay('2026-11-30')).toBe('2026-11-27');
    expect(demoMarketDay('2027-01-05')).toBe('2027-01-04');
    expect(demoMarketDay('2027-01-01')).toBe('2026-12-31');
    // Good Friday 2026 is 3 April: the Monday after it looks back to Thursday 2 April.
    expect(demoMarketDay('2026-04-06')).toBe('2026-04-02');
  });

  it('leaves a covered call, a cash-secured put and a strangle open, whatever day it is loaded on', () => {
    for (let today = '2025-01-03'; today <= '2027-01-03'; today = addDays(today, 9)) {
      const { open, rows } = openBook(today);
      const of = (ticker: string) => open.filter((p) => p.underlying === ticker);
      const aapl = of('AAPL');
      expect(aapl.find((p) => !p.isOption)?.quantity, `${today}: 100 AAPL shares held`).toBe(100);
      expect(aapl.filter((p) => p.isOption).map((p) => [p.right, p.quantity]), `${today}: covered by one short call`).toEqual([['C', -1]]);
      const tsla = of('TSLA');
      expect(tsla.map((p) => [p.right, p.quantity]), `${today}: one cash-secured TSLA put`).toEqual([['P', -1]]);
      const spy = of('SPY');
      expect(spy.map((p) => p.right).sort(), `${today}: a SPY strangle`).toEqual(['C', 'P']);
      expect(new Set(spy.map((p) => p.expiration)).size, `${today}: both legs on one expiration`).toBe(1);
      const spyOpens = rows.filter((t) => t.underlying === 'SPY' && t.type === 'SELL_TO_OPEN').slice(-2);
      expect(spyOpens[0]?.orderId, `${today}: one order`).toBe(spyOpens[1]?.orderId);
      expect(open.length, `${today}: nothing else open`).toBe(5);
    }
  });

  it('has no KO option expiring on Christmas 2026, a market holiday (issue 18), whatever December day it loads on', () => {
    for (let today = '2026-11-20'; today <= '2027-01-10'; today = addDays(today, 1)) {
      const { rows } = openBook(today);
      expect(rows.some((t) => t.underlying === 'KO'), `${today}: KO is no demo market symbol`).toBe(false);
      expect(rows.filter((t) => t.expiration === '2026-12-25').map((t) => t.symbol), `${today}: nothing expires on 2026-12-25`).toEqual([]);
    }
  });

  it('trades only the demo market’s symbols, on NYSE trading days, with expirations on trading days', () => {
    for (const today of ['2026-11-26', '2027-01-01', '2026-04-06', '2025-06-30']) {
      const { rows } = openBook(today);
      for (const t of rows) {
        expect((DEMO_SYMBOLS as readonly string[]).includes(t.underlying), `${t.underlying} is a demo market symbol`).toBe(true);
        expect(isTradingDay(dayOfInstant(t.tradeDate)), `${t.description} on ${t.tradeDate}: a trading day`).toBe(true);
        if (t.expiration !== null) expect(isTradingDay(t.expiration), `${t.symbol}: expires on a trading day`).toBe(true);
        expect(dayOfInstant(t.tradeDate) <= demoMarketDay(today), 'nothing after the market day').toBe(true);
      }
    }
  });

  it('every open contract is in the market’s last snapshot: marked fresh, DTE positive, out of the money by a sane margin', () => {
    for (const today of ['2026-11-26', '2027-01-01', '2026-04-06', '2026-07-06']) {
      const day = demoMarketDay(today);
      const market = demoMarket(DEMO_SEED, day);
      const { open } = openBook(today);
      for (const p of open) {
        const last = market.filter((s) => s.symbol === p.underlying).at(-1);
        expect(last, `${p.underlying} has snapshots`).toBeDefined();
        if (!last) continue;
        expect(dayOfInstant(last.quoteTime)).toBe(day);
        // Fresh: markMaxAgeDays is 2 trading days by default; the market is at most one session old.
        expect(tradingDaysAfter(day, today), `${today}: mark age`).toBeLessThanOrEqual(1);
        if (!p.isOption || p.expiration === null || p.strike === null) continue;
        const contract = last.contracts.find((c) => c.root === p.underlying && c.expiration === p.expiration && c.strike === p.strike && c.right === p.right);
        expect(contract, `${today}: ${p.symbol} is listed`).toBeDefined();
        expect(contract?.ask ?? 0, `${p.symbol} has a quote`).toBeGreaterThan(0);
        expect(daysBetween(today, p.expiration), `${today}: ${p.symbol} DTE`).toBeGreaterThan(0);
        const otm = p.right === 'P' ? (last.spot - p.strike) / last.spot : (p.strike - last.spot) / last.spot;
        expect(otm, `${p.symbol} is out of the money at the close (spot ${last.spot})`).toBeGreaterThan(0);
        expect(otm, `${p.symbol} within the market's near strikes`).toBeLessThan(0.25);
      }
    }
  });
});
