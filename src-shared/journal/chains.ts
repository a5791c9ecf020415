/**
 * Chains (campaigns): per (account, underlying, currency), from flat to flat counting options and shares.
 * Rolls, assigned shares and covered calls stay inside one chain; a slot that is flat at the close of a
 * trading day ends its chain. Conventions: docs/journal.md §Chains.
 */
import { MINOR_PER_UNIT } from '../money';
import type { CollateralBasis, SlotCollateral } from './collateral';
import type { Position } from './lots';
import type { TransactionType } from './model';


/**
 * One transaction of a chain (a leg: a fill, a settlement, a dividend, a fee) with the chain's state after it: the
 * timeline of the campaign (docs/journal.md §Campaigns).
 */
export interface ChainStep {
  txId: string;
  day: string;
  type: TransactionType;
  symbol: string;
  quantity: number;
  /** Signed cash of the row as the ledger books it (+ = credit), costs included. */
  cashMinor: number;
  /** Realized P&L booked by this row. */
  realizedMinor: number;
  /** After the row: long shares held, their cost (entry value + entry costs of the open lots). */
  sharesHeld: number;
  shareCostMinor: number;
  /** After the row: the chain's net option cash so far. */
  netOptionCashMinor: number;
  /** The chain's collateral at the close of the row's day (collateral.ts): the figure the peak and the card read. */
  collateralMinor: number;
}

/** From flat to flat per (account, underlying, currency). */
export interface ChainRecord {
  /** Stable for the chain's slot and opening day: `accountId:currency:underlying:openDay`. */
  id: string;
  accountId: string;
  underlying: string;
  currency: string;
  openDay: string;
  /** Day it was flat again at the close of trading; null while open. */
  closeDay: string | null;
  realizedMinor: number;
  dividendsMinor: number;
  feesMinor: number;
  /** Commission + fees charged on its fills and settlements (the part whose opening is known), positive = cost. */
  commissionsMinor: number;
  /** realized + dividends − standalone fees. */
  plMinor: number;
  /** Gross sell-to-open credits (the part that opened short option lots). */
  premiumsMinor: number;
  /** Σ option cash: credits − debits of its option fills, costs included. */
  netOptionCashMinor: number;
  rolls: number;
  assignments: number;
  /** The largest collateral at the close of a trading day over the chain's life (see ChainStep.collateralMinor). */
  collateralPeakMinor: number;
  /** The rule (and spot) of the peak's figure. */
  collateralBasis: CollateralBasis;
  /** Its transaction ids, in processing order. */
  legs: string[];
  /** How many of them are option rows: a chain without any is no campaign (isCampaign). */
  optionLegs: number;
  /** The timeline (one step per leg) when the ledger was built with `timeline`, else empty. */
  steps: ChainStep[];
}

/** One (account, underlying, currency): its open positions and its chains. */
export interface ChainSlot {
  accountId: string;
  underlying: string;
  currency: string;
  openPositions: number;
  /** The open positions of the slot (options and shares). */
  members: Set<Position>;
  current: ChainRecord | null;
  last: ChainRecord | null;
}

/** The inner map of a nested map, created on first use (nested maps spare 100k rows a string key each). */
export function innerMap<V>(outer: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let map = outer.get(key);
  if (!map) {
    map = new Map();
    outer.set(key, map);
  }
  return map;
}

/** A slot as a checkpoint keeps it: its chains by their index in the ledger's chain list (−1: none). */
export interface SlotState {
  accountId: string;
  underlying: string;
  currency: string;
  current: number;
  last: number;
}

export class ChainBook {
  /** Closes at which a chain's collateral was Reg T (naked calls): the ledger is worth building with the snapshots' spots. */
  regTCloses = 0;

  /** The slot's collateral now (collateral.ts, given by the ledger: it reads the snapshots' spots at entry). */
  constructor(private readonly measure: (slot: ChainSlot) => SlotCollateral) {}

  /** account → currency → underlying. */
  private readonly slots = new Map<string, Map<string, Map<string, ChainSlot>>>();
  private chains: ChainRecord[] = [];
  /** Each chain's index in `chains` (checkpoints name chains by it). */
  private readonly indexes = new Map<ChainRecord, number>();
  private readonly touchedSlots = new Set<ChainSlot>();

  find(accountId: string, underlying: string, currency: string): ChainSlot | undefined {
    return this.slots.get(accountId)?.get(currency)?.get(underlying);
  }

  slot(accountId: string, underlying: string, currency: string): ChainSlot {
    const byUnderlying = innerMap(innerMap(this.slots, accountId), currency);
    let slot = byUnderlying.get(underlying);
    if (!slot) {
      slot = { accountId, underlying, currency, openPositions: 0, members: new Set(), current: null, last: null };
      byUnderlying.set(underlying, slot);
    }
    return slot;
  }

  /** A slot whose positions changed today: it is checked for flatness at the close. */
  touch(slot: ChainSlot): void {
    this.touchedSlots.add(slot);
  }

