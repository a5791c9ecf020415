/**
 * What a broker file states about itself (DESIGN §5 "Reconciliation"): its total lines, its realized P&L and
 * commissions, the positions at the statement's end. An importer collects them as it reads (`ResultCollector.state`,
 * `ParseResult.statements`); after the insert the journal computes each figure for the same scope and instant and
 * the import's report carries both (`reconciliation`). A figure the journal cannot compute is still listed, with the
 * reason, never dropped.
 */

/**
 * - `cash_total`: the net cash of the file's rows in scope (a `TOTAL` / `Total:` line of the amounts).
 * - `realized_pl`: realized P&L over the period in scope (IBKR's Realized P/L, thinkorswim's P/L columns).
 * - `commissions`: commissions and fees charged on trade rows over the period, as a positive cost.
 * - `position`: what the account holds of one instrument at `asOf` (a positions section). A `position` with `symbol`
 *   null says the section is complete: the account holds nothing else of `rows` (options, stocks or all) in `currency`
 *   at `asOf`, so any other position the journal holds there differs (the broker's figure is 0).
 */
export const STATEMENT_KINDS = ['cash_total', 'realized_pl', 'commissions', 'position'] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

/** Which of the file's rows a money figure adds up. */
export const STATEMENT_ROWS = ['all', 'trades', 'options', 'stocks'] as const;
export type StatementRows = (typeof STATEMENT_ROWS)[number];

/** Statements kept per file: a hostile file can state a figure on every line (docs/importers.md §Bounded). */
export const MAX_STATEMENTS = 1_000;

/** What a figure is, when and where the file states it, and whose: what its reconciliation row repeats beside the journal's (reconciliation.ts). */
export interface StatementPlace {
  what: StatementKind;
  /** The file's own words for the figure (`TOTAL`, `OVERALL TOTALS`, `Total:`, `Realized P/L`, `Options`), shown beside it. */
  label: string;
  /** 1-based line where the file states it (the section's first line for a figure spread over a section); null if nowhere in particular. */
  line: number | null;
  /** The instant the figure holds at (ISO 8601 UTC): a position's moment, or the end of a total's period. */
  asOf: string;
  /** The start of the period a money figure covers (ISO 8601 UTC); null: from the file's first row. */
  from: string | null;
  currency: string;
  /** The account as the file's rows name it (`accountName` of its transactions); null: every account of the file. */
  accountName: string | null;
}

export interface FileStatement extends StatementPlace {
  /** Which rows a money figure adds up (ignored for `position`). */
  rows: StatementRows;
  /** Money kinds: the figure in minor units (1/10,000), signed as cash (+ received, − paid; a cost is positive for `commissions`). */
  valueMinor: number | null;
  /**
   * `position`: the instrument as the neutral transaction names it (OCC without padding for an option); null: the
   * section's completeness (above). A money figure: only that instrument's rows (IBKR's per-symbol realized P&L); null: all.
   */
  symbol: string | null;
  /** `position`: signed units (+ long, − short): shares, or contracts for an option. */
  quantity: number | null;
  /** `position`: its cost in minor units when the file gives one. */
  costMinor: number | null;
  /**
   * `realized_pl` only: true when the broker's figure is before commissions and fees (thinkorswim's P/L columns: a
   * real statement's P/L Day is its fills' gross cash plus P/L Open to the cent), so the journal's side adds back the
   * commissions and fees of the lots closed in the period. Absent: net of them, as the journal books realized P&L.
   */
  grossOfCosts?: boolean;
}
