/**
 * The rows of a thinkorswim statement as the mapper reads them (Account Trade History orders and their legs, Cash
 * Balance rows) and the context it reads them in. Their own file, below mapper.ts, positions.ts and removals.ts: the
 * mapper calls the other two and they take these shapes (docs/architecture.md §Layout: no import loops).
 */
import type { OptionRight } from '../../../src-shared/journal/model';
import type { Minor } from '../../../src-shared/money';
import type { ResultCollector, RowIdentity } from '../common/result';

export interface Context {
  accountName: string;
  zone: string;
  identity: RowIdentity;
  out: ResultCollector;
}

export interface When {
  /** `YYYY-MM-DD HH:MM:SS` (or `YYYY-MM-DD HH:MM` when the file gives no seconds), local to the statement. */
  key: string;
  /** `YYYY-MM-DD HH:MM`: what a time without seconds can be matched on. */
  minute: string;
  tradeDate: string;
  withSeconds: boolean;
}

export interface Contract {
  root: string;
  expiration: string;
  strike: number;
  right: OptionRight;
  multiplier: number;
}

export interface Leg {
  line: number;
  rowId: string;
  side: 'BUY' | 'SELL';
  quantity: number;
  effect: string;
  /** The ticker, or the future (`/NQM22`) for futures options. */
  symbol: string;
  option: Contract | null;
  priceMinor: Minor;
  description: string;
}

export interface Order {
  when: When;
  legs: Leg[];
  matched: boolean;
}

export interface CashRow {
  line: number;
  rowId: string;
  when: When;
  type: string;
  ref: string;
  description: string;
  miscFeesMinor: Minor;
  commissionMinor: Minor;
  amountMinor: Minor;
}
