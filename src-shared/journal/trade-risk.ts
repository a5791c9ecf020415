/**
 * What a trade can make, lose and ties up (DESIGN §5 "Assignment, collateral and levels in trades"; docs/journal.md
 * §Trades and strategies, "Risk" and "Collateral"), over the whole trade, not its first structure alone:
 * - credits: every opening of its options (its structures, their rolls, the calls sold against its shares) less the
 *   debits paid on the closes that were a roll's old leg, costs included;
 * - max profit: the first structure's best payoff at expiration with those credits (null when unbounded);
 * - max loss: the largest risk the trade held, less those credits. The risk is measured on what the trade holds once
 *   each of its structures has opened (the roll's old leg gone, the shares delivered and the calls sold against them
 *   together: a covered call is the shares' cost): the payoff's worst at zero option credit (strategies.ts riskOf).
 *   Null when any is unbounded (a naked call, short shares);
 * - collateral: the largest collateral.ts figure of those holdings, and of what it holds once an assignment delivered
 *   shares (the shares at their cost).
 * Calls sold against shares held outside the trade are covered by them (the account's shares not promised to other
 * calls, at their average cost), as the strategy's name says.
 */
import { collateralOf, type CollateralBasis, type CollateralLeg, type SpotFact } from './collateral';
import { QTY_EPSILON, prorate } from './lots';
import { BUYS } from './order';
import { riskOf, structureCreditMinor, type StructureLeg } from './strategies';
import type { Node } from './trade-walk';

export interface TradeRisk {
  maxProfitMinor: number | null;
  maxLossMinor: number | null;
  collateral: { collateralMinor: number; basis: CollateralBasis } | null;
}

/** One instrument the trade holds: its structure leg's description, and the units, value and costs open now. */
interface Holding {
  leg: StructureLeg;
  side: number;
  qty: number;
  grossMinor: number;
  costsMinor: number;
}

const rollCloseKey = (symbol: string, day: string) => `${symbol}\u0000${day}`;

/** Net cash of the share legs (+ sold, − bought, costs included). */
function shareCashMinor(legs: readonly StructureLeg[]): number {
  return structureCreditMinor(legs.filter((leg) => !leg.isOption));
}

/** The credits of the trade's options: every opening, less what the closes that were a roll's old leg paid. */
export function optionCreditsMinor(members: readonly Node[]): number {
  let credits = 0;
  for (const node of members) {
    for (const leg of node.legs) {
      if (!leg.isOption) continue;
      if (leg.role !== 'close' || node.rollCloses.has(rollCloseKey(leg.symbol, leg.day))) credits += leg.cashMinor;
    }
  }
  return credits;
}

/** Short calls the account's own shares cover beyond the trade's: its free shares when the node opened, at their average cost. */
function outsideCover(node: Node, holdings: readonly StructureLeg[], before: { shares: number; calls: number }): StructureLeg | null {
  let calls = 0;
  let covers = 0;
  for (const leg of holdings) {
    if (!leg.isOption) covers += leg.side > 0 ? leg.quantity : 0;
    else if (leg.right === 'C') {
      if (leg.side < 0) calls += leg.quantity * leg.multiplier;
      else covers += leg.quantity * leg.multiplier;
    }
  }
  const needed = calls - covers;
  const held = node.held;
  // The account's shares not the trade's, less the calls not the trade's that they already cover.
  const free = held.sharesLong - before.shares - Math.max(0, held.shortCallShares - before.calls);
  const shares = Math.min(needed, free);
  if (!(shares > QTY_EPSILON) || !(held.sharesLong > 0)) return null;
  return { symbol: '', isOption: false, expiration: null, strike: null, right: null, multiplier: 1, side: 1, quantity: shares, grossMinor: Math.round((held.shareCostMinor * shares) / held.sharesLong), costsMinor: 0 };
}

function toLegs(holdings: ReadonlyMap<string, Holding>): StructureLeg[] {
  const legs: StructureLeg[] = [];
  for (const h of holdings.values()) if (h.qty > QTY_EPSILON) legs.push({ ...h.leg, side: h.side, quantity: h.qty, grossMinor: h.grossMinor, costsMinor: h.costsMinor });
  return legs;
}

/** The trade's own long shares and short calls (in shares) in a holdings list. */
function ownCover(legs: readonly StructureLeg[]): { shares: number; calls: number } {
  let shares = 0;
  let calls = 0;
  for (const leg of legs) {
    if (!leg.isOption && leg.side > 0) shares += leg.quantity;
    else if (leg.isOption && leg.side < 0 && leg.right === 'C') calls += leg.quantity * leg.multiplier;
  }
  return { shares, calls };
}

/**
 * The collateral of some holdings (collateral.ts); a naked short option reads the spot at the structure's open (`spot`,
 * asked only when Reg T needs it).
 */
function holdingsCollateral(legs: readonly StructureLeg[], spot: () => SpotFact | null): { collateralMinor: number; basis: CollateralBasis } {
  const asLegs = (entrySpot: SpotFact | null): CollateralLeg[] => legs.map((leg) => ({ ...leg, entrySpot: leg.isOption && leg.side < 0 ? entrySpot : null }));
  const first = collateralOf(asLegs(null));
  if (first.basis.rule !== 'reg_t') return first;
  const fact = spot();
  return fact === null ? first : collateralOf(asLegs(fact));
}

