/**
 * The Positions table's arithmetic, pure (the unit tests run it without a DOM): rows grouped by underlying and sorted
 * within their group, and where a short strike stands against the expected move of its expiration (issue 21).
 */
import type { PositionJson } from '../../../src-shared/api/schemas';

export type SortKey = 'instrument' | 'qty' | 'costBasis' | 'collateral' | 'mark' | 'unrealized' | 'dte' | 'delta' | 'theta' | 'expectedMove' | 'putWall' | 'callWall' | 'flip';
export interface Sort {
  key: SortKey;
  /** 1 ascending, −1 descending. */
  dir: 1 | -1;
}

/** The expected move of one expiration of the mark's snapshot (`/v1/expirations` details), per share. */
export interface ExpectedMove {
  expiration: string;
  expectedMove: number;
  spot: number;
}

/**
 * A short strike against its expiration's expected-move band (spot ± the ATM straddle): how far outside the band it
 * is, in % of spot, positive outside (the market prices it out of reach), negative inside. Null for what has no short
 * strike, or without a move for that expiration.
 */
export interface MoveDistance {
  pct: number;
  /** The band edge on the strike's side. */
  edge: number;
  band: { low: number; high: number };
  expectedMove: number;
}

export function moveDistance(position: Pick<PositionJson, 'isOption' | 'quantity' | 'strike' | 'right'>, move: ExpectedMove | undefined): MoveDistance | null {
  if (!position.isOption || position.quantity >= 0 || position.strike === null || position.right === null || move === undefined || !(move.spot > 0)) return null;
  const band = { low: move.spot - move.expectedMove, high: move.spot + move.expectedMove };
  // A put is out of reach below the band's low edge, a call above its high edge.
  const edge = position.right === 'P' ? band.low : band.high;
  const beyond = position.right === 'P' ? edge - position.strike : position.strike - edge;
  return { pct: (beyond / move.spot) * 100, edge, band, expectedMove: move.expectedMove };
}

/** The instrument without its underlying (the group says it): `18 Dec 26 240 C`, or `shares`. */
export function instrumentLabel(position: Pick<PositionJson, 'isOption' | 'expiration' | 'strike' | 'right'>): string {
  if (!position.isOption || position.expiration === null) return 'shares';
  const [yyyy = '', mm = '', dd = ''] = position.expiration.split('-');
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const strike = position.strike === null ? '' : position.strike.toLocaleString('en-US', { maximumFractionDigits: 3 });
  return `${dd} ${months[Number(mm) - 1] ?? mm} ${yyyy.slice(2)} ${strike} ${position.right ?? ''}`.trim();
}

/** What each column sorts a position by (a Record, so that a new SortKey without its value does not compile). */
const SORT_VALUES: Record<SortKey, (position: PositionJson, moves: ReadonlyMap<string, ExpectedMove>) => number | string | null> = {
  // Shares first, then by expiration, strike and right.
  instrument: (p) => (p.isOption ? `1|${p.expiration ?? ''}|${String(p.strike ?? 0).padStart(12, '0')}|${p.right ?? ''}` : '0'),
  qty: (p) => p.quantity,
  costBasis: (p) => p.costBasis,
  // An older server sends no collateral: the column sorts nothing then.
  collateral: (p) => (p as Partial<PositionJson>).collateral ?? null,
  mark: (p) => p.mark?.price ?? null,
  unrealized: (p) => p.unrealizedPL,
  dte: (p) => p.dte,
  delta: (p) => p.greeks?.delta ?? null,
  theta: (p) => p.greeks?.theta ?? null,
  expectedMove: (p, moves) => moveDistance(p, moves.get(moveKey(p)))?.pct ?? null,
  putWall: (p) => p.strikeVs?.putWall ?? null,
  callWall: (p) => p.strikeVs?.callWall ?? null,
  flip: (p) => p.strikeVs?.gammaFlip ?? null,
};

function sortValue(position: PositionJson, key: SortKey, moves: ReadonlyMap<string, ExpectedMove>): number | string | null {
  return SORT_VALUES[key](position, moves);
}

/** The key of a position's expected move: its underlying and expiration. */
export function moveKey(position: Pick<PositionJson, 'underlying' | 'expiration'>): string {
  return `${position.underlying}|${position.expiration ?? ''}`;
}

function compare(a: number | string | null, b: number | string | null, dir: 1 | -1): number {
  // What has no value (no mark, no strike) sorts last either way.
  if (a === null || b === null) return a === null ? (b === null ? 0 : 1) : -1;
  if (typeof a === 'number' && typeof b === 'number') return (a - b) * dir;
  return String(a).localeCompare(String(b)) * dir;
}

export interface BookGroup {
  underlying: string;
  rows: PositionJson[];
}

/**
 * Rows by underlying, each group sorted by `sort` (then by instrument); the groups in the order of their first row
 * under that sort (by name for the instrument sort), so "DTE ascending" puts the underlying that expires first on top.
 */
export function groupAndSort(positions: readonly PositionJson[], sort: Sort, moves: ReadonlyMap<string, ExpectedMove>, optionsOnly: boolean): BookGroup[] {
  const byUnderlying = new Map<string, PositionJson[]>();
  for (const p of positions) {
    if (optionsOnly && !p.isOption) continue;
    const list = byUnderlying.get(p.underlying);
    if (list) list.push(p);
    else byUnderlying.set(p.underlying, [p]);
  }
  const rowOrder = (a: PositionJson, b: PositionJson) =>
    compare(sortValue(a, sort.key, moves), sortValue(b, sort.key, moves), sort.dir) || compare(sortValue(a, 'instrument', moves), sortValue(b, 'instrument', moves), 1) || a.accountName.localeCompare(b.accountName);
  const groups = [...byUnderlying].map(([underlying, rows]) => ({ underlying, rows: [...rows].sort(rowOrder) }));
  return groups.sort((a, b) => {
    if (sort.key === 'instrument') return a.underlying.localeCompare(b.underlying) * sort.dir;
    const first = (g: BookGroup) => g.rows[0];
    const fa = first(a);
    const fb = first(b);
    return (fa && fb ? rowOrder(fa, fb) : 0) || a.underlying.localeCompare(b.underlying);
  });
}
