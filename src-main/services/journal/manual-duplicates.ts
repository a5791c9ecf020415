/**
 * Manual and imported rows never double (DESIGN §5; docs/journal.md, "Manual entries"; the rule in
 * src-shared/journal/manual-match.ts). Two ways in:
 * - an import that makes manual openings duplicates supersedes them: each is retired (db/superseded.ts) in the import's
 *   transaction and listed in its report (`supersededManual`); undoing the import brings them back;
 * - a manual opening (POST /journal/transactions) that duplicates imported rows is refused: 409 DUPLICATE_OF_IMPORTED
 *   naming the imported row.
 * Runs in the journal worker, on its connection.
 */
import type { Database } from 'better-sqlite3';
import { MANUAL_SOURCE } from '../../../src-shared/api/constants';
import { coverOfOrdered, duplicatesImported, importedCover, inLedgerOrder, MANUAL_OPENING_TYPES, openingSide, type ImportedCover, type ManualOpening } from '../../../src-shared/journal/manual-match';
import type { Transaction } from '../../../src-shared/journal/model';
import type { SupersededManual } from '../../../src-shared/journal/import-report';
import { AccountsRepository } from '../../db/accounts';
import { ImportsRepository } from '../../db/imports';
import { SupersededRepository } from '../../db/superseded';
import { toTransaction, type TransactionRow } from '../../db/transactions';
import type { WriteTx } from '../../db/writes';
import type { DomainError } from '../result';
import type { CheckedEntry } from './values';

export type { SupersededManual } from '../../../src-shared/journal/import-report';

/** Rows a report lists (it counts them all). */
export const MAX_SUPERSEDED_LISTED = 100;

/** An instrument of an account: the key of the imported rows a manual opening is held against. */
const instrumentKey = (accountId: string, symbol: string, currency: string) => `${accountId}\u0000${symbol}\u0000${currency}`;

