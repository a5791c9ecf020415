/**
 * Vanna and charm exposure with their key levels (docs/exposure.md, /vanna).
 */
import type { PreparedChain, PreparedExpiration } from './prepare';
import { lookupExpirations } from './expiration-scope';
import { pickLevel, usableContracts } from './gex';
import { profileRoot, SWEEP_HIGH, SWEEP_LOW } from './sweep';

/** The default /vanna book: expirations with 0 ≤ dte ≤ 45. */
export const VANNA_MIN_DTE = 0;
export const VANNA_MAX_DTE = 45;

export interface VannaRow {
  strike: number;
  /** Σ VEX at the strike: $ of dealer delta per +1 vol point. */
  vanna: number;
  /** Σ CEX at the strike: $ of dealer delta per calendar day. */
  charm: number;
  /** VEX − CEX: dealer buying if IV falls one point and a day passes. */
  bull: number;
  /** −VEX − CEX: dealer buying if IV rises one point and a day passes. */
  bear: number;
}

export interface VannaResult {
  symbol: string;
  stockPrice: number;
  totalVanna: number;
  totalCharm: number;
  keyLevels: {
    vannaRegime: 'positive' | 'negative';
    vannaFlip: number | null;
    bullDriftTarget: number | null;
    bearMaxDanger: number | null;
    bearDeceleration: number | null;
    bullBearRatio: number | null;
  };
  minDte: number;
  maxDte: number;
  mode: 'aggregate' | 'expiration';
  expiration: string | null;
  availableExpirations: string[];
  data: VannaRow[];
  meta: { contracts: number; excludedContracts: number };
}

export function vannaBook(chain: PreparedChain): PreparedExpiration[] {
  return chain.expirations.filter((e) => e.dte >= VANNA_MIN_DTE && e.dte <= VANNA_MAX_DTE);
}

export function computeVanna(chain: PreparedChain, scope: { expiration: string | null }): VannaResult {
  const pinned = scope.expiration === null ? null : (lookupExpirations(chain, [scope.expiration])[0] ?? null);
  const expirations = pinned === null ? vannaBook(chain) : [pinned];
  const spot = chain.spot;
  const size = chain.strikes.length;
  const vexByStrike = new Float64Array(size);
  const cexByStrike = new Float64Array(size);
  const oiByStrike = new Float64Array(size);
  let totalVanna = 0;
  let totalCharm = 0;
  let contracts = 0;
  for (const e of expirations) {
    contracts += e.end - e.start;
    for (let i = e.start; i < e.end; i += 1) {
      const s = chain.strikeIndex[i] ?? 0;
      const vex = chain.vex[i] ?? 0;
      const cex = chain.cex[i] ?? 0;
      totalVanna += vex;
      totalCharm += cex;
      vexByStrike[s] = (vexByStrike[s] ?? 0) + vex;
      cexByStrike[s] = (cexByStrike[s] ?? 0) + cex;
      oiByStrike[s] = (oiByStrike[s] ?? 0) + (chain.openInterest[i] ?? 0);
    }
  }

  // Rows (and every level) only for strikes within the sweep range [0.8S, 1.2S] with open interest in scope.
  const low = SWEEP_LOW * spot;
  const high = SWEEP_HIGH * spot;
  const data: VannaRow[] = [];
  const rowStrikes: number[] = [];
  const bull: number[] = [];
  const bear: number[] = [];
  for (let s = 0; s < size; s += 1) {
    const strike = chain.strikes[s] ?? 0;
    if (strike < low || strike > high || !((oiByStrike[s] ?? 0) > 0)) continue;
    const vanna = vexByStrike[s] ?? 0;
    const charm = cexByStrike[s] ?? 0;
    const row = { strike, vanna, charm, bull: vanna - charm, bear: -vanna - charm };
    data.push(row);
    rowStrikes.push(strike);
    bull.push(row.bull);
    bear.push(row.bear);
  }
  const above: number[] = [];
  const below: number[] = [];
  rowStrikes.forEach((strike, index) => {
    if (strike > spot) above.push(index);
    else if (strike < spot) below.push(index);
  });
  const strikeOf = (index: number | null): number | null => (index === null ? null : (rowStrikes[index] ?? null));
  const bullDriftTarget = strikeOf(pickLevel(rowStrikes, bull, above, spot, (v) => v > 0, (a, b) => a > b));
  const bearMaxDanger = strikeOf(pickLevel(rowStrikes, bear, below, spot, (v) => v < 0, (a, b) => a < b));
  const bearDeceleration = strikeOf(pickLevel(rowStrikes, bear, below, spot, (v) => v > 0, (a, b) => a > b));
  let bullSum = 0;
  let bearSum = 0;
  for (const v of bull) bullSum += Math.max(v, 0);
  for (const v of bear) bearSum += Math.max(-v, 0);

  const minDte = pinned === null ? VANNA_MIN_DTE : pinned.dte;
  const maxDte = pinned === null ? VANNA_MAX_DTE : pinned.dte;
  return {
    symbol: chain.symbol,
    stockPrice: spot,
    totalVanna,
    totalCharm,
    keyLevels: {
      vannaRegime: totalVanna >= 0 ? 'positive' : 'negative',
      vannaFlip: profileRoot(chain, usableContracts(chain, expirations), 'vanna'),
      bullDriftTarget,
      bearMaxDanger,
      bearDeceleration,
      bullBearRatio: bearSum > 0 ? bullSum / bearSum : null,
    },
    minDte,
    maxDte,
    mode: pinned === null ? 'aggregate' : 'expiration',
    expiration: pinned === null ? null : pinned.expiration,
    availableExpirations: chain.expirations.map((e) => e.expiration),
    data,
    meta: { contracts, excludedContracts: chain.excluded.adjusted },
  };
}
