/**
 * Delta exposure (docs/exposure.md, "Delta exposure"): the open interest's own delta in shares, Σ Δ·OI·m. At spot it is
 * `deltaShares` of the prepared chain (per strike on /gex); `deltaAt` moves the spot to x the way the gamma profile
 * does (each contract keeps IV and T, its forward moves to F·x/S), so that d(DEX)/dx is the profile's Σ Γ·OI·m.
 */
import { INV_SQRT_2PI, normCdf } from './greeks';
import type { PreparedChain } from './prepare';

/**
 * Σ Δ(x)·OI·m over the given contracts at a hypothetical spot x. With e^{−qT} unchanged by x and
 * d1(x) = d1 + ln(x/S)/(σ√T): Δ·OI·m = s·OI·m·e^{−qT}·N(s·d1(x)), where s·OI·m·e^{−qT} = gammaCoef·σ√T·√(2π).
 */
export function deltaAt(chain: PreparedChain, contracts: Int32Array, x: number): number {
  const shift = Math.log(x / chain.spot);
  let sum = 0;
  for (let k = 0; k < contracts.length; k += 1) {
    const i = contracts[k] ?? 0;
    const sign = chain.isCall[i] === 1 ? 1 : -1;
    const weight = ((chain.gammaCoef[i] ?? 0) * (chain.sigmaSqrtT[i] ?? 0)) / INV_SQRT_2PI;
    sum += weight * normCdf(sign * ((chain.d1[i] ?? 0) + shift * (chain.invSigmaSqrtT[i] ?? 0)));
  }
  return sum;
}
