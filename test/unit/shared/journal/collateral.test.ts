/**
 * A campaign's collateral (issue 18; docs/journal.md §Campaigns, "Collateral"): a naked call is Reg T at the spot of
 * the snapshot at its entry, never 0; a strangle is Reg T too (the larger side plus the other side's premium); with no
 * snapshot the strike stands in and the rule says so; the timeline, the card and the peak read one figure per close;
 * a chain of shares alone is no campaign. Every figure is worked out by hand in the comments.
 */
import { describe, expect, it } from 'vitest';
import { buildLedger, type Ledger } from '../../../../src-shared/journal/index';
import { describeCollateral, type SpotLookup } from '../../../../src-shared/journal/collateral';
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
