/**
 * Management rules (DESIGN §5 "Management rules and rolls", docs/journal.md §Managing open trades): the sellers' rules
 * an open trade is held to each morning, on its fresh marks only. Pure: the service hands in each trade's figures (its
 * P&L so far with its open legs marked, its credit, its open legs with their marks) and the position alerts of its
 * short options; this says which rules it hits, with the figure and the threshold behind each, most urgent first.
 *
 * - `itm_near_expiry`: a short option in the money (intrinsic > 0 at the snapshot's spot) with at most `itmWithinDays`
 *   days to expiry: assignment is near.
 * - `loss_stop`: a loss of at least `lossStopMultiple` × the credit (the trade's max profit: every credit it took,
 *   less what its rolls paid).
 * - `dividend`: a short call in the money whose extrinsic value (mark − intrinsic) is below a dividend going ex after
 *   today and on or before its expiration: early exercise the day before the ex-date pays its holder.
 * - `level`: a position alert (a dealer level crossed, or came within the alert distance of, a short strike) raised
 *   on one of its short options within the marks' age (docs/exposure.md §Events, "Alerts on your strikes").
 * - `dte`: the nearest expiration of its short options (of its options, when it is long only) at most `manageAtDte`
 *   days away.
 * - `profit_target`: at least `profitTargetPct` % of the max profit captured (P&L so far + unrealized).
 * Comparisons are of integer minor units where money is compared, so a trade at exactly the threshold hits it.
 */
import { asMinor, formatMinor, MINOR_PER_UNIT, toMinor, type Minor } from '../money';
import type { OptionRight } from './model';
import type { TradeId, AccountId, Ticker } from '../ids';

/** The rules, most urgent first: the order of a trade's hits and of the list. */
export const MANAGE_RULES = ['itm_near_expiry', 'loss_stop', 'dividend', 'level', 'dte', 'profit_target'] as const;
export type ManageRule = (typeof MANAGE_RULES)[number];

/** A dividend entered as upcoming (Settings): `amount` per share, in the underlying's currency. */
export interface UpcomingDividend {
  symbol: string;
  /** The ex-dividend date (YYYY-MM-DD). */
  exDate: string;
  amount: number;
}

/** The setting `manageRules`: a threshold of null turns its rule off. */
export interface ManageRules {
  profitTargetPct: number | null;
  manageAtDte: number | null;
  lossStopMultiple: number | null;
  itmWithinDays: number | null;
  dividendRisk: boolean;
  levelAlerts: boolean;
  upcomingDividends: UpcomingDividend[];
}

export const DEFAULT_MANAGE_RULES: ManageRules = {
  profitTargetPct: 50,
  manageAtDte: 21,
  lossStopMultiple: 2,
  itmWithinDays: 7,
  dividendRisk: true,
  levelAlerts: true,
  upcomingDividends: [],
};

/** A position alert of a short option (the exposure side's event), as a rule reads it. */
export interface LevelAlertFact {
  accountId: string;
  /** The option's OCC symbol. */
  symbol: string;
  level: 'gammaFlip' | 'callWall' | 'putWall';
  alert: 'crossed' | 'within';
  /** (level − strike) / strike, in %. */
  gapPct: number;
  distancePct: number;
  timestamp: string;
  message: string;
}

/** An open leg of a trade with a fresh mark. */
export interface ManagedLeg {
  symbol: string;
  isOption: boolean;
  expiration: string | null;
  strike: number | null;
  right: OptionRight | null;
  /** Signed: − short. */
  quantity: number;
  /** Per share: an option's mid, shares' spot. */
  markPrice: number;
  /** New York days to expiry at asOf; null for shares. */
  dte: number | null;
  /** The option's own delta per share (a put's negative); null without a usable IV. */
  delta: number | null;
}

