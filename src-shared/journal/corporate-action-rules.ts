/**
 * What a corporate action is and what it does to an option contract (corporate-actions.ts): its terms as a row carries
 * them, the keys that make a file's action and the same one entered by hand one action, the OCC's adjustment of a
 * contract and its deliverable; and the book (ActionBook) the walk changes, as the ledger's and the trade walk's lots give it.
 */
import { storedTicker, type AccountId, type Ticker } from '../ids';
import type { CorporateActionOutcome, CorporateActionType } from './constants';
import type { Deliverable } from './records';
import { occSymbol, parseOccSymbol, type CorporateActionTerms, type PositionInstrument, type Transaction } from './model';

/** A lot as the actions read and change it (lots.ts Lot, trade-lots.ts TaggedLot). */
export interface ActionLot {
  qty: number;
  grossMinor: number;
  costsMinor: number;
  openDay: string;
}

/** What a position is, as the actions need it. */
export type ActionInstrument = Pick<PositionInstrument, 'symbol' | 'underlying' | 'isOption' | 'expiration' | 'strike' | 'right' | 'multiplier'>;

/** A position of a book: its instrument, account and currency, side (+1 long, −1 short) and open lots from `head`. */
export interface ActionPosition<L extends ActionLot> extends ActionInstrument {
  accountId: AccountId;
  currency: string;
  side: number;
  qty: number;
  lots: L[];
  head: number;
}

/** What the ledger and the trade walk each give the walk of an action: their own lots, P&L and campaigns. */
export interface ActionBook<L extends ActionLot, P extends ActionPosition<L>> {
  /** The open positions of the account, every currency: the shares of `symbol`, and the options whose underlying it is. */
  heldOf(accountId: AccountId, symbol: string): P[];
  find(accountId: AccountId, currency: string, symbol: string): P | undefined;
  /** The position of an instrument in the account and currency (flat when new). */
  positionOf(accountId: AccountId, currency: string, instrument: ActionInstrument): P;
  /** Every open lot × factor, basis kept (0: the position is gone). */
  scale(pos: P, factor: number): void;
  /** The open lots of `from` continue in `to`, merged by opening day; false when `to` is open on the other side. */
  move(from: P, to: P): boolean;
  /** Closes `qty` FIFO at `exitGrossMinor` (no costs): a fraction or a cash merger paid in cash. */
  sell(pos: P, qty: number, exitGrossMinor: number): void;
  /** Takes basis out of a lot and realizes `pnlMinor` on it (a merger's cash part; a spin-off moves basis at 0). */
  takeBasis(pos: P, lot: L, grossMinor: number, costsMinor: number, pnlMinor: number): void;
  /** A new long lot opened on `day`; `from` is the lot it comes from (a spin-off's parent lot), if any. */
  addLot(pos: P, day: string, qty: number, grossMinor: number, costsMinor: number, from: L | null): void;
  /** P&L with no basis (the cash paid for a stock dividend's fraction). */
  realize(pos: P, pnlMinor: number): void;
  /** Before positions move from one underlying to another: the story of `from` goes on under `to` (the ledger's campaigns). */
  rename(accountId: AccountId, currency: string, from: string, to: Ticker): void;
}

/** What an action did, and where its campaign step belongs. */
export interface ActionResult<P> {
  outcome: CorporateActionOutcome;
  /** A position it left open (its campaign takes the step), or null. */
  position: P | null;
  /** Cash it paid (fractions, a merger's cash), minor units. */
  cashMinor: number;
}

export const MOVES: ReadonlySet<CorporateActionType> = new Set<CorporateActionType>(['symbol_change', 'merger']);

/** The action a SPLIT / SYMBOL_CHANGE row of shares stands for: its terms, or what the row always said without them. */
export function actionOf(t: Transaction): CorporateActionTerms | null {
  if ((t.type !== 'SPLIT' && t.type !== 'SYMBOL_CHANGE') || t.isOption) return null;
  if (t.corporateAction !== undefined) return t.corporateAction;
  const none = { ratio: null, cashPerShareMinor: null, costFraction: null };
  if (t.type === 'SPLIT') {
    const renamed = t.previousSymbol !== undefined && t.previousSymbol !== t.symbol;
    // The signed change of the position (a row of the file: the account's own shares).
    return { type: 'split', symbol: renamed ? (t.previousSymbol ?? t.symbol) : t.symbol, newSymbol: renamed ? t.symbol : null, ...none, quantity: t.quantity };
  }
  return { type: 'symbol_change', symbol: t.previousSymbol ?? '', newSymbol: t.symbol, ...none, quantity: null };
}

/**
 * The key under which one action applies once per account and day: the kind (a symbol change and a merger are one
 * kind: both move the old shares away), the symbol, and for a spin-off the new symbol (a file may name only that).
 */
export function actionKeys(accountId: string, day: string, terms: CorporateActionTerms): string[] {
  const kind = MOVES.has(terms.type) ? 'move' : terms.type;
  const head = `${accountId}\u0000${day}\u0000${kind}\u0000`;
  const keys = [`${head}${terms.symbol}`];
  if (terms.type === 'spinoff' && terms.newSymbol !== null) keys.push(`${head}>${terms.newSymbol}`);
  return keys;
}

