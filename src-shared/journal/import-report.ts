/**
 * The stored report of an import (docs/importers.md §Bounded): counts, and the first lines of each reason — never
 * every skipped line. One 46 MB export of cancelled orders once stored a 43 MB report, and a page of the import
 * history read several of them at once (260 MB, then a 500). A report is at most MAX_REPORT_BYTES of JSON.
 */

import { TRANSACTION_TYPES, type TransactionType } from './model';

/** The JSON of one stored report is at most this long. */
export const MAX_REPORT_BYTES = 64 * 1024;

export interface ReasonCount {
  reason: string;
  count: number;
}

/** Rows of the file that became one transaction (a corporate action's pair): every line of the group, and why. */
export interface MergedRows {
  lines: number[];
  reason: string;
}

/** Merged groups a report lists; `mergedCount` counts every row merged away. */
export const MAX_MERGED_LISTED = 100;

/** What a report says about the lines it did not import and what the user should know. */
export interface ReportNotes {
  /** The first lines of each reason (file order). */
  skipped: Array<{ line: number; reason: string }>;
  /** Every skipped line. */
  skippedCount: number;
  /** Skipped lines by reason, most frequent first; a last entry `other reasons` counts the reasons not listed. */
  skippedReasons: ReasonCount[];
  /** The first lines of each warning (file order). */
  warnings: Array<{ line: number | null; message: string }>;
  /** Every warning. */
  warningCount: number;
  /** The first MAX_MERGED_LISTED groups of rows merged into one transaction (file order). */
  merged: MergedRows[];
  /** Rows read that became part of another row's transaction: Σ (lines − 1) over every group (issue 18: 212 read = 210 imported + 2 merged). */
  mergedCount: number;
}

/** The notes as an import has them: lines kept by the importer, every count, counts by reason. */
export interface NotesInput {
  skipped: ReadonlyArray<{ line: number; reason: string }>;
  skippedCount: number;
  skippedReasons: readonly ReasonCount[];
  warnings: ReadonlyArray<{ line: number | null; message: string }>;
  warningCount: number;
  merged?: readonly MergedRows[];
  mergedCount?: number;
}

export const OTHER_REASONS = 'other reasons';

/** The notes of an import that skipped nothing and has nothing to say (the demo, tests). */
export const NO_NOTES: NotesInput = { skipped: [], skippedCount: 0, skippedReasons: [], warnings: [], warningCount: 0 };

/** How much of the notes a report keeps; each step down keeps less, until the report fits. */
const LEVELS: ReadonlyArray<{ perReason: number; reasons: number; accounts: number; chars: number }> = [
  { perReason: 5, reasons: 50, accounts: 200, chars: 300 },
  { perReason: 2, reasons: 20, accounts: 50, chars: 200 },
  { perReason: 1, reasons: 10, accounts: 20, chars: 120 },
  { perReason: 0, reasons: 5, accounts: 5, chars: 80 },
];

const cut = (text: string, chars: number): string => (text.length <= chars ? text : `${text.slice(0, chars - 1)}…`);

/** The first `perReason` entries of each of the `reasons` kept, in their order. */
function firstOfEach<T>(entries: readonly T[], reasonOf: (entry: T) => string, kept: ReadonlySet<string>, perReason: number): T[] {
  const taken = new Map<string, number>();
  const out: T[] = [];
  for (const entry of entries) {
    const reason = reasonOf(entry);
    if (!kept.has(reason)) continue;
    const count = taken.get(reason) ?? 0;
    if (count >= perReason) continue;
    taken.set(reason, count + 1);
    out.push(entry);
  }
  return out;
}

/** Counts by reason of a full list (a report stored before reports were bounded). */
export function countReasons(reasons: Iterable<string>): ReasonCount[] {
  const counts = new Map<string, number>();
  for (const reason of reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count);
}

function notesAt(input: NotesInput, level: (typeof LEVELS)[number], linesWanted: boolean): ReportNotes {
  const listed = input.skippedReasons.filter((r) => r.reason !== OTHER_REASONS).slice(0, level.reasons);
  const listedCount = listed.reduce((sum, r) => sum + r.count, 0);
  const skippedReasons = listed.map((r) => ({ reason: cut(r.reason, level.chars), count: r.count }));
  if (input.skippedCount > listedCount) skippedReasons.push({ reason: OTHER_REASONS, count: input.skippedCount - listedCount });
  const perReason = linesWanted ? level.perReason : 0;
  const skipped = firstOfEach(input.skipped, (s) => s.reason, new Set(listed.map((r) => r.reason)), perReason).map((s) => ({ line: s.line, reason: cut(s.reason, level.chars) }));
  const messages = new Set(countReasons(input.warnings.map((w) => w.message)).slice(0, level.reasons).map((r) => r.reason));
  const warnings = firstOfEach(input.warnings, (w) => w.message, messages, perReason).map((w) => ({ line: w.line, message: cut(w.message, level.chars) }));
  const merged = (input.merged ?? []).slice(0, linesWanted ? Math.min(MAX_MERGED_LISTED, level.reasons * 2) : 0).map((m) => ({ lines: m.lines.slice(0, 10), reason: cut(m.reason, level.chars) }));
  return { skipped, skippedCount: input.skippedCount, skippedReasons, warnings, warningCount: input.warningCount, merged, mergedCount: input.mergedCount ?? 0 };
}

/**
 * The report with bounded notes: the most that fits in MAX_REPORT_BYTES of JSON, from five lines of each of 50
 * reasons down to counts alone. `linesWanted` false keeps counts and reasons only (a re-import of a file already
 * imported: the first import's report has the lines).
 */
