/** What the journal service takes and returns (docs/journal.md): imports, transaction pages, the book (positions, campaigns); and the paging rule. */
import { PAGE_LIMIT_CAP, PAGE_LIMIT_DEFAULT, type LevelsScope, type TransactionSort, type TransactionType } from '../../../src-shared/api/constants';
import type { CampaignRecord, CampaignStep } from '../../../src-shared/journal/index';
import type { CampaignFigures, MarkedPosition } from '../../../src-shared/journal/book';
import type { Account, RawTransaction, Transaction } from '../../../src-shared/journal/model';
import type { ImporterId, ParseResult } from '../../importers/types';
import type { InferredExpiration, NeedsAttention } from './expiry-settlement';
import type { SupersededManual } from '../../../src-shared/journal/import-report';
import type { Minor, MinorFields } from '../../../src-shared/money';
import type { ReconciliationRow } from '../../../src-shared/journal/reconciliation';
import type { AccountId, Ticker } from '../../../src-shared/ids';

/** The record of one import: what was read, stored, found twice, skipped, and worth knowing. */
export interface ImportRecord {
  id: number;
  broker: string;
  source: string;
  filename: string | null;
  createdAt: string;
  /** The accounts as the stored report names them (import-report.ts readStoredReport). */
  accounts: Array<{ id: string; name: string }>;
  /** Data rows read. */
  rows: number;
  imported: number;
  duplicates: number;
  /** The first lines of each reason (docs/importers.md §Bounded: a report is at most 64 KB). */
  skipped: Array<{ line: number; reason: string }>;
  skippedCount: number;
  skippedReasons: Array<{ reason: string; count: number }>;
  /** The first lines of each warning. */
  warnings: Array<{ line: number | null; message: string }>;
  warningCount: number;
  /** Closes without an opening among its rows, as the journal stands now (counted in warningCount): import-attention.ts. */
  openedBeforeHistory?: number;
  /** Rows merged into one transaction (the first groups), and every row merged away. */
  merged: Array<{ lines: number[]; reason: string }>;
  mergedCount: number;
  /** The file's own figures against the journal's (docs/journal.md §Reconciliation): differs when one does not agree. */
  status?: 'ready' | 'differs' | 'acknowledged';
  /** The first rows (those that differ first), at most MAX_RECONCILIATION_BYTES of JSON; the counts count all. */
  reconciliation?: ReconciliationRow[];
  reconciliationCount?: number;
  reconciliationDiffers?: number;
  acknowledgedAt?: string | null;
  /** Manual openings this import made duplicates, retired (undoing the import restores them): the first 100, and every one. */
  supersededManual: SupersededManual[];
  supersededManualCount: number;
}

export interface ImportRequest {
  /** The file: its text, or its UTF-8 bytes (the server hands the upload over undecoded; see importText). */
  text: string | Uint8Array;
  /** A built-in broker, a saved format (`custom:<id>`), or `auto` (detected from the header). */
  broker?: ImporterId | 'auto';
  accountName?: string;
  filename?: string | null;
}

/** A file parsed without errors, ready to store (parsing needs no write lock, storing does). */
export interface ParsedImport {
  result: ParseResult;
  filename: string | null;
}

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  pages: number;
}

export interface TransactionFilter {
  page?: number;
  limit?: number;
  /** Underlying. */
  symbol?: Ticker;
  accountId?: AccountId;
  /** Trade days, inclusive. */
  fromDate?: string;
  toDate?: string;
  type?: TransactionType;
  sort?: TransactionSort;
}

export interface TransactionsPage {
  transactions: Transaction[];
  /** Per row of `transactions`: the realized P&L it booked (minor units), or null. */
  realizedMinor: Array<Minor | null>;
  accounts: Account[];
  pagination: Pagination;
}

/** A journal read with what every journal answer carries: the accounts, and whether it is the demo. */
export type WithJournal<T> = T & { accounts: Account[]; demo: boolean };

export interface PerformanceRequest {
  accountId?: AccountId;
  period?: 'weekly' | 'monthly';
  /** A date, or an ISO date-time (read in the journal zone); default today there. */
  date?: string;
  from?: string;
  to?: string;
}

/** What a book read asks: the instant (a date means the end of that journal day; default now), an account, an underlying. */
export interface BookRequest {
  asOf?: string;
  accountId?: AccountId;
  symbol?: Ticker;
  /** The levels each position is held against (docs/journal.md §Levels scope): own (default), nearest or book. */
  levelsScope?: LevelsScope;
}

/** Figures over positions (in the reporting currency): marked value and unrealized over the freshly marked ones only. */
export interface PositionTotals {
  costBasisMinor: Minor;
  /** Σ of the positions' collateral (collateral.ts: each campaign's figure now, shared out over its positions). */
  collateralMinor: Minor;
  marketValueMinor: Minor;
  unrealizedMinor: Minor;
  /** Positions left out of marketValue and unrealized: unmarkedCount + staleCount. */
  unmarked: number;
  /** Positions without any mark. */
  unmarkedCount: number;
  /** Positions whose mark is older than markMaxAgeDays trading days. */
  staleCount: number;
}

export type PositionRow = MarkedPosition & { accountName: string };

export interface PositionsResult {
  asOf: string;
  currency: string;
  levelsScope: LevelsScope;
  positions: PositionRow[];
  totals: PositionTotals & { byAccount: Array<PositionTotals & { accountId: string; accountName: string }> };
  /** The snapshot each underlying is marked from, with its age in trading days and whether it is stale. */
  marks: Array<{ symbol: string; snapshotId: number; quoteTime: string; spot: number; ageDays: number; stale: boolean }>;
  needsAttention: Array<NeedsAttention & { accountName: string }>;
  inferredExpirations: Array<InferredExpiration & { accountName: string }>;
}

/** A campaign without its timeline (the list), with its account's name and its legs' transaction ids. */
export type CampaignRow = Omit<CampaignFigures, 'record'> & { record: MinorFields<Omit<CampaignRecord, 'steps' | 'legs'>>; accountName: string; legs: string[] };

/** What a campaigns read asks: a book read, a status, and the page. */
export type CampaignsRequest = BookRequest & { status?: 'open' | 'closed'; page?: number; limit?: number };

export interface CampaignsResult {
  asOf: string;
  currency: string;
  /** One page of the campaigns, newest opened first. */
  campaigns: CampaignRow[];
  pagination: Pagination;
}

export interface CampaignDetail {
  asOf: string;
  campaign: CampaignRow;
  timeline: Array<MinorFields<CampaignStep>>;
  positions: PositionRow[];
}

/** `page`/`limit` of a list: page from 1, limit clamped to the cap (transactions, imports, campaigns). */
export function pageOf(page: number | undefined, limit: number | undefined, total: number): { page: number; limit: number; offset: number; pagination: Pagination } {
  const p = page ?? 1;
  const l = Math.min(limit ?? PAGE_LIMIT_DEFAULT, PAGE_LIMIT_CAP);
  return { page: p, limit: l, offset: (p - 1) * l, pagination: { page: p, limit: l, total, pages: Math.ceil(total / l) } };
}

/** A manual row checked and ready to store: its transaction and the account it goes to (manual-entries.ts). */
export interface CheckedEntry {
  transaction: RawTransaction;
  accountId: AccountId;
  /** The account's source: the importer's for an account of a file, `manual` for an account named here. */
  accountSource: string;
}
