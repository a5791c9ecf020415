/**
 * The journal's records, on one low floor: the shapes the ledger's parts hand each other (lots and positions, campaign
 * slots and records, collateral bases, deliverables, the ledger's warnings). Each part imports them from here and
 * re-exports its own; none imports another part for a type, so the parts stand in a line with no loop
 * (docs/architecture.md §Layout). Types and one constant only: no behaviour lives here.
 */
import type { AccountId, Ticker } from '../ids';
import type { PositionInstrument, TransactionType } from './model';

/** Quantities below this are zero (fractional shares leave float residues after subtraction). */
export const QTY_EPSILON = 1e-9;

export interface OpenPosition extends PositionInstrument {
  /** The campaign the position belongs to. */
  campaignId: string | null;
  /** Signed: + long, − short. */
  quantity: number;
  /** Gross entry value of the open lots (unsigned) and their unrealized entry costs. */
  entryGrossMinor: number;
  entryCostsMinor: number;
  openedDay: string;
  /** Its part of its campaign's collateral now (collateral.ts slotCollateral); set by the ledger. */
  collateralMinor?: number;
  /** An option a corporate action adjusted: what it delivers, and the root a chain lists it under (corporate-actions.ts). */
  deliverable?: Deliverable;
}

export interface Lot {
  qty: number;
  grossMinor: number;
  costsMinor: number;
  openDay: string;
}

export interface Position extends PositionInstrument {
  /** +1 long, −1 short, 0 flat. */
  side: number;
  qty: number;
  lots: Lot[];
  head: number;
  /** Σ gross + costs of the open lots (kept as they change: the campaigns read it after every row). */
  openCostMinor: number;
  slot: CampaignSlot;
}

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
  accountId: AccountId;
  underlying: Ticker;
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
  accountId: AccountId;
  underlying: Ticker;
  currency: string;
  /**
   * Its key among the account's slots of its currency: the underlying, or for a campaign that takes no later trade
   * (its expiry unknown: CampaignBook.strandExpired) the underlying, NUL and that campaign's opening day.
   */
  key: string;
  openPositions: number;
  /** The open positions of the slot (options and shares). */
  members: Set<Position>;
  current: CampaignRecord | null;
  last: CampaignRecord | null;
  /** The campaign that last held long shares at a close (a dividend's campaign when none holds them on its payment day). */
  holder: CampaignRecord | null;
  /** The day the holder's shares were gone at a close; null while it holds them. */
  holderLeftDay: string | null;
}

/** A slot as a checkpoint keeps it: its campaigns by their index in the ledger's campaign list (−1: none). */
export interface SlotState {
  accountId: AccountId;
  /** The slot's key (CampaignSlot.key: the underlying, or a campaign's own slot). */
  underlying: string;
  currency: string;
  current: number;
  last: number;
  holder: number;
  holderLeftDay: string | null;
}

/** What a collateral figure rests on: no naked call (shares, spreads, cash-secured puts, long options), or Reg T at a snapshot's spot or, without one, the strike. */
export type CollateralBasis = { rule: 'cash_secured' } | { rule: 'reg_t'; spot: number | null; quoteTime: string | null };

export interface SlotCollateral {
  collateralMinor: number;
  basis: CollateralBasis;
  /** Each open position's part (Positions shows it), when asked for. */
  byPosition: Map<Position, number> | null;
}

/** What an adjusted contract delivers on exercise or assignment, per contract. */
export interface Deliverable {
  /** The root it trades under (`DKNG1`): a chain marks it only where it lists that root. */
  root: string;
  /** Shares per contract, by symbol; null when a file named the adjusted contract without its terms. */
  shares: Array<{ symbol: string; quantity: number }> | null;
  /** Cash per contract, minor units. */
  cashMinor: number;
}

export interface LedgerWarnings {
  /** Rows that removed more than was open: closing fills, sales of shares, settlements (docs/journal.md §Unmatched closes). */
  unmatchedCloses: number;
  /** EXPIRATION / ASSIGNMENT / EXERCISE with no (or not enough) open option lot (also counted in unmatchedCloses when they name a quantity). */
  unmatchedSettlements: number;
  /** BUY_TO_OPEN / SELL_TO_OPEN / SELL_SHORT that met an opposite position in the same instrument (netted FIFO). */
  openedAgainstOpposite: number;
  /** SPLIT / SYMBOL_CHANGE rows of a file that found nothing open to adjust, or a SYMBOL_CHANGE without previousSymbol. */
  corporateActionsWithoutLots: number;
}

/** One row of a trade (trades.ts), or the part of a row that belongs to it. */
export interface TradeLeg {
  txId: string;
  type: TransactionType;
  symbol: string;
  isOption: boolean;
  tradeDate: string;
  day: string;
  /** `entry`: the first structure; `open`: a later opening (a roll's new leg, shares delivered, a call sold against them); `close`: a close, expiration or assignment. */
  role: 'entry' | 'open' | 'close';
  /** The units of the row that belong to this trade (a row can close lots of two trades). */
  quantity: number;
  /** Realized P&L booked on these units, net of both legs' costs; null for openings and for units opened before history. */
  realizedMinor: number | null;
  /**
   * The cash of these units as the ledger booked it (+ received, − paid, costs included): the row's value and costs,
   * prorated when the row is shared with another trade. A closed trade's legs add up to its P&L.
   */
  cashMinor: number;
  /** The costs (commission and fees) within `cashMinor`. */
  costsMinor: number;
  /** Which structure of the trade it belongs to: 0 the first, n the n-th rolled into it or sold against its shares (in the order they opened). */
  roll: number;
}
