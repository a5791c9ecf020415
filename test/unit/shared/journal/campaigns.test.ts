/**
 * Campaigns (docs/journal.md §Campaigns: flat to flat; DESIGN §5 "Assignment, collateral and levels in trades"):
 * - a dividend belongs to the campaign that held the shares on its ex-date: the one holding them on the payment day,
 *   else the one whose shares left most recently, within DIVIDEND_EX_WINDOW_DAYS before the payment; else it is the
 *   account's (never a campaign that holds no shares);
 * - a campaign whose expiry is unknown (its open positions are all options past their expiration day, with no row
 *   settling them) takes no later trade: a later opening starts a campaign of its own.
 * Every figure is written out by hand in the comments.
 */
import { describe, expect, it } from 'vitest';
import { DIVIDEND_EX_WINDOW_DAYS } from '../../../../src-shared/journal/campaigns';
import { allTime, ledgerOf, tx } from '../../../journal-helpers';

const P50 = { expiration: '2024-03-15', strike: 50, right: 'P' as const };
const C52 = { expiration: '2024-04-19', strike: 52, right: 'C' as const };
const P48 = { expiration: '2024-05-17', strike: 48, right: 'P' as const };

/** Put assigned, covered call called away (the shares leave on 19 April), then a new put sold on a later day. */
function calledAway() {
  return [
    tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: P50, quantity: 1, price: 2, at: '2024-03-01T10:00' }),
    tx({ type: 'ASSIGNMENT', ticker: 'XYZ', option: P50, quantity: 1, at: '2024-03-15T17:00' }),
    tx({ type: 'BUY', ticker: 'XYZ', quantity: 100, price: 50, at: '2024-03-15T17:00' }),
    tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: C52, quantity: 1, price: 1.5, at: '2024-03-18T10:00' }),
    tx({ type: 'ASSIGNMENT', ticker: 'XYZ', option: C52, quantity: 1, at: '2024-04-19T17:00' }),
    tx({ type: 'SELL', ticker: 'XYZ', quantity: 100, price: 52, at: '2024-04-19T17:00' }),
    // Flat at the close of 19 April: the wheel's campaign ends; this put opens a second one (no shares).
    tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: P48, quantity: 1, price: 1, at: '2024-04-22T10:00' }),
  ];
}

describe('dividends go to the campaign that held the shares', () => {
  it('a dividend paid after the shares were called away goes to the campaign that held them, not to the put-only one', () => {
    // Paid 1 May, 12 days after the shares left: the ex-date fell while the wheel's campaign held them.
    const ledger = ledgerOf([...calledAway(), tx({ type: 'DIVIDEND', ticker: 'XYZ', amount: 25, at: '2024-05-01T09:00' })]);
    expect(ledger.campaigns.map((c) => [c.openDay, c.closeDay, c.dividendsMinor])).toEqual([
      ['2024-03-01', '2024-04-19', 250_000],
      ['2024-04-22', null, 0],
    ]);
    // The wheel: put 200 + call 150 + stock (52 − 50) × 100 = 550, and the 25 dividend.
    expect(ledger.campaigns[0]?.plMinor, '550 + 25').toBe(5_750_000);
    expect(ledger.accountDividends, 'nothing is left to the account').toEqual([]);
  });

  it('the dividend row is a leg of the campaign it goes to, with its cash in the timeline', () => {
    const dividend = tx({ type: 'DIVIDEND', ticker: 'XYZ', amount: 25, at: '2024-05-01T09:00' });
    const ledger = ledgerOf([...calledAway(), dividend]);
    expect(ledger.campaigns[0]?.legs).toContain(dividend.id);
    expect(ledger.campaigns[1]?.legs).not.toContain(dividend.id);
  });

  it('held on the payment day: the campaign holding the shares then', () => {
    // Paid 1 April, while the covered call's campaign holds the 100 shares.
    const ledger = ledgerOf([...calledAway(), tx({ type: 'DIVIDEND', ticker: 'XYZ', amount: 25, at: '2024-04-01T09:00' })]);
    expect(ledger.campaigns.map((c) => c.dividendsMinor)).toEqual([250_000, 0]);
  });

  it(`no campaign held shares within ${DIVIDEND_EX_WINDOW_DAYS} days before the payment: an account-level dividend, counted in the summaries`, () => {
    expect(DIVIDEND_EX_WINDOW_DAYS, 'the longest ex-date-to-payment gap taken for granted').toBe(60);
    // The shares left on 19 April; paid 1 July, 73 days later: whoever held them on the ex-date, the journal does not show it.
    const ledger = ledgerOf([...calledAway(), tx({ type: 'DIVIDEND', ticker: 'XYZ', amount: 25, at: '2024-07-01T09:00' })]);
    expect(ledger.campaigns.map((c) => c.dividendsMinor), 'never the put-only campaign').toEqual([0, 0]);
    expect(ledger.accountDividends).toEqual([{ accountId: 'acct', currency: 'USD', dividendsMinor: 250_000 }]);
    expect(allTime(ledger).summary.dividends, 'the summaries count it').toBe(25);
  });

  it('shares never held in the journal (a dividend on a ticker only optioned): the account’s, withholding netted', () => {
    const ledger = ledgerOf([
      tx({ type: 'SELL_TO_OPEN', ticker: 'KO', option: { expiration: '2024-06-21', strike: 55, right: 'P' }, quantity: 1, price: 1, at: '2024-05-01T10:00' }),
      tx({ type: 'DIVIDEND', ticker: 'KO', amount: 48.5, at: '2024-05-10T09:00' }),
      tx({ type: 'DIVIDEND', ticker: 'KO', amount: -7.28, at: '2024-05-10T09:00' }),
    ]);
    expect(ledger.campaigns.map((c) => c.dividendsMinor)).toEqual([0]);
    // 48.50 − 7.28 = 41.22.
    expect(ledger.accountDividends).toEqual([{ accountId: 'acct', currency: 'USD', dividendsMinor: 412_200 }]);
  });

  it('the last holder within the window, even when a later campaign opened and closed without shares', () => {
    const ledger = ledgerOf([
      ...calledAway(),
      tx({ type: 'BUY_TO_CLOSE', ticker: 'XYZ', option: P48, quantity: 1, price: 0.2, at: '2024-04-24T10:00' }),
      tx({ type: 'DIVIDEND', ticker: 'XYZ', amount: 25, at: '2024-05-01T09:00' }),
    ]);
    expect(ledger.campaigns.map((c) => [c.openDay, c.closeDay, c.dividendsMinor])).toEqual([
      ['2024-03-01', '2024-04-19', 250_000],
      ['2024-04-22', '2024-04-24', 0],
    ]);
  });
});