  /** The chain that P&L of this slot belongs to now, opening one if the slot is flat. */
  active(slot: ChainSlot, day: string): ChainRecord {
    this.touchedSlots.add(slot);
    if (slot.current) return slot.current;
    const chain: ChainRecord = {
      id: `${slot.accountId}:${slot.currency}:${slot.underlying}:${day}`,
      accountId: slot.accountId,
      underlying: slot.underlying,
      currency: slot.currency,
      openDay: day,
      closeDay: null,
      realizedMinor: 0,
      dividendsMinor: 0,
      feesMinor: 0,
      commissionsMinor: 0,
      plMinor: 0,
      premiumsMinor: 0,
      netOptionCashMinor: 0,
      rolls: 0,
      assignments: 0,
      collateralPeakMinor: 0,
      collateralBasis: { rule: 'cash_secured' },
      legs: [],
      optionLegs: 0,
      steps: [],
    };
    this.indexes.set(chain, this.chains.length);
    this.chains.push(chain);
    slot.current = chain;
    slot.last = chain;
    return chain;
  }

  /** Dividends and fees do not open a chain: they go to the open one, else to the last one (paid after the shares left). */
  attach(slot: ChainSlot): ChainRecord | null {
    return slot.current ?? slot.last;
  }

  /** At the close of each trading day: slots that are flat end their chain (so an assignment's stock leg, a same-day re-open or a date-only export's row order cannot split a chain). */
  endOfDay(day: string): void {
    for (const slot of this.touchedSlots) {
      // Collateral is measured at the close, like flatness: an assignment's stock leg and its option leg, processed
      // one after the other, never count twice.
      const chain = slot.current;
      if (chain) {
        const { collateralMinor, basis } = this.measure(slot);
        if (basis.rule === 'reg_t') this.regTCloses += 1;
        if (collateralMinor > chain.collateralPeakMinor) {
          chain.collateralPeakMinor = collateralMinor;
          chain.collateralBasis = basis;
        }
        // The day's steps show the close's figure, the one the peak reads: mid-day, an assignment's option and stock
        // legs would count the put and the shares both (issue 18 saw 10,005 beside a peak of 5,005).
        for (let i = chain.steps.length - 1; i >= 0; i -= 1) {
          const step = chain.steps[i];
          if (step === undefined || step.day !== day) break;
          step.collateralMinor = collateralMinor;
        }
      }
      if (slot.openPositions === 0 && slot.current) {
        slot.current.closeDay = day;
        slot.current = null;
      }
    }
    this.touchedSlots.clear();
  }

  /** Chains opened so far. */
  get count(): number {
    return this.chains.length;
  }

  /** The chain at an index of the list (a checkpoint's live chain). */
  at(index: number): ChainRecord | undefined {
    return this.chains[index];
  }

  /** The slots that have a chain (open or last closed), with those chains' indexes: what a checkpoint keeps of them. */
  slotStates(): SlotState[] {
    const states: SlotState[] = [];
    const indexOf = (chain: ChainRecord | null) => (chain === null ? -1 : (this.indexes.get(chain) ?? -1));
    for (const byCurrency of this.slots.values()) {
      for (const byUnderlying of byCurrency.values()) {
        for (const slot of byUnderlying.values()) {
          if (slot.current !== null || slot.last !== null) {
            states.push({ accountId: slot.accountId, underlying: slot.underlying, currency: slot.currency, current: indexOf(slot.current), last: indexOf(slot.last) });
          }
        }
      }
    }
    return states;
  }

  /** Starts from a checkpoint: the chain list so far (live chains as copies) and the slots pointing into it. */
  restore(chains: ChainRecord[], slots: readonly SlotState[]): void {
    this.chains = chains;
    this.indexes.clear();
    chains.forEach((chain, index) => this.indexes.set(chain, index));
    for (const state of slots) {
      const slot = this.slot(state.accountId, state.underlying, state.currency);
      slot.current = chains[state.current] ?? null;
      slot.last = chains[state.last] ?? null;
    }
  }

  /** Every chain in the order it opened, with its P&L. */
  finish(): ChainRecord[] {
    for (const chain of this.chains) chain.plMinor = chain.realizedMinor + chain.dividendsMinor - chain.feesMinor;
    return this.chains;
  }
}

/**
 * A campaign is a chain with an option leg (docs/journal.md §Campaigns): shares bought and sold alone (a $25
 * fractional buy every week) make a chain, but no campaign; they stay positions.
 */
export function isCampaign(chain: ChainRecord): boolean {
  return chain.optionLegs > 0;
}

/** What a chain slot holds now: long shares and their cost, and the notional of its open short puts (collateral). */
export function slotHoldings(slot: ChainSlot): { sharesHeld: number; shareCostMinor: number; shortPutNotionalMinor: number } {
  let sharesHeld = 0;
  let shareCostMinor = 0;
  let shortPutNotionalMinor = 0;
  for (const pos of slot.members) {
    if (pos.qty <= 0) continue;
    if (!pos.isOption) {
      if (pos.side < 0) continue;
      sharesHeld += pos.qty;
      shareCostMinor += pos.openCostMinor;
    } else if (pos.side < 0 && pos.right === 'P' && pos.strike !== null) {
      shortPutNotionalMinor += Math.round(pos.strike * MINOR_PER_UNIT * pos.multiplier * pos.qty);
    }
  }
  return { sharesHeld, shareCostMinor, shortPutNotionalMinor };
}
