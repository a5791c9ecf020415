/**
 * A campaign's collateral (issue 18; docs/journal.md §Campaigns, "Collateral"): a naked call is Reg T at the spot of
 * the snapshot at its entry, never 0; a strangle is Reg T too (the larger side plus the other side's premium); with no
 * snapshot the strike stands in and the rule says so; the timeline, the card and the peak read one figure per close;
 * a chain of shares alone is no campaign. Every figure is worked out by hand in the comments.
 */
import { describe, expect, it } from 'vitest';
import { buildLedger, type Ledger } from '../../../../src-shared/journal/index';
import { collateralOf, describeCollateral, type CollateralLeg, type SpotLookup } from '../../../../src-shared/journal/collateral';
import { isCampaign } from '../../../../src-shared/journal/campaigns';
import type { Transaction } from '../../../../src-shared/journal/model';
import { MINOR_PER_UNIT } from '../../../../src-shared/money';
import { tx, yearJson } from '../../../journal-helpers';

const CALL_190 = { expiration: '2024-02-16', strike: 190, right: 'C' as const };
const PUT_170 = { expiration: '2024-02-16', strike: 170, right: 'P' as const };
/** The snapshot of 2024-01-05 10:30 New York: spot 182.10. */
const SNAPSHOT = { spot: 182.1, quoteTime: '2024-01-05T15:30:00.000Z' };
const atEntry: SpotLookup = (underlying, atMs) => (underlying === 'XYZ' && atMs >= Date.parse(SNAPSHOT.quoteTime) ? SNAPSHOT : null);

function ledger(rows: readonly Transaction[], spotAt?: SpotLookup, timeline = false): Ledger {
  return buildLedger(rows, { reportingCurrency: 'USD', timeline, ...(spotAt === undefined ? {} : { spotAt }) });
}

const dollars = (minor: number | undefined) => (minor ?? NaN) / MINOR_PER_UNIT;

describe('Reg T collateral of a campaign', () => {
  it('a naked call: max(20 % of spot − out of the money, 10 % of spot) × 100 + premium, at the spot of the entry snapshot', () => {
    const rows = [tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: CALL_190, quantity: 1, price: 2.5, at: '2024-01-05T11:00' })];
    const [chain] = ledger(rows, atEntry).campaigns;
    // OTM 190 − 182.10 = 7.90; 20 % of 182.10 = 36.42; 36.42 − 7.90 = 28.52 > 18.21 (10 %): 2,852 + premium 250 = 3,102.
    expect(dollars(chain?.collateralPeakMinor)).toBe(3102);
    expect(chain?.collateralBasis).toEqual({ rule: 'reg_t', spot: 182.1, quoteTime: SNAPSHOT.quoteTime });
    expect(chain === undefined ? '' : describeCollateral(chain.collateralBasis)).toBe('Reg T, spot 182.10 from the 2024-01-05 snapshot');
  });

  it('a naked call without a snapshot: the strike stands in for the spot (never 0), and the rule says so', () => {
    const rows = [tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: CALL_190, quantity: 1, price: 2.5, at: '2024-01-05T11:00' })];
    for (const lookup of [undefined, () => null, () => ({ spot: 182.1, quoteTime: '2023-12-29T15:30:00.000Z' })]) {
      const [chain] = ledger(rows, lookup).campaigns;
      // At the money at 190: 20 % × 190 = 38 × 100 = 3,800 + 250 = 4,050 (a snapshot four trading days old describes no entry).
      expect(dollars(chain?.collateralPeakMinor)).toBe(4050);
      expect(chain === undefined ? '' : describeCollateral(chain.collateralBasis)).toBe('Reg T needs the spot at entry: no snapshot, strike used');
    }
  });

  it('a strangle: the larger side’s requirement plus the other side’s premium', () => {
    const rows = [
      tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: PUT_170, quantity: 1, price: 1.8, at: '2024-01-05T11:00' }),
      tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: CALL_190, quantity: 1, price: 2.5, at: '2024-01-05T11:00' }),
    ];
    const [chain] = ledger(rows, atEntry).campaigns;
    // Put: OTM 182.10 − 170 = 12.10; 36.42 − 12.10 = 24.32 → 2,432 + 180 = 2,612. Call: 3,102 (above).
    // The call side is larger: 3,102 + the put's premium 180 = 3,282.
    expect(dollars(chain?.collateralPeakMinor)).toBe(3282);
  });

  it('a short put alone stays cash-secured, and a covered call is the shares’ cost', () => {
    const put = ledger([tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: PUT_170, quantity: 2, price: 1.8, at: '2024-01-05T11:00' })], atEntry).campaigns[0];
    expect(dollars(put?.collateralPeakMinor), '170 × 100 × 2').toBe(34_000);
    expect(put?.collateralBasis).toEqual({ rule: 'cash_secured' });
    const covered = ledger(
      [
        tx({ type: 'BUY', ticker: 'XYZ', quantity: 100, price: 180, at: '2024-01-05T10:45' }),
        tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: CALL_190, quantity: 1, price: 2.5, at: '2024-01-05T11:00' }),
      ],
      atEntry,
    ).campaigns[0];
    expect(dollars(covered?.collateralPeakMinor), '100 × 180').toBe(18_000);
  });

  it('two calls on 100 shares: one is covered, the other naked (shares + its Reg T)', () => {
    const [chain] = ledger(
      [
        tx({ type: 'BUY', ticker: 'XYZ', quantity: 100, price: 180, at: '2024-01-05T10:45' }),
        tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: CALL_190, quantity: 2, price: 2.5, at: '2024-01-05T11:00' }),
      ],
      atEntry,
    ).campaigns;
    // 18,000 of shares + one naked call: 2,852 + its half of the 500 premium (250) = 21,102.
    expect(dollars(chain?.collateralPeakMinor)).toBe(21_102);
  });
});

