/**
 * The online source's watchlist (docs/exposure.md §Refresh what you hold): the symbols of the setting, then, when
 * `watchlistIncludesPositions` is on, the underlying of every open position of the journal, deduplicated and capped.
 */
import { underlyingOfRoot } from '../chains/common';
import { tickerOrNull } from '../../src-shared/ids';
import type { Settings } from '../settings';
import type { JournalApi } from './journal/client';

/** At most this many symbols a pass or a poll (the setting's own list is at most 50 too): a pass stays minutes, not hours. */
export const MAX_WATCHLIST = 50;

/**
 * Tickers CBOE serves delayed quotes for: letters first, then letters, digits or a dot (BRK.B). A future's underlying
 * (`/ES`) or an account-specific code has no CBOE chain, so it is never asked for.
 */
const CBOE_TICKER = /^[A-Z][A-Z0-9.]{0,9}$/;

export interface WatchedSymbol {
  symbol: string;
  /** On the setting's list, or added because a position is open on it. */
  origin: 'watchlist' | 'position';
}

export interface Watchlist {
  symbols: WatchedSymbol[];
  /** Symbols past the cap, left out of this pass (positions' underlyings, alphabetically after the kept ones). */
  omitted: string[];
  /** Why the positions could not be read (the list then holds the setting's symbols alone), else null. */
  positionsProblem: string | null;
}

export interface WatchlistContext {
  readonly settings: Pick<Settings, 'onlineSource' | 'watchlistIncludesPositions'>;
  journal: Pick<JournalApi, 'positions'>;
}

/**
 * The underlying a snapshot of it is stored under: the marks look a position up by its underlying, and an importer may
 * have written the option root there (SPXW for SPX weeklies), so the root is mapped as the chain parsers map it.
 */
export function snapshotSymbolOf(underlying: string): string {
  return underlyingOfRoot(underlying.trim());
}

export async function watchlistOf(ctx: WatchlistContext): Promise<Watchlist> {
  const listed: WatchedSymbol[] = [];
  const seen = new Set<string>();
  for (const raw of ctx.settings.onlineSource.watchlist) {
    const symbol = tickerOrNull(raw);
    if (symbol === null || seen.has(symbol)) continue;
    seen.add(symbol);
    listed.push({ symbol, origin: 'watchlist' });
  }
  let positionsProblem: string | null = null;
  const held: string[] = [];
  if (ctx.settings.watchlistIncludesPositions) {
    const read = await ctx.journal.positions({}).catch((error: unknown) => ({ ok: false as const, message: error instanceof Error ? error.message : String(error) }));
    if (!read.ok) {
      positionsProblem = 'message' in read ? read.message : 'the open positions could not be read';
    } else {
      const underlyings = new Set<string>();
      for (const row of read.value.positions) {
        const symbol = snapshotSymbolOf(row.position.underlying);
        if (CBOE_TICKER.test(symbol) && !seen.has(symbol)) underlyings.add(symbol);
      }
      held.push(...[...underlyings].sort());
    }
  }
  const all = [...listed, ...held.map((symbol) => ({ symbol, origin: 'position' as const }))];
  return { symbols: all.slice(0, MAX_WATCHLIST), omitted: all.slice(MAX_WATCHLIST).map((s) => s.symbol), positionsProblem };
}
