/**
 * Exposure's units, branded (src-shared/nominal.ts, docs/exposure.md §Units): dealer gamma in shares per $1 move — the
 * nominal sums of the prepared chain — and a GEX figure in the unit of the request's formula (shares per $1, $ per
 * $1, $ per 1% move), which is those shares times `formulaFactor`. The events' flip dead band compares shares with
 * shares; a formula figure where shares are expected no longer compiles. Types only: nothing changes at run time.
 */
import type { Nominal } from '../nominal';

/** Dealer gamma in shares per $1 move of the underlying. */
export type GammaShares = Nominal<number, 'GammaShares'>;

/** A GEX figure in the unit of its formula: GammaShares × formulaFactor(formula, spot). */
export type GexInFormula = Nominal<number, 'GexInFormula'>;

/** A sum of the chain's shares-per-$1 columns (a Float64Array's cells are plain numbers), branded where it leaves the loop. */
export function gammaShares(shares: number): GammaShares {
  return shares as GammaShares;
}

/** Shares per $1 in the unit of a formula, by its factor (`formulaFactor`). */
export function inFormula(shares: GammaShares, factor: number): GexInFormula {
  return (shares * factor) as GexInFormula;
}
