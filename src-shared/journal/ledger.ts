/**
 * The journal ledger (DESIGN §5): FIFO lots per account × instrument, realized P&L net of both legs'
 * costs, expirations, assignments, rolls, chains and per-day aggregates per currency. Built once when the
 * transactions change; the period and yearly queries (analytics.ts) only read its day buckets.
 * All money is integer minor units (src-shared/money.ts). Conventions: docs/journal.md.
 */
import { TRANSACTION_TYPES, type OptionRight, type Transaction, type TransactionType } from './model';

/** Quantities below this are zero (fractional shares leave float residues after subtraction). */
const QTY_EPSILON = 1e-9;

const TYPE_INDEX: Record<TransactionType, number> = Object.fromEntries(
  TRANSACTION_TYPES.map((type, index) => [type, index]),
) as Record<TransactionType, number>;

const TRADE_TYPES: ReadonlySet<TransactionType> = new Set<TransactionType>([
  'BUY_TO_OPEN',
  'SELL_TO_OPEN',
  'BUY_TO_CLOSE',
  'SELL_TO_CLOSE',
  'BUY',
  'SELL',
]);

/**
 * Order among rows of the same instant: opens before closes before settlements. Date-only exports give
 * every row of a day the same instant, and the id (a hash) would otherwise decide whether a day trade's
 * close comes before its open. FIFO makes the result the same either way when a lot already exists.
 */
function phaseOf(type: TransactionType): number {
  switch (type) {
    case 'SPLIT':
    case 'SYMBOL_CHANGE':
      return 0;
    case 'BUY_TO_OPEN':
    case 'SELL_TO_OPEN':
      return 1;
    case 'BUY':
    case 'SELL':
      return 2;
    case 'BUY_TO_CLOSE':
    case 'SELL_TO_CLOSE':
      return 3;
    case 'EXPIRATION':
    case 'ASSIGNMENT':
    case 'EXERCISE':
      return 4;
    default:
      return 5;
  }
}

// ---------------------------------------------------------------- public shapes

export interface SymbolAgg {
  optionsPLMinor: number;
  stockPLMinor: number;
  premiumsMinor: number;
  dividendsMinor: number;
  interestMinor: number;
  feesMinor: number;
  rolls: number;
  trades: number;
}

/** Everything that happened on one journal day in one currency. */
export interface DayAgg {
  day: string;
  optionsPLMinor: number;
  stockPLMinor: number;
  lockedInMinor: number;
  premiumsMinor: number;
  dividendsMinor: number;
  interestMinor: number;
  /** Standalone FEE rows, positive = cost. */
  feesMinor: number;
  rolls: number;
  rollCreditsMinor: number;
  trades: number;
  expiredOptions: number;
  expiredContracts: number;
  assignments: number;
  /** P&L events: closing fills, settlements, dividends, interest, standalone fees. */
  plEvents: number;
  /** Count per transaction type, indexed like TRANSACTION_TYPES. */
  typeCounts: number[];
  /** Keyed by underlying (the ticker for stock). Rows without an underlying are not in here. */
  symbols: Map<string, SymbolAgg>;
}

export interface CurrencyDays {
  currency: string;
  /** Sorted ascending; `aggs[i].day === days[i]`. */
  days: string[];
  aggs: DayAgg[];
}

/** From flat to flat per (account, underlying, currency). */
export interface ChainRecord {
  accountId: string;
  underlying: string;
  currency: string;
  openDay: string;
  /** Day it was flat again at the close of trading; null while open. */
  closeDay: string | null;
  realizedMinor: number;
  dividendsMinor: number;
  feesMinor: number;
  /** realized + dividends − standalone fees. */
  plMinor: number;
}

export interface RollRecord {
  accountId: string;
  underlying: string;
  currency: string;
  day: string;
  right: OptionRight;
  direction: 'short' | 'long';
  quantity: number;
  closeSymbol: string;
  openSymbol: string;
  /** Gross sell-leg credit − gross buy-leg debit (for a short roll: open credit − close debit). */
  creditMinor: number;
  linkedBy: 'order' | 'day';
}

export interface OpenPosition {
  accountId: string;
  symbol: string;
  underlying: string;
  currency: string;
  isOption: boolean;
  /** Signed: + long, − short. */
  quantity: number;
  /** Gross entry value of the open lots (unsigned) and their unrealized entry costs. */
  entryGrossMinor: number;
  entryCostsMinor: number;
  openedDay: string;
}

