/**
 * Campaigns: per (account, underlying, currency), from flat to flat counting options and shares.
 * Rolls, assigned shares and covered calls stay inside one campaign; a slot that is flat at the close of a
 * trading day ends its campaign. Conventions: docs/journal.md §Campaigns: flat to flat.
 */
import { storedTicker, type AccountId, type Ticker } from '../ids';
import { addDays } from '../calendar';
import { innerMap } from '../maps';
import { MINOR_PER_UNIT } from '../money';
import type { SlotSink } from './lots';
import type { CampaignRecord, CampaignSlot, SlotCollateral, SlotState } from './records';

export type { CampaignRecord, CampaignSlot, CampaignStep, SlotState } from './records';

/**
 * Calendar days from an ex-date to its payment taken for granted: a dividend paid while no campaign holds shares goes
 * to the campaign whose shares left at most this long before (it held them on the ex-date); past it, to the account.
 * US ex-dates come one to five weeks before the payment; 60 days leaves room for the slow payers (ADRs, some funds).
 */
export const DIVIDEND_EX_WINDOW_DAYS = 60;

/** The underlying of a slot's key: the key itself, or its part before the NUL of a campaign's own slot. */
function underlyingOfKey(key: string): Ticker {
  const nul = key.indexOf('\u0000');
  return storedTicker(nul < 0 ? key : key.slice(0, nul));
}

function holdsShares(slot: CampaignSlot): boolean {
  for (const pos of slot.members) if (!pos.isOption && pos.side > 0 && pos.qty > 0) return true;
  return false;
}

export class CampaignBook implements SlotSink {
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

  find(accountId: AccountId, underlying: string, currency: string): CampaignSlot | undefined {
    return this.slots.get(accountId)?.get(currency)?.get(underlying);
  }

  /** The slot of a key (an underlying, or a campaign's own slot: CampaignSlot.key), made on first use. */
  slot(accountId: AccountId, key: string, currency: string): CampaignSlot {
    const byKey = innerMap(innerMap(this.slots, accountId), currency);
    let slot = byKey.get(key);
    if (!slot) {
      slot = { accountId, underlying: underlyingOfKey(key), currency, key, openPositions: 0, members: new Set(), current: null, last: null, holder: null, holderLeftDay: null };
      byKey.set(key, slot);
    }
    return slot;
  }

  /**
   * Before an opening on `day` (DESIGN §5, "Expiry"): a campaign whose open positions are all options past their
   * expiration day, with no row settling them (their expiry unknown), takes no later trade. Its positions move with it to
   * a slot of its own, where a settlement row dated later still books on it and closes it when they are flat; the
   * underlying's slot starts afresh, so the opening starts a new campaign (a 2026 put never joins a 2022 campaign).
   */
  strandExpired(slot: CampaignSlot, day: string): void {
    const campaign = slot.current;
    if (campaign === null || slot.members.size === 0 || slot.key !== slot.underlying) return;
    for (const pos of slot.members) if (!pos.isOption || pos.expiration === null || pos.expiration >= day) return;
    const own = this.slot(slot.accountId, `${slot.underlying}\u0000${campaign.openDay}`, slot.currency);
    own.current = campaign;
    own.last = campaign;
    for (const pos of slot.members) {
      pos.slot = own;
      own.members.add(pos);
    }
    own.openPositions += slot.members.size;
    slot.members.clear();
    slot.openPositions = 0;
    slot.current = null;
  }

  /**
   * The campaign a dividend of this slot belongs to (DESIGN §5): the one holding long shares now (on the payment day,
   * the date files give), else the last one that held them, when they left at most DIVIDEND_EX_WINDOW_DAYS before `day`
   * (it held them on the ex-date); else none: an account-level dividend. Never a campaign without shares.
   */
  dividendCampaign(slot: CampaignSlot, day: string): CampaignRecord | null {
    if (slot.current !== null && holdsShares(slot)) return slot.current;
    const holder = slot.holder;
    if (holder === null) return null;
    return slot.holderLeftDay === null || addDays(slot.holderLeftDay, DIVIDEND_EX_WINDOW_DAYS) >= day ? holder : null;
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

  /** Fees do not open a campaign: they go to the open one, else to the last one (dividends: dividendCampaign). */
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
      // Who holds shares at the close: a dividend paid later with none held goes to the last holder (dividendCampaign).
      if (campaign && holdsShares(slot)) {
        slot.holder = campaign;
        slot.holderLeftDay = null;
      } else if (slot.holder !== null && slot.holderLeftDay === null) slot.holderLeftDay = day;
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

  /** The slots that have a campaign (open, last closed, or last to hold shares), with those campaigns' indexes: what a checkpoint keeps of them. */
  slotStates(): SlotState[] {
    const states: SlotState[] = [];
    const indexOf = (campaign: CampaignRecord | null) => (campaign === null ? -1 : (this.indexes.get(campaign) ?? -1));
    for (const byCurrency of this.slots.values()) {
      for (const byUnderlying of byCurrency.values()) {
        for (const slot of byUnderlying.values()) {
          if (slot.current !== null || slot.last !== null || slot.holder !== null) {
            states.push({ accountId: slot.accountId, underlying: slot.key, currency: slot.currency, current: indexOf(slot.current), last: indexOf(slot.last), holder: indexOf(slot.holder), holderLeftDay: slot.holderLeftDay });
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
      slot.holder = campaigns[state.holder] ?? null;
      slot.holderLeftDay = state.holderLeftDay;
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