export interface ManagedTrade {
  tradeId: TradeId;
  accountId: AccountId;
  underlying: Ticker;
  currency: string;
  /** Realized so far + the open legs' unrealized, minor units. */
  totalMinor: number;
  /** The credit the profit target and the loss stop are of; null or ≤ 0 for a debit trade (neither applies). */
  maxProfitMinor: number | null;
  /** The spot of the snapshot that marks it. */
  spot: number;
  /** The asOf date in New York. */
  asOfDate: string;
  legs: ManagedLeg[];
}

/** A leg's figures: intrinsic and extrinsic per share, how far out of the money its strike is in % of spot (< 0: in the money). */
export interface LegFigures {
  intrinsicMinor: Minor;
  extrinsicMinor: Minor;
  distancePct: number;
}

export interface RuleHit {
  rule: ManageRule;
  /** The figure the rule read: % captured, × the credit lost, days to expiry, extrinsic per share, the level's gap in %. */
  value: number;
  /** The rule's threshold, in the same unit. */
  threshold: number;
  message: string;
  /** The OCC symbol of the leg it is about; null for the whole trade. */
  leg: string | null;
}

const RANK = new Map<ManageRule, number>(MANAGE_RULES.map((rule, index) => [rule, index]));
export const ruleRank = (rule: ManageRule): number => RANK.get(rule) ?? MANAGE_RULES.length;

const RIGHT_WORDS = { P: 'put', C: 'call' } as const;
const LEVEL_WORDS = { gammaFlip: 'gamma flip', callWall: 'call wall', putWall: 'put wall' } as const;
const money = (minor: number) => formatMinor(asMinor(minor));
/** A per-share amount: cents, and the further decimals it has (a 0.485 dividend). */
const perShare = (minor: number) => {
  const text = formatMinor(asMinor(minor), 4);
  return text.endsWith('00') ? text.slice(0, -2) : text.endsWith('0') ? text.slice(0, -1) : text;
};

/** Intrinsic and extrinsic value per share of an option leg at `spot`, and its distance out of the money. */
export function legFigures(leg: Pick<ManagedLeg, 'markPrice' | 'strike' | 'right'>, spot: number): LegFigures | null {
  if (leg.strike === null || leg.right === null || !(spot > 0)) return null;
  const spotMinor = toMinor(spot);
  const strikeMinor = toMinor(leg.strike);
  const intrinsic = Math.max(leg.right === 'C' ? spotMinor - strikeMinor : strikeMinor - spotMinor, 0);
  const distance = leg.right === 'C' ? leg.strike - spot : spot - leg.strike;
  return { intrinsicMinor: asMinor(intrinsic), extrinsicMinor: asMinor(toMinor(leg.markPrice) - intrinsic), distancePct: (distance / spot) * 100 };
}

const isShortOption = (leg: ManagedLeg): leg is ManagedLeg & { expiration: string; strike: number; right: OptionRight; dte: number } =>
  leg.isOption && leg.quantity < 0 && leg.expiration !== null && leg.strike !== null && leg.right !== null && leg.dte !== null;