export interface LedgerWarnings {
  /** BUY_TO_CLOSE / SELL_TO_CLOSE with no (or not enough) open lot: realized with zero basis. */
  unmatchedCloses: number;
  /** EXPIRATION / ASSIGNMENT / EXERCISE with no (or not enough) open option lot. */
  unmatchedSettlements: number;
  /** BUY_TO_OPEN / SELL_TO_OPEN that met an opposite position in the same instrument (netted FIFO). */
  openedAgainstOpposite: number;
  /** SPLIT / SYMBOL_CHANGE that found no open lot to adjust, or a SYMBOL_CHANGE without previousSymbol. */
  corporateActionsWithoutLots: number;
}

export interface Ledger {
  reportingCurrency: string;
  /** Every currency with transactions, reporting currency first, then alphabetical. */
  currencies: string[];
  byCurrency: Map<string, CurrencyDays>;
  chains: ChainRecord[];
  rolls: RollRecord[];
  positions: OpenPosition[];
  warnings: LedgerWarnings;
  transactionCount: number;
}

export interface LedgerOptions {
  reportingCurrency: string;
}

// ---------------------------------------------------------------- internals

/**
 * The value of a fill as the broker booked it: the cash plus the costs of a sell, minus the cash less the
 * costs of a buy. The per-share price alone is rounded to 4 decimals and loses cents on a large fill (853.81
 * over 300 shares is 2.846033 a share); the booked value is exact, so a flat-to-flat chain's realized P&L
 * equals its cash to the cent. When a row's cash does not match its price (an importer without amounts, a
 * hand-written row), the price × quantity × multiplier value is used.
 */
function tradeValueMinor(t: Transaction, dir: number, qty: number, costsMinor: number): number {
  const fromPrice = Math.round(Math.abs(t.priceMinor) * qty * t.multiplier);
  const fromCash = dir < 0 ? t.amountMinor + costsMinor : -t.amountMinor - costsMinor;
  // The price's own rounding (half a minor unit per share), plus one cent: brokers round the net Total on
  // its own (tastytrade books −247.53 for a −247.52 fill with 0.02 of fees), and the cash is what reconciles.
  const tolerance = Math.ceil(0.5 * qty * t.multiplier) + 100;
  return fromCash > 0 && Math.abs(fromCash - fromPrice) <= tolerance ? fromCash : fromPrice;
}

interface Lot {
  qty: number;
  grossMinor: number;
  costsMinor: number;
  openDay: string;
}

interface ChainSlot {
  accountId: string;
  underlying: string;
  currency: string;
  openPositions: number;
  current: ChainRecord | null;
  last: ChainRecord | null;
}

interface Position {
  accountId: string;
  symbol: string;
  underlying: string;
  currency: string;
  isOption: boolean;
  right: OptionRight | null;
  /** +1 long, −1 short, 0 flat. */
  side: number;
  qty: number;
  lots: Lot[];
  head: number;
  slot: ChainSlot;
}

/** One option fill's part in a possible roll. */
interface RollLeg {
  accountId: string;
  currency: string;
  underlying: string;
  right: OptionRight;
  symbol: string;
  orderId: string | null;
  day: string;
  /** 'close' of a short or long position, or 'open' of one. */
  kind: 'close' | 'open';
  direction: 'short' | 'long';
  /** +1 sell (credit), −1 buy (debit). */
  cashSign: number;
  qty: number;
  grossMinor: number;
  used: boolean;
}

function rollLeg(
  t: Transaction,
  underlying: string,
  right: OptionRight,
  kind: 'close' | 'open',
  direction: 'short' | 'long',
  cashSign: number,
  qty: number,
  grossMinor: number,
): RollLeg {
  return { accountId: t.accountId, currency: t.currency, underlying, right, symbol: t.symbol, orderId: t.orderId, day: t.tradeDay, kind, direction, cashSign, qty, grossMinor, used: false };
}

/** Takes `part` out of a (qty, amount) pool so that the pieces always add up to the whole exactly. */
function prorate(amountMinor: number, part: number, whole: number): number {
  if (part >= whole - QTY_EPSILON) return amountMinor;
  return Math.round((amountMinor * part) / whole);
}

