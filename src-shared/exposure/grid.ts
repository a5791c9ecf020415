/**
 * The strike × expiration grid of net GEX (docs/exposure.md, "Grid"), for a heat map: one row per expiration of the
 * scope, one column per strike within [0.8S, 1.2S] that holds open interest in some expiration of the scope.
 */
import type { Formula } from './formulas';
import { lookupExpirations } from './expiration-scope';
import { formulaFactor } from './gex';
import type { PreparedChain } from './prepare';
import { SWEEP_HIGH, SWEEP_LOW } from './sweep';

export interface GexGridResult {
  symbol: string;
  stockPrice: number;
  formula: Formula;
  expirations: string[];
  /** Ascending, within [0.8S, 1.2S], with open interest in the scope. */
  strikes: number[];
  /** netGEX[e][k]: net GEX of expiration e at strike k in the formula's unit (0 where e lists no open interest there). */
  netGEX: number[][];
}

export function computeGexGrid(chain: PreparedChain, scope: { expirations: readonly string[]; formula: Formula }): GexGridResult {
  const expirations = lookupExpirations(chain, scope.expirations);
  const size = chain.strikes.length;
  const low = SWEEP_LOW * chain.spot;
  const high = SWEEP_HIGH * chain.spot;
  const factor = formulaFactor(scope.formula, chain.spot);
  // Column of each strike index in the grid (−1: outside the window or no open interest in scope).
  const column = new Int32Array(size).fill(-1);
  for (const e of expirations) {
    for (let i = e.start; i < e.end; i += 1) {
      const s = chain.strikeIndex[i] ?? 0;
      const strike = chain.strikes[s] ?? 0;
      if ((chain.openInterest[i] ?? 0) > 0 && strike >= low && strike <= high) column[s] = 0;
    }
  }
  const strikes: number[] = [];
  for (let s = 0; s < size; s += 1) {
    if (column[s] === 0) {
      column[s] = strikes.length;
      strikes.push(chain.strikes[s] ?? 0);
    }
  }
  const netGEX = expirations.map((e) => {
    const row = new Float64Array(strikes.length);
    for (let i = e.start; i < e.end; i += 1) {
      const c = column[chain.strikeIndex[i] ?? 0] ?? -1;
      if (c >= 0) row[c] = (row[c] ?? 0) + (chain.gammaShares[i] ?? 0);
    }
    return Array.from(row, (shares) => shares * factor);
  });
  return { symbol: chain.symbol, stockPrice: chain.spot, formula: scope.formula, expirations: expirations.map((e) => e.expiration), strikes, netGEX };
}
