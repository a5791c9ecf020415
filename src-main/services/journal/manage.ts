/**
 * What to manage today (DESIGN §5 "Management rules and rolls", docs/journal.md §Managing open trades), in the journal
 * worker: every open trade at asOf, its own open lots marked as Trades marks them (markPosition: the mid of the newest
 * snapshot at or before asOf), held to the management rules (src-shared/journal/manage.ts). A trade with a leg whose
 * mark is stale, or that no snapshot marks, fires no rule: it is listed apart, under `stale`, with its age.
 */
import { isoInstant } from '../../../src-shared/calendar';
import { asOfMs as asOfInZone } from '../../../src-shared/date-or-instant';
import { markAgeDays, markPosition, type Mark, type UnderlyingMarks } from '../../../src-shared/journal/book';
import type { OpenPosition } from '../../../src-shared/journal/index';
import { evaluateTrade, legFigures, ruleRank, type LegFigures, type LevelAlertFact, type ManagedLeg, type ManageRules, type RuleHit } from '../../../src-shared/journal/manage';
import type { Trade } from '../../../src-shared/journal/trades';
import { asMinor, type Minor } from '../../../src-shared/money';
import { dateInZone, NEW_YORK } from '../../../src-shared/zone';
import type { JournalBook } from './book';
import type { JournalIndex } from './ledger-index';
import { positionKey, type JournalTrades } from './trades';
import type { WithJournal } from './values';
import { failure, ok, type Result } from '../result';
import type { AccountId } from '../../../src-shared/ids';

export interface ManageRequest {
  asOf?: string;
  accountId?: AccountId;
}

export interface ManageSettings {
  timeZone: string;
  markMaxAgeDays: number;
  reportingCurrency: string;
}

/** An open leg of a trade as listed: its part of the position, its mark and its figures. */
export interface ManageLegRow extends ManagedLeg {
  multiplier: number;
  mark: Mark;
  figures: LegFigures | null;
}

export interface ManageItem {
  trade: Trade;
  accountName: string;
  hits: RuleHit[];
  /** Realized so far + unrealized of its open legs. */
  totalMinor: Minor;
  unrealizedMinor: Minor;
  /** The credit the profit and loss rules read (the trade's max profit); null for a debit trade. */
  creditMinor: Minor | null;
  pctOfMaxProfit: number | null;
  spot: number;
  /** The leg the most urgent rule is about (else the nearest short option, else the first leg): its mark. */
  mark: Mark | null;
  legs: ManageLegRow[];
}

export interface StaleItem {
  trade: Trade;
  accountName: string;
  /** The first leg without a fresh mark. */
  leg: string;
  reason: 'stale' | 'unmarked';
  quoteTime: string | null;
  ageDays: number | null;
}

export interface ManageResult {
  asOf: string;
  currency: string;
  rules: ManageRules;
  /** Open trades held to the rules (with a leg not yet expired). */
  open: number;
  items: ManageItem[];
  stale: StaleItem[];
}

const nearestDte = (item: ManageItem) => item.legs.reduce((min, leg) => (leg.dte !== null && leg.dte < min ? leg.dte : min), Number.POSITIVE_INFINITY);

/** Most urgent first: the first rule's rank, then the nearest expiration, then the trade's id. */
function compareItems(a: ManageItem, b: ManageItem): number {
  const rank = ruleRank(a.hits[0]?.rule ?? 'profit_target') - ruleRank(b.hits[0]?.rule ?? 'profit_target');
  return rank || nearestDte(a) - nearestDte(b) || (a.trade.id < b.trade.id ? -1 : a.trade.id > b.trade.id ? 1 : 0);
}

export class JournalManage {
  constructor(
    private readonly index: JournalIndex,
    private readonly book: JournalBook,
    private readonly trades: JournalTrades,
    private readonly settings: () => ManageSettings,
    private readonly nowMs: () => number,
  ) {}

  private asOfMs(asOf: string | undefined): number {
    if (asOf === undefined) return this.nowMs();
    return asOfInZone(asOf, this.settings().timeZone);
  }

