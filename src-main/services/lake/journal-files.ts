/**
 * The journal's two files of the lake (docs/research.md): `transactions.parquet`, the neutral transactions, and
 * `trades.parquet`, the trades built from them (src-shared/journal/trades.ts). Each is rebuilt in memory on every
 * export and written only when its bytes differ from the file's (an import or an undo since the last export), so an
 * export of unchanged data writes nothing.
 */
import type { Database } from 'better-sqlite3';
import type { EntryLookup } from '../../../src-shared/journal/trade-metrics';
import { buildTrades, type Trade } from '../../../src-shared/journal/trades';
import type { Clock } from '../../clock';
import { AnnotationsRepository } from '../../db/annotations';
import type { LakeRepository } from '../../db/lake';
import type { SnapshotRepository } from '../../db/snapshots';
import { toTransaction } from '../../db/transactions';
import { JournalService } from '../journal/service';
import { loadSettings } from '../../settings';
import { readFileUnder } from '../../lake/folder';
import { tradesFile, transactionsFile } from '../../lake/layout';
import { buildParquet } from '../../lake/parquet';
import { tradesColumns, transactionsColumns } from '../../lake/rows';
import { LAKE_VERSION, TRADES, TRANSACTIONS } from '../../lake/tables';

/** written: a new file; unchanged: its bytes were already there; none: no journal to write. */
export type JournalFileState = 'written' | 'unchanged' | 'none';

export interface JournalFiles {
  transactions: { state: JournalFileState; rows: number };
  trades: { state: JournalFileState; rows: number };
}

/** The trades a lake writes and their tags. */
export interface LakeTrades {
  trades: readonly Trade[];
  tagsOf: (id: string) => readonly string[];
}

/**
 * The journal's trades as /journal/trades builds them (services/journal/trades.ts: the rows with the inferred
 * expirations, the entry figures from the stored snapshots, the journal's settings at the export's rate), and their
 * tags: so that trades.parquet grouped in SQL gives /journal/stats's rows (docs/research.md). Nothing reads a clock.
 */
export function journalTrades(db: Database, rate: number): LakeTrades {
  const settings = { ...loadSettings(db), rate };
  const journal = new JournalService(db, () => settings, NO_CLOCK);
  const notes = new AnnotationsRepository(db).all('trade');
  return { trades: journal.trades.tradeBook().book.trades, tagsOf: (id) => notes.get(id)?.tags ?? [] };
}

/** The trades' build asks no time (their entry figures come from the snapshots): a constant, so no file depends on the day. */
const NO_CLOCK: Clock = { nowMs: () => 0, monotonicMs: () => 0 };

/**
 * The spot of the underlying's newest snapshot at or before an instant, for the trades' Reg T collateral at entry (the
 * figure /journal/trades shows: the same snapshot, the same usable-entry rule in collateral.ts), for a lake written
 * without the journal's own trades (journalTrades). No chain is prepared.
 */
export function spotEntryLookup(snapshots: SnapshotRepository): EntryLookup {
  // Quote times compared as instants (services/journal/marks.ts does the same), each symbol's read once.
  const stamps = new Map<string, Array<{ id: number; ms: number }>>();
  return ({ underlying, atMs }) => {
    let list = stamps.get(underlying);
    if (list === undefined) {
      list = snapshots
        .stamps(underlying)
        .map((row) => ({ id: row.id, ms: Date.parse(row.quote_time) }))
        .filter((stamp) => Number.isFinite(stamp.ms))
        .sort((a, b) => a.ms - b.ms || a.id - b.id);
      stamps.set(underlying, list);
    }
    let low = 0;
    let high = list.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((list[mid]?.ms ?? Infinity) <= atMs) low = mid + 1;
      else high = mid;
    }
    const found = list[low - 1];
    const head = found === undefined ? null : snapshots.headById(found.id);
    return head === null ? null : { quoteTime: head.quoteTime, spot: head.spot, delta: null, levels: null };
  };
}

/**
 * The journal files. `source`: the trades and tags to write (the export gives journalTrades'); without it the trades
 * are built from the lake's rows, their collateral at entry from `lookup` (spotEntryLookup) when given.
 */
export function writeJournalFiles(lake: LakeRepository, out: string, write: (path: string, bytes: Uint8Array) => void, source?: LakeTrades, lookup?: EntryLookup): JournalFiles {
  const rows = [...lake.transactions()];
  const names = new Map(rows.map((row) => [row.account_id, row.account_name]));
  const trades = source?.trades ?? buildTrades(rows.map((row) => toTransaction(row, names)), lookup === undefined ? {} : { lookup }).trades;
  const file = (path: string, count: number, bytes: () => Uint8Array): { state: JournalFileState; rows: number } => {
    // Read without following a link (folder.ts): a transactions.parquet that is a link stops the export.
    const existing = readFileUnder(out, path);
    if (count === 0 && existing === null) return { state: 'none', rows: 0 };
    const built = bytes();
    if (existing !== null && Buffer.from(built).equals(existing)) return { state: 'unchanged', rows: 0 };
    write(path, built);
    return { state: 'written', rows: count };
  };
  return {
    transactions: file(transactionsFile(out), rows.length, () => buildParquet(TRANSACTIONS, transactionsColumns(rows), { version: LAKE_VERSION, table: 'transactions', rows: rows.length })),
    trades: file(tradesFile(out), trades.length, () => buildParquet(TRADES, tradesColumns(trades, source?.tagsOf), { version: LAKE_VERSION, table: 'trades', rows: trades.length })),
  };
}