/** A ratio that is a whole number of at least 2 (an OCC forward split: more contracts at a lower strike). */
function wholeRatio(ratio: number): number | null {
  const whole = Math.round(ratio);
  return whole >= 2 && Math.abs(ratio - whole) < 1e-9 ? whole : null;
}

/** Strikes as the OCC writes them: three decimals. */
const strikeOf = (value: number) => Math.round(value * 1000) / 1000;

/** The standard deliverable of a contract on `underlying`: `multiplier` shares, no cash. */
function standardOf(underlying: string, multiplier: number): Deliverable {
  return { root: underlying, shares: [{ symbol: underlying, quantity: multiplier }], cashMinor: 0 };
}

function isStandard(d: Deliverable, underlying: string, multiplier: number): boolean {
  const only = d.shares?.[0];
  return d.cashMinor === 0 && d.shares?.length === 1 && only !== undefined && only.symbol === underlying && Math.abs(only.quantity - multiplier) < 1e-9;
}

/** An option after an action: its instrument, the factor on its contracts, and its deliverable (null: standard). */
export interface AdjustedContract {
  instrument: ActionInstrument;
  contractsFactor: number;
  deliverable: Deliverable | null;
}

/**
 * The OCC's adjustment of one contract (its current deliverable `current`, null when standard) for an action; `rootFor`
 * gives the adjusted root of an underlying for this action (one root per event, as the OCC gives). Null: the contract
 * is not adjusted (free shares; a split or dividend without a ratio).
 */
export function adjustContract(contract: ActionInstrument, current: Deliverable | null, terms: CorporateActionTerms, rootFor: (underlying: string) => string): AdjustedContract | null {
  const { expiration, strike, right } = contract;
  if (expiration === null || strike === null || right === null) return null;
  const base = current ?? standardOf(contract.underlying, contract.multiplier);
  // The terms name tickers as stored text: the instrument's underlying is a Ticker.
  const renamedTo = terms.newSymbol !== null && (MOVES.has(terms.type) || terms.type === 'split') ? storedTicker(terms.newSymbol) : null;
  let underlying = renamedTo ?? contract.underlying;
  let shares = base.shares;
  let cashMinor = base.cashMinor;
  const scaleOf = (symbol: string, factor: number, to: string) => shares?.map((s) => (s.symbol === symbol ? { symbol: to, quantity: s.quantity * factor } : s)) ?? null;
  switch (terms.type) {
    case 'free_shares':
      return null;
    case 'split': {
      if (terms.ratio === null || !(terms.ratio > 0)) return null;
      const whole = current === null ? wholeRatio(terms.ratio) : null;
      if (whole !== null) {
        const instrument = { ...contract, underlying, strike: strikeOf(strike / whole), symbol: occSymbol(underlying, expiration, right, strikeOf(strike / whole)) };
        return { instrument, contractsFactor: whole, deliverable: null };
      }
      shares = scaleOf(terms.symbol, terms.ratio, underlying);
      break;
    }
    case 'symbol_change':
      shares = scaleOf(terms.symbol, terms.ratio ?? 1, underlying);
      break;
    case 'merger': {
      const ratio = terms.ratio ?? (renamedTo !== null ? 1 : 0);
      const perShareCash = terms.cashPerShareMinor ?? 0;
      const held = shares?.find((s) => s.symbol === terms.symbol)?.quantity ?? 0;
      if (ratio <= 0 || renamedTo === null) {
        underlying = contract.underlying;
        shares = shares?.filter((s) => s.symbol !== terms.symbol) ?? null;
      } else {
        shares = scaleOf(terms.symbol, ratio, renamedTo);
      }
      cashMinor += Math.round(held * perShareCash);
      break;
    }
    case 'stock_dividend':
      if (terms.ratio === null || !(terms.ratio > 0)) return null;
      shares = scaleOf(terms.symbol, 1 + terms.ratio, terms.symbol);
      break;
    case 'spinoff': {
      if (terms.ratio === null || !(terms.ratio > 0) || terms.newSymbol === null) return null;
      const parent = shares?.find((s) => s.symbol === terms.symbol)?.quantity ?? 0;
      shares = shares === null ? null : [...shares, { symbol: terms.newSymbol, quantity: parent * terms.ratio }];
      break;
    }
  }
  const next: Deliverable = { root: base.root, shares, cashMinor };
  const standard = isStandard(next, underlying, contract.multiplier);
  const root = standard ? underlying : rootFor(underlying);
  const instrument = { ...contract, underlying, symbol: occSymbol(root, expiration, right, strike) };
  return { instrument, contractsFactor: 1, deliverable: standard ? null : { ...next, root } };
}

/**
 * What a contract delivers is worth at `spot` of its underlying, per contract (minor units aside: currency units), when
 * the underlying's shares and cash are all it delivers; null otherwise (another company's shares, terms unknown).
 */
export function deliverableValue(deliverable: Deliverable, underlying: string, spot: number): number | null {
  if (deliverable.shares === null || deliverable.shares.some((s) => s.symbol !== underlying)) return null;
  return deliverable.shares.reduce((sum, s) => sum + s.quantity * spot, 0) + deliverable.cashMinor / 10_000;
}

/** The root of an option symbol, or null. */
export function rootOf(symbol: string): string | null {
  return parseOccSymbol(symbol)?.root ?? null;
}
