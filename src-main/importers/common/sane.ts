/**
 * The last check of every neutral transaction an importer hands over (docs/importers.md §Sane ranges): values no
 * real file holds are a line error, whatever importer or cell grammar read them.
 */
import { MAX_MONEY_MINOR, MAX_MULTIPLIER, MAX_QUANTITY, MAX_STRIKE, MAX_YEAR, MIN_QUANTITY, MIN_YEAR, saneQuantity, saneStrike, saneYear } from '../../../src-shared/bounds';
import type { RawTransaction } from '../../../src-shared/journal/model';
import { MINOR_PER_UNIT } from '../../../src-shared/money';

/** The longest text of each field (a symbol, an account name...); a cell of megabytes is no real one. */
const TEXT_LIMITS = { accountName: 200, symbol: 64, underlying: 64, currency: 16, orderId: 256, brokerRowId: 512, description: 4_000, previousSymbol: 64 } as const;
type TextField = keyof typeof TEXT_LIMITS;
const TEXT_FIELDS = Object.keys(TEXT_LIMITS) as TextField[];

/** The first text field over its limit, for the message (the check itself is written out below). */
function longText(tx: RawTransaction): string {
  for (const field of TEXT_FIELDS) {
    const length = tx[field]?.length ?? 0;
    if (length > TEXT_LIMITS[field]) return `the ${field} is ${length.toLocaleString('en-US')} characters long (at most ${TEXT_LIMITS[field].toLocaleString('en-US')})`;
  }
  return 'a text is too long';
}

/** A money field within MAX_MONEY_MINOR and a whole number of minor units. */
const saneMoney = (minor: number): boolean => Math.abs(minor) <= MAX_MONEY_MINOR && Number.isInteger(minor);

/**
 * What is out of range in a transaction, as a message for its line; null when it is sane. Runs on every row of
 * 100k-row imports, so the checks are written out and a sane row allocates nothing; messages are built only for
 * a row that fails.
 */
export function insaneField(tx: RawTransaction): string | null {
  const L = TEXT_LIMITS;
  if (
    tx.accountName.length > L.accountName ||
    tx.symbol.length > L.symbol ||
    tx.underlying.length > L.underlying ||
    tx.currency.length > L.currency ||
    (tx.orderId?.length ?? 0) > L.orderId ||
    tx.brokerRowId.length > L.brokerRowId ||
    tx.description.length > L.description ||
    (tx.previousSymbol?.length ?? 0) > L.previousSymbol
  ) {
    return longText(tx);
  }
  if (!saneYear(tx.tradeDate)) return `the date ${tx.tradeDate.slice(0, 10)} is outside the years ${MIN_YEAR}–${MAX_YEAR}`;
  if (tx.expiration !== null && !saneYear(tx.expiration)) return `the expiration ${tx.expiration} is outside the years ${MIN_YEAR}–${MAX_YEAR}`;
  if (tx.strike !== null && !saneStrike(tx.strike)) return `the strike ${tx.strike} is not above 0 and at most ${MAX_STRIKE.toLocaleString('en-US')}`;
  if (!saneQuantity(tx.quantity)) return `the quantity ${tx.quantity} is not 0 or between ${MIN_QUANTITY} and ${MAX_QUANTITY.toLocaleString('en-US')}`;
  if (!(tx.multiplier > 0 && tx.multiplier <= MAX_MULTIPLIER)) return `the multiplier ${tx.multiplier} is not above 0 and at most ${MAX_MULTIPLIER.toLocaleString('en-US')}`;
  if (!(saneMoney(tx.priceMinor) && saneMoney(tx.amountMinor) && saneMoney(tx.commissionMinor) && saneMoney(tx.feesMinor))) {
    const field = (['priceMinor', 'amountMinor', 'commissionMinor', 'feesMinor'] as const).find((name) => !saneMoney(tx[name])) ?? 'amountMinor';
    return `the ${field.replace('Minor', '')} is beyond ${(MAX_MONEY_MINOR / MINOR_PER_UNIT).toLocaleString('en-US')} (or not a number)`;
  }
  return null;
}
