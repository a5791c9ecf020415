/**
 * The dealer levels a position or a trade's entry is held against (DESIGN §5 "Levels scope", docs/journal.md
 * §Levels scope): those of its own expiration by default, the /gex default scope (3 nearest) or the book (0–45 dte)
 * on request. Computed as /gex computes them (walls as strikes, the flip nearest spot), on the expirations the scope
 * resolves to, which go with the levels so that every page can say where they come from.
 */
import { DEFAULT_FORMULA } from '../exposure/formulas';
import type { LevelsScope } from './constants';
import { bookExpirations } from '../exposure/book-events';
import { resolveGexExpirations } from '../exposure/expiration-scope';
import { computeGex } from '../exposure/gex';
import type { PreparedChain, PreparedExpiration } from '../exposure/prepare';

/** An underlying's dealer levels in one snapshot: walls as strikes. */
export interface DealerLevels {
  callWall: number | null;
  putWall: number | null;
  gammaFlip: number | null;
  gammaZone: 'positive' | 'negative';
}

/** Levels with the scope they are of and the expirations it took, ascending. */
export interface ScopedLevels extends DealerLevels {
  scope: LevelsScope;
  expirations: string[];
}

/**
 * The expirations of a scope on a chain, and the scope they are of: `own` is the expiration alone (none when the
 * snapshot has no unexpired contract of it), and for what has no expiration (shares) the nearest three, said so.
 */
export function scopeExpirations(chain: PreparedChain, scope: LevelsScope, expiration: string | null): { scope: LevelsScope; expirations: PreparedExpiration[] } {
  if (scope === 'own' && expiration !== null) {
    const own = chain.byExpiration.get(expiration);
    return { scope, expirations: own === undefined ? [] : [own] };
  }
  if (scope === 'book') return { scope, expirations: bookExpirations(chain) };
  return { scope: 'nearest', expirations: resolveGexExpirations(chain, null) };
}

/** The levels of a scope on a chain, as `/gex` with those expirations answers them; null when the scope holds no expiration. */
export function scopedLevels(chain: PreparedChain, scope: LevelsScope, expiration: string | null): ScopedLevels | null {
  const resolved = scopeExpirations(chain, scope, expiration);
  if (resolved.expirations.length === 0) return null;
  const expirations = resolved.expirations.map((e) => e.expiration);
  const gex = computeGex(chain, { expirations, formula: DEFAULT_FORMULA, exact: true });
  return {
    callWall: gex.callWall?.strike ?? null,
    putWall: gex.putWall?.strike ?? null,
    gammaFlip: gex.gammaInflection,
    gammaZone: gex.gammaZone,
    scope: resolved.scope,
    expirations,
  };
}
