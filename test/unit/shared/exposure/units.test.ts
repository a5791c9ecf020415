/**
 * Exposure's branded units (src-shared/exposure/units.ts). The `@ts-expect-error` lines are the test: the typecheck
 * compiles this file and fails the day a formula figure (or a bare number) passes where shares per $1 are expected.
 */
import { describe, expect, it } from 'vitest';
import type { ScopeView } from '../../../../src-shared/exposure/events';
import { formulaFactor } from '../../../../src-shared/exposure/gex';
import { gammaShares, inFormula, type GammaShares, type GexInFormula } from '../../../../src-shared/exposure/units';

describe('GammaShares and GexInFormula do not mix (compile-time)', () => {
  it('a $-per-1% figure is refused where the dead band wants shares per $1', () => {
    const shares = gammaShares(2_000);
    // per_1pct at S = 50: 2,000 shares/$1 × 50² × 0.01 = 50,000 $ per 1% move, by hand
    const per1Pct: GexInFormula = inFormula(shares, formulaFactor('per_1pct', 50));
    // @ts-expect-error a formula figure is no shares-per-$1 sum
    const mixed: GammaShares = per1Pct;
    // @ts-expect-error nor is a bare number
    const bare: Pick<ScopeView, 'totalShares'> = { totalShares: 2_000 };
    // @ts-expect-error shares are not a formula figure either
    const back: GexInFormula = shares;
    expect([per1Pct, mixed, bare.totalShares, back]).toEqual([50_000, 50_000, 2_000, 2_000]);
  });
});
