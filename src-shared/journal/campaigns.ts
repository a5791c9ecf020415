/**
 * Campaigns: per (account, underlying, currency), from flat to flat counting options and shares.
 * Rolls, assigned shares and covered calls stay inside one campaign; a slot that is flat at the close of a
 * trading day ends its campaign. Conventions: docs/journal.md §Campaigns: flat to flat.
 */
import { innerMap } from '../maps';
import { MINOR_PER_UNIT } from '../money';
import type { CollateralBasis, SlotCollateral } from './collateral';
import type { Position } from './lots';
import type { TransactionType } from './model';


/**
 * One transaction of a campaign (a leg: a fill, a settlement, a dividend, a fee) with the campaign's state after it:
 * its timeline (docs/journal.md §Campaigns).
 */
export interface CampaignStep {
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
  /** After the row: the campaign's net option cash so far. */
  netOptionCashMinor: number;
  /** The campaign's collateral at the close of the row's day (collateral.ts): the figure the peak and the card read. */
  collateralMinor: number;
}

/** From flat to flat per (account, underlying, currency). */
export interface CampaignRecord {
  /** Stable for the campaign's slot and opening day: `accountId:currency:underlying:openDay`. */
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
  /** The largest collateral at the close of a trading day over the campaign's life (see CampaignStep.collateralMinor). */
  collateralPeakMinor: number;
  /** The rule (and spot) of the peak's figure. */
  collateralBasis: CollateralBasis;
  /** Its transaction ids, in processing order. */
  legs: string[];
  /** How many of them are option rows: a record without any is not listed as a campaign (isCampaign). */
  optionLegs: number;
  /** The timeline (one step per leg) when the ledger was built with `timeline`, else empty. */
  steps: CampaignStep[];
}

/** One (account, underlying, currency): its open positions and its campaigns. */
export interface CampaignSlot {
  accountId: string;
  underlying: string;
  currency: string;
  openPositions: number;
  /** The open positions of the slot (options and shares). */
  members: Set<Position>;
  current: CampaignRecord | null;
  last: CampaignRecord | null;
}

/** A slot as a checkpoint keeps it: its campaigns by their index in the ledger's campaign list (−1: none). */
export interface SlotState {
  accountId: string;
  underlying: string;
  currency: string;
  current: number;
  last: number;
}

export class CampaignBook {
  /** Closes at which a campaign's collateral was Reg T (naked calls): the ledger is worth building with the snapshots' spots. */
  regTCloses = 0;

  /** The slot's collateral now (collateral.ts, given by the ledger: it reads the snapshots' spots at entry). */
  constructor(private readonly measure: (slot: CampaignSlot) => SlotCollateral) {}

  /** account → currency → underlying. */
  private readonly slots = new Map<string, Map<string, Map<string, CampaignSlot>>>();
  private campaigns: CampaignRecord[] = [];
  /** Each campaign's index in `campaigns` (checkpoints name campaigns by it). */
  private readonly indexes = new Map<CampaignRecord, number>();
  private readonly touchedSlots = new Set<CampaignSlot>();

  find(accountId: string, underlying: string, currency: string): CampaignSlot | undefined {
    return this.slots.get(accountId)?.get(currency)?.get(underlying);
  }

  slot(accountId: string, underlying: string, currency: string): CampaignSlot {
    const byUnderlying = innerMap(innerMap(this.slots, accountId), currency);
    let slot = byUnderlying.get(underlying);
    if (!slot) {
      slot = { accountId, underlying, currency, openPositions: 0, members: new Set(), current: null, last: null };
      byUnderlying.set(underlying, slot);
    }
    return slot;
  }

  /** A slot whose positions changed today: it is checked for flatness at the close. */
  touch(slot: CampaignSlot): void {
    this.touchedSlots.add(slot);
  }

  /** The campaign that P&L of this slot belongs to now, opening one if the slot is flat. */
  active(slot: CampaignSlot, day: string): CampaignRecord {
    this.touchedSlots.add(slot);
    if (slot.current) return slot.current;
    const campaign: CampaignRecord = {
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
    this.indexes.set(campaign, this.campaigns.length);
    this.campaigns.push(campaign);
    slot.current = campaign;
    slot.last = campaign;
    return campaign;
  }

  /** Dividends and fees do not open a campaign: they go to the open one, else to the last one (paid after the shares left). */
  attach(slot: CampaignSlot): CampaignRecord | null {
    return slot.current ?? slot.last;
  }

  /** At the close of each trading day: slots that are flat end their campaign (so an assignment's stock leg, a same-day re-open or a date-only export's row order cannot split a campaign). */
  endOfDay(day: string): void {
    for (const slot of this.touchedSlots) {
      // Collateral is measured at the close, like flatness: an assignment's stock leg and its option leg, processed
      // one after the other, never count twice.
      const campaign = slot.current;
      if (campaign) {
        const { collateralMinor, basis } = this.measure(slot);
        if (basis.rule === 'reg_t') this.regTCloses += 1;
        if (collateralMinor > campaign.collateralPeakMinor) {
          campaign.collateralPeakMinor = collateralMinor;
          campaign.collateralBasis = basis;
        }
        // The day's steps show the close's figure, the one the peak reads: mid-day, an assignment's option and stock
        // legs would count the put and the shares both (issue 18 saw 10,005 beside a peak of 5,005).
        for (let i = campaign.steps.length - 1; i >= 0; i -= 1) {
          const step = campaign.steps[i];
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

  /** Campaigns opened so far. */
  get count(): number {
    return this.campaigns.length;
  }

  /** The campaign at an index of the list (a checkpoint's live campaign). */
  at(index: number): CampaignRecord | undefined {
    return this.campaigns[index];
  }

  /** The slots that have a campaign (open or last closed), with those campaigns' indexes: what a checkpoint keeps of them. */
  slotStates(): SlotState[] {
    const states: SlotState[] = [];
    const indexOf = (campaign: CampaignRecord | null) => (campaign === null ? -1 : (this.indexes.get(campaign) ?? -1));
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

  /** Starts from a checkpoint: the campaign list so far (live campaigns as copies) and the slots pointing into it. */
  restore(campaigns: CampaignRecord[], slots: readonly SlotState[]): void {
    this.campaigns = campaigns;
    this.indexes.clear();
    campaigns.forEach((campaign, index) => this.indexes.set(campaign, index));
    for (const state of slots) {
      const slot = this.slot(state.accountId, state.underlying, state.currency);
      slot.current = campaigns[state.current] ?? null;
      slot.last = campaigns[state.last] ?? null;
    }
  }

  /** Every campaign in the order it opened, with its P&L. */
  finish(): CampaignRecord[] {
    for (const campaign of this.campaigns) campaign.plMinor = campaign.realizedMinor + campaign.dividendsMinor - campaign.feesMinor;
    return this.campaigns;
  }
}

/**
 * A campaign is listed only with an option leg (docs/journal.md §Campaigns): shares bought and sold alone (a $25
 * fractional buy every week) make a record the summary counts, but no campaign to show; they stay positions.
 */
export function isCampaign(campaign: CampaignRecord): boolean {
  return campaign.optionLegs > 0;
}

/** What a campaign slot holds now: long shares and their cost, and the notional of its open short puts (collateral). */
export function slotHoldings(slot: CampaignSlot): { sharesHeld: number; shareCostMinor: number; shortPutNotionalMinor: number } {
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
