/**
 * The book at an instant (docs/journal.md §Positions and §Campaigns): the open positions of a ledger marked from a
 * chain snapshot of each underlying, and the campaigns with their returns. Pure: the snapshots come in as
 * `UnderlyingMarks`, prepared by the service. Money is integer minor units; prices per share in currency units.
 */
import { daysBetween, parseInstantMs } from '../calendar';
import { getOrInsertComputed } from '../maps';
import { tradingDaysAfter } from '../trading-days';
import { NEW_YORK, dateInZone } from '../zone';
import { positionGreeks } from '../exposure/position-greeks';
import { daysToExpiry } from '../exposure/time';
import { MINOR_PER_UNIT, subMinor, asMinor, type Minor } from '../money';
import { DEFAULT_LEVELS_SCOPE, type LevelsScope } from './constants';
import type { CampaignRecord, OpenPosition } from './records';
import type { ScopedLevels } from './levels';
import { parseOccSymbol, type OptionRight } from './model';
import { isAdjustedOptionRoot } from '../exposure/roots';

export type { DealerLevels, ScopedLevels } from './levels';

/** A contract of the snapshot, with the time to expiry and forward of its expiration (null when expired at the quote). */
export interface SnapshotQuote {
  bid: number;
  ask: number;
  iv: number;
  tYears: number | null;
  forward: number | null;
}

/** One stored snapshot of an underlying, as the marks need it. */
export interface UnderlyingMarks {
  snapshotId: number;
  quoteTime: string;
  spot: number;
  rate: number;
  /** Contracts in the snapshot (what keeping it costs). */
  contracts: number;
  /**
   * The contract of that root (the chain lists SPX and SPXW of one third Friday side by side): without a root, or for a
   * root the snapshot does not list at that expiration, its one standard contract there (of the root's settlement).
   */
  contract(expiration: string, strike: number, right: OptionRight, root?: string | null): SnapshotQuote | null;
  /** The dealer levels of a scope (docs/journal.md §Levels scope), `own` of that expiration; null when the scope is empty. */
  levelsIn(scope: LevelsScope, expiration: string | null): ScopedLevels | null;
}

export interface Mark {
  /** Per share: an option's bid/ask mid, a stock's spot. */
  price: number;
  source: 'mid' | 'spot';
  quoteTime: string;
  snapshotId: number;
  /** New York trading days after the quote's day up to the asOf day (0: quoted that day). */
  ageDays: number;
  /** Older than the markMaxAgeDays setting: shown, but left out of market value, unrealized P&L, greeks and totals. */
  stale: boolean;
}

/** Ages computed lately: the positions of one read share a few snapshots and one instant. */
const recentAges = new Map<string, number>();

/** The age of a snapshot at `asOfMs` in New York trading days (docs/journal.md §Positions, marks have an age). */
export function markAgeDays(quoteTime: string, asOfMs: number): number {
  return getOrInsertComputed(recentAges, `${quoteTime}|${asOfMs}`, () => {
    if (recentAges.size >= 256) recentAges.clear();
    const quoteMs = parseInstantMs(quoteTime);
    return Number.isFinite(quoteMs) ? tradingDaysAfter(dateInZone(quoteMs, NEW_YORK), dateInZone(asOfMs, NEW_YORK)) : Number.MAX_SAFE_INTEGER;
  });
}

/** Greeks of the whole position: delta in shares, gamma in shares per $1, theta $/day, vega $/vol point. */
export interface HeldGreeks {
  delta: number;
  gamma: number;
  theta: number;
  vega: number;
  iv: number | null;
}

export interface MarkedPosition {
  position: OpenPosition;
  /** Entry value per share of the open lots, before costs. */
  averagePrice: number;
  /** Net cash paid to open what is still open, costs included; negative for a short (the credit kept). */
  costBasisMinor: Minor;
  dte: number | null;
  mark: Mark | null;
  marketValueMinor: Minor | null;
  unrealizedMinor: Minor | null;
  greeks: HeldGreeks | null;
  levels: ScopedLevels | null;
  /** The option strike's distance to each level, in % of the level. */
  strikeVs: { callWall: number | null; putWall: number | null; gammaFlip: number | null } | null;
}

