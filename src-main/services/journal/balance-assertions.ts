/**
 * A broker's positions file beside the journal's book at an instant (POST /journal/reconcile, DESIGN §5
 * "Reconciliation", docs/journal.md §Reconciliation): each difference with its fix; saved, a balance assertion, whose
 * state against the journal as it is now reconciliation.ts keeps with the imports' (and flags the import that breaks it).
 */
import { costBasisMinor } from '../../../src-shared/journal/book';
import { comparePositions, sameAccount, QUANTITY_TOLERANCE, type BookPosition, type BrokerPosition, type PositionDifference } from '../../../src-shared/journal/reconciliation';
import { isoInstant } from '../../../src-shared/calendar';
import { asOfMs as asOfInZone } from '../../../src-shared/date-or-instant';
import type { AccountId } from '../../../src-shared/ids';
import { dateInZone } from '../../../src-shared/zone';
import type { BalanceAssertionRow, ReconciliationRepository } from '../../db/reconciliation';
import type { WriteTx } from '../../db/writes';
import { parsePositions, type PositionsFile } from '../../importers/positions/index';
import { failure, ok, type Result } from '../result';
import type { JournalBook } from './book';
import type { JournalIndex } from './ledger-index';

/** Balance assertions kept (the oldest goes when one more is saved). */
export const MAX_ASSERTIONS = 100;
/** A positions file's bytes (POST /journal/reconcile's body limit). */
export const MAX_POSITIONS_FILE_BYTES = 5 * 1024 * 1024;

/** A saved balance assertion and whether it holds now. */
export interface AssertionState {
  id: number;
  createdAt: string;
  asOf: string;
  accountId: string | null;
  format: string;
  filename: string | null;
  positions: number;
  holds: boolean;
  matched: number;
  differences: PositionDifference[];
}

export interface ReconcileRequest {
  text: string | Uint8Array;
  asOf?: string;
  accountId?: AccountId;
  save?: boolean;
  filename?: string | null;
}

export interface ReconcileAnswer {
  asOf: string;
  accountId: string | null;
  format: string;
  label: string;
  positions: number;
  skipped: number;
  matched: number;
  differences: PositionDifference[];
  /** The balance assertion stored (save=true), else null. */
  assertionId: number | null;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function readPositions(json: string): BrokerPosition[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? (parsed.filter(isObject) as unknown as BrokerPosition[]) : [];
  } catch {
    return [];
  }
}

export class BalanceAssertions {
  constructor(
    private readonly repo: ReconciliationRepository,
    private readonly index: JournalIndex,
    private readonly book: JournalBook,
    private readonly timeZone: () => string,
  ) {}

  /** An assertion as it stands against the journal now. */
  stateOf(row: BalanceAssertionRow): AssertionState {
    const positions = readPositions(row.positions_json);
    const compared = this.compare(positions, row.as_of, row.account_id);
    return {
      id: row.id,
      createdAt: row.created_at,
      asOf: row.as_of,
      accountId: row.account_id,
      format: row.format,
      filename: row.filename,
      positions: positions.length,
      holds: compared.differences.every((d) => d.kind === 'cost'),
      matched: compared.matched,
      differences: compared.differences,
    };
  }

  /** A broker's positions against the book at `asOf` (of one account, or of the whole journal). */
  private compare(positions: readonly BrokerPosition[], asOf: string, accountId: string | null): { matched: number; differences: PositionDifference[] } {
    const accounts = this.index.snapshot().accounts.map((a) => ({ id: a.id, name: a.name }));
    const { ledger } = this.book.bookAt(Date.parse(asOf));
    const book: BookPosition[] = ledger.positions
      .filter((p) => accountId === null || p.accountId === accountId)
      .filter((p) => Math.abs(p.quantity) > QUANTITY_TOLERANCE)
      .map((p) => ({
        accountId: p.accountId,
        accountName: accounts.find((a) => a.id === p.accountId)?.name ?? p.accountId,
        symbol: p.symbol,
        underlying: p.underlying,
        isOption: p.isOption,
        expiration: p.expiration,
        strike: p.strike,
        right: p.right,
        multiplier: p.multiplier,
        currency: p.currency,
        quantity: p.quantity,
        costMinor: costBasisMinor(p),
      }));
    // An opening goes before the first close the history lacks it for (docs/journal.md §Unmatched closes).
    const firstUnmatched = new Map<string, string>();
    for (const u of this.index.ledger().unmatched) {
      const key = `${u.accountId}|${u.currency}|${u.symbol}`;
      const known = firstUnmatched.get(key);
      if (known === undefined || Date.parse(u.firstTradeDate) < Date.parse(known)) firstUnmatched.set(key, u.firstTradeDate);
    }
    return comparePositions(positions, book, { asOf, asOfDay: dateInZone(Date.parse(asOf), this.timeZone()), accountId, accounts, firstUnmatched });
  }

