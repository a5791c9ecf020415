/**
 * The profile sweep behind gammaInflection and vannaFlip (docs/exposure.md): a profile over spot levels x, each
 * contract keeping its IV and T while its forward moves to F·x/S, evaluated on 201 points evenly spread
 * on [0.8S, 1.2S]; sign changes between kept points are bisected to a width ≤ 1e−6·S; the root nearest S
 * wins.
 *
 * Speed: with L = ln(x/S), d1(x) = d1(S) + L/(σ√T) and e^{−qT} does not depend on x, so each contract
 * costs one exp per point, taken by expNeg (fast-exp.ts: a table and a polynomial, 2 ulp, a third of Math.exp's time). Terms with |d1(x)| > 12 are skipped: φ(12) ≈ 5e−32 of the contract's own peak,
 * far below the rounding of any sum of such terms, so the result is the same to double precision.
 */
import { chebyshevClasses, chebyshevT, clenshaw, coefficientsOf, U_CENTRE, U_HALF } from './chebyshev';
import { expNeg } from './fast-exp';
import type { PreparedChain } from './prepare';
import { SWEEP_HIGH, SWEEP_LOW, SWEEP_POINTS } from './sweep-grid';

export { SWEEP_HIGH, SWEEP_LOW, SWEEP_POINTS } from './sweep-grid';
/** Points whose |profile| is at most this fraction of the largest |profile| are not used for sign changes. */
export const KEEP_THRESHOLD = 1e-6;
/** Bisection stops when the bracket is at most this fraction of S wide. */
export const ROOT_WIDTH = 1e-6;
const D1_CUTOFF = 12;

export type ProfileKind = 'gamma' | 'vanna';

/**
 * Profile value at spot level x over the given contracts:
 * gamma: Σ s·Γ(x)·OI·m (shares per $1); vanna: Σ s·vanna(x)·OI·m·x·0.01 ($ per vol point).
 */
export function profileAt(chain: PreparedChain, contracts: Int32Array, kind: ProfileKind, x: number): number {
  const shift = Math.log(x / chain.spot);
  const { d1, invSigmaSqrtT, sigmaSqrtT } = chain;
  const coef = kind === 'gamma' ? chain.gammaCoef : chain.vannaCoef;
  let sum = 0;
  for (let k = 0; k < contracts.length; k += 1) {
    const i = contracts[k] ?? 0;
    const d = (d1[i] ?? 0) + shift * (invSigmaSqrtT[i] ?? 0);
    if (d > D1_CUTOFF || d < -D1_CUTOFF) continue;
    const bell = (coef[i] ?? 0) * expNeg(-0.5 * d * d);
    sum += kind === 'gamma' ? bell : bell * (d - (sigmaSqrtT[i] ?? 0));
  }
  return kind === 'gamma' ? sum / x : sum * x * 0.01;
}

export interface SweepResult {
  /** Spot levels of the grid. */
  levels: Float64Array;
  values: Float64Array;
  /**
   * The profile at any level x in the window, as the sweep computed its points (the narrow terms one by one, the wide
   * ones from their interpolants): what the bisection evaluates.
   */
  at(x: number): number;
}

