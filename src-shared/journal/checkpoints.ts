/**
 * Checkpoints of a ledger build (docs/journal.md §Checkpoints): at day boundaries, every so many rows, what the book
 * holds then (open lots, the slots' chains, the openings the history lacks). The book at a past instant is the
 * nearest checkpoint before it plus the rows after it, replayed: a few thousand rows instead of the whole journal.
 *
 * A checkpoint keeps only what can still change. A chain that is neither open nor the last of its slot never changes
 * again (dividends and fees attach to the open chain, else the last one), so it is the complete ledger's own record;
 * the others are kept as numbers and a count of their legs (the legs of a chain only grow: the first N of the complete
 * record's are the chain's legs then).
 */
import type { ChainRecord, SlotState } from './chains';
import type { LedgerWarnings } from './ledger';
import type { UnmatchedOpening } from './unmatched';
import type { OpenPosition, PositionState } from './lots';
import type { RollRecord } from './rolls';

/** A chain that may still change after the checkpoint: its figures then. */
export interface LiveChainState {
  index: number;
  underlying: string;
  closeDay: string | null;
  realizedMinor: number;
  dividendsMinor: number;
  feesMinor: number;
  commissionsMinor: number;
  premiumsMinor: number;
  netOptionCashMinor: number;
  assignments: number;
  collateralPeakMinor: number;
  legCount: number;
}

export interface LedgerCheckpoint {
  /** Rows [0, position) of the processing order are in it; row `position` is the first of `day`. */
  position: number;
  day: string;
  lastInstantMs: number;
  positions: PositionState[];
  slots: SlotState[];
  /** Chains opened before it (indexes into the complete ledger's chain list). */
  chainCount: number;
  live: LiveChainState[];
  /** The openings the history lacked then (copies), and the warning counts. */
  unmatched: UnmatchedOpening[];
  warnings: LedgerWarnings;
}

/** What a build with checkpoints keeps beside the ledger: the processing order and the checkpoints. */
export interface LedgerCheckpoints {
  /** Transaction ids in processing order. */
  ids: string[];
  /** The instant each row counts at, in processing order (ascending). */
  instantsMs: Float64Array;
  checkpoints: LedgerCheckpoint[];
}

/** The book of a ledger at an instant: positions, chains and rolls (no day figures: those are the complete ledger's). */
export interface BookLedger {
  reportingCurrency: string;
  chains: ChainRecord[];
  rolls: RollRecord[];
  positions: OpenPosition[];
  unmatched: UnmatchedOpening[];
  lastInstantMs: number;
}

/** A chain of the checkpoint as the replay starts it: the complete record, with the figures and legs it had then. */
export function liveChain(complete: ChainRecord, state: LiveChainState): ChainRecord {
  const { index: _index, legCount, ...figures } = state;
  return { ...complete, ...figures, legs: complete.legs.slice(0, legCount), steps: [], rolls: 0, plMinor: 0 };
}

/** The state of a chain for a checkpoint. */
export function liveState(chain: ChainRecord, index: number): LiveChainState {
  return {
    index,
    underlying: chain.underlying,
    closeDay: chain.closeDay,
    realizedMinor: chain.realizedMinor,
    dividendsMinor: chain.dividendsMinor,
    feesMinor: chain.feesMinor,
    commissionsMinor: chain.commissionsMinor,
    premiumsMinor: chain.premiumsMinor,
    netOptionCashMinor: chain.netOptionCashMinor,
    assignments: chain.assignments,
    collateralPeakMinor: chain.collateralPeakMinor,
    legCount: chain.legs.length,
  };
}

/** Each roll counts in the chain of its slot that was open on the roll's day. */
export function attributeRolls(chains: readonly ChainRecord[], rolls: readonly RollRecord[]): void {
  const bySlot = new Map<string, ChainRecord[]>();
  for (const chain of chains) {
    const key = `${chain.accountId}\u0000${chain.currency}\u0000${chain.underlying}`;
    const list = bySlot.get(key);
    if (list) list.push(chain);
    else bySlot.set(key, [chain]);
  }
  for (const roll of rolls) {
    const list = bySlot.get(`${roll.accountId}\u0000${roll.currency}\u0000${roll.underlying}`) ?? [];
    const chain = list.find((c) => c.openDay <= roll.day && (c.closeDay === null || roll.day <= c.closeDay));
    if (chain) chain.rolls += 1;
  }
}

/** The first index in [0, length) where `predicate` holds, for a predicate that is false then true. */
export function firstWhere(length: number, predicate: (index: number) => boolean): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (predicate(mid)) high = mid;
    else low = mid + 1;
  }
  return low;
}
