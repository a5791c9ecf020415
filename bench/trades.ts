/**
 * journal.trades_* (docs/journal.md §Trades and strategies): the trade grouping on the 100,000-transaction bench journal
 * (the generated journal bench/journal.ts imports, seed 42), in this thread, without a server. The grouping is built
 * once per ledger build, off the event loop like the ledger; a request then filters and pages what it made, or adds
 * up the stats: those two are the DESIGN §7 budget of 50 ms. Runs alone: `node bin/run-ts.mjs bench/trades.ts`.
 */
import { pathToFileURL } from 'node:url';
import { syntheticTransactions } from '../src-shared/demo/journal';
import { buildLedger } from '../src-shared/journal/ledger';
import type { Transaction } from '../src-shared/journal/model';
import { TRADE_GROUPS, queryTrades, tradeStats } from '../src-shared/journal/trade-stats';
import type { EntryLookup } from '../src-shared/journal/trade-metrics';
import { buildTrades } from '../src-shared/journal/trades';
import { against, atMost, info, median, timeMs, type BenchLine } from './lib';
import { baselines, sampleMs } from './baselines';
import { asAccountId, asTicker } from '../src-shared/ids';

const COUNT = 100_000;

/** What the store makes of the generated rows: ids, the account, the New York day (the generator's instants are 14:30–19:59 UTC). */
function journal(): Transaction[] {
  return syntheticTransactions(COUNT, 42).map((row, index) => ({
    ...row,
    id: `bench:${String(index).padStart(6, '0')}`,
    accountId: asAccountId(row.accountName),
    importId: 1,
    tradeDay: row.tradeDate.slice(0, 10),
  }));
}

/** A snapshot for every entry (the worst case for the precompute): fixed facts, as a service's cached marks answer. */
const everyEntry: EntryLookup = ({ atMs }) => ({
  quoteTime: new Date(atMs - 60_000).toISOString(),
  spot: 100,
  delta: -0.2,
  levels: { putWall: 90, gammaFlip: 100, callWall: 110, gammaZone: 'positive' },
});

export async function benchTrades(): Promise<BenchLine[]> {
  const rows = journal();
  const ledger = buildLedger(rows, { reportingCurrency: 'USD' });
  const options = { campaigns: ledger.campaigns, lookup: everyEntry };
  // The build next to the ledger's, alternating, in the same run: the ratio holds on a loaded machine, the times do not.
  const ledgerSamples: number[] = [];
  const buildSamples: number[] = [];
  for (let run = 0; run < 6; run += 1) {
    const ledgerStart = performance.now();
    buildLedger(rows, { reportingCurrency: 'USD' });
    const buildStart = performance.now();
    buildTrades(rows, options);
    if (run > 0) {
      ledgerSamples.push(buildStart - ledgerStart);
      buildSamples.push(performance.now() - buildStart);
    }
  }
  const buildMs = median(buildSamples);
  const ledgerMs = median(ledgerSamples);
  const book = buildTrades(rows, options);
  const closed = book.trades.filter((trade) => trade.status === 'closed').length;
  const pageMs = await timeMs(() => queryTrades(book, { page: 1, limit: 100 }), 31, 5);
  const base = baselines();
  const pageBase = sampleMs(base.json, pageMs);
  // The slowest list: a filter that keeps few trades, so every trade is read, and a late page.
  const filteredMs = await timeMs(() => queryTrades(book, { status: 'closed', strategy: 'short_call', symbol: asTicker('ko'), from: '2020-01-01', to: '2030-12-31', page: 3, limit: 100 }), 31, 5);
  const filteredBase = sampleMs(base.json, filteredMs);
  let statsWorstMs = 0;
  let statsWorst = '';
  for (const groupBy of TRADE_GROUPS) {
    const ms = await timeMs(() => tradeStats(book, { groupBy, currency: 'USD', tagsOf: () => ['wheel'] }), 15, 3);
    if (ms > statsWorstMs) {
      statsWorstMs = ms;
      statsWorst = groupBy;
    }
  }
  const statsBase = sampleMs(base.json, statsWorstMs);
  const detail = `${book.trades.length} trades (${closed} closed) from ${COUNT} transactions`;
  return [
    info(atMost('journal.trades_build_ms', buildMs, 'ms', 500, `${detail}; once per ledger build, in the journal worker`)),
    atMost('journal.trades_build_vs_ledger', buildMs / ledgerMs, 'x', 3, `the ledger build: ${ledgerMs.toFixed(0)} ms`),
    against(atMost('journal.trades_page_ms', pageMs, 'ms', 50, 'the first page of 100'), base.json, pageBase),
    against(atMost('journal.trades_filtered_page_ms', filteredMs, 'ms', 50, 'status, strategy, symbol and dates, page 3'), base.json, filteredBase),
    against(atMost('journal.trades_stats_ms', statsWorstMs, 'ms', 50, `the slowest groupBy, ${statsWorst}, over every closed trade`), base.json, statsBase),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const line of await benchTrades()) {
    process.stdout.write(`${line.info ? 'info' : line.ok ? 'ok  ' : 'MISS'} ${line.name.padEnd(34)} ${String(line.value).padStart(10)} ${line.unit} budget ${line.budget}  (${line.detail ?? ''})\n`);
  }
}
