/** Money arithmetic the importers share: prices from cash, gross values, and fees a broker nets in silently. */
import type { RawTransaction } from '../../../src-shared/journal/model';
import { ZERO_MINOR, asMinor, type Minor } from '../../../src-shared/money';

/** Per-share price in minor units from a cash value: |value| / (quantity × multiplier), rounded. */
export function pricePerShareMinor(valueMinor: Minor, quantity: number, multiplier: number): Minor {
  if (quantity === 0 || multiplier === 0) return ZERO_MINOR;
  return asMinor(Math.round(Math.abs(valueMinor) / (Math.abs(quantity) * multiplier)));
}

/** Minor units of price × quantity × multiplier, exact for the 4-decimal prices and integer/6-decimal sizes brokers use. */
export function grossMinor(priceMinor: Minor, quantity: number, multiplier: number): Minor {
  return asMinor(Math.round(Number((priceMinor * quantity * multiplier).toPrecision(15))));
}

/**
 * Fees a broker nets into the amount without a column for them (Robinhood, E*TRADE): what is left between the
 * gross (price × quantity × multiplier), the commission and the net amount of a trade. Only where the gross is
 * exact — whole quantities; fractional-share prices are rounded in the files, so a gap there is no fee — and
 * only a plausible residual (0 ≤ fees < gross).
 */
export function impliedFeesMinor(tx: RawTransaction): Minor {
  const sign = fillSign(tx.type);
  const selling = sign < 0;
  const buying = sign > 0;
  if ((!selling && !buying) || !Number.isInteger(tx.quantity)) return ZERO_MINOR;
  const gross = grossMinor(tx.priceMinor, tx.quantity, tx.multiplier);
  const fees = selling ? gross - tx.commissionMinor - tx.amountMinor : -tx.amountMinor - gross - tx.commissionMinor;
  return fees >= 0 && fees < gross ? asMinor(fees) : ZERO_MINOR;
}

/** Signed position effect of a fill: + for buys, − for sells, 0 for anything else. */
export function fillSign(type: RawTransaction['type']): number {
  if (type === 'BUY' || type === 'BUY_TO_OPEN' || type === 'BUY_TO_CLOSE' || type === 'BUY_TO_COVER') return 1;
  if (type === 'SELL' || type === 'SELL_TO_OPEN' || type === 'SELL_TO_CLOSE' || type === 'SELL_SHORT') return -1;
  return 0;
}

/**
 * Open or close for an option fill that says only buy or sell (E*TRADE Bought/Sold, Webull, IBKR without O/C
 * codes): opening when the running position is flat or on the same side, closing when against it. Updates the
 * running position (`positions`: symbol → signed contracts, oldest fill first).
 */
export function inferOptionFill(positions: Map<string, number>, symbol: string, signedQuantity: number): RawTransaction['type'] {
  const before = positions.get(symbol) ?? 0;
  positions.set(symbol, before + signedQuantity);
  const opening = before === 0 || Math.sign(before) === Math.sign(signedQuantity);
  if (signedQuantity >= 0) return opening ? 'BUY_TO_OPEN' : 'BUY_TO_CLOSE';
  return opening ? 'SELL_TO_OPEN' : 'SELL_TO_CLOSE';
}

/**
 * Bonds and bills are priced in percent of par (99.5 is 995 per 1,000 of face), and files count them as face
 * value (10,000: price × quantity × 0.01 is the cash) or as bonds of 1,000 face (10: × 10). The multiplier of a
 * fill is the first of 1, 0.01 and 10 that makes price × quantity × multiplier its cash within 2% (accrued
 * interest, fees); null when none does.
 */
export function parMultiplier(priceMinor: Minor, quantity: number, cashMinor: Minor): number | null {
  const cash = Math.abs(cashMinor);
  if (quantity === 0 || cash === 0 || priceMinor === 0) return null;
  const gross = Math.abs(priceMinor * quantity);
  return [1, 0.01, 10].find((multiplier) => Math.abs(gross * multiplier - cash) <= cash * 0.02) ?? null;
}

/**
 * Bills and bonds priced in percent of par by any importer (docs/journal.md "A trader's real history"): a share fill
 * whose price × quantity is a hundredth (face-value quantities) or ten times (bonds of 1,000 face) its cash gets that
 * multiplier (parMultiplier), so that its lot costs what the row paid, not a hundred times it. Later fills of the same
 * instrument whose price does not tell (a redemption at 0, a price left blank) take the multiplier found before; their
 * price is then read from the cash. Rows in file order; importers that set the multiplier themselves are unchanged.
 */
export function priceAtParFromCash(rows: ReadonlyArray<{ transaction: RawTransaction }>): void {
  const found = new Map<string, number>();
  for (const { transaction: tx } of rows) {
    const sign = fillSign(tx.type);
    if (sign === 0 || tx.isOption || tx.multiplier !== 1 || !(tx.quantity > 0) || tx.amountMinor === 0) continue;
    const costs = tx.commissionMinor + tx.feesMinor;
    const cashMinor = asMinor(sign > 0 ? -tx.amountMinor - costs : tx.amountMinor + costs);
    if (cashMinor <= 0) continue;
    const key = `${tx.accountName}\u001f${tx.symbol}`;
    const multiplier = (tx.priceMinor === 0 ? null : parMultiplier(tx.priceMinor, tx.quantity, cashMinor)) ?? found.get(key) ?? null;
    if (multiplier === null || multiplier === 1) continue;
    found.set(key, multiplier);
    tx.multiplier = multiplier;
    if (tx.priceMinor === 0 || parMultiplier(tx.priceMinor, tx.quantity, cashMinor) === null) tx.priceMinor = pricePerShareMinor(cashMinor, tx.quantity, multiplier);
  }
}