export function costBasisMinor(position: OpenPosition): Minor {
  return asMinor(position.quantity > 0 ? position.entryGrossMinor + position.entryCostsMinor : -position.entryGrossMinor + position.entryCostsMinor);
}

function distancePct(strike: number, level: number | null): number | null {
  return level === null || level === 0 ? null : ((strike - level) / level) * 100;
}

/**
 * The adjusted root an option position trades under (a corporate action adjusted it: its deliverable says so, or its
 * symbol's root is the underlying's plus a digit), or null for a standard contract.
 */
export function adjustedRootOf(position: Pick<OpenPosition, 'isOption' | 'symbol' | 'underlying' | 'deliverable'>): string | null {
  if (!position.isOption) return null;
  if (position.deliverable !== undefined) return position.deliverable.root;
  const root = parseOccSymbol(position.symbol)?.root ?? null;
  return root !== null && isAdjustedOptionRoot(root) ? root : null;
}

/**
 * A position marked from its underlying's snapshot (or unmarked: `marks` null or without the contract). A snapshot
 * older than `maxAgeDays` New York trading days gives a stale mark: shown, and nothing computed from it. An option is
 * marked from the contract of its own root (an SPXW put from the SPXW row, never the SPX AM row of that strike), and
 * held against the levels of `scope` (its own expiration by default).
 */
export function markPosition(position: OpenPosition, marks: UnderlyingMarks | null, asOfMs: number, maxAgeDays: number, scope: LevelsScope = DEFAULT_LEVELS_SCOPE): MarkedPosition {
  const size = Math.abs(position.quantity) * position.multiplier;
  const option = position.isOption && position.expiration !== null && position.strike !== null && position.right !== null;
  const dte = option && position.expiration !== null ? daysToExpiry(position.expiration, asOfMs) : null;
  let mark: Mark | null = null;
  let greeks: HeldGreeks | null = null;
  const ageDays = marks === null ? 0 : markAgeDays(marks.quoteTime, asOfMs);
  const stale = ageDays > maxAgeDays;
  const markOf = (price: number, source: Mark['source'], at: UnderlyingMarks): Mark => ({ price, source, quoteTime: at.quoteTime, snapshotId: at.snapshotId, ageDays, stale });
  if (marks !== null) {
    if (!position.isOption) {
      mark = markOf(marks.spot, 'spot', marks);
    } else if (position.expiration !== null && position.strike !== null && position.right !== null) {
      // An adjusted contract is marked only from its own root's rows (the contract index); no greeks: its deliverable
      // is not 100 shares (docs/journal.md §Corporate actions).
      const adjusted = adjustedRootOf(position);
      const quote = marks.contract(position.expiration, position.strike, position.right, parseOccSymbol(position.symbol)?.root ?? null);
      if (quote !== null && quote.ask > 0 && quote.bid >= 0 && quote.ask >= quote.bid) mark = markOf((quote.bid + quote.ask) / 2, 'mid', marks);
      if (!stale && adjusted === null && quote !== null && quote.tYears !== null && quote.forward !== null && quote.iv > 0 && quote.iv <= 5) {
        const perShare = positionGreeks({ spot: marks.spot, forward: quote.forward, strike: position.strike, tYears: quote.tYears, sigma: quote.iv, rate: marks.rate, right: position.right });
        const shares = position.quantity * position.multiplier;
        greeks = { delta: perShare.delta * shares, gamma: perShare.gamma * shares, theta: perShare.thetaPerDay * shares, vega: perShare.vegaPerPoint * shares, iv: quote.iv };
      }
    }
  }
  // Shares have a delta of their quantity whatever the snapshot; an option's greeks need a fresh one (above).
  if (!position.isOption && marks !== null) greeks = { delta: position.quantity, gamma: 0, theta: 0, vega: 0, iv: null };
  const basis = costBasisMinor(position);
  const usable = mark !== null && !mark.stale ? mark : null;
  const marketValueMinor = usable === null ? null : asMinor(Math.round(Math.sign(position.quantity) * size * usable.price * MINOR_PER_UNIT));
  // A stale snapshot's walls are of another market: the levels come from a fresh one only.
  const levels = stale || marks === null ? null : marks.levelsIn(scope, option ? position.expiration : null);
  const strike = position.strike;
  return {
    position,
    averagePrice: size > 0 ? position.entryGrossMinor / size / MINOR_PER_UNIT : 0,
    costBasisMinor: basis,
    dte,
    mark,
    marketValueMinor,
    unrealizedMinor: marketValueMinor === null ? null : subMinor(marketValueMinor, basis),
    greeks,
    levels,
    strikeVs:
      option && levels !== null && strike !== null
        ? { callWall: distancePct(strike, levels.callWall), putWall: distancePct(strike, levels.putWall), gammaFlip: distancePct(strike, levels.gammaFlip) }
        : null,
  };
}

