/**
 * Black–Scholes–Merton greeks written on the forward (docs/exposure.md). The carry is implied by the forward:
 * e^{−qT} = DF·F/S with DF = e^{−rT}, and b = r − q = ln(F/S)/T. Everything is per share.
 */

export const INV_SQRT_2PI = 0.3989422804014327;

/** Standard normal density φ(x). */
export function normPdf(x: number): number {
  return INV_SQRT_2PI * Math.exp(-0.5 * x * x);
}

/**
 * Standard normal distribution N(x): Hart's double-precision algorithm as given by G. West, "Better
 * approximations to cumulative normal functions" (2005); absolute error below 1e−14, which the finite
 * difference tests of charm need (the classic 7.1.26 polynomial is only good to 1e−7).
 */
export function normCdf(x: number): number {
  const z = Math.abs(x);
  let tail: number;
  if (z > 37) {
    tail = 0;
  } else {
    const e = Math.exp(-0.5 * z * z);
    if (z < 7.07106781186547) {
      // Horner's rule on West's coefficients, written out (no array, no loop: this runs per contract per sweep point).
      const n = ((((((3.52624965998911e-2 * z + 0.700383064443688) * z + 6.37396220353165) * z + 33.912866078383) * z + 112.079291497871) * z + 221.213596169931) * z + 220.206867912376);
      const d = (((((((8.83883476483184e-2 * z + 1.75566716318264) * z + 16.064177579207) * z + 86.7807322029461) * z + 296.564248779674) * z + 637.333633378831) * z + 793.826512519948) * z + 440.413735824752);
      tail = (e * n) / d;
    } else {
      let b = z + 0.65;
      b = z + 4 / b;
      b = z + 3 / b;
      b = z + 2 / b;
      b = z + 1 / b;
      tail = e / b / 2.506628274631;
    }
  }
  return x > 0 ? 1 - tail : tail;
}

export interface GreeksInput {
  spot: number;
  forward: number;
  strike: number;
  tYears: number;
  /** Decimal implied volatility. */
  sigma: number;
  /** Continuously compounded risk-free rate r. */
  rate: number;
  right: 'C' | 'P';
}

export interface Greeks {
  d1: number;
  d2: number;
  /** ∂price/∂S per share. */
  delta: number;
  /** ∂delta/∂S (per $1 of the underlying). */
  gamma: number;
  /** ∂delta/∂σ (per 1.00 of volatility, i.e. per 100 vol points). */
  vanna: number;
  /** −∂delta/∂T: the change of delta per year of time passing (carry b held constant). */
  charm: number;
}

/**
 * gamma = e^{−qT}φ(d1)/(Sσ√T); vanna = −e^{−qT}φ(d1)d2/σ;
 * charm = −e^{−qT}[φ(d1)(b/(σ√T) − d2/(2T)) ± (b − r)N(±d1)] (+ for calls, − with N(−d1) for puts).
 */
export function bsmGreeks(input: GreeksInput): Greeks {
  const { spot, forward, strike, tYears, sigma, rate, right } = input;
  const sqrtT = Math.sqrt(tYears);
  const sigmaSqrtT = sigma * sqrtT;
  const d1 = (Math.log(forward / strike) + 0.5 * sigma * sigma * tYears) / sigmaSqrtT;
  const d2 = d1 - sigmaSqrtT;
  const discount = Math.exp(-rate * tYears);
  const carryDiscount = (discount * forward) / spot; // e^{−qT}
  const carry = Math.log(forward / spot) / tYears; // b
  const pdf = normPdf(d1);
  const gamma = (carryDiscount * pdf) / (spot * sigmaSqrtT);
  const vanna = (-carryDiscount * pdf * d2) / sigma;
  const timeTerm = pdf * (carry / sigmaSqrtT - d2 / (2 * tYears));
  const isCall = right === 'C';
  const charm = isCall
    ? -carryDiscount * (timeTerm + (carry - rate) * normCdf(d1))
    : -carryDiscount * (timeTerm - (carry - rate) * normCdf(-d1));
  const delta = isCall ? carryDiscount * normCdf(d1) : -carryDiscount * normCdf(-d1);
  return { d1, d2, delta, gamma, vanna, charm };
}
