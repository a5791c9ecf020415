import { demoMarket } from '../src-shared/demo/market';
import { demoTransactions } from '../src-shared/demo/journal';
import type { AppContext } from './server/context';
import { todayIn } from './time';

/**
 * Loads the generated demo (DESIGN §2): a day of snapshots for a few tickers and a year of wheel trading.
 * Everything is marked `source: demo`. Loading twice adds nothing (same snapshots and row ids).
 */
export async function loadDemo(ctx: AppContext): Promise<{ transactions: number; snapshots: number; events: number }> {
  let events = 0;
  let snapshots = 0;
  for (const snapshot of demoMarket()) {
    const result = await ctx.writes.run(() => ctx.exposure.ingest(snapshot));
    events += result.events;
    if (result.stored) snapshots += 1;
  }
  const transactions = demoTransactions(undefined, todayIn(ctx.settings.timeZone));
  const report = await ctx.journal.store(
    'demo',
    'demo',
    transactions.map((transaction, index) => ({ line: index + 1, transaction })),
    transactions.length,
    [],
    [],
    'demo',
  );
  return { transactions: report.imported, snapshots, events };
}