/** The rules a trade hits, most urgent first (each rule once per leg it is about). */
export function evaluateTrade(trade: ManagedTrade, rules: ManageRules, alerts: readonly LevelAlertFact[] = []): RuleHit[] {
  const hits: RuleHit[] = [];
  const shorts = trade.legs.filter(isShortOption);
  const credit = trade.maxProfitMinor !== null && trade.maxProfitMinor > 0 ? trade.maxProfitMinor : null;

  for (const leg of shorts) {
    const figures = legFigures(leg, trade.spot);
    if (figures === null) continue;
    const name = `short ${String(leg.strike)} ${RIGHT_WORDS[leg.right]} (${leg.expiration})`;
    if (rules.itmWithinDays !== null && figures.intrinsicMinor > 0 && leg.dte <= rules.itmWithinDays) {
      hits.push({
        rule: 'itm_near_expiry',
        value: leg.dte,
        threshold: rules.itmWithinDays,
        message: `The ${name} is ${money(figures.intrinsicMinor)} in the money with ${leg.dte} day${leg.dte === 1 ? '' : 's'} to expiry (rule: within ${rules.itmWithinDays}): assignment is near.`,
        leg: leg.symbol,
      });
    }
    if (rules.dividendRisk && leg.right === 'C' && figures.intrinsicMinor > 0) {
      const dividend = rules.upcomingDividends
        .filter((d) => d.symbol.toUpperCase() === trade.underlying.toUpperCase() && d.exDate > trade.asOfDate && d.exDate <= leg.expiration)
        .sort((a, b) => (a.exDate < b.exDate ? -1 : a.exDate > b.exDate ? 1 : b.amount - a.amount))[0];
      const amountMinor = dividend === undefined ? 0 : Math.round(dividend.amount * MINOR_PER_UNIT);
      if (dividend !== undefined && figures.extrinsicMinor < amountMinor) {
        hits.push({
          rule: 'dividend',
          value: figures.extrinsicMinor / MINOR_PER_UNIT,
          threshold: amountMinor / MINOR_PER_UNIT,
          message: `The ${name} has ${perShare(figures.extrinsicMinor)} of extrinsic value, less than the ${perShare(amountMinor)} dividend going ex on ${dividend.exDate}: early exercise the day before is likely.`,
          leg: leg.symbol,
        });
      }
    }
  }

  if (rules.levelAlerts) {
    // The newest alert of each short option and level.
    const seen = new Set<string>();
    const held = new Set(shorts.map((leg) => leg.symbol));
    for (const alert of [...alerts].sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0))) {
      if (alert.accountId !== trade.accountId || !held.has(alert.symbol)) continue;
      const key = `${alert.symbol}|${alert.level}`;
      if (seen.has(key)) continue;
      seen.add(key);
      hits.push({
        rule: 'level',
        value: alert.gapPct,
        threshold: alert.distancePct,
        message: alert.message || `The ${LEVEL_WORDS[alert.level]} ${alert.alert === 'crossed' ? 'crossed' : 'came near'} your short strike.`,
        leg: alert.symbol,
      });
    }
  }

  if (rules.manageAtDte !== null) {
    const options = shorts.length > 0 ? shorts : trade.legs.filter((leg) => leg.isOption && leg.dte !== null && leg.expiration !== null);
    let nearest: ManagedLeg | null = null;
    for (const leg of options) if (nearest === null || (leg.dte ?? 0) < (nearest.dte ?? 0)) nearest = leg;
    if (nearest !== null && nearest.dte !== null && nearest.dte <= rules.manageAtDte) {
      hits.push({
        rule: 'dte',
        value: nearest.dte,
        threshold: rules.manageAtDte,
        message: `${nearest.dte} day${nearest.dte === 1 ? '' : 's'} to the nearest expiration (${nearest.expiration ?? ''}): manage at ${rules.manageAtDte} DTE (close or roll).`,
        leg: nearest.symbol,
      });
    }
  }

  if (credit !== null) {
    if (rules.lossStopMultiple !== null && trade.totalMinor < 0 && -trade.totalMinor >= rules.lossStopMultiple * credit) {
      hits.push({
        rule: 'loss_stop',
        value: -trade.totalMinor / credit,
        threshold: rules.lossStopMultiple,
        message: `A loss of ${money(-trade.totalMinor)} ${trade.currency} is ${(-trade.totalMinor / credit).toFixed(2)}× the credit of ${money(credit)} (rule: stop at ${rules.lossStopMultiple}×).`,
        leg: null,
      });
    }
    if (rules.profitTargetPct !== null && trade.totalMinor * 100 >= rules.profitTargetPct * credit) {
      const pct = (trade.totalMinor / credit) * 100;
      hits.push({
        rule: 'profit_target',
        value: pct,
        threshold: rules.profitTargetPct,
        message: `${pct.toFixed(1)}% of the max profit captured (${money(trade.totalMinor)} of ${money(credit)} ${trade.currency}; target ${rules.profitTargetPct}%): take it.`,
        leg: null,
      });
    }
  }
  return hits.sort((a, b) => ruleRank(a.rule) - ruleRank(b.rule));
}
