import { expect } from 'vitest';
import type { DealerLevels } from '../src-shared/journal/book';
import type { Transaction } from '../src-shared/journal/model';
import type { EntryLookup } from '../src-shared/journal/trade-metrics';
import { buildTrades, type Trade, type TradeBook } from '../src-shared/journal/trades';
import { ledgerOf } from './journal-helpers';

/** Currency units to minor units (the hand calculations are written in dollars). */
export function minor(units: number): number {
  return Math.round(units * 10_000);
}

/** The trades of hand-written rows, with the ledger's chains for their campaigns. */
export function tradesOf(transactions: readonly Transaction[], lookup?: EntryLookup): TradeBook {
  return buildTrades(transactions, { campaigns: ledgerOf(transactions).campaigns, ...(lookup ? { lookup } : {}) });
}

/** The one trade of the rows. */
export function onlyTrade(transactions: readonly Transaction[], lookup?: EntryLookup): Trade {
  const { trades } = tradesOf(transactions, lookup);
  expect(trades.length, `one trade: ${trades.map((t) => t.strategy).join(', ')}`).toBe(1);
  const [trade] = trades;
  if (!trade) throw new Error('no trade');
  return trade;
}

/**
 * A snapshot service stand-in for the injected lookup: one snapshot per underlying, quoted at `quoteTime`, answered for
 * any instant at or after it (the newest at or before, as the service does), with the leg's delta from `deltaOf`.
 */
export function snapshotLookup(
  quoteTime: string,
  spot: number,
  levels: DealerLevels | null = null,
  deltaOf: (leg: { strike: number; right: 'C' | 'P' }) => number | null = () => null,
): EntryLookup {
  const quoteMs = Date.parse(quoteTime);
  return ({ atMs, leg }) => (atMs >= quoteMs ? { quoteTime, spot, delta: leg ? deltaOf(leg) : null, levels } : null);
}
