/**
 * The money brands (src-shared/nominal.ts, money.ts). The `@ts-expect-error` lines are the test: `npm run typecheck`
 * compiles this file (tsconfig.node.json takes test/**) and fails with "Unused '@ts-expect-error' directive" the day
 * a plain number, or cents, is accepted where minor units are expected. The assertions pin the helpers' arithmetic.
 */
import { describe, expect, it } from 'vitest';
import type { ImportedTransaction } from '../../../src-shared/journal/model';
import type { TotalsResult } from '../../../src-shared/journal/analytics';
import { addMinor, absMinor, asMinor, formatMinor, minorFields, minorToCents, negMinor, parseMoneyMinor, subMinor, toMinor, ZERO_MINOR, type Cents, type Minor } from '../../../src-shared/money';

/** A function of the kind the brand guards: it wants minor units. */
function doubled(amountMinor: Minor): Minor {
  return addMinor(amountMinor, amountMinor);
}

describe('Minor and Cents do not mix (compile-time)', () => {
  it('refuses cents, plain numbers and bare arithmetic where minor units are expected', () => {
    const priceMinor = toMinor(1.23);
    const priceCents: Cents = minorToCents(priceMinor);
    // @ts-expect-error cents (1.23) are not minor units (12,300)
    const mixed: Minor = priceCents;
    // @ts-expect-error a cents figure passed to a function of minor units
    doubled(priceCents);
    // @ts-expect-error a plain number has no unit: it comes through toMinor, parseMoneyMinor or the row mapping
    const bare: Minor = 12_300;
    // @ts-expect-error minor units are not cents either
    const back: Cents = priceMinor;
    // @ts-expect-error a sum of minor figures is a plain number: addMinor keeps the brand
    const sum: Minor = priceMinor + priceMinor;
    // Reading needs no conversion: a Minor is a number wherever a number is asked.
    const asNumber: number = priceMinor;
    expect([mixed, bare, back, sum, asNumber]).toEqual([1.23, 12_300, 12_300, 24_600, 12_300]);
  });

  it('the neutral transaction (what importers make) takes minor units only', () => {
    const fees: Pick<ImportedTransaction, 'feesMinor'> = { feesMinor: toMinor(0.65) };
    // @ts-expect-error cents where the neutral transaction wants minor units
    const wrong: Pick<ImportedTransaction, 'feesMinor'> = { feesMinor: minorToCents(toMinor(0.65)) };
    // @ts-expect-error a bare number too
    const bare: Pick<ImportedTransaction, 'feesMinor'> = { feesMinor: 6_500 };
    expect([fees.feesMinor, wrong.feesMinor, bare.feesMinor]).toEqual([6_500, 0.65, 6_500]);
  });
});

describe('Minor reaches the presenters (compile-time)', () => {
  it('minorToCents refuses a plain number, and a journal answer holds Minor', () => {
    // @ts-expect-error a sum that lost its brand (a + b) is refused where the JSON's cents are made
    const fromPlain = minorToCents(12_345);
    const fees: Pick<TotalsResult, 'feesMinor'> = { feesMinor: toMinor(1) };
    // @ts-expect-error a period's fees are minor units, not cents
    const feesInCents: Pick<TotalsResult, 'feesMinor'> = { feesMinor: minorToCents(toMinor(1)) };
    expect([fromPlain, fees.feesMinor, feesInCents.feesMinor]).toEqual([1.23, 10_000, 1]);
  });

  it('minorFields brands the …Minor fields of a loop\'s sums and leaves the counts alone', () => {
    const sums = minorFields({ feesMinor: 6_500, trades: 2 });
    const feesMinor: Minor = sums.feesMinor;
    // @ts-expect-error a count is no money
    const trades: Minor = sums.trades;
    expect([feesMinor, trades]).toEqual([6_500, 2]);
  });
});

describe('branded arithmetic', () => {
  it('adds, subtracts, negates and sums exactly, by hand', () => {
    const a = toMinor(0.1);
    const b = toMinor(0.2);
    expect(addMinor(a, b)).toBe(3_000); // 0.1 + 0.2 = 0.3 = 3,000 minor units, exactly
    expect(addMinor(a, b, toMinor(-0.3))).toBe(0);
    expect(subMinor(a, b)).toBe(-1_000);
    expect(negMinor(toMinor(-12.5))).toBe(125_000);
    expect(absMinor(toMinor(-12.5))).toBe(125_000);
    expect(addMinor(a, b, a)).toBe(4_000);
    expect(negMinor(ZERO_MINOR)).toBe(-0);
    expect(doubled(asMinor(7))).toBe(14);
    const parsed = parseMoneyMinor('$1,234.56');
    expect(parsed.ok && minorToCents(parsed.minor)).toBe(1234.56);
    expect(formatMinor(toMinor(-12.5))).toBe('-12.50');
    expect(formatMinor(toMinor(0.0325), 4)).toBe('0.0325');
  });
});