describe('a campaign whose expiry is unknown takes no later trade', () => {
  const SPX22 = { expiration: '2022-01-21', strike: 4300, right: 'P' as const };
  const SPX26 = { expiration: '2026-03-20', strike: 5800, right: 'P' as const };

  it('a 2026 put after a 2022 put no row settled starts its own campaign', () => {
    const ledger = ledgerOf([
      tx({ type: 'SELL_TO_OPEN', ticker: 'SPX', option: SPX22, quantity: 1, price: 10, at: '2022-01-03T10:00' }),
      tx({ type: 'SELL_TO_OPEN', ticker: 'SPX', option: SPX26, quantity: 1, price: 20, at: '2026-03-02T10:00' }),
    ]);
    expect(ledger.campaigns.map((c) => [c.id, c.openDay, c.closeDay, c.premiumsMinor])).toEqual([
      // The 2022 campaign stays open: its expiry is unknown (needsAttention), its P&L too.
      ['acct:USD:SPX:2022-01-03', '2022-01-03', null, 10_000_000],
      ['acct:USD:SPX:2026-03-02', '2026-03-02', null, 20_000_000],
    ]);
    expect(ledger.positions.map((p) => [p.symbol, p.campaignId])).toEqual([
      ['SPX220121P04300000', 'acct:USD:SPX:2022-01-03'],
      ['SPX260320P05800000', 'acct:USD:SPX:2026-03-02'],
    ]);
    // The 2026 campaign's collateral is its own put: 5,800 × 100 = 580,000 (the 2022 put's 430,000 is not in it).
    expect(ledger.campaigns[1]?.collateralPeakMinor).toBe(5_800_000_000);
  });

  it('an expiration booked the next trading day settles the old campaign; the day’s new put is a campaign of its own', () => {
    // A date-only export (every row 16:00) that books Friday's expiration on Monday: Monday's sale comes first (openings
    // before settlements at one instant) and finds only an option past its expiration day.
    const P10 = { expiration: '2024-05-17', strike: 10, right: 'P' as const };
    const P9 = { expiration: '2024-06-21', strike: 9, right: 'P' as const };
    const ledger = ledgerOf([
      tx({ type: 'SELL_TO_OPEN', ticker: 'AAA', option: P10, quantity: 1, price: 0.5, at: '2024-05-01T16:00' }),
      tx({ type: 'SELL_TO_OPEN', ticker: 'AAA', option: P9, quantity: 1, price: 0.3, at: '2024-05-20T16:00' }),
      tx({ type: 'EXPIRATION', ticker: 'AAA', option: P10, quantity: 1, at: '2024-05-20T16:00' }),
    ]);
    expect(ledger.campaigns.map((c) => [c.openDay, c.closeDay, c.realizedMinor, c.premiumsMinor])).toEqual([
      // The 10 put's premium, 50, realized on its campaign, which closes when the row settles it.
      ['2024-05-01', '2024-05-20', 500_000, 500_000],
      ['2024-05-20', null, 0, 300_000],
    ]);
    expect(ledger.rolls, 'an expiration and a new sale are no roll').toEqual([]);
  });

  it('shares held keep the campaign alive: a later call joins it', () => {
    const ledger = ledgerOf([
      tx({ type: 'BUY', ticker: 'BBB', quantity: 100, price: 20, at: '2024-01-02T10:00' }),
      tx({ type: 'SELL_TO_OPEN', ticker: 'BBB', option: { expiration: '2024-02-16', strike: 22, right: 'C' }, quantity: 1, price: 0.5, at: '2024-01-03T10:00' }),
      tx({ type: 'SELL_TO_OPEN', ticker: 'BBB', option: { expiration: '2024-04-19', strike: 22, right: 'C' }, quantity: 1, price: 0.5, at: '2024-03-01T10:00' }),
    ]);
    expect(ledger.campaigns.map((c) => [c.openDay, c.closeDay])).toEqual([['2024-01-02', null]]);
  });
});
