/**
 * What the ledger (ledger.ts) hands out and takes: the Ledger, its options, an account's dividends outside campaigns.
 * Types only, below the builder's parts (ledger-rows.ts, ledger-walk.ts), which make and read them.
 */
import type { AccountId } from '../ids';
import type { CampaignRecord } from './campaigns';
import type { Deliverable } from './corporate-actions';
import type { SpotFact, SpotLookup } from './collateral';
import type { LedgerCheckpoints } from './checkpoints';
import type { OpenPosition } from './lots';
import type { CorporateActionOutcome } from './constants';
import type { CurrencyDays } from './periods';
import type { RollRecord } from './rolls';
import type { UnmatchedOpening } from './unmatched';
import type { LedgerWarnings } from './records';

export interface Ledger {
  reportingCurrency: string;
  /** Every currency with transactions, reporting currency first, then alphabetical. */
  currencies: string[];
  byCurrency: Map<string, CurrencyDays>;
  campaigns: CampaignRecord[];
  rolls: RollRecord[];
  positions: OpenPosition[];
  /** Realized P&L booked by each row that closed something (closing fills, settlements), by transaction id. */
  realizedByTx: Map<string, number>;
  /** The openings the history lacks, oldest first (docs/journal.md §Unmatched closes). */
  unmatched: UnmatchedOpening[];
  /** Units each row removed beyond what was open, by transaction id (rows with an unmatched part only). */
  unmatchedByTx: Map<string, number>;
  warnings: LedgerWarnings;
  transactionCount: number;
  /** The latest instant among the transactions (epoch ms), −Infinity without any. */
  lastInstantMs: number;
  /** Closes at which a campaign held naked calls (Reg T collateral, which reads the spot at entry: LedgerOptions.spotAt). */
  regTCloses: number;
  /**
   * The spot at each short option position's entry (account, currency, symbol → each opening from flat, in order), when
   * built with `spotAt`: a book resumed from a checkpoint finds the entries of the positions it restores here.
   */
  entrySpots: Map<string, Array<{ ms: number; fact: SpotFact | null }>>;
  /**
   * Dividends no campaign held the shares for (campaigns.ts `dividendCampaign`), per account and currency, net of
   * withholding: in the summaries' dividends like every dividend, shown on the account (GET /journal/accounts).
   */
  accountDividends: AccountDividends[];
  /** The checkpoints of the build, when asked for (LedgerOptions.checkpointEvery). */
  checkpoints?: LedgerCheckpoints;
  /** What each corporate action (SPLIT / SYMBOL_CHANGE row, or one entered by hand) did, by transaction id. */
  actionOutcomes: Map<string, CorporateActionOutcome>;
  /** The deliverables of the option contracts corporate actions adjusted, by symbol (corporate-actions.ts). */
  deliverables: Map<string, Deliverable>;
  /** The adjusted root each action gave (a replay from a checkpoint gives the same). */
  actionRoots: Map<string, string>;
}

/** An account's dividends outside every campaign, in one currency. */
export interface AccountDividends {
  accountId: AccountId;
  currency: string;
  dividendsMinor: number;
}

export interface LedgerOptions {
  reportingCurrency: string;
  /** Record each campaign's timeline (CampaignStep per leg): for one campaign's detail, not for every read. */
  timeline?: boolean;
  /** Keep a checkpoint every this many rows (at day boundaries) for the book at past instants (docs/journal.md §Checkpoints). */
  checkpointEvery?: number;
  /** The snapshots' spot at an instant: a naked call's Reg T collateral reads it at the call's entry (else its strike). */
  spotAt?: SpotLookup;
}
