/**
 * e^q for q ≤ 0, without Math.exp: the profile sweeps evaluate about three million Gaussian terms on a whole SPX chain,
 * and V8's Math.exp (a call into the runtime's fdlibm) was nearly all of their time (docs/exposure.md, "Speed").
 *
 * Tang's table method: q = (k/N)·ln2 + r with N = 256 and |r| ≤ ln2/512, so e^q = 2^⌊k/N⌋ · 2^{(k mod N)/N} · e^r,
 * the two powers of two from tables and e^r from its Taylor polynomial to r⁴/24 (the r⁵/120 left out is below 4e−17).
 * k·ln2/N is taken off q in two parts (fdlibm's ln2_hi has 32 trailing zero bits, so k·ln2_hi is exact), so r carries
 * no rounding of the reduction. Relative error below 1e−15 over q ∈ [−708, 0] (below, e^q is subnormal and the error absolute, under 2^−1074) (test/unit/shared/exposure/chain-picture.test.ts, "the sweep's exp"),
 * a million times inside the 1e−9 the sweep's results are held to; 0 below −745, where e^q underflows anyway.
 */

const BITS = 8;
const N = 1 << BITS;
const INV_STEP = N / Math.LN2;
/** fdlibm's split of ln 2 (e_exp.c), each divided by N (exact: N is a power of two). */
const STEP_HI = 6.93147180369123816490e-1 / N;
const STEP_LO = 1.90821492927058770002e-10 / N;
/** 2^{j/N}, j = 0..N−1. */
const FRACTION = new Float64Array(N);
for (let j = 0; j < N; j += 1) FRACTION[j] = 2 ** (j / N);
/** 2^m for m = −OFFSET..0, at index m + OFFSET (exact: integer powers of two, subnormals down to 2^−1074). */
const OFFSET = 1100;
const WHOLE = new Float64Array(OFFSET + 1);
for (let m = -OFFSET; m <= 0; m += 1) WHOLE[m + OFFSET] = 2 ** m;
/** Below this e^q is 0 in double precision. */
const UNDERFLOW = -745.2;

/** e^q for q ≤ 0 (q > 0 is outside its contract: the callers pass −d²/2). */
export function expNeg(q: number): number {
  if (q < UNDERFLOW) return 0;
  // Round to nearest for q ≤ 0: truncation of y − 0.5 (|y| < 2^19 here, inside int32).
  const k = (q * INV_STEP - 0.5) | 0;
  const r = q - k * STEP_HI - k * STEP_LO;
  const poly = 1 + r * (1 + r * (0.5 + r * (1 / 6 + r * (1 / 24))));
  return (FRACTION[k & (N - 1)] ?? 0) * poly * (WHOLE[(k >> BITS) + OFFSET] ?? 0);
}