/** The 201-point grid of the profile, and the profile between its points. */
export function sweepProfile(chain: PreparedChain, contracts: Int32Array, kind: ProfileKind): SweepResult {
  const spot = chain.spot;
  const levels = new Float64Array(SWEEP_POINTS);
  const shifts = new Float64Array(SWEEP_POINTS);
  const step = (spot * (SWEEP_HIGH - SWEEP_LOW)) / (SWEEP_POINTS - 1);
  const low = spot * SWEEP_LOW;
  for (let p = 0; p < SWEEP_POINTS; p += 1) {
    const level = low + p * step;
    levels[p] = level;
    shifts[p] = Math.log(level / spot);
  }
  const shiftLow = shifts[0] ?? 0;
  const shiftHigh = shifts[SWEEP_POINTS - 1] ?? 0;
  const sums = new Float64Array(SWEEP_POINTS);
  const { d1, invSigmaSqrtT, sigmaSqrtT } = chain;
  const coefs = kind === 'gamma' ? chain.gammaCoef : chain.vannaCoef;
  const isGamma = kind === 'gamma';
  const classes = chebyshevClasses();
  const nodeSums = classes.map((c) => new Float64Array(c.nodes.length));
  // The contracts summed point by point, for `at`.
  const narrow = new Int32Array(contracts.length);
  let narrowCount = 0;
  for (let k = 0; k < contracts.length; k += 1) {
    const i = contracts[k] ?? 0;
    const coef = coefs[i] ?? 0;
    if (coef === 0) continue;
    const d0 = d1[i] ?? 0;
    const inv = invSigmaSqrtT[i] ?? 0;
    const sv = sigmaSqrtT[i] ?? 0;
    // A wide term (far-dated): sampled at its class's Chebyshev nodes (chebyshev.ts), d = α + βt.
    const beta = U_HALF * inv;
    let wide = -1;
    for (let c = 0; c < classes.length; c += 1) {
      if (beta <= (classes[c]?.maxBeta ?? 0)) {
        wide = c;
        break;
      }
    }
    if (wide >= 0) {
      const alpha = d0 + U_CENTRE * inv;
      if (Math.abs(alpha) - beta > D1_CUTOFF) continue;
      const nodes = classes[wide]?.nodes ?? new Float64Array(0);
      const acc = nodeSums[wide] ?? new Float64Array(0);
      for (let j = 0; j < nodes.length; j += 1) {
        const d = alpha + beta * (nodes[j] ?? 0);
        const bell = coef * expNeg(-0.5 * d * d);
        acc[j] = (acc[j] ?? 0) + (isGamma ? bell : bell * (d - sv));
      }
      continue;
    }
    // Range of ln(x/S) where |d1(x)| ≤ cutoff; outside it the term is invisible.
    const shiftFrom = (-D1_CUTOFF - d0) * sv;
    const shiftTo = (D1_CUTOFF - d0) * sv;
    if (shiftTo < shiftLow || shiftFrom > shiftHigh) continue;
    narrow[narrowCount] = i;
    narrowCount += 1;
    let pFrom = 0;
    let pTo = SWEEP_POINTS - 1;
    if (shiftFrom > shiftLow) pFrom = Math.max(0, Math.floor((spot * Math.exp(shiftFrom) - low) / step));
    if (shiftTo < shiftHigh) pTo = Math.min(SWEEP_POINTS - 1, Math.ceil((spot * Math.exp(shiftTo) - low) / step));
    if (isGamma) {
      for (let p = pFrom; p <= pTo; p += 1) {
        const d = d0 + (shifts[p] ?? 0) * inv;
        sums[p] = (sums[p] ?? 0) + coef * expNeg(-0.5 * d * d);
      }
    } else {
      for (let p = pFrom; p <= pTo; p += 1) {
        const d = d0 + (shifts[p] ?? 0) * inv;
        sums[p] = (sums[p] ?? 0) + coef * expNeg(-0.5 * d * d) * (d - sv);
      }
    }
  }
  const coefficients = classes.map((c, index) => coefficientsOf(c, nodeSums[index] ?? new Float64Array(0)));
  const wideAt = (t: number): number => {
    let sum = 0;
    for (const c of coefficients) sum += clenshaw(c, t);
    return sum;
  };
  for (let p = 0; p < SWEEP_POINTS; p += 1) {
    const level = levels[p] ?? 1;
    const sum = (sums[p] ?? 0) + wideAt(((shifts[p] ?? 0) - U_CENTRE) / U_HALF);
    sums[p] = isGamma ? sum / level : sum * level * 0.01;
  }
  const narrowContracts = narrow.subarray(0, narrowCount);
  const at = (x: number): number => {
    const value = profileAt(chain, narrowContracts, kind, x);
    const wide = wideAt(chebyshevT(x, spot));
    return value + (isGamma ? wide / x : wide * x * 0.01);
  };
  return { levels, values: sums, at };
}

interface Bracket {
  low: number;
  high: number;
  valueLow: number;
  /** Distance from S to the nearest point of the bracket. */
  distance: number;
}

