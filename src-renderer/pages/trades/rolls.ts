/**
 * The roll assistant's pure helpers (docs/ui.md §Rolls): the filters as the API's query, a leg's title, a net credit
 * in words and an expiration with its levels. Beside RollsPanel.tsx; the renderer's unit tests read them without JSX.
 */
import type { RollLegJson, RollsQueryT } from '../../../src-shared/api/schemas';

export interface RollFilters {
  /** Net credit or even only. */
  credit: boolean;
  net: 'mid' | 'natural';
  /** |delta| at most this; '' for any. */
  maxDelta: string;
  beyondWall: boolean;
}

/** The query of the filters: only what narrows the list (a |Δ| that is not a number between 0 and 1 is left out). */
export function wantedQuery(filters: RollFilters): RollsQueryT {
  const query: RollsQueryT = {};
  if (filters.credit) {
    query.minNet = 0;
    if (filters.net === 'natural') query.net = 'natural';
  }
  const delta = filters.maxDelta.trim() === '' ? Number.NaN : Number(filters.maxDelta);
  if (Number.isFinite(delta) && delta >= 0 && delta <= 1) query.maxDelta = delta;
  if (filters.beyondWall) query.beyondWall = 'true';
  return query;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** `12 Jan` from `2024-01-12`. */
const dayMonth = (iso: string) => `${Number(iso.slice(8, 10))} ${MONTHS[Number(iso.slice(5, 7)) - 1] ?? ''}`;
const strikeText = (strike: number) => strike.toLocaleString('en-US', { maximumFractionDigits: 3 });

/** "Short 4,600 put · 12 Jan (5 DTE) × 1". */
export function legTitle(leg: RollLegJson): string {
  return `Short ${strikeText(leg.leg.strike)} ${leg.leg.right === 'P' ? 'put' : 'call'} · ${dayMonth(leg.leg.expiration)} (${leg.leg.dte} DTE) × ${leg.leg.contracts}`;
}

/** A net per share, signed: "+2.20", "−0.885", "—" without a quote of the leg. */
export function netNumber(net: number | null): string {
  if (net === null) return '—';
  const text = Math.abs(net).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 });
  return net >= 0 ? `+${text}` : `−${text}`;
}

/** A net per share in words: "+2.20 cr", "−0.35 db", "—" without a quote of the leg. */
export function netText(net: number | null): string {
  return net === null ? '—' : `${netNumber(net)} ${net >= 0 ? 'cr' : 'db'}`;
}

/** "16 Jan · 9 DTE · put wall 4,700 · flip 4,718 · call wall 4,750" (levels absent: "no open interest"). */
export function expirationWords(e: RollLegJson['expirations'][number]): string {
  const level = (name: string, value: number | null) => `${name} ${value === null ? '—' : strikeText(Math.round(value))}`;
  const levels = e.putWall === null && e.callWall === null && e.gammaFlip === null ? 'no levels' : [level('put wall', e.putWall), level('flip', e.gammaFlip), level('call wall', e.callWall)].join(' · ');
  return `${dayMonth(e.expiration)} · ${e.dte} DTE · ${levels}`;
}
