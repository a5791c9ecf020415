/**
 * Trades, their statistics and their notes in the journal worker (docs/journal.md §Trades and strategies,
 * §Annotations). The grouping (src-shared/journal/trades.ts) is built once per data version — the journal's rows with
 * the inferred expirations, the snapshots (the entry figures come from them), the rate and the zone — never per
 * request: a request filters and pages what was built, adds up the stats, and marks only the open trades of its page.
 * The annotations have their own generation (migration 010), so a note re-reads the notes, not the ledger.
 */
import { drive, type Steps } from '../../../src-shared/journal/pieces';
import type { Database } from 'better-sqlite3';
import { markPosition, type UnderlyingMarks } from '../../../src-shared/journal/book';
import type { Ledger, OpenPosition } from '../../../src-shared/journal/index';
import type { Account, Transaction } from '../../../src-shared/journal/model';
import { queryTrades, tradeStats, type StatsRow, type TradeGroup, type TradeQuery } from '../../../src-shared/journal/trade-stats';
import { entryLookupFromMarks, levelsAtEntryIn, type LevelsAtEntry } from '../../../src-shared/journal/trade-metrics';
import { DEFAULT_LEVELS_SCOPE, type LevelsScope } from '../../../src-shared/api/constants';
import { buildTrades, LiveTrades, tradeTimeline, type TimelineEntry, type Trade, type TradeBook } from '../../../src-shared/journal/trades';
import { AnnotationsRepository, type Annotation, type AnnotationKind } from '../../db/annotations';
import { Generations } from '../../db/generations';
import type { JournalBook } from './book';
import type { JournalIndex } from './ledger-index';
import type { Pagination, WithJournal } from './values';
import { failure, ok, type Result } from '../result';
import { asMinor, type Minor } from '../../../src-shared/money';
import { instantMs } from '../../../src-shared/journal/order';
import { dateInZone } from '../../../src-shared/zone';
import type { WriteTx } from '../../db/writes';
import type { AccountId, TradeId } from '../../../src-shared/ids';

export interface TradesSettings {
  timeZone: string;
  rate: number;
  markMaxAgeDays: number;
  reportingCurrency: string;
}

export interface TradesRequest extends Omit<TradeQuery, 'taggedIds'> {
  tag?: string;
  /** The levels at entry (docs/journal.md §Levels scope): own (default), nearest or book. */
  levelsScope?: LevelsScope;
}

export interface StatsRequest {
  groupBy: TradeGroup;
  from?: string;
  to?: string;
  accountId?: AccountId;
}

/** A trade as answered: the built figures, its note and tags, and while open what its open legs are worth now. */
export interface TradeRow {
  trade: Trade;
  accountName: string;
  note: string;
  tags: string[];
  /** Open trades: its own open lots marked as a position is (their mark less their cost); null without a fresh mark. */
  unrealizedMinor: Minor | null;
  /** pnl (+ unrealized while open) / collateral and / max profit: closed trades as built, open ones with the marks. */
  returnOnCollateral: number | null;
  pctOfMaxProfit: number | null;
  /** The levels at entry in the scope asked for (the built trade's are its own expiration's). */
  levelsAtEntry: LevelsAtEntry | null;
}

export interface TradesResult {
  currency: string;
  levelsScope: LevelsScope;
  trades: TradeRow[];
  pagination: Pagination;
}

export interface TradeDetailResult {
  currency: string;
  levelsScope: LevelsScope;
  row: TradeRow;
  timeline: TimelineEntry[];
}

export interface StatsResult {
  currency: string;
  groupBy: TradeGroup;
  rows: StatsRow[];
}

export interface AnnotationInput {
  note: string;
  tags: readonly string[];
}

export interface AnnotationResult {
  kind: AnnotationKind;
  id: string;
  note: string;
  tags: string[];
  updatedAt: string | null;
}

/** The notes of one kind, and the ids under each tag. */
interface Notes {
  byId: Map<string, Annotation>;
  byTag: Map<string, Set<string>>;
}

