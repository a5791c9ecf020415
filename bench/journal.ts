import { rmSync } from 'node:fs';
import { syntheticTransactions } from '../src-shared/demo/journal';
import type { ImportedTransaction } from '../src-shared/journal/model';
import { buildApp } from '../src-main/server/app';
import { createContext, type OwnedContext } from '../src-main/context';
import { tempDir } from '../test/paths';
import { atLeast, atMost, median, timeMs, type BenchLine } from './lib';

const COUNT = 100_000;

function money(minor: number): string {
  return (minor / 10_000).toFixed(4);
}

function cell(text: string): string {
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The generated journal written as the documented generic CSV (docs/importers.md), the importer's input. */
export function toGenericCsv(transactions: readonly ImportedTransaction[]): string {
  const header = 'id,date,account,type,symbol,underlying,quantity,price,commission,fees,amount,currency,orderId,description,multiplier,previousSymbol';
  const rows = transactions.map((tx) =>
    [
      tx.brokerRowId,
      tx.tradeDate,
      cell(tx.accountName),
      tx.type,
      tx.symbol,
      tx.underlying,
      String(tx.quantity),
      money(tx.priceMinor),
      money(tx.commissionMinor),
      money(tx.feesMinor),
      money(tx.amountMinor),
      tx.currency,
      tx.orderId ?? '',
      cell(tx.description),
      String(tx.multiplier),
      tx.previousSymbol ?? '',
    ].join(','),
  );
  return `${header}\n${rows.join('\n')}\n`;
}

/**
 * journal.* (DESIGN §7): import rows/s, then the three read endpoints on a 100,000-transaction journal. The import
 * goes through the server's path, the journal worker; the file is imported three times into one data folder, each
 * time after undoing the previous import, so that runs 2 and 3 meet a warm worker as a running server's imports do.
 */
export async function benchJournal(): Promise<BenchLine[]> {
  const csv = toGenericCsv(syntheticTransactions(COUNT, 42));
  const dir = tempDir('strikebook-bench-');
  const journalCtx: OwnedContext = createContext({ dataDir: dir, overrides: { rateLimit: { perSecond: 1e9, burst: 1e9 } } });
  try {
    const importSeconds: number[] = [];
    for (let run = 0; run < 3; run += 1) {
      const start = performance.now();
      const report = await journalCtx.journal.importFile({ text: csv, broker: 'generic', filename: 'bench.csv' });
      importSeconds.push((performance.now() - start) / 1000);
      if (report.imported !== COUNT) throw new Error(`imported ${report.imported} of ${COUNT}`);
      if (run < 2) await journalCtx.journal.undoImport(report.id);
    }
    const rowsPerSecond = COUNT / median(importSeconds);

    const ledgerStart = performance.now();
    await journalCtx.journal.warm();
    const ledgerMs = performance.now() - ledgerStart;

    const app = await buildApp(journalCtx, { port: 7717 });
    await app.ready();
    const headers = { host: '127.0.0.1:7717', authorization: `Bearer ${journalCtx.apiKey}` };
    const get = async (url: string) => {
      const response = await app.inject({ url, headers });
      if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body.slice(0, 200)}`);
      return response;
    };
    const years = journalCtx.db.prepare('SELECT substr(trade_day, 1, 4) AS y, COUNT(*) AS n FROM transactions GROUP BY y ORDER BY n DESC LIMIT 1').get() as { y: string };
    const busiest = journalCtx.db.prepare('SELECT trade_day AS d FROM transactions GROUP BY trade_day ORDER BY COUNT(*) DESC LIMIT 1').get() as { d: string };
    const summaryMs = await timeMs(() => get(`/v1/journal/summary?year=${years.y}`), 15, 3);
    const performanceMs = await timeMs(() => get(`/v1/journal/performance?date=${busiest.d}`), 25, 5);
    const pageMs = await timeMs(() => get('/v1/journal/transactions?page=40&limit=100'), 40, 5);
    const filteredMs = await timeMs(() => get(`/v1/journal/transactions?symbol=SPY&fromDate=${years.y}-01-01&toDate=${years.y}-12-31&limit=100`), 40, 5);
    await app.close();
    return [
      atLeast('journal.import_rows_per_s', rowsPerSecond, 'rows/s', 50_000, `${COUNT} generic-CSV rows parsed and stored by the journal worker, median of 3 (s: ${importSeconds.map((x) => x.toFixed(2)).join(', ')})`),
      atMost('journal.summary_ms', summaryMs, 'ms', 50, `100k transactions, year ${years.y}; ledger built once in ${Math.round(ledgerMs)} ms after each import`),
      atMost('journal.performance_ms', performanceMs, 'ms', 20, `date ${busiest.d}`),
      atMost('journal.transactions_page_ms', pageMs, 'ms', 5, 'page 40 of 100, no filter'),
      atMost('journal.transactions_filtered_page_ms', filteredMs, 'ms', 5, 'symbol and date filters'),
    ];
  } finally {
    await journalCtx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
