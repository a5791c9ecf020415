/**
 * The floor that `exposure.gex_whole_chain_vs_floor` measures the whole-chain /gex against (docs/decisions.md
 * §Benchmarks): what no profile over these contracts can undercut. Per contract and per sweep point one Math.exp,
 * one Math.log and one Math.sqrt, on the contract's own σ√T and d1 and the point's level, summed into a result the
 * caller checks, so that the engine cannot drop the work.
 */
import { SWEEP_HIGH, SWEEP_LOW, SWEEP_POINTS } from '../src-shared/exposure/sweep';
import { usableContracts } from '../src-shared/exposure/gex';
import type { PreparedChain } from '../src-shared/exposure/prepare';

export interface FloorInput {
  /** σ√T and d1 at spot of each contract the whole-chain sweep visits. */
  sigmaSqrtT: Float64Array;
  d1: Float64Array;
  /** The sweep's levels x/S. */
  levels: Float64Array;
}

/** The contracts a /gex over every expiration of the chain sweeps (the usable ones), and the sweep's 201 levels. */
export function floorInput(chain: PreparedChain): FloorInput {
  const swept = usableContracts(chain, chain.expirations);
  const levels = new Float64Array(SWEEP_POINTS);
  for (let p = 0; p < SWEEP_POINTS; p += 1) levels[p] = SWEEP_LOW + ((SWEEP_HIGH - SWEEP_LOW) * p) / (SWEEP_POINTS - 1);
  return {
    sigmaSqrtT: Float64Array.from(swept, (i) => chain.sigmaSqrtT[i] ?? 0),
    d1: Float64Array.from(swept, (i) => chain.d1[i] ?? 0),
    levels,
  };
}

export function floorLoop({ sigmaSqrtT, d1, levels }: FloorInput): number {
  let sum = 0;
  for (let i = 0; i < sigmaSqrtT.length; i += 1) {
    const width = sigmaSqrtT[i] ?? 0;
    const d = d1[i] ?? 0;
    for (let p = 0; p < levels.length; p += 1) {
      const level = levels[p] ?? 1;
      sum += Math.exp(-0.5 * d * level) + Math.log(level + width) + Math.sqrt(level * width);
    }
  }
  return sum;
}