/** The trades of the whole journal as built once per data version. */
export interface TradesBuilt {
  ledger: object;
  /** The journal's ledger (without inferred expirations) they were built with, and their walk kept open (LiveTrades). */
  base?: Ledger;
  live?: LiveTrades;
  /** The inferred expirations walked (their ids, evidence and days). */
  inferredKey?: string;
  snapshots: number;
  rate: number;
  timeZone: string;
  book: TradeBook;
  /** The book's open positions, by account, currency and symbol (an open trade's legs are parts of them). */
  positions: Map<string, OpenPosition>;
  /** Campaign ids by their lower case (the router reads paths without case). */
  campaignIds: Map<string, string>;
}

/** Trades and the book's open positions (by account, currency and symbol) at one instant. */
export interface TradesAt {
  book: TradeBook;
  positions: Map<string, OpenPosition>;
}

export const positionKey = (accountId: string, currency: string, symbol: string) => `${accountId}\u0000${currency}\u0000${symbol}`;

/** A tag as kept: trimmed, inner spaces as one, lower case (so `Earnings` and `earnings ` are one tag). */
export function normalizeTag(tag: string): string {
  return tag.trim().replace(/\s+/g, ' ').toLowerCase();
}

const ratio = (numerator: number, denominator: number | null): number | null => (denominator !== null && denominator > 0 ? numerator / denominator : null);

export class JournalTrades {
  private readonly annotations: AnnotationsRepository;
  private readonly generations: Generations;
  private built: TradesBuilt | null = null;
  /** The trades at a past instant (the management rules' asOf), kept for the next read of the same instant. */
  private past: { ledger: object; asOfMs: number; at: TradesAt } | null = null;
  private notes: { generation: number; trade: Notes; campaign: Notes } | null = null;
  /** Walks resumed at a checkpoint (a test's counter). */
  resumes = 0;

  constructor(
    db: Database,
    private index: JournalIndex,
    private book: JournalBook,
    private readonly settings: () => TradesSettings,
    private readonly nowMs: () => number,
  ) {
    this.annotations = new AnnotationsRepository(db);
    this.generations = new Generations(db);
  }

  /** These trades over a published index and book (JournalIndex.published). */
  published(index: JournalIndex, book: JournalBook): JournalTrades {
    const copy = Object.assign(Object.create(JournalTrades.prototype) as JournalTrades, this);
    copy.index = index;
    copy.book = book;
    return copy;
  }

  /** The trades of the whole journal (every row and inferred expiration), built once per data version. */
  tradeBook(): TradesBuilt {
    return drive(this.tradeBookSteps());
  }

