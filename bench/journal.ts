import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticTransactions } from '../src-shared/demo/journal';
import type { ChainSnapshot, OptionContract } from '../src-shared/exposure/model';
import type { ImportedTransaction } from '../src-shared/journal/model';
import type { CampaignsResponseT, PositionsResponseT } from '../src-shared/api/schemas';
import { buildApp } from '../src-main/server/app';
import { createContext, type OwnedContext } from '../src-main/context';
import { openDatabase } from '../src-main/db/open';
import { tempDir } from '../test/paths';
import { against, atLeast, atMost, info, median, timeMs, type BenchLine } from './lib';
import { baselines, sampleMs } from './baselines';
import { naiveImport } from './naive-import';

const COUNT = 100_000;
/**
 * Import rounds: each times our import and the naive one back to back, alternating which goes first, after one
 * unmeasured round that warms both up (the worker's first import also compiles the importer).
 */
const ROUNDS = 5;

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
 * journal.* (docs/decisions.md §Benchmarks): import rows/s against a naive script on the same file in the same run,
 * then the three read endpoints on a 100,000-transaction journal. Our import goes through the server's path, the
 * journal worker, into one data folder, undoing in between (untimed), so that later rounds meet a warm worker as a
 * running server's imports do; the naive script (bench/naive-import.ts) imports into a database of the same schema in
 * this thread, its rows deleted between rounds likewise.
 */
/**
 * A plain chain snapshot of one underlying at `quoteTime`: every contract of the open positions plus a strike grid
 * around spot on the same expirations (what a stored CBOE download of the underlying gives the marks).
 */
export function snapshotFor(symbol: string, quoteTime: string, positions: PositionsResponseT['positions']): ChainSnapshot {
  const options = positions.filter((p) => p.isOption && p.strike !== null && p.expiration !== null);
  const strikes = options.map((p) => p.strike ?? 0).sort((a, b) => a - b);
  const spot = strikes[Math.floor(strikes.length / 2)] ?? 100;
  const expirations = [...new Set(options.map((p) => p.expiration ?? ''))];
  const grid = new Set(strikes);
  for (let i = -25; i <= 25; i += 1) grid.add(Math.round(spot * (1 + i / 50) * 2) / 2);
  const contracts: OptionContract[] = [];
  for (const expiration of expirations) {
    for (const strike of grid) {
      for (const right of ['C', 'P'] as const) {
        const intrinsic = Math.max(0, right === 'C' ? spot - strike : strike - spot);
        contracts.push({ root: symbol, expiration, strike, right, openInterest: 500, iv: 0.35, bid: intrinsic + 0.4, ask: intrinsic + 0.5, multiplier: 100 });
      }
    }
  }
  return { symbol, spot, quoteTime, source: 'generic', contracts };
}