describe('one figure per close: timeline, card and peak', () => {
  it('an assigned put: every step of the assignment day shows the close’s figure, and the peak is the largest step', () => {
    const put = { expiration: '2024-03-15', strike: 50, right: 'P' as const };
    const rows = [
      tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: put, quantity: 1, price: 2, at: '2024-03-01T10:00' }),
      // The delivered shares' row comes before the option's in the file: mid-day, both the put and the shares are held.
      tx({ type: 'BUY', ticker: 'XYZ', quantity: 100, price: 50, fees: 5, at: '2024-03-15T17:00' }),
      tx({ type: 'ASSIGNMENT', ticker: 'XYZ', option: put, quantity: 1, at: '2024-03-15T17:00' }),
    ];
    const [chain] = ledger(rows, undefined, true).campaigns;
    const steps = chain?.steps ?? [];
    expect(steps.map((s) => dollars(s.collateralMinor))).toEqual([5000, 5005, 5005]);
    // Peak: 03-01 close 5,000 (the put's strike); 03-15 close 5,005 (the shares at cost): the card's figure.
    expect(dollars(chain?.collateralPeakMinor)).toBe(5005);
    expect(Math.max(...steps.map((s) => s.collateralMinor))).toBe(chain?.collateralPeakMinor);
  });
});

describe('stock-only chains are no campaigns', () => {
  it('$25 fractional buys make a chain but no campaign', () => {
    const rows = [
      tx({ type: 'BUY', ticker: 'VTI', quantity: 0.1, price: 250, at: '2024-01-08T10:00' }),
      tx({ type: 'BUY', ticker: 'VTI', quantity: 0.1, price: 250, at: '2024-01-15T10:00' }),
      tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: PUT_170, quantity: 1, price: 1.8, at: '2024-01-05T11:00' }),
    ];
    const built = ledger(rows);
    const vti = built.campaigns.find((c) => c.underlying === 'VTI');
    const xyz = built.campaigns.find((c) => c.underlying === 'XYZ');
    expect(vti !== undefined && isCampaign(vti)).toBe(false);
    expect(xyz !== undefined && isCampaign(xyz)).toBe(true);
    // The summary's flat-to-flat chains still count both (a stock trader's win rate: ledger.public-cases.test.ts).
    expect(yearJson(built, 2024).stats.chains.opened).toBe(2);
  });
});

/** An option leg of `contracts` at `price` a share (premium 100 × price × contracts), no costs. */
function leg(side: 1 | -1, right: 'C' | 'P', strike: number, contracts: number, price: number, expiration = '2024-03-15', spot: number | null = null): CollateralLeg {
  return {
    isOption: true,
    expiration,
    strike,
    right,
    multiplier: 100,
    side,
    quantity: contracts,
    grossMinor: Math.round(price * 100 * contracts * MINOR_PER_UNIT),
    costsMinor: 0,
    entrySpot: spot === null ? null : { spot, quoteTime: '2024-03-01T14:45:00.000Z' },
  };
}