export interface CampaignFigures {
  record: CampaignRecord;
  status: 'open' | 'closed';
  /** Calendar days from the opening day to the closing day (open: to the asOf date), at least 1. */
  days: number;
  sharesHeld: number;
  shareCostMinor: Minor;
  /** Per share: (cost of the shares held − net option cash) / shares; null without shares. */
  adjustedCostBasis: number | null;
  /** Σ unrealized of its open positions; null when closed or when one of them has no mark. */
  unrealizedMinor: Minor | null;
  returnOnCollateral: number | null;
  annualizedReturn: number | null;
}

/** A campaign's figures at `asOfDate` (journal date), from its record and its marked open positions. */
export function campaignFigures(campaign: CampaignRecord, open: readonly MarkedPosition[], asOfDate: string): CampaignFigures {
  const status = campaign.closeDay === null ? 'open' : 'closed';
  const days = Math.max(1, daysBetween(campaign.openDay, campaign.closeDay ?? asOfDate));
  let sharesHeld = 0;
  let shareCostMinor = 0;
  for (const marked of open) {
    const p = marked.position;
    if (p.isOption || p.quantity <= 0) continue;
    sharesHeld += p.quantity;
    shareCostMinor += p.entryGrossMinor + p.entryCostsMinor;
  }
  let unrealizedMinor: number | null = null;
  if (status === 'open') {
    unrealizedMinor = 0;
    for (const marked of open) {
      if (marked.unrealizedMinor === null) {
        unrealizedMinor = null;
        break;
      }
      unrealizedMinor += marked.unrealizedMinor;
    }
  }
  const returnOnCollateral = campaign.collateralPeakMinor > 0 ? campaign.plMinor / campaign.collateralPeakMinor : null;
  return {
    record: campaign,
    status,
    days,
    sharesHeld,
    shareCostMinor: asMinor(shareCostMinor),
    adjustedCostBasis: sharesHeld > 0 ? adjustedBasis(shareCostMinor, campaign.netOptionCashMinor, sharesHeld) : null,
    unrealizedMinor: unrealizedMinor === null ? null : asMinor(unrealizedMinor),
    returnOnCollateral,
    annualizedReturn: returnOnCollateral === null ? null : (returnOnCollateral * 365) / days,
  };
}

/** (cost of the shares held − net option cash) / shares, per share in currency units. */
export function adjustedBasis(shareCostMinor: number, netOptionCashMinor: number, sharesHeld: number): number {
  return (shareCostMinor - netOptionCashMinor) / sharesHeld / MINOR_PER_UNIT;
}

/** The ledger's open positions grouped by campaign id (positions without a campaign are left out). */
export function positionsByCampaign(marked: readonly MarkedPosition[]): Map<string, MarkedPosition[]> {
  const byCampaign = new Map<string, MarkedPosition[]>();
  for (const m of marked) {
    const id = m.position.campaignId;
    if (id === null) continue;
    const list = byCampaign.get(id);
    if (list) list.push(m);
    else byCampaign.set(id, [m]);
  }
  return byCampaign;
}