  /** The open trades that hit a rule at asOf, most urgent first, and those whose marks are stale. */
  manage(request: ManageRequest, rules: ManageRules, alerts: readonly LevelAlertFact[]): Result<WithJournal<ManageResult>> {
    const { accounts, demo } = this.index.snapshot();
    if (request.accountId !== undefined && !accounts.some((a) => a.id === request.accountId)) {
      return failure({ kind: 'unknown-account', accountId: request.accountId, known: accounts.map((a) => a.id) });
    }
    const asOfMs = this.asOfMs(request.asOf);
    const { markMaxAgeDays, reportingCurrency } = this.settings();
    const asOfDate = dateInZone(asOfMs, NEW_YORK);
    const names = new Map(accounts.map((a) => [a.id, a.name]));
    const at = this.trades.tradesAt(asOfMs);
    const marks = new Map<string, UnderlyingMarks | null>();
    const marksOf = (underlying: string) => {
      let found = marks.get(underlying);
      if (found === undefined) {
        found = this.book.marks.marksAt(underlying, asOfMs);
        marks.set(underlying, found);
      }
      return found;
    };
    // An alert is as current as a mark may be: raised within markMaxAgeDays trading days, not after asOf.
    const recent = rules.levelAlerts ? alerts.filter((a) => Date.parse(a.timestamp) <= asOfMs && markAgeDays(a.timestamp, asOfMs) <= markMaxAgeDays) : [];
    const items: ManageItem[] = [];
    const stale: StaleItem[] = [];
    let open = 0;
    for (const trade of at.book.trades) {
      if (trade.status !== 'open' || (request.accountId !== undefined && trade.accountId !== request.accountId)) continue;
      const accountName = names.get(trade.accountId) ?? (trade.accountName || trade.accountId);
      const legs: ManageLegRow[] = [];
      let unrealized = 0;
      let missing: StaleItem | null = null;
      let spot = 0;
      for (const part of at.book.openParts.get(trade.id) ?? []) {
        const position = at.positions.get(positionKey(part.accountId, part.currency, part.symbol));
        if (position === undefined) continue;
        // An option past its expiration waits under Positions' needs attention (its expiry is not known yet).
        if (position.isOption && position.expiration !== null && position.expiration < asOfDate) continue;
        const own: OpenPosition = { ...position, quantity: part.quantity, entryGrossMinor: part.entryGrossMinor, entryCostsMinor: part.entryCostsMinor };
        const underlyingMarks = marksOf(position.underlying);
        const marked = markPosition(own, underlyingMarks, asOfMs, markMaxAgeDays);
        if (marked.mark === null || marked.mark.stale || marked.unrealizedMinor === null || underlyingMarks === null) {
          missing ??= {
            trade,
            accountName,
            leg: part.symbol,
            reason: marked.mark?.stale === true ? 'stale' : 'unmarked',
            quoteTime: underlyingMarks?.quoteTime ?? null,
            ageDays: underlyingMarks === null ? null : markAgeDays(underlyingMarks.quoteTime, asOfMs),
          };
          continue;
        }
        spot = underlyingMarks.spot;
        unrealized += marked.unrealizedMinor;
        const size = part.quantity * position.multiplier;
        const leg: ManagedLeg = {
          symbol: part.symbol,
          isOption: position.isOption,
          expiration: position.expiration,
          strike: position.strike,
          right: position.right,
          quantity: part.quantity,
          markPrice: marked.mark.price,
          dte: marked.dte,
          delta: position.isOption && marked.greeks !== null && size !== 0 ? marked.greeks.delta / size : null,
        };
        legs.push({ ...leg, multiplier: position.multiplier, mark: marked.mark, figures: position.isOption ? legFigures(leg, underlyingMarks.spot) : null });
      }
      if (legs.length === 0 && missing === null) continue;
      open += 1;
      if (missing !== null) {
        stale.push(missing);
        continue;
      }
      const totalMinor = (trade.pnlMinor ?? 0) + unrealized;
      const credit = trade.maxProfitMinor !== null && trade.maxProfitMinor > 0 ? trade.maxProfitMinor : null;
      const hits = evaluateTrade(
        { tradeId: trade.id, accountId: trade.accountId, underlying: trade.underlying, currency: trade.currency, totalMinor, maxProfitMinor: credit, spot, asOfDate, legs },
        rules,
        recent,
      );
      if (hits.length === 0) continue;
      const about = hits[0]?.leg ?? null;
      const markLeg = legs.find((l) => l.symbol === about) ?? legs.filter((l) => l.isOption && l.quantity < 0).sort((a, b) => (a.dte ?? 0) - (b.dte ?? 0))[0] ?? legs[0];
      items.push({
        trade,
        accountName,
        hits,
        totalMinor: asMinor(totalMinor),
        unrealizedMinor: asMinor(unrealized),
        creditMinor: credit === null ? null : asMinor(credit),
        pctOfMaxProfit: credit === null ? null : totalMinor / credit,
        spot,
        mark: markLeg?.mark ?? null,
        legs,
      });
    }
    items.sort(compareItems);
    stale.sort((a, b) => (a.trade.underlying < b.trade.underlying ? -1 : a.trade.underlying > b.trade.underlying ? 1 : a.trade.id < b.trade.id ? -1 : 1));
    return ok({ asOf: isoInstant(asOfMs), currency: reportingCurrency, rules, open, items, stale, accounts, demo });
  }
}
