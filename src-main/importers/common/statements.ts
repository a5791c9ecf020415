/**
 * Helpers for the figures a file states about itself (src-shared/journal/statements.ts, docs/importers.md
 * §Reconciliation): the instants of a statement's period and a statement with its defaults.
 */
import type { FileStatement } from '../../../src-shared/journal/statements';
import { NEW_YORK, zonedTimeToIso } from '../../../src-shared/zone';
import type { ParsedRow } from '../types';

/** The first instant of a New York day (a period's start). */
export function dayStartIso(ymd: string, zone: string = NEW_YORK): string | null {
  return zonedTimeToIso(ymd, { hour: 0, minute: 0, second: 0 }, zone);
}

/** The last second of a New York day (a period's end: rows of bare dates sit at its 16:00). */
export function dayEndIso(ymd: string, zone: string = NEW_YORK): string | null {
  const iso = zonedTimeToIso(ymd, { hour: 23, minute: 59, second: 59 }, zone);
  return iso === null ? null : iso.replace(/\.000Z$/, '.999Z');
}

/** The latest trade instant among the rows (a total's instant when the file names no period end); null without rows. */
export function latestTradeDate(rows: readonly ParsedRow[]): string | null {
  let latest: string | null = null;
  let latestMs = -Infinity;
  for (const { transaction } of rows) {
    const ms = Date.parse(transaction.tradeDate);
    if (ms > latestMs) {
      latestMs = ms;
      latest = transaction.tradeDate;
    }
  }
  return latest;
}

/** A statement with the fields a money figure leaves empty. */
export function moneyStatement(fields: Pick<FileStatement, 'what' | 'label' | 'line' | 'asOf' | 'currency' | 'valueMinor'> & Partial<FileStatement>): FileStatement {
  return { from: null, accountName: null, rows: 'all', symbol: null, quantity: null, costMinor: null, ...fields };
}

/** A position at `asOf` (symbol null: the section lists every position of the account, statements.ts). */
export function positionStatement(fields: Pick<FileStatement, 'label' | 'line' | 'asOf' | 'currency' | 'symbol' | 'quantity'> & Partial<FileStatement>): FileStatement {
  return { what: 'position', from: null, accountName: null, rows: 'all', valueMinor: null, costMinor: null, ...fields };
}
