/** The demo's snapshots at its openings (src-shared/demo/entries.ts): one per opening, deterministic, listing what was traded. */
import { describe, expect, it } from 'vitest';
import { demoEntryChain, demoEntryQuotes, ENTRY_SNAPSHOT_LEAD_MS } from '../../../../src-shared/demo/entries';
import { DEMO_JOURNAL_SEED, demoTransactions } from '../../../../src-shared/demo/journal';

const TODAY = '2026-11-26';

describe('demo entry snapshots', () => {
  const quotes = demoEntryQuotes(DEMO_JOURNAL_SEED, TODAY);
  const openings = demoTransactions(DEMO_JOURNAL_SEED, TODAY).filter((t) => t.type === 'SELL_TO_OPEN');

  it('one quote per underlying and instant of an opening, 5 minutes before it', () => {
    const instants = new Set(openings.map((t) => `${t.underlying}|${Date.parse(t.tradeDate) - ENTRY_SNAPSHOT_LEAD_MS}`));
    expect(new Set(quotes.map((q) => `${q.symbol}|${Date.parse(q.quoteTime)}`))).toEqual(instants);
    expect(quotes.length).toBe(instants.size);
  });

  it('each snapshot lists the contracts sold at that opening, at the journal spot, and is the same on every call', () => {
    for (const quote of quotes) {
      const chain = demoEntryChain(quote);
      expect(chain.spot).toBe(Math.round(quote.spot * 100) / 100);
      expect(chain.source).toBe('demo');
      expect(Date.parse(chain.quoteTime)).toBe(Date.parse(quote.quoteTime));
      const sold = openings.filter((t) => t.underlying === quote.symbol && Date.parse(t.tradeDate) - ENTRY_SNAPSHOT_LEAD_MS === Date.parse(quote.quoteTime));
      for (const leg of sold) {
        const listed = chain.contracts.filter((c) => c.expiration === leg.expiration && c.strike === leg.strike && c.right === leg.right);
        expect(listed, `${leg.symbol} in the ${quote.quoteTime} snapshot`).toHaveLength(1);
      }
    }
    const first = quotes[0];
    if (first === undefined) throw new Error('no entries');
    expect(JSON.stringify(demoEntryChain(first))).toBe(JSON.stringify(demoEntryChain(first)));
  });
});