describe('collateralOf: one rule for every page (DESIGN §5, issue 27)', () => {
  it('put credit spreads at their width, whichever way their legs pair; the width sits on the short leg', () => {
    // 4600/4595 × 1 and 4550/4545 × 2 of one expiration, 4500/4495 × 1 of another: 500 + 1,000 + 500 = 2,000 (the
    // strike notional of the short puts, 1,830,000, was the campaign's figure).
    const legs = [
      leg(-1, 'P', 4600, 1, 3.1),
      leg(1, 'P', 4595, 1, 2.6),
      leg(-1, 'P', 4550, 2, 2),
      leg(1, 'P', 4545, 2, 1.7),
      leg(-1, 'P', 4500, 1, 1.4, '2024-03-22'),
      leg(1, 'P', 4495, 1, 1.2, '2024-03-22'),
    ];
    const measured = collateralOf(legs);
    expect(dollars(measured.collateralMinor)).toBe(2000);
    expect(measured.byLegMinor.map(dollars)).toEqual([500, 0, 1000, 0, 500, 0]);
    expect(measured.basis).toEqual({ rule: 'cash_secured' });
  });

  it('an iron condor is its wider side; a debit spread its debit; a lone long option its cost', () => {
    // Put side 95/90 (5 wide), call side 110/120 (10 wide): only one side can lose, 1,000.
    expect(dollars(collateralOf([leg(-1, 'P', 95, 1, 1.2), leg(1, 'P', 90, 1, 0.4), leg(-1, 'C', 110, 1, 1), leg(1, 'C', 120, 1, 0.3)]).collateralMinor)).toBe(1000);
    // Bull call 100/105 bought for 3.00 − 1.00: the 200 debit.
    expect(dollars(collateralOf([leg(1, 'C', 100, 1, 3), leg(-1, 'C', 105, 1, 1)]).collateralMinor)).toBe(200);
    expect(dollars(collateralOf([leg(1, 'P', 100, 2, 1.5)]).collateralMinor), '2 × 150').toBe(300);
  });

  it('a cash-secured put, a covered call, and a strangle’s Reg T with the strike standing in for a missing spot', () => {
    expect(dollars(collateralOf([leg(-1, 'P', 50, 2, 1)]).collateralMinor), '50 × 100 × 2').toBe(10_000);
    const shares: CollateralLeg = { isOption: false, expiration: null, strike: null, right: null, multiplier: 1, side: 1, quantity: 100, grossMinor: 4_800 * MINOR_PER_UNIT, costsMinor: MINOR_PER_UNIT, entrySpot: null };
    const covered = collateralOf([shares, leg(-1, 'C', 55, 1, 1)]);
    expect([dollars(covered.collateralMinor), covered.byLegMinor.map(dollars)], 'the shares at cost, 4,801; the call adds nothing').toEqual([4801, [4801, 0]]);
    // Spot 100: put 90 10 OTM → max(20 − 10, 10) × 100 = 1,000 + 100 premium; call 110 10 OTM → 1,000 + 150: the larger
    // side 1,150 plus the put's 100 = 1,250.
    const strangle = collateralOf([leg(-1, 'P', 90, 1, 1, '2024-03-15', 100), leg(-1, 'C', 110, 1, 1.5, '2024-03-15', 100)]);
    expect([dollars(strangle.collateralMinor), strangle.byLegMinor.map(dollars)]).toEqual([1250, [100, 1150]]);
    // Without a spot each leg's strike stands in: put at 90: 18 × 100 + 100 = 1,900; call at 110: 22 × 100 + 150 = 2,350.
    expect(dollars(collateralOf([leg(-1, 'P', 90, 1, 1), leg(-1, 'C', 110, 1, 1.5)]).collateralMinor), '2,350 + 100').toBe(2450);
  });
});

describe('a campaign of put spreads: the largest end-of-day sum of the spreads’ widths', () => {
  it('three spreads over a week: the busiest close holds two of them', () => {
    const put = (strike: number) => ({ expiration: '2024-03-15', strike, right: 'P' as const });
    const spread = (short: number, at: string, orderId: string, contracts = 1) => [
      tx({ type: 'SELL_TO_OPEN', ticker: 'SPXW', option: put(short), quantity: contracts, price: 3, at, orderId }),
      tx({ type: 'BUY_TO_OPEN', ticker: 'SPXW', option: put(short - 5), quantity: contracts, price: 2.5, at, orderId }),
    ];
    const rows = [
      ...spread(5000, '2024-03-04T10:00', 'a'),
      ...spread(4950, '2024-03-05T10:00', 'b', 2),
      tx({ type: 'BUY_TO_CLOSE', ticker: 'SPXW', option: put(5000), quantity: 1, price: 1, at: '2024-03-06T10:00', orderId: 'c' }),
      tx({ type: 'SELL_TO_CLOSE', ticker: 'SPXW', option: put(4995), quantity: 1, price: 0.8, at: '2024-03-06T10:00', orderId: 'c' }),
      ...spread(4900, '2024-03-07T10:00', 'd'),
    ];
    const [campaign] = ledger(rows).campaigns;
    // 03-05 close: 5 × 100 + 5 × 100 × 2 = 1,500; 03-07 close: 1,000 + 500 = 1,500; never the strikes (1,495,000).
    expect(dollars(campaign?.collateralPeakMinor)).toBe(1500);
  });
});