/** The risk figures of the trade of `members` (its root first), `spotOf` the spot at a node's open (null: none). */
export function tradeRisk(members: readonly Node[], spotOf: (node: Node) => SpotFact | null): TradeRisk {
  const root = members[0];
  if (!root) return { maxProfitMinor: null, maxLossMinor: null, collateral: null };
  const credits = optionCreditsMinor(members);
  const structure = [...root.entry.values()];
  const maxProfitMinor = riskOf(structure, shareCashMinor(structure) + credits).maxProfitMinor;

  // One structure and no shares delivered (most trades): what it holds is its first structure.
  if (members.length === 1 && !root.legs.some((leg) => !leg.isOption && leg.role === 'open')) {
    const cover = outsideCover(root, structure, { shares: 0, calls: 0 });
    const legs = cover === null ? structure : [...structure, cover];
    const loss = riskOf(legs, shareCashMinor(legs)).maxLossMinor;
    return { maxProfitMinor, maxLossMinor: loss === null ? null : loss - credits, collateral: holdingsCollateral(legs, () => spotOf(root)) };
  }

  // The trade's rows in the walk's order; what it holds is measured after the last row of the instant its structure's
  // last opening fill came at (a roll's close and new leg share one), and of an instant that delivered shares.
  const described = new Map<string, StructureLeg>();
  for (const node of members) for (const leg of node.entry.values()) described.set(leg.symbol, leg);
  const rows: Array<{ seq: number; node: Node; leg: Node['legs'][number]; first: boolean }> = [];
  for (const node of members) node.legs.forEach((leg, i) => rows.push({ seq: node.legSeqs[i] ?? 0, node, leg, first: i === 0 }));
  rows.sort((a, b) => a.seq - b.seq);
  const lastOfInstant = new Map<string, number>();
  rows.forEach((row, index) => lastOfInstant.set(row.leg.tradeDate, index));
  const structureAt = new Map<number, Node[]>();
  const sharesAt = new Set<number>();
  const lastEntry = new Map<Node, string>();
  for (const row of rows) if (row.leg.role === 'entry') lastEntry.set(row.node, row.leg.tradeDate);
  for (const node of members) {
    const at = lastOfInstant.get(lastEntry.get(node) ?? node.openedAt);
    if (at !== undefined) structureAt.set(at, [...(structureAt.get(at) ?? []), node]);
  }
  for (const row of rows) if (!row.leg.isOption && row.leg.role === 'open') sharesAt.add(lastOfInstant.get(row.leg.tradeDate) ?? -1);

  const holdings = new Map<string, Holding>();
  const before = new Map<Node, { shares: number; calls: number }>();
  let riskMinor: number | null = 0;
  let collateral: TradeRisk['collateral'] = null;
  const keep = (measured: { collateralMinor: number; basis: CollateralBasis }) => {
    if (collateral === null || measured.collateralMinor > collateral.collateralMinor) collateral = measured;
  };
  rows.forEach((row, index) => {
    if (row.first) before.set(row.node, ownCover(toLegs(holdings)));
    apply(holdings, row.leg, described);
    const nodes = structureAt.get(index);
    if (nodes === undefined && !sharesAt.has(index)) return;
    const held = toLegs(holdings);
    for (const node of nodes ?? []) {
      const cover = outsideCover(node, held, before.get(node) ?? { shares: 0, calls: 0 });
      const legs = cover === null ? held : [...held, cover];
      const loss = riskOf(legs, shareCashMinor(legs)).maxLossMinor;
      riskMinor = riskMinor === null || loss === null ? null : Math.max(riskMinor, loss);
      keep(holdingsCollateral(legs, () => spotOf(node)));
    }
    if (nodes === undefined) keep(holdingsCollateral(held, () => null));
  });
  return { maxProfitMinor, maxLossMinor: riskMinor === null ? null : riskMinor - credits, collateral };
}

/** A leg of the trade applied to what it holds: an opening adds its units and value, a close takes its units out (FIFO's average, prorated). */
function apply(holdings: Map<string, Holding>, leg: Node['legs'][number], described: ReadonlyMap<string, StructureLeg>): void {
  let held = holdings.get(leg.symbol);
  if (leg.role !== 'close') {
    const side = BUYS.has(leg.type) ? 1 : -1;
    if (!held || held.qty <= QTY_EPSILON) {
      const info = described.get(leg.symbol) ?? { symbol: leg.symbol, isOption: false, expiration: null, strike: null, right: null, multiplier: 1, side, quantity: 0, grossMinor: 0, costsMinor: 0 };
      held = { leg: info, side, qty: 0, grossMinor: 0, costsMinor: 0 };
      holdings.set(leg.symbol, held);
    }
    held.qty += leg.quantity;
    held.grossMinor += Math.abs(leg.cashMinor + leg.costsMinor);
    held.costsMinor += leg.costsMinor;
    return;
  }
  if (!held || held.qty <= QTY_EPSILON) return;
  const take = Math.min(leg.quantity, held.qty);
  held.grossMinor -= prorate(held.grossMinor, take, held.qty);
  held.costsMinor -= prorate(held.costsMinor, take, held.qty);
  held.qty -= take;
}