  /** The trades as tradeBook builds them, a piece at a time (pieces.ts: the worker answers reads between pieces). */
  *tradeBookSteps(): Steps<TradesBuilt> {
    yield* this.book.completeSteps();
    // The complete ledger first: it notices a change of the journal or the snapshots and drops the stale marks.
    const { ledger, inferred } = this.book.ledgerAt(Number.POSITIVE_INFINITY);
    const snapshots = this.generations.snapshots();
    const { rate, timeZone } = this.settings();
    const built = this.built;
    if (built !== null && built.ledger === ledger && built.snapshots === snapshots && built.rate === rate && built.timeZone === timeZone) return built;
    const base = this.index.ledger();
    const inferredKey = inferred.map((i) => `${i.transaction.id}@${i.evidenceMs}@${i.transaction.tradeDay}`).join(',');
    const lookup = entryLookupFromMarks((underlying, atMs) => this.book.marks.marksAt(underlying, atMs));
    const options = { campaigns: ledger.campaigns, lookup };
    const positions = new Map(ledger.positions.map((p) => [positionKey(p.accountId, p.currency, p.symbol), p]));
    const campaignIds = new Map(ledger.campaigns.map((c) => [c.id.toLowerCase(), c.id]));
    // The journal's ledger walked on with rows dated after it, the snapshots, settings and inferred expirations the
    // same: the trades walk on with those rows (docs/journal.md §Staying current); else they are built from the first row.
    if (built?.live !== undefined && built.base !== undefined && built.snapshots === snapshots && built.rate === rate && built.timeZone === timeZone && built.inferredKey === inferredKey) {
      const added = this.index.rowsSince(built.base, base);
      const book = added === null ? null : built.live.extend(added, options);
      if (book !== null) {
        this.built = { ledger, base, live: built.live, inferredKey, snapshots, rate, timeZone, book, positions, campaignIds };
        return this.built;
      }
      // Rows changed from some day on (a write in the middle, an undo, an edit): the walk resumes at its checkpoint before.
      const change = this.index.changeSince(built.base, base);
      const point = change === null ? null : built.live.resumePoint(change.fromDay);
      if (change !== null && point !== null) {
        const rows = change.rows !== null && change.fromDay === point.day ? change.rows.slice() : this.index.transactionsFromDay(point.day);
        for (const item of inferred) if (item.transaction.tradeDay >= point.day) rows.push(item.transaction);
        // The rows from the checkpoint's day on and those before it add up to the journal's (else the order went back a day).
        const resumed = point.position + rows.length === base.transactionCount + inferred.length ? yield* built.live.resumeSteps(point.at, rows, options) : null;
        if (resumed !== null) {
          this.resumes += 1;
          this.built = { ledger, base, live: resumed.live, inferredKey, snapshots, rate, timeZone, book: resumed.book, positions, campaignIds };
          return this.built;
        }
      }
    }
    const rows: Transaction[] = this.index.readTransactions(() => true);
    for (const item of inferred) rows.push(item.transaction);
    yield;
    const { live, book } = yield* LiveTrades.buildSteps(rows, options, this.index.checkpointEvery);
    this.built = { ledger, base, live, inferredKey, snapshots, rate, timeZone, book, positions, campaignIds };
    return this.built;
  }

  /**
   * The trades as they stood at an instant, with the book's positions then: the built trades when the journal holds
   * nothing dated after that day; else built from the rows up to the instant and the expirations inferred by then
   * (without the entry figures, which no read at an instant needs), kept for the next read of that instant.
   */
  tradesAt(asOfMs: number): TradesAt {
    const built = this.tradeBook();
    const lastDay = this.index.snapshot().accounts.reduce((last, a) => (a.lastTradeDay > last ? a.lastTradeDay : last), '');
    if (lastDay === '' || dateInZone(asOfMs, this.settings().timeZone) > lastDay) return built;
    if (this.past !== null && this.past.ledger === built.ledger && this.past.asOfMs === asOfMs) return this.past.at;
    const { ledger, inferred } = this.book.bookAt(asOfMs);
    const rows = this.index.readTransactions((tx) => instantMs(tx.tradeDate, tx.tradeDay) <= asOfMs);
    for (const item of inferred) rows.push(item.transaction);
    const at: TradesAt = { book: buildTrades(rows), positions: new Map(ledger.positions.map((p) => [positionKey(p.accountId, p.currency, p.symbol), p])) };
    this.past = { ledger: built.ledger, asOfMs, at };
    return at;
  }

  private notesNow(): { trade: Notes; campaign: Notes } {
    const generation = this.annotations.generation();
    if (this.notes !== null && this.notes.generation === generation) return this.notes;
    const notesOf = (kind: AnnotationKind): Notes => {
      const byId = this.annotations.all(kind);
      const byTag = new Map<string, Set<string>>();
      for (const [id, annotation] of byId) {
        for (const tag of annotation.tags) {
          const ids = byTag.get(tag) ?? new Set<string>();
          ids.add(id);
          byTag.set(tag, ids);
        }
      }
      return { byId, byTag };
    };
    this.notes = { generation, trade: notesOf('trade'), campaign: notesOf('campaign') };
    return this.notes;
  }

  private knownAccount(accountId: AccountId | undefined): Result<true> {
    if (accountId === undefined) return ok(true);
    const accounts = this.index.snapshot().accounts;
    return accounts.some((a) => a.id === accountId) ? ok(true) : failure({ kind: 'unknown-account', accountId, known: accounts.map((a) => a.id) });
  }

