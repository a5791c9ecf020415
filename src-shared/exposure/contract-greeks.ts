/**
 * The engine's view of each contract of a snapshot, in the snapshot's own order (the Parquet lake writes one row per
 * stored contract, docs/research.md): its days to expiry, delta and gamma per share, exactly as the prepared chain
 * sees it. A contract the engine leaves out (expired at the quote time, an adjusted root, a strike ≤ 0) has no dte;
 * one whose IV is outside (0, 5] has a dte but no greeks. So Σ s·gamma·OI·multiplier over the rows with a dte of
 * the nearest three expirations is /gex's totalGEX (nominal).
 */
import { bsmGreeks } from './greeks';
import type { OptionContract } from './model';
import { isAdjustedRoot, MAX_USABLE_IV, type PreparedChain } from './prepare';
import { expiryInstantMs, settlementOf } from './time';

export interface ContractMeasures {
  /** New York calendar days from the quote date to the expiration; null when the engine leaves the contract out. */
  dte: Array<number | null>;
  /** ∂price/∂S per share (BSM on the expiration's forward); null without a dte or with an unusable IV. */
  delta: Array<number | null>;
  /** ∂delta/∂S per share per $1; null as delta. */
  gamma: Array<number | null>;
}

export function contractMeasures(chain: PreparedChain, contracts: readonly OptionContract[]): ContractMeasures {
  const n = contracts.length;
  const measures: ContractMeasures = { dte: new Array<number | null>(n), delta: new Array<number | null>(n), gamma: new Array<number | null>(n) };
  for (let i = 0; i < n; i += 1) {
    measures.dte[i] = null;
    measures.delta[i] = null;
    measures.gamma[i] = null;
    const contract = contracts[i];
    if (contract === undefined) continue;
    const settlement = settlementOf(contract.root);
    if (!(expiryInstantMs(contract.expiration, settlement) > chain.quoteMs)) continue;
    if (isAdjustedRoot(contract.root, chain.symbol) || !(contract.strike > 0)) continue;
    const expiration = chain.byExpiration.get(contract.expiration);
    const group = expiration?.groups.find((g) => g.settlement === settlement);
    if (expiration === undefined || group === undefined) continue;
    measures.dte[i] = expiration.dte;
    if (!(contract.iv > 0) || !(contract.iv <= MAX_USABLE_IV)) continue;
    const greeks = bsmGreeks({ spot: chain.spot, forward: group.forward, strike: contract.strike, tYears: group.tYears, sigma: contract.iv, rate: chain.rate, right: contract.right });
    measures.delta[i] = greeks.delta;
    measures.gamma[i] = greeks.gamma;
  }
  return measures;
}
