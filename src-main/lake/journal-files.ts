/**
 * The journal's two files of the lake (docs/research.md): `transactions.parquet`, the neutral transactions, and
 * `trades.parquet`, the trades built from them (src-shared/journal/trades.ts). Each is rebuilt in memory on every
 * export and written only when its bytes differ from the file's (an import or an undo since the last export), so an
 * export of unchanged data writes nothing.
 */
import type { Database } from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { buildTrades, type Trade } from '../../src-shared/journal/trades';
import type { Clock } from '../clock';
import { AnnotationsRepository } from '../db/annotations';
import { JournalService } from '../services/journal/service';
import { loadSettings } from '../settings';
import type { LakeRepository } from '../db/lake';
import { toTransaction } from '../db/transactions';
import { tradesFile, transactionsFile } from './layout';
import { buildParquet } from './parquet';
import { tradesColumns, transactionsColumns } from './rows';
import { LAKE_VERSION, TRADES, TRANSACTIONS } from './tables';

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

export function writeJournalFiles(lake: LakeRepository, out: string, write: (path: string, bytes: Uint8Array) => void, source?: LakeTrades): JournalFiles {
  const rows = [...lake.transactions()];
  const names = new Map(rows.map((row) => [row.account_id, row.account_name]));
  const trades = source?.trades ?? buildTrades(rows.map((row) => toTransaction(row, names))).trades;
  const file = (path: string, count: number, bytes: () => Uint8Array): { state: JournalFileState; rows: number } => {
    if (count === 0 && !existsSync(path)) return { state: 'none', rows: 0 };
    const built = bytes();
    if (existsSync(path) && Buffer.from(built).equals(readFileSync(path))) return { state: 'unchanged', rows: 0 };
    write(path, built);
    return { state: 'written', rows: count };
  };
  return {
    transactions: file(transactionsFile(out), rows.length, () => buildParquet(TRANSACTIONS, transactionsColumns(rows), { version: LAKE_VERSION, table: 'transactions', rows: rows.length })),
    trades: file(tradesFile(out), trades.length, () => buildParquet(TRADES, tradesColumns(trades, source?.tagsOf), { version: LAKE_VERSION, table: 'trades', rows: trades.length })),
  };
}
