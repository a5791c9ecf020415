/**
 * What the journal's writes changed (docs/journal.md §Staying current), and the ledgers made from another without a
 * build from the first row: the book and the trades follow them (rowsSince, changeSince) instead of building again.
 */
import type { Ledger } from '../../../src-shared/journal/index';
import type { Transaction } from '../../../src-shared/journal/model';

/** A write that only added rows: those of this import (a file's, or manual entries'). */
export interface AddedRows {
  importId: number;
}

/** A write that changed rows of `fromDay` or later only (an undo, a manual row edited or removed). */
export interface ChangedRows {
  fromDay: string;
}

/** What a write changed, when it can say (docs/journal.md §Staying current); a write that cannot says nothing. */
export type JournalChange = AddedRows | ChangedRows;

/** The earlier of two days (null: none). */
export const earlier = (a: string | null, b: string | null): string | null => (a === null ? b : b === null || a <= b ? a : b);

/** Extensions remembered for the trades (a trades read comes after a few imports at most; older ones build again). */
export const MAX_EXTENSIONS = 16;

/**
 * A ledger made from another: walked on with `rows` (`fromDay` null), or resumed at the checkpoint of `fromDay` with
 * `rows`, every row from that day on.
 */
export interface Extension {
  from: Ledger;
  to: Ledger;
  rows: Transaction[];
  fromDay: string | null;
}

/** The last extensions and resumes of the journal's ledger (MAX_EXTENSIONS), cleared by a build from the first row. */
export class LedgerExtensions {
  private readonly steps: Extension[] = [];

  clear(): void {
    this.steps.length = 0;
  }

  remember(step: Extension): void {
    this.steps.push(step);
    if (this.steps.length > MAX_EXTENSIONS) this.steps.shift();
  }

  /** The rows walked from ledger `from` to ledger `to` by extensions alone (null: a build from the first row or a resume came between). */
  rowsSince(from: Ledger, to: Ledger): Transaction[] | null {
    let at = this.steps.findIndex((step) => step.from === from);
    if (at < 0) return null;
    const rows: Transaction[] = [];
    for (; at < this.steps.length; at += 1) {
      const step = this.steps[at];
      if (step === undefined || step.fromDay !== null) return null;
      for (const tx of step.rows) rows.push(tx);
      if (step.to === to) return rows;
    }
    return null;
  }

  /**
   * The first day whose rows may differ between ledger `from` and ledger `to` (made from it by extensions and resumes),
   * with every row from that day on when one resume alone made `to` (null: a build from the first row came between).
   */
  changeSince(from: Ledger, to: Ledger): { fromDay: string; rows: Transaction[] | null } | null {
    const first = this.steps.findIndex((step) => step.from === from);
    const last = this.steps.findIndex((step) => step.to === to);
    if (first < 0 || last < first) return null;
    const steps = this.steps.slice(first, last + 1);
    const [only] = steps;
    if (steps.length === 1 && only !== undefined && only.fromDay !== null) return { fromDay: only.fromDay, rows: only.rows };
    let day: string | null = null;
    for (const step of steps) {
      day = earlier(day, step.fromDay);
      for (const tx of step.rows) day = earlier(day, tx.tradeDay);
    }
    return day === null ? null : { fromDay: day, rows: null };
  }
}
