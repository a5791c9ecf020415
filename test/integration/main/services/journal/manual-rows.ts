/**
 * Manual openings stored as the manual-entries route will store them (source `manual`, an import of its own) but
 * straight through the repositories, into an account that already exists: the HTTP route belongs to the manual
 * entries (DESIGN.md "A trader's real history"); the ledger only needs the rows.
 */
import type { Database } from 'better-sqlite3';
import { Generations } from '../../../../../src-main/db/generations';
import { ImportsRepository } from '../../../../../src-main/db/imports';
import { TransactionsRepository } from '../../../../../src-main/db/transactions';
import { transactionIdFor } from '../../../../../src-main/services/journal/service';
import type { RawTransaction } from '../../../../../src-shared/journal/model';
import { makeDayOf } from '../../../../../src-shared/zone';
import { ZERO_MINOR, asMinor } from '../../../../../src-shared/money';
import { writeNow } from '../../../../../src-main/db/writes';

/** Stores `rows` (source set to `manual`) in the account `accountId`, as one import; the journal sees a new generation. */
export function storeManualRows(db: Database, accountId: string, rows: readonly RawTransaction[], timeZone = 'America/New_York'): void {
  const imports = new ImportsRepository(db);
  const transactions = new TransactionsRepository(db);
  const dayOf = makeDayOf(timeZone);
  writeNow(db, (turn) => {
    const importId = imports.insert(turn, { broker: 'manual', source: 'manual', filename: null, created_at: new Date(0).toISOString(), rows: rows.length, imported: 0, duplicates: 0, report_json: '{}' });
    const inserter = transactions.inserter(turn);
    for (const row of rows) {
      const tx = { ...row, source: 'manual' };
      inserter.add(tx, { id: transactionIdFor(tx), importId, accountId, tradeDay: dayOf(tx.tradeDate) });
    }
    imports.finish(turn, { id: importId, imported: inserter.finish(), duplicates: 0, report_json: '{}' });
    new Generations(db).bumpJournal(turn);
  });
}

/** A manual opening of `quantity` (signed: + long, − short) at `price` per share, dated `tradeDate`. */
export function openingRow(input: { accountName: string; symbol: string; underlying?: string; quantity: number; price: number; tradeDate: string; option?: { expiration: string; strike: number; right: 'C' | 'P' }; currency?: string; costsMinor?: number; id: string }): RawTransaction {
  const isOption = input.option !== undefined;
  const multiplier = isOption ? 100 : 1;
  const qty = Math.abs(input.quantity);
  const grossMinor = Math.round(input.price * 10_000 * qty * multiplier);
  const costsMinor = input.costsMinor ?? 0;
  const long = input.quantity > 0;
  return {
    accountName: input.accountName,
    brokerRowId: input.id,
    type: isOption ? (long ? 'BUY_TO_OPEN' : 'SELL_TO_OPEN') : long ? 'BUY' : 'SELL_SHORT',
    symbol: input.symbol,
    underlying: input.underlying ?? input.symbol,
    isOption,
    expiration: input.option?.expiration ?? null,
    strike: input.option?.strike ?? null,
    right: input.option?.right ?? null,
    quantity: qty,
    priceMinor: asMinor(Math.round(input.price * 10_000)),
    multiplier,
    amountMinor: asMinor(long ? -grossMinor - costsMinor : grossMinor - costsMinor),
    commissionMinor: asMinor(costsMinor),
    feesMinor: ZERO_MINOR,
    currency: input.currency ?? 'USD',
    tradeDate: input.tradeDate,
    orderId: null,
    description: 'Opening position held before the history',
    source: 'manual',
  };
}
