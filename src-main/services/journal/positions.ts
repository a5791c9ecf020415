/**
 * The book reads of the journal (docs/journal.md §Positions, §Campaigns): positions and campaigns at an instant, marked
 * from the snapshots (a mark older than `markMaxAgeDays` trading days is stale: shown, never summed), with what needs
 * attention. The book is of all accounts; an account's is its part of it (lots, campaigns and rolls are per account).
 */
import { DEFAULT_LEVELS_SCOPE } from '../../../src-shared/api/constants';
import { isoInstant } from '../../../src-shared/calendar';
import { asOfMs as asOfInZone } from '../../../src-shared/date-or-instant';
import { underlyingOfRoot } from '../../../src-shared/exposure/roots';
import { campaignFigures, markAgeDays, markPosition, positionsByCampaign, type UnderlyingMarks } from '../../../src-shared/journal/book';
import type { BookLedger } from '../../../src-shared/journal/checkpoints';
import type { CampaignRecord } from '../../../src-shared/journal/index';
import { isCampaign } from '../../../src-shared/journal/campaigns';
import type { Account } from '../../../src-shared/journal/model';
import { dateInZone } from '../../../src-shared/zone';
import type { JournalBook } from './book';
import { otherRows } from './expiry-settlement';
import type { JournalIndex } from './ledger-index';
import type { BookRequest, CampaignRow, CampaignsRequest, CampaignDetail, CampaignsResult, PositionRow, PositionsResult, PositionTotals, WithJournal } from './values';
import { pageOf } from './values';
import { failure, ok, type Result } from '../result';
import { minorFieldsAll, minorFields } from '../../../src-shared/money';
import type { AccountId } from '../../../src-shared/ids';

export interface BookReadSettings {
  timeZone: string;
  markMaxAgeDays: number;
}

/** Account names as people read them; tickers, ISO dates and rights by their characters (a sort of 700 rows stays cheap). */
const nameOrder = new Intl.Collator();
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Each distinct name's place in the collation; names the collator holds equal share a place, as they did compared pairwise. */
function collationRanks(names: readonly string[]): Map<string, number> {
  const sorted = [...new Set(names)].sort((a, b) => nameOrder.compare(a, b));
  const rank = new Map<string, number>();
  let place = 0;
  sorted.forEach((name, index) => {
    const previous = sorted[index - 1];
    if (previous !== undefined && nameOrder.compare(previous, name) !== 0) place += 1;
    rank.set(name, place);
  });
  return rank;
}

/** By underlying, account, shares before options, expiration, strike, right; `rank` orders the account names. */
function comparePositions(a: PositionRow, b: PositionRow, rank: ReadonlyMap<string, number>): number {
  const x = a.position;
  const y = b.position;
  return (
    byText(x.underlying, y.underlying) ||
    (rank.get(a.accountName) ?? 0) - (rank.get(b.accountName) ?? 0) ||
    Number(x.isOption) - Number(y.isOption) ||
    byText(x.expiration ?? '', y.expiration ?? '') ||
    (x.strike ?? 0) - (y.strike ?? 0) ||
    byText(x.right ?? '', y.right ?? '')
  );
}

/** Totals in the reporting currency: market value and unrealized over the positions with a fresh mark only. */
function totalsOf(rows: readonly PositionRow[], currency: string): PositionTotals {
  const sum = { costBasisMinor: 0, collateralMinor: 0, marketValueMinor: 0, unrealizedMinor: 0, unmarked: 0, unmarkedCount: 0, staleCount: 0 };
  for (const row of rows) {
    if (row.position.currency !== currency) continue;
    sum.costBasisMinor += row.costBasisMinor;
    sum.collateralMinor += row.position.collateralMinor ?? 0;
    if (row.marketValueMinor !== null && row.unrealizedMinor !== null) {
      sum.marketValueMinor += row.marketValueMinor;
      sum.unrealizedMinor += row.unrealizedMinor;
      continue;
    }
    sum.unmarked += 1;
    if (row.mark?.stale === true) sum.staleCount += 1;
    else sum.unmarkedCount += 1;
  }
  return minorFields(sum);
}

export class JournalBookReads {
  constructor(
    private readonly index: JournalIndex,
    private readonly book: JournalBook,
    private readonly settings: () => BookReadSettings,
    private readonly nowMs: () => number,
  ) {}

