/**
 * The closes without an opening that an import brought (docs/journal.md §Unmatched closes; issue 27 item 9): each is a
 * warning of the import's report, in the words of the Positions page's needs-attention item (src-shared/journal/words.ts).
 * Read from the ledger as the journal stands now, so that a warning goes once the opening is entered or an older file
 * brings it; never stored (the store itself builds no ledger: an import of 100k rows would take twice as long).
 */
import type { Ledger, UnmatchedOpening } from '../../../src-shared/journal/index';
import type { Transaction } from '../../../src-shared/journal/model';
import { openedBeforeHistoryText } from '../../../src-shared/journal/words';
import { dateInZone, NEW_YORK } from '../../../src-shared/zone';
import { parseInstantMs } from '../../../src-shared/calendar';
import type { ImportRecord, PositionsResult } from './values';
import { parseOccSymbol } from '../../../src-shared/journal/model';
import { underlyingOf, type ReconciliationItem } from './reconciliation';

/** Sentences an import's report lists (all are counted): a file of thousands of closes from before its window stays a page. */
export const OPENED_BEFORE_LISTED = 50;

const BUYING = new Set(['BUY', 'BUY_TO_OPEN', 'BUY_TO_CLOSE', 'BUY_TO_COVER']);

/** The sign of the opening a row's unmatched part lacks, as the ledger books it (+ long: a sale, an exercise). */
function missingSign(tx: Pick<Transaction, 'type'>): number {
  if (tx.type === 'EXERCISE') return 1;
  if (tx.type === 'ASSIGNMENT' || tx.type === 'EXPIRATION') return -1;
  return BUYING.has(tx.type) ? -1 : 1;
}

const itemKey = (accountId: string, currency: string, symbol: string, sign: number) => `${accountId}\u0000${currency}\u0000${symbol}\u0000${sign}`;

/** What an import's report adds for its closes without an opening: every sentence (the report lists the first). */
export interface OpenedBeforeHistory {
  sentences: string[];
}

/**
 * Per import id asked: the sentences of the unmatched closes whose rows it holds, oldest first. `rowsOf` reads the
 * rows of ids (their import and instrument).
 */
export function openedBeforeHistoryByImport(
  ledger: Pick<Ledger, 'unmatched' | 'unmatchedByTx'>,
  importIds: readonly number[],
  rowsOf: (ids: readonly string[]) => Transaction[],
  accountName: (accountId: string) => string,
): Map<number, OpenedBeforeHistory> {
  const out = new Map<number, OpenedBeforeHistory>();
  if (importIds.length === 0 || ledger.unmatchedByTx.size === 0) return out;
  const wanted = new Set(importIds);
  const itemsOf = new Map<string, Set<number>>();
  for (const tx of rowsOf([...ledger.unmatchedByTx.keys()])) {
    if (!wanted.has(tx.importId)) continue;
    const key = itemKey(tx.accountId, tx.currency, tx.symbol, missingSign(tx));
    const imports = itemsOf.get(key) ?? new Set<number>();
    imports.add(tx.importId);
    itemsOf.set(key, imports);
  }
  if (itemsOf.size === 0) return out;
  for (const item of ledger.unmatched) {
    const imports = itemsOf.get(itemKey(item.accountId, item.currency, item.symbol, Math.sign(item.quantity)));
    if (imports === undefined) continue;
    const sentence = sentenceOf(item, accountName(item.accountId));
    for (const id of imports) {
      const entry = out.get(id) ?? { sentences: [] };
      entry.sentences.push(sentence);
      out.set(id, entry);
    }
  }
  return out;
}

function sentenceOf(item: UnmatchedOpening, accountName: string): string {
  const ms = parseInstantMs(item.firstTradeDate);
  return openedBeforeHistoryText({
    accountName,
    symbol: item.symbol,
    isOption: item.isOption,
    quantity: item.quantity,
    firstDate: Number.isFinite(ms) ? dateInZone(ms, NEW_YORK) : item.firstDay,
    sideKnown: item.sideKnown,
    closedBy: item.closedBy,
  });
}

/** The record with its closes without an opening counted among its warnings and the first listed (line null: a journal finding). */
export function withOpenedBeforeHistory(record: ImportRecord, found: OpenedBeforeHistory | undefined): ImportRecord {
  const sentences = found?.sentences ?? [];
  return {
    ...record,
    warnings: [...record.warnings, ...sentences.slice(0, OPENED_BEFORE_LISTED).map((message) => ({ line: null, message }))],
    warningCount: record.warningCount + sentences.length,
    openedBeforeHistory: sentences.length,
  };
}

/** A difference from the broker's figures as needsAttention lists it (kind `reconciliation`). */
export function reconciliationAttention(item: ReconciliationItem, accountName: string): PositionsResult['needsAttention'][number] {
  const occ = item.row.symbol === null ? null : parseOccSymbol(item.row.symbol);
  return {
    kind: 'reconciliation',
    reason: 'differs-from-broker',
    accountId: item.accountId,
    accountName,
    currency: item.row.currency,
    symbol: item.row.symbol ?? '',
    underlying: underlyingOf(item.row.symbol),
    isOption: occ !== null,
    expiration: occ?.expiration ?? null,
    strike: occ?.strike ?? null,
    right: occ?.right ?? null,
    multiplier: occ === null ? 1 : 100,
    quantity: item.row.what === 'position' ? item.row.broker : 0,
    sideKnown: true,
    firstDate: null,
    firstTradeDate: null,
    closes: 0,
    spot: null,
    quoteTime: null,
    lastSnapshot: null,
    reconciliation: { importId: item.importId, ...item.row },
  };
}