  /** A page of trades, newest opened first, after the filters; open trades marked now. */
  trades(request: TradesRequest): Result<WithJournal<TradesResult>> {
    const known = this.knownAccount(request.accountId);
    if (!known.ok) return known;
    const built = this.tradeBook();
    const notes = this.notesNow().trade;
    const { tag, levelsScope = DEFAULT_LEVELS_SCOPE, ...query } = request;
    const taggedIds = tag === undefined ? undefined : (notes.byTag.get(normalizeTag(tag)) ?? new Set<string>());
    const page = queryTrades(built.book, { ...query, ...(taggedIds === undefined ? {} : { taggedIds }) });
    const { accounts, demo } = this.index.snapshot();
    const rowOf = this.rowMaker(built, notes, accounts, levelsScope);
    return ok({ currency: this.settings().reportingCurrency, levelsScope, trades: page.trades.map(rowOf), pagination: page.pagination, accounts, demo });
  }

  /** One trade by its id (any case) as the list shows it, with its timeline: each of its rows, in order; or a 404. */
  trade(id: TradeId, levelsScope: LevelsScope = DEFAULT_LEVELS_SCOPE): Result<WithJournal<TradeDetailResult>> {
    const known = this.resolve('trade', id);
    if (!known.ok) return known;
    const built = this.tradeBook();
    const trade = built.book.byId.get(known.value);
    if (trade === undefined) return failure({ kind: 'not-found', what: 'trade', id });
    const { accounts, demo } = this.index.snapshot();
    const row = this.rowMaker(built, this.notesNow().trade, accounts, levelsScope)(trade);
    // Inferred expirations are not rows of the file: the complete ledger holds them.
    const inferred = new Map(this.book.ledgerAt(Number.POSITIVE_INFINITY).inferred.map((item) => [item.transaction.id, item.transaction]));
    const rows = new Map(this.index.byIds(trade.legs.map((leg) => leg.txId).filter((txId) => !inferred.has(txId))).map((tx) => [tx.id, tx]));
    for (const leg of trade.legs) {
      const tx = inferred.get(leg.txId);
      if (tx !== undefined) rows.set(tx.id, tx);
    }
    return ok({ currency: this.settings().reportingCurrency, levelsScope, row, timeline: tradeTimeline(trade, rows), accounts, demo });
  }

  /** A trade as answered (the list's rows and the detail's are one): its note and tags, and an open one marked now. */
  private rowMaker(built: TradesBuilt, notes: Notes, accounts: readonly Account[], levelsScope: LevelsScope): (trade: Trade) => TradeRow {
    const names = new Map(accounts.map((a) => [a.id, a.name]));
    // The built trades hold their own expiration's levels; another scope is computed for the answered rows alone.
    const lookup = levelsScope === DEFAULT_LEVELS_SCOPE ? null : entryLookupFromMarks((underlying, atMs) => this.book.marks.marksAt(underlying, atMs));
    const marks = new Map<string, UnderlyingMarks | null>();
    const marksOf = (underlying: string) => {
      let found = marks.get(underlying);
      if (found === undefined) {
        found = this.book.marks.marksAt(underlying, this.nowMs());
        marks.set(underlying, found);
      }
      return found;
    };
    return (trade) => {
      const annotation = notes.byId.get(trade.id);
      const unrealizedMinor = trade.status === 'open' ? this.unrealized(trade, built, marksOf) : null;
      const total = trade.pnlMinor === null || unrealizedMinor === null ? null : trade.pnlMinor + unrealizedMinor;
      return {
        trade,
        accountName: names.get(trade.accountId) ?? (trade.accountName || trade.accountId),
        note: annotation?.note ?? '',
        tags: annotation?.tags ?? [],
        unrealizedMinor,
        returnOnCollateral: trade.status === 'open' ? (total === null ? null : ratio(total, trade.collateralMinor)) : trade.returnOnCollateral,
        pctOfMaxProfit: trade.status === 'open' ? (total === null ? null : ratio(total, trade.maxProfitMinor)) : trade.pctOfMaxProfit,
        levelsAtEntry: lookup === null ? trade.levelsAtEntry : levelsAtEntryIn(lookup, trade, levelsScope),
      };
    };
  }