  knownAccount(accountId: AccountId | undefined): Result<true> {
    if (accountId === undefined) return ok(true);
    const accounts = this.index.snapshot().accounts;
    return accounts.some((a) => a.id === accountId) ? ok(true) : failure({ kind: 'unknown-account', accountId, known: accounts.map((a) => a.id) });
  }

  /** `asOf` of a book read: an instant (read in the journal zone without an offset), a date the end of that day; default now. */
  private asOfMs(asOf: string | undefined): number {
    if (asOf === undefined) return this.nowMs();
    return asOfInZone(asOf, this.settings().timeZone);
  }

  /** Open positions at `asOf`, marked from the newest snapshot of each underlying at or before it. */
  positions(query: BookRequest): Result<WithJournal<PositionsResult>> {
    const known = this.knownAccount(query.accountId);
    if (!known.ok) return known;
    const asOfMs = this.asOfMs(query.asOf);
    const { accounts, demo } = this.index.snapshot();
    const names = new Map<string, string>(accounts.map((a) => [a.id, a.name]));
    const nameOf = (id: string) => names.get(id) ?? id;
    const { ledger, needsAttention, inferred } = this.book.bookAt(asOfMs);
    // A root finds its chain's positions (symbol=SPXW: the SPX book), as the rows name the chain (§Underlying roots).
    const symbol = query.symbol === undefined ? undefined : underlyingOfRoot(query.symbol);
    const wanted = (p: { underlying: string; accountId: string }) => (symbol === undefined || p.underlying === symbol) && (query.accountId === undefined || p.accountId === query.accountId);
    // Expired options waiting for a decision are listed there, not as positions.
    const keyOf = (p: { accountId: string; currency: string; symbol: string }) => `${p.accountId}\u0000${p.currency}\u0000${p.symbol}`;
    const waiting = new Set(needsAttention.filter((n) => n.kind !== 'opened_before_history').map(keyOf));
    const { marksOf, marksBySymbol } = this.marksMemo(asOfMs);
    const maxAgeDays = this.settings().markMaxAgeDays;
    const levelsScope = query.levelsScope ?? DEFAULT_LEVELS_SCOPE;
    // The name set on the marked object rather than spread into a copy, and the names collated once, not per comparison
    // (742 positions: a third of the read).
    const positions: PositionRow[] = ledger.positions
      .filter((p) => wanted(p) && !waiting.has(keyOf(p)))
      .map((p) => Object.assign(markPosition(p, marksOf(p.underlying), asOfMs, maxAgeDays, levelsScope), { accountName: nameOf(p.accountId) }));
    const rank = collationRanks(positions.map((p) => p.accountName));
    positions.sort((a, b) => comparePositions(a, b, rank));
    const currency = ledger.reportingCurrency;
    const accountIds = [...new Set(positions.map((p) => p.position.accountId))].sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
    const marks: PositionsResult['marks'] = [];
    for (const [underlying, m] of [...marksBySymbol].sort(([a], [b]) => a.localeCompare(b))) {
      if (m === null) continue;
      const ageDays = markAgeDays(m.quoteTime, asOfMs);
      marks.push({ symbol: underlying, snapshotId: m.snapshotId, quoteTime: m.quoteTime, spot: m.spot, ageDays, stale: ageDays > maxAgeDays });
    }
    return ok({
      asOf: isoInstant(asOfMs),
      currency,
      levelsScope,
      positions,
      totals: {
        ...totalsOf(positions, currency),
        byAccount: accountIds.map((accountId) => ({ accountId, accountName: nameOf(accountId), ...totalsOf(positions.filter((p) => p.position.accountId === accountId), currency) })),
      },
      marks,
      needsAttention: [...needsAttention, ...(symbol === undefined ? this.index.otherCash(isoInstant(asOfMs)).map(otherRows) : [])]
        .filter(wanted)
        .map((n) => ({ ...n, accountName: nameOf(n.accountId) })),
      inferredExpirations: inferred
        .filter((i) => wanted(i.transaction))
        .map((i) => ({ ...i, transaction: { ...i.transaction, accountName: nameOf(i.transaction.accountId) }, accountName: nameOf(i.transaction.accountId) })),
      accounts,
      demo,
    });
  }