function groupByInstrument(rows: readonly Transaction[]): Map<string, Transaction[]> {
  const groups = new Map<string, Transaction[]>();
  for (const row of rows) {
    const key = instrumentKey(row.accountId, row.symbol, row.currency);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}

function openingOf(row: Pick<TransactionRow, 'type' | 'quantity' | 'trade_day'>): ManualOpening {
  return { side: openingSide(row.type), quantity: Math.abs(row.quantity), tradeDay: row.trade_day };
}

export class ManualDuplicates {
  private readonly superseded: SupersededRepository;
  private readonly accounts: AccountsRepository;
  private readonly imports: ImportsRepository;

  constructor(db: Database) {
    this.superseded = new SupersededRepository(db);
    this.accounts = new AccountsRepository(db);
    this.imports = new ImportsRepository(db);
  }

  /**
   * After import `importId`'s rows are stored, in its transaction: the manual openings its rows make duplicates (and that
   * were none before it) are retired. `accounts` are the import's accounts (id and name); a manual account of the same
   * name is the same account (a name typed before its file was imported).
   */
  supersede(turn: WriteTx, importId: number, accounts: ReadonlyArray<{ id: string; name: string }>): SupersededManual[] {
    if (accounts.length === 0) return [];
    const openings = this.superseded.manualOpenings();
    if (openings.length === 0) return [];
    const importIds = new Set(accounts.map((a) => a.id));
    const byName = new Map<string, string[]>();
    for (const a of accounts) byName.set(a.name, [...(byName.get(a.name) ?? []), a.id]);
    // Each candidate's accounts: its own, and the import's accounts of its name when it is a manual account.
    const candidates: Array<{ row: TransactionRow; accountIds: string[] }> = [];
    const known = new Map<string, { name: string; source: string } | null>();
    for (const row of openings) {
      let account = known.get(row.account_id);
      if (account === undefined) {
        account = this.accounts.byId(row.account_id);
        known.set(row.account_id, account);
      }
      const named = account !== null && account.source === MANUAL_SOURCE ? (byName.get(account.name) ?? []) : [];
      if (!importIds.has(row.account_id) && named.length === 0) continue;
      candidates.push({ row, accountIds: [...new Set([row.account_id, ...named])] });
    }
    if (candidates.length === 0) return [];
    const allAccounts = [...new Set(candidates.flatMap((c) => c.accountIds))];
    const rows = this.readImported(allAccounts, [...new Set(candidates.map((c) => c.row.symbol))]);
    // Only the instruments this import brought rows of can change.
    const touched = new Set(rows.filter((t) => t.importId === importId).map((t) => instrumentKey(t.accountId, t.symbol, t.currency)));
    const lastDays = this.superseded.lastImportedDays(allAccounts, importId);
    const byInstrument = groupByInstrument(rows);
    const retired: SupersededManual[] = [];
    for (const { row, accountIds } of candidates) {
      if (!accountIds.some((id) => touched.has(instrumentKey(id, row.symbol, row.currency)))) continue;
      const ofInstrument = accountIds.flatMap((id) => byInstrument.get(instrumentKey(id, row.symbol, row.currency)) ?? []);
      const opening = openingOf(row);
      const lastDay = (pick: 'all' | 'without') =>
        accountIds.reduce<string | null>((last, id) => {
          const day = lastDays.get(id)?.[pick] ?? null;
          return day !== null && (last === null || day > last) ? day : last;
        }, null);
      const cover = importedCover(opening, ofInstrument);
      if (!duplicatesImported(opening, cover, lastDay('all'))) continue;
      // A duplicate already before this import is not its doing (a journal from before the rule): left as it is.
      if (duplicatesImported(opening, importedCover(opening, ofInstrument.filter((t) => t.importId !== importId)), lastDay('without'))) continue;
      retired.push({ id: row.id, importId: row.import_id, accountId: row.account_id, type: row.type, symbol: row.symbol, quantity: Math.abs(row.quantity), tradeDate: row.trade_date, importedQuantity: cover.held });
    }
    if (retired.length > 0) this.superseded.retire(turn, retired.map((r) => r.id), importId);
    return retired;
  }

  /** Rows of manual import `importId` that an import superseded. */
  retiredOf(importId: number): number {
    return this.superseded.retiredOf(importId);
  }

  /** Undo of import `importId`: the manual rows it superseded come back (returned, to re-date and recount their imports). */
  restore(turn: WriteTx, importId: number): TransactionRow[] {
    return this.superseded.restore(turn, importId);
  }

  /**
   * The first manual opening among `entries` that duplicates imported rows: the problem naming the imported row (its id,
   * date and file), or null. `tradeDay` gives an entry's trade day (the journal zone).
   */
  refusal(entries: readonly CheckedEntry[], tradeDay: (tradeDate: string) => string, prefix: (index: number) => string): DomainError | null {
    const all = entries.map((entry, index) => ({ entry, index, tradeDay: tradeDay(entry.transaction.tradeDate) })).filter(({ entry }) => MANUAL_OPENING_TYPES.has(entry.transaction.type));
    if (all.length === 0) return null;
    const lastDays = this.superseded.lastImportedDays([...new Set(all.map(({ entry }) => entry.accountId))]);
    // An opening after its account's imported history is new activity: its rows need not be read.
    const openings = all.filter(({ entry, tradeDay: day }) => day <= (lastDays.get(entry.accountId)?.all ?? ''));
    if (openings.length === 0) return null;
    const accountIds = [...new Set(openings.map(({ entry }) => entry.accountId))];
    const rows = this.readImported(accountIds, [...new Set(openings.map(({ entry }) => entry.transaction.symbol))]);
    if (rows.length === 0) return null;
    const byInstrument = groupByInstrument(rows);
    // Each instrument's rows sorted once, each (instrument, side, day) walked once: a 10,000-row POST names few of them.
    const ordered = new Map<string, Transaction[]>();
    const covers = new Map<string, ImportedCover>();
    for (const { entry, index, tradeDay: day } of openings) {
      const t = entry.transaction;
      const key = instrumentKey(entry.accountId, t.symbol, t.currency);
      const ofInstrument = byInstrument.get(key) ?? [];
      if (ofInstrument.length === 0) continue;
      const opening: ManualOpening = { side: openingSide(t.type), quantity: Math.abs(t.quantity), tradeDay: day };
      let rowsInOrder = ordered.get(key);
      if (rowsInOrder === undefined) {
        rowsInOrder = inLedgerOrder(ofInstrument);
        ordered.set(key, rowsInOrder);
      }
      const coverKey = `${key}\u0000${opening.side}\u0000${opening.tradeDay}`;
      let cover = covers.get(coverKey);
      if (cover === undefined) {
        cover = coverOfOrdered(opening, rowsInOrder);
        covers.set(coverKey, cover);
      }
      if (!duplicatesImported(opening, cover, lastDays.get(entry.accountId)?.all ?? null)) continue;
      const imported = cover.opening;
      const record = imported === null ? null : this.imports.byId(imported.importId);
      return {
        kind: 'duplicate-of-imported',
        param: prefix(index).replace(/\.$/, ''),
        manual: { type: t.type, symbol: t.symbol, quantity: Math.abs(t.quantity), tradeDay: opening.tradeDay },
        held: cover.held,
        imported:
          imported === null
            ? null
            : { id: imported.id, type: imported.type, quantity: Math.abs(imported.quantity), tradeDate: imported.tradeDate, importId: imported.importId, broker: record?.broker ?? '', filename: record?.filename ?? null },
      };
    }
    return null;
  }

  private readImported(accountIds: readonly string[], symbols: readonly string[]): Transaction[] {
    const names = new Map<string, string>();
    return this.superseded.importedRows(accountIds, symbols).map((row) => toTransaction(row, names));
  }
}
