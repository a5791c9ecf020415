/**
 * A trade from its nodes (trades.ts; the nodes are the walk's: trade-walk.ts): its legs, outcome, strategy, entry
 * figures, risk and collateral, its campaign; and a trade opened before history, whose P&L is unknown.
 */
import { daysBetween } from '../calendar';
import type { CampaignRecord } from './campaigns';
import { describeCollateral, spotAtEntry, type SpotFact } from './collateral';
import type { TransactionType } from './model';
import { classify, mainLeg, structureCreditMinor, type Strategy, type StructureLeg } from './strategies';
import { tradeRisk } from './trade-risk';
import { dteAtEntry, entryFigures, outcomeRatios, type EntryLookup, type LevelsAtEntry } from './trade-metrics';
import type { Node } from './trade-nodes';
import { asMinorOrNull, minorFieldsAll, asMinor, type Minor, type MinorFields } from '../money';
import type { TradeLeg } from './records';
import { asTradeId, type TradeId, type AccountId, type Ticker } from '../ids';

/** How a closed trade ended (DESIGN §5): assigned or exercised when one of its options was, else by its options' last way out. */
export const OUTCOMES = ['expired', 'closed', 'assigned', 'exercised', 'open'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface Trade {
  /** The id of its first opening transaction (`before:` + the first close's for a trade opened before history): stable across rebuilds. */
  id: TradeId;
  accountId: AccountId;
  accountName: string;
  currency: string;
  underlying: Ticker;
  strategy: Strategy;
  status: 'open' | 'closed';
  outcome: Outcome;
  /** Rolled at least once. */
  rolled: boolean;
  /** Its legs close positions the history never opened: P&L unknown, left out of the stats. */
  openedBeforeHistory: boolean;
  openedAt: string | null;
  openDay: string | null;
  closedAt: string | null;
  closeDay: string | null;
  /** Calendar days from the opening day to the closing day; null while open. */
  daysHeld: number | null;
  legs: Array<MinorFields<TradeLeg>>;
  /** The first structure, one entry per instrument and side. */
  structure: StructureLeg[];
  /** Net cash of the first structure at open (+ credit), costs included. */
  creditMinor: Minor | null;
  /** Every credit of its structures (rolls, calls sold against its shares) less every debit paid to roll, at the first structure's best payoff; null unbounded or unknown. */
  maxProfitMinor: Minor | null;
  /** The largest risk of its structures less those credits; null unbounded (a naked call, short shares) or unknown. */
  maxLossMinor: Minor | null;
  /** The largest collateral of its structures (collateral.ts), and of the shares delivered into it; null unknown. */
  collateralMinor: Minor | null;
  /** The rule of that figure in words (collateral.ts describeCollateral); null unknown. */
  collateralRule: string | null;
  /** Realized P&L of its lots, options and shares, net of both legs' costs (to date while open); null opened before history. */
  pnlMinor: Minor | null;
  /** Realized P&L of its options alone (the broker statement's view: an assigned put's premium); null opened before history. */
  optionPLMinor: Minor | null;
  returnOnCollateral: number | null;
  pctOfMaxProfit: number | null;
  dteAtEntry: number | null;
  deltaAtEntry: number | null;
  /** The snapshot the entry figures come from. */
  entrySnapshot: { quoteTime: string; spot: number } | null;
  levelsAtEntry: LevelsAtEntry | null;
  rolls: number;
  campaignId: string | null;
}

const NOTHING_HELD = { sharesLong: 0, shareCostMinor: 0, shortCallShares: 0 };

function publicLegs(members: readonly Node[]): Array<MinorFields<TradeLeg>> {
  const [root] = members;
  if (!root) return [];
  if (members.length === 1) return minorFieldsAll(root.legs.slice());
  const records: Array<{ seq: number; leg: TradeLeg }> = [];
  members.forEach((node, roll) => {
    node.legs.forEach((leg, i) => {
      // Openings of the trades rolled into this one are its later legs, not its first structure.
      records.push({ seq: node.legSeqs[i] ?? 0, leg: node === root ? leg : { ...leg, role: leg.role === 'entry' ? 'open' : leg.role, roll } });
    });
  });
  records.sort((a, b) => a.seq - b.seq);
  return minorFieldsAll(records.map((record) => record.leg));
}

/** How a closed trade ended: assigned, exercised, else expired when its options' last way out was an expiration, else closed. */
function outcomeOf(members: readonly Node[], open: boolean): Outcome {
  if (open) return 'open';
  let assigned = false;
  let exercised = false;
  let last: { seq: number; type: TransactionType } | null = null;
  for (const node of members) {
    node.legs.forEach((leg, i) => {
      if (leg.type === 'ASSIGNMENT') assigned = true;
      else if (leg.type === 'EXERCISE') exercised = true;
      const seq = node.legSeqs[i] ?? 0;
      if (leg.isOption && leg.role === 'close' && (last === null || seq >= last.seq)) last = { seq, type: leg.type };
    });
  }
  if (assigned) return 'assigned';
  if (exercised) return 'exercised';
  return (last as { type: TransactionType } | null)?.type === 'EXPIRATION' ? 'expired' : 'closed';
}

/** Adapts the entry lookup to the spot the collateral reads (collateral.ts spotAtEntry: the same usable-entry rule). */
function spotLookupOf(lookup: EntryLookup | undefined) {
  if (lookup === undefined) return undefined;
  return (underlying: string, atMs: number): SpotFact | null => {
    const facts = lookup({ underlying, atMs, leg: null });
    return facts === null ? null : { spot: facts.spot, quoteTime: facts.quoteTime };
  };
}

/** The trade of a root node and the nodes rolled into it (or sold against its shares); `open` when one of them still has an open lot. */
export function assemble(members: readonly Node[], open: boolean, lookup: EntryLookup | undefined): Trade | null {
  const root = members[0];
  if (!root) return null;
  let pnlMinor = 0;
  let optionPLMinor = 0;
  let rolls = 0;
  let lastClose: Node['lastClose'] = null;
  for (const node of members) {
    pnlMinor += node.realizedMinor;
    for (const leg of node.legs) if (leg.isOption && leg.realizedMinor !== null) optionPLMinor += leg.realizedMinor;
    rolls += node.rolls;
    if (node.lastClose && (!lastClose || node.lastClose.ms >= lastClose.ms)) lastClose = node.lastClose;
  }
  const structure = [...root.entry.values()];
  const creditMinor = structureCreditMinor(structure);
  const strategy = classify(structure, root.held);
  const main = mainLeg(structure);
  const leg = main && main.expiration !== null && main.strike !== null && main.right !== null ? { expiration: main.expiration, strike: main.strike, right: main.right } : null;
  const entry = entryFigures(lookup, root.underlying, root.openMs, leg, structure);
  const spotAt = spotLookupOf(lookup);
  const risk = tradeRisk(members, (node) => (node === root ? entry.snapshot : spotAtEntry(spotAt, node.underlying, node.openMs)));
  const collateralMinor = risk.collateral?.collateralMinor ?? null;
  const closed = !open && lastClose !== null ? lastClose : null;
  const expirations: string[] = [];
  for (const s of structure) if (s.expiration !== null) expirations.push(s.expiration);
  return {
    id: asTradeId(root.firstTxId),
    accountId: root.accountId,
    accountName: root.accountName,
    currency: root.currency,
    underlying: root.underlying,
    strategy,
    status: closed ? 'closed' : 'open',
    outcome: outcomeOf(members, !closed),
    rolled: rolls > 0,
    openedBeforeHistory: false,
    openedAt: root.openedAt,
    openDay: root.openDay,
    closedAt: closed?.at ?? null,
    closeDay: closed?.day ?? null,
    daysHeld: closed ? daysBetween(root.openDay, closed.day) : null,
    legs: publicLegs(members),
    structure,
    creditMinor: asMinor(creditMinor),
    maxProfitMinor: asMinorOrNull(risk.maxProfitMinor),
    maxLossMinor: asMinorOrNull(risk.maxLossMinor),
    collateralMinor: asMinorOrNull(collateralMinor),
    collateralRule: risk.collateral === null ? null : describeCollateral(risk.collateral.basis),
    pnlMinor: asMinor(pnlMinor),
    optionPLMinor: asMinor(optionPLMinor),
    ...outcomeRatios(closed ? pnlMinor : null, collateralMinor, risk.maxProfitMinor),
    dteAtEntry: dteAtEntry(root.openDay, expirations),
    deltaAtEntry: entry.deltaAtEntry,
    entrySnapshot: entry.snapshot,
    levelsAtEntry: entry.levelsAtEntry,
    rolls,
    campaignId: null,
  };
}

/** A trade of closes whose openings the history does not have: what they imply was open, P&L unknown. */
export function assembleBeforeHistory(node: Node): Trade {
  const structure = [...node.entry.values()];
  const sided = structure.every((leg) => leg.side !== 0);
  const last = node.lastClose;
  return {
    id: asTradeId(`before:${node.firstTxId}`),
    accountId: node.accountId,
    accountName: node.accountName,
    currency: node.currency,
    underlying: node.underlying,
    strategy: sided ? classify(structure, NOTHING_HELD) : 'custom',
    status: 'closed',
    outcome: outcomeOf([node], false),
    rolled: node.rolls > 0,
    openedBeforeHistory: true,
    openedAt: null,
    openDay: null,
    closedAt: last?.at ?? node.openedAt,
    closeDay: last?.day ?? node.openDay,
    daysHeld: null,
    legs: publicLegs([node]),
    structure,
    creditMinor: null,
    maxProfitMinor: null,
    maxLossMinor: null,
    collateralMinor: null,
    collateralRule: null,
    pnlMinor: null,
    optionPLMinor: null,
    returnOnCollateral: null,
    pctOfMaxProfit: null,
    dteAtEntry: null,
    deltaAtEntry: null,
    entrySnapshot: null,
    levelsAtEntry: null,
    rolls: node.rolls,
    campaignId: null,
  };
}

/** Each trade's campaign: the campaign whose legs hold the trade's first transaction. */
export function attachCampaigns(trades: readonly Trade[], campaigns: readonly CampaignRecord[]): void {
  const byFirstTx = new Map<string, Trade>();
  for (const trade of trades) {
    const first = trade.legs[0];
    if (first) byFirstTx.set(first.txId, trade);
  }
  for (const campaign of campaigns) {
    for (const txId of campaign.legs) {
      const trade = byFirstTx.get(txId);
      if (trade) trade.campaignId = campaign.id;
    }
  }
}

