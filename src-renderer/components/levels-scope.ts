/**
 * The levels scope's words and parameters (docs/journal.md §Levels scope), pure: what the pages put beside a level, the
 * /gex parameters that draw the same levels, and the scope an address names. The control is LevelsScope.tsx.
 */
import { LEVELS_SCOPE_LABELS, LEVELS_SCOPES, type LevelsScope } from '../../src-shared/api/constants';

/** A levels scope read from an address (`levels=nearest`), the default when absent or unknown. */
export function readLevelsScope(text: string | null): LevelsScope {
  return (LEVELS_SCOPES as readonly string[]).includes(text ?? '') ? (text as LevelsScope) : 'own';
}

/** `15 Sep 23` from `2023-09-15`. */
function shortDate(iso: string): string {
  const [yyyy = '', mm = '', dd = ''] = iso.split('-');
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  return `${dd} ${months[Number(mm) - 1] ?? mm} ${yyyy.slice(2)}`;
}

/**
 * Where a set of levels comes from, in words: "own expiration 15 Sep 23", "3 nearest expirations (15 Sep – 19 Sep
 * 23)", "0–45 DTE (15 expirations)".
 */
export function scopeText(levels: { scope: LevelsScope; expirations: readonly string[] }): string {
  const { scope, expirations } = levels;
  const first = expirations[0];
  const last = expirations[expirations.length - 1];
  if (first === undefined || last === undefined) return LEVELS_SCOPE_LABELS[scope];
  if (scope === 'own') return `own expiration ${shortDate(first)}`;
  const span = first === last ? shortDate(first) : `${shortDate(first)} – ${shortDate(last)}`;
  return scope === 'nearest' ? `${LEVELS_SCOPE_LABELS.nearest} (${span})` : `${LEVELS_SCOPE_LABELS.book} (${expirations.length} expiration${expirations.length === 1 ? '' : 's'}, ${span})`;
}

/** The /gex scope parameters that draw the same levels on a map: an expiration list, or the 0–45 dte range. */
export function gexScopeOf(levels: { scope: LevelsScope; expirations: readonly string[] } | null): { expirations?: string; minDte?: number; maxDte?: number } {
  if (levels === null || levels.scope === 'nearest') return {};
  if (levels.scope === 'book') return { minDte: 0, maxDte: 45 };
  return levels.expirations.length === 0 ? {} : { expirations: levels.expirations.join(',') };
}
