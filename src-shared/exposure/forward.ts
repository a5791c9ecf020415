/** The forward of an expiration, from its quotes (docs/exposure.md): what prepare.ts prices every contract of a settlement group at. */
import type { OptionContract } from './model';

/**
 * Cboe VIX-method forward: among strikes where both sides have bid > 0 and ask ≥ bid, K* minimises
 * |C_mid − P_mid| (first such strike, ascending, on ties); F = K* + e^{rT}(C_mid − P_mid). Falls back to
 * S·e^{rT} when there is no such strike or F lies outside [0.9S, 1.1S] (stale or crossed quotes).
 */
export function forwardFromParity(
  members: ReadonlyArray<{ contract: OptionContract }>,
  spot: number,
  rate: number,
  tYears: number,
): { forward: number; parityStrike: number | null } {
  const growth = Math.exp(rate * tYears);
  const callMid = new Map<number, number>();
  const putMid = new Map<number, number>();
  for (const { contract } of members) {
    if (!(contract.bid > 0) || !(contract.ask >= contract.bid)) continue;
    const side = contract.right === 'C' ? callMid : putMid;
    if (!side.has(contract.strike)) side.set(contract.strike, (contract.bid + contract.ask) / 2);
  }
  let bestStrike: number | null = null;
  let bestDiff = 0;
  let bestGap = Number.POSITIVE_INFINITY;
  for (const [strike, call] of callMid) {
    const put = putMid.get(strike);
    if (put === undefined) continue;
    const diff = call - put;
    const gap = Math.abs(diff);
    if (gap < bestGap || (gap === bestGap && bestStrike !== null && strike < bestStrike)) {
      bestGap = gap;
      bestDiff = diff;
      bestStrike = strike;
    }
  }
  if (bestStrike !== null) {
    const forward = bestStrike + growth * bestDiff;
    if (forward >= 0.9 * spot && forward <= 1.1 * spot) return { forward, parityStrike: bestStrike };
  }
  return { forward: spot * growth, parityStrike: null };
}
