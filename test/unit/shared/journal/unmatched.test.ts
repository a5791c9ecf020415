/**
 * Unmatched closes (docs/journal.md §Unmatched closes): a close, sale, assignment or exercise that finds fewer open
 * units than it removes never opens the opposite position and never books P&L against a zero basis. Every figure is
 * computed by hand in the comments; each case failed before the rule (the old ledger opened phantom shorts and booked
 * proceeds as profit).
 */
import { describe, expect, it } from 'vitest';
import { allTime, ledgerOf, tx } from '../../../journal-helpers';

const HOOD_CALL = { expiration: '2021-10-15', strike: 50, right: 'C' as const };
const PUT = { expiration: '2024-06-21', strike: 45, right: 'P' as const };

describe('unmatched closes', () => {
  it('a sale of more shares than held closes what is held: no short, no P&L on the rest (Robinhood ASTS)', () => {
    const rows = [
      tx({ type: 'BUY', ticker: 'ASTS', quantity: 101, price: 10, commission: 1, at: '2024-03-01T10:00' }),
      tx({ type: 'SELL', ticker: 'ASTS', quantity: 200, price: 12, commission: 2, at: '2024-03-05T10:00', id: 'sale' }),
      tx({ type: 'BUY', ticker: 'ASTS', quantity: 50, price: 11, at: '2024-03-08T10:00' }),
    ];
    const ledger = ledgerOf(rows);
    const s = allTime(ledger).summary;
    // The 101 held: exit 2,400 × 101/200 = 1,212; costs 1.00 entry + 2.00 × 101/200 = 1.01 exit: 1,212 − 1,010 − 2.01.
    // The other 99 shares (1,188 of proceeds, 0.99 of commission) were bought before the history: left out.
    expect(s.stockPL, '1,212 − 1,010 − 1 − 1.01').toBe(199.99);
    expect(s.realizedPL).toBe(199.99);
    expect(s.unmatched, 'one row, 99 shares beyond what was held').toEqual({ closes: 1, quantity: 99 });
    // The later buy opens a long of 50: it books nothing against the 99 (the old ledger booked −1,974.96 here on the real file).
    expect(ledger.positions.map((p) => [p.symbol, p.quantity, p.entryGrossMinor])).toEqual([['ASTS', 50, 5_500_000]]);
    expect(ledger.realizedByTx.get('sale'), 'the row realized its matched part').toBe(1_999_900);
    expect(ledger.unmatched).toMatchObject([{ symbol: 'ASTS', quantity: 99, sideKnown: true, firstDay: '2024-03-05', closes: 1 }]);
    expect(s.commissions, 'every commission charged: 1 + 2').toBe(3);
  });

  it('an opening entered by hand on the day of the first unmatched close matches it, whatever the hour', () => {
    const rows = [
      tx({ type: 'BUY', ticker: 'ASTS', quantity: 101, price: 10, commission: 1, at: '2024-03-01T10:00' }),
      tx({ type: 'SELL', ticker: 'ASTS', quantity: 200, price: 12, commission: 2, at: '2024-03-05T10:00' }),
      // Dated 16:00 (a date-only entry), after the 10:00 sale: a manual opening counts from the start of its day.
      tx({ type: 'BUY', ticker: 'ASTS', quantity: 99, price: 8, at: '2024-03-05T16:00', source: 'manual' }),
    ];
    const ledger = ledgerOf(rows);
    // FIFO: the 101 (199.99 as above), then the 99 at 8: 1,188 − 792 − 0.99 = 395.01. Together: 2,400 − 2 − 1,011 − 792.
    expect(allTime(ledger).summary.stockPL, '199.99 + 395.01').toBe(595);
    expect(ledger.unmatched).toEqual([]);
    expect(ledger.positions).toEqual([]);
    // Not so for an imported row: the same buy from a file, after the sale, opens a long.
    const imported = ledgerOf([...rows.slice(0, 2), tx({ type: 'BUY', ticker: 'ASTS', quantity: 99, price: 8, at: '2024-03-05T16:00' })]);
    expect(imported.unmatched.map((u) => u.quantity)).toEqual([99]);
    expect(imported.positions.map((p) => p.quantity)).toEqual([99]);
  });

  it('a covered call assigned on shares bought before the history: the option closes, the delivery is unmatched (E*TRADE HOOD)', () => {
    const ledger = ledgerOf([
      tx({ type: 'SELL_TO_OPEN', ticker: 'HOOD', option: HOOD_CALL, quantity: 10, price: 1, commission: 6.5, at: '2021-09-20T11:00' }),
      tx({ type: 'ASSIGNMENT', ticker: 'HOOD', option: HOOD_CALL, quantity: 10, at: '2021-10-15T17:00' }),
      tx({ type: 'SELL', ticker: 'HOOD', quantity: 1000, price: 50, at: '2021-10-15T17:00' }),
    ]);
    const s = allTime(ledger).summary;
    // Premium 1.00 × 10 × 100 = 1,000 − 6.50 commission, realized when the assignment closes the call.
    expect(s.optionsPL, '1,000 − 6.50').toBe(993.5);
    expect(s.lockedInPremiums, 'a short option lot closed').toBe(993.5);
    // The 1,000 shares delivered at 50 were bought before the export: their P&L is unknown, not +50,000.
    expect(s.stockPL).toBe(0);
    expect(ledger.positions, 'no HOOD −1,000').toEqual([]);
    expect(ledger.unmatched).toMatchObject([{ symbol: 'HOOD', isOption: false, quantity: 1000, sideKnown: true, firstDay: '2021-10-15' }]);
    expect(s.unmatched).toEqual({ closes: 1, quantity: 1000 });
    // The campaign holds the call's story only: its premium and realized P&L, no share leg.
    expect(ledger.campaigns.map((c) => [c.realizedMinor, c.premiumsMinor, c.legs.length, c.closeDay])).toEqual([[9_935_000, 10_000_000, 2, '2021-10-15']]);
  });

  it('a buy-to-close with no open short books nothing; one with too few closes what there is', () => {
    const alone = ledgerOf([tx({ type: 'BUY_TO_CLOSE', ticker: 'ABC', option: PUT, quantity: 1, price: 0.4, fees: 0.12, at: '2024-05-01T10:00', id: 'btc' })]);
    // The old ledger booked −40.12 (the debit against a zero basis).
    expect(allTime(alone).summary.optionsPL).toBe(0);
    expect(alone.realizedByTx.get('btc'), 'realizedPL null: the row closed nothing known').toBeUndefined();
    expect(alone.unmatched).toMatchObject([{ symbol: 'ABC240621P00045000', quantity: -1, sideKnown: true }]);
    expect(alone.positions).toEqual([]);
    expect(alone.campaigns, 'no campaign of a close alone').toEqual([]);

    const partly = ledgerOf([
      tx({ type: 'SELL_TO_OPEN', ticker: 'ABC', option: PUT, quantity: 1, price: 1, at: '2024-05-01T10:00' }),
      tx({ type: 'BUY_TO_CLOSE', ticker: 'ABC', option: PUT, quantity: 3, price: 0.4, fees: 0.12, at: '2024-05-02T10:00' }),
    ]);
    // Of the 3 bought back, 1 was open: 100 − 120 × 1/3 − 0.12 × 1/3 = 100 − 40 − 0.04.
    expect(allTime(partly).summary.optionsPL, '100 − 40 − 0.04').toBe(59.96);
    expect(partly.unmatched.map((u) => u.quantity), 'two short contracts opened before the history').toEqual([-2]);
    // The campaign's option cash is its known part: +100 − 40.04.
    expect(partly.campaigns.map((c) => c.netOptionCashMinor)).toEqual([599_600]);
  });

  it('settlements: an assignment of nothing is a missing short, an exercise a missing long, an expiration a guess', () => {
    const ledger = ledgerOf([
      tx({ type: 'ASSIGNMENT', ticker: 'ABC', option: PUT, quantity: 2, fees: 5, at: '2024-06-21T17:00' }),
      tx({ type: 'EXERCISE', ticker: 'XYZ', option: PUT, quantity: 1, at: '2024-06-21T17:00' }),
      tx({ type: 'EXPIRATION', ticker: 'QQQ', option: PUT, quantity: 4, at: '2024-06-21T17:00' }),
    ]);
    expect(ledger.unmatched.map((u) => [u.underlying, u.quantity, u.sideKnown]).sort()).toEqual([
      ['ABC', -2, true],
      ['QQQ', -4, false],
      ['XYZ', 1, true],
    ]);
    const s = allTime(ledger).summary;
    // The assignment fee belongs to the unknown P&L of the unmatched contracts; it is still a commission charged.
    expect(s.optionsPL).toBe(0);
    expect(s.commissions).toBe(5);
    expect(s.unmatched).toEqual({ closes: 3, quantity: 7 });
  });

  it('a plain SELL of shares never opens a short; SELL_SHORT does, and BUY_TO_COVER beyond it is unmatched', () => {
    const ledger = ledgerOf([
      tx({ type: 'SELL', ticker: 'ABC', quantity: 10, price: 30, at: '2024-05-01T10:00' }),
      tx({ type: 'SELL_SHORT', ticker: 'XYZ', quantity: 10, price: 30, at: '2024-05-01T10:00' }),
      tx({ type: 'BUY_TO_COVER', ticker: 'XYZ', quantity: 15, price: 28, at: '2024-05-02T10:00' }),
    ]);
    // XYZ: 10 × (30 − 28) = 20 on the ten that were short; the other five were shorted before the history.
    expect(allTime(ledger).summary.stockPL).toBe(20);
    expect(ledger.positions).toEqual([]);
    expect(ledger.unmatched.map((u) => [u.symbol, u.quantity]).sort()).toEqual([
      ['ABC', 10],
      ['XYZ', -5],
    ]);
  });

  it('counts commissions on every fill and settlement, beside the standalone fees', () => {
    const ledger = ledgerOf([
      tx({ type: 'SELL_TO_OPEN', ticker: 'ABC', option: PUT, quantity: 2, price: 0.85, commission: 2, fees: 0.24, at: '2024-05-20T10:00' }),
      tx({ type: 'EXPIRATION', ticker: 'ABC', option: PUT, quantity: 2, fees: 0.01, at: '2024-06-21T17:00' }),
      tx({ type: 'BUY', ticker: 'ABC', quantity: 100, price: 44, commission: 0.5, at: '2024-06-24T10:00' }),
      tx({ type: 'FEE', ticker: 'ABC', amount: -3, at: '2024-06-25T10:00' }),
    ]);
    const s = allTime(ledger).summary;
    // 2.24 on the sale, 0.01 on the expiration, 0.50 on the open share lot (not yet inside any realized P&L).
    expect(s.commissions, '2.24 + 0.01 + 0.50').toBe(2.75);
    expect(s.fees, 'the FEE row alone').toBe(3);
    expect(s.optionsPL, '170 − 2.24 − 0.01: the costs are inside realized, not taken twice').toBe(167.75);
    expect(s.totalPL, '167.75 − 3').toBe(164.75);
    // The put's campaign ends flat at the expiry (2.24 + 0.01); the shares open the next one (0.50).
    expect(ledger.campaigns.map((c) => c.commissionsMinor)).toEqual([22_500, 5_000]);
  });
});
