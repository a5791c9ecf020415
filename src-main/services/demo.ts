import { DEMO_SEED, demoMarket, demoMarketDay } from '../../src-shared/demo/market';
import { DEMO_JOURNAL_SEED, demoTransactions } from '../../src-shared/demo/journal';
import { demoEntryChain, demoEntryQuotes } from '../../src-shared/demo/entries';
import { nowDate, type Clock } from '../clock';
import type { Settings } from '../settings';
import type { ExposureService } from './exposure/service';
import type { JournalApi } from './journal/client';
import { todayIn } from '../../src-shared/zone';
import { NO_NOTES } from '../../src-shared/journal/import-report';
import { asTicker } from '../../src-shared/ids';

/** What the demo loader needs of the app (the server's context is one): the services it stores through. */
export interface DemoTarget {
  clock: Clock;
  settings: Pick<Settings, 'timeZone'>;
  journal: Pick<JournalApi, 'store'>;
  exposure: Pick<ExposureService, 'ingest' | 'snapshotList'>;
}

/**
 * Loads the generated demo (docs/architecture.md §Running): a day of snapshots for a few tickers and a year of wheel trading.
 * Everything is marked `source: demo`. Loading twice adds nothing (same snapshots and row ids).
 */
export async function loadDemo(ctx: DemoTarget): Promise<{ transactions: number; snapshots: number; events: number }> {
  let events = 0;
  let snapshots = 0;
  const today = todayIn(ctx.settings.timeZone, nowDate(ctx.clock));
  // The market of the last trading day before today: the demo journal's open positions are marked from it, fresh.
  for (const snapshot of demoMarket(DEMO_SEED, demoMarketDay(today))) {
    const result = await ctx.exposure.ingest({ snapshot });
    // The simulator's snapshots are never refused (test/unit/shared/demo/market.test.ts); one that were would be a bug.
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
  snapshots += await storeEntrySnapshots(ctx, today);
  return { transactions: report.imported, snapshots, events };
}

/**
 * A snapshot of the underlying just before each opening of the demo journal (src-shared/demo/entries.ts), so that its
 * trades have their levels, regime and delta at entry and the reports by them show rows. Older than the market day:
 * stored beside it without pruning (the retention keeps the newest 20 of a symbol) and without events (only a
 * symbol's newest snapshot is compared). One stored already is not priced again: a second load costs a listing.
 */
async function storeEntrySnapshots(ctx: DemoTarget, today: string): Promise<number> {
  const quotes = demoEntryQuotes(DEMO_JOURNAL_SEED, today);
  const stored = new Set<string>();
  for (const symbol of new Set(quotes.map((quote) => quote.symbol))) {
    const listed = ctx.exposure.snapshotList(asTicker(symbol));
    if (listed.ok) for (const head of listed.value) stored.add(`${symbol}|${Date.parse(head.quoteTime)}`);
  }
  let count = 0;
  for (const quote of quotes) {
    if (stored.has(`${quote.symbol}|${Date.parse(quote.quoteTime)}`)) continue;
    const result = await ctx.exposure.ingest({ snapshot: demoEntryChain(quote), prune: false });
    if (!result.ok) throw new Error(`demo entry snapshot ${quote.symbol} ${quote.quoteTime} refused: ${result.error.kind}`);
    if (result.value.stored) count += 1;
  }
  return count;
}
