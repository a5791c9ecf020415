/**
 * Where the lake's files are (docs/research.md §Layout): Hive partitions `contracts/symbol=S/date=D/<snapshotId>.parquet`
 * and `levels/symbol=S/date=D/<snapshotId>.parquet` (D = the quote's New York date), `transactions.parquet` and `trades.parquet` at the top.
 * One file per snapshot makes an export incremental by snapshot id and each snapshot's files atomic.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export const CONTRACTS_DIR = 'contracts';
export const LEVELS_DIR = 'levels';
export const TRANSACTIONS_FILE = 'transactions.parquet';
export const TRADES_FILE = 'trades.parquet';

/**
 * A partition value as Hive writes it: characters that would end a path segment or a `key=value` pair, and any
 * character outside [A-Za-z0-9._^-], as %XX of their UTF-8 bytes (`BRK/B` → `BRK%2FB`). The symbol is also in each
 * file's footer, which is what the import reads.
 */
export function partitionValue(text: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(text)) {
    const ch = String.fromCharCode(byte);
    out += /^[\w.^-]$/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function snapshotFile(dir: string, table: string, symbol: string, date: string, snapshotId: number): string {
  return join(dir, table, `symbol=${partitionValue(symbol)}`, `date=${date}`, `${snapshotId}.parquet`);
}

export function contractsFile(dir: string, symbol: string, date: string, snapshotId: number): string {
  return snapshotFile(dir, CONTRACTS_DIR, symbol, date, snapshotId);
}

export function levelsFile(dir: string, symbol: string, date: string, snapshotId: number): string {
  return snapshotFile(dir, LEVELS_DIR, symbol, date, snapshotId);
}

export function transactionsFile(dir: string): string {
  return join(dir, TRANSACTIONS_FILE);
}

export function tradesFile(dir: string): string {
  return join(dir, TRADES_FILE);
}

/** Every `.parquet` file under the folder, sorted; hidden names (the writer's temporary files) are skipped. */
export function parquetFilesUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith('.parquet')) found.push(path);
    }
  };
  walk(dir);
  return found.sort();
}
