/**
 * A /gex/history point without preparing the whole snapshot (docs/exposure.md, "History at scale"). A point needs
 * the scope's expirations alone: their contracts are turned into objects and prepared, the other expirations' are
 * only looked at for their dates (which expirations exist, and their dte, to resolve the scope). Every figure of an
 * expiration (T, the parity forward, the greeks, the sweep's constants) depends on that expiration's contracts only,
 * and the sums run in the same order, so the point is the one the full preparation gives, to the bit (the property
 * test, test/unit/shared/exposure/history-point.test.ts, compares them on every real chain).
 */
import { daysBetween, parseInstantMs } from '../calendar';
import { dateInZone, NEW_YORK } from '../zone';
import type { Formula } from './formulas';
import type { ExpirationIndex, ScopeExpiration } from './expiration-scope';
import { computeGex, formulaFactor, gexHistoryPoint, type GexHistoryPoint, type Wall } from './gex';
import type { ChainSnapshot, OptionContract, SnapshotSourceId } from './model';
import { isAdjustedRoot, prepareChain } from './prepare';
import { expiryInstantMs, settlementOf } from './time';

/**
 * A stored snapshot's contracts as a point reads them (db/snapshots.ts): the identity of every contract column-wise
 * (dictionary-coded roots and expirations), and the contracts of the expirations asked for. The column form reads
 * only those expirations' quotes.
 */
export interface ChainColumns {
  roots: readonly string[];
  expirations: readonly string[];
  /** Index into `roots`, per contract. */
  root: ArrayLike<number>;
  /** Index into `expirations`, per contract. */
  expiration: ArrayLike<number>;
  strike: ArrayLike<number>;
  /** One character per contract: C or P. */
  right: string;
  /** The contracts of the expirations flagged 1 in `wanted` (by index into `expirations`), in stored order. */
  contractsOf(wanted: Uint8Array): OptionContract[];
}

/** Every column of the deflated JSON form (db/snapshots.ts, versions 1 and 2), read at once. */
export interface PackedColumns {
  roots: readonly string[];
  expirations: readonly string[];
  root: readonly number[];
  expiration: readonly number[];
  strike: readonly number[];
  right: string;
  oi: readonly number[];
  iv: readonly number[];
  bid: readonly number[];
  ask: readonly number[];
  multiplier: readonly number[];
  volume?: ReadonlyArray<number | null>;
}

/** What a point needs of a stored snapshot beside its contracts. */
export interface ChainHead {
  symbol: string;
  spot: number;
  quoteTime: string;
  source: SnapshotSourceId;
}

/**
 * The unexpired expirations the engine would keep (prepare.ts: a contract of a standard root, unexpired at the quote
 * time under its root's settlement, with a strike > 0), ascending, with their dte: what a scope is resolved on.
 */
export function columnExpirations(head: ChainHead, columns: ChainColumns): ExpirationIndex<ScopeExpiration> {
  const quoteMs = parseInstantMs(head.quoteTime);
  const expirationCount = columns.expirations.length;
  // Per (root, expiration) pair: 1 when its contracts count, 2 when they do not (expired, or an adjusted root).
  const pairs = new Uint8Array(columns.roots.length * expirationCount);
  const kept = new Uint8Array(expirationCount);
  for (let i = 0; i < columns.strike.length; i += 1) {
    const e = columns.expiration[i] ?? 0;
    if (kept[e] === 1 || !((columns.strike[i] ?? 0) > 0)) continue;
    const r = columns.root[i] ?? 0;
    const pair = r * expirationCount + e;
    let state = pairs[pair] ?? 0;
    if (state === 0) {
      const root = columns.roots[r] ?? '';
      const expiryMs = expiryInstantMs(columns.expirations[e] ?? '', settlementOf(root));
      state = !isAdjustedRoot(root, head.symbol) && expiryMs > quoteMs ? 1 : 2;
      pairs[pair] = state;
    }
    if (state === 1) kept[e] = 1;
  }
  const quoteDay = dateInZone(quoteMs, NEW_YORK);
  const expirations = columns.expirations
    .filter((_, e) => kept[e] === 1)
    .sort()
    .map((expiration) => ({ expiration, dte: daysBetween(quoteDay, expiration) }));
  return { expirations, byExpiration: new Map(expirations.map((e) => [e.expiration, e])) };
}

/** The contract at row `i` of the packed columns (with its volume when the snapshot has one). */
export function contractAt(columns: PackedColumns, i: number): OptionContract {
  const contract: OptionContract = {
    root: columns.roots[columns.root[i] ?? 0] ?? '',
    expiration: columns.expirations[columns.expiration[i] ?? 0] ?? '',
    strike: columns.strike[i] ?? 0,
    right: columns.right[i] === 'P' ? 'P' : 'C',
    openInterest: columns.oi[i] ?? 0,
    iv: columns.iv[i] ?? 0,
    bid: columns.bid[i] ?? 0,
    ask: columns.ask[i] ?? 0,
    multiplier: columns.multiplier[i] ?? 100,
  };
  const traded = columns.volume?.[i];
  if (typeof traded === 'number') contract.volume = traded;
  return contract;
}

/** The JSON form's columns as a point reads them. */
export function packedChainColumns(columns: PackedColumns): ChainColumns {
  return {
    ...columns,
    contractsOf(wanted) {
      const contracts: OptionContract[] = [];
      for (let i = 0; i < columns.strike.length; i += 1) if (wanted[columns.expiration[i] ?? 0] === 1) contracts.push(contractAt(columns, i));
      return contracts;
    },
  };
}

/** The snapshot restricted to the contracts of some expirations, in the stored order (prepare sorts them stably). */
export function snapshotOf(head: ChainHead, columns: ChainColumns, expirations: readonly string[]): ChainSnapshot {
  const wanted = new Uint8Array(columns.expirations.length);
  const asked = new Set(expirations);
  columns.expirations.forEach((expiration, e) => {
    if (asked.has(expiration)) wanted[e] = 1;
  });
  return { symbol: head.symbol, spot: head.spot, quoteTime: head.quoteTime, source: head.source, contracts: columns.contractsOf(wanted) };
}

/**
 * One snapshot's history point in a scope: `resolve` picks the scope's expirations among the snapshot's (the
 * service's scope rules, services/exposure/compute.ts), and only those are prepared.
 */
export function historyPointOf(
  head: ChainHead,
  columns: ChainColumns,
  rate: number,
  formula: Formula,
  resolve: (index: ExpirationIndex<ScopeExpiration>) => string[],
): GexHistoryPoint {
  const expirations = resolve(columnExpirations(head, columns));
  const chain = prepareChain(snapshotOf(head, columns, expirations), { rate });
  return gexHistoryPoint(computeGex(chain, { expirations, formula, exact: true }), head.quoteTime);
}

/**
 * A `nominal` point in another formula: the formulas differ by a positive factor of spot alone (formulaFactor), and
 * /gex multiplies the same shares-per-$1 sums by it, so the point is the one /gex gives in that formula, to the bit
 * (x·1 = x: the nominal figures are those sums). The flip and the walls' strikes do not depend on the formula.
 */
export function pointInFormula(nominal: GexHistoryPoint, formula: Formula): GexHistoryPoint {
  const factor = formulaFactor(formula, nominal.spot);
  const wall = (w: Wall | null): Wall | null => (w === null ? null : { strike: w.strike, gex: w.gex * factor });
  return { ...nominal, totalGEX: nominal.totalGEX * factor, callWall: wall(nominal.callWall), putWall: wall(nominal.putWall) };
}
