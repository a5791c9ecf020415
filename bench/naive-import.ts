/**
 * The naive import that `journal.import_vs_naive` measures ours against (docs/decisions.md §Benchmarks): the
 * script anyone would write to load a generic CSV into the journal's table. papaparse parses the whole file into
 * objects, then one prepared INSERT per row, in one transaction, into the same schema (a database migrated by
 * the app itself). No checks, no deduplication by content, no time zones: the trade day is the date's first ten
 * characters. What it stores is enough for the comparison to be fair: every column of every row.
 */
import type { Database } from 'better-sqlite3';
import Papa from 'papaparse';

const OCC = /^[A-Z0-9.]{1,6}(\d{2})(\d{2})(\d{2})([CP])(\d{8})$/;

interface GenericRow {
  id: string;
  date: string;
  account: string;
  type: string;
  symbol: string;
  underlying: string;
  quantity: string;
  price: string;
  commission: string;
  fees: string;
  amount: string;
  currency: string;
  orderId: string;
  description: string;
  multiplier: string;
  previousSymbol: string;
}

const minor = (text: string): number => Math.round(Number(text || '0') * 10_000);

/** Imports `csv` (the generic format with a header) naively into `db`; returns the number of rows stored. */
export function naiveImport(db: Database, csv: string): number {
  const parsed = Papa.parse<GenericRow>(csv, { header: true, skipEmptyLines: true });
  const insertImport = db.prepare("INSERT INTO imports (broker, source, filename, created_at, rows, imported, duplicates, report_json) VALUES ('naive', 'naive', 'naive.csv', ?, ?, 0, 0, '{}')");
  const insertAccount = db.prepare("INSERT OR IGNORE INTO accounts (id, name, source) VALUES (?, ?, 'naive')");
  const insert = db.prepare(
    `INSERT INTO transactions (id, import_id, account_id, broker_row_id, type, symbol, underlying, is_option, expiration, strike, right,
      quantity, price_minor, multiplier, amount_minor, commission_minor, fees_minor, currency, trade_date, trade_day, order_id,
      description, source, inferred, previous_symbol) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const run = db.transaction((rows: GenericRow[]) => {
    const importId = Number(insertImport.run(new Date().toISOString(), rows.length).lastInsertRowid);
    const accounts = new Set<string>();
    for (const row of rows) {
      const option = OCC.exec(row.symbol);
      const accountId = `naive:${row.account}`;
      if (!accounts.has(accountId)) {
        insertAccount.run(accountId, row.account);
        accounts.add(accountId);
      }
      insert.run(
        `naive:${importId}:${row.id}`,
        importId,
        accountId,
        row.id,
        row.type,
        row.symbol,
        row.underlying || row.symbol,
        option ? 1 : 0,
        option ? `20${option[1]}-${option[2]}-${option[3]}` : null,
        option ? Number(option[5]) / 1000 : null,
        option ? (option[4] ?? null) : null,
        Number(row.quantity),
        minor(row.price),
        Number(row.multiplier || '1'),
        minor(row.amount),
        minor(row.commission),
        minor(row.fees),
        row.currency || 'USD',
        row.date,
        row.date.slice(0, 10),
        row.orderId || null,
        row.description,
        'naive',
        0,
        row.previousSymbol || null,
      );
    }
    return rows.length;
  });
  return run(parsed.data);
}