function emptySymbolAgg(): SymbolAgg {
  return { optionsPLMinor: 0, stockPLMinor: 0, premiumsMinor: 0, dividendsMinor: 0, interestMinor: 0, feesMinor: 0, rolls: 0, trades: 0 };
}

function emptyDayAgg(day: string): DayAgg {
  return {
    day,
    optionsPLMinor: 0,
    stockPLMinor: 0,
    lockedInMinor: 0,
    premiumsMinor: 0,
    dividendsMinor: 0,
    interestMinor: 0,
    feesMinor: 0,
    rolls: 0,
    rollCreditsMinor: 0,
    trades: 0,
    expiredOptions: 0,
    expiredContracts: 0,
    assignments: 0,
    plEvents: 0,
    typeCounts: new Array<number>(TRANSACTION_TYPES.length).fill(0),
    symbols: new Map(),
  };
}

function inner<V>(outer: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let map = outer.get(key);
  if (!map) {
    map = new Map();
    outer.set(key, map);
  }
  return map;
}

function digits(text: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i += 1) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * Epoch ms of an ISO instant. The usual `YYYY-MM-DDTHH:MM:SS[.fff]Z` is read by hand: Date.parse (and a
 * regex's match arrays) dominated a 100k-row build. Anything else goes through Date.parse.
 */
function instantMs(tradeDate: string, tradeDay: string): number {
  const n = tradeDate.length;
  if (n >= 20 && tradeDate.charCodeAt(n - 1) === 90 /* Z */ && tradeDate.charCodeAt(10) === 84 /* T */) {
    const year = digits(tradeDate, 0, 4);
    const month = digits(tradeDate, 5, 2);
    const day = digits(tradeDate, 8, 2);
    const hour = digits(tradeDate, 11, 2);
    const minute = digits(tradeDate, 14, 2);
    const second = digits(tradeDate, 17, 2);
    let ms = 0;
    if (n > 20 && tradeDate.charCodeAt(19) === 46 /* . */) ms = digits(tradeDate.slice(20, 23).padEnd(3, '0'), 0, 3);
    else if (n !== 20) ms = -1;
    if (year >= 0 && month >= 0 && day >= 0 && hour >= 0 && minute >= 0 && second >= 0 && ms >= 0) {
      return Date.UTC(year, month - 1, day, hour, minute, second, ms);
    }
  }
  const ms = Date.parse(tradeDate);
  return Number.isNaN(ms) ? Date.parse(tradeDay) : ms;
}

class LedgerBuilder {
  private readonly buckets = new Map<string, Map<string, DayAgg>>();
  /** account → currency → symbol (nested: building string keys for 100k rows costs more than the lookups). */
  private readonly positions = new Map<string, Map<string, Map<string, Position>>>();
  /** account → currency → underlying. */
  private readonly slots = new Map<string, Map<string, Map<string, ChainSlot>>>();
  private readonly chains: ChainRecord[] = [];
  private readonly legs: RollLeg[] = [];
  private readonly touchedSlots = new Set<ChainSlot>();
  private currentDay: string | null = null;
  readonly warnings: LedgerWarnings = { unmatchedCloses: 0, unmatchedSettlements: 0, openedAgainstOpposite: 0, corporateActionsWithoutLots: 0 };

  constructor(private readonly reportingCurrency: string) {}

  // ------------------------------------------------------------ lookups

  private dayAgg(currency: string, day: string): DayAgg {
    let days = this.buckets.get(currency);
    if (!days) {
      days = new Map();
      this.buckets.set(currency, days);
    }
    let agg = days.get(day);
    if (!agg) {
      agg = emptyDayAgg(day);
      days.set(day, agg);
    }
    return agg;
  }

  private symbolAgg(agg: DayAgg, underlying: string): SymbolAgg | null {
    if (underlying === '') return null;
    let row = agg.symbols.get(underlying);
    if (!row) {
      row = emptySymbolAgg();
      agg.symbols.set(underlying, row);
    }
    return row;
  }

  private findSlot(accountId: string, underlying: string, currency: string): ChainSlot | undefined {
    return this.slots.get(accountId)?.get(currency)?.get(underlying);
  }

  private slot(accountId: string, underlying: string, currency: string): ChainSlot {
    const byUnderlying = inner(inner(this.slots, accountId), currency);
    let slot = byUnderlying.get(underlying);
    if (!slot) {
      slot = { accountId, underlying, currency, openPositions: 0, current: null, last: null };
      byUnderlying.set(underlying, slot);
    }
    return slot;
  }

  private findPosition(accountId: string, symbol: string, currency: string): Position | undefined {
    return this.positions.get(accountId)?.get(currency)?.get(symbol);
  }

  private *allPositions(): Generator<Position> {
    for (const byCurrency of this.positions.values()) {
      for (const bySymbol of byCurrency.values()) yield* bySymbol.values();
    }
  }

  private position(t: Transaction): Position {
    const bySymbol = inner(inner(this.positions, t.accountId), t.currency);
    let pos = bySymbol.get(t.symbol);
    if (!pos) {
      const underlying = t.underlying !== '' ? t.underlying : t.symbol;
      pos = {
        accountId: t.accountId,
        symbol: t.symbol,
        underlying,
        currency: t.currency,
        isOption: t.isOption,
        right: t.right,
        side: 0,
        qty: 0,
        lots: [],
        head: 0,
        slot: this.slot(t.accountId, underlying, t.currency),
      };
      bySymbol.set(t.symbol, pos);
    }
    return pos;
  }

  /** The chain that P&L of this slot belongs to now, opening one if the slot is flat. */
  private activeChain(slot: ChainSlot, day: string): ChainRecord {
    this.touchedSlots.add(slot);
    if (slot.current) return slot.current;
    const chain: ChainRecord = {
      accountId: slot.accountId,
      underlying: slot.underlying,
      currency: slot.currency,
      openDay: day,
      closeDay: null,
      realizedMinor: 0,
      dividendsMinor: 0,
      feesMinor: 0,
      plMinor: 0,
    };
    this.chains.push(chain);
    slot.current = chain;
    slot.last = chain;
    return chain;
  }

  /** Dividends and fees do not open a chain: they go to the open one, else to the last one (paid after the shares left). */
  private attachChain(slot: ChainSlot): ChainRecord | null {
    return slot.current ?? slot.last;
  }

  private setQty(pos: Position, qty: number): void {
    const wasOpen = pos.qty > QTY_EPSILON;
    pos.qty = qty < QTY_EPSILON ? 0 : qty;
    const isOpen = pos.qty > 0;
    if (!isOpen) {
      pos.side = 0;
      pos.lots = [];
      pos.head = 0;
    }
    if (wasOpen !== isOpen) pos.slot.openPositions += isOpen ? 1 : -1;
    this.touchedSlots.add(pos.slot);
  }

  /** At the close of each trading day: slots that are flat end their chain (so an assignment's stock leg, a same-day re-open or a date-only export's row order cannot split a chain). */
  private endOfDay(day: string): void {
    for (const slot of this.touchedSlots) {
      if (slot.openPositions === 0 && slot.current) {
        slot.current.closeDay = day;
        slot.current = null;
      }
    }
    this.touchedSlots.clear();
  }

  // ------------------------------------------------------------ booking

  private bookRealized(pos: Position, day: string, pnlMinor: number, shortLot: boolean): void {
    const agg = this.dayAgg(pos.currency, day);
    const sym = this.symbolAgg(agg, pos.underlying);
    agg.plEvents += 1;
    if (pos.isOption) {
      agg.optionsPLMinor += pnlMinor;
      if (sym) sym.optionsPLMinor += pnlMinor;
      if (shortLot) agg.lockedInMinor += pnlMinor;
    } else {
      agg.stockPLMinor += pnlMinor;
      if (sym) sym.stockPLMinor += pnlMinor;
    }
    this.activeChain(pos.slot, day).realizedMinor += pnlMinor;
  }

  /**
   * Closes up to `qty` of the position FIFO against an exit of `exitGrossMinor` (unsigned) and
   * `exitCostsMinor`; returns what is left of the exit (quantity, gross, costs).
   */
  private closeFifo(
    pos: Position,
    day: string,
    qty: number,
    exitGrossMinor: number,
    exitCostsMinor: number,
  ): { qty: number; grossMinor: number; costsMinor: number; closedQty: number } {
    let remQty = qty;
    let remGross = exitGrossMinor;
    let remCosts = exitCostsMinor;
    let closedQty = 0;
    const side = pos.side;
    while (remQty > QTY_EPSILON && pos.head < pos.lots.length) {
      const lot = pos.lots[pos.head];
      if (!lot) break;
      const take = Math.min(lot.qty, remQty);
      const entryGross = prorate(lot.grossMinor, take, lot.qty);
      const entryCosts = prorate(lot.costsMinor, take, lot.qty);
      const exitGross = prorate(remGross, take, remQty);
      const exitCosts = prorate(remCosts, take, remQty);
      const pnl = (side > 0 ? exitGross - entryGross : entryGross - exitGross) - entryCosts - exitCosts;
      this.bookRealized(pos, day, pnl, side < 0);
      lot.qty -= take;
      lot.grossMinor -= entryGross;
      lot.costsMinor -= entryCosts;
      remQty -= take;
      remGross -= exitGross;
      remCosts -= exitCosts;
      closedQty += take;
      if (lot.qty <= QTY_EPSILON) pos.head += 1;
    }
    if (closedQty > 0) this.setQty(pos, pos.qty - closedQty);
    return { qty: remQty > QTY_EPSILON ? remQty : 0, grossMinor: remGross, costsMinor: remCosts, closedQty };
  }

  private openLot(pos: Position, day: string, side: number, qty: number, grossMinor: number, costsMinor: number): void {
    this.activeChain(pos.slot, day);
    pos.side = side;
    pos.lots.push({ qty, grossMinor, costsMinor, openDay: day });
    this.setQty(pos, pos.qty + qty);
  }

  private trade(t: Transaction): void {
    const day = t.tradeDay;
    const pos = this.position(t);
    const dir = t.type === 'BUY_TO_OPEN' || t.type === 'BUY_TO_CLOSE' || t.type === 'BUY' ? 1 : -1;
    const qty = Math.abs(t.quantity);
    const costsMinor = Math.abs(t.commissionMinor) + Math.abs(t.feesMinor);
    const grossMinor = tradeValueMinor(t, dir, qty, costsMinor);
    const closingOnly = t.type === 'BUY_TO_CLOSE' || t.type === 'SELL_TO_CLOSE';
    const openingOnly = t.type === 'BUY_TO_OPEN' || t.type === 'SELL_TO_OPEN';

    const agg = this.dayAgg(t.currency, day);
    agg.trades += 1;
    const sym = this.symbolAgg(agg, pos.underlying);
    if (sym) sym.trades += 1;
    this.activeChain(pos.slot, day);

    const wasSide = pos.side;
    let rest = { qty, grossMinor, costsMinor, closedQty: 0 };
    if (pos.qty > 0 && pos.side === -dir) {
      rest = this.closeFifo(pos, day, qty, grossMinor, costsMinor);
      if (openingOnly) this.warnings.openedAgainstOpposite += 1;
    }
    let openedQty = 0;
    let openedGross = 0;
    if (rest.qty > 0) {
      if (closingOnly) {
        // No lot to close (history starts mid-position): zero basis, flagged.
        this.warnings.unmatchedCloses += 1;
        const pnl = (dir < 0 ? rest.grossMinor : -rest.grossMinor) - rest.costsMinor;
        this.bookRealized(pos, day, pnl, dir > 0);
      } else {
        this.openLot(pos, day, dir, rest.qty, rest.grossMinor, rest.costsMinor);
        openedQty = rest.qty;
        openedGross = rest.grossMinor;
        if (dir < 0 && pos.isOption) {
          agg.premiumsMinor += rest.grossMinor;
          if (sym) sym.premiumsMinor += rest.grossMinor;
        }
      }
    }

    if (pos.isOption && pos.right) {
      if (rest.closedQty > 0) {
        this.legs.push(rollLeg(t, pos.underlying, pos.right, 'close', wasSide < 0 ? 'short' : 'long', -dir, rest.closedQty, prorate(grossMinor, rest.closedQty, qty)));
      }
      if (openedQty > 0) this.legs.push(rollLeg(t, pos.underlying, pos.right, 'open', dir < 0 ? 'short' : 'long', -dir, openedQty, openedGross));
    }
  }

  /** EXPIRATION, ASSIGNMENT, EXERCISE: the option leaves at 0; the stock legs are separate BUY/SELL rows. */
  private settle(t: Transaction): void {
    const day = t.tradeDay;
    const agg = this.dayAgg(t.currency, day);
    const qty = Math.abs(t.quantity);
    if (t.type === 'EXPIRATION') {
      agg.expiredOptions += 1;
      agg.expiredContracts += qty;
    } else if (t.type === 'ASSIGNMENT') {
      agg.assignments += 1;
    }
    const costsMinor = Math.abs(t.commissionMinor) + Math.abs(t.feesMinor);
    if (!t.isOption) {
      // Stock delivered by an assignment comes as its own BUY/SELL at the strike; a stock-side settlement row carries nothing more.
      if (costsMinor !== 0) this.bookRealized(this.position(t), day, -costsMinor, false);
      else agg.plEvents += 1;
      return;
    }
    const pos = this.position(t);
    // Quantity 0 on a settlement row means "the whole position" (some exports leave it blank).
    const wanted = qty > 0 ? qty : pos.qty;
    let rest = { qty: wanted, grossMinor: 0, costsMinor, closedQty: 0 };
    if (pos.qty > 0) rest = this.closeFifo(pos, day, Math.min(wanted, pos.qty), 0, costsMinor);
    const unmatched = qty > 0 ? wanted - rest.closedQty : pos.qty > 0 ? 0 : 1;
    if (unmatched > QTY_EPSILON) this.warnings.unmatchedSettlements += 1;
    if (rest.closedQty === 0 && rest.costsMinor !== 0) {
      this.bookRealized(pos, day, -rest.costsMinor, pos.side < 0);
    } else if (rest.closedQty === 0) {
      agg.plEvents += 1;
    }
  }

  private cashRow(t: Transaction): void {
    const day = t.tradeDay;
    const agg = this.dayAgg(t.currency, day);
    const underlying = t.underlying !== '' ? t.underlying : t.isOption ? '' : t.symbol;
    const sym = this.symbolAgg(agg, underlying);
    const slot = underlying !== '' ? this.findSlot(t.accountId, underlying, t.currency) : undefined;
    agg.plEvents += 1;
    if (t.type === 'DIVIDEND') {
      agg.dividendsMinor += t.amountMinor;
      if (sym) sym.dividendsMinor += t.amountMinor;
      const chain = slot ? this.attachChain(slot) : null;
      if (chain) chain.dividendsMinor += t.amountMinor;
    } else if (t.type === 'INTEREST') {
      agg.interestMinor += t.amountMinor;
      if (sym) sym.interestMinor += t.amountMinor;
    } else {
      const feeMinor = t.amountMinor !== 0 ? -t.amountMinor : Math.abs(t.commissionMinor) + Math.abs(t.feesMinor);
      agg.feesMinor += feeMinor;
      if (sym) sym.feesMinor += feeMinor;
      const chain = slot ? this.attachChain(slot) : null;
      if (chain) chain.feesMinor += feeMinor;
    }
  }

  /** SPLIT: `quantity` is the signed change of the position; lots keep their basis and share the change pro rata. */
  private split(t: Transaction): void {
    const pos = this.findPosition(t.accountId, t.symbol, t.currency);
    if (!pos || pos.qty <= 0) {
      this.warnings.corporateActionsWithoutLots += 1;
      return;
    }
    const newSigned = pos.side * pos.qty + t.quantity;
    const newQty = newSigned * pos.side;
    if (newQty <= QTY_EPSILON) {
      this.setQty(pos, 0);
      return;
    }
    const factor = newQty / pos.qty;
    for (let i = pos.head; i < pos.lots.length; i += 1) {
      const lot = pos.lots[i];
      if (lot) lot.qty *= factor;
    }
    this.setQty(pos, newQty);
  }

  /** SYMBOL_CHANGE: the lots of previousSymbol continue under symbol (and the chain under the new underlying). */
  private symbolChange(t: Transaction): void {
    const previous = t.previousSymbol;
    const old = previous ? this.findPosition(t.accountId, previous, t.currency) : undefined;
    if (!previous || !old || old.qty <= 0 || previous === t.symbol) {
      this.warnings.corporateActionsWithoutLots += 1;
      return;
    }
    const target = this.position(t);
    const oldSlot = old.slot;
    const newUnderlying = t.underlying !== '' ? t.underlying : t.symbol;
    if (!old.isOption && target.slot !== oldSlot && target.slot.openPositions === 0 && !target.slot.current) {
      // The whole story continues under the new name: move the slot rather than end one chain and start another.
      const newSlot = target.slot;
      newSlot.current = oldSlot.current;
      newSlot.last = oldSlot.current ?? newSlot.last;
      if (newSlot.current) newSlot.current.underlying = newUnderlying;
      oldSlot.current = null;
      for (const pos of this.allPositions()) {
        if (pos.slot === oldSlot && pos.qty > 0) {
          pos.slot = newSlot;
          oldSlot.openPositions -= 1;
          newSlot.openPositions += 1;
        }
      }
    }
    if (target.qty > 0 && target.side !== old.side) {
      this.warnings.corporateActionsWithoutLots += 1;
      return;
    }
    const movedQty = old.qty;
    const movedSide = old.side;
    const moved = old.lots.slice(old.head);
    this.setQty(old, 0);
    // Array.prototype.sort is stable: lots of the same day keep their FIFO order.
    target.lots = target.lots.slice(target.head).concat(moved);
    target.lots.sort((a, b) => (a.openDay < b.openDay ? -1 : a.openDay > b.openDay ? 1 : 0));
    target.head = 0;
    target.side = movedSide;
    this.setQty(target, target.qty + movedQty);
  }

  // ------------------------------------------------------------ driver

  process(transactions: readonly Transaction[]): void {
    const count = transactions.length;
    // One number per row: instant × 8 + phase (exact: epoch ms × 8 stays far below 2^53).
    const keys = new Float64Array(count);
    const order = new Uint32Array(count);
    for (let i = 0; i < count; i += 1) {
      const t = transactions[i];
      if (!t) continue;
      keys[i] = instantMs(t.tradeDate, t.tradeDay) * 8 + phaseOf(t.type);
      order[i] = i;
    }
    order.sort((a, b) => {
      const diff = (keys[a] ?? 0) - (keys[b] ?? 0);
      if (diff !== 0) return diff;
      const ida = transactions[a]?.id ?? '';
      const idb = transactions[b]?.id ?? '';
      return ida < idb ? -1 : ida > idb ? 1 : 0;
    });

    for (let k = 0; k < count; k += 1) {
      const t = transactions[order[k] ?? 0];
      if (!t) continue;
      if (this.currentDay !== null && t.tradeDay !== this.currentDay) this.endOfDay(this.currentDay);
      this.currentDay = t.tradeDay;
      const counts = this.dayAgg(t.currency, t.tradeDay).typeCounts;
      const typeIndex = TYPE_INDEX[t.type];
      counts[typeIndex] = (counts[typeIndex] ?? 0) + 1;
      if (TRADE_TYPES.has(t.type)) this.trade(t);
      else if (t.type === 'EXPIRATION' || t.type === 'ASSIGNMENT' || t.type === 'EXERCISE') this.settle(t);
      else if (t.type === 'DIVIDEND' || t.type === 'INTEREST' || t.type === 'FEE') this.cashRow(t);
      else if (t.type === 'SPLIT') this.split(t);
      else if (t.type === 'SYMBOL_CHANGE') this.symbolChange(t);
    }
    if (this.currentDay !== null) this.endOfDay(this.currentDay);
  }

  /**
   * A roll = a close leg and an open leg, same account, currency, underlying, right and direction, same
   * quantity, different contract: linked by order id when both legs have one, else by the trading day.
   * Fills of one order on one contract count as one leg. `group` = one day, one underlying.
   */
  private matchGroup(group: RollLeg[], rolls: RollRecord[]): void {
    const legs: RollLeg[] = [];
    for (const leg of group) {
      if (leg.orderId) {
        const same = legs.find(
          (o) => o.orderId === leg.orderId && o.symbol === leg.symbol && o.kind === leg.kind && o.direction === leg.direction && o.accountId === leg.accountId && o.currency === leg.currency,
        );
        if (same) {
          same.qty += leg.qty;
          same.grossMinor += leg.grossMinor;
          continue;
        }
      }
      legs.push(leg);
    }
    const closes = legs.filter((leg) => leg.kind === 'close');
    const opens = legs.filter((leg) => leg.kind === 'open');
    if (closes.length === 0 || opens.length === 0) return;
    const fits = (close: RollLeg, open: RollLeg) =>
      !open.used &&
      open.accountId === close.accountId &&
      open.currency === close.currency &&
      open.right === close.right &&
      open.direction === close.direction &&
      open.symbol !== close.symbol &&
      Math.abs(open.qty - close.qty) <= QTY_EPSILON;
    const record = (close: RollLeg, open: RollLeg, linkedBy: 'order' | 'day') => {
      close.used = true;
      open.used = true;
      rolls.push({
        accountId: close.accountId,
        underlying: close.underlying,
        currency: close.currency,
        day: close.day,
        right: close.right,
        direction: close.direction,
        quantity: close.qty,
        closeSymbol: close.symbol,
        openSymbol: open.symbol,
        creditMinor: close.cashSign * close.grossMinor + open.cashSign * open.grossMinor,
        linkedBy,
      });
    };
    for (const close of closes) {
      if (!close.orderId) continue;
      const open = opens.find((o) => o.orderId === close.orderId && fits(close, o));
      if (open) record(close, open, 'order');
    }
    for (const close of closes) {
      if (close.used) continue;
      const open = opens.find((o) => !(o.orderId && close.orderId) && fits(close, o));
      if (open) record(close, open, 'day');
    }
  }

  private matchRolls(): RollRecord[] {
    const rolls: RollRecord[] = [];
    const legs = this.legs;
    // Legs were recorded in processing order, so each trading day is one run; within it, by underlying.
    let start = 0;
    while (start < legs.length) {
      const day = legs[start]?.day;
      let end = start;
      const byUnderlying = new Map<string, RollLeg[]>();
      for (; end < legs.length; end += 1) {
        const leg = legs[end];
        if (!leg || leg.day !== day) break;
        const group = byUnderlying.get(leg.underlying);
        if (group) group.push(leg);
        else byUnderlying.set(leg.underlying, [leg]);
      }
      for (const group of byUnderlying.values()) if (group.length > 1) this.matchGroup(group, rolls);
      start = end;
    }
    rolls.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
    for (const roll of rolls) {
      const agg = this.dayAgg(roll.currency, roll.day);
      agg.rolls += 1;
      agg.rollCreditsMinor += roll.creditMinor;
      const sym = this.symbolAgg(agg, roll.underlying);
      if (sym) sym.rolls += 1;
    }
    return rolls;
  }

  finish(transactionCount: number): Ledger {
    const rolls = this.matchRolls();
    for (const chain of this.chains) chain.plMinor = chain.realizedMinor + chain.dividendsMinor - chain.feesMinor;
    const byCurrency = new Map<string, CurrencyDays>();
    for (const [currency, dayMap] of this.buckets) {
      const days = [...dayMap.keys()].sort();
      const aggs = days.map((day) => dayMap.get(day) ?? emptyDayAgg(day));
      byCurrency.set(currency, { currency, days, aggs });
    }
    const currencies = [...byCurrency.keys()].sort((a, b) =>
      a === this.reportingCurrency ? -1 : b === this.reportingCurrency ? 1 : a < b ? -1 : a > b ? 1 : 0,
    );
    const positions: OpenPosition[] = [];
    for (const pos of this.allPositions()) {
      if (pos.qty <= 0) continue;
      let entryGrossMinor = 0;
      let entryCostsMinor = 0;
      let openedDay = '';
      for (let i = pos.head; i < pos.lots.length; i += 1) {
        const lot = pos.lots[i];
        if (!lot) continue;
        entryGrossMinor += lot.grossMinor;
        entryCostsMinor += lot.costsMinor;
        if (openedDay === '' || lot.openDay < openedDay) openedDay = lot.openDay;
      }
      positions.push({
        accountId: pos.accountId,
        symbol: pos.symbol,
        underlying: pos.underlying,
        currency: pos.currency,
        isOption: pos.isOption,
        quantity: pos.side * pos.qty,
        entryGrossMinor,
        entryCostsMinor,
        openedDay,
      });
    }
    return {
      reportingCurrency: this.reportingCurrency,
      currencies,
      byCurrency,
      chains: this.chains,
      rolls,
      positions,
      warnings: this.warnings,
      transactionCount,
    };
  }
}

/** Builds the ledger from all transactions (any order: they are processed by instant, then phase, then id). */
export function buildLedger(transactions: readonly Transaction[], options: LedgerOptions): Ledger {
  const builder = new LedgerBuilder(options.reportingCurrency);
  builder.process(transactions);
  return builder.finish(transactions.length);
}
