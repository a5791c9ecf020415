/**
 * "Expired worthless" by hand (DESIGN §5 "Assignment, collateral and levels in trades", docs/journal.md §Positions):
 * `POST /v1/journal/expirations` `{items: [{accountId, symbol}]}` books, for each option past its expiration that the
 * book lists under needsAttention (expiry_unknown, or in_the_money when the user knows better), a manual EXPIRATION row
 * of the whole position, dated at its expiry instant. The rows are one manual import (manual-entries.ts): undone like any
 * import. Runs in the journal worker; nothing is written here.
 */
import { isoInstant } from '../../../src-shared/calendar';
import { MANUAL_SOURCE } from '../../../src-shared/api/constants';
import { expiryInstantMs, settlementOf } from '../../../src-shared/exposure/index';
import { parseOccSymbol } from '../../../src-shared/journal/model';
import type { AccountsRepository } from '../../db/accounts';
import type { CheckedEntry } from './values';
import { asAccountId } from '../../../src-shared/ids';
import { expirationRowOf, type NeedsAttention } from './expiry-settlement';
import { failure, ok, type Result } from '../result';

export interface ExpirationItem {
  accountId: string;
  symbol: string;
}

/** What the answer lists per row booked. */
export interface BookedExpiration {
  accountId: string;
  symbol: string;
  currency: string;
  /** Contracts expired (the whole position, unsigned). */
  quantity: number;
  tradeDate: string;
}

/** Problems named with a refused request (as manual entries: a list, not an essay). */
const MAX_PROBLEMS = 20;

/** Kinds of needsAttention an expiration by hand settles. */
const SETTLED_BY_HAND: ReadonlySet<NeedsAttention['kind']> = new Set(['expiry_unknown', 'in_the_money']);

/**
 * The EXPIRATION rows for the items, from the book's needsAttention now: each item names an open option of the account
 * past its expiration (every currency it is held in); one that names none is refused with the request, nothing booked.
 */
export function expirationEntries(
  items: readonly ExpirationItem[],
  attention: readonly NeedsAttention[],
  accounts: Pick<AccountsRepository, 'byId'>,
): Result<{ entries: CheckedEntry[]; booked: BookedExpiration[] }> {
  const waiting = new Map<string, NeedsAttention[]>();
  for (const item of attention) {
    if (!SETTLED_BY_HAND.has(item.kind) || !item.isOption) continue;
    const key = `${item.accountId}\u0000${item.symbol}`;
    waiting.set(key, [...(waiting.get(key) ?? []), item]);
  }
  const problems: Array<{ param: string; message: string }> = [];
  const entries: CheckedEntry[] = [];
  const booked: BookedExpiration[] = [];
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const symbol = item.symbol.trim().toUpperCase().replace(/\s+/g, '');
    const key = `${item.accountId}\u0000${symbol}`;
    // The same option named twice is booked once.
    if (seen.has(key)) return;
    seen.add(key);
    const account = accounts.byId(item.accountId);
    if (account === null) {
      problems.push({ param: `items.${index}.accountId`, message: `names no account of the journal: "${item.accountId}"` });
      return;
    }
    const found = waiting.get(key);
    if (found === undefined) {
      problems.push({ param: `items.${index}.symbol`, message: `"${item.symbol}" is no option of ${account.name} past its expiration without a closing row (GET /v1/journal/positions lists them under needsAttention)` });
      return;
    }
    for (const position of found) {
      if (position.expiration === null || position.strike === null || position.right === null) continue;
      const root = parseOccSymbol(position.symbol)?.root ?? position.underlying;
      const tradeDate = isoInstant(expiryInstantMs(position.expiration, settlementOf(root)));
      const quantity = Math.abs(position.quantity);
      entries.push({
        accountId: asAccountId(position.accountId),
        accountSource: account.source,
        transaction: {
          accountName: account.name,
          ...expirationRowOf({ ...position, expiration: position.expiration, strike: position.strike, right: position.right }, quantity),
          tradeDate,
          description: `Expired worthless (entered by hand: ${position.kind === 'in_the_money' ? 'a snapshot showed it in the money' : 'no row or snapshot showed the expiry'})`,
          source: MANUAL_SOURCE,
        },
      });
      booked.push({ accountId: position.accountId, symbol: position.symbol, currency: position.currency, quantity, tradeDate });
    }
  });
  if (problems.length > 0) return failure({ kind: 'invalid-request', what: problems.length === 1 ? 'expiration' : 'expirations', problems: problems.slice(0, MAX_PROBLEMS) });
  return ok({ entries, booked });
}
