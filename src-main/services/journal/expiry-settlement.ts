/**
 * Expiries the rows do not record (docs/journal.md §Positions, "Needs attention"): an option left open past its expiry
 * is an inferred expiration when a snapshot of the underlying, quoted within one New York trading day of the expiry
 * instant (before or after it: DESIGN §5), shows it out of the money; otherwise it needs attention, as does an
 * unmatched close (opened before the history).
 */
import { isoInstant, parseInstantMs } from '../../../src-shared/calendar';
import { expiryInstantMs, settlementOf } from '../../../src-shared/exposure/index';
import type { OpenPosition, UnmatchedOpening } from '../../../src-shared/journal/index';
import { adjustedRootOf } from '../../../src-shared/journal/book';
import { deliverableValue } from '../../../src-shared/journal/corporate-actions';
import { parseOccSymbol, type RawTransaction, type OptionRight, type Transaction } from '../../../src-shared/journal/model';
import { nextTradingDay, previousTradingDay } from '../../../src-shared/trading-days';
import { NEW_YORK, dateInZone, dayOfInstant, zonedTimeToMs } from '../../../src-shared/zone';
import type { JournalMarks } from './marks';
import type { ReconciliationRow } from '../../../src-shared/journal/reconciliation';
import { ZERO_MINOR } from '../../../src-shared/money';

/**
 * The instrument of a position or an unmatched close; its account and underlying as text: an item may name them as a
 * group of stored rows or a broker's file does (other_rows, reconciliation).
 */
type Instrument = Pick<OpenPosition, 'currency' | 'symbol' | 'isOption' | 'expiration' | 'strike' | 'right' | 'multiplier'> & { accountId: string; underlying: string };

/** What the book cannot decide alone (docs/journal.md §Positions, "Needs attention"). */
export interface NeedsAttention extends Instrument {
  kind: 'opened_before_history' | 'expiry_unknown' | 'in_the_money' | 'other_rows' | 'reconciliation';
  /** The kind as before (older clients read it). */
  reason: 'opened-before-history' | 'no-snapshot-after-expiry' | 'in-the-money' | 'other-rows' | 'differs-from-broker';
  /** Signed: the missing opening position (opened_before_history), else the open position. */
  quantity: number;
  sideKnown: boolean;
  /** opened_before_history: New York date and instant of the first unmatched close, and the rows. */
  firstDate: string | null;
  firstTradeDate: string | null;
  closes: number;
  /** opened_before_history: the types of the rows with an unmatched part (the sentence says what they did). */
  closedBy?: string[];
  /** in_the_money: the snapshot that shows it. */
  spot: number | null;
  quoteTime: string | null;
  /**
   * expiry_unknown: the last snapshot of the underlying quoted at or before the expiry (the last the journal saw while
   * the option lived), and whether the option was out of the money then; null without one, and for the other kinds.
   * What the Positions page's "all out of the money at the last snapshot" books as expired.
   */
  lastSnapshot: { spot: number; quoteTime: string; outOfTheMoney: boolean } | null;
  /** other_rows: the cash the rows carry, in minor units (`quantity` counts the rows). */
  cashMinor?: number;
  /** reconciliation: the figure of an import's file (or a balance assertion it broke) that the journal does not agree with. */
  reconciliation?: ReconciliationRow & { importId: number };
}

/** Rows kept as OTHER that move cash in one account and currency, as the positions list them (docs/journal.md). */
export function otherRows(group: { account_id: string; currency: string; rows: number; cash_minor: number; first_trade_date: string }): NeedsAttention {
  const ms = parseInstantMs(group.first_trade_date);
  return {
    kind: 'other_rows',
    reason: 'other-rows',
    accountId: group.account_id,
    currency: group.currency,
    symbol: '',
    underlying: '',
    isOption: false,
    expiration: null,
    strike: null,
    right: null,
    multiplier: 1,
    quantity: group.rows,
    sideKnown: true,
    firstDate: Number.isFinite(ms) ? dateInZone(ms, NEW_YORK) : null,
    firstTradeDate: group.first_trade_date,
    closes: 0,
    spot: null,
    quoteTime: null,
    lastSnapshot: null,
    cashMinor: group.cash_minor,
  };
}

/** An option closed as an EXPIRATION that no row records: a snapshot shortly after its expiry shows it out of the money. */
export interface InferredExpiration {
  transaction: Transaction;
  spot: number;
  quoteTime: string;
  /** When the evidence was quoted: the expiration counts at instants from then on. */
  evidenceMs: number;
}

/** The last instant a snapshot is evidence of an expiry: the end of the next New York trading day after it. */
function evidenceEndMs(expiration: string): number {
  return zonedTimeToMs(nextTradingDay(expiration), { hour: 23, minute: 59, second: 59 }, NEW_YORK) + 999;
}

/** The first instant a snapshot is evidence of an expiry: the start of the New York trading day before it (its evening close counts). */
function evidenceStartMs(expiration: string): number {
  return zonedTimeToMs(previousTradingDay(expiration), { hour: 0, minute: 0, second: 0 }, NEW_YORK);
}

/**
 * Whether an option is out of the money at `spot`: a standard one by its strike; one a corporate action adjusted by what
 * it delivers against its strike × multiplier (docs/journal.md §Corporate actions); null when the spot cannot price
 * its deliverable (another company's shares, terms unknown): it waits for a decision.
 */
function outOfTheMoneyOf(position: OpenPosition & { strike: number; right: 'C' | 'P' }, spot: number): boolean | null {
  const value = position.deliverable !== undefined ? deliverableValue(position.deliverable, position.underlying, spot) : adjustedRootOf(position) === null ? spot * position.multiplier : null;
  if (value === null) return null;
  const strikeValue = position.strike * position.multiplier;
  return position.right === 'C' ? value < strikeValue : value > strikeValue;
}

