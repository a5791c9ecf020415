/** The Exposure page's scope: which expirations its /gex-like requests cover. */
import type { GexQueryT } from '../../../src-shared/api/schemas';
import { daysBetween } from '../../../src-shared/calendar';
import { dateInTimeZone } from '../../format';

/** The scope parameters of the page's /gex request, shared by the profile, the history and the diff. */
export type ScopeQuery = Omit<GexQueryT, 'symbol' | 'formula' | 'snapshot' | 'at'>;

export type ScopeMode = 'count' | 'pick';
/** The 0DTE switch: every expiration, the same-day one alone, or all but it. */
export type DteMode = 'all' | '0dte' | 'ex0dte';
/** `count` of the Nearest scope: 1–5, or 0 for every expiration. */
export const ALL_EXPIRATIONS = 0;

export function scopeQuery(scope: ScopeMode, pickedKey: string, count: number, dte: DteMode): ScopeQuery {
  if (scope === 'pick' && pickedKey !== '') return { expirations: pickedKey };
  const limit = count === ALL_EXPIRATIONS ? {} : { expirationsCount: count };
  if (dte === '0dte') return { maxDte: 0, ...limit };
  if (dte === 'ex0dte') return { minDte: 1, ...limit };
  return count === ALL_EXPIRATIONS ? { minDte: 0 } : limit;
}

export function dteOf(expiration: string, snapshotTime: string): number {
  return daysBetween(dateInTimeZone(Date.parse(snapshotTime)), expiration);
}