  /**
   * What an open trade's own open lots are worth beyond their cost now, marked as the Positions page marks a position
   * (markPosition: the mid of the newest fresh snapshot): each of its parts is a position of its own, with the
   * instrument of the book's position and the trade's units, entry value and costs. Null when a part has no fresh mark.
   */
  private unrealized(trade: Trade, built: TradesBuilt, marksOf: (underlying: string) => UnderlyingMarks | null): Minor | null {
    const maxAgeDays = this.settings().markMaxAgeDays;
    const nowMs = this.nowMs();
    let sum = 0;
    for (const part of built.book.openParts.get(trade.id) ?? []) {
      const position = built.positions.get(positionKey(part.accountId, part.currency, part.symbol));
      if (position === undefined) return null;
      const own: OpenPosition = { ...position, quantity: part.quantity, entryGrossMinor: part.entryGrossMinor, entryCostsMinor: part.entryCostsMinor };
      const marked = markPosition(own, marksOf(position.underlying), nowMs, maxAgeDays);
      if (marked.unrealizedMinor === null) return null;
      sum += marked.unrealizedMinor;
    }
    return asMinor(sum);
  }

  /** Statistics of the closed trades in the reporting currency, per group. */
  stats(request: StatsRequest): Result<WithJournal<StatsResult>> {
    const known = this.knownAccount(request.accountId);
    if (!known.ok) return known;
    const built = this.tradeBook();
    const notes = this.notesNow().trade;
    const currency = this.settings().reportingCurrency;
    const { rows, groupBy } = tradeStats(built.book, { ...request, currency, tagsOf: (id) => notes.byId.get(id)?.tags ?? [] });
    const { accounts, demo } = this.index.snapshot();
    return ok({ currency, groupBy, rows, accounts, demo });
  }

  /** The stored id of a trade or campaign named in a path (any case), or a 404. */
  resolve(kind: AnnotationKind, id: string): Result<string> {
    const built = this.tradeBook();
    const wanted = id.toLowerCase();
    if (kind === 'campaign') {
      const found = built.campaignIds.get(wanted);
      return found === undefined ? failure({ kind: 'not-found', what: 'chain', id }) : ok(found);
    }
    if (built.book.byId.has(id)) return ok(id);
    const found = built.book.trades.find((t) => t.id.toLowerCase() === wanted);
    return found === undefined ? failure({ kind: 'not-found', what: 'trade', id }) : ok(found.id);
  }

  /** Sets a note and tags (inside the caller's write transaction); an empty note without tags removes them. */
  annotate(turn: WriteTx, kind: AnnotationKind, id: string, input: AnnotationInput): AnnotationResult {
    const updatedAt = new Date(this.nowMs()).toISOString();
    const tags = [...new Set(input.tags.map(normalizeTag))].filter((tag) => tag !== '').sort();
    const note = input.note.trim() === '' ? '' : input.note;
    this.annotations.put(turn, kind, id, note, tags, updatedAt);
    const stored = this.annotations.get(kind, id);
    return { kind, id, note: stored?.note ?? '', tags: stored?.tags ?? [], updatedAt: stored?.updatedAt ?? null };
  }

  /** The note and tags of a trade or campaign the journal has now (empty when it has none), or a 404. */
  annotationFor(kind: AnnotationKind, id: string): Result<AnnotationResult> {
    const known = this.resolve(kind, id);
    if (!known.ok) return known;
    const stored = this.notesNow()[kind].byId.get(known.value);
    return ok({ kind, id: known.value, note: stored?.note ?? '', tags: stored?.tags ?? [], updatedAt: stored?.updatedAt ?? null });
  }
}
