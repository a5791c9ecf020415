import { DEMO_SEED, demoMarket, demoMarketDay } from '../src-shared/demo/market';
import { DEMO_JOURNAL_SEED, demoTransactions } from '../src-shared/demo/journal';
import { nowDate } from './clock';
import type { AppContext } from './server/context';
import { todayIn } from '../src-shared/zone';
import { NO_NOTES } from '../src-shared/journal/import-report';

/**
 * Loads the generated demo (docs/architecture.md §Running): a day of snapshots for a few tickers and a year of wheel trading.
 * Everything is marked `source: demo`. Loading twice adds nothing (same snapshots and row ids).
 */
export async function loadDemo(ctx: AppContext): Promise<{ transactions: number; snapshots: number; events: number }> {
  let events = 0;
  let snapshots = 0;
  const today = todayIn(ctx.settings.timeZone, nowDate(ctx.clock));
  // The market of the last trading day before today: the demo journal's open positions are marked from it, fresh.
  for (const snapshot of demoMarket(DEMO_SEED, demoMarketDay(today))) {
    const result = await ctx.exposure.ingest({ snapshot });
    // The simulator's snapshots are never refused (test/unit/exposure/demo.test.ts); one that were would be a bug.
    if (!result.ok) throw new Error(`demo snapshot ${snapshot.symbol} ${snapshot.quoteTime} refused: ${result.error.kind}`);
    events += result.value.events;
    if (result.value.stored) snapshots += 1;
  }
  const transactions = demoTransactions(DEMO_JOURNAL_SEED, today);
  const report = await ctx.journal.store(
    'demo',
    'demo',
    transactions.map((transaction, index) => ({ line: index + 1, transaction })),
    transactions.length,
    NO_NOTES,
    'demo',
  );
  return { transactions: report.imported, snapshots, events };
}
