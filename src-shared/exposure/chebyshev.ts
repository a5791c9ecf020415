/**
 * The sweep's wide terms by Chebyshev interpolation (docs/exposure.md, "Speed"). In t = (ln(x/S) − c)/h, which maps
 * the sweep's window [0.8S, 1.2S] onto [−1, 1], a contract's term is coef·e^{−(α + βt)²/2} (times (α + βt − σ√T) for
 * vanna) with β = h/(σ√T): a Gaussian whose width is 1/β of the window. Far-dated contracts have small β, and a sum
 * of such terms is an entire function that a polynomial of modest degree matches to rounding: sampled at n Chebyshev
 * nodes instead of the 201 sweep points, then evaluated at the points (and at the bisection's midpoints) from its
 * Chebyshev coefficients by Clenshaw's recurrence.
 *
 * Classes by β: up to 2 with 28 nodes, up to 4 with 48, up to 8 with 80; wider-β (near-dated) contracts are summed
 * point by point. Worst interpolation error of one term, over every α, relative to its peak: 3e−15 (β ≤ 2, n = 28),
 * 1.3e−14 (β ≤ 4, n = 48), 1.7e−14 (β ≤ 8, n = 80), for the Gaussian and for the vanna term alike (measured on 2,001
 * points per α; the floor is the rounding of the node sums). test/unit/shared/exposure/chain-picture.test.ts and
 * test/integration/main/server/routes/exposure.chain-picture.test.ts hold the sweep to the Math.exp definition, 1e−9 relative.
 */
import { SWEEP_HIGH, SWEEP_LOW } from './sweep-grid';

/** ln(x/S) at the ends of the window, its centre and half-width. */
export const U_LOW = Math.log(SWEEP_LOW);
export const U_HIGH = Math.log(SWEEP_HIGH);
export const U_CENTRE = 0.5 * (U_LOW + U_HIGH);
export const U_HALF = 0.5 * (U_HIGH - U_LOW);

export interface ChebyshevClass {
  /** Contracts with β = U_HALF/(σ√T) up to this go to the class. */
  maxBeta: number;
  /** Chebyshev nodes t_j = cos(π(j + ½)/n). */
  nodes: Float64Array;
  /** n × n, row k: (2/n)·cos(πk(j + ½)/n), halved for k = 0: node values to Chebyshev coefficients. */
  toCoefficients: Float64Array;
}

function chebyshevClass(maxBeta: number, n: number): ChebyshevClass {
  const nodes = new Float64Array(n);
  for (let j = 0; j < n; j += 1) nodes[j] = Math.cos((Math.PI * (j + 0.5)) / n);
  const toCoefficients = new Float64Array(n * n);
  for (let k = 0; k < n; k += 1) {
    for (let j = 0; j < n; j += 1) toCoefficients[k * n + j] = ((k === 0 ? 1 : 2) / n) * Math.cos((Math.PI * k * (j + 0.5)) / n);
  }
  return { maxBeta, nodes, toCoefficients };
}

let classes: ChebyshevClass[] | null = null;

/** The classes, ascending by maxBeta (built on first use). */
export function chebyshevClasses(): ChebyshevClass[] {
  classes ??= [chebyshevClass(2, 28), chebyshevClass(4, 48), chebyshevClass(8, 80)];
  return classes;
}

/** The Chebyshev coefficients c_k of the interpolant through a class's node values: f(t) = Σ_k c_k·T_k(t). */
export function coefficientsOf(chebyshev: ChebyshevClass, nodeValues: Float64Array): Float64Array {
  const n = chebyshev.nodes.length;
  const coefficients = new Float64Array(n);
  for (let k = 0; k < n; k += 1) {
    let sum = 0;
    const row = k * n;
    for (let j = 0; j < n; j += 1) sum += (chebyshev.toCoefficients[row + j] ?? 0) * (nodeValues[j] ?? 0);
    coefficients[k] = sum;
  }
  return coefficients;
}

/** Σ_k c_k·T_k(t) by Clenshaw's recurrence. */
export function clenshaw(coefficients: Float64Array, t: number): number {
  let next = 0;
  let afterNext = 0;
  for (let k = coefficients.length - 1; k >= 1; k -= 1) {
    const current = (coefficients[k] ?? 0) + 2 * t * next - afterNext;
    afterNext = next;
    next = current;
  }
  return (coefficients[0] ?? 0) + t * next - afterNext;
}

/** t of a spot level x: (ln(x/S) − c)/h. */
export function chebyshevT(x: number, spot: number): number {
  return (Math.log(x / spot) - U_CENTRE) / U_HALF;
}
