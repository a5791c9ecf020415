/**
 * The journal's two files of the lake (docs/research.md): `transactions.parquet`, the neutral transactions, and
 * `trades.parquet`, the trades built from them (src-shared/journal/trades.ts). Each is rebuilt in memory on every
 * export and written only when its bytes differ from the file's (an import or an undo since the last export), so an
 * export of unchanged data writes nothing.
 */
import { buildTrades } from '../../src-shared/journal/trades';
import type { LakeRepository } from '../db/lake';
import { toTransaction } from '../db/transactions';
import { readFileUnder } from './folder';
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

export function writeJournalFiles(lake: LakeRepository, out: string, write: (path: string, bytes: Uint8Array) => void): JournalFiles {
  const rows = [...lake.transactions()];
  const names = new Map(rows.map((row) => [row.account_id, row.account_name]));
  const trades = buildTrades(rows.map((row) => toTransaction(row, names))).trades;
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
    trades: file(tradesFile(out), trades.length, () => buildParquet(TRADES, tradesColumns(trades), { version: LAKE_VERSION, table: 'trades', rows: trades.length })),
  };
}