  /**
   * The instant of a reconciliation: the query's (a date is the end of that journal day; an instant without an offset
   * is read in the journal zone), else the one the file states, else now.
   */
  private asOfOf(query: string | undefined, file: PositionsFile, nowMs: number): string {
    const zone = this.timeZone();
    if (query !== undefined) {
      return isoInstant(asOfInZone(query, zone));
    }
    return file.statedAsOf ?? isoInstant(nowMs);
  }

  /** Reads a positions file (nothing written: a refusal needs no turn). */
  read(request: ReconcileRequest): Result<PositionsFile> {
    const text = typeof request.text === 'string' ? request.text : Buffer.from(request.text.buffer, request.text.byteOffset, request.text.byteLength).toString('utf8');
    if (text.trim() === '') return failure({ kind: 'file-refused', unsupported: false, detail: 'The positions file is empty: send the broker’s positions export, a CSV "symbol,quantity[,cost]" or JSON {"positions": [...]}.', problems: [{ line: 1, message: 'the file is empty' }] });
    const parsed = parsePositions(text);
    if (!parsed.ok) {
      return failure({
        kind: 'file-refused',
        unsupported: parsed.problems.length === 0,
        detail: parsed.detail,
        problems: parsed.problems.map((p) => ({ line: p.line, message: p.message, ...(p.field === null ? {} : { param: p.field }) })),
      });
    }
    return ok(parsed.file);
  }

  /** The differences of a positions file with the book at `asOf`; stored as an assertion when `turn` is given (save=true). */
  reconcile(file: PositionsFile, request: ReconcileRequest, nowMs: number, save: { turn: WriteTx; createdAt: string } | null): Result<ReconcileAnswer> {
    const accountId = request.accountId ?? null;
    if (accountId !== null && !this.index.snapshot().accounts.some((a) => a.id === accountId)) {
      return failure({ kind: 'unknown-account', accountId, known: this.index.snapshot().accounts.map((a) => a.id) });
    }
    const asOf = this.asOfOf(request.asOf, file, nowMs);
    // The file's rows of the account reconciled, when it names accounts and one of them is that account.
    const scoped = accountId === null ? file.positions : this.ofAccount(file.positions, accountId);
    const { matched, differences } = this.compare(scoped, asOf, accountId);
    let assertionId: number | null = null;
    if (save !== null) {
      assertionId = this.repo.insertAssertion(save.turn, { created_at: save.createdAt, as_of: asOf, account_id: accountId, format: file.format, filename: request.filename ?? null, positions_json: JSON.stringify(scoped) }, MAX_ASSERTIONS);
    }
    return ok({ asOf, accountId, format: file.format, label: file.label, positions: scoped.length, skipped: file.skipped, matched, differences, assertionId });
  }

  /** A file's positions of one journal account: those whose named account is it, when any is; else all (the user says which account). */
  private ofAccount(positions: readonly BrokerPosition[], accountId: string): BrokerPosition[] {
    const name = this.index.snapshot().accounts.find((a) => a.id === accountId)?.name ?? '';
    const named = new Set(positions.map((p) => p.account).filter((a): a is string => a !== null));
    if (named.size <= 1) return [...positions];
    const mine = positions.filter((p) => p.account !== null && sameAccount(name, p.account));
    return mine.length > 0 ? mine : [...positions];
  }
}