  /** The campaigns at `asOf`, newest first, with their returns. */
  campaigns(query: CampaignsRequest): Result<WithJournal<CampaignsResult>> {
    const known = this.knownAccount(query.accountId);
    if (!known.ok) return known;
    const asOfMs = this.asOfMs(query.asOf);
    const { accounts, demo } = this.index.snapshot();
    const { ledger } = this.book.bookAt(asOfMs);
    // A root finds its chain's positions (symbol=SPXW: the SPX book), as the rows name the chain (§Underlying roots).
    const symbol = query.symbol === undefined ? undefined : underlyingOfRoot(query.symbol);
    const campaigns = ledger.campaigns
      .filter(
        (c) =>
          isCampaign(c) &&
          (query.accountId === undefined || c.accountId === query.accountId) &&
          (symbol === undefined || c.underlying === symbol) &&
          (query.status === undefined || (query.status === 'open') === (c.closeDay === null)),
      )
      .sort((a, b) => (a.openDay < b.openDay ? 1 : a.openDay > b.openDay ? -1 : a.id < b.id ? -1 : 1));
    // Newest opened first, a page at a time; only the page's campaigns are marked and figured.
    const { offset, limit, pagination } = pageOf(query.page, query.limit, campaigns.length);
    const rows = this.campaignRows(ledger, campaigns.slice(offset, offset + limit), asOfMs, accounts);
    return ok({ asOf: isoInstant(asOfMs), currency: ledger.reportingCurrency, campaigns: rows, pagination, accounts, demo });
  }

  /** One campaign with its timeline and open positions. */
  campaign(id: string, asOf: string | undefined): Result<CampaignDetail> {
    const asOfMs = this.asOfMs(asOf);
    // The router lowercases paths (and so the id); account ids are lowercase, tickers and currencies upper case.
    const wanted = id.toLowerCase();
    const accounts = this.index.snapshot().accounts;
    const accountId = accounts.find((a) => wanted.startsWith(`${a.id.toLowerCase()}:`))?.id;
    const { ledger } = this.book.ledgerAt(asOfMs, accountId, true);
    const record = ledger.campaigns.find((c) => c.id.toLowerCase() === wanted);
    // "No chain with id …": the public route's noun (/v1/journal/chains/{id}), kept as the API has always said it.
    if (record === undefined) return failure({ kind: 'not-found', what: 'chain', id });
    const [campaign] = this.campaignRows(ledger, [record], asOfMs, accounts);
    if (campaign === undefined) return failure({ kind: 'not-found', what: 'chain', id });
    const maxAgeDays = this.settings().markMaxAgeDays;
    const positions = ledger.positions
      .filter((p) => p.campaignId === record.id)
      .map((p) => Object.assign(markPosition(p, this.book.marks.marksAt(p.underlying, asOfMs), asOfMs, maxAgeDays), { accountName: campaign.accountName }))
      .sort((a, b) => comparePositions(a, b, new Map()));
    return ok({ asOf: isoInstant(asOfMs), campaign, timeline: minorFieldsAll(record.steps), positions });
  }

  /** The marks of each underlying at `asOfMs`, looked up once per read. */
  private marksMemo(asOfMs: number): { marksOf: (underlying: string) => UnderlyingMarks | null; marksBySymbol: Map<string, UnderlyingMarks | null> } {
    const marksBySymbol = new Map<string, UnderlyingMarks | null>();
    const marksOf = (underlying: string) => {
      let marks = marksBySymbol.get(underlying);
      if (marks === undefined) {
        marks = this.book.marks.marksAt(underlying, asOfMs);
        marksBySymbol.set(underlying, marks);
      }
      return marks;
    };
    return { marksOf, marksBySymbol };
  }

  private campaignRows(ledger: BookLedger, campaigns: readonly CampaignRecord[], asOfMs: number, accounts: readonly Account[]): CampaignRow[] {
    const names = new Map(accounts.map((a) => [a.id, a.name]));
    const ids = new Set(campaigns.filter((c) => c.closeDay === null).map((c) => c.id));
    const { marksOf } = this.marksMemo(asOfMs);
    const maxAgeDays = this.settings().markMaxAgeDays;
    const marked = ledger.positions.filter((p) => p.campaignId !== null && ids.has(p.campaignId)).map((p) => markPosition(p, marksOf(p.underlying), asOfMs, maxAgeDays));
    const byCampaign = positionsByCampaign(marked);
    const asOfDate = dateInZone(asOfMs, this.settings().timeZone);
    return campaigns.map((campaign) => {
      const { record, ...figures } = campaignFigures(campaign, byCampaign.get(campaign.id) ?? [], asOfDate);
      const { steps: _steps, legs, ...rest } = record;
      return { ...figures, record: minorFields(rest), accountName: names.get(campaign.accountId) ?? campaign.accountId, legs };
    });
  }
}