export async function benchJournal(): Promise<BenchLine[]> {
  const csv = toGenericCsv(syntheticTransactions(COUNT, 42));
  const dir = tempDir('strikebook-bench-');
  const naiveDir = tempDir('strikebook-bench-naive-');
  const journalCtx: OwnedContext = createContext({ dataDir: dir, overrides: { rateLimit: { perSecond: 1e9, burst: 1e9 } } });
  const naiveDb = openDatabase(join(naiveDir, 'naive.db')).db;
  try {
    /** CPU seconds of this process: the naive script runs on this thread, ours in the worker while this one waits. */
    const cpuSeconds = () => {
      const usage = process.cpuUsage();
      return (usage.user + usage.system) / 1e6;
    };
    const timed = async (run: () => unknown) => {
      const wallStart = performance.now();
      const cpuStart = cpuSeconds();
      await run();
      return { wall: (performance.now() - wallStart) / 1000, cpu: cpuSeconds() - cpuStart };
    };
    let lastImport = 0;
    const ours = () =>
      timed(async () => {
        const imported = await journalCtx.journal.importFile({ text: csv, broker: 'generic', filename: 'bench.csv' });
        if (!imported.ok) throw new Error(`import refused: ${imported.error.kind}`);
        const report = imported.value;
        if (report.imported !== COUNT) throw new Error(`imported ${report.imported} of ${COUNT}`);
        lastImport = report.id;
        // The worker collects the import's garbage right after it answers (handlers.ts, host.shrink): a round trip
        // counts that collection here rather than in whatever is timed next (the naive script, on this thread).
        await journalCtx.journal.ready();
      });
    const naive = () =>
      timed(() => {
        const stored = naiveImport(naiveDb, csv);
        if (stored !== COUNT) throw new Error(`the naive import stored ${stored} of ${COUNT}`);
      });
    const oursRuns: Array<{ wall: number; cpu: number }> = [];
    const naiveRuns: Array<{ wall: number; cpu: number }> = [];
    for (let round = 0; round <= ROUNDS; round += 1) {
      const pair = round % 2 === 0 ? { naive: await naive(), ours: await ours() } : { ours: await ours(), naive: await naive() };
      if (round > 0) {
        oursRuns.push(pair.ours);
        naiveRuns.push(pair.naive);
      }
      // Both start the next round from an empty table (untimed); the last import stays for the reads below.
      naiveDb.exec('DELETE FROM transactions; DELETE FROM imports;');
      if (round < ROUNDS) await journalCtx.journal.undoImport(lastImport);
    }
    const cpuRatios = oursRuns.map((run, i) => (naiveRuns[i]?.cpu ?? NaN) / run.cpu);
    const wallRatios = oursRuns.map((run, i) => (naiveRuns[i]?.wall ?? NaN) / run.wall);
    const rowsPerSecond = COUNT / median(oursRuns.map((run) => run.wall));
    const naiveRowsPerSecond = COUNT / median(naiveRuns.map((run) => run.wall));
    const list = (values: number[]) => values.map((x) => x.toFixed(2)).join(', ');

    const ledgerStart = performance.now();
    await journalCtx.journal.warm();
    const ledgerMs = performance.now() - ledgerStart;
    // Each absolute line beside a baseline sampled right after it (baselines.ts, docs/decisions.md §Benchmarks).
    const base = baselines();
    const ledgerBase = sampleMs(base.sqlite, ledgerMs);

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
    const summaryBase = sampleMs(base.json, summaryMs);
    const performanceMs = await timeMs(() => get(`/v1/journal/performance?date=${busiest.d}`), 25, 5);
    const performanceBase = sampleMs(base.json, performanceMs);
    const pageMs = await timeMs(() => get('/v1/journal/transactions?page=40&limit=100'), 40, 5);
    const pageBase = sampleMs(base.sqlite, pageMs);
    // Positions and campaigns in the middle of the journal (it ends flat), with a snapshot of each underlying quoted
    // then; the ledger of that instant is built on the first (unmeasured) call and kept.
    const lastInstant = journalCtx.db.prepare('SELECT trade_date FROM transactions ORDER BY trade_date LIMIT 1 OFFSET ?').pluck().get(COUNT / 2) as string;
    const asOf = encodeURIComponent(lastInstant);
    const unmarked = JSON.parse((await get(`/v1/journal/positions?asOf=${asOf}`)).body) as PositionsResponseT;
    const underlyings = [...new Set(unmarked.positions.map((p) => p.underlying))];
    for (const symbol of underlyings) {
      const stored = await journalCtx.exposure.ingest({ snapshot: snapshotFor(symbol, lastInstant, unmarked.positions.filter((p) => p.underlying === symbol)) });
      if (!stored.ok) throw new Error(`bench snapshot of ${symbol} refused: ${stored.error.kind}`);
    }
    const positionsMs = await timeMs(() => get(`/v1/journal/positions?asOf=${asOf}`), 15, 3);
    const positionsBase = sampleMs(base.json, positionsMs);
    const marked = JSON.parse((await get(`/v1/journal/positions?asOf=${asOf}`)).body) as PositionsResponseT;
    // Campaigns come a page at a time (docs/journal.md §Campaigns): the largest page, 100 of them with their legs.
    const chainsMs = await timeMs(() => get(`/v1/journal/chains?asOf=${asOf}&limit=100`), 15, 3);
    const chainsBase = sampleMs(base.json, chainsMs);
    const campaigns = JSON.parse((await get(`/v1/journal/chains?asOf=${asOf}&limit=100`)).body) as CampaignsResponseT;
    const openChainsMs = await timeMs(() => get(`/v1/journal/chains?asOf=${asOf}&status=open&limit=100`), 15, 3);
    const openChainsBase = sampleMs(base.json, openChainsMs);
    const filteredMs = await timeMs(() => get(`/v1/journal/transactions?symbol=SPY&fromDate=${years.y}-01-01&toDate=${years.y}-12-31&limit=100`), 40, 5);
    const filteredBase = sampleMs(base.sqlite, filteredMs);
    // Past instants not asked before (cold): each book is replayed from the nearest checkpoint (docs/journal.md §Checkpoints).
    const instants = journalCtx.db.prepare('SELECT trade_date FROM transactions ORDER BY trade_date').pluck().all() as string[];
    let asked = 0;
    const coldAsOf = () => {
      asked += 1;
      // 7919 is prime to 997: every call lands on another of 997 instants spread over the journal.
      return encodeURIComponent(instants[Math.floor((((asked * 7919) % 997) + 0.5) / 997 * instants.length)] ?? '');
    };
    const pastPositionsMs = await timeMs(() => get(`/v1/journal/positions?asOf=${coldAsOf()}`), 15, 3);
    const pastPositionsBase = sampleMs(base.sqlite, pastPositionsMs);
    const pastChainsMs = await timeMs(() => get(`/v1/journal/chains?asOf=${coldAsOf()}&limit=100`), 15, 3);
    const pastChainsBase = sampleMs(base.sqlite, pastChainsMs);
    await app.close();
    return [
      atLeast(
        'journal.import_vs_naive',
        median(cpuRatios),
        'x',
        1.2,
        `rows per CPU-second of our import ÷ the naive script's (papaparse + one prepared INSERT per row, one transaction, same schema), median of ${ROUNDS} back-to-back pairs (${list(cpuRatios)}); wall clock ${median(wallRatios).toFixed(2)} (${list(wallRatios)}); naive ${Math.round(naiveRowsPerSecond)} rows/s`,
      ),
      info(atLeast('journal.import_rows_per_s', rowsPerSecond, 'rows/s', 50_000, `${COUNT} generic-CSV rows parsed and stored by the journal worker, median of ${ROUNDS} (s: ${list(oursRuns.map((run) => run.wall))})`)),
      against(atMost('journal.build_ms', ledgerMs, 'ms', 1000, `${COUNT} transactions: the journal worker's ledger build after the last import (was a timed unit test with 4x slack; measured here only)`), base.sqlite, ledgerBase),
      against(atMost('journal.summary_ms', summaryMs, 'ms', 50, `100k transactions, year ${years.y}; ledger built once in ${Math.round(ledgerMs)} ms after each import`), base.json, summaryBase),
      against(atMost('journal.performance_ms', performanceMs, 'ms', 20, `date ${busiest.d}`), base.json, performanceBase),
      against(atMost('journal.transactions_page_ms', pageMs, 'ms', 5, 'page 40 of 100, no filter'), base.sqlite, pageBase),
      against(atMost('journal.positions_ms', positionsMs, 'ms', 50, `${marked.positions.length} open positions (${marked.positions.length - marked.totals.unmarked} marked) on ${underlyings.length} underlyings, one snapshot each, at ${lastInstant} (mid-journal)`), base.json, positionsBase),
      against(atMost('journal.chains_ms', chainsMs, 'ms', 50, `a page of ${campaigns.chains.length} of the ${campaigns.pagination.total} campaigns up to ${lastInstant}, with their ${campaigns.chains.reduce((sum, c) => sum + c.legs.length, 0)} legs (ids), unrealized from the marks`), base.json, chainsBase),
      against(atMost('journal.open_chains_ms', openChainsMs, 'ms', 50, 'status=open, a page of 100'), base.json, openChainsBase),
      against(atMost('journal.transactions_filtered_page_ms', filteredMs, 'ms', 5, 'symbol and date filters'), base.sqlite, filteredBase),
      against(atMost('journal.positions_past_asof_ms', pastPositionsMs, 'ms', 100, 'a past instant not asked before, anywhere in the journal: replayed from the nearest checkpoint'), base.sqlite, pastPositionsBase),
      against(atMost('journal.chains_past_asof_ms', pastChainsMs, 'ms', 100, 'a page of 100 campaigns at a past instant not asked before'), base.sqlite, pastChainsBase),
    ];
  } finally {
    await journalCtx.close();
    naiveDb.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(naiveDir, { recursive: true, force: true });
  }
}
