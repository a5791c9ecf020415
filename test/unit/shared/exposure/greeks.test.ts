import { describe, expect, it } from 'vitest';
import { bsmGreeks, normCdf, normPdf, type GreeksInput } from '../../../../src-shared/exposure/greeks';

describe('normal distribution', () => {
  it('matches the standard normal table', () => {
    // Published values of Φ (e.g. Abramowitz & Stegun table 26.1, or any statistics table to 10+ digits).
    expect(normCdf(0), 'Φ(0) = 1/2 by symmetry').toBe(0.5);
    expect(normCdf(1), 'Φ(1) = 0.8413447460685429').toBeCloseTo(0.8413447460685429, 13);
    expect(normCdf(-1.96), 'Φ(−1.96) = 0.0249978951482204 (the 95% two-sided quantile)').toBeCloseTo(0.0249978951482204, 13);
    expect(normCdf(-3), 'Φ(−3) = 0.00134989803163010').toBeCloseTo(0.0013498980316301, 14);
    expect(normCdf(0.1), 'Φ(0.1) = 0.539827837277029').toBeCloseTo(0.539827837277029, 13);
    expect(normPdf(0), 'φ(0) = 1/√(2π)').toBeCloseTo(1 / Math.sqrt(2 * Math.PI), 15);
  });
  it('is symmetric: Φ(x) + Φ(−x) = 1', () => {
    for (const x of [0.05, 0.7, 1.3, 2.5, 6, 8, 12]) expect(normCdf(x) + normCdf(-x), `symmetry at ${x}`).toBeCloseTo(1, 14);
  });
});

describe('BSM greeks on the forward', () => {
  /*
   * Hand calculation: S = F = K = 100, T = 1, σ = 0.2, r = 0.05 (so b = ln(F/S)/T = 0, e^{−qT} = DF·F/S = e^{−0.05}).
   *   d1 = (ln 1 + 0.2²·1/2)/(0.2·1) = 0.1, d2 = −0.1
   *   e^{−0.05} = 0.951229424500714, φ(0.1) = e^{−0.005}/√(2π) = 0.3969525474770118
   *   gamma = 0.951229424500714 × 0.3969525474770118 / (100 × 0.2)             = 0.0188796471645325
   *   vanna = −0.951229424500714 × 0.3969525474770118 × (−0.1) / 0.2            = 0.188796471645325
   *   charm (call) = −e^{−qT}[φ(d1)(0/0.2 − (−0.1)/2) + (0 − 0.05)·N(0.1)]
   *                = −0.951229424500714 × (0.3969525474770118 × 0.05 − 0.05 × 0.539827837277029)
   *                = 0.00679535898459216
   *   charm (put)  = −0.951229424500714 × (0.3969525474770118 × 0.05 + 0.05 × 0.460172162722971)
   *                = −0.0407661122404436
   */
  const base: GreeksInput = { spot: 100, forward: 100, strike: 100, tYears: 1, sigma: 0.2, rate: 0.05, right: 'C' };
  const df = 0.951229424500714;
  const pdf = 0.3969525474770118;

  it('reproduces the hand calculation', () => {
    const call = bsmGreeks(base);
    const put = bsmGreeks({ ...base, right: 'P' });
    expect(call.d1, 'd1 = σ√T/2 at the money-forward').toBeCloseTo(0.1, 15);
    expect(call.gamma, 'gamma = e^{−qT}φ(d1)/(Sσ√T)').toBeCloseTo((df * pdf) / 20, 15);
    expect(call.gamma, 'gamma, decimal').toBeCloseTo(0.0188796471645325, 14);
    expect(call.vanna, 'vanna = −e^{−qT}φ(d1)d2/σ').toBeCloseTo((df * pdf * 0.1) / 0.2, 14);
    expect(call.charm, 'call charm from the hand calculation').toBeCloseTo(-df * (pdf * 0.05 - 0.05 * 0.539827837277029), 14);
    expect(call.charm, 'call charm, decimal').toBeCloseTo(0.00679535898459216, 13);
    expect(put.charm, 'put charm from the hand calculation').toBeCloseTo(-df * (pdf * 0.05 + 0.05 * 0.460172162722971), 14);
    expect(put.charm, 'put charm, decimal').toBeCloseTo(-0.0407661122404436, 13);
    expect(call.delta - put.delta, 'put–call parity of deltas: Δc − Δp = e^{−qT}').toBeCloseTo(df, 14);
  });

  it('gamma and vanna do not depend on the right', () => {
    for (const strike of [80, 95, 100, 110, 130]) {
      const call = bsmGreeks({ ...base, strike, forward: 103 });
      const put = bsmGreeks({ ...base, strike, forward: 103, right: 'P' });
      expect(put.gamma, `gamma call = put at K=${strike}`).toBe(call.gamma);
      expect(put.vanna, `vanna call = put at K=${strike}`).toBe(call.vanna);
    }
  });

  // Finite differences: the carry b is held constant, so the forward moves as F = S·e^{bT}.
  const cases: GreeksInput[] = [
    { spot: 4697.24, forward: 4712.5, strike: 4750, tYears: 12 / 365, sigma: 0.118, rate: 0.04, right: 'C' },
    { spot: 4697.24, forward: 4712.5, strike: 4600, tYears: 12 / 365, sigma: 0.142, rate: 0.04, right: 'P' },
    { spot: 105.6, forward: 105.1, strike: 100, tYears: 0.4, sigma: 0.45, rate: 0.05, right: 'P' },
    { spot: 105.6, forward: 105.1, strike: 115, tYears: 0.4, sigma: 0.45, rate: 0.05, right: 'C' },
  ];
  const deltaAt = (input: GreeksInput, changes: { spot?: number; sigma?: number; tYears?: number }): number => {
    const carry = Math.log(input.forward / input.spot) / input.tYears;
    const spot = changes.spot ?? input.spot;
    const tYears = changes.tYears ?? input.tYears;
    return bsmGreeks({ ...input, spot, tYears, sigma: changes.sigma ?? input.sigma, forward: spot * Math.exp(carry * tYears) }).delta;
  };

  it.each(cases)('gamma = ∂Δ/∂S, vanna = ∂Δ/∂σ, charm = −∂Δ/∂T ($right K=$strike)', (input) => {
    const g = bsmGreeks(input);
    const hS = input.spot * 1e-5;
    const gammaFd = (deltaAt(input, { spot: input.spot + hS }) - deltaAt(input, { spot: input.spot - hS })) / (2 * hS);
    expect(g.gamma / gammaFd, 'gamma is the derivative of delta in S').toBeCloseTo(1, 5);
    const hV = 1e-5;
    const vannaFd = (deltaAt(input, { sigma: input.sigma + hV }) - deltaAt(input, { sigma: input.sigma - hV })) / (2 * hV);
    expect(g.vanna / vannaFd, 'vanna is the derivative of delta in σ').toBeCloseTo(1, 6);
    const hT = input.tYears * 1e-4;
    const charmFd = -(deltaAt(input, { tYears: input.tYears + hT }) - deltaAt(input, { tYears: input.tYears - hT })) / (2 * hT);
    expect(g.charm / charmFd, 'charm is minus the derivative of delta in T (per year)').toBeCloseTo(1, 5);
  });
});
