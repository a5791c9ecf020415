/**
 * The last check of every neutral transaction an importer hands over (docs/importers.md §Sane ranges): values no
 * real file holds are a line error, whatever importer or cell grammar read them.
 */
import { MAX_MONEY_MINOR, MAX_MULTIPLIER, MAX_QUANTITY, MAX_STRIKE, MAX_YEAR, MIN_QUANTITY, MIN_YEAR, saneQuantity, saneStrike, saneYear } from '../../../src-shared/bounds';
import type { ImportedTransaction } from '../../../src-shared/journal/model';

const MONEY_FIELDS = ['priceMinor', 'amountMinor', 'commissionMinor', 'feesMinor'] as const;
const MONEY_NAMES: Record<(typeof MONEY_FIELDS)[number], string> = { priceMinor: 'price', amountMinor: 'amount', commissionMinor: 'commission', feesMinor: 'fees' };

/** The longest text of each field (a symbol, an account name...); a cell of megabytes is no real one. */
const TEXT_LIMITS = { accountName: 200, symbol: 64, underlying: 64, currency: 16, orderId: 256, brokerRowId: 512, description: 4_000 } as const;

/** What is out of range in a transaction, as a message for its line; null when it is sane. */
export function insaneField(tx: ImportedTransaction): string | null {
  for (const [field, limit] of Object.entries(TEXT_LIMITS) as Array<[keyof typeof TEXT_LIMITS, number]>) {
    const value = tx[field];
    if (value !== null && value.length > limit) return `the ${field} is ${value.length.toLocaleString('en-US')} characters long (at most ${limit.toLocaleString('en-US')})`;
  }
  if ((tx.previousSymbol?.length ?? 0) > TEXT_LIMITS.symbol) return `the previousSymbol is longer than ${TEXT_LIMITS.symbol} characters`;
  if (!saneYear(tx.tradeDate)) return `the date ${tx.tradeDate.slice(0, 10)} is outside the years ${MIN_YEAR}–${MAX_YEAR}`;
  if (tx.expiration !== null && !saneYear(tx.expiration)) return `the expiration ${tx.expiration} is outside the years ${MIN_YEAR}–${MAX_YEAR}`;
  if (tx.strike !== null && !saneStrike(tx.strike)) return `the strike ${tx.strike} is not above 0 and at most ${MAX_STRIKE.toLocaleString('en-US')}`;
  if (!saneQuantity(tx.quantity)) return `the quantity ${tx.quantity} is not 0 or between ${MIN_QUANTITY} and ${MAX_QUANTITY.toLocaleString('en-US')}`;
  if (!(tx.multiplier > 0 && tx.multiplier <= MAX_MULTIPLIER)) return `the multiplier ${tx.multiplier} is not above 0 and at most ${MAX_MULTIPLIER.toLocaleString('en-US')}`;
  for (const field of MONEY_FIELDS) {
    const minor = tx[field];
    if (!Number.isSafeInteger(minor) || Math.abs(minor) > MAX_MONEY_MINOR) return `the ${MONEY_NAMES[field]} is beyond ${(MAX_MONEY_MINOR / 10_000).toLocaleString('en-US')} (or not a number)`;
  }
  return null;
}
