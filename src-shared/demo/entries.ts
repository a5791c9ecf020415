/**
 * The demo's snapshots at its trades' entries (issue 27 item 11): for every opening of the demo journal, a snapshot of
 * its underlying five minutes before it, from the demo market's simulator at the journal's spot of that day (market.ts
 * `demoEntrySnapshot`). With them the trades have their levels, regime and delta at entry, and the reports by regime,
 * strike against the levels and delta show rows on the demo.
 */
import type { ChainSnapshot } from '../exposure/model';
import { isoInstant } from '../calendar';
import { DEMO_SEED, demoEntrySnapshot, type DemoEntryQuote } from './market';
import { demoEntries } from './wheel';

/** How long before an opening its snapshot is quoted. */
export const ENTRY_SNAPSHOT_LEAD_MS = 5 * 60_000;

/** The quotes of the entry snapshots of the demo journal of `today`, oldest first (cheap: nothing priced yet). */
export function demoEntryQuotes(journalSeed: number, today: string): DemoEntryQuote[] {
  return demoEntries(journalSeed, today).map((entry) => ({
    symbol: entry.symbol,
    quoteTime: isoInstant(Date.parse(entry.tradeDate) - ENTRY_SNAPSHOT_LEAD_MS, { compact: true }),
    spot: entry.spot,
    anchorSpot: entry.anchorSpot,
    legs: entry.legs,
  }));
}

/** The snapshot of one entry quote, priced by the demo market's simulator. */
export function demoEntryChain(quote: DemoEntryQuote, seed: number = DEMO_SEED): ChainSnapshot {
  return demoEntrySnapshot(seed, quote);
}