function instrumentOf(p: Instrument): Instrument {
  const { accountId, currency, symbol, underlying, isOption, expiration, strike, right, multiplier } = p;
  return { accountId, currency, symbol, underlying, isOption, expiration, strike, right, multiplier };
}

/** An unmatched close as the positions list it: the opening position the history lacks. */
export function openedBeforeHistory(u: UnmatchedOpening): NeedsAttention {
  const ms = parseInstantMs(u.firstTradeDate);
  return {
    kind: 'opened_before_history',
    reason: 'opened-before-history',
    ...instrumentOf(u),
    quantity: u.quantity,
    sideKnown: u.sideKnown,
    firstDate: Number.isFinite(ms) ? dateInZone(ms, NEW_YORK) : u.firstDay,
    firstTradeDate: u.firstTradeDate,
    closes: u.closes,
    closedBy: [...u.closedBy],
    spot: null,
    quoteTime: null,
    lastSnapshot: null,
  };
}

/** An option position whose expiry is known: what an EXPIRATION row of it is made from. */
export type ExpiringOption = Pick<RawTransaction, 'symbol' | 'underlying' | 'multiplier' | 'currency'> & { expiration: string; strike: number; right: OptionRight };

/**
 * The EXPIRATION row of `quantity` contracts of an option, at no price, cash or cost: the fields the inferred
 * expirations (settleExpiries) and the ones booked by hand (expirations.ts) share; each adds its date, words and source.
 */
export function expirationRowOf<P extends ExpiringOption>(
  position: P,
  quantity: number,
): { underlying: P['underlying'] } & Pick<RawTransaction, 'brokerRowId' | 'type' | 'symbol' | 'isOption' | 'expiration' | 'strike' | 'right' | 'quantity' | 'priceMinor' | 'multiplier' | 'amountMinor' | 'commissionMinor' | 'feesMinor' | 'currency' | 'orderId'> {
  return {
    brokerRowId: '',
    type: 'EXPIRATION',
    symbol: position.symbol,
    underlying: position.underlying,
    isOption: true,
    expiration: position.expiration,
    strike: position.strike,
    right: position.right,
    quantity,
    priceMinor: ZERO_MINOR,
    multiplier: position.multiplier,
    amountMinor: ZERO_MINOR,
    commissionMinor: ZERO_MINOR,
    feesMinor: ZERO_MINOR,
    currency: position.currency,
    orderId: null,
  };
}

/**
 * Options of `positions` past their expiry at `asOfMs` (Infinity: whenever): inferred expirations where a snapshot
 * quoted within one trading day of the expiry, before or after it (and by asOf), shows them out of the money — the
 * snapshot nearest the expiry decides; the others need attention.
 */
export function settleExpiries(
  positions: readonly OpenPosition[],
  asOfMs: number,
  marks: Pick<JournalMarks, 'nearestBetween' | 'spotAt'>,
  timeZone: string,
): { inferred: InferredExpiration[]; attention: NeedsAttention[] } {
  const inferred: InferredExpiration[] = [];
  const attention: NeedsAttention[] = [];
  for (const position of positions) {
    if (!position.isOption || position.expiration === null || position.strike === null || position.right === null) continue;
    const root = parseOccSymbol(position.symbol)?.root ?? position.underlying;
    const expiryMs = expiryInstantMs(position.expiration, settlementOf(root));
    if (!(expiryMs <= asOfMs)) continue;
    const open = { ...instrumentOf(position), quantity: position.quantity, sideKnown: true, firstDate: null, firstTradeDate: null, closes: 0 };
    const evidence = marks.nearestBetween(position.underlying, evidenceStartMs(position.expiration), Math.min(asOfMs, evidenceEndMs(position.expiration)), expiryMs);
    if (evidence === null) {
      const last = marks.spotAt(position.underlying, expiryMs);
      const lastSnapshot = last === null ? null : { ...last, outOfTheMoney: outOfTheMoneyOf({ ...position, strike: position.strike, right: position.right }, last.spot) === true };
      attention.push({ ...open, kind: 'expiry_unknown', reason: 'no-snapshot-after-expiry', spot: null, quoteTime: null, lastSnapshot });
      continue;
    }
    const { spot, quoteTime } = evidence.marks;
    const otm = outOfTheMoneyOf({ ...position, strike: position.strike, right: position.right }, spot);
    if (otm === null) {
      attention.push({ ...open, kind: 'expiry_unknown', reason: 'no-snapshot-after-expiry', spot, quoteTime, lastSnapshot: null });
      continue;
    }
    if (!otm) {
      attention.push({ ...open, kind: 'in_the_money', reason: 'in-the-money', spot, quoteTime, lastSnapshot: null });
      continue;
    }
    const tradeDate = isoInstant(expiryMs);
    inferred.push({
      spot,
      quoteTime,
      // Evidence quoted the evening before counts from the expiry itself: the option lived until then.
      evidenceMs: Math.max(evidence.ms, expiryMs),
      transaction: {
        id: `inferred:${position.accountId}:${position.currency}:${position.symbol}`,
        accountId: position.accountId,
        accountName: '',
        importId: 0,
        ...expirationRowOf({ ...position, expiration: position.expiration, strike: position.strike, right: position.right }, Math.abs(position.quantity)),
        tradeDate,
        tradeDay: dayOfInstant(tradeDate, timeZone),
        description: `Inferred expiration: out of the money (spot ${spot} at ${quoteTime})`,
        source: 'inferred',
        inferred: true,
      },
    });
  }
  return { inferred, attention };
}
