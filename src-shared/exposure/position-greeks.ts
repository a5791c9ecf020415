/**
 * Greeks of a held contract, on the same Black–Scholes–Merton-on-the-forward convention as the exposure engine
 * (greeks.ts): the carry b = ln(F/S)/T is implied by the forward and held constant as time passes. The engine needs
 * delta, gamma, vanna and charm; a position also needs its price sensitivity to time and volatility.
 */
import { bsmGreeks, normCdf, normPdf, type GreeksInput } from './greeks';

export interface PositionGreeks {
  /** Per share: ∂price/∂S. */
  delta: number;
  /** Per share: ∂delta/∂S per $1. */
  gamma: number;
  /** Per share and calendar day: the price change as one day of 365 passes. */
  thetaPerDay: number;
  /** Per share and volatility point (0.01 of σ). */
  vegaPerPoint: number;
}

/**
 * theta = −e^{−qT}Sφ(d1)σ/(2√T) ∓ (b − r)e^{−qT}S·N(±d1) ∓ rKe^{−rT}N(±d2) (upper signs for calls), per year;
 * vega = e^{−qT}Sφ(d1)√T per 1.00 of σ (Haug, generalised BSM with e^{−qT} = DF·F/S).
 */
export function positionGreeks(input: GreeksInput): PositionGreeks {
  const { spot, forward, strike, tYears, sigma, rate, right } = input;
  const base = bsmGreeks(input);
  const sqrtT = Math.sqrt(tYears);
  const discount = Math.exp(-rate * tYears);
  const carryDiscount = (discount * forward) / spot;
  const carry = Math.log(forward / spot) / tYears;
  const decay = (-carryDiscount * spot * normPdf(base.d1) * sigma) / (2 * sqrtT);
  const thetaPerYear =
    right === 'C'
      ? decay - (carry - rate) * carryDiscount * spot * normCdf(base.d1) - rate * strike * discount * normCdf(base.d2)
      : decay + (carry - rate) * carryDiscount * spot * normCdf(-base.d1) + rate * strike * discount * normCdf(-base.d2);
  return {
    delta: base.delta,
    gamma: base.gamma,
    thetaPerDay: thetaPerYear / 365,
    vegaPerPoint: (carryDiscount * spot * normPdf(base.d1) * sqrtT) / 100,
  };
}