/** The sign changes of a sampled profile between consecutive kept points (|value| > KEEP_THRESHOLD·max), ascending. */
function signChanges(sweep: SweepResult, spot: number): Bracket[] {
  const { levels, values } = sweep;
  let maxAbs = 0;
  for (const v of values) maxAbs = Math.max(maxAbs, Math.abs(v));
  if (!(maxAbs > 0)) return [];
  const threshold = KEEP_THRESHOLD * maxAbs;
  const brackets: Bracket[] = [];
  let previous = -1;
  for (let p = 0; p < values.length; p += 1) {
    const value = values[p] ?? 0;
    if (!(Math.abs(value) > threshold)) continue;
    if (previous >= 0) {
      const before = values[previous] ?? 0;
      if (before > 0 !== value > 0) {
        const low = levels[previous] ?? 0;
        const high = levels[p] ?? 0;
        const distance = spot < low ? low - spot : spot > high ? spot - high : 0;
        brackets.push({ low, high, valueLow: before, distance });
      }
    }
    previous = p;
  }
  return brackets;
}

/** Sign changes of a sampled profile between consecutive kept points, bisected; the root nearest S, else null. */
export function findRootNearestSpot(sweep: SweepResult, spot: number, evaluate: (x: number) => number): number | null {
  const brackets = signChanges(sweep, spot);
  if (brackets.length === 0) return null;
  brackets.sort((a, b) => a.distance - b.distance || a.low - b.low);
  let best: number | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const bracket of brackets) {
    // Brackets are disjoint: once the best root is nearer than a bracket's nearest point, none can win.
    if (bracket.distance > bestDistance) break;
    const root = bisect(bracket, spot, evaluate);
    const distance = Math.abs(root - spot);
    if (distance < bestDistance || (distance === bestDistance && best !== null && root < best)) {
      best = root;
      bestDistance = distance;
    }
  }
  return best;
}

/** Every sign change of a sampled profile between consecutive kept points, each bisected: the roots, ascending. */
export function findAllRoots(sweep: SweepResult, spot: number, evaluate: (x: number) => number): number[] {
  return signChanges(sweep, spot).map((bracket) => bisect(bracket, spot, evaluate));
}

/** The root nearest S (the lower on an exact tie), else null: the same choice as findRootNearestSpot. */
export function nearestRoot(roots: readonly number[], spot: number): number | null {
  let best: number | null = null;
  for (const root of roots) {
    if (best === null || Math.abs(root - spot) < Math.abs(best - spot)) best = root;
  }
  return best;
}

/** How many times the profile changes sign on [0.8S, 1.2S]: once (`ok`), more (`multiple`), never (`none`). */
export type FlipStatus = 'ok' | 'multiple' | 'none';

export function flipStatusOf(roots: readonly number[]): FlipStatus {
  return roots.length === 0 ? 'none' : roots.length === 1 ? 'ok' : 'multiple';
}

function bisect(bracket: Bracket, spot: number, evaluate: (x: number) => number): number {
  let { low, high, valueLow } = bracket;
  const width = ROOT_WIDTH * spot;
  while (high - low > width) {
    const mid = 0.5 * (low + high);
    const value = evaluate(mid);
    if (value === 0) return mid;
    if (value > 0 === valueLow > 0) {
      low = mid;
      valueLow = value;
    } else {
      high = mid;
    }
  }
  return 0.5 * (low + high);
}

/** Sweep + bisection for one kind of profile over the given contracts: the grid and the root, from one sweep. */
export function profileWithRoot(chain: PreparedChain, contracts: Int32Array, kind: ProfileKind): { sweep: SweepResult; root: number | null } {
  const sweep = sweepProfile(chain, contracts, kind);
  return { sweep, root: findRootNearestSpot(sweep, chain.spot, sweep.at) };
}

/** Sweep + every root for one kind of profile over the given contracts, from one sweep. */
export function profileWithRoots(chain: PreparedChain, contracts: Int32Array, kind: ProfileKind): { sweep: SweepResult; roots: number[] } {
  const sweep = sweepProfile(chain, contracts, kind);
  return { sweep, roots: findAllRoots(sweep, chain.spot, sweep.at) };
}

export function profileRoot(chain: PreparedChain, contracts: Int32Array, kind: ProfileKind): number | null {
  return profileWithRoot(chain, contracts, kind).root;
}