export function boundReport<R extends { accounts: Array<{ id: string; name: string }> }>(record: R, notes: NotesInput, linesWanted = true): R & ReportNotes {
  for (const level of LEVELS) {
    const bounded: R & ReportNotes = {
      ...record,
      accounts: record.accounts.slice(0, level.accounts).map((a) => ({ id: a.id, name: cut(a.name, level.chars) })),
      ...notesAt(notes, level, linesWanted),
    };
    if (utf8Length(JSON.stringify(bounded)) <= MAX_REPORT_BYTES) return bounded;
  }
  // Only a record whose own fields are huge gets here: keep the counts, drop every list.
  return {
    ...record,
    accounts: record.accounts.slice(0, 1).map((a) => ({ id: cut(a.id, 60), name: cut(a.name, 60) })),
    skipped: [],
    skippedCount: notes.skippedCount,
    skippedReasons: [],
    warnings: [],
    warningCount: notes.warningCount,
    merged: [],
    mergedCount: notes.mergedCount ?? 0,
  };
}

/** The reconciliation rows a report keeps, as JSON (the report's 64 KB hold its notes too). */
export const MAX_RECONCILIATION_BYTES = 24 * 1024;

/**
 * The reconciliation of a report (reconciliation.ts): its first rows, those that differ first, at most
 * MAX_RECONCILIATION_BYTES of JSON, with the counts of every row and of those that differ.
 */
export function boundReconciliation<Row extends { ok: boolean }>(rows: readonly Row[]): { reconciliation: Row[]; reconciliationCount: number; reconciliationDiffers: number } {
  const kept: Row[] = [];
  let bytes = 2;
  for (const row of rows) {
    const size = utf8Length(JSON.stringify(row)) + 1;
    if (bytes + size > MAX_RECONCILIATION_BYTES) break;
    kept.push(row);
    bytes += size;
  }
  return { reconciliation: kept, reconciliationCount: rows.length, reconciliationDiffers: rows.filter((row) => !row.ok).length };
}

/** The length of a text in UTF-8 bytes (what SQLite stores and the wire carries). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      // A surrogate pair: one code point of four bytes.
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

/** A manual row an import superseded: retired, restored when the import is undone (docs/journal.md, "Manual entries"). */
export interface SupersededManual {
  id: string;
  /** The manual import it belongs to. */
  importId: number;
  accountId: string;
  type: TransactionType;
  symbol: string;
  quantity: number;
  tradeDate: string;
  /** Units the imported rows hold on its side at the close of its day (fewer than `quantity`: the rest is listed as opened before the history again). */
  importedQuantity: number;
}

/** A stored report as the journal lists it (the import's id and counts come from its row). */
export interface StoredReport extends ReportNotes {
  broker: string;
  source: string;
  filename: string | null;
  createdAt: string;
  accounts: Array<{ id: string; name: string }>;
  rows: number;
  /** The manual rows the import superseded (the first 100), and every one; none in a report stored before issue 27. */
  supersededManual: SupersededManual[];
  supersededManualCount: number;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
const count = (value: unknown, fallback: number): number => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : fallback);
const line = (value: unknown): number | null => (typeof value === 'number' && Number.isSafeInteger(value) ? value : null);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * A report read back from the database, checked field by field (stored JSON is data, not a type): what is missing
 * or malformed gets a neutral value. A report stored before reports were bounded (every skipped line) is bounded
 * here as it would be today, with its counts taken from its lists.
 */
export function readStoredReport(json: string): StoredReport {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    parsed = {};
  }
  const stored = isObject(parsed) ? parsed : {};
  const skipped = list(stored.skipped).filter(isObject).map((s) => ({ line: line(s.line) ?? 0, reason: text(s.reason) }));
  const warnings = list(stored.warnings).filter(isObject).map((w) => ({ line: line(w.line), message: text(w.message) }));
  const merged = list(stored.merged)
    .filter(isObject)
    .map((m) => ({ lines: list(m.lines).map(line).filter((n): n is number => n !== null), reason: text(m.reason) }));
  const reasons = list(stored.skippedReasons)
    .filter(isObject)
    .map((r) => ({ reason: text(r.reason), count: count(r.count, 0) }));
  const base = {
    broker: text(stored.broker),
    source: text(stored.source),
    filename: typeof stored.filename === 'string' ? stored.filename : null,
    createdAt: text(stored.createdAt),
    accounts: list(stored.accounts)
      .filter(isObject)
      .map((a) => ({ id: text(a.id), name: text(a.name) })),
    rows: count(stored.rows, 0),
    supersededManual: list(stored.supersededManual)
      .filter(isObject)
      .map((m) => ({
        id: text(m.id),
        importId: count(m.importId, 0),
        accountId: text(m.accountId),
        type: TRANSACTION_TYPES.find((type) => type === m.type) ?? 'OTHER',
        symbol: text(m.symbol),
        quantity: typeof m.quantity === 'number' && Number.isFinite(m.quantity) ? m.quantity : 0,
        tradeDate: text(m.tradeDate),
        importedQuantity: typeof m.importedQuantity === 'number' && Number.isFinite(m.importedQuantity) ? m.importedQuantity : 0,
      })),
    supersededManualCount: count(stored.supersededManualCount, 0),
  };
  return boundReport(base, {
    skipped,
    skippedCount: count(stored.skippedCount, skipped.length),
    skippedReasons: reasons.length > 0 || stored.skippedCount !== undefined ? reasons : countReasons(skipped.map((s) => s.reason)),
    warnings,
    warningCount: count(stored.warningCount, warnings.length),
    merged,
    // A report stored before issue 18 lists none and counts none.
    mergedCount: count(stored.mergedCount, 0),
  });
}
